// The speed-up reference: what every speed-up and efficiency a user sees is counted against.
// One per evaluation, computed once (evaluateScenario) and passed explicitly to the status
// bar, the Scaling tab, the sweep table, the CLI and the cost verdict; nobody recomputes it.
#pragma once

#include "analysis/economics.h"
#include "analysis/memory.h"
#include "analysis/sweep.h"

#include <optional>
#include <vector>

namespace scalescope
{

/// spec/cli.md's reference is one GPU of the same kind with memory ignored. When that GPU
/// cannot hold the model its time is on paper: the headline then says how much faster N
/// GPUs are than the fewest GPUs that hold it (N0), against an ideal of N / N0, the
/// convention of scaling studies whose models need several GPUs (per-GPU throughput from the
/// smallest configuration that runs: Narayanan et al., SC21, Table 1 has no one-GPU row).
/// The one-GPU figure stays, labelled "on paper".
struct SpeedupReference {
    /// N0: the fewest GPUs that hold the model; 1 when one GPU holds it (or nothing smaller
    /// than the job fits and the job itself does not either: then only the paper figure).
    int gpus = 1;
    double speedup = 1;      // S(N0) against one GPU (1 when gpus is 1)
    double step_time_s = 0;  // T(N0) (0 when gpus is 1: the one-GPU time is the summary's)
    bool closed_form = false; // T(N0) came from the closed form (beyond the engine's size)
    bool one_gpu_on_paper = false; // one GPU cannot hold the model
    /// Memory of the one-GPU reference (jobs of more than one GPU).
    std::optional<MemoryBreakdown> one_gpu_memory;
    /// An early stage of the evaluation: one GPU is on paper and the search for the fewest
    /// that fit has not run yet (no figure the complete result would take back).
    bool pending = false;

    bool rebased() const { return gpus > 1; }
    /// How many times faster than N0 GPUs a run with this speed-up against one GPU is:
    /// T(N0) / T(N) = S(N) / S(N0).
    double faster(double speedup_vs_one) const
    {
        return speedup > 0 ? speedup_vs_one / speedup : 0;
    }
    /// The ideal of faster() on `on_gpus` GPUs: N / N0.
    double ideal(int on_gpus) const { return double(on_gpus) / gpus; }
    /// Scaling efficiency from N0: faster / ideal (= N0 S(N) / (N S(N0))).
    double efficiencyOf(double speedup_vs_one, int on_gpus) const
    {
        return on_gpus > 0 ? faster(speedup_vs_one) / ideal(on_gpus) : 0;
    }
};

/// The figures a headline shows for one run (status bar, CLI text, sweep table, Scaling tab).
struct SpeedupFigures {
    enum class Kind {
        OneGpu,     // the run is one GPU: 1x and 100% by definition
        AgainstOne, // one GPU holds the model: speedup against it
        Rebased,    // faster than N0 < N GPUs, the fewest that fit; ideal N / N0
        Fewest,     // the run is N0 itself: 1x from itself; the paper figure says more
        OnPaper,    // nothing fits below or at N: only the paper figure exists
    };
    Kind kind = Kind::OneGpu;
    int gpus = 1;            // N
    int from_gpus = 1;       // N0
    double speedup = 1;      // against N0 (faster) or against one GPU
    double ideal = 1;        // N / N0
    double efficiency = 1;   // speedup / ideal
    double vs_one = 1;       // against one GPU (spec/cli.md), on paper when one_gpu_on_paper
    double efficiency_vs_one = 1;
    bool one_gpu_on_paper = false;
    /// The run is counted from N0 (N0 itself or more): speedup, ideal and efficiency are
    /// from it; below N0 a run cannot start and has no such figure.
    bool countedFromReference() const { return kind == Kind::Rebased || kind == Kind::Fewest; }
};

/// The figures of a run of `gpus` GPUs whose speed-up against one GPU is `speedup_vs_one`.
SpeedupFigures speedupFigures(const SpeedupReference &reference, int gpus,
                              double speedup_vs_one);

/// The run a cost report compares the job with (analysis/economics.h): the reference's GPUs
/// and their step (`own`: the job's summary, whose single_gpu_step_s is the one-GPU time).
inline CostBaseline costBaseline(const SpeedupReference &reference, const Summary &own)
{
    if (reference.rebased())
        return {reference.gpus, reference.step_time_s};
    return {1, own.single_gpu_step_s};
}

/// The reference before the search: whether one GPU holds the model (`pending` when not).
SpeedupReference oneGpuReference(const SimContext &ctx);

/// How the reference search evaluates a count: the sweep's engine options for one point.
struct ReferenceSearch {
    std::vector<int> counts; // candidate counts (ascending order is not required)
    SimOptions point;        // engine limits and cancel flag of one sweep point
    /// How counts are reached, as the evaluation's sweep reaches them (the CLI's simulate:
    /// strong scaling on the scenario's nodes), so that the sweep's row at N0 is the
    /// reference's own figure.
    Scaling scaling = Scaling::Strong;
    int node_gpus = 0;
};

/// The reference of a job (`ctx`, its own step `own`): one GPU when it holds the model or
/// the job is one GPU; else the fewest of `search.counts` below the job's count whose scaled
/// plan (search.scaling, search.node_gpus) fits, evaluated under the one step policy;
/// else the job itself when it fits. `evaluated`: the row the search evaluated (for the
/// sweep to reuse), when it did. Errors: cancellation and engine failures only.
Result<SpeedupReference> findSpeedupReference(const SimContext &ctx, const Summary &own,
                                              bool own_closed_form, const ReferenceSearch &search,
                                              std::optional<SweepRow> *evaluated = nullptr);

} // namespace scalescope
