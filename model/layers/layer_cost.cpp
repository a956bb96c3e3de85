#include "layers/layer_cost.h"

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{

struct Gemm {
    double m, n, k, batch;
    double flops() const { return 2.0 * m * n * k * batch; }
};

// Forward, backward-data and backward-weight products of a linear layer: the backward pass
// does twice the forward work (Narayanan et al. SC21, appendix: "backward pass ... 2x").
double forwardTime(const ComputeModel &c, const Gemm &g)
{
    return c.gemmTime(g.m, g.n, g.k, g.batch);
}
double backwardTime(const ComputeModel &c, const Gemm &g)
{
    // FP8 recipes run the backward GEMMs (dgrad, wgrad) with the split accumulator, partial
    // sums promoted to fp32 (Transformer Engine module/base.py: _2X_ACC_DGRAD = _2X_ACC_WGRAD
    // = True; torchao Float8LinearConfig: use_fast_accum only for the output), which costs
    // 1.1-1.2x of the fast-accumulation throughput (pytorch/ao issue 2377): 1/1.15.
    const double share = c.precision() == Precision::FP8 ? 1.0 / 1.15 : 1.0;
    return c.gemmTime(g.m, g.k, g.n, g.batch, 0, share) +
           c.gemmTime(g.k, g.n, g.m, g.batch, 0, share);
}

double memoryKernels(const ComputeModel &c, std::initializer_list<double> bytes)
{
    double t = 0;
    for (double b : bytes)
        t += c.memoryTime(b);
    return t;
}

// Bytes per element of the elementwise work around the GEMMs, forward and backward.
// SwiGLU models are the LLaMA family: RMSNorm and rotary embeddings. Eager PyTorch runs them
// as Python modules, one kernel per operation in fp32 (torchtitan's and HF's RMSNorm: cast,
// pow, mean, rsqrt-mul, cast back, weight mul, ~36 bytes per element; rotary as complex
// multiplies in fp32, ~20; SwiGLU silu then mul, 10 per FFN element); fused kernels (Apex,
// Transformer Engine, torch.compile's Inductor: Ansel et al., ASPLOS 2024, Sec. 4) read
// each input once and write each output once. Backward of decomposed ops runs each op's
// gradient, ~1.5x the forward bytes.
// A clamped gated activation (TransformerSpec::glu_clamp, GPT-OSS) adds, per element of the
// activation's output: Megatron-Core clamps both halves of the [tokens, 2 x ffn] input in
// eager PyTorch before its fused kernel and concatenates them again
// (megatron/core/fusions/fused_bias_geglu.py, weighted_bias_quick_geglu_impl: two clamps and a
// torch.cat, each reading and writing its tensor once: 8 bytes per output element in 16-bit);
// backward, each clamp's gradient reads the gradient and the input and writes one (6), and
// the halves' gradients are concatenated again (4); its fused kernel then saves the clamped
// copy beside the FC1 output the clamps keep. Eager stacks run the two clamps alone (4
// forward, the same 10 backward); a compiled step fuses them into the activation's kernel
// (Ansel et al., ASPLOS 2024, Sec. 4.3).
struct ElementwiseBytes {
    double norm_fwd, norm_bwd; // per hidden element, per norm
    double rope_fwd, rope_bwd; // per query/key element
    double act_fwd, act_bwd;   // per FFN element
    bool clamped_copy = false; // the activation also keeps a clamped copy of its input
};

ElementwiseBytes elementwiseBytes(const TransformerSpec &ts, const ComputeModel &c, double e)
{
    if (!ts.gated_mlp) // GPT/BERT: native LayerNorm and GeLU kernels in every stack
        return {2.0 * e, 4.0 * e, 0.0, 0.0, 2.0 * e, 3.0 * e};
    ElementwiseBytes b =
        c.fusedElementwise()
            ? ElementwiseBytes{2.0 * e, 4.0 * e, 2.0 * e, 2.0 * e, 3.0 * e, 4.5 * e}
            : ElementwiseBytes{36.0, 54.0, 20.0, 20.0, 10.0, 16.0};
    if (ts.glu_clamp > 0 && !c.compiled()) {
        b.clamped_copy = c.stack().fused_elementwise;
        b.act_fwd += (b.clamped_copy ? 8.0 : 4.0) * e;
        b.act_bwd += 10.0 * e;
    }
    return b;
}

// FP8 linear layers as frameworks run them: only the four linear layers of a block in FP8
// (Transformer Engine and torchao leave attention and the output layer in bf16: TE docs
// "Using FP8 with Transformer Engine"; torchao float8 README, "convert_to_float8_training"
// swaps nn.Linear). Bytes of the casts per micro-batch:
//  - Transformer Engine (delayed scaling): the norm before QKV and FC1 writes the FP8 copy
//    and its transpose (+2 bytes per element); the projection and FC2 inputs are cast and
//    transposed (read 2, write 2); in backward each output gradient is cast-transposed
//    (4); weights are cast once per step (is_first_microbatch caching).
//  - torchao tensorwise dynamic scaling: per input, weight and output gradient an amax
//    reduction (read 2), a cast (read 2, write 1) and the transposed copy the FP8 GEMM
//    layout needs (read 1, write 1), 7 bytes per element, weights every micro-batch;
//    compiled, amax and cast fuse (5 bytes).
//  - Transformer Engine current scaling (Float8CurrentScaling; NVIDIA, "Per-Tensor and
//    Per-Block Scaling Strategies for Effective FP8 Training", 2025): the scale comes from the
//    tensor's own amax, so each input and output gradient is read once for its amax before
//    the cast-transpose (+2 bytes), and the norm cannot emit the FP8 copy itself (its output
//    is read for the amax and cast-transposed: 6 bytes instead of 2).
//  - torchao rowwise scaling (Float8LinearRecipeName.ROWWISE): a scale per row of each
//    operand, so the transposed operand the other GEMMs take is scaled along the other axis
//    from the high-precision tensor: amax and cast twice (2 x 5 bytes, 2 x 3 compiled).
struct Fp8CastBytes {
    double forward = 0, backward = 0;
};

Fp8CastBytes fp8CastBytes(const ComputeModel &c, double inputs_after_norm, double other_inputs,
                          double output_grads, double weights, double micro_batches)
{
    Fp8CastBytes b;
    if (c.precision() != Precision::FP8)
        return b;
    const double per_step = 1.0 / std::max(1.0, micro_batches);
    switch (c.fp8Scaling()) {
    case Fp8Scaling::Stack: // resolved by fp8Scaling()
    case Fp8Scaling::Delayed:
        b.forward = 2.0 * inputs_after_norm + 4.0 * other_inputs + 4.0 * weights * per_step;
        b.backward = 4.0 * output_grads;
        break;
    case Fp8Scaling::Current:
        b.forward = 6.0 * (inputs_after_norm + other_inputs + weights * per_step);
        b.backward = 6.0 * output_grads;
        break;
    case Fp8Scaling::Tensorwise:
    case Fp8Scaling::Rowwise: {
        // torchao casts every tensor each micro-batch, weights included.
        const bool rowwise = c.fp8Scaling() == Fp8Scaling::Rowwise;
        const double per = rowwise ? (c.compiled() ? 6.0 : 10.0) : (c.compiled() ? 5.0 : 7.0);
        b.forward = per * (inputs_after_norm + other_inputs + weights);
        b.backward = per * output_grads;
        break;
    }
    }
    return b;
}

/// Bytes per element of a linear layer's input kept for its weight gradient: the FP8 copy
/// under Transformer Engine's recipes (TE Linear, LayerNormLinear, GroupedLinear save the
/// quantized input), else the activation itself (`e`; torchao's float8 recasts it).
double savedInputBytes(const ComputeModel &c, double e)
{
    const Fp8Scaling s = c.fp8Scaling();
    const bool fp8_copy =
        c.precision() == Precision::FP8 && (s == Fp8Scaling::Delayed || s == Fp8Scaling::Current);
    return fp8_copy ? 1.0 : e;
}

// A linear layer's GEMMs at the scenario's matrix format: NVFP4 runs them on Blackwell's FP4
// tensor cores at twice the FP8 rate (NVIDIA Blackwell datasheet: B200 9 PFLOPS dense FP4
// against 4.5 FP8), MXFP8 at the FP8 rate (its block scales ride in the MMA instruction,
// tcgen05.mma.kind::mxf8f6f4, PTX ISA 8.7).
double formatShare(const Plan &plan)
{
    return plan.block_format == BlockFormat::NVFP4 ? 2.0 : 1.0;
}
double linearForward(const ComputeModel &c, const Plan &plan, const Gemm &g)
{
    return c.gemmTime(g.m, g.n, g.k, g.batch, 0, formatShare(plan));
}
/// The share of the tensor peak a linear layer's backward GEMMs reach: FP8 recipes (and
/// Transformer Engine's MXFP8 / NVFP4 ones, which quantize both backward GEMMs' operands
/// too: TE docs, "MXFP8 and NVFP4 recipes") accumulate in FP32 there (backwardTime), at the
/// matrix format's rate.
double backwardShare(const ComputeModel &c, const Plan &plan)
{
    if (plan.block_format != BlockFormat::None)
        return formatShare(plan) / 1.15;
    return c.precision() == Precision::FP8 ? 1.0 / 1.15 : 1.0;
}
/// The weight-gradient GEMM of a linear layer's backward (dW = X^T dY: k x n over m).
double linearWgrad(const ComputeModel &c, const Plan &plan, const Gemm &g)
{
    return c.gemmTime(g.k, g.n, g.m, g.batch, 0, backwardShare(c, plan));
}
/// Input gradient (dX = dY W^T: m x k over n) and weight gradient.
double linearBackward(const ComputeModel &c, const Plan &plan, const Gemm &g)
{
    return c.gemmTime(g.m, g.k, g.n, g.batch, 0, backwardShare(c, plan)) + linearWgrad(c, plan, g);
}

/// The routed experts of an MoE layer, added to `l`: router, permutation, the experts'
/// grouped GEMMs at the shapes their tokens give, and the all-to-all each token takes.
/// Returns the activations they keep per micro-batch (bytes) and the time of the experts'
/// activation function (what a `moe_act` recompute reruns).
struct RoutedCost {
    double activation_bytes = 0;
    double act_fwd_s = 0;
    double act_output_bytes = 0; // the experts' activation output, kept as FC2's input
};

RoutedCost addRoutedExperts(const TransformerSpec &ts, const Plan &plan, const ComputeModel &c,
                            double T, LayerCost &l)
{
    const MoeSpec &m = ts.moe;
    const double e = activationBytes(plan.precision);
    const double h = static_cast<double>(ts.hidden);
    const double E = static_cast<double>(m.experts);
    const double k = static_cast<double>(m.top_k);
    const double etp = plan.expert_tensor;
    const double fe = static_cast<double>(m.expert_ffn_hidden) / etp;
    const double local = E / plan.expert; // experts on this GPU
    // Megatron-Core MoE (moe_layer.py, token_dispatcher.py): the sequence-parallel tokens of
    // this GPU are routed; each is sent to top_k experts; the expert-tensor group shares its
    // tokens, so a GPU's experts receive T/t x k x etp token copies under balanced routing
    // (Switch Transformer, Fedus et al. 2022, Sec. 2.2: tokens per expert = tokens x k / E).
    const double routed = T / plan.tensor;
    const double received = routed * k * etp;
    const double per_expert = received / local;
    // The busiest expert gets `expert_imbalance` times the mean; a capacity factor drops
    // what exceeds capacity_factor x the mean (GShard, Lepikhin et al. 2021, Sec. 2.2).
    double busiest = plan.expert_imbalance;
    if (m.capacity_factor > 0)
        busiest = std::min(busiest, m.capacity_factor);
    const double gated = ts.gated_mlp ? 2.0 : 1.0;
    const ComputeModel hc = c.precision() == Precision::FP8 ? c.at(Precision::BF16) : c;
    // Router: logits against the expert centroids (bf16), then softmax/sigmoid and top-k.
    const Gemm router{routed, E, h, 1};
    const double router_fwd = forwardTime(hc, router), router_bwd = backwardTime(hc, router);
    // The local experts' GEMMs run side by side (TE's GroupedLinear: one cuBLAS GEMM per
    // expert on several streams, NVIDIA's GB200 guide Sec. 1 item 3; CUTLASS grouped GEMM),
    // costed as one batched product whose members are as small as their tokens make them.
    // `groups` micro-batches meet at each expert (Plan::expert_token_groups): one GEMM of
    // their tokens, a share 1/groups of it per micro-batch.
    const double groups = std::max(1.0, plan.expert_token_groups);
    const auto experts = [&](double tokens, bool backward) {
        const Gemm fc1{tokens * groups, gated * fe, h, local};
        const Gemm fc2{tokens * groups, h, fe, local};
        return (backward ? linearBackward(c, plan, fc1) + linearBackward(c, plan, fc2)
                         : linearForward(c, plan, fc1) + linearForward(c, plan, fc2)) /
               groups;
    };
    {
        const Gemm fc1{per_expert * groups, gated * fe, h, local};
        const Gemm fc2{per_expert * groups, h, fe, local};
        l.wgrad_s += (linearWgrad(c, plan, fc1) + linearWgrad(c, plan, fc2)) / groups;
    }
    const double mean_fwd = experts(per_expert, false), mean_bwd = experts(per_expert, true);
    const double busy_fwd = experts(per_expert * busiest, false);
    const double busy_bwd = experts(per_expert * busiest, true);
    // Permute and unpermute: gathers of the token vectors into expert order and back, each
    // reading and writing them (fused permutation kernels, Megatron-Core moe_utils.py).
    const double moved = routed * k * h * e;
    const ElementwiseBytes eb = elementwiseBytes(ts, c, e);
    const double act_fwd = c.memoryTime(eb.act_fwd * received * fe);
    const double act_bwd = c.memoryTime(eb.act_bwd * received * fe);
    const Fp8CastBytes cast =
        fp8CastBytes(c, 0.0, received * (h + fe), received * (gated * fe + h),
                     local * (gated + 1.0) * h * fe, static_cast<double>(plan.micro_batches));
    l.moe_fwd_s = router_fwd + mean_fwd + memoryKernels(c, {2.0 * moved, 2.0 * moved}) + act_fwd +
                  c.memoryTime(cast.forward);
    l.moe_bwd_s = router_bwd + mean_bwd + memoryKernels(c, {3.0 * moved, 3.0 * moved}) + act_bwd +
                  c.memoryTime(cast.backward);
    l.fwd_s += l.moe_fwd_s;
    l.bwd_s += l.moe_bwd_s;
    l.expert_wait_fwd = std::max(0.0, busy_fwd - mean_fwd) + act_fwd * (busiest - 1.0);
    l.expert_wait_bwd = std::max(0.0, busy_bwd - mean_bwd) + act_bwd * (busiest - 1.0);
    l.fwd_flops += router.flops() + 2.0 * received * (gated + 1.0) * fe * h;
    // Operations the host issues for the routed experts (Megatron-Core on GB200, NVIDIA's
    // "Optimizing DeepSeek-V3 Training Performance on GB200 NVL72", Sec. 2.1): the router's
    // elementwise kernels, 72 (31 with the opt-in --moe-router-fusion); permutation, the two
    // all-to-alls and unpermutation, ~12; and per local expert its two GEMMs (TE's grouped
    // GEMM launches one cuBLAS GEMM per expert on several streams), each with an input
    // quantization under an FP8 recipe.
    // Megatron-Core issues all of these from Python (router.py, token_dispatcher.py,
    // experts.py), at the stack's host cost for the MoE path (FrameworkSpec::host_moe_op_us).
    const double ops_per_expert = c.precision() == Precision::FP8 ? 4.0 : 2.0;
    l.moe_kernels_fwd += 72.0 + 12.0 + local * ops_per_expert / groups;
    l.expert_params = local * (gated + 1.0) * h * fe;
    l.params += l.expert_params + h * E;
    // The router and each local expert's matrices (one module per matrix).
    l.param_modules += 1.0 + local * (gated + 1.0);
    l.param_tensors += 1.0 + local * (gated + 1.0);
    if (plan.expert > 1 || etp > 1) {
        // Dispatch and combine forward; their gradients backward (Megatron-Core
        // MoEAlltoAllTokenDispatcher; DeepEP's dispatch/combine kernels).
        l.ep_fwd_ops = 2;
        l.ep_bwd_ops = 2;
        l.ep_tokens = routed;
        l.ep_top_k = k;
        l.ep_token_bytes = h * 2.0; // the bf16 hidden state of a token
        // Dropless routing sends the busiest expert's GPU `busiest` x the mean token copies
        // and it returns as many in the combine. A pairwise all-to-all ends when its most
        // loaded rank has received and sent its share (Thakur, Rabenseifner & Gropp 2005,
        // Sec. 4: each step's time is set by the largest message), so the group's exchange
        // lasts as long as that rank's; capacity-bounded routing drops the excess first.
        l.ep_busiest = busiest;
        if (m.groupLimited()) {
            l.ep_router_groups = static_cast<double>(m.router_groups);
            l.ep_group_top_k = static_cast<double>(m.router_group_top_k);
        }
    }
    RoutedCost r;
    r.act_fwd_s = act_fwd;
    // Kept for backward: the permuted inputs, the FC1 output (both halves when gated), the
    // activation's output, and, where the routing weights multiply at the combine, the
    // experts' outputs for the weights' gradient (Stack::moe_probs_in_activation).
    // Under Transformer Engine's FP8 the two inputs (permuted tokens, activation output)
    // are kept in FP8 (TE GroupedLinear saves its quantized inputs, as Linear does).
    const double input_bytes = savedInputBytes(c, e);
    // Megatron's clamp keeps its input (FC1's output) and the fused kernel the clamped copy:
    // one more [tokens, 2 x ffn] tensor, which a moe_act recompute does not keep either.
    const double clamped_copy = eb.clamped_copy ? received * gated * fe * e : 0.0;
    r.activation_bytes = received * (h + fe) * input_bytes + received * gated * fe * e +
                         clamped_copy +
                         (c.stack().moe_probs_in_activation ? 0.0 : routed * k * h * e);
    r.act_output_bytes = received * fe * input_bytes + clamped_copy;
    return r;
}

/// The shapes of one transformer layer on one GPU: attention (multi-head, grouped-query or
/// multi-head latent), its context-parallel split, and the dense or expert MLP.
struct AttentionShape {
    std::vector<Gemm> in;   // projections before the core (column-parallel or replicated)
    std::vector<Gemm> up;   // MLA: the up-projections among `in` (query and key/value)
    Gemm out{0, 0, 0, 0};   // the output projection (row-parallel)
    double dq = 0, dv = 0;  // query/key and value width of one head
    double heads = 0;       // query heads on this GPU
    double kv_heads = 0;    // key/value heads on this GPU (MLA: the up-projected heads)
    double params = 0;      // on this GPU
    double qk_elements = 0; // rotary-embedded query/key elements per token
};

AttentionShape attentionShape(const TransformerSpec &ts, const Plan &plan, double T)
{
    const double h = static_cast<double>(ts.hidden);
    const double t = plan.tensor;
    AttentionShape a;
    a.heads = static_cast<double>(ts.heads) / t;
    if (ts.mla.enabled()) {
        // DeepSeek-V2 Sec. 2.1.2-2.1.3 (Eq. 9-14): queries from a latent of q_lora_rank, keys
        // and values up-projected from one of kv_lora_rank, a decoupled rotary key of
        // qk_rope_head_dim shared by the heads. Megatron-Core runs the down-projections
        // replicated on every tensor rank, the up-projections column-parallel.
        const MlaSpec &m = ts.mla;
        const double ql = static_cast<double>(m.q_lora_rank);
        const double kl = static_cast<double>(m.kv_lora_rank);
        const double rope = static_cast<double>(m.qk_rope_head_dim);
        a.dq = static_cast<double>(m.qk_nope_head_dim) + rope;
        a.dv = static_cast<double>(m.v_head_dim);
        a.kv_heads = a.heads;
        if (ql > 0) {
            a.in.push_back({T, ql, h, 1});
            a.in.push_back({T, a.heads * a.dq, ql, 1});
            a.up.push_back(a.in.back());
            a.params += h * ql + ql * a.heads * a.dq + ql; // with the latent's norm
        } else {
            a.in.push_back({T, a.heads * a.dq, h, 1});
            a.params += h * a.heads * a.dq;
        }
        a.in.push_back({T, kl + rope, h, 1});
        a.in.push_back({T, a.heads * (m.qk_nope_head_dim + a.dv), kl, 1});
        a.up.push_back(a.in.back());
        a.params += h * (kl + rope) + kl * a.heads * (m.qk_nope_head_dim + a.dv) + kl;
        a.qk_elements = (a.heads + 1.0) * rope;
    } else {
        a.dq = a.dv =
            ts.head_dim > 0 ? static_cast<double>(ts.head_dim) : h / static_cast<double>(ts.heads);
        a.kv_heads = std::max(1.0, static_cast<double>(ts.kvHeads()) / t);
        const double qkv_n = (a.heads + 2.0 * a.kv_heads) * a.dq;
        a.in.push_back({T, qkv_n, h, 1});
        a.params += h * qkv_n;
        if (!ts.gated_mlp)
            a.params += qkv_n; // QKV bias (GPT-style; LLaMA has none)
        a.qk_elements = (a.heads + a.kv_heads) * a.dq;
    }
    a.out = {T, h, a.heads * a.dv, 1};
    a.params += a.heads * a.dv * h;
    return a;
}

/// Whether Megatron's fused scale-mask-softmax kernel runs on 16-bit scores for `batches`
/// (micro-batch x attention heads on this GPU) of `sq` x `sk` scores
/// (megatron/model/fused_softmax.py, FusedScaleMaskSoftmax.is_kernel_available; the causal kernel
/// needs the batches to fill its blocks: get_batch_per_block = 128 threads / 32 per warp x (2
/// batches per warp up to 128 keys, else 1), scaled_upper_triang_masked_softmax.h).
bool megatronSoftmaxFuses(double batches, double sq, double sk)
{
    const auto whole = [](double x, double m) { return std::fmod(x, m) == 0.0; };
    if (sk <= 16 || sk > 4096 || !whole(sq, 4) || !whole(sk, 4) || !whole(batches, 4))
        return false;
    const double batch_per_block = 4.0 * (sk <= 128 ? 2.0 : 1.0);
    return whole(batches, batch_per_block);
}

LayerCost transformerBlock(const TransformerSpec &ts, const Plan &plan, const ComputeModel &c,
                           bool flash, int64_t layer)
{
    // Attention runs in bf16 under an FP8 recipe (above).
    const ComputeModel hc = c.precision() == Precision::FP8 ? c.at(Precision::BF16) : c;
    const double e = activationBytes(plan.precision);
    const double b = static_cast<double>(plan.micro_batch);
    const double s = static_cast<double>(ts.seq_len);
    const double cp = plan.context;
    const double sl = s / cp; // a sequence's tokens on this GPU (context parallelism)
    const double h = static_cast<double>(ts.hidden);
    const double t = plan.tensor;
    const double f = static_cast<double>(ts.ffn());
    const double ft = f / t;
    const double T = b * sl;                              // tokens per micro-batch here
    const double Tl = plan.sequence_parallel ? T / t : T; // tokens in norms/dropouts
    const bool moe = ts.isMoeLayer(layer);
    const double mats = ts.gated_mlp ? 3.0 : 2.0;
    const AttentionShape as = attentionShape(ts, plan, T);

    // Megatron-LM tensor-parallel layer (Shoeybi et al. 2019, Sec. 3): column-parallel QKV
    // and FC1, row-parallel projection and FC2. An MoE layer's MLP is the shared experts (a
    // dense MLP of shared_experts x expert_ffn_hidden, tensor-parallel) beside the routed ones.
    std::vector<Gemm> attn = as.in;
    attn.push_back(as.out);
    std::vector<Gemm> mlp;
    double mlp_width =
        moe ? static_cast<double>(ts.moe.shared_experts * ts.moe.expert_ffn_hidden) / t : ft;
    if (mlp_width > 0) {
        mlp.push_back({T, ts.gated_mlp ? 2.0 * mlp_width : mlp_width, h, 1});
        mlp.push_back({T, h, mlp_width, 1});
    }

    LayerCost l;
    l.name = moe ? "moe block" : "block";
    double gemm_fwd = 0, gemm_bwd = 0;
    const auto addGemms = [&](const std::vector<Gemm> &gemms, int side) {
        for (const Gemm &g : gemms) {
            const double fwd = linearForward(c, plan, g), bwd = linearBackward(c, plan, g);
            gemm_fwd += fwd;
            gemm_bwd += bwd;
            l.wgrad_s += linearWgrad(c, plan, g);
            l.fwd_flops += g.flops();
            // Attention's collective beside its projections, the MLP's beside FC1 and FC2.
            l.tp_beside_fwd[side] += fwd;
            l.tp_beside_bwd[side] += bwd;
        }
    };
    addGemms(attn, 0);
    addGemms(mlp, 1);

    // The attention core over the sequence: each local query against the whole sequence's
    // keys (ring attention passes the other GPUs' blocks by, Liu et al. 2023; a causal
    // sequence split in 2 x context chunks gives each GPU an equal share, Megatron-Core CP).
    // Sliding-window layers attend to the last `sliding_window` keys only (gpt-oss).
    const bool windowed = ts.isWindowed(layer) && static_cast<double>(ts.sliding_window) < s;
    const double keys = windowed ? static_cast<double>(ts.sliding_window) : s;
    const Gemm scores{sl, keys, as.dq, b * as.heads};
    const Gemm values{sl, as.dv, keys, b * as.heads};
    const double attn_flops = scores.flops() + values.flops();
    l.fwd_flops += attn_flops;

    // Memory-bound kernels, bytes read + written (Korthikanti et al. 2022, Sec. 4.1 lists
    // the tensors: two layer norms, two bias-dropout-adds with 1-byte masks, the MLP
    // activation, and without fused attention the s x s softmax and its dropout); the
    // norms, rotary embedding and activation at the stack's fusion (elementwiseBytes).
    const ElementwiseBytes eb = elementwiseBytes(ts, c, e);
    const double ln = eb.norm_fwd * Tl * h;
    const double bda = (3.0 * e + 1.0) * Tl * h;
    const double act = eb.act_fwd * T * mlp_width;
    const double qk = T * as.qk_elements;
    // QK-norm (Qwen3 Technical Report, Sec. 2): an RMSNorm over each query head and each
    // key head, two norms at the stack's fusion; each keeps its input for the backward
    // (Transformer Engine's q_layernorm and k_layernorm in Megatron-Core's SelfAttention).
    const double qn = ts.qk_norm ? T * as.heads * as.dq : 0.0;
    const double kn = ts.qk_norm ? T * as.kv_heads * as.dq : 0.0;
    const double sq = b * as.heads * sl * keys;
    double attn_fwd = 0, attn_bwd = 0;
    double softmax_fallback_ops = 0; // host operations beyond the fused softmax's one
    if (flash) {
        // Fused attention at the stack's kernel as measured on this architecture
        // (ComputeModel::attentionTime); a causal kernel skips the masked half of the
        // blocks (FlashAttention-2, Sec. 3.1.1), a windowed one the blocks outside the
        // window. Backward recomputes S and P: 2.5x the forward FLOPs (Dao 2023, Sec. 3.2).
        const double work = ts.causal && !windowed ? 0.5 * attn_flops : attn_flops;
        attn_fwd = hc.attentionTime(work, as.dq, false);
        attn_bwd = hc.attentionTime(2.5 * work, as.dq, true);
    } else if (c.stack().fused_elementwise && e == 2.0 &&
               !megatronSoftmaxFuses(b * as.heads, sl, keys)) {
        // Megatron's FusedScaleMaskSoftmax falls back to PyTorch where its kernel does not
        // apply (megatron/model/fused_softmax.py, is_kernel_available: 16-bit input, 16 < sk
        // <= 4096, sq and sk multiples of 4 and batch x heads per GPU a multiple of 4, the
        // causal kernel's batches per block): the scores cast to fp32, scaled, masked,
        // softmaxed and cast back, five kernels reading and writing 4-byte elements (~37
        // bytes per score instead of 4), and their five gradients backward.
        attn_fwd = forwardTime(hc, scores) + forwardTime(hc, values) +
                   memoryKernels(hc, {(e + 4.0) * sq, 8.0 * sq, 9.0 * sq, 8.0 * sq, (4.0 + e) * sq,
                                      (2.0 * e + 1.0) * sq});
        attn_bwd = backwardTime(hc, scores) + backwardTime(hc, values) +
                   memoryKernels(hc, {(e + 4.0) * sq, 12.0 * sq, 9.0 * sq, 8.0 * sq, (4.0 + e) * sq,
                                      (2.0 * e + 1.0) * sq});
        softmax_fallback_ops = 4.0;
    } else if (!c.stack().fused_elementwise) {
        // Eager attention as Python modules write it (DeepLearningExamples' and Hugging
        // Face's BertSelfAttention: matmul, `/ sqrt(d)`, `+ attention_mask`, F.softmax,
        // dropout, matmul): four memory-bound kernels over the scores, each reading and
        // writing every score (the dropout also writes its 1-byte mask); backward dropout,
        // softmax (reading the gradient and the output) and the scale.
        attn_fwd =
            forwardTime(hc, scores) + forwardTime(hc, values) +
            memoryKernels(hc, {2.0 * e * sq, 2.0 * e * sq, 2.0 * e * sq, (2.0 * e + 1.0) * sq});
        attn_bwd = backwardTime(hc, scores) + backwardTime(hc, values) +
                   memoryKernels(hc, {(2.0 * e + 1.0) * sq, 3.0 * e * sq, 2.0 * e * sq});
    } else {
        // Fused scale-mask-softmax (Megatron's FusedScaleMaskSoftmax) and dropout.
        attn_fwd = forwardTime(hc, scores) + forwardTime(hc, values) +
                   memoryKernels(hc, {2.0 * e * sq, (2.0 * e + 1.0) * sq});
        attn_bwd = backwardTime(hc, scores) + backwardTime(hc, values) +
                   memoryKernels(hc, {3.0 * e * sq, (2.0 * e + 1.0) * sq});
    }
    const bool dtensor_cp = plan.context > 1 && plan.context_algorithm == ContextAlgorithm::Ring &&
                            c.stack().dtensor_context_parallel;
    if (dtensor_cp) {
        // PyTorch's ring attention (torch/distributed/tensor/experimental/_attention.py, as
        // torchtitan ran it in Dec 2024, convert_to_f32): each block after the first merges
        // its output into a running fp32 output and log-sum-exp (_SDPAMerger: the block's
        // output cast to fp32, the sigmoid-weighted difference, and, for the load-balanced
        // half blocks, a torch.cat rebuilding the whole output): ~40 bytes per output element
        // and block. Backward accumulates the query, key and value gradients of every block
        // in fp32 (keys and values at the query heads' width) and concatenates the key and
        // value gradients to pass them on: ~46 bytes per query element and block. Memory-bound
        // kernels outside the attention kernel, on the critical path.
        const double out_elements = b * as.heads * sl * as.dv;
        attn_fwd += hc.memoryTime((cp - 1.0) * 40.0 * out_elements);
        attn_bwd += hc.memoryTime(cp * 46.0 * out_elements);
    }
    double linear_weights = 0, linear_inputs = 0, linear_outputs = 0;
    for (const Gemm &g : attn) {
        linear_weights += g.n * g.k;
        linear_outputs += g.m * g.n;
    }
    for (const Gemm &g : mlp) {
        linear_weights += g.n * g.k;
        linear_outputs += g.m * g.n;
    }
    linear_inputs = T * (as.heads * as.dv + mlp_width);
    const Fp8CastBytes cast = fp8CastBytes(c, Tl * h * 2.0, linear_inputs, linear_outputs,
                                           linear_weights, static_cast<double>(plan.micro_batches));
    const double rope_fwd = eb.rope_fwd * qk, rope_bwd = eb.rope_bwd * qk;
    const double mem_fwd =
        memoryKernels(c, {ln, ln, bda, bda, act, rope_fwd, eb.norm_fwd * qn, eb.norm_fwd * kn}) +
        c.memoryTime(cast.forward);
    // Backward of elementwise kernels reads the saved input and the incoming gradient and
    // writes the outgoing one: ~1.5-2x the forward traffic.
    const double ln_bwd = eb.norm_bwd * Tl * h;
    const double act_bwd = eb.act_bwd * T * mlp_width;
    const double mem_bwd = memoryKernels(c, {ln_bwd, ln_bwd, 1.5 * bda, 1.5 * bda, act_bwd,
                                             rope_bwd, eb.norm_bwd * qn, eb.norm_bwd * kn}) +
                           c.memoryTime(cast.backward);
    l.fwd_s = gemm_fwd + attn_fwd + mem_fwd;
    l.bwd_s = gemm_bwd + attn_bwd + mem_bwd;
    l.kernels_fwd = (flash ? plan.host.block_ops_forward_fused : plan.host.block_ops_forward) +
                    softmax_fallback_ops + (ts.qk_norm ? 2.0 : 0.0);
    if (c.fusedElementwise() && !c.stack().fused_elementwise) {
        // Compiled: the host launches the GEMMs, the attention kernel and one fused kernel
        // per elementwise chain (Inductor: two norms, rotary, activation, two residual
        // adds), from generated code.
        l.kernels_fwd = std::min(l.kernels_fwd, 4.0 + 1.0 + 6.0);
    }

    // Parameters on this GPU (SC21 Eq. 2 per layer: 12h^2 + 13h for ffn = 4h).
    l.params = as.params + mats * h * mlp_width + 4.0 * h;
    if (!ts.gated_mlp)
        l.params += h + mlp_width + h; // biases (GPT-style; LLaMA has none)
    // Modules: two norms, the attention's projections and the MLP's matrices (a gated MLP's
    // gate and up projections are two nn.Linear in LLaMA's reference code and in Hugging
    // Face's LlamaMLP). GPT-style layers carry a bias in every linear and LayerNorm (GPT-2's
    // Conv1D and LayerNorm); LLaMA-style ones have RMSNorm weights and bias-free linears.
    const double linears = static_cast<double>(attn.size()) + (mlp_width > 0 ? mats : 0.0);
    l.param_modules = 2.0 + linears;
    l.param_tensors = ts.gated_mlp ? l.param_modules : 2.0 * l.param_modules;
    if (ts.qk_norm) { // the query and key norms' weights, one head wide each
        l.params += 2.0 * as.dq;
        l.param_modules += 2.0;
        l.param_tensors += 2.0;
    }

    const double dense_fwd = l.fwd_s;
    const double dense_flops = l.fwd_flops;
    RoutedCost routed;
    if (moe)
        routed = addRoutedExperts(ts, plan, c, T, l);
    const double routed_act = routed.activation_bytes; // kept per micro-batch
    const double moe_fwd = l.fwd_s - dense_fwd;
    const bool per_op = c.stack().selective_per_op;
    // What selective recompute rebuilds, as Megatron-Core's modules (training.recompute_modules;
    // transformer_config.py recompute_modules, transformer_layer.py and
    // multi_latent_attention.py): each rebuilt in backward from what it keeps. A layer's dense
    // MLP is `mlp` in a dense layer and `shared_experts` in an MoE layer. Unnamed, the stack's
    // own choice: the attention core where attention is not fused (Korthikanti et al. 2022,
    // Sec. 5; fused attention recomputes it inside its backward kernel), else in an MoE layer
    // the norms and the experts' activation as Megatron-Core's MoE recipes set them
    // (--recompute-modules layernorm moe_act), else nothing. torchtitan's per-operation
    // policy is its own (below).
    unsigned modules = 0;
    if (plan.recompute == Recompute::Selective && !per_op)
        modules = plan.recompute_modules != 0 ? plan.recompute_modules
                  : !flash                    ? static_cast<unsigned>(RecomputeModule::CoreAttn)
                  : moe                       ? static_cast<unsigned>(RecomputeModule::Layernorm) |
                              static_cast<unsigned>(RecomputeModule::MoeAct)
                        : 0u;
    const auto rebuilds = [&](RecomputeModule m) { return hasModule(modules, m); };
    const bool mlp_rebuilt = mlp_width > 0 && (moe ? rebuilds(RecomputeModule::SharedExperts)
                                                   : rebuilds(RecomputeModule::Mlp));
    const bool up_rebuilt = rebuilds(RecomputeModule::MlaUpProj) && !as.up.empty();
    const bool moe_rebuilt = moe && rebuilds(RecomputeModule::Moe);

    switch (plan.recompute) {
    case Recompute::None:
        break;
    case Recompute::Selective:
        if (!per_op) {
            // The forward of each rebuilt module once more: the attention core (the fused
            // kernel's forward too: Megatron checkpoints the module around it), the norms,
            // the up-projections with their rotary embedding, the dense MLP (GEMMs and
            // activation), the routed experts whole or their activation alone.
            if (rebuilds(RecomputeModule::CoreAttn)) {
                l.recompute_s += attn_fwd;
                l.recompute_flops += attn_flops;
            }
            if (rebuilds(RecomputeModule::Layernorm))
                l.recompute_s += memoryKernels(c, {ln, ln});
            if (up_rebuilt) {
                for (const Gemm &g : as.up) {
                    l.recompute_s += linearForward(c, plan, g);
                    l.recompute_flops += g.flops();
                }
                l.recompute_s += memoryKernels(c, {rope_fwd});
            }
            if (mlp_rebuilt) {
                for (const Gemm &g : mlp) {
                    l.recompute_s += linearForward(c, plan, g);
                    l.recompute_flops += g.flops();
                }
                l.recompute_s += memoryKernels(c, {act});
                if (plan.tensor > 1)
                    l.tp_recompute_ops += 1; // FC1's input gathered again
            }
            if (moe_rebuilt) {
                l.recompute_s += moe_fwd;
                l.recompute_flops += l.fwd_flops - dense_flops;
                l.ep_recompute_ops = l.ep_fwd_ops; // dispatch and combine again
                l.expert_wait_recompute = l.expert_wait_fwd;
            } else if (moe && rebuilds(RecomputeModule::MoeAct)) {
                l.recompute_s += routed.act_fwd_s;
            }
        } else {
            // torchtitan's per-operation policy: every other matmul output kept, so half
            // the linear forward reruns, with every elementwise kernel; attention kept.
            l.recompute_s = 0.5 * (gemm_fwd + moe_fwd) + mem_fwd;
            l.recompute_flops = 0.5 * (l.fwd_flops - attn_flops);
        }
        break;
    case Recompute::Full:
        // Checkpoint the layer input and rerun the whole forward (Chen et al. 2016).
        l.recompute_s = l.fwd_s;
        l.recompute_flops = l.fwd_flops;
        l.ep_recompute_ops = l.ep_fwd_ops;
        l.expert_wait_recompute = l.expert_wait_fwd;
        break;
    }
    l.bwd_flops = 2.0 * l.fwd_flops;

    // Activation memory per micro-batch (Korthikanti et al. 2022, Eq. 1-6, Table 2):
    // replicated 10sbh (norms, inputs, masks), split across TP 8sbh + 4sbf (+2sbf gated)
    // + 5as^2b; sequence parallelism splits the replicated part too; bytes scale with the
    // element size (the paper assumes 2-byte activations). Here per local token T (context
    // parallelism splits every activation), the attention's 8sbh at its heads' widths and
    // the routed experts' activations at their dispatched tokens.
    const double scale = e / 2.0;
    const double replicated = 10.0 * T * h;
    // Korthikanti's attention term 8sbh is Q and K (4sbh), V (2sbh) and the projection's
    // input (2sbh) at 2 bytes: queries and the output at the query heads' widths, keys and
    // values at the key/value heads' (grouped-query attention keeps the narrower K and V that
    // the attention kernel reads: FlashAttention-2 saves q, k, v and out for its backward).
    const double attn_elements =
        t * (as.heads * (as.dq + as.dv) + as.kv_heads * (as.dq + as.dv)); // 4h for MHA
    const double split = 2.0 * T * attn_elements + (ts.gated_mlp ? 6.0 : 4.0) * T * mlp_width * t;
    // Rebuilding the attention core frees the s^2 scores (Korthikanti et al. 2022, Sec. 5);
    // torchtitan's per-operation policy keeps the fused attention's output.
    const bool core_rebuilt =
        rebuilds(RecomputeModule::CoreAttn) || (plan.recompute == Recompute::Selective && per_op);
    const double quadratic = (flash || core_rebuilt) ? 0.0 : 5.0 * as.heads * t * sl * keys * b;
    // Transformer Engine keeps the FP8 copy of each linear layer's input for the weight
    // gradient instead of the 16-bit one (TE module/linear.py and layernorm_linear.py:
    // saved_inputmat = the FP8 inputmat, or its FP8 transpose, under fp8 unless the recipe
    // overrides wgrad precision; with sequence parallelism the local shard): the QKV and
    // FC1 inputs (replicated part) and the projection and FC2 inputs (split part) cost one
    // byte per element. torchao's float8 keeps the high-precision input and recasts it.
    const double sp = plan.sequence_parallel ? t : 1.0; // what splits the replicated part
    const double input_bytes = savedInputBytes(c, e);
    const double column_inputs = T * h * (mlp_width > 0 ? 2.0 : 1.0); // QKV (and FC1) inputs
    const double replicated_saved = (e - input_bytes) * column_inputs / sp;
    const double split_saved = (e - input_bytes) * T * (as.heads * as.dv + mlp_width);
    // DTensor's sequence parallelism saves the all-gathered inputs of the QKV and FC1
    // linears (the full sequence, Stack::dtensor_tensor_parallel) where Megatron keeps the
    // shard: each 2sbh of the replicated part is not divided by the tensor degree.
    const double gathered_kept = c.stack().dtensor_tensor_parallel && plan.sequence_parallel
                                     ? e * column_inputs * (1.0 - 1.0 / t)
                                     : 0.0;
    // A clamped gated activation on Megatron's fused path keeps its clamped copy of FC1's
    // output as well (elementwiseBytes), as the routed experts' does.
    const double dense_clamped = eb.clamped_copy ? 2.0 * T * mlp_width * e : 0.0;
    const double no_recompute = scale * (replicated / sp + (split + quadratic) / t) -
                                replicated_saved - split_saved + gathered_kept + routed_act +
                                dense_clamped + e * (qn + kn); // the QK-norms' inputs
    if (plan.recompute == Recompute::Full) {
        l.activation_bytes = 2.0 * T * h * scale / sp;
        // Backward of a checkpointed layer rebuilds all of its activations at once
        // (Chen et al. 2016, Sec. 4: the peak is the checkpoints plus one segment).
        l.transient_bytes = no_recompute;
    } else if (plan.recompute == Recompute::Selective && !per_op) {
        // What each rebuilt module frees (its saved tensors, at the widths above; the s^2
        // scores of the attention core above): the norms' outputs, dropped after their
        // consumers ran (CheckpointWithoutOutput: the QKV and router/FC1 inputs); MLA's
        // queries, keys and values from the
        // up-projections; the dense MLP's inside (FC1's output and its activation, FC2's input
        // at the saved-input width); the routed experts' activation output, or everything the
        // routed experts keep. Backward rebuilds one layer's worth at a time.
        double freed = 0;
        if (rebuilds(RecomputeModule::Layernorm))
            freed += (input_bytes + e) * T * h / sp;
        if (up_rebuilt)
            freed += e * T * as.heads * (2.0 * as.dq + as.dv);
        if (mlp_rebuilt)
            freed += T * mlp_width * ((ts.gated_mlp ? 2.0 : 1.0) * e + input_bytes) + dense_clamped;
        if (moe_rebuilt)
            freed += routed_act;
        else if (moe && rebuilds(RecomputeModule::MoeAct))
            freed += routed.act_output_bytes;
        freed = std::min(freed, no_recompute);
        l.activation_bytes = no_recompute - freed;
        l.transient_bytes = freed;
    } else if (plan.recompute == Recompute::Selective && per_op) {
        // Kept: the layer input, every other matmul output in forward order (Q, V, FC1 and
        // FC2 for LLaMA's seven; QKV and FC1 for four), the attention output and its
        // log-sum-exp (torchtitan _save_list).
        const double kept_mm = ts.gated_mlp ? (as.heads + as.kv_heads) * as.dq + mlp_width + h
                                            : as.in.front().n + mlp_width;
        l.activation_bytes = e * T * (h / sp + kept_mm + as.heads * as.dv) + routed_act;
        l.transient_bytes = std::max(0.0, no_recompute - l.activation_bytes);
    } else {
        l.activation_bytes = no_recompute;
    }

    if (plan.tensor > 1) {
        // Two all-reduces forward, two backward (Shoeybi et al. 2019, Fig. 4); with
        // sequence parallelism each becomes an all-gather + reduce-scatter pair of the same
        // volume (Korthikanti et al. 2022, Sec. 4.2.2). An MoE layer's routed experts take
        // the sequence-parallel tokens straight to their dispatch (Megatron-Core MoE: no
        // tensor-parallel collective around them); its shared experts keep theirs.
        const int ops = mlp_width > 0 ? 2 : 1;
        l.tp_fwd_ops = ops;
        l.tp_bwd_ops = ops;
        l.tp_recompute_ops = plan.recompute == Recompute::Full ? ops : 0;
        l.tp_bytes = T * h * e;
        l.tp_overlap_backward = c.stack().tp_overlap_backward;
    }
    if (plan.context > 1) {
        if (plan.context_algorithm == ContextAlgorithm::Ring) {
            // Ring attention (Liu et al. 2023; Megatron-Core CP p2p): context - 1 steps, each
            // passing one block of keys and values to the next GPU while the current block's
            // attention runs; the backward passes keys, values and their gradients.
            l.cp_fwd_steps = plan.context - 1;
            l.cp_bwd_steps = plan.context - 1;
            l.cp_step_bytes = b * sl * as.kv_heads * (as.dq + as.dv) * e;
            if (dtensor_cp) {
                // torchtitan repeats the keys and values to the query heads before the
                // attention call (models/llama/model.py, repeat_kv), so its ring moves them at
                // the query heads' width: one all-gather of the group's blocks per call
                // (_AllGatherRotater, waited for before the second block) and, backward, the
                // same all-gather plus the key and value gradients in fp32 at every step
                // (_templated_ring_attention_backward: an all-to-all permute to the next rank).
                l.cp_step_bytes = b * sl * as.heads * (as.dq + as.dv) * e;
                l.cp_all_gather = true;
                l.cp_grad_step_bytes = b * sl * as.heads * (as.dq + as.dv) * 4.0;
            }
        } else {
            // DeepSpeed-Ulysses (Jacobs et al. 2023, Sec. 3.1): all-to-alls of queries, keys,
            // values and the output re-shard heads and sequence, forward and backward.
            l.cp_fwd_steps = 4;
            l.cp_bwd_steps = 4;
            l.cp_step_bytes =
                T * (as.heads * (2.0 * as.dq + as.dv) + as.kv_heads * as.dv) * e / 4.0;
        }
        l.cp_attn_fwd = attn_fwd;
        l.cp_attn_bwd = attn_bwd;
    }
    return l;
}

LayerCost transformerEmbedding(const TransformerSpec &ts, const Plan &plan, const ComputeModel &c)
{
    const double e = activationBytes(plan.precision);
    const double T = static_cast<double>(plan.micro_batch * ts.seq_len) / plan.context;
    const double h = static_cast<double>(ts.hidden);
    LayerCost l;
    l.name = "embedding";
    // Lookup writes the activations; backward scatters fp32 gradients into the table.
    l.fwd_s = c.memoryTime(2.0 * T * h * e);
    l.bwd_s = c.memoryTime(T * h * (e + 4.0));
    l.params = static_cast<double>(ts.vocab) * h / plan.tensor;
    l.param_modules = 1;
    l.param_tensors = 1;
    l.activation_bytes = 0;
    l.kernels_fwd = 1;
    if (plan.tensor > 1) { // vocab-parallel embedding all-reduce (Megatron-LM)
        l.tp_fwd_ops = 1;
        l.tp_bytes = T * h * e;
    }
    return l;
}

LayerCost transformerHead(const TransformerSpec &ts, const Plan &plan, const ComputeModel &c)
{
    const double e = activationBytes(plan.precision);
    const double T = static_cast<double>(plan.micro_batch * ts.seq_len) / plan.context;
    const double h = static_cast<double>(ts.hidden);
    // A span head's two logits per token are one small replicated GEMM (Hugging Face's and
    // DeepLearningExamples' BertForQuestionAnswering: nn.Linear(hidden, 2)); a language
    // model's vocabulary is split over the tensor ranks (vocab-parallel).
    const bool span = ts.head == OutputHead::Span;
    const double vt = static_cast<double>(ts.headOutputs()) / (span ? 1.0 : plan.tensor);
    const double Tl = plan.sequence_parallel ? T / plan.tensor : T;
    // The output layer stays in bf16 under FP8 recipes (transformerBlock).
    const ComputeModel hc = c.precision() == Precision::FP8 ? c.at(Precision::BF16) : c;
    LayerCost l;
    l.name = "head";
    const Gemm logits{T, vt, h, 1};
    // Final norm, logits GEMM (6bshV per step: SC21 Eq. 3), then the loss over the logits
    // in fp32 as the stack computes it (FrameworkSpec::cross_entropy), each pass reading or
    // writing every logit: bytes per logit below.
    const double n = T * vt;
    l.fwd_s = c.memoryTime(2.0 * Tl * h * e) + forwardTime(hc, logits);
    l.bwd_s = c.memoryTime(4.0 * Tl * h * e) + backwardTime(hc, logits);
    switch (c.stack().cross_entropy) {
    case FrameworkSpec::CrossEntropy::Megatron:
        // megatron/core/tensor_parallel/cross_entropy.py: the caller's .float() cast, max,
        // logits - max, exp, sum, div_; backward mul_ by the loss gradient, cast back.
        l.fwd_s += memoryKernels(c, {n * (e + 4.0), n * 4.0, n * 8.0, n * 8.0, n * 4.0, n * 8.0});
        l.bwd_s += memoryKernels(c, {n * 8.0, n * (4.0 + e)});
        break;
    case FrameworkSpec::CrossEntropy::PyTorch:
        // .float(), then log_softmax over rows longer than 1024 (ATen SoftMax.cu
        // cunn_SoftMaxForward: max pass, exp-sum pass, output pass); backward nll_loss's
        // zero-filled gradient, cunn_SoftMaxBackward (sum pass, output pass), cast back.
        l.fwd_s += memoryKernels(c, {n * (e + 4.0), n * 16.0});
        l.bwd_s += memoryKernels(c, {n * 4.0, n * 16.0, n * (4.0 + e)});
        break;
    case FrameworkSpec::CrossEntropy::Fused:
        // Cast, then fused max / exp-sum and loss kernels; one fused gradient pass.
        l.fwd_s += memoryKernels(c, {n * (e + 4.0), n * 8.0, n * 4.0});
        l.bwd_s += c.memoryTime(n * (4.0 + e));
        break;
    }
    l.fwd_flops = logits.flops();
    l.bwd_flops = 2.0 * logits.flops();
    l.wgrad_s = hc.gemmTime(logits.k, logits.n, logits.m);
    l.params = 2.0 * h; // final norm
    l.param_modules = 1;
    l.param_tensors = ts.gated_mlp ? 1 : 2;
    // An untied output matrix, or the tied copy held by the last pipeline stage; a span
    // head's own weights and bias.
    if (span) {
        l.params += 2.0 * h + 2.0;
        l.param_modules += 1;
        l.param_tensors += 2;
    } else if (!ts.tied_embeddings || plan.pipeline > 1) {
        l.params += vt * h;
        l.param_modules += 1;
        l.param_tensors += 1;
    }
    // DTensor's column-parallel output layer saves its all-gathered input (Megatron's keeps
    // the sequence-parallel shard and gathers it again in backward).
    const bool dtensor = c.stack().dtensor_tensor_parallel && plan.tensor > 1;
    l.activation_bytes = T * vt * 4.0 + (dtensor ? T : Tl) * h * e;
    // The loss backward holds the fp32 gradient of the logits and its 16-bit copy for the
    // logits GEMM beside the saved fp32 log-probabilities (PyTorch cross_entropy on
    // .float() logits, as torchtitan and HF compute the loss). Under DTensor's loss_parallel
    // the forward is the larger: log-softmax decomposed (torch/distributed/tensor/parallel/
    // loss.py _log_softmax) holds the fp32 copy, the shifted logits and their exp (or the
    // result) at once beside the 16-bit logits: 8 + e bytes per element above the kept 4.
    l.transient_bytes = T * vt * ((dtensor ? 8.0 : 4.0) + e);
    l.kernels_fwd = 5;
    if (plan.tensor > 1) {
        l.tp_bwd_ops = 1; // gradient of the replicated input
        l.tp_bytes = T * h * e;
    }
    return l;
}

LayerCost tableLayer(const LayerSpec &ls, const Plan &plan, const ComputeModel &c, bool first,
                     const LayerSpec *prev)
{
    // Compiled (training.compile), Inductor fuses pointwise kernels into the kernel before
    // them (Ansel et al., ASPLOS 2024, Sec. 4.3): a ReLU after a norm or an add costs no pass
    // of its own, and a residual add after a norm reads only the second branch.
    // TensorFlow's Grappler remapper does the same for a batch norm with its side input and
    // activation (tensorflow/core/grappler/optimizers/remapper.cc: FusedBatchNorm +
    // SideInput + Relu -> _FusedBatchNormEx, and its gradient _FusedBatchNormGradEx), in one
    // cuDNN kernel (cudnnBatchNormalizationForwardTrainingEx with BN_ADD_ACTIVATION), which
    // takes 16-bit NHWC tensors: fp32 runs keep the separate kernels. In a residual block the
    // add follows a batch norm (its side input) and the ReLU follows that add.
    const double e = activationBytes(plan.precision);
    // Tensor cores take convolutions' 16-bit operands channels last (NHWC); on channels-first
    // (NCHW) tensors cuDNN transposes each input to NHWC and each output back (NVIDIA, "Deep
    // Learning Performance: Convolutional Layers User's Guide", tensor layouts: "NCHW ...
    // requires transposes"; PyTorch "(beta) Channels Last Memory Format": NCHW is its default
    // and channels last speeds up AMP convolutions; MosaicML's ChannelsLast method: ResNet-50
    // about 30% faster on V100 and A100). Each transpose reads and writes its tensor once.
    const bool transposes = c.channelsFirst() && e < 4.0;
    const bool fusing = c.compiled() || (c.stack().fused_batch_norm && e < 4.0 && !transposes);
    const bool fused_after =
        fusing && prev &&
        (prev->kind == LayerSpec::Kind::Norm || prev->kind == LayerSpec::Kind::Add);
    const double b = static_cast<double>(plan.micro_batch);
    const double t = plan.tensor;
    const double out = ls.output_elements * b;
    const double in = (ls.input_elements > 0 ? ls.input_elements : ls.output_elements) * b;
    LayerCost l;
    l.name = ls.name.c_str();
    l.kernels_fwd = 1;
    l.activation_bytes = out * e;
    switch (ls.kind) {
    case LayerSpec::Kind::Conv:
    case LayerSpec::Kind::Fc: {
        // Convolutions run as implicit GEMMs (Chetlur et al. 2014, cuDNN, Sec. 3): the
        // im2col matrix is never stored, so traffic is input + output + weights. cuDNN's
        // implicit-GEMM kernels reach ~80% of the equivalent dense GEMM's throughput
        // (address arithmetic and halo loads; NVIDIA "Convolutional Layers User's Guide",
        // tensor-core performance vs. GEMM).
        // TF32 convolutions fall further behind: each TF32 tensor-core operation reads twice
        // the operand bytes of an FP16 one from shared memory, which bounds cuDNN's
        // implicit-GEMM kernels on the moderate channel counts of CNNs (NVIDIA A100
        // whitepaper: TF32 at half the FP16 rate; operand bandwidth per FLOP doubles).
        const double kConvVsGemm = plan.precision == Precision::TF32 ? 0.5 : 0.8;
        const Gemm g{ls.gemm_m * b, ls.gemm_n / t, ls.gemm_k, 1};
        const double traffic = (in + out / t) * e + ls.params / t * e;
        double scale = ls.kind == LayerSpec::Kind::Conv ? 1.0 / kConvVsGemm : 1.0;
        // Kernel area from the shapes: K = Cin x area and, for stride 1, the input has as
        // many pixels as the output, so Cin = input elements / M.
        const double area = ls.input_elements > 0 ? ls.gemm_k * ls.gemm_m / ls.input_elements : 0.0;
        const bool winograd = ls.kind == LayerSpec::Kind::Conv && std::abs(area - 9.0) < 1e-6 &&
                              plan.precision == Precision::FP32;
        if (winograd) {
            // Without tensor cores cuDNN runs stride-1 3x3 convolutions with Winograd's
            // minimal filtering, 2.25x fewer multiplies for F(2x2,3x3) (Lavin & Gray, CVPR
            // 2016, Sec. 4); the transforms cost part of it back: ~1.7x net (ibid., Table 3).
            scale /= 1.7;
        }
        // A Winograd convolution is credited at most its direct FLOPs at the sustained peak:
        // the gain above is measured against cuDNN's direct kernels at their efficiency,
        // and the only figures above the peak are the paper's own hand-written forward
        // kernels, not cuDNN's training path; near-peak calibrated GEMMs would otherwise
        // give a nominal MFU above 1.
        const double flops_fwd = ls.forward_flops * b / t;
        const auto atPeak = [&](double flops) {
            return winograd ? flops / c.sustainedPeakFlops() * c.timeScale() : 0.0;
        };
        // cuDNN's implicit-GEMM convolutions are built on the warp-level mma.sync path
        // (CUTLASS's sm80 conv kernels; FlashAttention-3, Sec. 1, for the path's share of
        // Hopper's peak): on Hopper and data-centre Blackwell they reach legacyMmaShare() of
        // the tensor peak, so a GPU whose tensor peak doubles does not double a CNN. Fully
        // connected layers are cuBLAS GEMMs with the new instructions.
        const double share = ls.kind == LayerSpec::Kind::Conv ? c.legacyMmaShare() : 1.0;
        l.fwd_s = std::max(c.gemmTime(g.m, g.n, g.k, 1, traffic, share) * scale, atPeak(flops_fwd));
        // Backward: input gradient (skipped for the first layer: no gradient w.r.t. the
        // image) and weight gradient. cuDNN computes a convolution's input gradient as a
        // transposed convolution, an implicit GEMM of the forward's size (K' = Cout x kernel
        // area), so it takes the forward shape; a fully connected layer's is (m, k, n).
        const double dgrad = first ? 0.0
                             : ls.kind == LayerSpec::Kind::Conv
                                 ? c.gemmTime(g.m, g.n, g.k, 1, traffic, share)
                                 : c.gemmTime(g.m, g.k, g.n, 1, traffic);
        const double wgrad = c.gemmTime(g.k, g.n, g.m, 1, traffic, share);
        l.fwd_flops = flops_fwd;
        l.bwd_flops = (first ? 1.0 : 2.0) * l.fwd_flops;
        l.bwd_s = std::max((dgrad + wgrad) * scale, atPeak(l.bwd_flops));
        if (transposes && ls.kind == LayerSpec::Kind::Conv) {
            // Forward: the input in and the output back. Backward: the output's gradient in
            // and the input's gradient back (dgrad, none for the first layer), and the input
            // and output gradient again for the weight gradient.
            const double once = 2.0 * (in + out / t) * e;
            l.fwd_s += c.memoryTime(once);
            l.bwd_s += c.memoryTime((first ? 1.0 : 2.0) * once);
            l.kernels_fwd += 2;
        }
        l.params = ls.params / t;
        // torchvision's convolutions have no bias (bias=False before a batch norm); its
        // final fully connected layer has one.
        l.param_modules = 1;
        l.param_tensors = ls.kind == LayerSpec::Kind::Conv ? 1 : 2;
        // The input is saved for the weight gradient. After an in-place ReLU it is the
        // ReLU's output, which the ReLU keeps itself (below): one tensor, counted once.
        l.activation_bytes = prev && prev->kind == LayerSpec::Kind::Activation ? 0.0 : in * e;
        if (plan.tensor > 1) {
            l.tp_fwd_ops = 1; // gather the channel-split output
            l.tp_bwd_ops = 1; // reduce the input gradient
            l.tp_bytes = out * e;
        }
        break;
    }
    case LayerSpec::Kind::Norm:
        // Batch norm: statistics pass + normalise pass forward; two passes backward
        // (Ioffe & Szegedy 2015, Alg. 1 and its gradient).
        l.fwd_s = c.memoryTime(3.0 * out * e);
        l.bwd_s = c.memoryTime(5.0 * out * e);
        l.params = ls.params;
        l.param_modules = 1; // weight and bias
        l.param_tensors = 2;
        break;
    case LayerSpec::Kind::Activation:
        l.fwd_s = fused_after ? 0.0 : c.memoryTime(2.0 * out * e);
        l.bwd_s = fused_after ? 0.0 : c.memoryTime(3.0 * out * e);
        // torchvision's CNNs run nn.ReLU(inplace=True): autograd keeps the output, at the
        // activation width, and the next convolution saves that same tensor as its input
        // (PyTorch autograd docs, "In-place operations"; torchvision models/resnet.py).
        l.activation_bytes = out * e;
        if (fused_after)
            l.kernels_fwd = 0;
        break;
    case LayerSpec::Kind::Pool:
        l.fwd_s = c.memoryTime((in + out) * e);
        l.bwd_s = c.memoryTime((in + out) * e);
        l.fwd_flops = ls.forward_flops * b;
        l.bwd_flops = l.fwd_flops;
        break;
    case LayerSpec::Kind::Add:
        // Forward adds the branches; backward sums the two gradients where the residual
        // forked (autograd accumulation): read two, write one, both ways.
        l.fwd_s = c.memoryTime((fused_after ? 1.0 : 3.0) * out * e);
        l.bwd_s = c.memoryTime(3.0 * out * e);
        l.activation_bytes = 0;
        break;
    case LayerSpec::Kind::Other:
        l.fwd_s = c.memoryTime(2.0 * out * e);
        l.bwd_s = c.memoryTime(3.0 * out * e);
        l.params = ls.params;
        l.param_modules = ls.params > 0 ? 1 : 0;
        l.param_tensors = l.param_modules;
        l.fwd_flops = ls.forward_flops * b;
        l.bwd_flops = 2.0 * l.fwd_flops;
        break;
    }
    if (plan.recompute == Recompute::Full) {
        l.recompute_s = l.fwd_s;
        l.recompute_flops = l.fwd_flops;
        l.activation_bytes *= 0.25; // checkpoints at block boundaries (Chen et al. 2016)
    }
    return l;
}

} // namespace

