// What a recompute produces for the views: immutable, shared between the worker thread and
// the GUI thread, never modified after it is published.
#pragma once

#include "analysis/economics.h"
#include "analysis/evaluation.h"
#include "analysis/scaling.h"
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

    std::shared_ptr<const SimContext> context; // null for errors and collective scenarios
    Summary summary;
    std::shared_ptr<const Timeline> timeline; // null when too large to materialise
    /// The timeline was simplified to the segment limit: items closer than this merged.
    double timeline_merge_quantum_s = 0;
    size_t timeline_full_segments = 0; // what the exact timeline would have held
    int iterations = 1;
    /// Steps simulated before the measured ones (data loaders and asynchronous updates
    /// carry state from step to step); the timeline draws them first.
    int warmup_steps = 0;
    /// The engine's task graph was over its limit: the closed form answered (no timeline).
    bool closed_form = false;
    QString closed_form_note; // the engine's reason

    Scaling scaling = Scaling::Strong;
    int sweep_node_gpus = 0;     // the sweep grew by nodes of this many GPUs (0: the scenario's)
    std::vector<SweepRow> sweep; // speed-up and efficiency against GPU count
    AmdahlFit amdahl;
    /// Where the missing speed-up went, one entry per sweep row (losses in GPUs).
    std::vector<SpeedupAttribution> attribution;
    /// What the speed-ups shown are against (analysis/evaluation.h): one GPU, or the
    /// smallest swept count that fits when one GPU cannot hold the model.
    SpeedupReference reference;
    /// Time, energy and money of the scenario's work; present when it has a cost section.
    std::optional<CostReport> cost;

    double compute_ms = 0; // time the worker spent
};
using ResultPtr = std::shared_ptr<const ScenarioResult>;

} // namespace scalescope
