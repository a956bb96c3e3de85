// Benchmark (label bench, issue 15): on large clusters the window answers in stages. Prints,
// for an edit of the jitter on GPT-3 175B over 1,024 A100 (3.6 million segments), the time
// from the edit to the status bar, to the timeline and to the complete result (median, p90,
// max), and the time to a complete result of a 131,072-GPU scenario. Never fails on time.
#include "bench_window.h"

#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace scalescope;

namespace
{
void print(const char *what, std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    std::printf("BENCH %-28s median %8.1f ms  p90 %8.1f ms  max %8.1f ms  (%zu edits)\n", what,
                ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 9 / 10)], ms.back(),
                ms.size());
}
} // namespace

class BenchGuiStages : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void editToStatusAndTimeline();
};

void BenchGuiStages::editToStatusAndTimeline()
{
    Result<Scenario> big = loadScenarioFile(
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/bench/scenarios/gpt3-175b-1024-jitter.json"),
        builtinCatalog());
    QVERIFY(big.ok());
    bench::BenchWindow bw(big.value());
    MainWindow &window = *bw.window;
    Document &document = bw.document;
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto wait = [&] { return bw.waitForNewest(120000); };
    window.requestRecompute();
    QVERIFY(wait());
    QVERIFY(window.currentResult()->ok());
    auto *jitter = window.findChild<QDoubleSpinBox *>(QStringLiteral("jitterSpin"));
    QVERIFY(jitter);
    std::vector<double> status, timeline, complete;
    for (int rep = 0; rep < 12; ++rep) {
        jitter->setValue(rep % 2 == 0 ? 3.5 : 3.0);
        QVERIFY(wait());
        status.push_back(window.lastStatusLatencyMs());
        timeline.push_back(window.lastTimelineLatencyMs());
        complete.push_back(window.lastLatencyMs());
        if (qEnvironmentVariableIsSet("BENCH_VERBOSE"))
            std::printf("rep %d: %.1f %.1f %.1f\n", rep, status.back(), timeline.back(),
                        complete.back());
    }
    std::printf("GPT-3 175B on 1,024 A100, jitter edited (timeline of %zu segments drawn)\n",
                window.currentResult()->timeline() ? window.currentResult()->timeline()->size() : 0);
    print("edit to status bar", status);
    print("edit to timeline", timeline);
    print("edit to complete result", complete);

    // 131,072 GPUs with jitter: from opening to the complete result.
    Result<Scenario> huge = loadScenarioFile(
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/bench/scenarios/gpt-131072-jitter.json"),
        builtinCatalog());
    QVERIFY(huge.ok());
    QElapsedTimer t;
    t.start();
    document.reset(huge.value(), QString());
    window.requestRecompute();
    QVERIFY(wait());
    const ResultPtr r = window.currentResult();
    QVERIFY(r->ok());
    std::printf("BENCH 131,072 GPUs with jitter: complete result in %.0f ms (status bar after "
                "%.1f ms, timeline after %.0f ms, %zu segments drawn, %zu sweep points)\n",
                static_cast<double>(t.nsecsElapsed()) / 1e6, window.lastStatusLatencyMs(),
                window.lastTimelineLatencyMs(), r->timeline() ? r->timeline()->size() : 0,
                r->sweep().size());
}

QTEST_MAIN(BenchGuiStages)
#include "bench_gui_stages.moc"
