// Claims 11, 12, 13 and 16 (shared/claims.md): direction and rough size of the effect,
// from the gallery scenarios in resources/scenarios.
#include "analysis/economics.h"
#include "testutil.h"

#include <QTest>

#include <algorithm>

using namespace scalescope;
using namespace scalescope::test;

namespace
{
Scenario load(const char *file)
{
    const QString path =
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/") + QString::fromLatin1(file);
    Result<Scenario> s = loadScenarioFile(path, builtinCatalog());
    if (!s)
        qFatal("%s: %s", file, s.error().toString().c_str());
    return s.value();
}
} // namespace

class TestClaimsEffects : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void claim11ThermalThrottling();
    void claim11ThermalOverTime();
    void claim12DataLoaderStarvation();
    void claim13VirtualGpuSlices();
    void claim16Economics();
};

void TestClaimsEffects::claim11ThermalThrottling()
{
    const Scenario hot = load("claim11-thermal-throttling.json");
    Scenario cool = hot;
    cool.effects.thermal = ThermalSpec{};
    const Summary h = simulateSummary(hot), c = simulateSummary(cool);
    QCOMPARE(h.gpus, 4);
    QCOMPARE(h.throttled_gpus, 4);
    // Slower, but by less than the 20% clock drop (memory-bound work keeps its pace).
    const double slowdown = h.step_time_s / c.step_time_s;
    QVERIFY2(slowdown > 1.03 && slowdown < 1.25, qPrintable(QString::number(slowdown)));

    // A poorly cooled case: the GPUs settle above 84 C; a good one keeps them below.
    Scenario poor = hot;
    poor.effects.thermal.steady_c = kCoolingPoorC;
    QVERIFY(poor.effects.thermal.steadyC(0) > 84);
    QCOMPARE(simulateSummary(poor).throttled_gpus, 4);
    Scenario good = hot;
    good.effects.thermal.steady_c = kCoolingDatacenterC;
    const Summary g = simulateSummary(good);
    QCOMPARE(g.throttled_gpus, 0);
    QVERIFY(std::abs(g.step_time_s / c.step_time_s - 1.0) < 1e-9);
}

void TestClaimsEffects::claim11ThermalOverTime()
{
    // One GPU of four sits in the hot spot; simulated from the start of the run, it crosses
    // 84 C during the measured steps and the others wait for it, named.
    Scenario s = load("claim11-thermal-throttling.json");
    ThermalSpec &th = s.effects.thermal;
    th.steady_c = kCoolingWorkstationC;
    th.gpus = {{2, kCoolingPoorC}};
    const double onset = th.throttleOnsetS(2);
    QVERIFY(std::isfinite(onset));
    QVERIFY(!std::isfinite(th.throttleOnsetS(0)));
    QVERIFY(std::abs(th.temperatureC(2, onset) - 84.0) < 1e-6);
    QVERIFY(th.temperatureC(2, onset * 0.5) < 84.0);
    // Start a few steps before the crossing.
    const double step = simulateSummary(s).step_time_s;
    th.start_s = std::max(0.0, onset - 3.5 * step);
    SimOptions opt;
    opt.iterations = 8;
    opt.build_timeline = true;
    const auto ctx = contextFrom(s);
    const SimResult r = simulate(*ctx, opt);
    QVERIFY(r.ok);
    const Timeline &t = *r.timeline;
    // GPU 2's compute is labelled throttled in the late steps only; the others' never.
    bool early_hot = false, late_hot = false, other_hot = false, names_gpu2 = false;
    for (int gpu = 0; gpu < 4; ++gpu) {
        const int row = gpu * kStreamCount;
        for (size_t i = t.rowBegin(row); i < t.rowEnd(row); ++i) {
            const bool hot_label = t.label(i).find("thermal throttling") != std::string::npos &&
                                   t.kind(i) != SegmentKind::Wait;
            if (t.kind(i) == SegmentKind::Wait &&
                t.label(i).find("GPU 2 (slowest data-parallel replica, thermal") !=
                    std::string::npos)
                names_gpu2 = true;
            if (!hot_label)
                continue;
            if (gpu != 2)
                other_hot = true;
            else if (t.start(i) < t.endTime() * 0.2)
                early_hot = true;
            else
                late_hot = true;
        }
    }
    QVERIFY(!early_hot);
    QVERIFY(late_hot);
    QVERIFY(!other_hot);
    QVERIFY(names_gpu2);
}

void TestClaimsEffects::claim12DataLoaderStarvation()
{
    const Summary a = simulateSummary(load("claim12-a-starved-loader.json"));
    const Summary b = simulateSummary(load("claim12-b-enough-workers.json"));
    const double util_a = a.breakdown.compute / a.step_time_s;
    const double util_b = b.breakdown.compute / b.step_time_s;
    QVERIFY2(util_a < 0.8, qPrintable(QString::number(util_a)));
    QVERIFY(a.breakdown.data_loading > 0.2 * a.step_time_s);
    QVERIFY(a.data_supply_samples_per_s < a.data_demand_samples_per_s);
    QVERIFY2(util_b > util_a + 0.1, qPrintable(QString::number(util_b)));
}

