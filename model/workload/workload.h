// Workload (model) specifications: transformer dimensions, per-layer CNN tables, custom.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scalescope
{

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

    int64_t ffn() const { return ffn_hidden > 0 ? ffn_hidden : 4 * hidden; }
    int64_t kvHeads() const { return kv_heads > 0 ? kv_heads : heads; }

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
