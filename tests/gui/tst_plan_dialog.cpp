// "Suggest plan" dialog: the search runs in a worker, the table ranks what it found, Apply
// returns a scenario the model accepts, Cancel and closing stop a search, errors are red.
#include "analysis/step_evaluation.h"
#include "plan_dialog.h"
#include "recompute.h"

#include "analysis/summary.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

using scalescope::PlanCandidate;
using scalescope::PlanDialog;
using scalescope::PlanSearchOptions;
using scalescope::PlanSearchResult;
using scalescope::PlanTableModel;
using scalescope::Result;
using scalescope::Scenario;

namespace
{

/// Wraps the real search: at its first progress report past zero it holds the worker until
/// the search's cancel flag is set (at most 10 s), so a test can act "during" a search
/// however fast the machine is.
struct HeldSearch {
    std::atomic<bool> holding{false};
    std::atomic<bool> returned{false};
    std::atomic<bool> saw_cancel{false};

    PlanDialog::SearchFunction function()
    {
        return [this](const Scenario &s, const PlanSearchOptions &o) {
            PlanSearchOptions held = o;
            held.progress = [this, o](double fraction) {
                if (o.progress)
                    o.progress(fraction);
                if (fraction <= 0 || fraction >= 1 || holding.load())
                    return;
                holding.store(true);
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                while (!(o.cancel && o.cancel->load()) && std::chrono::steady_clock::now() < until)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                saw_cancel.store(o.cancel && o.cancel->load());
            };
            Result<PlanSearchResult> r = scalescope::searchPlans(s, held);
            returned.store(true);
            return r;
        };
    }
};

template <typename T> T *child(QWidget *parent, const char *name)
{
    T *w = parent->findChild<T *>(QString::fromLatin1(name));
    if (!w)
        qFatal("no widget %s", name);
    return w;
}

} // namespace

class TestPlanDialog : public QObject
{
    Q_OBJECT
    Scenario base_;

    /// Sets the spin boxes, clicks Search and waits for the result.
    static bool search(PlanDialog &d, int gpus, int top)
    {
        child<QSpinBox>(&d, "planGpusSpin")->setValue(gpus);
        child<QSpinBox>(&d, "planTopSpin")->setValue(top);
        QSignalSpy finished(&d, &PlanDialog::searchFinished);
        QTest::mouseClick(child<QPushButton>(&d, "planSearchButton"), Qt::LeftButton);
        return finished.wait(20000) && !d.isSearching();
    }

private Q_SLOTS:
    void initTestCase()
    {
        Result<Scenario> s = scalescope::loadScenarioFile(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json"),
            scalescope::builtinCatalog());
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
        base_ = s.value();
        QCOMPARE(base_.hardware.gpuCount(), 8);
        QCOMPARE(base_.hardware.gpus_per_node, 4);
    }

    void opensWithScenarioAndSearches()
    {
        PlanDialog d(base_);
        QCOMPARE(d.objectName(), QStringLiteral("planDialog"));
        QCOMPARE(child<QSpinBox>(&d, "planGpusSpin")->value(), 8);
        QVERIFY(child<QSpinBox>(&d, "planGpusSpin")->maximum() >= 1024);
        QCOMPARE(child<QSpinBox>(&d, "planGpusSpin")->minimum(), 1);
        QCOMPARE(child<QSpinBox>(&d, "planTopSpin")->value(), 10);
        QCOMPARE(child<QSpinBox>(&d, "planTopSpin")->maximum(), 50);
        QVERIFY(!child<QPushButton>(&d, "planApplyButton")->isEnabled());
        QSignalSpy finished(&d, &PlanDialog::searchFinished);
        d.show();
        QVERIFY(finished.wait(20000)); // the first search starts by itself
        QVERIFY(d.lastRun() && d.lastRun()->ok());
        QCOMPARE(d.lastRun()->gpus, 8);
        QVERIFY(d.tableModel()->rowCount() > 0);
        QCOMPARE(child<QProgressBar>(&d, "planProgress")->value(),
                 child<QProgressBar>(&d, "planProgress")->maximum());
        QVERIFY(!child<QPushButton>(&d, "planCancelButton")->isEnabled());
    }

