// One evaluation of a scenario for every caller (the window's worker, scalescope-cli
// simulate and sweep): the step under the policy of analysis/evaluate.h, the cost report,
// the scaling sweep with its Amdahl fit and where the missing speed-up went.
#pragma once

#include "analysis/economics.h"
#include "analysis/evaluate.h"
#include "analysis/scaling.h"
#include "analysis/sweep.h"
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
    /// Set from another thread: the evaluation stops at its next check with the error
    /// kCancelledMessage (analysis/evaluate.h).
    const std::atomic<bool> *cancel = nullptr;
};

/// What the window's speed-ups are against. spec/cli.md's reference is one GPU of the same
/// kind with memory ignored; when that GPU cannot hold the model its time is on paper, and
/// the window measures against the smallest swept count that fits instead (issue 13), the
/// convention of scaling studies whose models need several GPUs: per-GPU throughput from
/// the smallest configuration that runs (Narayanan et al., SC21, Table 1 has no one-GPU
/// row). Normalised so that the reference count sits on the ideal line:
/// S'(N) = N0 x S(N) / S(N0); efficiency S'(N) / N is 1 at N0.
struct SpeedupReference {
    int gpus = 1;          // N0; 1: the spec's one-GPU reference
    double speedup = 1;    // S(N0) against one GPU (1 when gpus is 1)
    bool one_gpu_on_paper = false; // one GPU cannot hold the model
    bool rebased() const { return gpus > 1; }
    /// A speed-up against one GPU, against this reference.
    double of(double speedup_vs_one) const { return gpus * speedup_vs_one / speedup; }
    /// The scaling efficiency of that speed-up on `on_gpus` GPUs.
    double efficiencyOf(double speedup_vs_one, int on_gpus) const
    {
        return of(speedup_vs_one) / (on_gpus > 0 ? on_gpus : 1);
    }
    bool operator==(const SpeedupReference &) const = default;
};

struct ScenarioEvaluation {
    std::shared_ptr<const SimContext> context;
    StepEvaluation step; // its sim.timeline is moved into `timeline`
    /// The engine's timeline when asked for (shared: the window draws it from a partial
    /// evaluation and keeps it with the complete one).
    std::shared_ptr<const Timeline> timeline;
    std::optional<CostReport> cost; // when the scenario has a cost section
    std::vector<SweepRow> sweep;
    AmdahlFit amdahl; // strong scaling only (over the sweep's rows)
    std::vector<SpeedupAttribution> attribution; // one per sweep row
    SpeedupReference reference; // from the sweep (one GPU without a sweep)
};

enum class EvaluationStage {
    Estimate, // the closed form's summary while the engine runs (large runs only)
    Step,     // the engine's step (and cost), before the sweep
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

/// Memory per GPU of the speed-up reference (one GPU of the same kind): the sweep's one-GPU
/// row if there is one, else the memory formulas for the same job on one GPU (`context`);
/// none without either. When it exceeds the GPU the reference is a time on paper, not a run
/// (the window's status bar and Scaling tab, the CLI's text say so).
std::optional<MemoryBreakdown> speedupReferenceMemory(const std::vector<SweepRow> &sweep,
                                                      const SimContext *context);

/// The reference of a sweep: one GPU when it holds the model (or nothing in the sweep fits);
/// else the smallest count with more than one GPU whose rows fit (SpeedupReference).
SpeedupReference speedupReference(const std::vector<SweepRow> &sweep, const SimContext *context);

} // namespace scalescope
