// Economics of a training run (the scenario's `cost` section): time to train, energy, owning
// against renting, break-even usage and a verdict in the shape of the claims' decision table
// (task duration x frequency -> 1 / 2 / 4 / 8+ GPUs). Pure C++.
#pragma once

#include "analysis/summary.h"
#include "plan/scenario.h"

#include <string>
#include <vector>

namespace scalescope
{

/// Board power as a function of utilisation: linear between idle and TDP (Fan, Weber &
/// Barroso, "Power provisioning for a warehouse-sized computer", ISCA 2007). Idle share of
/// TDP: an assumption (0.3; an idle data-centre GPU draws 60-100 W of 300-700 W).
inline constexpr double kIdlePowerShare = 0.3;
double boardPowerW(double tdp_w, double utilisation);

struct CostVerdict {
    std::string duration_band;       // of the job on one GPU: "under a day", "1-3 days", ...
    std::string frequency_band;      // GPU-hours per month on one GPU: "under 50", "50-200", ...
    int recommended_gpus = 1;        // 1, 2, 4 or 8 (8 = "8+")
    bool more_gpus_worth_it = false; // the scenario's GPU count against one GPU
    bool own = false;                // owning is cheaper than renting at this usage
    std::string sentence;
};

struct CostReport {
    int gpus = 1;
    double steps_per_run = 0;
    double time_to_train_h = 0;       // wall time of one run on the scenario's GPUs (goodput incl.)
    double single_gpu_time_h = 0;     // the same run on one GPU
    double gpu_hours_per_run = 0;     // time_to_train_h x gpus
    double usage_hours_per_month = 0; // machine hours per month (runs x time_to_train_h)
    double utilisation = 0;           // busy share of the step (compute / step time)
    double power_per_gpu_w = 0;
    double energy_kwh_per_run = 0; // GPUs x power x time x PUE
    double energy_cost_per_run_usd = 0;
    double capital_usd = 0;             // GPUs + servers
    double own_cost_per_month_usd = 0;  // amortised capital + energy of the runs
    double rent_cost_per_month_usd = 0; // GPU-hours x cloud price
    double own_cost_per_run_usd = 0;
    double rent_cost_per_run_usd = 0;
    double break_even_hours_per_month =
        0; // machine hours/month above which owning pays (inf: never)
    double migration_cost_usd = 0;
    double hours_saved_per_month = 0; // waiting time saved against one GPU
    CostVerdict verdict;
    std::vector<std::string> advice;
};

/// Steps of one run of `cost.training` (tokens, epochs x samples, or steps).
double stepsPerRun(const CostSpec &cost, double global_batch, double tokens_per_sample);

/// The report of the scenario's cost section from its summary. The utilisation is the
/// compute share of the step (breakdown.compute / step_time_s): the GPU is taken to draw
/// near TDP while computing and idle power while it waits or only communicates.
CostReport costReport(const Scenario &scenario, const Summary &summary);

} // namespace scalescope
