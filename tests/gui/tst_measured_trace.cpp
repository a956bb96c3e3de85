// File > Open measured trace (issue 28, item 3; app/gui/main_window_trace.cpp): the measured
// rows of each rank drawn below the predicted timeline, on one time axis; a file that is no
// trace leaves the window as it was and says why.
#include "app.h"
#include "document.h"
#include "main_window.h"
#include "recompute.h"

#include "charts/measured_run_view.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "sim/timeline.h"
#include "timeline/timeline_widget.h"

#include "../support/screenshot.h"

#include <QApplication>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <algorithm>
#include <memory>

using namespace scalescope;

class TestMeasuredTrace : public QObject
{
    Q_OBJECT

    QTemporaryDir dir_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<Document> document_;
    std::unique_ptr<Recomputer> recomputer_;
    std::unique_ptr<MainWindow> window_;

    static QString trace(const char *name)
    {
        return QStringLiteral(SCALESCOPE_SHARED_DIR "/traces/") + QLatin1String(name);
    }
    TimelineWidget *measured() const
    {
        return window_->findChild<TimelineWidget *>(QStringLiteral("measuredTimeline"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        // The shared traces must be there: a missing folder fails.
        QVERIFY2(QFile::exists(trace("a100-2rank-cnn-rank0.json.gz")),
                 qPrintable(trace("") + QStringLiteral(" is missing")));
    }

    void init()
    {
        settings_ = std::make_unique<QSettings>(dir_.filePath(QStringLiteral("settings.ini")),
                                                QSettings::IniFormat);
        document_ = std::make_unique<Document>();
        const Result<Scenario> s = loadScenarioFile(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json"),
            builtinCatalog());
        QVERIFY(s);
        document_->reset(s.value(), QString());
        recomputer_ = std::make_unique<Recomputer>();
        WindowContext ctx;
        ctx.document = document_.get();
        ctx.recomputer = recomputer_.get();
        ctx.settings = settings_.get();
        ctx.language = QStringLiteral("en");
        ctx.interactive = false;
        window_ = std::make_unique<MainWindow>(ctx);
        window_->resize(1280, 720);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(measured());
        QVERIFY(!measured()->isVisible());
    }

    void cleanup()
    {
        window_.reset();
        recomputer_.reset();
        document_.reset();
    }

    void oneRankDrawn()
    {
        QVERIFY(window_->openMeasuredTraces({trace("a100-2rank-cnn-rank0.json.gz")}));
        QVERIFY(measured()->isVisible());
        const auto t = measured()->timeline();
        QVERIFY(t);
        QCOMPARE(t->gpus(), 1);
        // Compute kernels and the all-reduces each have a row of their own; all-reduces are
        // data-parallel communication.
        for (Stream s : {Stream::Compute, Stream::Collective}) {
            const int row = static_cast<int>(s);
            QVERIFY2(t->rowEnd(row) > t->rowBegin(row), streamName(s));
        }
        const int collectives = static_cast<int>(Stream::Collective);
        for (size_t i = t->rowBegin(collectives); i < t->rowEnd(collectives); ++i)
            QCOMPARE(t->kind(i), SegmentKind::DpComm);
        // Three steps of about 220 ms from the first step's start.
        QVERIFY(t->endTime() > 0.6 && t->endTime() < 0.7);
        QVERIFY2(measured()->title().contains(QStringLiteral("NVIDIA A100-PG509-200")),
                 qPrintable(measured()->title()));
        window_->closeMeasuredTrace();
        QVERIFY(!measured()->isVisible());
        QVERIFY(!measured()->timeline());
    }

    void twoRanksDrawn()
    {
        QVERIFY(window_->openMeasuredTraces(
            {trace("a100-128rank-rank0.json.gz"), trace("a100-128rank-rank1.json.gz")}));
        QCOMPARE(measured()->timeline()->gpus(), 2);
        QVERIFY(measured()->title().contains(QStringLiteral("ranks 0, 1")));
    }

    // At the screenshot sizes, the predicted and the measured timelines both get room; with
    // SCALESCOPE_SCREENSHOT_DIR set, the window is saved there (docs/screenshots).
    void bothTimelinesFit_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void bothTimelinesFit()
    {
        QFETCH(QSize, size);
        window_->resize(size);
        auto *predicted = window_->findChild<TimelineWidget *>(QStringLiteral("timeline"));
        QVERIFY(predicted);
        QTRY_VERIFY_WITH_TIMEOUT(predicted->timeline() != nullptr, 60000);
        QVERIFY(window_->openMeasuredTraces({trace("a100-2rank-cnn-rank0.json.gz")}));
        QTest::qWait(50);
        QVERIFY2(measured()->height() >= 120 && predicted->height() >= 120,
                 qPrintable(QStringLiteral("measured %1 px, predicted %2 px")
                                .arg(measured()->height())
                                .arg(predicted->height())));
        const QByteArray out = qgetenv("SCALESCOPE_SCREENSHOT_DIR");
        if (!out.isEmpty())
            QVERIFY(window_->grab().save(QString::fromLocal8Bit(out) +
                                         QStringLiteral("/measured-trace-%1-en.png")
                                             .arg(QLatin1String(QTest::currentDataTag()))));
    }

    // The Measured run tab: the run's medians against the prediction of the same step, the
    // largest disagreement said, and "Fit the model to this run" writing a profile marked as
    // from a trace and applying it.
    void measuredRunTabComparesAndFits()
    {
        auto *view = window_->findChild<MeasuredRunView *>(QStringLiteral("measuredRunView"));
        QVERIFY(view);
        QVERIFY(view->measuredBars().isEmpty());
        QVERIFY(!window_->fitModelToMeasuredRun(dir_.filePath(QStringLiteral("none.json"))));
        auto *predicted = window_->findChild<TimelineWidget *>(QStringLiteral("timeline"));
        QTRY_VERIFY_WITH_TIMEOUT(predicted->timeline() != nullptr, 60000);
        // Before any run is measured, the page says how far the model has been from published
        // runs of this kind (analysis/track_record.h), and keeps saying it beside the run.
        const Summary &shown = window_->currentResult()->summary();
        QVERIFY(shown.run_kind);
        const QString record =
            QStringLiteral("On %1 published ").arg(trackRecord(*shown.run_kind).runs);
        QVERIFY2(view->trackRecordText().startsWith(record), qPrintable(view->trackRecordText()));
        QVERIFY(window_->openMeasuredTraces({trace("a100-2rank-cnn-rank0.json.gz")}));
        QVERIFY2(view->trackRecordText().startsWith(record), qPrintable(view->trackRecordText()));
        // Idle, exposed communication, communication, compute, step time (ms, bottom up).
        QList<qreal> m = view->measuredBars(), p = view->predictedBars();
        std::reverse(m.begin(), m.end());
        std::reverse(p.begin(), p.end());
        QCOMPARE(m.size(), 5);
        QCOMPARE(p.size(), 5);
        QVERIFY2(m[0] > 200 && m[0] < 240, qPrintable(QString::number(m[0]))); // ~220 ms steps
        QVERIFY(m[1] > 0 && m[1] <= m[0]);
        const Summary &summary = window_->currentResult()->summary();
        QVERIFY(std::abs(p[0] - summary.step_time_s * 1e3) < 1e-6 * p[0]);
        QVERIFY2(view->disagreementText().startsWith(QStringLiteral("The largest disagreement is")),
                 qPrintable(view->disagreementText()));
        // The default scenario's steps do not vary: the model's spread says so beside the
        // measured steps' range (issue 28, item 5).
        QVERIFY2(view->spreadText().startsWith(QStringLiteral("The model's steps do not vary")),
                 qPrintable(view->spreadText()));

        const QString profile = dir_.filePath(QStringLiteral("fitted.json"));
        QVERIFY(window_->fitModelToMeasuredRun(profile));
        QVERIFY(QFile::exists(profile));
        QFile f(profile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(root.value(QStringLiteral("x-source"))
                     .toObject()
                     .value(QStringLiteral("kind"))
                     .toString(),
                 QStringLiteral("measured trace"));
        QCOMPARE(QString::fromStdString(document_->scenario().hardware.calibration_path),
                 QFileInfo(profile).absoluteFilePath());
        QVERIFY2(view->fitReport().contains(QStringLiteral("fitted.json")),
                 qPrintable(view->fitReport()));
        // Never over one of the traces it comes from.
        QVERIFY(!window_->fitModelToMeasuredRun(trace("a100-2rank-cnn-rank0.json.gz")));

        window_->closeMeasuredTrace();
        QVERIFY(view->measuredBars().isEmpty());
        QVERIFY(!window_->fitModelToMeasuredRun(profile));
    }

    // A trace of another GPU than the scenario's: said above the bars, so that the
    // disagreement is not read as the model's error; gone once the scenario models that GPU.
    void gpuMismatchSaid()
    {
        auto *view = window_->findChild<MeasuredRunView *>(QStringLiteral("measuredRunView"));
        QVERIFY(view);
        auto *predicted = window_->findChild<TimelineWidget *>(QStringLiteral("timeline"));
        QTRY_VERIFY_WITH_TIMEOUT(predicted->timeline() != nullptr, 60000);
        QVERIFY(window_->openMeasuredTraces({trace("a100-2rank-cnn-rank0.json.gz")}));
        // The default scenario runs RTX 4090s; the trace an A100.
        QVERIFY2(view->gpuMismatchText().startsWith(
                     QStringLiteral("The trace ran on NVIDIA A100-PG509-200 and the scenario "
                                    "models NVIDIA GeForce RTX 4090")),
                 qPrintable(view->gpuMismatchText()));
        auto *label = view->findChild<QLabel *>(QStringLiteral("measuredRunGpuMismatch"));
        QVERIFY(label && label->isVisibleTo(view));
        Scenario s = document_->scenario();
        const GpuSpec *a100 = builtinCatalog().findGpu("a100-pcie-80gb");
        QVERIFY(a100);
        s.hardware.gpu = *a100;
        document_->edit(s, QStringLiteral("A100"));
        QTRY_VERIFY_WITH_TIMEOUT(window_->currentResult() &&
                                     window_->currentResult()->scenario.hardware.gpu.id ==
                                         "a100-pcie-80gb",
                                 60000);
        QVERIFY2(view->gpuMismatchText().isEmpty(), qPrintable(view->gpuMismatchText()));
        QVERIFY(!label->isVisibleTo(view));
        // The predicted bars are of the result on screen, not the one before the edit.
        QList<qreal> p = view->predictedBars();
        std::reverse(p.begin(), p.end());
        const double step_ms = window_->currentResult()->summary().step_time_s * 1e3;
        QVERIFY2(std::abs(p.front() - step_ms) < 1e-6 * step_ms,
                 qPrintable(QStringLiteral("%1 vs %2").arg(p.front()).arg(step_ms)));
        window_->closeMeasuredTrace();
        QVERIFY(view->gpuMismatchText().isEmpty());
    }

    // Traces dropped on the window open as the measured run (a scenario dropped opens as the
    // document, tested with the files).
    void droppedTracesOpen()
    {
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(trace("a100-128rank-rank0.json.gz")),
                      QUrl::fromLocalFile(trace("a100-128rank-rank1.json.gz"))});
        QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &data, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(window_.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(window_.get(), &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY(measured()->isVisible());
        QCOMPARE(measured()->timeline()->gpus(), 2);
        auto *tabs = window_->findChild<QTabWidget *>(QStringLiteral("resultTabs"));
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Measured run"));
    }

    // The measured step's critical path (issue 28, item 4): drawn on the measured rows, each
    // stretch on a kernel of its row, and said under the bars. DeepSeek-V3's DualPipe chunk
    // keeps its GPU busy: its path is compute and the expert all-to-all.
    void measuredCriticalPathDrawnAndSaid_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void measuredCriticalPathDrawnAndSaid()
    {
        QFETCH(QSize, size);
        window_->resize(size);
        auto *view = window_->findChild<MeasuredRunView *>(QStringLiteral("measuredRunView"));
        QVERIFY(view);
        QVERIFY(view->criticalPathText().isEmpty());
        QVERIFY(window_->openMeasuredTraces({trace("deepseek-v3-dualpipe-h800-rank0.json.gz")}));
        const auto t = measured()->timeline();
        QVERIFY(t && !t->criticalPath().empty());
        // Its collectives are DeepEP and NCCL all-to-alls: drawn as the expert exchange.
        const int collectives = static_cast<int>(Stream::Collective);
        QVERIFY(t->rowEnd(collectives) > t->rowBegin(collectives));
        for (size_t i = t->rowBegin(collectives); i < t->rowEnd(collectives); ++i)
            QCOMPARE(t->kind(i), SegmentKind::EpComm);
        for (const CriticalSpan &span : t->criticalPath()) {
            // Inside one segment of its row (the union of that row's kernels).
            bool inside = false;
            for (size_t i = t->rowBegin(span.row); i < t->rowEnd(span.row) && !inside; ++i)
                inside = t->start(i) <= span.start_s + 1e-9 &&
                         span.end_s <= t->start(i) + t->duration(i) + 1e-6;
            QVERIFY2(inside, qPrintable(QStringLiteral("row %1: %2-%3 s")
                                            .arg(span.row)
                                            .arg(span.start_s)
                                            .arg(span.end_s)));
        }
        const QString text = view->criticalPathText();
        QVERIFY2(text.startsWith(QStringLiteral("Critical path of step 1 (rank 0, 129.0 ms): "
                                                "compute ")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("inferred from timing")));
        window_->closeMeasuredTrace();
        QVERIFY(view->criticalPathText().isEmpty());

        if (!screenshot::wanted())
            return;
        // The measured chunk beside its prediction, both axes on the chunk's 130 ms.
        QVERIFY(window_->openMeasuredTraces({trace("deepseek-v3-dualpipe-h800-rank0.json.gz")}));
        measured()->setTimeRange(0, 0.13);
        QVERIFY(
            screenshot::save(*window_, QStringLiteral("measured-critical-path-deepseek"), size));
    }

    // Where the model's steps vary (jitter and a straggler), their P50 / P90 / P99 over many
    // simulated steps sit beside the measured steps' range (issue 28, item 5).
    void modelSpreadBesideTheMeasuredSteps()
    {
        const Result<Scenario> s =
            loadScenarioFile(QStringLiteral(SCALESCOPE_SOURCE_DIR
                                            "/resources/scenarios/claim05-a-sync-straggler.json"),
                             builtinCatalog());
        QVERIFY(s);
        document_->reset(s.value(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(window_->currentResult() &&
                                     window_->currentResult()->scenario.name == s.value().name &&
                                     window_->currentResult()->spread.has_value(),
                                 60000);
        const StepSpread spread = *window_->currentResult()->spread;
        QVERIFY(spread.steps > 1 && spread.p90_s > spread.p50_s);
        QVERIFY(window_->openMeasuredTraces({trace("a100-2rank-cnn-rank0.json.gz")}));
        auto *view = window_->findChild<MeasuredRunView *>(QStringLiteral("measuredRunView"));
        const QString text = view->spreadText();
        QVERIFY2(text.startsWith(
                     QStringLiteral("The model's steps (%1 simulated): P50 ").arg(spread.steps)),
                 qPrintable(text));
        QVERIFY2(
            text.contains(
                QStringLiteral("P90 %1 ms").arg(QLocale().toString(spread.p90_s * 1e3, 'f', 1))),
            qPrintable(text));
    }

    // Screenshots of the Measured run tab (SCALESCOPE_SCREENSHOT_DIR).
    void measuredRunTabScreenshots_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void measuredRunTabScreenshots()
    {
        QFETCH(QSize, size);
        window_->resize(size);
        // A scenario like the traced job: a CNN under DDP on 2 x A100.
        const Result<Scenario> job = parseScenario(R"json({ "scalescope": 1,
          "name": "ResNet-50 under DDP on 2 x A100 (like the traced job)",
          "hardware": { "gpu": "a100-sxm4-80gb", "gpus_per_node": 2, "intra_node": "nvlink3" },
          "model": "resnet50", "training": { "global_batch": 64, "micro_batch": 32,
          "precision": "fp16", "optimizer": "sgd", "framework": "pytorch-ddp" } })json",
                                                   builtinCatalog());
        QVERIFY(job);
        document_->reset(job.value(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(
            window_->currentResult() && window_->currentResult()->summary().gpus == 2, 60000);
        QVERIFY(window_->openMeasuredTraces({trace("a100-2rank-cnn-rank0.json.gz")}));
        QVERIFY(window_->showTab(QStringLiteral("measured")));
        QTest::qWait(50);
        auto *chart = window_->findChild<QWidget *>(QStringLiteral("measuredRunChart"));
        QVERIFY(chart && chart->isVisible() && chart->height() >= 150);
        const QByteArray out = qgetenv("SCALESCOPE_SCREENSHOT_DIR");
        if (!out.isEmpty())
            QVERIFY(window_->grab().save(QString::fromLocal8Bit(out) +
                                         QStringLiteral("/measured-run-tab-%1-en.png")
                                             .arg(QLatin1String(QTest::currentDataTag()))));
    }

    void notATraceKeepsTheWindow()
    {
        QVERIFY(window_->openMeasuredTraces({trace("a100-2rank-cnn-rank0.json.gz")}));
        const auto before = measured()->timeline();
        const QString bad = dir_.filePath(QStringLiteral("not-a-trace.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": []}");
        f.close();
        QVERIFY(!window_->openMeasuredTraces({bad}));
        QCOMPARE(measured()->timeline(), before);
        QVERIFY(measured()->isVisible());
        QVERIFY2(window_->statusBar()->currentMessage().contains(QStringLiteral("no GPU kernels")),
                 qPrintable(window_->statusBar()->currentMessage()));
    }
};

QTEST_MAIN(TestMeasuredTrace)
#include "tst_measured_trace.moc"
