// Per-layer cost of a workload on one GPU of a tensor-parallel group, per micro-batch.
#pragma once

#include "plan/plan.h"
#include "hardware/kernel_model.h"
#include "workload/workload.h"

#include <string>
#include <vector>

namespace scalescope
{

struct LayerCost {
    /// A literal, or the name of a ModelSpec table row (the ModelSpec must outlive this).
    const char *name = "";
    double fwd_s = 0;       // forward compute time (TP communication excluded)
    double bwd_s = 0;       // backward compute time
    double recompute_s = 0; // forward work repeated in backward (recompute mode)
    /// The weight-gradient GEMMs inside bwd_s: what a zero-bubble schedule defers (Qi et al.,
    /// ICLR 2024, Sec. 2: backward = B (input gradient) + W (weight gradient)).
    double wgrad_s = 0;
    double fwd_flops = 0;   // model FLOPs on this GPU, forward
    double bwd_flops = 0;
    double recompute_flops = 0;
    double params = 0;           // parameters held by this GPU (before ZeRO sharding)
    /// The modules that hold those parameters (norms, linears, embeddings) and the parameter
    /// tensors in them (weights and biases): how many all-gathers a ZeRO-3 stack that fetches
    /// per module or per parameter issues for this layer (FrameworkSpec::Zero3Gather).
    double param_modules = 0;
    double param_tensors = 0;
    double activation_bytes = 0; // kept per in-flight micro-batch for the backward pass
    /// Of what this layer keeps, the bytes that wait in host memory instead (activation
    /// offloading; not part of activation_bytes).
    double offloaded_bytes = 0;
    /// Working memory of this layer's backward on top of what is kept: a checkpointed
    /// layer's rebuilt activations, the loss gradient of the logits.
    double transient_bytes = 0;
    double kernels_fwd = 0; // operations the host issues for the forward pass
    /// Of the forward's operations, those of an MoE layer's routing path, issued at the
    /// stack's per-operation cost for it (Plan::Host::moe_op_s); not in kernels_fwd.
    double moe_kernels_fwd = 0;
    // Tensor-parallel collectives on the critical path, per micro-batch.
    int tp_fwd_ops = 0; // in forward (all-reduces, or all-gather + reduce-scatter pairs)
    int tp_bwd_ops = 0; // in backward
    int tp_recompute_ops = 0;
    double tp_bytes = 0; // bytes of each such collective's full output
    /// With overlapped tensor parallelism, the GEMMs each collective is pipelined with (the
    /// column-parallel GEMM after its all-gather, the row-parallel one before its
    /// reduce-scatter), per forward collective and per backward one; 0: the whole pass.
    double tp_beside_fwd[2] = {0, 0};
    double tp_beside_bwd[2] = {0, 0};
    /// The stack pipelines the backward's collectives too (FrameworkSpec::tp_overlap_backward).
    bool tp_overlap_backward = true;

    // Mixture of experts (MoE layers only).
    double expert_params = 0; // the routed experts' parameters on this GPU (part of params)
    /// Token dispatch and combine: all-to-alls in the expert group, per micro-batch; each
    /// GPU sends ep_tokens x top_k token vectors of ep_token_bytes.
    int ep_fwd_ops = 0, ep_bwd_ops = 0;
    /// Dispatches and combines the backward issues again, rebuilding the routed experts'
    /// forward (full recompute, or the `moe` recompute module).
    int ep_recompute_ops = 0;
    double ep_tokens = 0;
    double ep_top_k = 0;
    double ep_token_bytes = 0;
    /// Group-limited routing (MoeSpec::router_groups): the token's experts lie in
    /// ep_group_top_k of ep_router_groups groups; 0 = no groups.
    double ep_router_groups = 0, ep_group_top_k = 0;
    /// The busiest GPU's tokens against the mean (effects.expert_imbalance, capped by the
    /// capacity factor): its link carries that many times the mean dispatch and combine.
    double ep_busiest = 1;
    /// Waiting for the busiest expert (effects.expert_imbalance), forward and backward: the
    /// other experts' GPUs idle while it finishes; not part of fwd_s / bwd_s.
    double expert_wait_fwd = 0, expert_wait_bwd = 0;
    double expert_wait_recompute = 0; // the forward's wait again, where the experts rerun
    /// The routed experts' part of fwd_s and bwd_s (router, permutation, grouped GEMMs, their
    /// activation and casts): what a dispatch or combine of another micro-batch can run
    /// beside, apart from the attention part.
    double moe_fwd_s = 0, moe_bwd_s = 0;

    // Context parallelism: the attention's exchange in the context group, per micro-batch.
    int cp_fwd_steps = 0, cp_bwd_steps = 0; // ring steps, or all-to-alls (all_to_all)
    double cp_step_bytes = 0;               // what each step sends (forward; backward x2 ring)
    double cp_attn_fwd = 0, cp_attn_bwd = 0; // the attention compute a ring overlaps with
    // DTensor's ring (FrameworkSpec::dtensor_context_parallel): the group's `context` blocks
    // of cp_step_bytes all-gathered once per attention call, and the fp32 key and value
    // gradients each of its `context` backward steps passes on.
    bool cp_all_gather = false;
    double cp_grad_step_bytes = 0;
};

struct WorkloadCost {
    std::vector<LayerCost> layers;        // model order: embedding, blocks, head
    int first_block = 0, block_count = 0; // the repeated blocks within `layers`
    double model_flops_per_sample = 0;    // whole model, forward + backward, no recompute
    double recompute_flops_per_sample = 0;
    double total_params = 0;
    double p2p_bytes = 0;              // activation sent between pipeline stages, per micro-batch
    double tokens_per_sample = 0;      // sequence length (transformers), else 0
    double input_bytes_per_sample = 0; // what the data loader delivers
    /// Per micro-batch, summed over layers: compute time (forward, backward, recompute) and
    /// the part of it that is the host issuing operations beyond what the GPU takes.
    /// Gradients are held unsharded in fp32 over the step (the stack's pipeline schedule
    /// defers the ZeRO reduce-scatter to the last micro-batch; analysis/memory.cpp).
    bool unsharded_fp32_grads = false;
    double compute_per_micro_batch_s = 0;
    double host_excess_per_micro_batch_s = 0;
    /// The embedding / the output layer and loss count as one pipeline layer each when the
    /// blocks are spread over stages (parallel.pipeline_counts_embedding / _loss).
    bool counts_embedding = false;
    bool counts_loss = false;
};

/// Builds the per-layer costs of `model` under `plan` on one GPU described by `compute`.
WorkloadCost buildWorkloadCost(const ModelSpec &model, const Plan &plan,
                               const ComputeModel &compute, bool flash_attention);

/// Model FLOPs of one forward pass of a transformer per sample (Korthikanti et al. 2022,
/// Eq. 7 divided by 3: 24 s h^2 L (1 + s/(6h) + V/(12 h L)) for ffn = 4h, generalised).
double transformerForwardFlops(const TransformerSpec &t);
/// Parameter count (Narayanan et al. SC21, Eq. 2 generalised to ffn, kv heads, gating,
/// multi-head latent attention, routed and shared experts and MTP modules).
double transformerParams(const TransformerSpec &t);
/// Parameters one token passes through (an MoE model's active parameters: top_k routed and
/// the shared experts of each MoE layer; the DeepSeek-V3 report's "37B activated").
double transformerActiveParams(const TransformerSpec &t);

} // namespace scalescope