    void searchRanksFittingPlans_data()
    {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("top");
        QTest::newRow("own 8 GPUs, top 10") << 8 << 10;
        QTest::newRow("2 GPUs, top 3") << 2 << 3;
        QTest::newRow("64 GPUs, top 5") << 64 << 5;
        QTest::newRow("1024 GPUs, top 50") << 1024 << 50;
    }
    void searchRanksFittingPlans()
    {
        QFETCH(int, gpus);
        QFETCH(int, top);
        PlanDialog d(base_, nullptr, false);
        d.show();
        QVERIFY(search(d, gpus, top));
        QVERIFY(d.lastRun() && d.lastRun()->ok() && !d.lastRun()->cancelled());
        auto *table = child<QTableView>(&d, "planTable");
        QCOMPARE(table->model(), d.tableModel());
        const PlanTableModel &m = *d.tableModel();
        QVERIFY(m.rowCount() > 0);
        QVERIFY(m.rowCount() <= top);
        for (int r = 0; r < m.rowCount(); ++r) {
            const PlanCandidate *c = m.candidate(r);
            QVERIFY(c);
            QVERIFY2(c->memory_bytes <= c->capacity_bytes, qPrintable(QString::number(r)));
            QCOMPARE(c->parallel.data * c->parallel.tensor * c->parallel.pipeline, gpus);
            const double t = m.index(r, PlanTableModel::StepTimeColumn)
                                 .data(PlanTableModel::ValueRole)
                                 .toDouble();
            QCOMPARE(t, c->step_time_s);
            QVERIFY(t > 0);
            if (r > 0)
                QVERIFY(m.candidate(r - 1)->step_time_s <= t);
        }
        // The table shows what the synchronous search finds.
        PlanSearchOptions o;
        o.gpus = gpus;
        o.top_k = top;
        o.engine_check = true; // as the dialog searches
        o.engine_max_tasks = scalescope::kGuiSweepMaxTasks;
        const scalescope::PlanSearchRun sync = scalescope::runPlanSearch(base_, o);
        QVERIFY(sync.ok());
        QCOMPARE(m.rowCount(), static_cast<int>(sync.result->best.size()));
        QCOMPARE(m.candidate(0)->step_time_s, sync.result->best.front().step_time_s);
        QCOMPARE(d.lastRun()->result->considered, sync.result->considered);

        auto *summary = child<QLabel>(&d, "planSummary");
        QVERIFY2(summary->text().contains(QStringLiteral("plans considered")),
                 qPrintable(summary->text()));
        QVERIFY(summary->text().contains(QStringLiteral("dropped for memory")));
        QVERIFY(!summary->property("error").toBool());
        qInfo("%d GPUs: %s", gpus, qPrintable(summary->text()));
    }