namespace
{

/// Parameters of layer `i`, all of them or those one token passes through (`active`).
double layerParams(const TransformerSpec &ts, int64_t i, bool active)
{
    Plan one; // one GPU, no parallelism
    const double h = static_cast<double>(ts.hidden);
    const AttentionShape as = attentionShape(ts, one, 1.0);
    const double mats = ts.gated_mlp ? 3.0 : 2.0;
    double p = as.params + 4.0 * h;
    if (ts.isMoeLayer(i)) {
        const MoeSpec &m = ts.moe;
        const double fe = static_cast<double>(m.expert_ffn_hidden);
        const double routed = static_cast<double>(active ? m.top_k : m.experts);
        p += (routed + static_cast<double>(m.shared_experts)) * mats * h * fe +
             h * static_cast<double>(m.experts);
    } else {
        const double f = static_cast<double>(ts.ffn());
        p += mats * h * f;
        if (!ts.gated_mlp)
            p += h + f + h;
    }
    return p;
}

/// Forward FLOPs of layer `i` per sample: 2 x the active parameters' products per token
/// (Kaplan et al. 2020, Sec. 2.1: C_forward = 2N + 2 n_layer n_ctx d_attn) plus attention
/// scores and values over the keys each query sees.
double layerForwardFlops(const TransformerSpec &ts, int64_t i)
{
    Plan one;
    const double s = static_cast<double>(ts.seq_len);
    const double h = static_cast<double>(ts.hidden);
    const AttentionShape as = attentionShape(ts, one, 1.0);
    // Weight elements each token multiplies (biases and norms are not products).
    double matrices = as.out.n * as.out.k;
    for (const Gemm &g : as.in)
        matrices += g.n * g.k;
    const double mats = ts.gated_mlp ? 3.0 : 2.0;
    if (ts.isMoeLayer(i)) {
        const MoeSpec &m = ts.moe;
        matrices += static_cast<double>(m.top_k + m.shared_experts) * mats * h *
                        static_cast<double>(m.expert_ffn_hidden) +
                    h * static_cast<double>(m.experts); // the router
    } else {
        matrices += mats * h * static_cast<double>(ts.ffn());
    }
    const bool windowed = ts.isWindowed(i) && static_cast<double>(ts.sliding_window) < s;
    const double keys = windowed ? static_cast<double>(ts.sliding_window) : s;
    return 2.0 * s * matrices + 2.0 * s * keys * as.heads * (as.dq + as.dv);
}

} // namespace

