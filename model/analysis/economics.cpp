#include "analysis/economics.h"

#include "analysis/format.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalescope
{

std::string adviceNumber(double x)
{
    return fixedText(x, 0);
}

std::string adviceText(const Advice &a)
{
    switch (a.kind) {
    case AdviceKind::LinearScalingRule:
        return "Linear scaling rule (Goyal et al. 2017): if the global batch grows k-fold to keep "
               "more GPUs busy, multiply the learning rate by k and warm it up over the first ~5 "
               "epochs; this scenario keeps the global batch at " +
               adviceNumber(a.global_batch) + ".";
    case AdviceKind::LoaderWorkers:
        return "Data loader: each GPU consumes about " + adviceNumber(a.samples_per_s_per_gpu) +
               " samples/s; at " + adviceNumber(a.samples_per_s_per_worker) +
               " samples/s per worker it needs " + std::to_string(a.workers_needed) +
               " workers (has " + std::to_string(a.workers_per_gpu) + ").";
    case AdviceKind::LoaderRuleOfThumb:
        return "Data loader: start with 4 workers per GPU (PyTorch rule of thumb) and raise until "
               "GPU utilisation stops rising, at most the CPU cores per GPU.";
    }
    return {};
}

double boardPowerW(double tdp_w, double utilisation)
{
    // Linear power model (Fan et al. ISCA 2007): P = P_idle + (P_max - P_idle) u.
    const double u = std::clamp(utilisation, 0.0, 1.0);
    return tdp_w * (kIdlePowerShare + (1.0 - kIdlePowerShare) * u);
}

const char *durationBandName(DurationBand band)
{
    switch (band) {
    case DurationBand::UnderADay:
        return "under a day";
    case DurationBand::OneToThreeDays:
        return "1-3 days";
    case DurationBand::ThreeToFourteenDays:
        return "3-14 days";
    case DurationBand::OverTwoWeeks:
        return "over two weeks";
    }
    return "";
}

const char *usageBandName(UsageBand band)
{
    switch (band) {
    case UsageBand::Under50:
        return "under 50 GPU-hours a month";
    case UsageBand::From50To200:
        return "50-200 GPU-hours a month";
    case UsageBand::Over200:
        return "over 200 GPU-hours a month";
    }
    return "";
}

double stepsPerRun(const CostSpec &cost, double global_batch, double tokens_per_sample)
{
    if (cost.steps > 0)
        return cost.steps;
    if (cost.tokens > 0 && tokens_per_sample > 0)
        return std::ceil(cost.tokens / (global_batch * tokens_per_sample));
    if (cost.epochs > 0)
        return std::ceil(cost.epochs * cost.samples_per_epoch / global_batch);
    return 0;
}

namespace
{
/// Advice lines (the same with or without a verdict).
CostReport &withAdvice(CostReport &r, const Scenario &scenario, const Summary &s)
{
    const int n = s.gpus;
    const double batch = static_cast<double>(scenario.training.global_batch);
    Advice scaling;
    scaling.kind = AdviceKind::LinearScalingRule;
    scaling.global_batch = batch;
    r.advice.push_back(scaling);
    const DataLoaderSpec &dl = scenario.effects.data_loader;
    const double demand_per_gpu = s.step_time_s > 0 ? batch / s.step_time_s / std::max(1, n) : 0;
    Advice loader;
    const double per_worker =
        dl.enabled ? loaderSamplesPerWorker(dl, scenario.hardware, scenario.model) : 0.0;
    if (dl.enabled && per_worker > 0) {
        const double busy = s.step_time_s - s.breakdown.data_loading;
        const double need = busy > 0 ? batch / busy / std::max(1, n) : demand_per_gpu;
        loader.kind = AdviceKind::LoaderWorkers;
        loader.samples_per_s_per_gpu = need;
        loader.samples_per_s_per_worker = per_worker;
        loader.workers_needed = static_cast<int>(std::ceil(need / per_worker));
        loader.workers_per_gpu = dl.workers_per_gpu;
    } else {
        loader.kind = AdviceKind::LoaderRuleOfThumb;
    }
    r.advice.push_back(loader);
    return r;
}
} // namespace

CostReport costReport(const Scenario &scenario, const Summary &s, const CostBaseline &baseline)
{
    if (!scenario.cost)
        return CostReport{};
    return costReport(scenario, *scenario.cost, s, baseline);
}

CostReport costReport(const Scenario &scenario, const CostSpec &c, const Summary &s,
                      const CostBaseline &baseline)
{
    CostReport r;
    const int n = s.gpus;
    r.gpus = n;
    const double batch = static_cast<double>(scenario.training.global_batch);
    const double tokens_per_sample =
        s.samples_per_s > 0 && s.tokens_per_s > 0 ? s.tokens_per_s / s.samples_per_s : 0;
    r.steps_per_run = stepsPerRun(c, batch, tokens_per_sample);
    r.step_time_s = s.step_time_s;
    r.memory_total_bytes = s.memory.total;
    r.memory_capacity_bytes = s.memory.capacity;
    r.may_not_fit = s.memory.mayNotFit();
    // Summary::goodput is 1 without failures. A goodput of 0 (failures come faster than
    // any checkpoint can be written) is a run that never ends: infinite time and cost.
    // Before, it was read as "no failures" and the time to train jumped back to the
    // failure-free value.
    r.goodput = s.goodput;
    // Wall time = useful time / goodput (failures, checkpoints and rework: reliability.h).
    r.time_to_train_h = r.goodput > 0 ? r.steps_per_run * s.step_time_s / r.goodput / 3600.0
                                      : std::numeric_limits<double>::infinity();
    // The reference's GPUs (one, or the fewest that hold the model) fail n / N0 times less
    // often; their goodput is taken as 1 (a rare restart).
    const int n0 = std::max(1, baseline.gpus);
    r.reference_gpus = n0;
    r.reference_time_h =
        r.steps_per_run * (baseline.step_time_s >= 0 ? baseline.step_time_s : s.single_gpu_step_s) /
        3600.0;
    // Products with an infinite time: nothing times it is nothing (no runs, no price).
    const auto times = [](double a, double b) { return a == 0 || b == 0 ? 0.0 : a * b; };
    r.gpu_hours_per_run = times(r.time_to_train_h, n);
    r.usage_hours_per_month = times(r.time_to_train_h, c.runs_per_month);

    r.utilisation =
        s.step_time_s > 0 ? std::clamp(s.breakdown.compute / s.step_time_s, 0.0, 1.0) : 0;
    r.power_per_gpu_w = boardPowerW(scenario.hardware.gpu.tdp_w, r.utilisation);
    r.energy_known = scenario.hardware.gpu.tdp_w > 0;
    // Facility energy = IT energy x PUE (The Green Grid, PUE definition, WP #49).
    r.energy_kwh_per_step = n * r.power_per_gpu_w * s.step_time_s / 3.6e6 * c.pue;
    r.energy_kwh_per_run = times(n * r.power_per_gpu_w / 1000.0 * c.pue, r.time_to_train_h);
    r.energy_cost_per_run_usd = times(r.energy_kwh_per_run, c.power_price_per_kwh);

    const int nodes = std::max(1, (n + scenario.hardware.gpus_per_node - 1) /
                                      std::max(1, scenario.hardware.gpus_per_node));
    const double months = c.amortisation_years * 12.0;
    r.capital_usd = n * c.gpu_price_usd + nodes * c.server_price_usd;
    // Straight-line depreciation over the amortisation period.
    const double capital_per_month = r.capital_usd / months;
    r.own_cost_per_month_usd =
        capital_per_month + times(r.energy_cost_per_run_usd, c.runs_per_month);
    r.rent_cost_per_month_usd =
        times(times(r.gpu_hours_per_run, c.runs_per_month), c.cloud_price_per_gpu_hour);
    r.own_cost_per_run_usd = c.runs_per_month > 0 ? r.own_cost_per_month_usd / c.runs_per_month : 0;
    r.rent_cost_per_run_usd = times(r.gpu_hours_per_run, c.cloud_price_per_gpu_hour);
    // Owning pays when the monthly capital is covered by what renting the same hours would
    // cost beyond the energy of owning them.
    const double energy_per_hour = n * r.power_per_gpu_w / 1000.0 * c.pue * c.power_price_per_kwh;
    const double margin = n * c.cloud_price_per_gpu_hour - energy_per_hour;
    r.break_even_hours_per_month =
        margin > 0 ? capital_per_month / margin : std::numeric_limits<double>::infinity();
    r.migration_cost_usd = n > n0 ? c.migration_days * c.day_rate_usd : 0;
    r.hours_saved_per_month =
        std::max(0.0, r.reference_time_h - r.time_to_train_h) * c.runs_per_month;

    CostVerdict &v = r.verdict;
    // The rule of thumb (claims.md 16): duration of the job on one GPU x GPU-hours a month.
    // A model one GPU cannot hold counts its reference's GPU-hours (N0 x T(N0)) as the
    // one-GPU duration the table reads, and the table never suggests fewer than N0.
    const double d = r.reference_time_h * n0;
    const double monthly = d * c.runs_per_month; // GPU-hours a month
    v.duration = d < 24    ? DurationBand::UnderADay
                 : d < 72  ? DurationBand::OneToThreeDays
                 : d < 336 ? DurationBand::ThreeToFourteenDays
                           : DurationBand::OverTwoWeeks;
    v.usage = monthly < 50     ? UsageBand::Under50
              : monthly <= 200 ? UsageBand::From50To200
                               : UsageBand::Over200;
    if (monthly < 50 || (d < 72 && monthly <= 200))
        v.recommended_gpus = 1; // short or rare: one GPU (or the cloud) is cheaper
    else if (d < 72)
        v.recommended_gpus = 2; // short but frequent: a second GPU keeps up
    else if (d < 336)
        v.recommended_gpus = monthly <= 200 ? 2 : 4;
    else
        v.recommended_gpus = monthly <= 200 ? 4 : 8;
    // At least as many GPUs as the month's work needs to keep up (730 hours a month).
    while (v.recommended_gpus < 8 && monthly / v.recommended_gpus > 730)
        v.recommended_gpus *= 2;
    while (v.recommended_gpus < n0) // never fewer than hold the model
        v.recommended_gpus *= 2;
    // claims.md 16: "over about 200 hours a month, owning pays" (hours each GPU is in use).
    v.rule_own = r.usage_hours_per_month > kRuleOwnHoursPerMonth;

    // No verdict without the prices the comparison needs.
    auto need = [&v](CostInput input, double value) {
        if (!(value > 0))
            v.missing |= uint8_t(1u << unsigned(input));
    };
    need(CostInput::GpuPrice, c.gpu_price_usd);
    need(CostInput::CloudPrice, c.cloud_price_per_gpu_hour);
    need(CostInput::PowerPrice, c.power_price_per_kwh);
    if (n > n0)
        need(CostInput::DayRate, c.day_rate_usd);
    need(CostInput::Work, r.steps_per_run);
    if (v.missing != 0) {
        v.decision = CostDecision::NoVerdict;
        return withAdvice(r, scenario, s);
    }
    // A plan that does not fit in memory does not run: no count is worth buying for it. Over
    // by less than the model's memory error it may run (analysis/memory.h): the verdict is
    // given, with CostReport::may_not_fit saying why it may not hold.
    if (!s.memory.fits() && !r.may_not_fit) {
        v.decision = CostDecision::DoesNotFit;
        return withAdvice(r, scenario, s);
    }

    // Owning against renting: the cheaper of the two for the month's work.
    v.venue =
        r.own_cost_per_month_usd < r.rent_cost_per_month_usd ? CostVenue::Own : CostVenue::Rent;
    v.gpus_cost_usd_per_month = std::min(r.own_cost_per_month_usd, r.rent_cost_per_month_usd);
    // The reference's GPUs for the same work: one GPU computes the whole step (no
    // communication to wait for), so it draws its TDP for the run (linear power model at
    // u = 1); N0 GPUs are taken to draw it too (an upper bound on their energy).
    const int n0_nodes = (n0 + std::max(1, scenario.hardware.gpus_per_node) - 1) /
                         std::max(1, scenario.hardware.gpus_per_node);
    const double ref_own = (n0 * c.gpu_price_usd + n0_nodes * c.server_price_usd) / months +
                           boardPowerW(scenario.hardware.gpu.tdp_w, 1.0) / 1000.0 * c.pue *
                               c.power_price_per_kwh * monthly;
    const double ref_rent = monthly * c.cloud_price_per_gpu_hour;
    v.reference_venue = ref_own < ref_rent ? CostVenue::Own : CostVenue::Rent;
    v.reference_cost_usd_per_month = std::min(ref_own, ref_rent);
    v.own = v.venue == CostVenue::Own;
    v.venue_differs = v.rule_own != v.own;
    if (n <= n0) {
        v.decision = CostDecision::AtReference;
        return withAdvice(r, scenario, s);
    }

    // The comparison: waiting saved, valued at the day rate over a working day, against what
    // the GPUs add a month, with the migration spread over the amortisation period.
    v.waiting_saved_h_per_month = r.hours_saved_per_month;
    v.hour_value_usd = c.day_rate_usd / kHoursPerWorkDay;
    v.waiting_value_usd_per_month = v.waiting_saved_h_per_month * v.hour_value_usd;
    v.hardware_extra_usd_per_month = v.gpus_cost_usd_per_month - v.reference_cost_usd_per_month;
    v.migration_usd_per_month = r.migration_cost_usd / months;
    v.extra_cost_usd_per_month = v.hardware_extra_usd_per_month + v.migration_usd_per_month;
    v.net_usd_per_month = v.waiting_value_usd_per_month - v.extra_cost_usd_per_month;
    v.decision =
        v.net_usd_per_month > 0 ? CostDecision::MoreGpusPay : CostDecision::MoreGpusDoNotPay;
    v.more_gpus_worth_it = v.decision == CostDecision::MoreGpusPay;
    if (v.more_gpus_worth_it && v.recommended_gpus < n)
        v.gap = RuleGap::WaitingValued;
    else if (!v.more_gpus_worth_it && v.recommended_gpus >= n)
        v.gap = RuleGap::CostOutweighs;
    return withAdvice(r, scenario, s);
}

void weighSweep(CostReport &report, const Scenario &scenario, const std::vector<SweepRow> &rows,
                const CostBaseline &baseline)
{
    report.best.reset();
    if (report.verdict.decision == CostDecision::NoVerdict || !scenario.cost ||
        !std::isfinite(report.time_to_train_h))
        return;
    // Every count is weighed as the scenario's own is (the same prices, work and baseline):
    // the waiting it saves, valued at the day rate, less what its GPUs add a month.
    const auto net = [](const CostReport &r) {
        return r.verdict.decision == CostDecision::AtReference ? 0.0 : r.verdict.net_usd_per_month;
    };
    const double own_net = net(report);
    std::optional<SweepCostChoice> best;
    for (const SweepRow &row : rows) {
        const Summary &s = row.summary;
        if (row.gpus == report.gpus || !s.memory.fits() || !(s.step_time_s > 0))
            continue;
        const CostReport r = costReport(scenario, *scenario.cost, s, baseline);
        if (r.verdict.decision == CostDecision::NoVerdict || !std::isfinite(r.time_to_train_h))
            continue;
        SweepCostChoice c;
        c.gpus = row.gpus;
        c.time_to_train_h = r.time_to_train_h;
        c.cost_usd_per_month = r.verdict.gpus_cost_usd_per_month;
        c.net_usd_per_month = net(r);
        c.faster_than_scenario = r.time_to_train_h > 0 ? report.time_to_train_h / r.time_to_train_h : 0;
        if (!best || c.net_usd_per_month > best->net_usd_per_month)
            best = c;
    }
    // Named only where it pays more than the scenario's count by a margin a reader would
    // notice (1% of what is at stake), not by rounding.
    const double stake = std::max({std::abs(own_net), report.verdict.gpus_cost_usd_per_month, 1.0});
    if (best && best->net_usd_per_month > own_net + 0.01 * stake) {
        best->gain_usd_per_month = best->net_usd_per_month - own_net;
        report.best = best;
    }
}

} // namespace scalescope
