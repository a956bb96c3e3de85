// The Cost tab shows what model/analysis/economics.h computes (issue 13, item 1): claim 16's
// verdict as the model's record decides it, with its numbers; no verdict when a price is 0 (and
// "Add a cost section" leaves the prices to the user); the engine figures of a scenario without
// a cost section are costReport's, also with failures on (goodput) and with the PUE.
#include "../support/edit_result.h"
#include "analysis/economics.h"
#include "analysis/evaluation.h"
#include "charts/cost_view.h"
#include "charts/run_cost.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QtTest>

#include <vector>

using namespace scalescope;
using scalescope::test::editEvaluation;

namespace
{

Scenario claim16()
{
    const QString path =
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/claim16-economics-4x4090.json");
    Result<Scenario> s = loadScenarioFile(path, builtinCatalog());
    if (!s)
        qFatal("claim16: %s", s.error().toString().c_str());
    return s.value();
}

/// What the worker publishes for `scenario` (app/gui/recompute.cpp): summary and cost report.
std::shared_ptr<ScenarioResult> resultOf(const Scenario &scenario)
{
    auto r = std::make_shared<ScenarioResult>();
    r->scenario = scenario;
    Result<std::shared_ptr<const SimContext>> ctx = makeContext(scenario);
    if (!ctx)
        qFatal("no plan: %s", ctx.error().toString().c_str());
    editEvaluation(*r).context = ctx.value();
    const SimResult sim = simulate(*r->context(), SimOptions{});
    if (!sim.ok)
        qFatal("simulation failed: %s", sim.error.c_str());
    editEvaluation(*r).step.summary = summarize(*r->context(), sim);
    if (scenario.cost)
        editEvaluation(*r).cost = costReport(scenario, r->summary());
    return r;
}

Scenario withFailures(Scenario s)
{
    s.effects.failures.enabled = true;
    s.effects.failures.mtbf_hours_per_gpu = 20; // a failure every 5 h on four GPUs
    return s;
}

QString label(const QWidget &view, const char *name)
{
    const auto *l = view.findChild<QLabel *>(QLatin1String(name));
    return l ? l->text() : QStringLiteral("<no label %1>").arg(QLatin1String(name));
}

QDoubleSpinBox *spin(const QWidget &view, const char *name)
{
    return view.findChild<QDoubleSpinBox *>(QLatin1String(name));
}

/// USD as the view writes it (cents below 100).
QString usd(double v)
{
    return QStringLiteral("%1 USD").arg(QLocale().toString(v, 'f', std::fabs(v) < 100 ? 2 : 0));
}

} // namespace

class TestCostViewVerdict : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void claim16VerdictMatchesItsNumbers();
    void reportFiguresAreTheModels_data();
    void reportFiguresAreTheModels();
    void zeroPricesShowNoVerdict();
    void addCostSectionLeavesPricesToTheUser();
    void engineFiguresAreTheModels_data();
    void engineFiguresAreTheModels();
    void headlineNamesTheCountThatPaysBest();
};

void TestCostViewVerdict::initTestCase()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestCostViewVerdict::claim16VerdictMatchesItsNumbers()
{
    CostView view;
    const auto result = resultOf(claim16());
    view.setResult(result);
    QVERIFY(view.showsReport());
    const CostVerdict &v = result->cost()->verdict;
    // The numbers on the page: waiting saved worth more than what the four GPUs add ...
    QVERIFY(v.waiting_value_usd_per_month > v.extra_cost_usd_per_month);
    // ... so the headline is for the four GPUs (it was "not worth it — the table suggests 1").
    QCOMPARE(view.verdictText(), QStringLiteral("4 GPUs: worth it — rent in the cloud"));
    const QString detail = label(view, "costVerdictDetail");
    QVERIFY2(detail.contains(usd(v.waiting_value_usd_per_month)), qPrintable(detail));
    QVERIFY2(detail.contains(usd(v.extra_cost_usd_per_month)), qPrintable(detail));
    QVERIFY2(detail.contains(usd(v.migration_usd_per_month)), qPrintable(detail));
    QVERIFY2(detail.contains(QStringLiteral("%1 h").arg(v.waiting_saved_h_per_month, 0, 'f', 1)),
             qPrintable(detail));
    // The rule of thumb beside it, and why the verdict differs.
    const QString rule = label(view, "costRuleOfThumb");
    QVERIFY2(rule.contains(QStringLiteral("under a day on one GPU, under 50 GPU-hours a month")),
             qPrintable(rule));
    QVERIFY2(rule.contains(QStringLiteral("suggests 1 GPU")), qPrintable(rule));
    QVERIFY2(rule.contains(QStringLiteral("The verdict differs: the rule counts GPU-hours")),
             qPrintable(rule));
    QCOMPARE(view.report().verdict.decision, CostDecision::MoreGpusPay);
}

void TestCostViewVerdict::reportFiguresAreTheModels_data()
{
    QTest::addColumn<bool>("failures");
    QTest::newRow("claim16") << false;
    QTest::newRow("failures on") << true;
}

