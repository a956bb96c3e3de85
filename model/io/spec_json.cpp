#include "io/spec_json.h"

#include "io/input_ranges.h"

#include <QString>

#include <array>

namespace scalescope::json
{

namespace
{

constexpr std::array kPrecisions = {Precision::FP32, Precision::TF32, Precision::FP16,
                                    Precision::BF16, Precision::FP8};
constexpr std::array kFamilies = {GpuFamily::Pascal,      GpuFamily::Volta,  GpuFamily::Ampere,
                                  GpuFamily::AdaLovelace, GpuFamily::Hopper, GpuFamily::Blackwell,
                                  GpuFamily::CDNA3};
constexpr std::array kIntraKinds = {LinkKind::PCIe, LinkKind::NVLinkSwitched,
                                    LinkKind::NVLinkBridge, LinkKind::Custom};
constexpr std::array kInterKinds = {LinkKind::Ethernet, LinkKind::RoCE, LinkKind::InfiniBand,
                                    LinkKind::Custom};
constexpr std::array kLayerKinds = {
    LayerSpec::Kind::Conv, LayerSpec::Kind::Fc,  LayerSpec::Kind::Norm, LayerSpec::Kind::Activation,
    LayerSpec::Kind::Pool, LayerSpec::Kind::Add, LayerSpec::Kind::Other};

// Deepest published models have ~200 blocks (CNN tables ~350 rows); the summary path
// (<= 0.5 ms) and the engine are sized for a few thousand.
constexpr int64_t kMaxModelLayers = 2000;
constexpr double kMaxElements = 1e12;

const char *crossEntropyName(FrameworkSpec::CrossEntropy ce)
{
    switch (ce) {
    case FrameworkSpec::CrossEntropy::Megatron:
        return "megatron";
    case FrameworkSpec::CrossEntropy::Fused:
        return "fused";
    case FrameworkSpec::CrossEntropy::PyTorch:
        break;
    }
    return "pytorch";
}

const char *layerKindName(LayerSpec::Kind kind)
{
    switch (kind) {
    case LayerSpec::Kind::Conv:
        return "conv";
    case LayerSpec::Kind::Fc:
        return "fc";
    case LayerSpec::Kind::Norm:
        return "norm";
    case LayerSpec::Kind::Activation:
        return "activation";
    case LayerSpec::Kind::Pool:
        return "pool";
    case LayerSpec::Kind::Add:
        return "add";
    case LayerSpec::Kind::Other:
        break;
    }
    return "other";
}

// The kind an inline link without "kind" gets (spec/scenario.md leaves it implicit): its
// physics comes from the fields it declares, never from its display name ("Ethernet 1G" and
// "1GbE" with the same figures are the same link). Inside a node: an unswitched link joins
// two cards (a bridge); a switched one is PCIe unless it declares an NVSwitch generation or
// a bandwidth no PCIe x16 link reaches (PCIe 5.0 x16: 63 GB/s per direction, PCI-SIG).
// Between nodes the name says nothing about the transport: a generic RDMA-class network
// (comm/collective.cpp); a TCP network declares "kind": "ethernet".
constexpr double kPcieX16MaxGbps = 64;
LinkKind inferIntraKind(double bandwidth_gbps, bool switched, int nvswitch_gen)
{
    if (!switched)
        return LinkKind::NVLinkBridge;
    return nvswitch_gen > 0 || bandwidth_gbps > kPcieX16MaxGbps ? LinkKind::NVLinkSwitched
                                                                : LinkKind::PCIe;
}

LinkKind inferInterKind()
{
    return LinkKind::Custom;
}

const char *defaultModelName(ModelSpec::Kind kind)
{
    switch (kind) {
    case ModelSpec::Kind::Transformer:
        return "custom transformer";
    case ModelSpec::Kind::LayerTable:
        return "custom layer table";
    case ModelSpec::Kind::Custom:
        break;
    }
    return "custom model";
}

/// Checks the keys of an entry: a catalog entry has an "id" besides `keys`.
void allowEntryKeys(const ObjectReader &reader, Origin origin,
                    std::initializer_list<std::string_view> keys)
{
    std::vector<std::string_view> allowed;
    allowed.reserve(keys.size() + 1);
    if (origin == Origin::Catalog)
        allowed.push_back("id");
    for (std::string_view k : keys) // (insert() trips GCC 12's -Wstringop-overflow)
        allowed.push_back(k);
    reader.allowKeys(allowed);
}

std::string requiredNonEmpty(const ObjectReader &reader, std::string_view key)
{
    std::string text = reader.requiredString(key);
    if (text.empty())
        fail(reader.pathOf(key), "must not be empty");
    return text;
}

/// The id of a catalog entry ("" for inline objects).
std::string readId(const ObjectReader &reader, Origin origin)
{
    return origin == Origin::Catalog ? requiredNonEmpty(reader, "id") : std::string();
}

/// Every catalog entry cites its source; inline objects may.
std::string readSource(const ObjectReader &reader, Origin origin)
{
    return origin == Origin::Catalog ? requiredNonEmpty(reader, "source")
                                     : reader.optionalString("source", {});
}

void writeSource(OrderedObject &out, const std::string &source)
{
    if (!source.empty())
        out.add("source", QString::fromStdString(source));
}

MoeSpec readMoe(const ObjectReader &r, int64_t layers)
{
    r.allowKeys({"experts", "top_k", "expert_ffn_hidden", "shared_experts", "dense_layers", "every",
                 "capacity_factor", "router_groups", "router_group_top_k"});
    MoeSpec m;
    m.experts = r.requiredInt("experts", {1, 100000});
    m.top_k = r.requiredInt("top_k", {1, m.experts});
    m.expert_ffn_hidden = r.requiredInt("expert_ffn_hidden", {1, 10000000});
    m.shared_experts = r.optionalInt("shared_experts", {0, 1024}, 0);
    m.dense_layers = r.optionalInt("dense_layers", {0, layers - 1}, 0);
    m.every = r.optionalInt("every", {1, layers}, 1);
    m.capacity_factor = r.optionalDouble("capacity_factor", RealRange::zeroOr(1, 1024), 0);
    m.router_groups = r.optionalInt("router_groups", {0, m.experts}, 0);
    if (m.router_groups > 0 && m.experts % m.router_groups != 0)
        fail(r.pathOf("router_groups"), std::to_string(m.router_groups) + " does not divide the " +
                                            std::to_string(m.experts) +
                                            " experts into equal groups");
    if (m.router_groups == 0) {
        if (r.has("router_group_top_k"))
            fail(r.pathOf("router_group_top_k"), "needs router_groups (the number of groups)");
    } else {
        m.router_group_top_k =
            r.optionalInt("router_group_top_k", {1, m.router_groups}, m.router_groups);
        // The token's top_k experts must fit in the groups it picks.
        const int64_t reachable = m.router_group_top_k * (m.experts / m.router_groups);
        if (m.top_k > reachable)
            fail(r.pathOf("router_group_top_k"),
                 std::to_string(m.router_group_top_k) + " groups of " +
                     std::to_string(m.experts / m.router_groups) + " experts hold " +
                     std::to_string(reachable) + ", fewer than top_k " + std::to_string(m.top_k) +
                     "; allowed: " +
                     std::to_string((m.top_k + m.experts / m.router_groups - 1) /
                                    (m.experts / m.router_groups)) +
                     " to " + std::to_string(m.router_groups));
    }
    return m;
}

TransformerSpec readTransformer(const ObjectReader &reader)
{
    reader.allowKeys({"layers", "hidden", "heads", "seq_len", "vocab", "ffn_hidden", "kv_heads",
                      "gated_mlp", "tied_embeddings", "causal", "qk_norm", "head_dim", "moe", "mla",
                      "sliding_window", "sliding_every", "mtp_depth", "head", "glu_clamp"});
    TransformerSpec t;
    t.layers = reader.requiredInt("layers", {1, kMaxModelLayers});
    t.hidden = reader.requiredInt("hidden", {1, 1000000});
    t.heads = reader.requiredInt("heads", {1, t.hidden});
    if (t.hidden % t.heads != 0)
        fail(reader.pathOf("heads"), std::to_string(t.heads) +
                                         " does not divide hidden = " + std::to_string(t.hidden) +
                                         "; allowed: a divisor of hidden");
    t.seq_len = reader.requiredInt("seq_len", {1, 10000000});
    t.vocab = reader.requiredInt("vocab", {1, 100000000});
    t.ffn_hidden = reader.optionalInt("ffn_hidden", {1, 10000000}, 0);
    t.kv_heads = reader.optionalInt("kv_heads", {1, t.heads}, 0);
    if (t.kv_heads > 0 && t.heads % t.kv_heads != 0)
        fail(reader.pathOf("kv_heads"), std::to_string(t.kv_heads) +
                                            " does not divide heads = " + std::to_string(t.heads) +
                                            "; allowed: a divisor of heads");
    t.gated_mlp = reader.optionalBool("gated_mlp", false);
    t.tied_embeddings = reader.optionalBool("tied_embeddings", true);
    t.causal = reader.optionalBool("causal", true);
    t.qk_norm = reader.optionalBool("qk_norm", false);
    static constexpr std::array kHeads = {OutputHead::LanguageModel, OutputHead::Span};
    t.head =
        reader.optionalEnum<OutputHead>("head", kHeads, outputHeadName, OutputHead::LanguageModel);
    t.head_dim = reader.optionalInt("head_dim", {1, 1000000}, 0);
    if (auto moe = reader.optionalObject("moe"))
        t.moe = readMoe(*moe, t.layers);
    if (auto mla = reader.optionalObject("mla")) {
        mla->allowKeys({"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim",
                        "v_head_dim"});
        t.mla.q_lora_rank = mla->optionalInt("q_lora_rank", {0, 1000000}, 0);
        t.mla.kv_lora_rank = mla->requiredInt("kv_lora_rank", {1, 1000000});
        t.mla.qk_nope_head_dim = mla->requiredInt("qk_nope_head_dim", {1, 100000});
        t.mla.qk_rope_head_dim = mla->requiredInt("qk_rope_head_dim", {0, 100000});
        t.mla.v_head_dim = mla->requiredInt("v_head_dim", {1, 100000});
        if (t.qk_norm)
            fail(reader.pathOf("qk_norm"),
                 "true with mla; allowed: false (multi-head latent attention normalizes its "
                 "latents, not each head's query and key)");
    }
    t.sliding_window = reader.optionalInt("sliding_window", {0, 100000000}, 0);
    t.sliding_every = reader.optionalInt("sliding_every", {0, t.layers}, t.sliding_window > 0 ? 1 : 0);
    t.mtp_depth = reader.optionalInt("mtp_depth", {0, 8}, 0);
    t.glu_clamp = reader.optionalDouble("glu_clamp", RealRange::closed(0, 1e6), 0);
    if (t.glu_clamp > 0 && !t.gated_mlp)
        fail(reader.pathOf("glu_clamp"),
             json::formatNumber(t.glu_clamp) +
                 " without gated_mlp; allowed: 0 (a clamp applies to a gated activation's two "
                 "halves)");
    return t;
}

CustomSpec readCustom(const ObjectReader &reader)
{
    reader.allowKeys(
        {"params", "forward_flops_per_sample", "activation_bytes_per_sample", "layers"});
    CustomSpec c;
    c.params = reader.requiredDouble("params", RealRange::positive(1e16));
    c.forward_flops_per_sample =
        reader.requiredDouble("forward_flops_per_sample", RealRange::positive(1e20));
    c.activation_bytes_per_sample =
        reader.optionalDouble("activation_bytes_per_sample", RealRange::closed(0, 1e15), 0);
    c.layers = reader.optionalInt("layers", {1, kMaxModelLayers}, 1);
    return c;
}

LayerSpec readLayer(const ObjectReader &reader)
{
    reader.allowKeys(
        {"name", "kind", "forward_flops", "params", "input_elements", "output_elements", "gemm"});
    LayerSpec layer;
    layer.name = requiredNonEmpty(reader, "name");
    layer.kind = reader.requiredEnum<LayerSpec::Kind>("kind", kLayerKinds, layerKindName);
    layer.forward_flops = reader.requiredDouble("forward_flops", RealRange::closed(0, 1e18));
    layer.params = reader.optionalDouble("params", RealRange::closed(0, 1e13), 0);
    layer.input_elements =
        reader.optionalDouble("input_elements", RealRange::closed(0, kMaxElements), 0);
    layer.output_elements =
        reader.optionalDouble("output_elements", RealRange::closed(0, kMaxElements), 0);
    const bool isGemm = layer.kind == LayerSpec::Kind::Conv || layer.kind == LayerSpec::Kind::Fc;
    if (isGemm)
        reader.require("gemm");
    if (reader.has("gemm")) {
        const std::string path = reader.pathOf("gemm");
        const QJsonArray gemm = readArray(reader.value("gemm"), path);
        if (gemm.size() != 3)
            fail(path, "expected 3 numbers [M, N, K], got " + std::to_string(gemm.size()));
        const RealRange range = RealRange::positive(kMaxElements);
        layer.gemm_m = readDouble(gemm[0], indexPath(path, 0), range);
        layer.gemm_n = readDouble(gemm[1], indexPath(path, 1), range);
        layer.gemm_k = readDouble(gemm[2], indexPath(path, 2), range);
    }
    return layer;
}

std::vector<LayerSpec> readLayerTable(const ObjectReader &reader)
{
    const std::string path = reader.pathOf("layers");
    const QJsonArray rows = reader.requiredArray("layers");
    if (rows.isEmpty())
        fail(path, "expected at least one layer, got an empty array");
    if (rows.size() > kMaxModelLayers)
        fail(path, "a table of " + std::to_string(rows.size()) +
                       " layers is too long; allowed: 1 to " + std::to_string(kMaxModelLayers) +
                       " rows");
    std::vector<LayerSpec> table;
    table.reserve(static_cast<size_t>(rows.size()));
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const std::string rowPath = indexPath(path, i);
        table.push_back(readLayer(ObjectReader(readObject(rows[i], rowPath), rowPath)));
    }
    return table;
}

} // namespace