void TestClaimsEffects::claim13VirtualGpuSlices()
{
    const Scenario sliced = load("claim13-virtual-gpu-slices.json");
    const Summary s = simulateSummary(sliced);
    QCOMPARE(s.gpus, 8);
    QVERIFY(s.memory.fits());
    // Eight quarter slices run like fewer than two whole GPUs ...
    QVERIFY2(s.full_gpu_equivalents > 1.0 && s.full_gpu_equivalents < 2.0,
             qPrintable(QString::number(s.full_gpu_equivalents)));
    // ... and far slower than eight whole GPUs with peer-to-peer links.
    Scenario whole = sliced;
    whole.effects.virtual_gpu = VirtualGpuSpec{};
    const Summary w = simulateSummary(whole);
    QVERIFY(s.step_time_s > 3.5 * w.step_time_s);
    // Host routing alone costs communication time.
    Scenario p2p = sliced;
    p2p.effects.virtual_gpu.host_routed = false;
    QVERIFY(simulateSummary(p2p).breakdown.communication_total < s.breakdown.communication_total);
}

void TestClaimsEffects::claim16Economics()
{
    const Scenario sc = load("claim16-economics-4x4090.json");
    QVERIFY(sc.cost.has_value());
    const Summary s = simulateSummary(sc);
    const CostReport r = costReport(sc, s);
    const CostVerdict &v = r.verdict;
    // A job of about a day, twice a month (under 50 GPU-hours): the rule of thumb says one GPU
    // or the cloud ...
    QVERIFY(r.reference_time_h > 10 && r.reference_time_h < 48);
    QCOMPARE(v.usage, UsageBand::Under50);
    QCOMPARE(v.recommended_gpus, 1);
    // ... but the four GPUs save about 35 h of waiting a month, worth about 3,500 USD at the
    // day rate (800 / 8 = 100 USD an hour), against about 46 USD a month more (the cloud time
    // beyond one GPU's, and 2 days x 800 USD of migration over 36 months): worth it, rented.
    QCOMPARE(v.decision, CostDecision::MoreGpusPay);
    QVERIFY(v.more_gpus_worth_it);
    QCOMPARE(v.venue, CostVenue::Rent);
    QVERIFY(!v.own);
    QCOMPARE(v.reference_venue, CostVenue::Rent);
    QCOMPARE(v.missing, uint8_t(0));
    const CostSpec &c = *sc.cost;
    const double months = c.amortisation_years * 12;
    QVERIFY(qAbs(v.waiting_saved_h_per_month -
                 (r.reference_time_h - r.time_to_train_h) * c.runs_per_month) < 1e-9);
    QVERIFY2(v.waiting_saved_h_per_month > 30 && v.waiting_saved_h_per_month < 40,
             qPrintable(QString::number(v.waiting_saved_h_per_month)));
    QCOMPARE(v.hour_value_usd, c.day_rate_usd / 8);
    QVERIFY(qAbs(v.waiting_value_usd_per_month - v.waiting_saved_h_per_month * 100) < 1e-9);
    QVERIFY2(v.waiting_value_usd_per_month > 3000 && v.waiting_value_usd_per_month < 4000,
             qPrintable(QString::number(v.waiting_value_usd_per_month)));
    // What the GPUs add: the cheaper venue for four GPUs against one GPU's for the same work.
    QVERIFY(qAbs(v.gpus_cost_usd_per_month -
                 std::min(r.own_cost_per_month_usd, r.rent_cost_per_month_usd)) < 1e-9);
    QVERIFY(qAbs(v.gpus_cost_usd_per_month - r.rent_cost_per_month_usd) < 1e-9);
    const double one_gpu_rent = r.reference_time_h * c.runs_per_month * c.cloud_price_per_gpu_hour;
    QVERIFY(qAbs(v.reference_cost_usd_per_month - one_gpu_rent) < 1e-9);
    QVERIFY(qAbs(v.hardware_extra_usd_per_month -
                 (v.gpus_cost_usd_per_month - v.reference_cost_usd_per_month)) < 1e-9);
    QVERIFY(v.hardware_extra_usd_per_month >= 0); // four GPUs scale below 4x
    QVERIFY(qAbs(v.migration_usd_per_month - c.migration_days * c.day_rate_usd / months) < 1e-9);
    QVERIFY(qAbs(v.extra_cost_usd_per_month -
                 (v.hardware_extra_usd_per_month + v.migration_usd_per_month)) < 1e-9);
    QVERIFY2(v.extra_cost_usd_per_month > 40 && v.extra_cost_usd_per_month < 60,
             qPrintable(QString::number(v.extra_cost_usd_per_month)));
    QVERIFY(v.waiting_value_usd_per_month > v.extra_cost_usd_per_month);
    QVERIFY(qAbs(v.net_usd_per_month -
                 (v.waiting_value_usd_per_month - v.extra_cost_usd_per_month)) < 1e-9);
    // The rule of thumb is shown beside it, and why the two differ: it counts GPU-hours, not
    // the waiting.
    QCOMPARE(v.gap, RuleGap::WaitingValued);
    QVERIFY(!v.rule_own);
    QVERIFY(!v.venue_differs);
    // Board power of 300-450 W per card under load (claims.md: 300-450 W).
    QVERIFY(r.power_per_gpu_w > 300 && r.power_per_gpu_w <= 450);
    // Break-even in the claim's range (50-200 hours a month).
    QVERIFY2(r.break_even_hours_per_month > 50 && r.break_even_hours_per_month < 200,
             qPrintable(QString::number(r.break_even_hours_per_month)));
    // Run every day of the month (over 200 GPU-hours): owning pays, more GPUs are worth it.
    Scenario busy = sc;
    busy.cost->runs_per_month = 30;
    const CostReport b = costReport(busy, s);
    QVERIFY(b.usage_hours_per_month > b.break_even_hours_per_month);
    QVERIFY(b.verdict.own);
    QVERIFY(b.verdict.recommended_gpus >= 2);
    QVERIFY(b.verdict.more_gpus_worth_it);
}

QTEST_GUILESS_MAIN(TestClaimsEffects)
#include "tst_claims_effects.moc"
