// What a recompute produces for the views: immutable, shared between the worker thread and
// the GUI thread, never modified after it is published.
#pragma once

#include "analysis/economics.h"
#include "analysis/evaluation.h"
#include "analysis/scaling.h"
#include "analysis/step_spread.h"
#include "analysis/summary.h"
#include "analysis/sweep.h"
#include "plan/scenario.h"
#include "sim/simulator.h"
#include "sim/timeline.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace scalescope
{

/// How far a result has come: the worker shows what it has as soon as it has it.
enum class ResultStage : uint8_t {
    Summary,  // closed-form figures only (the engine is still running)
    Timeline, // the engine's figures and timeline; the scaling sweep still running
    Complete, // everything, sweep included
};

struct ScenarioResult {
    uint64_t generation = 0; // request number; the newest wins
    ResultStage stage = ResultStage::Complete;
    Scenario scenario;
    /// Validation error (key path and message), empty when the scenario is valid.
    QString error_path;
    QString error;
    bool ok() const { return error.isEmpty(); }

    int iterations = 1;
    Scaling scaling = Scaling::Strong;
    int sweep_node_gpus = 0; // the sweep grew by nodes of this many GPUs (0: the scenario's)
    double compute_ms = 0;   // time the worker spent
    /// The step-time spread over many simulated steps (issue 28, item 5) where the engine ran
    /// and the steps fit the window's budget (app/gui/recompute.h); steps == 1 where steps
    /// do not vary; none otherwise.
    std::optional<StepSpread> spread;

    /// The model's one evaluation (analysis/evaluation.h), shared with the worker and never
    /// modified once published; partial before the Complete stage. Null for errors.
    std::shared_ptr<const ScenarioEvaluation> evaluation;

    // What the views read of it (empty figures for an error).
    const ScenarioEvaluation &eval() const
    {
        static const ScenarioEvaluation kNone;
        return evaluation ? *evaluation : kNone;
    }
    const std::shared_ptr<const SimContext> &context() const { return eval().context; }
    const Summary &summary() const { return eval().step.summary; }
    /// The engine's timeline; null when the closed form answered or it was too large.
    std::shared_ptr<const Timeline> timeline() const
    {
        return closedForm() ? nullptr : eval().timeline;
    }
    /// The timeline was simplified to the segment limit: items closer than this merged.
    double timelineMergeQuantumS() const { return eval().step.sim.timeline_merge_quantum_s; }
    bool timelineFirstReplicaDetailed() const
    {
        return eval().step.sim.timeline_first_replica_detailed;
    }
    size_t timelineFullSegments() const { return eval().step.sim.timeline_full_segments; }
    /// Steps simulated before the measured ones (data loaders and asynchronous updates
    /// carry state from step to step); the timeline draws them first.
    int warmupSteps() const { return closedForm() ? 0 : eval().step.sim.warmup_iterations; }
    /// The engine's task graph was over its limit: the closed form answered (no timeline).
    bool closedForm() const { return eval().step.closed_form; }
    QString closedFormNote() const { return QString::fromStdString(eval().step.note); }
    /// Speed-up and efficiency against GPU count (empty before the Complete stage).
    const std::vector<SweepRow> &sweep() const { return eval().sweep; }
    const AmdahlFit &amdahl() const { return eval().amdahl; }
    /// Where the missing speed-up went, one entry per sweep row (losses in GPUs).
    const std::vector<SpeedupAttribution> &attribution() const { return eval().attribution; }
    /// What the speed-ups shown are against (analysis/speedup_reference.h).
    const SpeedupReference &reference() const { return eval().reference; }
    /// Time, energy and money of the scenario's work; present when it has a cost section.
    const std::optional<CostReport> &cost() const { return eval().cost; }
};
using ResultPtr = std::shared_ptr<const ScenarioResult>;

} // namespace scalescope