double transformerForwardFlops(const TransformerSpec &ts)
{
    double flops = 0;
    for (int64_t i = 0; i < ts.layers; ++i)
        flops += layerForwardFlops(ts, i);
    const double s = static_cast<double>(ts.seq_len);
    const double h = static_cast<double>(ts.hidden);
    const double logits = 2.0 * s * h * static_cast<double>(ts.headOutputs());
    // Each MTP module: a projection of [h; embedding] to h, one more layer and the shared
    // output head (DeepSeek-V3 report, Sec. 2.2, Eq. 21-23).
    const double mtp = static_cast<double>(ts.mtp_depth) *
                       (layerForwardFlops(ts, ts.layers - 1) + 2.0 * s * 2.0 * h * h + logits);
    return flops + logits + mtp;
}

namespace
{

/// The input embedding and the output layer's matrix: tied, one vocabulary x hidden matrix;
/// untied, two; a span head has its own hidden x 2 weights and bias instead.
double embeddingAndHeadParams(const TransformerSpec &ts)
{
    const double h = static_cast<double>(ts.hidden), v = static_cast<double>(ts.vocab);
    if (ts.head == OutputHead::Span)
        return v * h + 2.0 * h + 2.0;
    return v * h * (ts.tied_embeddings ? 1.0 : 2.0);
}

} // namespace

