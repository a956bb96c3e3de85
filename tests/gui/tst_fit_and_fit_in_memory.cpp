// Issue 13, items 2 and 3, on results the worker computes from real scenarios: the Scaling
// tab reports an Amdahl fit only when it describes the curve (else why not) and never a
// ceiling below the curve; a run that does not fit in memory is marked on the timeline (a
// banner), on the scaling curves (red points), in the memory view (hatched bars), and the
// one-GPU speed-up reference is labelled when it cannot hold the model.
#include "bench_window.h"
#include "../support/edit_result.h"
#include "charts/memory_view.h"
#include "charts/scaling_view.h"
#include "document.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "main_window.h"
#include "recompute.h"
#include "timeline/timeline_widget.h"

#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QScatterSeries>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXYSeries>

#include <cmath>
#include <memory>

using namespace scalescope;
using scalescope::test::editEvaluation;

namespace
{

// Llama 2 70B, plain data parallel, on 2 x 4 RTX 4090 (24 GB): over 1 TB per GPU.
constexpr const char *kLlama70bOn4090 = R"({ "scalescope": 1,
  "name": "Llama 2 70B on 8 x RTX 4090",
  "hardware": {"gpu": "rtx-4090-24gb", "nodes": 2, "gpus_per_node": 4, "intra_node": "pcie4",
               "inter_node": "eth-25g", "nics_per_node": 1},
  "model": "llama2-70b",
  "training": {"global_batch": 64, "micro_batch": 2, "precision": "bf16", "optimizer": "adam",
               "recompute": "full"},
  "parallel": {"zero": 0} })";

Scenario scenarioFile(const QString &name)
{
    Result<Scenario> s = loadScenarioFile(
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/") + name, builtinCatalog());
    if (!s)
        qFatal("%s", s.error().toString().c_str());
    return s.value();
}

Scenario llama70b()
{
    Result<Scenario> s = parseScenario(QByteArray(kLlama70bOn4090), builtinCatalog());
    if (!s)
        qFatal("%s", s.error().toString().c_str());
    return s.value();
}

ResultPtr compute(const Scenario &s)
{
    RecomputeRequest request;
    request.scenario = s;
    ResultPtr r = computeResult(request);
    if (!r || !r->ok())
        qFatal("scenario %s does not compute", s.name.c_str());
    return r;
}

QXYSeries *seriesNamed(QChart *chart, const QString &name)
{
    const auto all = chart->series();
    for (QAbstractSeries *s : all)
        if (s->objectName() == name)
            return qobject_cast<QXYSeries *>(s);
    return nullptr;
}

/// A hand-made Amdahl sweep (serial fraction s, 1 s on one GPU), current point at `gpus`.
std::shared_ptr<ScenarioResult> amdahlResult(double s, int gpus, double current_speedup)
{
    auto r = std::make_shared<ScenarioResult>();
    r->scenario.name = "amdahl";
    ScenarioEvaluation &e = editEvaluation(*r);
    std::vector<int> counts = {1, 2, 4, 8, 16};
    std::vector<double> speedups;
    for (int n : counts) {
        SweepRow row;
        row.gpus = n;
        row.summary.gpus = n;
        row.summary.single_gpu_step_s = 1;
        row.summary.step_time_s = s + (1 - s) / n;
        row.summary.speedup = 1 / row.summary.step_time_s;
        row.summary.scaling_efficiency = row.summary.speedup / n;
        e.sweep.push_back(row);
        speedups.push_back(row.summary.speedup);
    }
    e.amdahl = fitAmdahl(counts, speedups);
    e.attribution = attributeSpeedupLoss(e.sweep);
    e.step.summary = e.sweep.back().summary;
    e.step.summary.gpus = gpus;
    e.step.summary.speedup = current_speedup;
    e.step.summary.scaling_efficiency = current_speedup / gpus;
    return r;
}

} // namespace

class TestFitAndFitInMemory : public QObject
{
    Q_OBJECT

