// Time and energy of a step and of a training run from the engine's step time (pure
// arithmetic, no Qt widgets). Every GPU draws `board_power_w` for the whole step (the caller
// derives it from the TDP and the compute share with boardPowerW, analysis/economics.h);
// host power, cooling (PUE), cloud prices and ownership are the full cost model's job.
#pragma once

#include <QString>

#include <cstdint>

namespace scalescope
{

struct RunCostInputs {
    int gpus = 1;
    double step_time_s = 0;
    double board_power_w = 0; // per GPU (GpuSpec::tdp_w); 0 = unknown
    double steps = 0;         // steps in the run
    double price_per_kwh = 0; // electricity price, any currency
};

struct RunCost {
    double step_time_s = 0;
    double run_time_s = 0;
    double gpu_hours = 0;
    double energy_per_step_kwh = 0;
    double energy_per_run_kwh = 0;
    double electricity_cost = 0; // energy_per_run_kwh * price_per_kwh
    bool energy_known = false;   // board power given
};

RunCost computeRunCost(const RunCostInputs &in);

/// Steps that train `tokens` tokens: tokens / (global_batch * seq_len), rounded up;
/// 0 when the batch or sequence length is not positive.
double stepsForTokens(double tokens, int64_t global_batch, int64_t seq_len);

/// A duration for people: "850 ms", "42 s", "12.5 min", "3.2 h", "4.5 days".
QString formatRunDuration(double seconds);

} // namespace scalescope