double transformerParams(const TransformerSpec &ts)
{
    double p = 0;
    for (int64_t i = 0; i < ts.layers; ++i)
        p += layerParams(ts, i, false);
    const double h = static_cast<double>(ts.hidden);
    const double embed = embeddingAndHeadParams(ts);
    const double mtp = static_cast<double>(ts.mtp_depth) *
                       (layerParams(ts, ts.layers - 1, false) + 2.0 * h * h + 2.0 * h);
    return p + embed + 2.0 * h + mtp;
}

double transformerActiveParams(const TransformerSpec &ts)
{
    double p = 0;
    for (int64_t i = 0; i < ts.layers; ++i)
        p += layerParams(ts, i, true);
    const double h = static_cast<double>(ts.hidden);
    const double embed = embeddingAndHeadParams(ts);
    return p + embed + 2.0 * h;
}

namespace
{
/// Activation offloading (plan.offload_layers; Megatron-Core --cpu-offloading-num-layers,
/// which runs Transformer Engine's CPU offload context, transformer_engine/pytorch/
/// cpu_offload.py): the first n blocks copy what they keep for the backward to pinned host
/// memory on a side stream after their forward and copy it back before their backward. The
/// copies run beside the next layer's compute (its double buffer holds two layers' worth on
/// the GPU); what a copy takes beyond that layer's compute is exposed.
void offloadActivations(WorkloadCost &w, const Plan &plan)
{
    if (plan.offload_layers <= 0 || plan.host_link_bytes_per_s <= 0)
        return;
    const int n = static_cast<int>(std::min<int64_t>(plan.offload_layers, w.block_count - 1));
    for (int k = 0; k < n; ++k) {
        LayerCost &l = w.layers[static_cast<size_t>(w.first_block + k)];
        const LayerCost &next = w.layers[static_cast<size_t>(w.first_block + k + 1)];
        const double copy_s = l.activation_bytes / plan.host_link_bytes_per_s;
        l.fwd_s += std::max(0.0, copy_s - next.fwd_s);
        l.bwd_s += std::max(0.0, copy_s - next.bwd_s);
        l.offloaded_bytes = l.activation_bytes;
        l.transient_bytes = std::max(l.transient_bytes, 2.0 * l.activation_bytes);
        l.activation_bytes = 0;
    }
}
} // namespace

