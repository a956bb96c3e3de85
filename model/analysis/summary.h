// Metrics of a scenario (spec/cli.md "simulate --json"): from the event simulation, or from
// the fast analytic path used by sweeps and interactive previews.
#pragma once

#include "analysis/memory.h"
#include "plan/error.h"
#include "sim/simulator.h"

#include <memory>
#include <string>

namespace scalescope
{

struct Summary {
    int gpus = 1;
    double step_time_s = 0;
    double samples_per_s = 0;
    double tokens_per_s = 0; // 0 for models without tokens
    double model_flops_per_step = 0;
    double hardware_flops_per_step = 0;
    double model_tflops_per_gpu = 0;
    double hardware_tflops_per_gpu = 0;
    double mfu = 0;
    double speedup = 0;
    double scaling_efficiency = 0;
    double single_gpu_step_s = 0; // the reference of speedup
    Breakdown breakdown;
    MemoryBreakdown memory;
    std::string bottleneck;
    std::string main_wait; // the wait that dominates, when known (event simulation)
    double staleness_steps = 0;
    bool is_transformer = false;
    // Effects (issue 5); zero or -1 where the effect is absent.
    double single_gpu_optimizer_s = 0;    // optimizer part of single_gpu_step_s
    int throttled_gpus = 0;               // thermal: GPUs throttling in the measured steps
    double first_throttle_s = -1;         // seconds of load until the first GPU throttles
    double max_temperature_c = 0;         // hottest GPU at the end of the measured steps
    double full_gpu_equivalents = 0;      // virtual GPUs: whole physical GPUs this runs like
    double data_supply_samples_per_s = 0; // loaders of all GPUs together
    double data_demand_samples_per_s = 0; // what the GPUs would consume unstarved
    double goodput = 1;                   // failures: useful share of wall time
    double checkpoint_interval_s = 0;     // failures: interval used (optimum unless given)
};

struct CollectiveSummary {
    int gpus = 1;
    CollectiveOp op = CollectiveOp::AllReduce;
    double bytes = 0;
    CollectiveCost cost;
};

/// Validates the plan and derives the simulation context.
/// `single_gpu_step_s`: the speed-up reference when the caller already knows it (a sweep's
/// counts share it); < 0: computed when a summary needs it.
Result<std::shared_ptr<const SimContext>> makeContext(const Scenario &scenario,
                                                      double single_gpu_step_s = -1);

/// Step time of the speed-up reference (spec/cli.md): the same global batch on one GPU of
/// the same kind, no communication, memory ignored, under the effects every GPU has but not
/// the per-GPU ones (stragglers, hot spots); closed form.
double singleGpuStepTime(const SimContext &ctx);
/// The same reference simulated by the engine (what summarize() compares an engine run with).
double simulatedSingleGpuStepTime(const SimContext &ctx);

/// Metrics from an event simulation.
Summary summarize(const SimContext &ctx, const SimResult &sim);
/// Metrics from closed-form pipeline/overlap formulas (no per-rank effects other than a
/// slowest-GPU factor); agrees with the simulation within a few percent on effect-free
/// scenarios (tested), and costs microseconds.
Summary analyticSummary(const SimContext &ctx);

/// The collective of a collective-only scenario. An algorithm that cannot run there falls
/// back to the ring; checkCollective reports it instead.
CollectiveSummary simulateCollective(const Scenario &scenario);
/// Rejects a requested algorithm that cannot run on this hardware ("collective.algorithm").
Result<bool> checkCollective(const Scenario &scenario);

/// One short sentence: what limits this step most.
std::string bottleneckSentence(const SimContext &ctx, const Summary &s);

} // namespace scalescope