    void applyReturnsSelectedPlan_data()
    {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("row"); // -1: the last row
        QTest::newRow("own 8 GPUs, first") << 8 << 0;
        QTest::newRow("own 8 GPUs, last") << 8 << -1;
        QTest::newRow("2 GPUs (part of a node)") << 2 << -1;
        QTest::newRow("64 GPUs, second") << 64 << 1;
    }
    void applyReturnsSelectedPlan()
    {
        QFETCH(int, gpus);
        QFETCH(int, row);
        PlanDialog d(base_, nullptr, false);
        d.show();
        QVERIFY(search(d, gpus, 10));
        const PlanTableModel &m = *d.tableModel();
        QVERIFY(m.rowCount() > 1);
        if (row < 0)
            row = m.rowCount() - 1;
        auto *table = child<QTableView>(&d, "planTable");
        auto *apply = child<QPushButton>(&d, "planApplyButton");
        table->clearSelection();
        QVERIFY(!apply->isEnabled());
        const QModelIndex cell = m.index(row, PlanTableModel::StepTimeColumn);
        table->scrollTo(cell);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
        QVERIFY(apply->isEnabled());
        QVERIFY(!d.chosenScenario());
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QVERIFY(d.chosenScenario());
        const Scenario &s = *d.chosenScenario();
        const PlanCandidate &c = *m.candidate(row);
        QCOMPARE(s.hardware.gpuCount(), gpus);
        QCOMPARE(s.parallel.data, c.parallel.data);
        QCOMPARE(s.parallel.tensor, c.parallel.tensor);
        QCOMPARE(s.parallel.pipeline, c.parallel.pipeline);
        QCOMPARE(s.parallel.zero, c.parallel.zero);
        QCOMPARE(s.parallel.schedule, c.parallel.schedule);
        QCOMPARE(s.parallel.virtual_stages, c.parallel.virtual_stages);
        QCOMPARE(s.training.micro_batch, c.micro_batch);
        QCOMPARE(s.training.recompute, c.recompute);
        // What the row shows is what was applied.
        QCOMPARE(m.index(row, PlanTableModel::DataColumn).data().toInt(), s.parallel.data);
        QCOMPARE(m.index(row, PlanTableModel::TensorColumn).data().toInt(), s.parallel.tensor);
        QCOMPARE(m.index(row, PlanTableModel::PipelineColumn).data().toInt(), s.parallel.pipeline);
        QCOMPARE(m.index(row, PlanTableModel::MicroBatchColumn).data().toLongLong(),
                 s.training.micro_batch);
        const auto ctx = scalescope::makeContext(s);
        QVERIFY2(ctx.ok(), ctx.ok() ? "" : ctx.error().toString().c_str());
        // The applied plan is as fast as the table said: the engine's figure, as the window
        // shows it (issue 13: 70,159.7 ms listed, 70.35 s once applied), or the closed
        // form's where the plan is too large to simulate, and the row says which.
        scalescope::SimOptions sim;
        sim.max_tasks = scalescope::kGuiSweepMaxTasks;
        const auto e = scalescope::evaluateStep(*ctx.value(), sim);
        QVERIFY(e.ok());
        QCOMPARE(c.simulated, !e.value().closed_form);
        const scalescope::Summary sum = e.value().summary;
        QVERIFY2(std::abs(sum.step_time_s - c.step_time_s) <= 1e-6 * c.step_time_s,
                 qPrintable(QStringLiteral("%1 vs %2").arg(sum.step_time_s).arg(c.step_time_s)));
    }

    void marksTheCurrentPlan()
    {
        // The dialog ranks the plans by the engine's figures (engine_check): the third of
        // that list, not of the closed form's, is its third row.
        PlanSearchOptions o;
        o.gpus = 8;
        o.top_k = 10;
        o.engine_check = true;
        o.engine_max_tasks = scalescope::kGuiSweepMaxTasks;
        const scalescope::PlanSearchRun run = scalescope::runPlanSearch(base_, o);
        QVERIFY(run.ok() && run.result->best.size() >= 3);
        const Scenario current = scalescope::applyCandidate(base_, 8, run.result->best[2]);
        PlanDialog d(current, nullptr, false);
        d.show();
        QVERIFY(search(d, 8, 10));
        const PlanTableModel &m = *d.tableModel();
        QCOMPARE(m.currentRow(), 2);
        for (int r = 0; r < m.rowCount(); ++r)
            QCOMPARE(m.index(r, 0).data(PlanTableModel::IsCurrentRole).toBool(), r == 2);
        QVERIFY(m.index(2, PlanTableModel::RankColumn).data().toString().contains("current"));
        QVERIFY(!m.index(1, PlanTableModel::RankColumn).data().toString().contains("current"));
        // On another GPU count the scenario's plan cannot appear.
        QVERIFY(search(d, 16, 10));
        QCOMPARE(d.tableModel()->currentRow(), -1);
    }

