// The rule table: every rule across a scenario's keys (the plan dividing the cluster, the
// batch and the model; stacks; effects naming GPUs that exist; hardware that can exist), in
// one place. The parser, makePlan, the control panel, the sweep and the planner all ask
// checkRules(); nothing else decides whether a plan is valid (issue 11). A finding is a
// record (rule, key path, the numbers and names involved, each by name): the parser and the
// CLI render it with ruleMessage() in English, the control panel with tr() from the same
// fields.
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

/// The rules. Each comment gives the key path of its findings, then the RuleFigures fields
/// it fills.
enum class Rule {
    // Hardware
    TooManyGpus,             // hardware.nodes: nodes, gpus_per_node, gpus, max_gpus
    CalibrationOtherGpu,     // hardware.calibration: measured_gpu, gpu_name
    CalibrationOtherCluster, // hardware.calibration (warning): profile_nodes,
                             //   profile_gpus_per_node, nodes, gpus_per_node
    GeForceWithNVLink,       // hardware.intra_node (warning): gpu_name, link_name
    AmdWithNVLink,           // hardware.intra_node (warning): gpu_name, link_name
    BridgeBeyondTwo,         // hardware.intra_node (warning): gpus_per_node
    // The model
    HeadsDivideHidden, // model.transformer.heads: heads, hidden
    // The plan's degrees
    DegreesProduct,                // parallel: data, tensor, pipeline, context, product, gpus,
                                   //   nodes, gpus_per_node
    TensorDividesGpus,             // parallel.tensor (data auto): tensor, gpus
    ModelParallelDividesGpus,      // parallel.pipeline (data auto): tensor, pipeline, product, gpus
    TensorBeyondNode,              // parallel.tensor (warning): tensor, gpus_per_node
    TensorDividesHeads,            // parallel.tensor: tensor, heads
    SequenceParallelAlone,         // parallel.sequence_parallel (warning)
    AsyncWithZero,                 // parallel.update: zero
    VirtualNeedsInterleaved,       // parallel.virtual_stages: virtual_stages, schedule
    InterleavedOneChunk,           // parallel.virtual_stages (warning)
    StagesExceedLayers,            // parallel.pipeline: pipeline, virtual_stages, stages, layers
    InterleavedMicroBatches,       // parallel.virtual_stages: virtual_stages, global_batch,
                                   //   micro_batch, data, micro_batches, pipeline
    StackCannotRun,                // training.framework: stack_id, stack_name (and `framework`)
    ExpertNeedsMoe,                // parallel.expert: expert
    ExpertsDivide,                 // parallel.expert: expert, experts
    ExpertFolding,                 // parallel.expert_tensor: tensor, context, data, product,
                                   //   expert, expert_tensor, expert_product
    ContextNeedsSequence,          // parallel.context: context
    ContextDividesSequence,        // parallel.context: context, seq_len
    ScheduleNeedsPipeline,         // parallel.schedule: schedule, pipeline
    ScheduleMicroBatches,          // parallel.schedule: schedule, pipeline, micro_batches, product
    OffloadBeyondLayers,           // training.activation_offload_layers: product (the layers
                                   //   offloaded), layers (the model's transformer layers)
    OffloadWithPipeline,           // training.activation_offload_layers: pipeline
    OffloadWithRecompute,          // training.activation_offload_layers: recompute
    RecomputeModulesNeedSelective, // training.recompute_modules: recompute
    RecomputeModulesStack,         // training.recompute_modules: stack_id
    RecomputeModuleUnused,         // training.recompute_modules: module (a module the model
                                   //   has no part for: mla_up_proj without MLA, mlp without
                                   //   dense layers, moe / moe_act / shared_experts without
                                   //   routed or shared experts), supported (those it has)
    // Batch and numerics
    BatchEmpty,             // training.global_batch: global_batch (below 1)
    BatchDividesData,       // training.global_batch (micro_batch auto): global_batch, data
    MicroBatchDividesStep,  // training.micro_batch: global_batch, micro_batch, data, product
    PrecisionUnsupported,   // training.precision: precision, gpu_name, supported
    BlockFormatUnsupported, // training.precision: precision, gpu_name
    // Effects
    StragglerMissing,       // effects.stragglers[i].gpu: gpu, gpus
    StragglerTwice,         // effects.stragglers[i].gpu: gpu, earlier_path
    ThermalGpuMissing,      // effects.thermal.gpus[i].gpu: gpu, gpus
    ThermalGpuTwice,        // effects.thermal.gpus[i].gpu: gpu, earlier_path
    SteadyBelowAmbient,     // effects.thermal.steady_c: steady_c, ambient_c
    GpuSteadyBelowAmbient,  // effects.thermal.gpus[i].steady_c: gpu, steady_c, ambient_c
    ThermalNeverThrottles,  // effects.thermal.throttle_above_c (warning): hottest_c, throttle_c
    LoaderInProcess,        // effects.data_loader (warning)
    CheckpointOutlastsGap,  // effects.failures.checkpoint_interval_s (warning): interval_s,
                            //   write_s, checkpoint_gb, write_gbps
    CheckpointBeyondMtbf,   // effects.failures.checkpoint_interval_s (warning): interval_s,
                            //   gpus, mtbf_s
    FailuresOutpaceRestart, // effects.failures.mtbf_hours_per_gpu (warning): gpus, mtbf_s,
                            //   recovery_s
};