void TestCostViewVerdict::reportFiguresAreTheModels()
{
    QFETCH(bool, failures);
    const Scenario sc = failures ? withFailures(claim16()) : claim16();
    auto result = resultOf(sc);
    const CostReport model = costReport(sc, result->summary());
    if (failures)
        QVERIFY(result->summary().goodput < 0.99);
    CostView view;
    view.setResult(result);
    QVERIFY(view.showsReport());
    QCOMPARE(view.report().time_to_train_h, model.time_to_train_h);
    QCOMPARE(view.report().energy_kwh_per_run, model.energy_kwh_per_run);
    QCOMPARE(view.report().verdict.net_usd_per_month, model.verdict.net_usd_per_month);
    const QLocale locale;
    QVERIFY2(label(view, "timeToTrain")
                 .startsWith(QStringLiteral("%1 h on 4 GPUs")
                                 .arg(locale.toString(model.time_to_train_h, 'f', 1))),
             qPrintable(label(view, "timeToTrain")));
    QCOMPARE(label(view, "energyPerRunReport"),
             QStringLiteral("%1 kWh, %2 of electricity")
                 .arg(locale.toString(model.energy_kwh_per_run, 'f', 1),
                      usd(model.energy_cost_per_run_usd)));
    QCOMPARE(label(view, "costPerMonth"),
             QStringLiteral("own %1, rent %2 (%3 machine-hours)")
                 .arg(usd(model.own_cost_per_month_usd), usd(model.rent_cost_per_month_usd),
                      locale.toString(model.usage_hours_per_month, 'f', 0)));
    QVERIFY2(label(view, "costVerdictDetail").contains(usd(model.verdict.extra_cost_usd_per_month)),
             qPrintable(label(view, "costVerdictDetail")));
}

void TestCostViewVerdict::zeroPricesShowNoVerdict()
{
    Scenario sc = claim16();
    sc.cost->gpu_price_usd = 0;
    sc.cost->cloud_price_per_gpu_hour = 0;
    CostView view;
    view.setResult(resultOf(sc));
    QVERIFY(view.showsReport());
    QCOMPARE(view.report().verdict.decision, CostDecision::NoVerdict);
    QCOMPARE(view.verdictText(), QStringLiteral("No verdict: prices missing"));
    const QString detail = label(view, "costVerdictDetail");
    QVERIFY2(detail.contains(QStringLiteral("the GPU price and the cloud price per GPU-hour")),
             qPrintable(detail));
    QVERIFY(!view.verdictText().contains(QStringLiteral("worth it")));
    // The prices that are 0 say so, and the figures that rest on them are not shown as 0.
    QCOMPARE(spin(view, "gpuPriceSpin")->text(), QStringLiteral("not set"));
    QCOMPARE(spin(view, "cloudPriceSpin")->text(), QStringLiteral("not set"));
    QVERIFY(spin(view, "gpuPriceSpin")->property("missingPrice").toBool());
    QVERIFY(spin(view, "cloudPriceSpin")->property("missingPrice").toBool());
    QVERIFY(!spin(view, "powerPriceSpin")->property("missingPrice").toBool());
    QVERIFY2(label(view, "capital").contains(QStringLiteral("not set")),
             qPrintable(label(view, "capital")));
    QVERIFY2(label(view, "breakEven").contains(QStringLiteral("not set")),
             qPrintable(label(view, "breakEven")));
    // Entering them gives the verdict back.
    view.setResult(resultOf(claim16()));
    QCOMPARE(view.verdictText(), QStringLiteral("4 GPUs: worth it — rent in the cloud"));
    QVERIFY(!spin(view, "gpuPriceSpin")->property("missingPrice").toBool());
}

void TestCostViewVerdict::addCostSectionLeavesPricesToTheUser()
{
    Scenario bare = claim16();
    bare.cost.reset();
    CostView view;
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setResult(resultOf(bare));
    QVERIFY(!view.showsReport());
    std::vector<CostSpec> edited;
    connect(&view, &CostView::costEdited, this,
            [&edited](const CostSpec &cost, const QString &) { edited.push_back(cost); });
    auto *button = view.findChild<QPushButton *>(QStringLiteral("addCostButton"));
    QVERIFY(button);
    view.findChild<QDoubleSpinBox *>(QStringLiteral("electricityPrice"))->setValue(0.3);
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(edited.size(), size_t(1));
    const CostSpec spec = edited.front();
    // No invented prices: the GPU and cloud prices are left to the user ...
    QCOMPARE(spec.gpu_price_usd, 0.0);
    QCOMPARE(spec.cloud_price_per_gpu_hour, 0.0);
    // ... the power price is the one this page showed, the rest the format's defaults.
    QCOMPARE(spec.power_price_per_kwh, 0.3);
    QCOMPARE(spec.day_rate_usd, CostSpec{}.day_rate_usd);
    QVERIFY(spec.steps > 0);
    // The owner applies it and recomputes: no verdict, and the GPU price is open for typing.
    Scenario added = bare;
    added.cost = spec;
    view.setResult(resultOf(added));
    QVERIFY(view.showsReport());
    QCOMPARE(view.report().verdict.decision, CostDecision::NoVerdict);
    QCOMPARE(view.verdictText(), QStringLiteral("No verdict: prices missing"));
    QVERIFY(spin(view, "gpuPriceSpin")->property("missingPrice").toBool());
    QCOMPARE(spin(view, "gpuPriceSpin")->text(), QStringLiteral("not set"));
    if (QTest::qWaitForWindowActive(&view))
        QTRY_VERIFY(spin(view, "gpuPriceSpin")->hasFocus());
}

