// The spread of the step time over many steps (issue 28): with jitter, stragglers, routing
// imbalance, a data loader or throttling over time, steps differ; P50, P90 and P99 of the
// model's own distribution (many simulated steps, not one draw), beside a measured trace's
// steps.
#pragma once

#include "plan/error.h"
#include "sim/simulator.h"

#include <atomic>
#include <vector>

namespace scalescope
{

struct StepSpread {
    int steps = 0;       // simulated steps the figures come from (1: the step does not vary)
    bool varies = false; // the scenario has a source of step-to-step variation
    double p50_s = 0, p90_s = 0, p99_s = 0;
};

/// The `q`-quantile (0..1) of `values` by the nearest-rank method (the smallest value with
/// at least q of the values at or below it: Hyndman & Fan 1996, definition 1); 0 when empty.
double nearestRankQuantile(std::vector<double> values, double q);

/// Whether the scenario's steps differ from one another (jitter draws per task, a loader's
/// queue, throttling that sets in over time, asynchronous replicas).
bool stepsVary(const SimContext &ctx);

/// The step-time spread of `ctx` over up to `steps` measured steps (fewer where the task
/// graph would exceed the engine's limit: at least 8). `one` is the scenario's one-step
/// result: a scenario whose steps do not vary answers from it without simulating again.
/// `max_tasks` (0: the engine's limit) bounds the task graph of the steps simulated (an error
/// when even 8 steps exceed it); `cancel` abandons it (an error).
Result<StepSpread> stepSpread(const SimContext &ctx, const SimResult &one, int steps = 50,
                              size_t max_tasks = 0, const std::atomic<bool> *cancel = nullptr);

} // namespace scalescope