    void badGpuCountIsRed_data()
    {
        QTest::addColumn<int>("gpus");
        QTest::newRow("6 on nodes of 4") << 6;
        QTest::newRow("1026 on nodes of 4") << 1026;
    }
    void badGpuCountIsRed()
    {
        QFETCH(int, gpus);
        PlanDialog d(base_, nullptr, false);
        d.show();
        QVERIFY(search(d, 8, 10));
        auto *summary = child<QLabel>(&d, "planSummary");
        const QColor normal = summary->palette().color(QPalette::WindowText);
        QVERIFY(!summary->property("error").toBool());
        QVERIFY(search(d, gpus, 10));
        QVERIFY(d.lastRun() && !d.lastRun()->ok());
        QVERIFY(summary->property("error").toBool());
        const QColor shown = summary->palette().color(QPalette::WindowText);
        QVERIFY(shown != normal);
        QVERIFY2(shown.red() > 150 && shown.green() < 100 && shown.blue() < 100,
                 qPrintable(shown.name()));
        QVERIFY2(summary->text().contains(QStringLiteral("GPU count")),
                 qPrintable(summary->text()));
        QVERIFY(summary->text().contains(QString::number(gpus)));
        QCOMPARE(d.tableModel()->rowCount(), 0);
        QVERIFY(!child<QPushButton>(&d, "planApplyButton")->isEnabled());
        // A good count afterwards clears the error.
        QVERIFY(search(d, 8, 10));
        QVERIFY(!summary->property("error").toBool());
        QCOMPARE(summary->palette().color(QPalette::WindowText), normal);
    }

