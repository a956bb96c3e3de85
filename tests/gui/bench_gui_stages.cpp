// Benchmark (label bench, issues 15 and 27): on large clusters the window answers in stages.
// Prints, for an edit of the jitter on GPT-3 175B over 1,024 A100 (3.6 million segments),
// DeepSeek-V3 over 2,048 H800 and Mixtral 8x7B over 1,024 GPUs, the time from the edit to the
// status bar, to the timeline and to the complete result (median, p90, max), and the time to
// a complete result of a 131,072-GPU scenario. Never fails on time.
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
#include <utility>
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
    // Twelve edits of the jitter on the open scenario: status bar, timeline, complete result.
    const auto editLoop = [&](const char *title) {
        std::vector<double> status, timeline, complete;
        for (int rep = 0; rep < 12; ++rep) {
            jitter->setValue(rep % 2 == 0 ? 3.5 : 3.0);
            if (!wait())
                return false;
            status.push_back(window.lastStatusLatencyMs());
            timeline.push_back(window.lastTimelineLatencyMs());
            complete.push_back(window.lastLatencyMs());
            if (qEnvironmentVariableIsSet("BENCH_VERBOSE"))
                std::printf("rep %d: %.1f %.1f %.1f\n", rep, status.back(), timeline.back(),
                            complete.back());
        }
        const ResultPtr r = window.currentResult();
        std::printf("%s, jitter edited (timeline of %zu segments drawn)\n", title,
                    r->timeline() ? r->timeline()->size() : 0);
        print("edit to status bar", status);
        print("edit to timeline", timeline);
        print("edit to complete result", complete);
        return true;
    };
    QVERIFY(editLoop("GPT-3 175B on 1,024 A100"));
    // Issue 27: the window stays interactive on the MoE benchmarks' scenarios.
    for (const auto &[file, title] :
         {std::pair{"deepseek-v3-2048-jitter.json", "DeepSeek-V3 on 2,048 H800"},
          std::pair{"mixtral-1024-jitter.json", "Mixtral 8x7B on 1,024 GPUs"}}) {
        Result<Scenario> moe = loadScenarioFile(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/bench/scenarios/%1")
                .arg(QLatin1String(file)),
            builtinCatalog());
        QVERIFY(moe.ok());
        document.reset(moe.value(), QString());
        window.requestRecompute();
        QVERIFY(wait());
        QVERIFY(window.currentResult()->ok());
        QVERIFY(editLoop(title));
    }

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
