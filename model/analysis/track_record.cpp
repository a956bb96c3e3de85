#include "analysis/track_record.h"

#include <iterator>

namespace scalescope
{

std::optional<RunKind> runKind(const Scenario &s)
{
    if (s.isCollective())
        return std::nullopt;
    switch (s.model.kind) {
    case ModelSpec::Kind::LayerTable:
        return RunKind::LayerTable;
    case ModelSpec::Kind::Custom:
        return std::nullopt;
    case ModelSpec::Kind::Transformer:
        break;
    }
    if (s.model.transformer.moe.enabled())
        return RunKind::MixtureOfExperts;
    return s.parallel.context > 1 ? RunKind::LongContext : RunKind::DenseTransformer;
}

namespace
{

struct KindRow {
    RunKind kind;
    const char *name;   // JSON
    const char *plural; // CLI text
    TrackRecord record;
};

// In RunKind's order. The records are the model's errors on shared/validation's throughput
// rows (expected.csv of validation/, recent/ and moe/; memory, efficiency and bandwidth rows
// left out), as tests/validation/tst_validation.cpp (trackRecordIsCurrent) recomputes them:
// that test fails when a model change leaves these figures, or docs/model.md's table of
// them, stale.
constexpr KindRow kKinds[] = {
    // worst: lb-13, BERT-large on 2 RTX 4090 without P2P
    {RunKind::DenseTransformer,
     "dense_transformer",
     "dense transformers",
     {47, 0.0458, 0.0402, 0.1725}},
    // worst: tt-a-07, Llama 3.1 8B at 256K tokens, CP 8
    {RunKind::LongContext, "long_context", "long-context runs", {5, 0.1721, 0.1270, 0.3707}},
    // worst: mb25-h100-qwen3-30b-a3b, 2.3x the measured rate
    {RunKind::MixtureOfExperts,
     "mixture_of_experts",
     "mixture-of-experts runs",
     {11, 0.2551, 0.1049, 1.3228}},
    // worst: lb-09, ResNet-50 on 8 H100 PCIe under Lambda's setup
    {RunKind::LayerTable, "layer_table", "CNNs", {17, 0.1742, 0.1155, 0.5134}},
};

constexpr bool inKindOrder()
{
    for (size_t i = 0; i < std::size(kKinds); ++i)
        if (static_cast<size_t>(kKinds[i].kind) != i)
            return false;
    return true;
}
static_assert(inKindOrder(), "kKinds lists the kinds in RunKind's order");

const KindRow &rowOf(RunKind k)
{
    return kKinds[static_cast<size_t>(k)];
}

} // namespace

const char *runKindName(RunKind k)
{
    return rowOf(k).name;
}

const char *runKindPlural(RunKind k)
{
    return rowOf(k).plural;
}

TrackRecord trackRecord(RunKind k)
{
    return rowOf(k).record;
}

} // namespace scalescope