const char *linkKindName(LinkKind kind)
{
    switch (kind) {
    case LinkKind::PCIe:
        return "pcie";
    case LinkKind::NVLinkSwitched:
        return "nvlink-switched";
    case LinkKind::NVLinkBridge:
        return "nvlink-bridge";
    case LinkKind::Ethernet:
        return "ethernet";
    case LinkKind::RoCE:
        return "roce";
    case LinkKind::InfiniBand:
        return "infiniband";
    case LinkKind::Custom:
        break;
    }
    return "custom";
}

GpuSpec readGpu(const ObjectReader &reader, Origin origin)
{
    allowEntryKeys(reader, origin,
                   {"name", "family", "peak_tflops", "memory_gb", "memory_bandwidth_gbps", "tdp_w",
                    "sm_count", "l2_mb", "launch_overhead_us", "pcie_p2p", "sustained_clock_ratio",
                    "host_link_gbps", "sfu_exp_ratio", "source"});
    GpuSpec gpu;
    gpu.id = readId(reader, origin);
    gpu.name = requiredNonEmpty(reader, "name");
    gpu.family =
        origin == Origin::Catalog
            ? reader.requiredEnum<GpuFamily>("family", kFamilies, familyName)
            : reader.optionalEnum<GpuFamily>("family", kFamilies, familyName, GpuFamily::Unknown);

    const ObjectReader peaks = reader.requiredObject("peak_tflops");
    std::vector<std::string_view> precisionKeys;
    for (Precision p : kPrecisions)
        precisionKeys.emplace_back(precisionName(p));
    peaks.allowKeys(precisionKeys);
    for (Precision p : kPrecisions) {
        // Every GPU computes fp32; 0 marks a precision without hardware support.
        double &peak = gpu.peak_tflops[static_cast<size_t>(p)];
        if (p == Precision::FP32)
            peak = peaks.requiredDouble(precisionName(p), kPeakTflopsRange);
        else if (p == Precision::FP8)
            peak = peaks.optionalDouble(precisionName(p), kOptionalPeakTflopsRange, 0);
        else
            peak = peaks.requiredDouble(precisionName(p), kOptionalPeakTflopsRange);
    }

    gpu.memory_gb = reader.requiredDouble("memory_gb", kMemoryGbRange);
    gpu.memory_bandwidth_gbps =
        reader.requiredDouble("memory_bandwidth_gbps", kMemoryBandwidthGbpsRange);
    gpu.tdp_w = reader.requiredDouble("tdp_w", kTdpWRange);
    gpu.sm_count = static_cast<int>(reader.optionalInt("sm_count", kSmCountRange, 0));
    gpu.l2_mb = reader.optionalDouble("l2_mb", kL2MbRange, 0);
    gpu.launch_overhead_us = reader.optionalDouble("launch_overhead_us", kLatencyUsRange, 0);
    gpu.pcie_p2p = reader.optionalBool("pcie_p2p", true);
    gpu.sustained_clock_ratio =
        reader.optionalDouble("sustained_clock_ratio", RealRange::closed(0.1, 2.0), 1.0);
    gpu.host_link_gbps = reader.optionalDouble("host_link_gbps", kHostLinkGbpsRange, 0);
    gpu.sfu_exp_ratio = reader.optionalDouble("sfu_exp_ratio", RealRange::closed(0.25, 8.0), 1.0);
    gpu.source = readSource(reader, origin);
    return gpu;
}

