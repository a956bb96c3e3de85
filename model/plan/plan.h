// A validated parallel plan: the degrees, micro-batching and rank placement of a scenario.
#pragma once

#include "plan/error.h"
#include "plan/scenario.h"

#include <cstdint>
#include <vector>

namespace scalescope
{

/// How the members of a communication group sit on the cluster.
struct GroupShape {
    int ranks = 1;          // members
    int ranks_per_node = 1; // members on one node
    int nodes = 1;          // nodes spanned
    int concurrent = 1;     // groups of this kind that cross nodes at once on each node
                            // (they share the node's NICs)
};

struct Plan {
    int gpus = 1;
    int nodes = 1;
    int gpus_per_node = 1;
    int data = 1, tensor = 1, pipeline = 1;
    int virtual_stages = 1; // model chunks per GPU (interleaved schedule), else 1
    int zero = 0;
    Schedule schedule = Schedule::OneFOneB;
    bool overlap = true;
    double bucket_bytes = 25e6;
    bool sequence_parallel = false;
    UpdateMode update = UpdateMode::Sync;
    Recompute recompute = Recompute::None;
    Precision precision = Precision::BF16;
    Optimizer optimizer = Optimizer::Adam;
    int64_t global_batch = 1;
    int64_t micro_batch = 1;
    int64_t micro_batches = 1;       // per optimizer step on each pipeline (gradient accumulation)
    double grad_bytes_per_param = 4; // gradients as kept and reduced (analysis/memory.h)

    /// How the software stack issues the work (training.framework, hardware/framework.h):
    /// host time per operation and the operations per block and layer.
    struct Host {
        double op_s = 10e-6;
        double block_ops_forward = 13;
        double block_ops_forward_fused = 10;
        double backward_ops_ratio = 2;
        double layer_ops_forward = 2;
        bool cuda_graphs = false;
    } host;
    /// The software stack that runs this plan (stackOf, plan/framework_rules.h), resolved
    /// when the plan is made.
    FrameworkSpec stack;
    bool flash_attention = false; // fused attention: the scenario's, else the stack's default
    bool tp_overlap = false;    // the stack overlaps tensor-parallel collectives with GEMMs
    bool zero3_prefetch = true; // ZeRO-3 gathers run ahead of the compute that needs them

    // Megatron-LM rank order (tensor fastest, then data, then pipeline):
    // rank = tp + tensor * (dp + data * pp).
    int rankOf(int tp, int dp, int pp) const { return tp + tensor * (dp + data * pp); }
    int nodeOf(int rank) const { return rank / gpus_per_node; }
    int virtualStageCount() const { return pipeline * virtual_stages; }

    GroupShape tensorGroup() const;
    GroupShape dataGroup() const;
    /// Whether consecutive pipeline stages sit on different nodes.
    bool pipelineCrossesNodes() const;
};

/// Builds the plan of a training scenario, or the first error of the rule table
/// (plan/rules.h).
Result<Plan> makePlan(const Scenario &scenario);

} // namespace scalescope