WorkloadCost buildWorkloadCost(const ModelSpec &model, const Plan &plan,
                               const ComputeModel &compute, bool flash_attention)
{
    WorkloadCost w;
    const double e = activationBytes(plan.precision);
    const double b = static_cast<double>(plan.micro_batch);
    switch (model.kind) {
    case ModelSpec::Kind::Transformer: {
        const TransformerSpec &ts = model.transformer;
        w.layers.push_back(transformerEmbedding(ts, plan, compute));
        w.first_block = 1;
        w.block_count = static_cast<int>(ts.layers);
        // Layers differ by their MLP (dense or experts) and attention (full or windowed):
        // each kind is costed once.
        LayerCost kinds[2][2];
        bool made[2][2] = {{false, false}, {false, false}};
        for (int64_t i = 0; i < ts.layers; ++i) {
            const int moe = ts.isMoeLayer(i) ? 1 : 0, windowed = ts.isWindowed(i) ? 1 : 0;
            if (!made[moe][windowed]) {
                kinds[moe][windowed] = transformerBlock(ts, plan, compute, flash_attention, i);
                made[moe][windowed] = true;
            }
            w.layers.push_back(kinds[moe][windowed]);
        }
        w.layers.push_back(transformerHead(ts, plan, compute));
        for (int64_t d = 0; d < ts.mtp_depth; ++d) {
            // Multi-token prediction on the last stage (Megatron-Core places the MTP modules
            // with the output layer): one more layer of the model's last kind, a 2h x h
            // projection, and another pass through the shared output head.
            LayerCost mtp = transformerBlock(ts, plan, compute, flash_attention, ts.layers - 1);
            const double Tm = static_cast<double>(plan.micro_batch * ts.seq_len) / plan.context;
            const double hh = static_cast<double>(ts.hidden);
            const Gemm proj{Tm, hh / plan.tensor, 2.0 * hh, 1};
            mtp.fwd_s += forwardTime(compute, proj);
            mtp.bwd_s += backwardTime(compute, proj);
            mtp.fwd_flops += proj.flops();
            mtp.params += 2.0 * hh * hh / plan.tensor;
            mtp.name = "mtp";
            w.layers.push_back(mtp);
            LayerCost head = transformerHead(ts, plan, compute);
            head.params = 0; // the main output head's weights
            head.name = "mtp head";
            w.layers.push_back(head);
        }
        w.counts_embedding = plan.pipeline_counts_embedding;
        w.counts_loss = plan.pipeline_counts_loss;
        // Model FLOPs: forward + backward = 3x forward (Korthikanti et al. 2022, Eq. 7).
        w.model_flops_per_sample = 3.0 * transformerForwardFlops(ts);
        w.total_params = transformerParams(ts);
        w.tokens_per_sample = static_cast<double>(ts.seq_len);
        // Pipeline send: b*s*h activations; split across TP ranks with the scatter-gather
        // optimisation or sequence parallelism (SC21 Sec. 4.1), and across the context group.
        w.p2p_bytes =
            b * static_cast<double>(ts.seq_len * ts.hidden) * e / (plan.tensor * plan.context);
        w.input_bytes_per_sample = static_cast<double>(ts.seq_len) * 4.0; // token ids
        break;
    }
    case ModelSpec::Kind::LayerTable: {
        // Model FLOPs: what training the model needs, forward and backward (Chowdhery et al.
        // 2022, PaLM, App. B): 3 x forward, except that the first layer has no input
        // gradient to compute (tableLayer skips it), so its backward is the weight gradient
        // alone. Counted as 3 x, MFU exceeded 1 at high GEMM efficiency.
        double model_flops = 0;
        for (size_t i = 0; i < model.table.size(); ++i) {
            const LayerSpec &ls = model.table[i];
            w.layers.push_back(
                tableLayer(ls, plan, compute, i == 0, i > 0 ? &model.table[i - 1] : nullptr));
            const bool gemm = ls.kind == LayerSpec::Kind::Conv || ls.kind == LayerSpec::Kind::Fc;
            model_flops += (i == 0 && gemm ? 2.0 : 3.0) * ls.forward_flops;
            w.total_params += ls.params;
        }
        w.block_count = static_cast<int>(w.layers.size());
        w.model_flops_per_sample = model_flops;
        // The largest activation crossing a stage boundary bounds the pipeline send.
        double largest = 0;
        for (const LayerSpec &ls : model.table)
            largest = std::max(largest, ls.output_elements);
        w.p2p_bytes = largest * b * e;
        w.input_bytes_per_sample = static_cast<double>(model.input_elements_per_sample);
        break;
    }
    case ModelSpec::Kind::Custom: {
        const CustomSpec &cs = model.custom;
        const double layers = static_cast<double>(std::max<int64_t>(1, cs.layers));
        // Each layer as one square GEMM with 512 rows per sample that does the layer's
        // FLOPs (an assumption: custom models give totals, not shapes), plus reading and
        // writing the layer's share of the activations.
        const double flops = cs.forward_flops_per_sample / layers * b;
        const double rows = 512.0 * b;
        const double side = std::sqrt(std::max(1.0, flops / (2.0 * rows)));
        const double act = cs.activation_bytes_per_sample / layers * b;
        LayerCost l;
        l.name = "layer";
        l.fwd_s = compute.gemmTime(rows, side, side) + compute.memoryTime(2.0 * act);
        l.bwd_s = compute.gemmTime(rows, side, side) + compute.gemmTime(side, side, rows) +
                  compute.memoryTime(3.0 * act);
        // The backward's second GEMM (K = rows) is the weight gradient (Qi et al., ICLR
        // 2024, Sec. 2: W), what zero-bubble schedules defer.
        l.wgrad_s = compute.gemmTime(side, side, rows) / plan.tensor;
        l.fwd_flops = flops / plan.tensor;
        l.bwd_flops = 2.0 * l.fwd_flops;
        l.fwd_s /= plan.tensor;
        l.bwd_s /= plan.tensor;
        l.params = cs.params / layers / plan.tensor;
        l.param_modules = 1; // the one square GEMM above, a weight and a bias
        l.param_tensors = 2;
        l.activation_bytes = act / plan.tensor;
        l.kernels_fwd = plan.host.layer_ops_forward;
        if (plan.recompute == Recompute::Full) {
            l.recompute_s = l.fwd_s;
            l.recompute_flops = l.fwd_flops;
            l.activation_bytes *= 0.1;
        }
        if (plan.tensor > 1) {
            l.tp_fwd_ops = 1;
            l.tp_bwd_ops = 1;
            l.tp_bytes = act;
        }
        w.layers.assign(static_cast<size_t>(layers), l);
        w.block_count = static_cast<int>(layers);
        w.model_flops_per_sample = 3.0 * cs.forward_flops_per_sample;
        w.total_params = cs.params;
        w.p2p_bytes = act;
        w.input_bytes_per_sample = 0;
        break;
    }
    }
    // The host issues operations one after another (the stack's time per operation:
    // Python, dispatch and launch; Daydream, ATC'20; PyTorch "Accelerating PyTorch with CUDA
    // Graphs", 2021). The GPU runs ahead while kernels are long (launches are asynchronous);
    // when they are short a layer takes as long as issuing its operations: max-plus of the
    // host and GPU streams. Autograd issues backward_ops_ratio operations per forward one. A
    // step replayed as a CUDA graph issues nothing per operation.
    const double host = plan.host.cuda_graphs ? 0.0 : plan.host.op_s;
    const double moe_host = plan.host.cuda_graphs ? 0.0 : plan.host.moe_op_s;
    const double bwd_ratio = plan.host.backward_ops_ratio;
    double recompute = 0;
    for (LayerCost &l : w.layers) {
        const double issue = l.kernels_fwd * host + l.moe_kernels_fwd * moe_host;
        const double gpu = l.fwd_s + l.bwd_s + l.recompute_s;
        l.fwd_s = std::max(l.fwd_s, issue);
        l.bwd_s = std::max(l.bwd_s, bwd_ratio * issue);
        if (l.recompute_s > 0) {
            // Full recompute reissues the forward; selective the four attention-core
            // kernels (two batched GEMMs, softmax, dropout).
            const double reissue = plan.recompute == Recompute::Full ? issue : 4.0 * host;
            l.recompute_s = std::max(l.recompute_s, reissue);
        }
        w.host_excess_per_micro_batch_s += l.fwd_s + l.bwd_s + l.recompute_s - gpu;
        recompute += l.recompute_flops;
    }
    offloadActivations(w, plan);
    for (const LayerCost &l : w.layers)
        w.compute_per_micro_batch_s += l.fwd_s + l.bwd_s + l.recompute_s;
    w.recompute_flops_per_sample = recompute * plan.tensor * plan.context / b;
    w.unsharded_fp32_grads =
        compute.stack().pipeline_unsharded_grads && plan.pipeline > 1 && plan.zero >= 2;
    return w;
}

} // namespace scalescope