IntraLinkSpec readIntraLink(const ObjectReader &reader, Origin origin)
{
    allowEntryKeys(
        reader, origin,
        {"name", "kind", "bandwidth_gbps", "latency_us", "switched", "nvswitch_gen",
         "host_memory_gbps", "source"});
    IntraLinkSpec link;
    link.id = readId(reader, origin);
    link.name = requiredNonEmpty(reader, "name");
    link.bandwidth_gbps = reader.requiredDouble("bandwidth_gbps", kLinkBandwidthGbpsRange);
    link.latency_us = reader.requiredDouble("latency_us", kLatencyUsRange);
    link.switched = reader.optionalBool("switched", false);
    link.nvswitch_gen = static_cast<int>(reader.optionalInt("nvswitch_gen", kNvswitchGenRange, 0));
    link.host_memory_gbps = reader.optionalDouble("host_memory_gbps", kHostMemoryRange, 0);
    link.kind = origin == Origin::Catalog
                    ? reader.requiredEnum<LinkKind>("kind", kIntraKinds, linkKindName)
                    : reader.optionalEnum<LinkKind>(
                          "kind", kIntraKinds, linkKindName,
                          inferIntraKind(link.bandwidth_gbps, link.switched, link.nvswitch_gen));
    link.source = readSource(reader, origin);
    return link;
}

