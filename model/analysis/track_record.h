// How far the model's throughput has been from published measurements of runs of the same
// kind: the figure a sceptic asks for before trusting a predicted step time.
#pragma once

#include "plan/scenario.h"

#include <optional>

namespace scalescope
{

/// The kinds of run the published measurements cover (shared/validation).
enum class RunKind {
    DenseTransformer, // a transformer without experts and without context parallelism
    LongContext,      // a dense transformer whose sequences are split (parallel.context > 1)
    MixtureOfExperts, // a transformer with routed experts (model.transformer.moe)
    LayerTable,       // a model given as a table of layers: the catalog's CNNs
};

/// The scenario's kind; none for a collective alone or a custom model, which no published
/// run covers.
std::optional<RunKind> runKind(const Scenario &s);
/// "dense_transformer", "long_context", "mixture_of_experts", "layer_table".
const char *runKindName(RunKind k);
/// The runs of a kind in English, for the CLI: "dense transformers", "long-context runs",
/// "mixture-of-experts runs", "CNNs".
const char *runKindPlural(RunKind k);

/// The model's throughput against every published throughput row of one kind (step time,
/// samples/s, tokens/s) in shared/validation's validation/, recent/ and moe/ sets: the
/// absolute error of each, predicted / measured - 1.
struct TrackRecord {
    int runs = 0;
    double mean_error = 0;   // the mean absolute error (MAPE as a share)
    double median_error = 0; // the median absolute error
    double worst_error = 0;  // the largest absolute error
};
TrackRecord trackRecord(RunKind k);

} // namespace scalescope
