// Issue 26, finding 9: at 131,072 GPUs zooming in never showed detail (every row stayed
// "several items merged"). The simplified timeline keeps every item for the GPUs of the first
// data-parallel replica (sim/sim_timeline.cpp): zoomed into a few milliseconds, GPU 0's rows
// show the step's own items, while a GPU of another replica stays merged.
#include "app.h"
#include "document.h"
#include "main_window.h"
#include "recompute.h"

#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "sim/labels.h"
#include "sim/timeline.h"
#include "timeline/timeline_widget.h"

#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace scalescope;

class TestZoomDetail : public QObject
{
    Q_OBJECT

    QTemporaryDir dir_;

    /// Items of `row` that overlap [from, to): how many, and how many of them are merged.
    static std::pair<int, int> itemsIn(const Timeline &t, int row, double from, double to)
    {
        int n = 0, merged = 0;
        for (size_t i = t.rowBegin(row); i < t.rowEnd(row); ++i) {
            if (t.end(i) <= from || t.start(i) >= to)
                continue;
            ++n;
            merged += t.label(i).rfind("several items merged", 0) == 0;
        }
        return {n, merged};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
    }

    void zoomShowsTheFirstReplicaInDetail_data()
    {
        // 131,072 GPUs take seconds (minutes under the sanitizers): the second size only
        // where screenshots are asked for.
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        if (!qEnvironmentVariableIsEmpty("SCALESCOPE_SCREENSHOT_DIR"))
            QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void zoomShowsTheFirstReplicaInDetail()
    {
        QFETCH(QSize, size);
        QSettings settings(dir_.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        Document document;
        const Result<Scenario> s = loadScenarioFile(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/bench/scenarios/gpt-131072-jitter.json"),
            builtinCatalog());
        QVERIFY(s);
        QCOMPARE(s.value().hardware.gpuCount(), 131072);
        document.reset(s.value(), QString());
        Recomputer recomputer;
        WindowContext ctx;
        ctx.document = &document;
        ctx.recomputer = &recomputer;
        ctx.settings = &settings;
        ctx.language = QStringLiteral("en");
        ctx.interactive = false;
        MainWindow window(ctx);
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *view = window.findChild<TimelineWidget *>(QStringLiteral("timeline"));
        QVERIFY(view);
        QTRY_VERIFY_WITH_TIMEOUT(view->timeline() != nullptr, 120000);
        const std::shared_ptr<const Timeline> t = view->timeline();
        QCOMPARE(t->gpus(), 131072);

        // A window of 2% of the drawn span, early in the step.
        const double from = 0.05 * t->endTime(), to = 0.07 * t->endTime();
        const int compute = static_cast<int>(Stream::Compute);
        const auto [n0, merged0] = itemsIn(*t, compute, from, to); // GPU 0
        QVERIFY2(n0 >= 3 && merged0 == 0,
                 qPrintable(QStringLiteral("GPU 0: %1 items, %2 merged").arg(n0).arg(merged0)));
        // The last GPU belongs to another replica: simplified there.
        const int last = (t->gpus() - 1) * kStreamCount + compute;
        const auto [n1, merged1] = itemsIn(*t, last, 0.0, t->endTime());
        QVERIFY2(merged1 > 0,
                 qPrintable(QStringLiteral("last GPU: %1 items, none merged").arg(n1)));

        // The note above the timeline says which rows keep their detail.
        auto *note = window.findChild<QLabel *>(QStringLiteral("timelineNote"));
        QVERIFY(note);
        QTRY_VERIFY2(note->text().contains(QStringLiteral("first data-parallel replica")),
                     qPrintable(note->text()));

        view->setTimeRange(from, to);
        QTest::qWait(50);
        const QByteArray out = qgetenv("SCALESCOPE_SCREENSHOT_DIR");
        if (!out.isEmpty())
            QVERIFY(
                window.grab().save(QString::fromLocal8Bit(out) +
                                   QStringLiteral("/timeline-131072-gpus-zoomed-detail-%1-en.png")
                                       .arg(QLatin1String(QTest::currentDataTag()))));
    }
};

QTEST_MAIN(TestZoomDetail)
#include "tst_zoom_detail.moc"
