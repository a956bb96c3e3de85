// The engine's output against recorded timelines (issue 15): every segment of every GPU of
// the gallery scenarios and of tests/model/golden/*.json, as the engine produced them
// before its data-parallel replicas were processed together. A faster engine must give the
// same segments: same rows, kinds, labels and micro-batches, and times within floating-point
// reordering, stated here:
//   starts and ends:  |a - b| <= 1e-9 x the timeline's span
//   durations:        stored as float, so in addition 4 float epsilons of the duration
//   step time and breakdown: 1e-9 relative (plus 1e-15 s)
// SCALESCOPE_WRITE_GOLDEN=1 rewrites the recordings (only after a deliberate model change;
// say so in the commit).
#include "testutil.h"

#include "analysis/step_evaluation.h"
#include "analysis/sweep.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace scalescope;
using namespace scalescope::test;

namespace
{

struct Case {
    QString file;
    QString name;
    int iterations = 1;
    size_t max_segments = 40'000'000;
};

std::vector<Case> cases()
{
    std::vector<Case> out;
    const QDir gallery(QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios"));
    for (const QString &f : gallery.entryList({QStringLiteral("*.json")}, QDir::Files))
        out.push_back({gallery.filePath(f), QFileInfo(f).completeBaseName(), 1});
    const QDir golden(QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/model/golden"));
    for (const QString &f : golden.entryList({QStringLiteral("*.json")}, QDir::Files))
        out.push_back({golden.filePath(f), QFileInfo(f).completeBaseName(), 2});
    // The simplified (merged) timeline of the largest one.
    out.push_back({golden.filePath(QStringLiteral("interleaved-64-jitter.json")),
                   QStringLiteral("interleaved-64-jitter-merged"), 2, 6000});
    return out;
}

std::string hex(double x)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", x);
    return buf;
}

// The recording: a header of result figures, then one line per segment.
std::string record(const SimResult &r)
{
    std::string s;
    const Breakdown &b = r.breakdown;
    s += "step " + hex(r.step_time_s) + "\n";
    s += "breakdown";
    for (double x :
         {b.compute, b.communication_exposed, b.communication_total, b.pipeline_bubble, b.wait,
          b.data_loading, b.tp_comm, b.dp_comm, b.pp_comm, b.pp_exposed, b.optimizer})
        s += " " + hex(x);
    s += "\nwindow " + hex(r.window_start_s) + " " + hex(r.window_end_s) + "\n";
    s += "main_wait " + (r.main_wait ? labelText(*r.main_wait) : std::string()) + "\n";
    s += "merge " + hex(r.timeline_merge_quantum_s) + " " +
         std::to_string(r.timeline_full_segments) + "\n";
    const Timeline &t = *r.timeline;
    s += "segments " + std::to_string(t.size()) + " end " + hex(t.endTime()) + "\n";
    for (int row = 0; row < t.rows(); ++row)
        for (size_t i = t.rowBegin(row); i < t.rowEnd(row); ++i)
            s += std::to_string(row) + " " + hex(t.start(i)) + " " + hex(t.duration(i)) + " " +
                 std::to_string(static_cast<int>(t.kind(i))) + " " +
                 std::to_string(t.microBatch(i)) + " " + t.label(i) + "\n";
    return s;
}

std::vector<std::string> lines(const std::string &s)
{
    std::vector<std::string> out;
    size_t a = 0;
    while (a < s.size()) {
        const size_t e = s.find('\n', a);
        out.push_back(s.substr(a, e - a));
        a = e == std::string::npos ? s.size() : e + 1;
    }
    return out;
}

std::vector<std::string> fields(const std::string &line, int n)
{
    // The first n-1 fields are space separated; the last is the rest (a label has spaces).
    std::vector<std::string> out;
    size_t a = 0;
    for (int k = 0; k < n - 1; ++k) {
        const size_t e = line.find(' ', a);
        if (e == std::string::npos)
            break;
        out.push_back(line.substr(a, e - a));
        a = e + 1;
    }
    out.push_back(line.substr(std::min(a, line.size())));
    return out;
}

bool near(double a, double b, double tol)
{
    return std::fabs(a - b) <= tol;
}

double spanOf(const std::string &text)
{
    const size_t at = text.find(" end ");
    return at == std::string::npos ? 0 : std::strtod(text.c_str() + at + 5, nullptr);
}

// Compares two recordings; returns the first difference, or an empty string.
std::string compare(const std::string &want_text, const std::string &got_text)
{
    const std::vector<std::string> want = lines(want_text), got = lines(got_text);
    if (want.size() != got.size())
        return "line count " + std::to_string(got.size()) + ", recorded " +
               std::to_string(want.size());
    const double span = spanOf(want_text);
    for (size_t i = 0; i < want.size(); ++i) {
        const std::string &w = want[i], &g = got[i];
        if (w == g)
            continue;
        const std::vector<std::string> wf = fields(w, 64), gf = fields(g, 64);
        const auto fail = [&] { return "line " + std::to_string(i + 1) + ": " + g + " | " + w; };
        if (i < 6) {
            // Header figures: numbers within 1e-9 relative, words exactly.
            if (wf.size() != gf.size() || wf[0] != gf[0])
                return fail();
            if (wf[0] == "main_wait")
                return fail();
            for (size_t k = 1; k < wf.size(); ++k) {
                char *end = nullptr;
                const double a = std::strtod(wf[k].c_str(), &end);
                if (*end != '\0') {
                    if (wf[k] != gf[k])
                        return fail();
                    continue;
                }
                const double b = std::strtod(gf[k].c_str(), nullptr);
                if (!near(a, b, 1e-9 * std::fabs(a) + 1e-15))
                    return fail();
            }
            continue;
        }
        const std::vector<std::string> ws = fields(w, 6), gs = fields(g, 6);
        if (ws.size() != 6 || gs.size() != 6 || ws[0] != gs[0] || ws[3] != gs[3] ||
            ws[4] != gs[4] || ws[5] != gs[5])
            return fail();
        const double tol = 1e-9 * span;
        const double ws1 = std::strtod(ws[1].c_str(), nullptr),
                     gs1 = std::strtod(gs[1].c_str(), nullptr);
        const double wd = std::strtod(ws[2].c_str(), nullptr),
                     gd = std::strtod(gs[2].c_str(), nullptr);
        if (!near(ws1, gs1, tol) || !near(wd, gd, tol + 4 * FLT_EPSILON * std::fabs(wd)))
            return fail();
    }
    return {};
}

} // namespace

class TestEngineGolden : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameSegmentsAsRecorded_data();
    void sameSegmentsAsRecorded();
    void breakdownWithoutTimelineIsTheSame_data();
    void breakdownWithoutTimelineIsTheSame();
    void comparisonDetectsADifference();
    void sameOnEveryThreadCount();
    void cancelledSimulationSaysSo();
    void communicationSegmentsCarryTheirBytes();
    void sweepPointsBeyondTheBudgetAreClosedForm();
};