InterLinkSpec readInterLink(const ObjectReader &reader, Origin origin)
{
    allowEntryKeys(reader, origin, {"name", "kind", "line_rate_gbit", "latency_us", "source"});
    InterLinkSpec link;
    link.id = readId(reader, origin);
    link.name = requiredNonEmpty(reader, "name");
    link.line_rate_gbit = reader.requiredDouble("line_rate_gbit", kLineRateGbitRange);
    link.latency_us = reader.requiredDouble("latency_us", kLatencyUsRange);
    link.kind =
        origin == Origin::Catalog
            ? reader.requiredEnum<LinkKind>("kind", kInterKinds, linkKindName)
            : reader.optionalEnum<LinkKind>("kind", kInterKinds, linkKindName, inferInterKind());
    link.source = readSource(reader, origin);
    return link;
}

ModelSpec readModel(const ObjectReader &reader, Origin origin)
{
    allowEntryKeys(reader, origin,
                   {"name", "transformer", "custom", "layers", "input_elements", "source"});
    ModelSpec model;
    model.id = readId(reader, origin);

    const int bodies =
        int(reader.has("transformer")) + int(reader.has("custom")) + int(reader.has("layers"));
    if (bodies != 1)
        fail(reader.path(), std::string("expected exactly one of \"transformer\", \"custom\" or "
                                        "\"layers\", got ") +
                                (bodies == 0 ? "none" : std::to_string(bodies)));
    if (auto transformer = reader.optionalObject("transformer")) {
        model.kind = ModelSpec::Kind::Transformer;
        model.transformer = readTransformer(*transformer);
    } else if (auto custom = reader.optionalObject("custom")) {
        model.kind = ModelSpec::Kind::Custom;
        model.custom = readCustom(*custom);
    } else {
        model.kind = ModelSpec::Kind::LayerTable;
        model.table = readLayerTable(reader);
    }

    model.name = origin == Origin::Catalog
                     ? requiredNonEmpty(reader, "name")
                     : reader.optionalString("name", defaultModelName(model.kind));
    model.input_elements_per_sample =
        reader.optionalInt("input_elements", {0, static_cast<int64_t>(kMaxElements)}, 0);
    model.source = readSource(reader, origin);
    return model;
}

