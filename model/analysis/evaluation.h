// One evaluation of a scenario for every caller (the window's worker, scalescope-cli
// simulate and sweep): the step under the policy of analysis/step_evaluation.h, the cost report,
// the scaling sweep with its Amdahl fit and where the missing speed-up went.
#pragma once

#include "analysis/economics.h"
#include "analysis/step_evaluation.h"
#include "analysis/scaling.h"
#include "analysis/speedup_reference.h"
#include "analysis/sweep.h"
#include "analysis/what_if.h"
#include "sim/timeline.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace scalescope
{

struct EvaluationRequest {
    /// The scenario's own step: its engine options (iterations, timeline, segment limit,
    /// task limit). `step.cancel` is ignored: `cancel` below stops everything.
    SimOptions step;
    /// Scaling sweep: none when false. Counts: `sweep_gpus`, or defaultSweepCounts.
    bool sweep = false;
    std::vector<int> sweep_gpus;
    Scaling scaling = Scaling::Strong;
    int sweep_node_gpus = 0; // the sweep grows by nodes of this many GPUs (0: the scenario's)
    /// Engine limit per sweep point (beyond it the closed form answers, marked closed_form).
    size_t sweep_max_tasks = SimOptions{}.max_tasks;
    /// A count the plan cannot reach (not a multiple of tensor x pipeline, batch not
    /// divisible, a rule of the scaled plan): left out (the window's chart) or the whole
    /// evaluation's error (the CLI's sweep, asked for exactly these counts). An engine
    /// failure at any count is always the evaluation's error.
    bool skip_unreachable_counts = false;
    /// Runs the engine needs longer for (at least this many tasks) report the closed form's
    /// summary first (EvaluationStage::Estimate); 0: never.
    size_t estimate_first_tasks = 0;
    /// "What if this were free" (analysis/what_if.h): one more simulation per cause, after
    /// the step; the bottleneck then names the link whose being free gains more.
    bool what_if = false;
    /// ...from the closed form instead of the engine where the step's task graph has more
    /// than this many tasks (the window keeps its edits quick); 0: always the engine.
    size_t what_if_engine_max_tasks = 0;
    /// Set from another thread: the evaluation stops at its next check with the error
    /// kCancelledMessage (analysis/step_evaluation.h).
    const std::atomic<bool> *cancel = nullptr;
};

struct ScenarioEvaluation {
    std::shared_ptr<const SimContext> context;
    StepEvaluation step; // its sim.timeline is moved into `timeline`
    /// The engine's timeline when asked for (shared: the window draws it from a partial
    /// evaluation and keeps it with the complete one).
    std::shared_ptr<const Timeline> timeline;
    std::optional<CostReport> cost; // when the scenario has a cost section
    /// Each cause's step if it were free, largest gain first (EvaluationRequest::what_if).
    std::vector<WhatIfGain> what_if;
    std::vector<SweepRow> sweep;
    AmdahlFit amdahl; // strong scaling only (over the sweep's rows)
    std::vector<SpeedupAttribution> attribution; // one per sweep row
    /// What every speed-up of this evaluation is counted against, computed once
    /// (analysis/speedup_reference.h); `pending` in the Estimate stage.
    SpeedupReference reference;
};

enum class EvaluationStage {
    Estimate, // the closed form's summary while the engine runs (large runs only)
    Step,     // the engine's step (and cost), before the reference search and the sweep
};

/// GPU counts of a scaling chart: powers of two from 1 up to twice the scenario's count (at
/// least 16), plus the scenario's own count; at most 12 points (the largest kept).
std::vector<int> defaultSweepCounts(const Scenario &scenario);

/// Evaluates a training scenario (not a collective-only one). `on_stage` sees the partial
/// evaluation at each stage before the complete one is returned. Errors: the scenario's
/// (key path and message), the engine's (empty path), a sweep count's (kRequestedGpusPath),
/// or kCancelledMessage.
Result<ScenarioEvaluation>
evaluateScenario(const Scenario &scenario, const EvaluationRequest &request,
                 const std::function<void(EvaluationStage, const ScenarioEvaluation &)> &on_stage =
                     {});

} // namespace scalescope