    ResultPtr default_, llama_, small_;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c());
        qRegisterMetaType<ResultPtr>("scalescope::ResultPtr");
        default_ = compute(scenarioFile(QStringLiteral("default.json")));
        llama_ = compute(llama70b());
        small_ = compute(scenarioFile(QStringLiteral("claim14-small-model.json")));
    }

    void defaultScenarioHasNoFit()
    {
        // The first screen: the sweep rises to 4 GPUs and falls; no Amdahl fit is claimed.
        QCOMPARE(default_->amdahl().status, AmdahlFitStatus::PoorFit);
        ScalingView view;
        view.setResult(default_);
        auto *label = view.findChild<QLabel *>(QStringLiteral("amdahlLabel"));
        QVERIFY(label);
        QVERIFY2(label->text().startsWith(QStringLiteral("No Amdahl")),
                 qPrintable(label->text()));
        QVERIFY(!label->text().contains(QStringLiteral("gets past")));
        QXYSeries *fit = seriesNamed(view.speedupChart(), QStringLiteral("amdahlFit"));
        QVERIFY(fit);
        QVERIFY(!fit->isVisible());
        QCOMPARE(fit->count(), 0);
    }

    void twoPointsGiveNoFit()
    {
        RecomputeRequest request;
        // (A job one GPU holds: the fit counts from one GPU.)
        request.scenario = scenarioFile(QStringLiteral("claim01-sublinear-speedup.json"));
        request.sweep_gpus = {1, 2, 8};
        const ResultPtr r = computeResult(request);
        QCOMPARE(r->amdahl().status, AmdahlFitStatus::TooFewPoints);
        ScalingView view;
        view.setResult(r);
        const QString text = view.findChild<QLabel *>(QStringLiteral("amdahlLabel"))->text();
        QVERIFY2(text.contains(QStringLiteral("at least 3 sweep points")), qPrintable(text));
    }

    void ceilingNeverBelowTheCurve()
    {
        ScalingView view;
        auto label = [&] { return view.findChild<QLabel *>(QStringLiteral("amdahlLabel")); };
        // s = 5 %: ceiling 20x, above every plotted speed-up.
        view.setResult(amdahlResult(0.05, 16, 1 / (0.05 + 0.95 / 16)));
        QVERIFY2(label()->text().contains(QStringLiteral("gets past 20.0×")),
                 qPrintable(label()->text()));
        // The same fit beside a plotted point at 25x (the current scenario): no ceiling.
        view.setResult(amdahlResult(0.05, 64, 25.0));
        QVERIFY2(!label()->text().contains(QStringLiteral("gets past")),
                 qPrintable(label()->text()));
        QVERIFY(label()->text().contains(QStringLiteral("Amdahl fit: serial fraction s = 5.0 %")));
    }

    void sweepPointsThatDoNotFitAreMarked_data()
    {
        QTest::addColumn<QString>("which");
        QTest::newRow("Llama 2 70B on 4090s") << QStringLiteral("llama");
        QTest::newRow("default") << QStringLiteral("default");
        QTest::newRow("small model") << QStringLiteral("small");
    }
    void sweepPointsThatDoNotFitAreMarked()
    {
        QFETCH(QString, which);
        const ResultPtr r = which == QLatin1String("llama")     ? llama_
                            : which == QLatin1String("default") ? default_
                                                                : small_;
        // Counted from the fewest GPUs that fit, rows below them have no speed-up point.
        int expected = 0;
        for (const SweepRow &row : r->sweep())
            expected += exceedsCapacity(row.summary.memory) && row.gpus >= r->reference().gpus;
        if (which == QLatin1String("llama"))
            QCOMPARE(expected, int(r->sweep().size())); // no GPU count holds it
        if (which == QLatin1String("small"))
            QCOMPARE(expected, 0);
        ScalingView view;
        view.setResult(r);
        for (auto [chart, name] : {std::pair{view.speedupChart(), "speedupOutOfMemory"},
                                   std::pair{view.efficiencyChart(), "efficiencyOutOfMemory"}}) {
            QXYSeries *oom = seriesNamed(chart, QLatin1String(name));
            QVERIFY2(oom, name);
            QCOMPARE(oom->count(), expected);
            QCOMPARE(oom->isVisible(), expected > 0);
        }
        // The marks sit on the simulated points of the rows that do not fit.
        QXYSeries *oom = seriesNamed(view.speedupChart(), QStringLiteral("speedupOutOfMemory"));
        for (const QPointF &p : oom->points()) {
            bool found = false;
            for (const SweepRow &row : r->sweep())
                found |= row.gpus == int(p.x()) && r->reference().faster(row.summary.speedup) == p.y() &&
                         exceedsCapacity(row.summary.memory);
            QVERIFY(found);
        }
    }

    void referenceThatDoesNotFitIsLabelled()
    {
        ScalingView view;
        view.setResult(llama_);
        auto *note = view.findChild<QLabel *>(QStringLiteral("speedupReferenceNote"));
        QVERIFY(note);
        QVERIFY(!note->isHidden());
        QVERIFY2(note->text().startsWith(
                     QStringLiteral("Speed-up against one GPU, which cannot hold this model")),
                 qPrintable(note->text()));
        QVERIFY(note->text().contains(QStringLiteral("of its 23.2 GiB")));
        view.setResult(small_);
        QVERIFY(note->isHidden());
    }

    void fewestThatFitIsTheReference()
    {
        // The first screen: one RTX 4090 cannot hold the default job (29.0 of 23.2 GiB) and 2
        // GPUs can, so speed-ups say how much faster than 2 GPUs: that point is 1x on the
        // ideal line N / 2 and 100% efficient; no Amdahl fit (it counts from one GPU); the
        // note, the table and the status bar say so, with the same figures.
        const SpeedupReference &ref = default_->reference();
        QVERIFY(ref.one_gpu_on_paper);
        QCOMPARE(ref.gpus, 2);
        for (const SweepRow &row : default_->sweep())
            QCOMPARE(row.summary.memory.fits(), row.gpus >= 2);
        ScalingView view;
        view.setResult(default_);
        QXYSeries *speedup = seriesNamed(view.speedupChart(), QStringLiteral("speedup"));
        QXYSeries *efficiency = seriesNamed(view.efficiencyChart(), QStringLiteral("efficiency"));
        QVERIFY(speedup && efficiency);
        QCOMPARE(speedup->at(0), QPointF(2, 1));
        QVERIFY(std::abs(efficiency->at(0).y() - 100) < 1e-9);
        for (int i = 0; i < speedup->count(); ++i)
            QVERIFY(std::abs(efficiency->at(i).y() -
                             100 * speedup->at(i).y() / (speedup->at(i).x() / 2)) < 1e-9);
        auto *note = view.findChild<QLabel *>(QStringLiteral("speedupReferenceNote"));
        QVERIFY2(note->text().contains(QStringLiteral("as fast as 2 GPUs, the fewest that fit")),
                 qPrintable(note->text()));
        const QString fit = view.findChild<QLabel *>(QStringLiteral("amdahlLabel"))->text();
        QVERIFY2(fit.startsWith(QStringLiteral("No Amdahl or Gustafson fit")), qPrintable(fit));
        QVERIFY(!seriesNamed(view.speedupChart(), QStringLiteral("amdahlFit"))->isVisible());

        // The status bar of the window showing it.
        bench::BenchWindow shown_in(scenarioFile(QStringLiteral("default.json")));
        MainWindow &window = *shown_in.window;
        window.resize(1280, 720);
        QVERIFY(shown_in.waitForNewest());
        auto shown = std::make_shared<ScenarioResult>(*default_);
        shown->generation = shown_in.recomputer.latestGeneration() + 1;
        window.showResult(shown);
        const double rebased = ref.faster(default_->summary().speedup);
        const QString text = window.findChild<QLabel *>(QStringLiteral("statusSpeedup"))->text();
        QCOMPARE(text, QStringLiteral("%1× as fast as 2 GPUs, the fewest that fit; ideal 4×")
                           .arg(rebased, 0, 'f', 2));
        QCOMPARE(window.findChild<QLabel *>(QStringLiteral("statusEfficiency"))->text(),
                 QStringLiteral("Efficiency %1% from 2 GPUs").arg(rebased / 4 * 100, 0, 'f', 0));
        // The chart's current point is the status bar's figure.
        QXYSeries *current = seriesNamed(view.speedupChart(), QStringLiteral("currentSpeedup"));
        QVERIFY(current && current->count() == 1);
        QCOMPARE(QString::number(current->at(0).y(), 'f', 2), QString::number(rebased, 'f', 2));
    }

    void memoryViewHatchesOverCapacity()
    {
        MemoryView view;
        view.setResult(llama_);
        QVERIFY(view.verdict().startsWith(QStringLiteral("Does not fit")));
        for (int i = 0; i < MemoryView::PartCount; ++i)
            QCOMPARE(view.barSet(MemoryView::Part(i))->brush().style(), Qt::BDiagPattern);
        view.setResult(small_);
        QVERIFY(view.verdict().startsWith(QStringLiteral("Fits")));
        for (int i = 0; i < MemoryView::PartCount; ++i)
            QCOMPARE(view.barSet(MemoryView::Part(i))->brush().style(), Qt::SolidPattern);
    }

    void timelineBanner()
    {
        TimelineWidget widget;
        widget.resize(900, 400);
        widget.setTimeline(llama_->timeline());
        const int plot_top = widget.plotRect().top();
        widget.setMemory(llama_->summary().memory);
        QVERIFY(widget.isMemoryBannerShown());
        QVERIFY2(widget.memoryBannerText().startsWith(QStringLiteral("Does not fit in memory")),
                 qPrintable(widget.memoryBannerText()));
        QVERIFY(widget.memoryBannerText().contains(QStringLiteral("of its 23.2 GiB")));
        QVERIFY(widget.plotRect().top() > plot_top); // the banner takes room, hides no row
        // With the change that would fit it (analysis/memory_remedy.h, worded by
        // translatedRemedyClause), the banner says it before the timeline's caveat.
        const QString clause = QStringLiteral("full recompute would fit it in 20.0 GiB, with a "
                                              "step 33% longer");
        widget.setMemory(llama_->summary().memory, clause);
        QVERIFY2(widget.memoryBannerText().contains(QStringLiteral("cannot start; ") + clause +
                                                    QStringLiteral(". The timeline")),
                 qPrintable(widget.memoryBannerText()));
        widget.setMemory(llama_->summary().memory);
        QVERIFY(!widget.memoryBannerText().contains(QStringLiteral("would fit")));
        // Painted (so exports carry it): the top of the widget is the banner's red.
        QImage image(widget.size(), QImage::Format_ARGB32);
        QPainter painter(&image);
        widget.render(&painter, QRect(QPoint(0, 0), widget.size()));
        painter.end();
        QCOMPARE(image.pixelColor(2, 2), QColor(0xc6, 0x28, 0x28));
        // Over by less than the model's memory error (analysis/memory.h): it may run, and
        // the change that would fit it comes as the way out if it does not.
        MemoryBreakdown near = llama_->summary().memory;
        near.total = 1.04 * near.capacity;
        widget.setMemory(near, clause);
        QVERIFY(widget.isMemoryBannerShown());
        QVERIFY2(
            widget.memoryBannerText().startsWith(
                QStringLiteral(
                    "May not fit in memory: the most loaded GPU needs 24.2 GiB of its 23.2 GiB, "
                    "4.0 % over, less than the model's 10 % memory error, so it may run. If "
                    "not, ") +
                clause),
            qPrintable(widget.memoryBannerText()));
        // A run that fits: no banner, the rows move back up.
        widget.setTimeline(small_->timeline());
        widget.setMemory(small_->summary().memory);
        QVERIFY(!widget.isMemoryBannerShown());
        QVERIFY(widget.memoryBannerText().isEmpty());
        QCOMPARE(widget.plotRect().top(), plot_top);
    }

    void windowTimelineShowsBanner()
    {
        // The real window: the timeline of a result that does not fit carries the banner.
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        Document document;
        document.reset(llama70b(), QString());
        Recomputer recomputer;
        std::vector<GalleryEntry> gallery;
        WindowContext ctx;
        ctx.document = &document;
        ctx.recomputer = &recomputer;
        ctx.settings = &settings;
        ctx.gallery = &gallery;
        ctx.language = QStringLiteral("en");
        ctx.interactive = false;
        MainWindow window(ctx);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(QTest::qWaitFor([&] { return !recomputer.busy(); }, 60000));
        QTest::qWait(50);
        auto *timeline = window.findChild<TimelineWidget *>(QStringLiteral("timeline"));
        QVERIFY(timeline);
        // Newer than anything the worker produced (the window shows only the newest).
        auto oom = std::make_shared<ScenarioResult>(*llama_);
        oom->generation = recomputer.latestGeneration() + 1;
        window.showResult(oom);
        QVERIFY(timeline->isMemoryBannerShown());
        auto fits = std::make_shared<ScenarioResult>(*small_);
        fits->generation = oom->generation + 1;
        window.showResult(fits);
        QVERIFY(!timeline->isMemoryBannerShown());
    }
};

QTEST_MAIN(TestFitAndFitInMemory)
#include "tst_fit_and_fit_in_memory.moc"