OrderedObject writeGpu(const GpuSpec &gpu, Keys keys)
{
    const bool every = keys == Keys::Every;
    OrderedObject out;
    out.add("name", QString::fromStdString(gpu.name));
    if (gpu.family != GpuFamily::Unknown)
        out.add("family", QString::fromUtf8(familyName(gpu.family)));
    OrderedObject peaks;
    for (Precision p : kPrecisions) {
        if (every || p != Precision::FP8 || gpu.peak(p) > 0)
            peaks.add(precisionName(p), gpu.peak(p));
    }
    out.add("peak_tflops", std::move(peaks));
    out.add("memory_gb", gpu.memory_gb);
    out.add("memory_bandwidth_gbps", gpu.memory_bandwidth_gbps);
    out.add("tdp_w", gpu.tdp_w);
    if (gpu.sm_count > 0)
        out.add("sm_count", gpu.sm_count);
    if (every || gpu.l2_mb > 0)
        out.add("l2_mb", gpu.l2_mb);
    if (every || gpu.launch_overhead_us > 0)
        out.add("launch_overhead_us", gpu.launch_overhead_us);
    if (every || !gpu.pcie_p2p)
        out.add("pcie_p2p", gpu.pcie_p2p);
    if (every || gpu.sustained_clock_ratio != 1.0)
        out.add("sustained_clock_ratio", gpu.sustained_clock_ratio);
    if (every || gpu.host_link_gbps > 0)
        out.add("host_link_gbps", gpu.host_link_gbps);
    if (every || gpu.sfu_exp_ratio != 1.0)
        out.add("sfu_exp_ratio", gpu.sfu_exp_ratio);
    writeSource(out, gpu.source);
    return out;
}

OrderedObject writeIntraLink(const IntraLinkSpec &link, Keys keys)
{
    const bool every = keys == Keys::Every;
    OrderedObject out;
    out.add("name", QString::fromStdString(link.name));
    if (every || link.kind != inferIntraKind(link.bandwidth_gbps, link.switched, link.nvswitch_gen))
        out.add("kind", QString::fromUtf8(linkKindName(link.kind)));
    out.add("bandwidth_gbps", link.bandwidth_gbps);
    out.add("latency_us", link.latency_us);
    out.add("switched", link.switched);
    if (every || link.nvswitch_gen > 0)
        out.add("nvswitch_gen", link.nvswitch_gen);
    if (every || link.host_memory_gbps > 0)
        out.add("host_memory_gbps", link.host_memory_gbps);
    writeSource(out, link.source);
    return out;
}

OrderedObject writeInterLink(const InterLinkSpec &link, Keys keys)
{
    OrderedObject out;
    out.add("name", QString::fromStdString(link.name));
    if (keys == Keys::Every || link.kind != inferInterKind())
        out.add("kind", QString::fromUtf8(linkKindName(link.kind)));
    out.add("line_rate_gbit", link.line_rate_gbit);
    out.add("latency_us", link.latency_us);
    writeSource(out, link.source);
    return out;
}

