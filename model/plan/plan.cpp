#include "plan/plan.h"

#include "plan/framework_rules.h"
#include "plan/numerics.h"
#include "plan/rules.h"

#include <algorithm>
#include <string>

namespace scalescope
{

namespace
{

// Members of a group whose consecutive members are `stride` ranks apart.
GroupShape shapeOf(int ranks, int stride, int gpus_per_node, int gpus)
{
    GroupShape g;
    g.ranks = ranks;
    if (ranks <= 1)
        return g;
    if (stride >= gpus_per_node) {
        g.ranks_per_node = 1;
    } else {
        g.ranks_per_node = std::clamp(gpus_per_node / stride, 1, ranks);
    }
    g.nodes = (ranks + g.ranks_per_node - 1) / g.ranks_per_node;
    // Every GPU of a node belongs to one group of this kind; the groups that span nodes
    // all communicate at the same moment (same schedule), so they share the node's NICs.
    const int gpus_in_node = std::min(gpus_per_node, gpus);
    g.concurrent = g.nodes > 1 ? std::max(1, gpus_in_node / g.ranks_per_node) : 1;
    return g;
}

} // namespace

GroupShape Plan::tensorGroup() const
{
    return shapeOf(tensor, 1, gpus_per_node, gpus);
}

GroupShape Plan::dataGroup() const
{
    return shapeOf(gradRanks(), tensor, gpus_per_node, gpus);
}

GroupShape Plan::contextGroup() const
{
    return shapeOf(context, tensor, gpus_per_node, gpus);
}

GroupShape Plan::expertGroup() const
{
    return shapeOf(expert, expert_tensor, gpus_per_node, gpus);
}

GroupShape Plan::expertDataGroup() const
{
    return shapeOf(expertDataRanks(), expert * expert_tensor, gpus_per_node, gpus);
}

bool Plan::pipelineCrossesNodes() const
{
    // From the rank placement (rankOf: tensor innermost, then data, then pipeline, as
    // Megatron-LM places ranks): some pair of consecutive stages sits on two nodes. The
    // slowest send sets the pace of the pipeline's steady state, so one crossing is enough.
    if (pipeline > 1 && int64_t(stageWidth()) * data >= gpus_per_node)
        return true; // a stage's ranks and the next stage's are a node or more apart
    for (int pp = 0; pp + 1 < pipeline; ++pp)
        for (int dp = 0; dp < data; ++dp)
            if (nodeOf(rankOf(0, dp, pp)) != nodeOf(rankOf(0, dp, pp + 1)))
                return true;
    return false;
}

Result<Plan> makePlan(const Scenario &s)
{
    // The rule table decides validity (plan/rules.h), as it does for the parser and the
    // window: what the window simulates, its file would open.
    if (std::optional<InputError> error = ruleError(s))
        return *std::move(error);
    Plan p;
    p.gpus = s.hardware.gpuCount();
    // Groups see an NVLink domain of several nodes as one node (hardware.nvlink_domain).
    p.nodes = s.hardware.communicationView().nodes;
    p.gpus_per_node = s.hardware.communicationView().gpus_per_node;
    p.tensor = s.parallel.tensor;
    p.pipeline = s.parallel.pipeline;
    p.context = s.parallel.context;
    p.data = s.parallel.data > 0 ? s.parallel.data : p.gpus / (p.tensor * p.pipeline * p.context);
    p.schedule = s.parallel.schedule;
    p.virtual_stages = s.parallel.schedule == Schedule::Interleaved ? s.parallel.virtual_stages
                                                                      : scheduleChunks(p.schedule);
    p.expert = s.parallel.expert;
    p.expert_tensor = s.parallel.expert_tensor;
    // Megatron-Core's and torchtitan's defaults: the point-to-point ring for context
    // parallelism (--cp-comm-type p2p), NCCL all-to-all for the token dispatcher
    // (--moe-token-dispatcher-type alltoall); DeepSpeed's Ulysses re-shards heads.
    p.context_algorithm = s.parallel.context_algorithm.value_or(
        stackIdFor(s.training, s.parallel) == "deepspeed" ? ContextAlgorithm::AllToAll
                                                          : ContextAlgorithm::Ring);
    p.dispatcher = s.parallel.expert_dispatcher.value_or(ExpertDispatcher::AllToAll);
    // DualPipe overlaps a chunk's all-to-all with the other direction's compute by design
    // (DeepSeek-V3 report, Sec. 3.2.1).
    p.expert_overlap = s.parallel.expert_overlap || p.schedule == Schedule::DualPipe;
    p.expert_imbalance = s.effects.expert_imbalance;
    p.block_format = s.training.block_format;
    p.pipeline_counts_embedding = s.parallel.pipeline_counts_embedding;
    p.pipeline_counts_loss = s.parallel.pipeline_counts_loss;
    p.zero = s.parallel.zero;
    p.stack = stackOf(s);
    const FrameworkSpec &stack = p.stack;
    p.overlap = overlapOf(s, stack);
    p.bucket_bytes = bucketMbOf(s, stack) * 1e6;
    p.flash_attention = flashAttentionOf(s, stack);
    p.sequence_parallel = s.parallel.sequence_parallel && p.tensor > 1;
    p.update = s.parallel.update;
    p.recompute = s.training.recompute;
    p.recompute_modules = p.recompute == Recompute::Selective ? s.training.recompute_modules : 0;
    p.precision = s.training.precision;
    p.optimizer = s.training.optimizer;
    p.global_batch = s.training.global_batch;
    p.micro_batch =
        s.training.micro_batch > 0 ? s.training.micro_batch : s.training.global_batch / p.data;
    p.micro_batches = p.global_batch / (p.micro_batch * p.data);
    p.offload_layers = s.training.activation_offload_layers;
    p.host_link_bytes_per_s = s.hardware.hostLinkGbps() * 1e9;
    p.host.op_s = stack.host_op_us * 1e-6;
    if (const CalibrationProfile *profile = s.hardware.calibration.get()) {
        // Measured on this machine: the profile's figure for this stack replaces the
        // catalog's (framework_host, docs/model.md "Measured host time"). A framework operation issues at least
        // one kernel, so it never takes less host time than the launch the probe measured.
        for (const ProfileFrameworkHost &f : profile->framework_host)
            if (f.framework == stack.id)
                p.host.op_s = f.op_us * 1e-6;
        if (!profile->gpus.empty())
            p.host.op_s = std::max(p.host.op_s, profile->gpus.front().host_launch_us * 1e-6);
    }
    // The MoE routing path keeps the catalog's ratio to the stack's other operations: a
    // measured host that issues faster issues both faster.
    p.host.moe_op_s = stack.host_op_us > 0 ? p.host.op_s * stack.moeOpUs() / stack.host_op_us
                                           : stack.moeOpUs() * 1e-6;
    p.host.block_ops_forward = stack.block_ops_forward;
    p.host.block_ops_forward_fused = stack.block_ops_forward_fused;
    p.host.backward_ops_ratio = stack.backward_ops_ratio;
    p.host.layer_ops_forward = stack.layer_ops_forward;
    p.host.cuda_graphs = stack.cuda_graphs;
    // parallel.tp_overlap overrides what the stack does (async tensor parallelism).
    p.tp_overlap = s.parallel.tp_overlap.value_or(stack.tp_overlap) && p.tensor > 1;
    p.zero3_prefetch = stack.zero3_prefetch;
    // The stack's gradient reduce precision where it states one (DeepSpeed reduces in the
    // 16-bit compute type; PyTorch AMP keeps fp32 gradients), else the model's rule.
    p.grad_bytes_per_param =
        stack.grad_reduce_bytes > 0 && weightBytesPerParam(p.precision) < 4.0
            ? stack.grad_reduce_bytes
            : gradientBytesPerParam(p.precision, s.model.kind == ModelSpec::Kind::Transformer);
    return p;
}

} // namespace scalescope
