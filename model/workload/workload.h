// Workload (model) specifications: transformer dimensions, per-layer CNN tables, custom.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace scalescope
{

/// Mixture of experts (model.transformer.moe, spec/scenario.md): routed experts replace the
/// MLP of every `every`-th layer after `dense_layers` leading dense ones (Switch Transformer,
/// Fedus et al. 2022; GShard, Lepikhin et al. 2021; DeepSeekMoE, Dai et al. 2024: shared
/// experts beside the routed ones).
struct MoeSpec {
    int64_t experts = 0; // routed experts per MoE layer; 0 = a dense model
    int64_t top_k = 1;   // experts each token is sent to
    int64_t expert_ffn_hidden = 0;
    int64_t shared_experts = 0; // always-active experts of expert_ffn_hidden each
    int64_t dense_layers = 0;   // leading layers with a dense MLP of ffn_hidden
    int64_t every = 1;          // an MoE layer every `every` layers after those
    double capacity_factor = 0; // 0 = dropless
    /// Group-limited routing (DeepSeek-V2 report, Sec. 2.1.3 "device-limited routing";
    /// DeepSeek-V3 report, Sec. 2.1.2 "node-limited routing"; config.json n_group /
    /// topk_group; Megatron-Core --moe-router-num-groups / --moe-router-group-topk): the
    /// experts form `router_groups` equal groups, a token first picks
    /// `router_group_top_k` groups and then its top_k experts inside them. 0 = no groups.
    int64_t router_groups = 0;
    int64_t router_group_top_k = 0;
    bool enabled() const { return experts > 0; }
    bool groupLimited() const { return router_groups > 1 && router_group_top_k < router_groups; }

    bool operator==(const MoeSpec &) const = default;
};

/// Multi-head latent attention (DeepSeek-V2, Sec. 2.1; DeepSeek-V3 report, Sec. 2.1.1): keys
/// and values from a compressed latent of kv_lora_rank, queries from one of q_lora_rank;
/// each head's query/key is qk_nope_head_dim + qk_rope_head_dim wide, its value v_head_dim.
struct MlaSpec {
    int64_t q_lora_rank = 0;
    int64_t kv_lora_rank = 0; // 0 = ordinary multi-head attention
    int64_t qk_nope_head_dim = 0;
    int64_t qk_rope_head_dim = 0;
    int64_t v_head_dim = 0;
    bool enabled() const { return kv_lora_rank > 0; }

    bool operator==(const MlaSpec &) const = default;
};

/// What the last layer predicts (model.transformer.head): logits over the vocabulary for
/// every token (language modelling, pre-training), or a start and an end logit per token
/// (extractive question answering: BERT on SQuAD, Devlin et al. 2019, Sec. 4.2).
enum class OutputHead { LanguageModel, Span };
/// "lm", "span".
inline const char *outputHeadName(OutputHead h)
{
    return h == OutputHead::Span ? "span" : "lm";
}

struct TransformerSpec {
    int64_t layers = 0;
    int64_t hidden = 0;
    int64_t heads = 0;
    int64_t seq_len = 0;
    int64_t vocab = 0;
    int64_t ffn_hidden = 0; // 0 = 4 * hidden
    int64_t kv_heads = 0;   // 0 = heads
    bool gated_mlp = false; // SwiGLU (three FFN matrices), as in LLaMA
    bool tied_embeddings = true;
    /// Causal (decoder) self-attention: fused kernels skip the masked half of the scores
    /// (FlashAttention-2, Sec. 3.1.1); false for encoders such as BERT.
    bool causal = true;
    /// QK-norm: an RMSNorm over each head's query and key before attention (Qwen3 Technical
    /// Report, Sec. 2; Dehghani et al. 2023, Sec. 3.1); not with multi-head latent attention.
    bool qk_norm = false;
    int64_t head_dim = 0; // 0 = hidden / heads
    MoeSpec moe;
    MlaSpec mla;
    /// Sliding-window attention (GPT-OSS: every other layer attends to the last
    /// `sliding_window` tokens, OpenAI gpt-oss model card, Sec. 2): the window, and every how
    /// many layers one is windowed (2 = alternating); 0 = none.
    int64_t sliding_window = 0;
    int64_t sliding_every = 0;
    /// Clamped gated activation (GPT-OSS: both halves of the gated MLP's input clamped to
    /// +-7 before SwiGLU, the gate only from above; OpenAI gpt-oss reference implementation,
    /// swiglu(x, alpha=1.702, limit=7.0)): the limit, 0 = no clamp.
    double glu_clamp = 0;
    /// Multi-token-prediction modules trained with the model (DeepSeek-V3 report, Sec.
    /// 2.2): each one more transformer layer and a pass through the shared output head.
    int64_t mtp_depth = 0;
    OutputHead head = OutputHead::LanguageModel;

    /// Logits per token of the output layer: the vocabulary, or 2 for a span head.
    int64_t headOutputs() const { return head == OutputHead::Span ? 2 : vocab; }
    int64_t ffn() const { return ffn_hidden > 0 ? ffn_hidden : 4 * hidden; }
    int64_t kvHeads() const { return kv_heads > 0 ? kv_heads : heads; }
    int64_t headDim() const { return head_dim > 0 ? head_dim : hidden / heads; }
    /// Whether layer `i` (0-based) has routed experts instead of a dense MLP.
    bool isMoeLayer(int64_t i) const
    {
        return moe.enabled() && i >= moe.dense_layers &&
               (i - moe.dense_layers) % std::max<int64_t>(1, moe.every) == 0;
    }
    int64_t moeLayers() const
    {
        if (!moe.enabled() || layers <= moe.dense_layers)
            return 0;
        const int64_t every = std::max<int64_t>(1, moe.every);
        return (layers - moe.dense_layers + every - 1) / every;
    }
    /// Whether layer `i` attends within a sliding window.
    bool isWindowed(int64_t i) const
    {
        return sliding_window > 0 && sliding_every > 0 && i % sliding_every == 0;
    }

    bool operator==(const TransformerSpec &) const = default;
};

/// One layer of a per-layer table (CNNs). FLOPs count a multiply-add as 2.
struct LayerSpec {
    enum class Kind : uint8_t { Conv, Fc, Norm, Activation, Pool, Add, Other };
    std::string name;
    Kind kind = Kind::Other;
    double forward_flops = 0;   // per sample
    double params = 0;          // parameter count
    double output_elements = 0; // activation elements produced per sample
    double input_elements = 0;  // activation elements read per sample
    // Implicit-GEMM shape of a convolution / fully connected layer, per sample:
    // M = output pixels, N = output channels, K = input channels * kernel area.
    double gemm_m = 0, gemm_n = 0, gemm_k = 0;

    bool operator==(const LayerSpec &) const = default;
};

struct CustomSpec {
    double params = 0;
    double forward_flops_per_sample = 0;
    double activation_bytes_per_sample = 0;
    int64_t layers = 1;

    bool operator==(const CustomSpec &) const = default;
};

struct ModelSpec {
    enum class Kind { Transformer, LayerTable, Custom };
    Kind kind = Kind::Transformer;
    std::string id;   // catalog id, empty for inline models
    std::string name; // display name
    TransformerSpec transformer;
    std::vector<LayerSpec> table; // LayerTable
    CustomSpec custom;
    int64_t input_elements_per_sample = 0; // for data loading (pixels x channels)
    std::string source;

    bool operator==(const ModelSpec &) const = default;
};

} // namespace scalescope