OrderedObject writeModel(const ModelSpec &model, Keys keys)
{
    const bool every = keys == Keys::Every;
    OrderedObject out;
    if (every || model.name != defaultModelName(model.kind))
        out.add("name", QString::fromStdString(model.name));
    switch (model.kind) {
    case ModelSpec::Kind::Transformer: {
        const TransformerSpec &t = model.transformer;
        OrderedObject body;
        body.add("layers", qint64(t.layers))
            .add("hidden", qint64(t.hidden))
            .add("heads", qint64(t.heads))
            .add("seq_len", qint64(t.seq_len))
            .add("vocab", qint64(t.vocab));
        if (t.ffn_hidden > 0)
            body.add("ffn_hidden", qint64(t.ffn_hidden));
        if (t.kv_heads > 0)
            body.add("kv_heads", qint64(t.kv_heads));
        if (every || t.gated_mlp)
            body.add("gated_mlp", t.gated_mlp);
        if (every || !t.tied_embeddings)
            body.add("tied_embeddings", t.tied_embeddings);
        if (every || !t.causal)
            body.add("causal", t.causal);
        if (every || t.qk_norm)
            body.add("qk_norm", t.qk_norm);
        if (t.head != OutputHead::LanguageModel)
            body.add("head", QString::fromLatin1(outputHeadName(t.head)));
        if (t.head_dim > 0)
            body.add("head_dim", qint64(t.head_dim));
        if (t.moe.enabled()) {
            OrderedObject moe;
            moe.add("experts", qint64(t.moe.experts))
                .add("top_k", qint64(t.moe.top_k))
                .add("expert_ffn_hidden", qint64(t.moe.expert_ffn_hidden));
            if (every || t.moe.shared_experts > 0)
                moe.add("shared_experts", qint64(t.moe.shared_experts));
            if (every || t.moe.dense_layers > 0)
                moe.add("dense_layers", qint64(t.moe.dense_layers));
            if (every || t.moe.every != 1)
                moe.add("every", qint64(t.moe.every));
            if (every || t.moe.capacity_factor > 0)
                moe.add("capacity_factor", t.moe.capacity_factor);
            if (t.moe.router_groups > 0)
                moe.add("router_groups", qint64(t.moe.router_groups))
                    .add("router_group_top_k", qint64(t.moe.router_group_top_k));
            body.add("moe", std::move(moe));
        }
        if (t.mla.enabled()) {
            OrderedObject mla;
            if (t.mla.q_lora_rank > 0)
                mla.add("q_lora_rank", qint64(t.mla.q_lora_rank));
            mla.add("kv_lora_rank", qint64(t.mla.kv_lora_rank))
                .add("qk_nope_head_dim", qint64(t.mla.qk_nope_head_dim))
                .add("qk_rope_head_dim", qint64(t.mla.qk_rope_head_dim))
                .add("v_head_dim", qint64(t.mla.v_head_dim));
            body.add("mla", std::move(mla));
        }
        if (t.sliding_window > 0)
            body.add("sliding_window", qint64(t.sliding_window))
                .add("sliding_every", qint64(t.sliding_every));
        if (every || t.mtp_depth > 0)
            body.add("mtp_depth", qint64(t.mtp_depth));
        if (t.glu_clamp > 0)
            body.add("glu_clamp", t.glu_clamp);
        out.add("transformer", std::move(body));
        break;
    }
    case ModelSpec::Kind::Custom: {
        const CustomSpec &c = model.custom;
        OrderedObject body;
        body.add("params", c.params)
            .add("forward_flops_per_sample", c.forward_flops_per_sample)
            .add("activation_bytes_per_sample", c.activation_bytes_per_sample)
            .add("layers", qint64(c.layers));
        out.add("custom", std::move(body));
        break;
    }
    case ModelSpec::Kind::LayerTable: {
        std::vector<OrderedObject> rows;
        rows.reserve(model.table.size());
        for (const LayerSpec &layer : model.table) {
            OrderedObject row;
            row.add("name", QString::fromStdString(layer.name))
                .add("kind", QString::fromUtf8(layerKindName(layer.kind)))
                .add("forward_flops", layer.forward_flops)
                .add("params", layer.params)
                .add("input_elements", layer.input_elements)
                .add("output_elements", layer.output_elements);
            if (layer.gemm_m > 0 || layer.gemm_n > 0 || layer.gemm_k > 0)
                row.add("gemm", QJsonArray{layer.gemm_m, layer.gemm_n, layer.gemm_k});
            rows.push_back(std::move(row));
        }
        out.add("layers", std::move(rows));
        break;
    }
    }
    if (every || model.input_elements_per_sample > 0)
        out.add("input_elements", qint64(model.input_elements_per_sample));
    writeSource(out, model.source);
    return out;
}