void TestEngineGolden::sameSegmentsAsRecorded_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("iterations");
    QTest::addColumn<qulonglong>("max_segments");
    for (const Case &c : cases())
        QTest::newRow(qPrintable(c.name))
            << c.file << c.name << c.iterations << qulonglong(c.max_segments);
}

void TestEngineGolden::sameSegmentsAsRecorded()
{
    QFETCH(QString, file);
    QFETCH(QString, name);
    QFETCH(int, iterations);
    QFETCH(qulonglong, max_segments);
    Result<Scenario> s = loadScenarioFile(file, builtinCatalog());
    QVERIFY2(s.ok(), s ? "" : s.error().toString().c_str());
    if (s.value().isCollective())
        QSKIP("a collective-only scenario has no timeline");
    const auto ctx = contextFrom(s.value());
    SimOptions o;
    o.iterations = iterations;
    o.build_timeline = true;
    o.max_segments = max_segments;
    const SimResult r = simulate(*ctx, o);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.timeline.has_value());
    const std::string got = record(r);
    const QString path =
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/model/golden/%1.golden").arg(name);
    if (qEnvironmentVariableIsSet("SCALESCOPE_WRITE_GOLDEN")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(qCompress(QByteArray::fromStdString(got), 9));
        std::printf("wrote %s (%zu segments)\n", qPrintable(path), r.timeline->size());
        return;
    }
    QFile f(path);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path + QStringLiteral(" is missing")));
    const std::string want = qUncompress(f.readAll()).toStdString();
    QVERIFY2(!want.empty(), qPrintable(path + QStringLiteral(" is not a recording")));
    const std::string diff = compare(want, got);
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestEngineGolden::breakdownWithoutTimelineIsTheSame_data()
{
    sameSegmentsAsRecorded_data();
}

