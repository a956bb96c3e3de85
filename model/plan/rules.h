// The rule table: every rule across a scenario's keys (the plan dividing the cluster, the
// batch and the model; stacks; effects naming GPUs that exist; hardware that can exist), in
// one place. The parser, makePlan, the control panel, the sweep and the planner all ask
// checkRules(); nothing else decides whether a plan is valid (issue 11). A finding is a
// record (rule, key path, the numbers and names involved): the parser and the CLI render it
// with ruleMessage() in English, the control panel with tr() from the same fields.
#pragma once

#include "plan/error.h"
#include "plan/framework_rules.h"
#include "plan/scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalescope
{

/// The largest cluster a scenario may describe (spec/scenario.md, hardware.nodes).
inline constexpr int64_t kMaxGpuCount = 131072;

/// The rules. Each comment gives the key path of its findings, then the order of their
/// `values` and `names`.
enum class Rule {
    // Hardware
    TooManyGpus,         // hardware.nodes: nodes, gpus_per_node, gpus, max
    CalibrationOtherGpu, // hardware.calibration; names: measured GPU, scenario GPU
    GeForceWithNVLink,   // hardware.intra_node (warning); names: GPU, link
    AmdWithNVLink,       // hardware.intra_node (warning); names: GPU, link
    BridgeBeyondTwo,     // hardware.intra_node (warning): gpus_per_node
    // The plan's degrees
    DegreesProduct,           // parallel: data, tensor, pipeline, product, gpus, nodes, per node
    TensorDividesGpus,        // parallel.tensor (data auto): tensor, gpus
    ModelParallelDividesGpus, // parallel.pipeline (data auto): tensor, pipeline, product, gpus
    TensorBeyondNode,         // parallel.tensor (warning): tensor, gpus_per_node
    TensorDividesHeads,       // parallel.tensor: tensor, heads
    SequenceParallelAlone,    // parallel.sequence_parallel (warning)
    AsyncWithZero,            // parallel.update: zero
    VirtualNeedsInterleaved,  // parallel.virtual_stages: virtual_stages; names: schedule
    InterleavedOneChunk,      // parallel.virtual_stages (warning)
    StagesExceedLayers,       // parallel.pipeline: pipeline, virtual_stages, stages, layers
    InterleavedMicroBatches,  // parallel.virtual_stages: virtual_stages, global_batch,
                              //   micro_batch, data, micro-batches, pipeline
    StackCannotRun,           // training.framework: see `framework`; names: stack id, name
    // Batch and numerics
    BatchEmpty,            // training.global_batch: global_batch (below 1)
    BatchDividesData,      // training.global_batch (micro_batch auto): global_batch, data
    MicroBatchDividesStep, // training.micro_batch: global_batch, micro_batch, data, product
    PrecisionUnsupported,  // training.precision; names: precision, GPU, supported precisions
    // Effects
    StragglerMissing,       // effects.stragglers[i].gpu: gpu, gpus
    StragglerTwice,         // effects.stragglers[i].gpu: gpu; names: the earlier item's path
    ThermalGpuMissing,      // effects.thermal.gpus[i].gpu: gpu, gpus
    ThermalGpuTwice,        // effects.thermal.gpus[i].gpu: gpu; names: the earlier item's path
    SteadyBelowAmbient,     // effects.thermal.steady_c: steady_c, ambient_c
    GpuSteadyBelowAmbient,  // effects.thermal.gpus[i].steady_c: gpu, steady_c, ambient_c
    ThermalNeverThrottles,  // effects.thermal.throttle_above_c (warning): hottest, threshold
    LoaderInProcess,        // effects.data_loader (warning)
    CheckpointOutlastsGap,  // effects.failures.checkpoint_interval_s (warning): interval,
                            //   write s, checkpoint GB, GB/s
    CheckpointBeyondMtbf,   // effects.failures.checkpoint_interval_s (warning): interval,
                            //   gpus, cluster MTBF s
    FailuresOutpaceRestart, // effects.failures.mtbf_hours_per_gpu (warning): gpus, cluster
                            //   MTBF s, restart + checkpoint s
};

enum class RuleSeverity { Error, Warning };

/// One rule a scenario breaks (or, for warnings, a combination that works but does little).
struct RuleFinding {
    Rule rule = Rule::DegreesProduct;
    RuleSeverity severity = RuleSeverity::Error;
    std::string path;                          // key path, with item indices
    std::vector<double> values;                // in the order the rule's comment gives
    std::vector<std::string> names;            // likewise
    std::optional<FrameworkFinding> framework; // StackCannotRun
    bool operator==(const RuleFinding &) const = default;
};

/// Every finding of `scenario`, errors and warnings, hardware first, then the plan, the
/// batch and the effects. The plan may leave parallel.data and training.micro_batch at 0
/// (derived). A collective-only scenario is checked for its hardware and effects only.
std::vector<RuleFinding> checkRules(const Scenario &scenario);

/// The first error among `findings` (the one the parser reports), if any.
std::optional<RuleFinding> firstError(const std::vector<RuleFinding> &findings);

/// The finding in English, naming the values and what is allowed (the parser's and the
/// CLI's text).
std::string ruleMessage(const RuleFinding &finding);

/// The first error of checkRules(scenario) as an InputError at its key path, if any.
std::optional<InputError> ruleError(const Scenario &scenario);

/// Fills what a valid training scenario leaves to be derived: parallel.data (the GPU count over
/// tensor * pipeline) and training.micro_batch (the replica's share of the global batch).
void fillDerivedPlan(Scenario &scenario);

/// Layers of a model as a pipeline splits them (transformer layers, table rows, custom).
int64_t modelLayerCount(const ModelSpec &model);

} // namespace scalescope
