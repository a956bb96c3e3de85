#include "analysis/economics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace scalescope
{

namespace
{
std::string num(double x, const char *format = "%.0f")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, x);
    return buf;
}

constexpr double kHoursPerWorkDay = 8;
} // namespace

double boardPowerW(double tdp_w, double utilisation)
{
    // Linear power model (Fan et al. ISCA 2007): P = P_idle + (P_max - P_idle) u.
    const double u = std::clamp(utilisation, 0.0, 1.0);
    return tdp_w * (kIdlePowerShare + (1.0 - kIdlePowerShare) * u);
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

CostReport costReport(const Scenario &scenario, const Summary &s)
{
    CostReport r;
    if (!scenario.cost)
        return r;
    const CostSpec &c = *scenario.cost;
    const int n = s.gpus;
    r.gpus = n;
    const double batch = static_cast<double>(scenario.training.global_batch);
    const double tokens_per_sample =
        s.samples_per_s > 0 && s.tokens_per_s > 0 ? s.tokens_per_s / s.samples_per_s : 0;
    r.steps_per_run = stepsPerRun(c, batch, tokens_per_sample);
    const double goodput = s.goodput > 0 ? s.goodput : 1;
    r.time_to_train_h = r.steps_per_run * s.step_time_s / goodput / 3600.0;
    // One GPU fails n times less often; its goodput is taken as 1 (a rare restart).
    r.single_gpu_time_h = r.steps_per_run * s.single_gpu_step_s / 3600.0;
    r.gpu_hours_per_run = r.time_to_train_h * n;
    r.usage_hours_per_month = r.time_to_train_h * c.runs_per_month;

    r.utilisation =
        s.step_time_s > 0 ? std::clamp(s.breakdown.compute / s.step_time_s, 0.0, 1.0) : 0;
    r.power_per_gpu_w = boardPowerW(scenario.hardware.gpu.tdp_w, r.utilisation);
    // Facility energy = IT energy x PUE (The Green Grid, PUE definition, WP #49).
    r.energy_kwh_per_run = n * r.power_per_gpu_w * r.time_to_train_h / 1000.0 * c.pue;
    r.energy_cost_per_run_usd = r.energy_kwh_per_run * c.power_price_per_kwh;

    const int nodes = std::max(1, (n + scenario.hardware.gpus_per_node - 1) /
                                      std::max(1, scenario.hardware.gpus_per_node));
    r.capital_usd = n * c.gpu_price_usd + nodes * c.server_price_usd;
    const double capital_per_month = r.capital_usd / (c.amortisation_years * 12.0);
    r.own_cost_per_month_usd = capital_per_month + r.energy_cost_per_run_usd * c.runs_per_month;
    r.rent_cost_per_month_usd = r.gpu_hours_per_run * c.runs_per_month * c.cloud_price_per_gpu_hour;
    r.own_cost_per_run_usd = r.own_cost_per_month_usd / c.runs_per_month;
    r.rent_cost_per_run_usd = r.gpu_hours_per_run * c.cloud_price_per_gpu_hour;
    // Owning pays when the monthly capital is covered by what renting the same hours would
    // cost beyond the energy of owning them.
    const double energy_per_hour = n * r.power_per_gpu_w / 1000.0 * c.pue * c.power_price_per_kwh;
    const double margin = n * c.cloud_price_per_gpu_hour - energy_per_hour;
    r.break_even_hours_per_month =
        margin > 0 ? capital_per_month / margin : std::numeric_limits<double>::infinity();
    r.migration_cost_usd = n > 1 ? c.migration_days * c.day_rate_usd : 0;
    r.hours_saved_per_month =
        std::max(0.0, r.single_gpu_time_h - r.time_to_train_h) * c.runs_per_month;

    // Decision table (claims.md 16): duration of the job on one GPU x GPU-hours a month.
    CostVerdict &v = r.verdict;
    const double d = r.single_gpu_time_h;
    const double monthly = d * c.runs_per_month; // GPU-hours a month on one GPU
    v.duration_band = d < 24    ? "under a day"
                      : d < 72  ? "1-3 days"
                      : d < 336 ? "3-14 days"
                                : "over two weeks";
    v.frequency_band = monthly < 50     ? "under 50 GPU-hours a month"
                       : monthly <= 200 ? "50-200 GPU-hours a month"
                                        : "over 200 GPU-hours a month";
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
    v.own = r.usage_hours_per_month > r.break_even_hours_per_month;
    // Waiting time is valued at the day rate (an assumption: someone waits for the result);
    // migration is spread over the amortisation period.
    const double value_saved = r.hours_saved_per_month * c.day_rate_usd / kHoursPerWorkDay;
    const double one_gpu_cost_month =
        std::min(c.gpu_price_usd / (c.amortisation_years * 12.0) +
                     c.server_price_usd / (c.amortisation_years * 12.0) +
                     boardPowerW(scenario.hardware.gpu.tdp_w, 1.0) / 1000.0 * c.pue *
                         c.power_price_per_kwh * monthly,
                 monthly * c.cloud_price_per_gpu_hour);
    const double n_gpu_cost_month = std::min(r.own_cost_per_month_usd, r.rent_cost_per_month_usd);
    const double extra = n_gpu_cost_month - one_gpu_cost_month +
                         r.migration_cost_usd / (c.amortisation_years * 12.0);
    v.more_gpus_worth_it = n > 1 && v.recommended_gpus > 1 && value_saved > extra;
    const std::string where = v.own ? "owning" : "renting in the cloud";
    if (n <= 1)
        v.sentence = "One GPU: " + num(r.time_to_train_h, "%.1f") + " h per run; " + where +
                     " is cheaper at " + num(r.usage_hours_per_month, "%.0f") +
                     " h a month (break-even " + num(r.break_even_hours_per_month, "%.0f") + " h).";
    else
        v.sentence =
            std::string(v.more_gpus_worth_it ? "Worth it: " : "Not worth it: ") +
            std::to_string(n) + " GPUs save " + num(r.hours_saved_per_month, "%.0f") +
            " h of waiting a month (the job takes " + v.duration_band + " on one GPU, " +
            v.frequency_band + "); the table suggests " +
            (v.recommended_gpus >= 8 ? std::string("8+") : std::to_string(v.recommended_gpus)) +
            (v.recommended_gpus == 1 ? " GPU" : " GPUs") + ", " + where + " (" +
            num(r.usage_hours_per_month, "%.0f") + " h a month against a break-even of " +
            num(r.break_even_hours_per_month, "%.0f") + " h).";

    // Advice lines.
    r.advice.push_back(
        "Linear scaling rule (Goyal et al. 2017): if the global batch grows k-fold to keep more "
        "GPUs busy, multiply the learning rate by k and warm it up over the first ~5 epochs; "
        "this scenario keeps the global batch at " +
        num(batch) + ".");
    const DataLoaderSpec &dl = scenario.effects.data_loader;
    const double demand_per_gpu = s.step_time_s > 0 ? batch / s.step_time_s / std::max(1, n) : 0;
    if (dl.enabled && dl.samples_per_s_per_worker > 0) {
        const double busy = s.step_time_s - s.breakdown.data_loading;
        const double need = busy > 0 ? batch / busy / std::max(1, n) : demand_per_gpu;
        const int workers = static_cast<int>(std::ceil(need / dl.samples_per_s_per_worker));
        r.advice.push_back("Data loader: each GPU consumes about " + num(need) + " samples/s; at " +
                           num(dl.samples_per_s_per_worker) + " samples/s per worker it needs " +
                           std::to_string(workers) + " workers (has " +
                           std::to_string(dl.workers_per_gpu) + ").");
    } else {
        r.advice.push_back("Data loader: start with 4 workers per GPU (PyTorch rule of thumb) "
                           "and raise until GPU utilisation stops rising, at most the CPU cores "
                           "per GPU.");
    }
    return r;
}

} // namespace scalescope