void TestEngineGolden::breakdownWithoutTimelineIsTheSame()
{
    // The summary path (no timeline) accounts the same time as the timeline path.
    QFETCH(QString, file);
    QFETCH(int, iterations);
    Result<Scenario> s = loadScenarioFile(file, builtinCatalog());
    QVERIFY(s.ok());
    if (s.value().isCollective())
        QSKIP("a collective-only scenario has no timeline");
    const auto ctx = contextFrom(s.value());
    SimOptions o;
    o.iterations = iterations;
    const SimResult a = simulate(*ctx, o);
    o.build_timeline = true;
    const SimResult b = simulate(*ctx, o);
    QVERIFY(a.ok && b.ok);
    QCOMPARE(a.step_time_s, b.step_time_s);
    const double tol = 1e-9 * a.step_time_s;
    QVERIFY(std::fabs(a.breakdown.compute - b.breakdown.compute) <= tol);
    QVERIFY(std::fabs(a.breakdown.wait - b.breakdown.wait) <= tol);
    QVERIFY(std::fabs(a.breakdown.communication_exposed - b.breakdown.communication_exposed) <=
            tol);
    QVERIFY(std::fabs(a.breakdown.pipeline_bubble - b.breakdown.pipeline_bubble) <= tol);
    QVERIFY(std::fabs(a.breakdown.data_loading - b.breakdown.data_loading) <= tol);
    QCOMPARE(a.main_wait, b.main_wait);
}

void TestEngineGolden::comparisonDetectsADifference()
{
    // The comparison itself: a moved segment, a changed label and a missing line fail it.
    const std::string base = "step 0x1p+0\nbreakdown 0x1p+0\nwindow 0x0p+0 0x1p+0\n"
                             "main_wait \nmerge 0x0p+0 0\nsegments 1 end 0x1p+0\n"
                             "0 0x0p+0 0x1p-1 0 3 forward\n";
    QVERIFY(compare(base, base).empty());
    std::string moved = base;
    moved.replace(moved.find("0 0x0p+0 0x1p-1"), 15, "0 0x1p-4 0x1p-1");
    QVERIFY(!compare(base, moved).empty());
    std::string relabelled = base;
    relabelled.replace(relabelled.find("forward"), 7, "backward");
    QVERIFY(!compare(base, relabelled).empty());
    QVERIFY(!compare(base, base.substr(0, base.rfind("0 0x0p"))).empty());
}

void TestEngineGolden::sameOnEveryThreadCount()
{
    // Units are split over threads, each writes only its own GPUs' rows, and the breakdown
    // is summed in unit order: one thread or several give the same bytes.
    for (const char *name : {"interleaved-64-jitter", "zero3-16-thermal", "async-loader-8"}) {
        Result<Scenario> s =
            loadScenarioFile(QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/model/golden/%1.json")
                                 .arg(QLatin1String(name)),
                             builtinCatalog());
        QVERIFY(s.ok());
        const auto ctx = contextFrom(s.value());
        SimOptions o;
        o.iterations = 2;
        o.build_timeline = true;
        std::string first;
        for (int threads : {1, 2, 3, 8}) {
            o.threads = threads;
            const SimResult r = simulate(*ctx, o);
            QVERIFY2(r.ok, r.error.c_str());
            const std::string got = record(r);
            if (first.empty())
                first = got;
            QVERIFY2(got == first, qPrintable(QStringLiteral("%1 with %2 threads differs")
                                                  .arg(QLatin1String(name))
                                                  .arg(threads)));
        }
    }
}