FrameworkSpec readFramework(const ObjectReader &reader, Origin origin)
{
    allowEntryKeys(reader, origin,
                   {"name", "source", "host", "defaults", "overlap", "plans", "kernels"});
    FrameworkSpec f;
    f.id = readId(reader, origin);
    f.name = requiredNonEmpty(reader, "name");
    f.source = readSource(reader, origin);

    const ObjectReader host = reader.requiredObject("host");
    host.allowKeys({"op_us", "block_ops_forward", "block_ops_forward_fused", "backward_ops_ratio",
                    "layer_ops_forward", "cuda_graphs", "moe_op_us", "source"});
    // One operation costs microseconds to tens of microseconds; 10 ms would be a bug.
    f.host_op_us = host.requiredDouble("op_us", RealRange::closed(0, 10000));
    f.block_ops_forward = host.requiredDouble("block_ops_forward", RealRange::closed(0, 10000));
    f.block_ops_forward_fused = host.optionalDouble(
        "block_ops_forward_fused", RealRange::closed(0, 10000), f.block_ops_forward);
    f.backward_ops_ratio = host.requiredDouble("backward_ops_ratio", RealRange::closed(0, 10));
    f.layer_ops_forward = host.requiredDouble("layer_ops_forward", RealRange::closed(0, 10000));
    f.cuda_graphs = host.optionalBool("cuda_graphs", false);
    if (host.has("moe_op_us"))
        f.host_moe_op_us = host.requiredDouble("moe_op_us", RealRange::closed(0, 10000));

    const ObjectReader defaults = reader.requiredObject("defaults");
    defaults.allowKeys({"overlap", "bucket_mb", "flash_attention", "source"});
    f.grad_overlap = defaults.requiredBool("overlap");
    f.bucket_mb = defaults.requiredDouble("bucket_mb", RealRange::closed(0, 1e6));
    f.fused_attention = defaults.requiredBool("flash_attention");

    const ObjectReader overlap = reader.requiredObject("overlap");
    overlap.allowKeys({"tensor_parallel", "tensor_parallel_backward", "zero3_prefetch",
                       "zero3_gather", "grad_reduce_bytes", "source"});
    f.tp_overlap = overlap.requiredBool("tensor_parallel");
    f.tp_overlap_backward = overlap.optionalBool("tensor_parallel_backward", true);
    f.zero3_prefetch = overlap.requiredBool("zero3_prefetch");
    const std::string gather = overlap.optionalString("zero3_gather", "unit");
    if (gather == "unit")
        f.zero3_gather = FrameworkSpec::Zero3Gather::Unit;
    else if (gather == "module")
        f.zero3_gather = FrameworkSpec::Zero3Gather::Module;
    else if (gather == "parameter")
        f.zero3_gather = FrameworkSpec::Zero3Gather::Parameter;
    else
        fail(overlap.pathOf("zero3_gather"),
             "\"" + gather + "\"; allowed: \"unit\", \"module\" or \"parameter\"");
    const double reduce = overlap.optionalDouble("grad_reduce_bytes", RealRange::closed(0, 4), 0);
    if (reduce != 0 && reduce != 2 && reduce != 4)
        fail(overlap.pathOf("grad_reduce_bytes"),
             json::formatNumber(reduce) + " bytes per gradient element; allowed: 0 (the model's "
                                          "rule), 2 (16-bit) or 4 (fp32)");
    f.grad_reduce_bytes = reduce;

    const ObjectReader plans = reader.requiredObject("plans");
    plans.allowKeys({"tensor", "pipeline", "max_zero", "max_zero_with_pipeline", "context",
                     "expert", "async", "fp32_shards", "source"});
    f.tensor_parallel = plans.requiredBool("tensor");
    f.pipeline_parallel = plans.requiredBool("pipeline");
    f.max_zero = static_cast<int>(plans.requiredInt("max_zero", IntRange{0, 3}));
    f.max_zero_with_pipeline =
        static_cast<int>(plans.requiredInt("max_zero_with_pipeline", IntRange{0, 3}));
    f.async_update = plans.optionalBool("async", false);
    f.context_parallel = plans.optionalBool("context", false);
    f.expert_parallel = plans.optionalBool("expert", false);
    f.fp32_param_shards = plans.optionalBool("fp32_shards", false);

    // Which kernels it runs (issue 25): the defaults are eager PyTorch's.
    if (auto kernels = reader.optionalObject("kernels")) {
        kernels->allowKeys({"attention", "elementwise", "batch_norm", "fp8_recipe",
                            "selective_recompute", "pipeline_unsharded_grads", "tensor_parallel",
                            "moe_probs", "context_parallel", "cross_entropy", "source"});
        static constexpr std::array kAttention = {FrameworkSpec::AttentionKernel::FlashAttention2,
                                                  FrameworkSpec::AttentionKernel::Cudnn};
        f.attention_kernel = kernels->optionalEnum<FrameworkSpec::AttentionKernel>(
            "attention", kAttention,
            [](FrameworkSpec::AttentionKernel k) {
                return k == FrameworkSpec::AttentionKernel::Cudnn ? "cudnn" : "flash-attention-2";
            },
            f.attention_kernel);
        static constexpr std::array kElementwise = {false, true};
        f.fused_elementwise = kernels->optionalEnum<bool>(
            "elementwise", kElementwise, [](bool fused) { return fused ? "fused" : "eager"; },
            f.fused_elementwise);
        static constexpr std::array kBatchNorm = {false, true};
        f.fused_batch_norm = kernels->optionalEnum<bool>(
            "batch_norm", kBatchNorm,
            [](bool fused) { return fused ? "fused-activation" : "eager"; }, f.fused_batch_norm);
        static constexpr std::array kRecipes = {FrameworkSpec::Fp8Recipe::TransformerEngine,
                                                FrameworkSpec::Fp8Recipe::Torchao};
        f.fp8_recipe = kernels->optionalEnum<FrameworkSpec::Fp8Recipe>(
            "fp8_recipe", kRecipes,
            [](FrameworkSpec::Fp8Recipe r) {
                return r == FrameworkSpec::Fp8Recipe::Torchao ? "torchao" : "transformer-engine";
            },
            f.fp8_recipe);
        static constexpr std::array kSelective = {false, true};
        f.selective_per_op = kernels->optionalEnum<bool>(
            "selective_recompute", kSelective,
            [](bool per_op) { return per_op ? "per-op" : "attention"; }, f.selective_per_op);
        f.pipeline_unsharded_grads =
            kernels->optionalBool("pipeline_unsharded_grads", f.pipeline_unsharded_grads);
        static constexpr std::array kTensorParallel = {false, true};
        f.dtensor_tensor_parallel = kernels->optionalEnum<bool>(
            "tensor_parallel", kTensorParallel,
            [](bool dtensor) { return dtensor ? "dtensor" : "megatron"; },
            f.dtensor_tensor_parallel);
        static constexpr std::array kMoeProbs = {false, true};
        f.moe_probs_in_activation = kernels->optionalEnum<bool>(
            "moe_probs", kMoeProbs,
            [](bool in_activation) { return in_activation ? "activation" : "combine"; },
            f.moe_probs_in_activation);
        static constexpr std::array kContextParallel = {false, true};
        f.dtensor_context_parallel = kernels->optionalEnum<bool>(
            "context_parallel", kContextParallel,
            [](bool dtensor) { return dtensor ? "dtensor" : "megatron"; },
            f.dtensor_context_parallel);
        static constexpr std::array kCrossEntropy = {FrameworkSpec::CrossEntropy::PyTorch,
                                                     FrameworkSpec::CrossEntropy::Megatron,
                                                     FrameworkSpec::CrossEntropy::Fused};
        f.cross_entropy = kernels->optionalEnum<FrameworkSpec::CrossEntropy>(
            "cross_entropy", kCrossEntropy, crossEntropyName, f.cross_entropy);
    }
    return f;
}

