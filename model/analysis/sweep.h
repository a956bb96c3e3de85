// Scaling sweeps: the same scenario at several GPU counts (spec/cli.md "sweep").
#pragma once

#include "analysis/summary.h"

#include <vector>

namespace scalescope
{

/// The key path of errors about a requested GPU count (a sweep point, a planned count): not a
/// scenario key; the CLI names its --gpus option for it, the window its GPU count field.
inline constexpr const char *kRequestedGpusPath = "gpus";

enum class Scaling { Strong, Weak };

struct SweepRow {
    int gpus = 0;
    Summary summary;
    bool closed_form = false; // beyond the engine's size: the closed form's figures
};

/// The scenario at `gpus` GPUs: the data-parallel degree changes, and the cluster grows by
/// nodes of `node_gpus` GPUs (0: the scenario's gpus_per_node, spec/cli.md; below one node,
/// a single node of `gpus`). With node_gpus set, nodes are filled first: 4 GPUs of a
/// 2-GPU-per-node scenario become one node of 4 with node_gpus 8. Strong scaling keeps the
/// global batch, weak scaling the batch per replica; the micro-batch is kept. Errors name
/// `--gpus` and why the count does not fit the plan.
Result<Scenario> scaledScenario(const Scenario &base, int gpus, Scaling scaling, int node_gpus = 0);

/// Evaluates every count with the event simulation (one iteration). `reference_s`: the
/// scenario's one-GPU reference when the caller has it (strong scaling reuses it; < 0:
/// computed here, once). `options`: the engine's limits per point (a point over max_tasks
/// is answered by the closed form and marked closed_form) and its cancel flag (a cancelled
/// sweep is an error "cancelled"). A count the plan cannot reach is an error with key path
/// kRequestedGpusPath; an engine failure at a count one with no key path.
/// `calm_reference`: a jittered job's calm one-GPU run when the caller has it (strong
/// scaling shares it; else simulated here, once).
/// `policy`: rows the caller has already evaluated (the scenario's own count, the speed-up
/// reference's), taken as they are, and whether a count the plan cannot reach is left out
/// instead of failing the sweep. This is the one sweep loop: the evaluation's chart, the
/// CLI's sweep and the tests all run it.
struct SweepPolicy {
    std::vector<SweepRow> known;
    bool skip_unreachable = false;
};
Result<std::vector<SweepRow>> sweep(const Scenario &base, const std::vector<int> &gpu_counts,
                                    Scaling scaling, int node_gpus = 0, double reference_s = -1,
                                    const SimOptions &options = {},
                                    SimContext::CalmReference calm_reference = {},
                                    const SweepPolicy &policy = {});

} // namespace scalescope
