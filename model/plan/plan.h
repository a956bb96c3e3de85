// A validated parallel plan: the degrees, micro-batching and rank placement of a scenario.
#pragma once

#include "plan/error.h"
#include "plan/scenario.h"

#include <algorithm>
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
    int context = 1;        // GPUs sharing each sequence (context parallelism)
    int expert = 1;         // expert-parallel degree of the MoE layers
    int expert_tensor = 1;  // tensor-parallel degree inside each expert
    ContextAlgorithm context_algorithm = ContextAlgorithm::Ring;
    ExpertDispatcher dispatcher = ExpertDispatcher::AllToAll;
    bool expert_overlap = false;  // the all-to-all hidden behind another micro-batch (or DualPipe)
    double expert_imbalance = 1;  // busiest expert's tokens over the mean
    /// Micro-batches whose routed tokens meet at each expert's GEMMs: the expert-parallel
    /// group's dispatch gathers them on the job's GPUs, so 1 there; the one-GPU speed-up
    /// reference runs its experts on as many tokens as the job's experts see
    /// (analysis/summary.cpp referenceContext), else its GEMMs are 1/EP the size.
    double expert_token_groups = 1;
    BlockFormat block_format = BlockFormat::None;
    bool pipeline_counts_embedding = false;
    bool pipeline_counts_loss = false;
    int virtual_stages = 1; // model chunks per GPU (interleaved, zb-v, dualpipe), else 1
    int zero = 0;
    Schedule schedule = Schedule::OneFOneB;
    bool overlap = true;
    double bucket_bytes = 25e6;
    bool sequence_parallel = false;
    UpdateMode update = UpdateMode::Sync;
    Recompute recompute = Recompute::None;
    /// Under selective recompute, the modules rebuilt (RecomputeModule mask,
    /// training.recompute_modules); 0 = the stack's own choice (layers/layer_cost.cpp).
    unsigned recompute_modules = 0;
    Precision precision = Precision::BF16;
    Optimizer optimizer = Optimizer::Adam;
    int64_t global_batch = 1;
    int64_t micro_batch = 1;
    int64_t micro_batches = 1;       // per optimizer step on each pipeline (gradient accumulation)
    /// Transformer layers whose saved activations wait in host memory (the first ones;
    /// training.activation_offload_layers), and the GPU's copy bandwidth to host memory per
    /// direction (bytes/s, HardwareSpec::hostLinkGbps).
    int64_t offload_layers = 0;
    double host_link_bytes_per_s = 0;
    double grad_bytes_per_param = 4; // gradients as kept and reduced (analysis/memory.h)

    /// How the software stack issues the work (training.framework, hardware/framework.h):
    /// host time per operation and the operations per block and layer.
    struct Host {
        double op_s = 10e-6;
        double moe_op_s = 10e-6; // per operation of an MoE layer's routing path
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

    // Megatron-Core rank order (tensor fastest, then context, then data, then pipeline;
    // "tp-cp-ep-dp-pp", experts folded onto the same ranks): a stage's model-parallel width
    // is tensor * context, and rank = k + width * (dp + data * pp) for k < width.
    int stageWidth() const { return tensor * context; }
    int rankOf(int k, int dp, int pp) const { return k + stageWidth() * (dp + data * pp); }
    /// The data-parallel replica of a rank numbered by rankOf.
    int replicaOf(int rank) const { return (rank / stageWidth()) % data; }
    int nodeOf(int rank) const { return rank / gpus_per_node; }
    int virtualStageCount() const { return pipeline * virtual_stages; }
    /// Ranks that hold the same dense weights and reduce their gradients together (and shard
    /// them under ZeRO / FSDP): data x context (Megatron-Core and torchtitan's dp_shard_cp).
    int gradRanks() const { return data * context; }
    /// Ranks that hold the same experts: the stage's dense ranks over the expert group.
    int expertDataRanks() const { return std::max(1, stageWidth() * data / (expert * expert_tensor)); }

    GroupShape tensorGroup() const;
    /// The gradient group (gradRanks() ranks, tensor apart).
    GroupShape dataGroup() const;
    GroupShape contextGroup() const;
    /// The expert-parallel group: `expert` ranks, expert_tensor apart.
    GroupShape expertGroup() const;
    GroupShape expertDataGroup() const;
    /// Whether consecutive pipeline stages sit on different nodes.
    bool pipelineCrossesNodes() const;
};

/// Builds the plan of a training scenario, or the first error of the rule table
/// (plan/rules.h).
Result<Plan> makePlan(const Scenario &scenario);

} // namespace scalescope