OrderedObject writeFramework(const FrameworkSpec &f)
{
    OrderedObject host, defaults, overlap, plans, kernels;
    host.add("op_us", f.host_op_us)
        .add("block_ops_forward", f.block_ops_forward)
        .add("block_ops_forward_fused", f.block_ops_forward_fused)
        .add("backward_ops_ratio", f.backward_ops_ratio)
        .add("layer_ops_forward", f.layer_ops_forward)
        .add("cuda_graphs", f.cuda_graphs);
    if (f.host_moe_op_us >= 0) // absent: the MoE path issues at op_us
        host.add("moe_op_us", f.host_moe_op_us);
    defaults.add("overlap", f.grad_overlap)
        .add("bucket_mb", f.bucket_mb)
        .add("flash_attention", f.fused_attention);
    overlap.add("tensor_parallel", f.tp_overlap)
        .add("tensor_parallel_backward", f.tp_overlap_backward)
        .add("zero3_prefetch", f.zero3_prefetch)
        .add("zero3_gather",
             QString::fromLatin1(f.zero3_gather == FrameworkSpec::Zero3Gather::Unit ? "unit"
                                 : f.zero3_gather == FrameworkSpec::Zero3Gather::Module
                                     ? "module"
                                     : "parameter"))
        .add("grad_reduce_bytes", f.grad_reduce_bytes);
    plans.add("tensor", f.tensor_parallel)
        .add("pipeline", f.pipeline_parallel)
        .add("max_zero", f.max_zero)
        .add("max_zero_with_pipeline", f.max_zero_with_pipeline)
        .add("context", f.context_parallel)
        .add("expert", f.expert_parallel)
        .add("async", f.async_update)
        .add("fp32_shards", f.fp32_param_shards);
    kernels
        .add("attention",
             QString::fromLatin1(f.attention_kernel == FrameworkSpec::AttentionKernel::Cudnn
                                     ? "cudnn"
                                     : "flash-attention-2"))
        .add("elementwise", QString::fromLatin1(f.fused_elementwise ? "fused" : "eager"))
        .add("batch_norm", QString::fromLatin1(f.fused_batch_norm ? "fused-activation" : "eager"))
        .add("fp8_recipe", QString::fromLatin1(f.fp8_recipe == FrameworkSpec::Fp8Recipe::Torchao
                                                   ? "torchao"
                                                   : "transformer-engine"))
        .add("selective_recompute",
             QString::fromLatin1(f.selective_per_op ? "per-op" : "attention"))
        .add("pipeline_unsharded_grads", f.pipeline_unsharded_grads)
        .add("tensor_parallel",
             QString::fromLatin1(f.dtensor_tensor_parallel ? "dtensor" : "megatron"))
        .add("moe_probs", QString::fromLatin1(f.moe_probs_in_activation ? "activation" : "combine"))
        .add("context_parallel",
             QString::fromLatin1(f.dtensor_context_parallel ? "dtensor" : "megatron"))
        .add("cross_entropy", QString::fromLatin1(crossEntropyName(f.cross_entropy)));
    OrderedObject out;
    out.add("name", QString::fromStdString(f.name))
        .add("host", std::move(host))
        .add("defaults", std::move(defaults))
        .add("overlap", std::move(overlap))
        .add("plans", std::move(plans))
        .add("kernels", std::move(kernels));
    writeSource(out, f.source);
    return out;
}

} // namespace scalescope::json