    void cancelStopsA1024GpuSearch()
    {
        HeldSearch held;
        PlanDialog d(base_, nullptr, false);
        d.setSearchFunction(held.function());
        d.show();
        child<QSpinBox>(&d, "planGpusSpin")->setValue(1024);
        QSignalSpy finished(&d, &PlanDialog::searchFinished);
        auto *progress = child<QProgressBar>(&d, "planProgress");
        auto *cancel = child<QPushButton>(&d, "planCancelButton");
        QTest::mouseClick(child<QPushButton>(&d, "planSearchButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(held.holding.load(), 10000);
        // The worker is inside the search; the event loop still runs and shows progress.
        QTRY_VERIFY(progress->value() > 0);
        QVERIFY(progress->value() < progress->maximum());
        QVERIFY(d.isSearching());
        QVERIFY(!held.returned.load());
        QVERIFY(cancel->isEnabled());
        QVERIFY(!child<QPushButton>(&d, "planApplyButton")->isEnabled());
        QCOMPARE(finished.count(), 0);
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(finished.wait(10000));
        QVERIFY(held.saw_cancel.load());
        QVERIFY(held.returned.load());
        QVERIFY(!d.isSearching());
        QVERIFY(d.lastRun() && d.lastRun()->ok());
        QVERIFY(d.lastRun()->cancelled());
        // It stopped early: fewer plans than the whole search considers.
        PlanSearchOptions o;
        o.gpus = 1024;
        const scalescope::PlanSearchRun whole = scalescope::runPlanSearch(base_, o);
        QVERIFY(whole.ok() && !whole.cancelled());
        QVERIFY2(d.lastRun()->result->considered < whole.result->considered,
                 qPrintable(QStringLiteral("%1 of %2")
                                .arg(d.lastRun()->result->considered)
                                .arg(whole.result->considered)));
        QVERIFY(progress->value() < progress->maximum());
        QVERIFY(child<QLabel>(&d, "planSummary")->text().contains(QStringLiteral("cancelled")));
        QVERIFY(!cancel->isEnabled());
        QVERIFY(child<QPushButton>(&d, "planSearchButton")->isEnabled());
        // The dialog searches again afterwards (the real search this time).
        d.setSearchFunction({});
        QVERIFY(search(d, 1024, 10));
        QVERIFY(!d.lastRun()->cancelled());
        QCOMPARE(d.lastRun()->result->considered, whole.result->considered);
    }

    void closingCancelsAndJoins_data()
    {
        QTest::addColumn<bool>("destroy"); // delete the dialog, or reject() it
        QTest::newRow("reject") << false;
        QTest::newRow("delete") << true;
    }
    void closingCancelsAndJoins()
    {
        QFETCH(bool, destroy);
        HeldSearch held;
        auto d = std::make_unique<PlanDialog>(base_, nullptr, false);
        d->setSearchFunction(held.function());
        d->show();
        child<QSpinBox>(d.get(), "planGpusSpin")->setValue(1024);
        d->startSearch();
        QTRY_VERIFY_WITH_TIMEOUT(held.holding.load(), 10000);
        QVERIFY(!held.returned.load());
        if (destroy) {
            d.reset();
        } else {
            d->reject();
            QVERIFY(!d->isSearching());
            QVERIFY(!d->chosenScenario());
            QCOMPARE(d->result(), int(QDialog::Rejected));
        }
        // Joined before returning: the worker saw the flag and finished.
        QVERIFY(held.saw_cancel.load());
        QVERIFY(held.returned.load());
        QTest::qWait(20); // queued calls of the stopped search are dropped
        if (d)
            QVERIFY(!d->lastRun());
    }

    void tableModelPassesTester()
    {
        PlanSearchOptions o;
        o.gpus = 8;
        o.top_k = 10;
        const scalescope::PlanSearchRun run = scalescope::runPlanSearch(base_, o);
        QVERIFY(run.ok() && run.result->best.size() >= 3);
        PlanTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 0);
        QCOMPARE(m.columnCount(), int(PlanTableModel::ColumnCount));
        m.setCandidates(run.result->best, 1);
        QCOMPARE(m.rowCount(), static_cast<int>(run.result->best.size()));
        QCOMPARE(m.currentRow(), 1);
        for (int c = 0; c < m.columnCount(); ++c) {
            const QString header = m.headerData(c, Qt::Horizontal).toString();
            QVERIFY2(!header.isEmpty(), qPrintable(QString::number(c)));
            for (int r = 0; r < m.rowCount(); ++r)
                QVERIFY(m.index(r, c).data().isValid());
        }
        // Step times carry their unit as the status bar writes them ("2.16 s", "812.4 ms").
        for (int r = 0; r < m.rowCount(); ++r) {
            const QString t = m.index(r, PlanTableModel::StepTimeColumn).data().toString();
            QVERIFY2(t.endsWith(QStringLiteral(" s")) || t.endsWith(QStringLiteral(" ms")) ||
                         t.endsWith(QStringLiteral(" µs")),
                     qPrintable(t));
        }
        QVERIFY(
            m.headerData(PlanTableModel::MemoryColumn, Qt::Horizontal).toString().contains("GiB"));
        QVERIFY(m.headerData(PlanTableModel::MfuColumn, Qt::Horizontal).toString().contains("%"));
        QCOMPARE(m.index(0, PlanTableModel::RankColumn).data().toString(), QStringLiteral("1"));
        QCOMPARE(m.index(0, PlanTableModel::MfuColumn).data(PlanTableModel::ValueRole).toDouble(),
                 run.result->best[0].mfu);
        QVERIFY(m.candidate(-1) == nullptr);
        QVERIFY(m.candidate(m.rowCount()) == nullptr);
        QVERIFY(!m.index(m.rowCount(), 0).isValid());
        m.setCandidates({run.result->best[0]}, 5); // out-of-range current row is dropped
        QCOMPARE(m.rowCount(), 1);
        QCOMPARE(m.currentRow(), -1);
        m.clear();
        QCOMPARE(m.rowCount(), 0);
        QVERIFY(m.candidate(0) == nullptr);
    }
};

QTEST_MAIN(TestPlanDialog)
#include "tst_plan_dialog.moc"