/// The figures and names a finding states, by name; each rule fills those its comment lists
/// (the others stay at their defaults). The parser, the CLI and the control panel render the
/// same fields.
struct RuleFigures {
    // Counts
    int64_t nodes = 0;
    int64_t gpus_per_node = 0;
    int64_t gpus = 0;     // GPUs in the cluster
    int64_t max_gpus = 0; // the largest cluster a scenario may describe
    int64_t data = 0;
    int64_t tensor = 0;
    int64_t pipeline = 0;
    int64_t context = 1;
    int64_t expert = 0;
    int64_t expert_tensor = 0;
    int64_t experts = 0;        // routed experts per MoE layer
    int64_t expert_product = 0; // expert_tensor * expert
    int64_t seq_len = 0;
    int64_t product = 0; // of the degrees or batch factors the rule multiplies
    int64_t heads = 0;
    int64_t hidden = 0;
    int64_t zero = 0;
    int64_t virtual_stages = 0;
    int64_t stages = 0; // pipeline x virtual_stages
    int64_t layers = 0;
    int64_t global_batch = 0;
    int64_t micro_batch = 0;
    int64_t micro_batches = 0; // per step and replica
    int64_t gpu = 0;           // a GPU's index
    int64_t profile_nodes = 0; // the cluster a calibration profile's collectives ran on
    int64_t profile_gpus_per_node = 0;
    // Measurements
    double steady_c = 0;
    double ambient_c = 0;
    double hottest_c = 0;  // the hottest steady state of any GPU
    double throttle_c = 0; // the throttling threshold
    double interval_s = 0; // between checkpoints
    double write_s = 0;    // to write one checkpoint
    double checkpoint_gb = 0;
    double write_gbps = 0;
    double mtbf_s = 0;     // the cluster's mean time between failures
    double recovery_s = 0; // a restart and a checkpoint
    // Names
    std::string gpu_name = {};
    std::string link_name = {};
    std::string measured_gpu = {}; // the GPU a calibration profile was measured on
    std::string precision = {};
    std::string supported = {}; // the precisions the GPU supports, or the recompute modules
                                // the model has; comma-separated
    std::string schedule = {};
    std::string recompute = {};
    std::string module = {};       // a recompute module's name (training.recompute_modules)
    std::string earlier_path = {}; // where the same GPU is listed first
    std::string stack_id = {};
    std::string stack_name = {};
    bool operator==(const RuleFigures &) const = default;
};

enum class RuleSeverity { Error, Warning };

/// One rule a scenario breaks (or, for warnings, a combination that works but does little).
struct RuleFinding {
    Rule rule = Rule::DegreesProduct;
    RuleSeverity severity = RuleSeverity::Error;
    std::string path; // key path, with item indices
    RuleFigures at;   // what the rule's comment lists
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