void TestEngineGolden::communicationSegmentsCarryTheirBytes()
{
    // Issue 13: collective tooltips without size or bandwidth. Every transfer segment says
    // what it moves; compute and waiting move nothing.
    Result<Scenario> s = loadScenarioFile(
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/model/golden/interleaved-64-jitter.json"),
        builtinCatalog());
    QVERIFY(s.ok());
    const auto ctx = contextFrom(s.value());
    SimOptions o;
    o.build_timeline = true;
    const SimResult r = simulate(*ctx, o);
    QVERIFY(r.ok);
    const Timeline &t = *r.timeline;
    int collectives = 0, sends = 0, tp = 0;
    for (int row = 0; row < t.rows(); ++row) {
        const auto stream = static_cast<Stream>(row % kStreamCount);
        for (size_t i = t.rowBegin(row); i < t.rowEnd(row); ++i) {
            const SegmentKind k = t.kind(i);
            if (stream == Stream::Collective && k == SegmentKind::DpComm) {
                QVERIFY(t.bytes(i) > 0);
                ++collectives;
            } else if (stream == Stream::PointToPoint) {
                QCOMPARE(t.bytes(i), static_cast<float>(ctx->workload.p2p_bytes));
                ++sends;
            } else if (stream == Stream::Compute && k == SegmentKind::TpComm) {
                QVERIFY(t.bytes(i) > 0);
                ++tp;
            } else if (k == SegmentKind::Compute || k == SegmentKind::Wait ||
                       k == SegmentKind::Bubble) {
                QCOMPARE(t.bytes(i), 0.0f);
            }
        }
    }
    QVERIFY(collectives > 0 && sends > 0 && tp > 0);
}

void TestEngineGolden::cancelledSimulationSaysSo()
{
    Result<Scenario> s = loadScenarioFile(
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/model/golden/interleaved-64-jitter.json"),
        builtinCatalog());
    QVERIFY(s.ok());
    const auto ctx = contextFrom(s.value());
    std::atomic<bool> cancel{true};
    SimOptions o;
    o.build_timeline = true;
    o.cancel = &cancel;
    const SimResult r = simulate(*ctx, o);
    QVERIFY(!r.ok);
    QVERIFY(r.cancelled);
    QVERIFY(!r.timeline);
    const Result<StepEvaluation> e = evaluateStep(*ctx, o);
    QVERIFY(!e.ok());
    QVERIFY(isCancelled(e.error()));
    cancel.store(false);
    QVERIFY(simulate(*ctx, o).ok);
}

void TestEngineGolden::sweepPointsBeyondTheBudgetAreClosedForm()
{
    // A sweep point over the caller's engine budget is the closed form's, and marked.
    Result<Scenario> s = loadScenarioFile(
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/model/golden/interleaved-64-jitter.json"),
        builtinCatalog());
    QVERIFY(s.ok());
    SimOptions o;
    const auto small = sweep(s.value(), {16, 64}, Scaling::Strong, 0, -1, o);
    QVERIFY(small.ok());
    const size_t tasks16 =
        estimatedTasks(*contextFrom(scaledScenario(s.value(), 16, Scaling::Strong).value()), o);
    o.max_tasks = tasks16 + 1; // 16 GPUs fit, 64 do not
    const auto rows = sweep(s.value(), {16, 64}, Scaling::Strong, 0, -1, o);
    QVERIFY(rows.ok());
    QCOMPARE(rows.value().size(), size_t(2));
    QVERIFY(!rows.value()[0].closed_form);
    QVERIFY(rows.value()[1].closed_form);
    QCOMPARE(rows.value()[0].summary.step_time_s, small.value()[0].summary.step_time_s);
    QVERIFY(!small.value()[1].closed_form);
}

QTEST_GUILESS_MAIN(TestEngineGolden)
#include "tst_engine_golden.moc"
