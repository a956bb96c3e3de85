#include "analysis/track_record.h"

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

const char *runKindName(RunKind k)
{
    switch (k) {
    case RunKind::DenseTransformer:
        return "dense_transformer";
    case RunKind::LongContext:
        return "long_context";
    case RunKind::MixtureOfExperts:
        return "mixture_of_experts";
    case RunKind::LayerTable:
        return "layer_table";
    }
    return "";
}

TrackRecord trackRecord(RunKind k)
{
    // The model's errors on shared/validation's throughput rows (expected.csv of
    // validation/, recent/ and moe/; memory, efficiency and bandwidth rows left out), as
    // tests/validation/tst_validation.cpp (trackRecordIsCurrent) recomputes them: that test
    // fails when a model change leaves these figures stale. docs/model.md, validation table.
    switch (k) {
    case RunKind::DenseTransformer: // worst: lb-13, BERT-large on 2 RTX 4090 without P2P
        return {47, 0.0458, 0.0402, 0.1725};
    case RunKind::LongContext: // worst: tt-a-07, Llama 3.1 8B at 256K tokens, CP 8
        return {5, 0.1721, 0.1270, 0.3707};
    case RunKind::MixtureOfExperts: // worst: mb25-h100-qwen3-30b-a3b, 2.3x the measured rate
        return {11, 0.2638, 0.1049, 1.3228};
    case RunKind::LayerTable: // worst: lb-09, ResNet-50 on 8 H100 PCIe under Lambda's setup
        return {17, 0.1742, 0.1155, 0.5134};
    }
    return {};
}

} // namespace scalescope