void TestCostViewVerdict::engineFiguresAreTheModels_data()
{
    QTest::addColumn<bool>("failures");
    QTest::newRow("no failures") << false;
    QTest::newRow("failures on") << true;
}

void TestCostViewVerdict::engineFiguresAreTheModels()
{
    QFETCH(bool, failures);
    Scenario sc = failures ? withFailures(claim16()) : claim16();
    sc.cost.reset();
    const auto result = resultOf(sc);
    CostView view;
    view.setResult(result);
    QVERIFY(!view.showsReport());
    view.setRunSteps(100'000);
    view.setPricePerKwh(0.25);
    // The model's figures for that run: time with the goodput, energy with the PUE.
    CostSpec spec;
    spec.steps = 100'000;
    spec.power_price_per_kwh = 0.25;
    const CostReport model = costReport(sc, spec, result->summary());
    if (failures)
        QVERIFY(model.goodput < 0.99);
    QVERIFY(model.energy_kwh_per_run > 0);
    QCOMPARE(view.engineReport().time_to_train_h, model.time_to_train_h);
    QCOMPARE(view.engineReport().energy_kwh_per_run, model.energy_kwh_per_run);
    const QLocale locale;
    QCOMPARE(label(view, "timePerRun"), formatRunDuration(model.time_to_train_h * 3600.0));
    QCOMPARE(label(view, "gpuHours"),
             QStringLiteral("%1 GPU-h").arg(locale.toString(model.gpu_hours_per_run, 'f', 1)));
    QCOMPARE(label(view, "energyPerRun"),
             QStringLiteral("%1 kWh").arg(locale.toString(model.energy_kwh_per_run, 'f', 1)));
    QCOMPARE(label(view, "electricityCost"),
             QStringLiteral("%1 (at 0.250 per kWh)")
                 .arg(locale.toString(model.energy_cost_per_run_usd, 'f', 2)));
    QVERIFY2(label(view, "energyAssumption").contains(QStringLiteral("PUE 1.50")),
             qPrintable(label(view, "energyAssumption")));
    if (failures)
        QVERIFY2(label(view, "energyAssumption").contains(QStringLiteral("useful")),
                 qPrintable(label(view, "energyAssumption")));
}

// Issue 26, finding 3: with prices, 16 RTX 4090 on one 10 GbE node said "16 GPUs: worth it"
// while 8 were faster for half the hardware. The headline names the sweep's count that pays
// best, the one economics.h computes (and its numbers stay in the detail).
void TestCostViewVerdict::headlineNamesTheCountThatPaysBest()
{
    Scenario sc = claim16();
    sc.hardware.gpus_per_node = 16;
    sc.parallel.data = 16;
    sc.training.micro_batch = 64;
    EvaluationRequest request;
    request.sweep = true;
    request.skip_unreachable_counts = true;
    Result<ScenarioEvaluation> e = evaluateScenario(sc, request);
    QVERIFY2(e, e ? "" : e.error().toString().c_str());
    QVERIFY(e.value().cost && e.value().cost->best);
    const CostReport &c = *e.value().cost;
    QVERIFY(c.best->gpus != c.gpus);
    auto r = std::make_shared<ScenarioResult>();
    r->scenario = sc;
    editEvaluation(*r) = e.value();
    CostView view;
    view.setResult(r);
    const QString where = c.verdict.venue == CostVenue::Own ? QStringLiteral("buy and own")
                                                            : QStringLiteral("rent in the cloud");
    const QString expected = c.verdict.decision == CostDecision::MoreGpusPay
                                 ? QStringLiteral("16 GPUs: worth it, but %1 GPUs pay best — %2")
                                       .arg(c.best->gpus)
                                       .arg(where)
                                 : QStringLiteral("16 GPUs: not worth it; %1 GPUs pay best — %2")
                                       .arg(c.best->gpus)
                                       .arg(where);
    QCOMPARE(view.verdictText(), expected);
    QVERIFY2(label(view, "costVerdictDetail")
                 .contains(QStringLiteral("Best on the scaling sweep: %1 GPUs").arg(c.best->gpus)),
             qPrintable(label(view, "costVerdictDetail")));
}

QTEST_MAIN(TestCostViewVerdict)
#include "tst_cost_view_verdict.moc"
