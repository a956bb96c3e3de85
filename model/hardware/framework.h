// The software stack that runs a training job (spec/scenario.md, training.framework): how
// fast its host issues work, what it overlaps, what it defaults and which plans it runs.
// Entries come from resources/catalogs/frameworks.json, each with its sources.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace scalescope
{

/// How FP8 tensors get their scales (training.fp8_recipe): the stack's own recipe unless set
/// (Transformer Engine's delayed scaling, torchao's tensorwise dynamic scaling); Transformer
/// Engine's current scaling; torchao's rowwise scaling (layers/layer_cost.cpp, fp8CastBytes).
enum class Fp8Scaling { Stack, Delayed, Current, Tensorwise, Rowwise };
/// "delayed", "current", "tensorwise", "rowwise" ("" for Stack).
const char *fp8ScalingName(Fp8Scaling s);

struct FrameworkSpec {
    std::string id;   // catalog id ("pytorch-ddp", ...)
    std::string name; // display name
    std::string source;

    // Host: the framework issues operations one after another (Python, dispatcher, kernel
    // launch); the GPU runs ahead while its kernels are longer than that (Daydream, ATC'20).
    double host_op_us = 10;              // host time to issue one operation
    /// Host time per operation of a mixture-of-experts layer's routing path (router, token
    /// dispatch and combine, the experts' per-GEMM launches) where the stack runs it as
    /// Python-level PyTorch operations rather than fused modules; < 0: host_op_us.
    double host_moe_op_us = -1;
    double moeOpUs() const { return host_moe_op_us >= 0 ? host_moe_op_us : host_op_us; }
    double block_ops_forward = 13;       // operations per transformer block, forward
    double block_ops_forward_fused = 10; // the same with fused (flash) attention
    double backward_ops_ratio = 2;       // backward operations per forward operation
    double layer_ops_forward = 2;        // operations per layer of a custom model, forward
    bool cuda_graphs = false;            // the step is replayed as a CUDA graph (host cost ~0)

    // Defaults where a scenario is silent (explicit scenario keys override them).
    bool grad_overlap = true;     // parallel.overlap
    double bucket_mb = 25;        // parallel.bucket_mb
    bool fused_attention = false; // training.flash_attention

    // Communication that the stack overlaps with compute.
    bool tp_overlap = false; // tensor-parallel collectives pipelined with the GEMMs
    /// ...in the backward pass too (Transformer Engine userbuffers overlap dgrad and wgrad);
    /// false: the forward pass only, the backward's collectives (and the recomputed
    /// forward's, run inside it) stay exposed (torchtitan's async TP, Inductor's
    /// micro-pipelined forward patterns).
    bool tp_overlap_backward = true;
    /// ZeRO-3 / FSDP: the next unit's parameters are gathered while this one computes
    /// (FSDP backward prefetch, FSDP2 implicit prefetch); false: gathered on demand, the
    /// compute waits for each gather (DeepSpeed ZeRO-3 as the 2021 runs measured it).
    bool zero3_prefetch = true;
    /// How many all-gathers ZeRO-3 issues for a unit of layers. Each one pays the ring's
    /// latency, (ranks - 1) hops (NCCL's all-gather is a ring), so at hundreds of ranks their
    /// number matters, not only their bytes:
    ///  - Unit: one per wrapped unit (FSDP's FlatParameter per wrapped block, Zhao et al.
    ///    VLDB'23 Sec. 3.2; FSDP2's per-module all-gather of the block's DTensor shards);
    ///  - Module: one per submodule that holds parameters (DeepSpeed's
    ///    PartitionedParameterCoordinator.fetch_sub_module gathers a leaf module's
    ///    parameters in one coalesced all-gather);
    ///  - Parameter: one per parameter tensor (DeepSpeed's ZeRO-3 of 2021,
    ///    partition_parameters.py _allgather_param: one dist.all_gather per parameter).
    enum class Zero3Gather { Unit, Module, Parameter };
    Zero3Gather zero3_gather = Zero3Gather::Unit;
    /// Bytes per gradient element reduced across data-parallel ranks; 0: the model's rule
    /// (16-bit for fp16 transformers, else fp32, analysis/memory.h).
    double grad_reduce_bytes = 0;

    // Kernels the stack runs (frameworks.json "kernels"; layers/layer_cost.cpp).
    /// Fused attention kernel: FlashAttention-2 (PyTorch SDPA's flash backend) or cuDNN's
    /// fused attention (Transformer Engine), whose Hopper/Blackwell kernels use the newer
    /// tensor-core instructions.
    enum class AttentionKernel { FlashAttention2, Cudnn };
    AttentionKernel attention_kernel = AttentionKernel::FlashAttention2;
    /// Norms, rotary embedding and gated activations as fused kernels (Apex, Transformer
    /// Engine); false: eager PyTorch modules, one kernel per elementwise operation.
    bool fused_elementwise = false;
    /// CNN batch norm: eager (batch norm, ReLU and the residual add as separate kernels, as
    /// PyTorch's torchvision models run them) or fused with its activation and side input
    /// (TensorFlow's Grappler remapper: FusedBatchNorm + SideInput + Relu ->
    /// _FusedBatchNormEx, one cuDNN kernel in 16-bit NHWC; layers/layer_cost.cpp).
    bool fused_batch_norm = false;
    /// FP8 recipe: Transformer Engine (casts fused into the norms, delayed scaling, cached
    /// weight casts) or torchao float8 (dynamic tensorwise scaling: amax and cast kernels per
    /// tensor).
    enum class Fp8Recipe { TransformerEngine, Torchao };
    Fp8Recipe fp8_recipe = Fp8Recipe::TransformerEngine;
    /// training.recompute = selective: Korthikanti's (the attention core) or per-operation
    /// (torchtitan's op-level policy: every other matmul output and the attention output
    /// kept, the rest recomputed).
    bool selective_per_op = false;
    /// With pipeline parallelism and sharded gradients (ZeRO-2/3), gradients accumulate
    /// unsharded in fp32 over a step's micro-batches and are reduce-scattered after the
    /// last (torch.distributed.pipelining: stage.backward_maybe_with_nosync sets
    /// requires_gradient_sync and reshard_after_backward only for the last backward).
    bool pipeline_unsharded_grads = false;
    /// Tensor parallelism as DTensor runs it (torch.distributed.tensor.parallel, torchtitan):
    /// a column-parallel linear saves its all-gathered (full-sequence) input for the weight
    /// gradient, and loss_parallel's log-softmax is decomposed into separate fp32 tensors
    /// (torch/distributed/tensor/parallel/loss.py _log_softmax). false: Megatron's layers,
    /// which keep the sequence-parallel shard and gather it again in backward, and its
    /// vocab-parallel cross-entropy, which keeps only the softmax for backward.
    bool dtensor_tensor_parallel = false;
    /// Where an MoE layer multiplies the routing weights: at the combine (the experts'
    /// outputs are kept for the weights' gradient: GShard's and DeepSpeed-MoE's combine
    /// einsum) or inside the experts' activation (Megatron-Core experts.py
    /// activation_func_with_probs: the combine is a plain sum, nothing more is kept).
    bool moe_probs_in_activation = false;
    /// The language-model loss over the vocabulary (layers/layer_cost.cpp transformerHead).
    /// PyTorch: F.cross_entropy on the logits cast to fp32 (log-softmax reads a long row three
    /// times and writes it; its backward zero-fills, reads twice and writes), as torchtitan
    /// and Hugging Face models compute it. Megatron: Megatron-LM's _VocabParallelCrossEntropy
    /// (megatron/core/tensor_parallel/cross_entropy.py), separate fp32 passes for the max,
    /// the shift, exp, the sum and the normalisation. Fused: a fused kernel (Megatron-Core's
    /// cross_entropy_loss_fusion, TensorFlow's SparseSoftmaxCrossEntropyWithLogits).
    enum class CrossEntropy { PyTorch, Megatron, Fused };
    CrossEntropy cross_entropy = CrossEntropy::PyTorch;
    /// Context parallelism as torch.distributed.tensor.experimental.context_parallel runs it
    /// (torchtitan, Dec 2024) instead of Megatron-Core's point-to-point ring: the keys and
    /// values repeated to the query heads' width before attention, all-gathered once per
    /// attention call (rotate method "allgather"), their gradients passed around the ring in
    /// fp32, and every block's output merged in fp32 (_templated_ring_attention, _SDPAMerger).
    bool dtensor_context_parallel = false;

    // Plans it can run.
    bool tensor_parallel = false;
    bool pipeline_parallel = false;
    int max_zero = 0;               // highest ZeRO stage (3 = full sharding / FSDP)
    int max_zero_with_pipeline = 0; // highest ZeRO stage together with pipeline parallelism
    bool async_update = false;      // asynchronous (stale-gradient) updates
    bool context_parallel = false;  // parallel.context > 1
    bool expert_parallel = false;   // parallel.expert > 1
    /// Full sharding (ZeRO-3) as FSDP does it: each rank's shard of the parameters stays in
    /// fp32 and the optimizer steps it in place, the 16-bit weights exist only gathered for
    /// compute (PyTorch FSDP2 MixedPrecisionPolicy: param_dtype is the dtype of the unsharded
    /// copy, the sharded parameters keep their original dtype; FSDP1's MixedPrecision alike,
    /// Zhao et al., VLDB 2023, Sec. 4.4). DeepSpeed's and Megatron's ZeRO-3 keep 16-bit
    /// shards beside an fp32 master copy in the optimizer: 2 + 12 bytes where FSDP has 4 + 8.
    bool fp32_param_shards = false;

    bool operator==(const FrameworkSpec &) const = default;
};

/// The scenario's default: the stack is chosen from the plan (plan/framework_rules.h).
inline constexpr const char *kFrameworkAuto = "auto";

/// The stacks a scenario can name (the catalog's frameworks), shared by every copy of the
/// scenario. It is input, like the GPU's catalog entry: which stack runs a plan is derived
/// from it by stackOf() (plan/framework_rules.h) each time a plan is made, never stored.
struct StackTable {
    std::shared_ptr<const std::vector<FrameworkSpec>> entries;

    const FrameworkSpec *find(const std::string &id) const
    {
        if (entries)
            for (const FrameworkSpec &f : *entries)
                if (f.id == id)
                    return &f;
        return nullptr;
    }
    bool empty() const { return !entries || entries->empty(); }
    bool operator==(const StackTable &o) const
    {
        if (entries == o.entries || (empty() && o.empty()))
            return true;
        return entries && o.entries && *entries == *o.entries;
    }
};

} // namespace scalescope
