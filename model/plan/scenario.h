// A scenario (spec/scenario.md): hardware, model, training, parallel plan and effects.
#pragma once

#include "effects/effects.h"
#include "hardware/framework.h"
#include "hardware/hardware.h"
#include "plan/collective_op.h"
#include "workload/workload.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace scalescope
{

enum class Optimizer { SGD, Adam };
enum class Recompute { None, Selective, Full };
/// Pipeline schedules (spec/scenario.md, parallel.schedule; sim/schedule.h cites each).
enum class Schedule { GPipe, OneFOneB, Interleaved, ZbH1, ZbV, DualPipe };
enum class UpdateMode { Sync, Async };
/// How attention is split over the context group (parallel.context_algorithm).
enum class ContextAlgorithm { Ring, AllToAll };
/// How tokens reach their experts (parallel.expert_dispatcher).
/// HybridEP: NVIDIA's Hybrid-EP (DeepEP's hybrid-ep branch, Megatron-Core
/// --moe-flex-dispatcher-backend hybridep, the Megatron-Bridge recipes' choice): like DeepEP,
/// a token crosses the network once per node holding its experts and NVLink forwards it.
enum class ExpertDispatcher { AllToAll, DeepEP, HybridEP };
/// Block-scaled low-precision formats beside the FP8 of Hopper (training.precision `mxfp8`,
/// `nvfp4`): the matrices run as FP8 (MX blocks of 32 with an 8-bit scale, OCP MX spec v1.0)
/// or FP4 (NVFP4: blocks of 16 with an FP8 scale), on GPUs whose tensor cores have them.
enum class BlockFormat { None, MXFP8, NVFP4 };

/// How a CNN's activations lie in memory (training.memory_format): channels last (NHWC), what
/// cuDNN's tensor-core convolutions take, or channels first (NCHW), PyTorch's default layout,
/// which they transpose on the way in and out (layers/layer_cost.cpp, tableLayer).
enum class MemoryFormat { NHWC, NCHW };
const char *memoryFormatName(MemoryFormat f);

/// Parts of a transformer layer that selective recompute rebuilds in backward
/// (training.recompute_modules; Megatron-Core --recompute-modules, transformer_config.py
/// recompute_modules): one bit each, so that a set is an unsigned mask.
enum class RecomputeModule : unsigned {
    CoreAttn = 1u << 0,      // the attention core (softmax(QK^T)V)
    Layernorm = 1u << 1,     // the two norms, outputs discarded after their consumers ran
    MoeAct = 1u << 2,        // the routed experts' activation function, likewise
    MlaUpProj = 1u << 3,     // MLA's up-projections and rotary embedding, likewise
    Mlp = 1u << 4,           // a dense layer's MLP
    Moe = 1u << 5,           // an MoE layer's routed experts with their dispatch and combine
    SharedExperts = 1u << 6, // an MoE layer's shared experts
};
/// Every module, in Megatron-Core's documentation order.
inline constexpr std::array kRecomputeModules = {
    RecomputeModule::CoreAttn,     RecomputeModule::MoeAct, RecomputeModule::Layernorm,
    RecomputeModule::MlaUpProj,    RecomputeModule::Mlp,    RecomputeModule::Moe,
    RecomputeModule::SharedExperts};
/// The scenario file's name of a module ("core_attn", "moe_act", ...).
const char *recomputeModuleName(RecomputeModule m);
/// The modules of a set, comma-separated, in kRecomputeModules order ("" for none).
std::string recomputeModuleList(unsigned set);
inline bool hasModule(unsigned set, RecomputeModule m)
{
    return (set & static_cast<unsigned>(m)) != 0;
}

/// The scenario file's name of a schedule ("gpipe", "1f1b", "interleaved", "zb-h1", ...).
const char *scheduleName(Schedule s);
const char *contextAlgorithmName(ContextAlgorithm a);
/// "mxfp8", "nvfp4" (training.precision), "" for None.
const char *blockFormatName(BlockFormat f);
const char *expertDispatcherName(ExpertDispatcher d);
/// Whether the schedule splits the backward into input- and weight-gradient passes.
bool splitsBackward(Schedule s);
/// Model chunks per pipeline rank a schedule needs of itself (zb-v and dualpipe: 2).
int scheduleChunks(Schedule s);

struct TrainingSpec {
    int64_t global_batch = 0;
    int64_t micro_batch = 0; // 0 = global_batch / data
    Precision precision = Precision::BF16;
    Optimizer optimizer = Optimizer::Adam;
    Recompute recompute = Recompute::None;
    /// Extension: under selective recompute, which modules are rebuilt (a RecomputeModule
    /// mask, training.recompute_modules); 0 = the stack's own choice.
    unsigned recompute_modules = 0;
    /// Extension: fused attention (no s^2 tensors in memory); unset: the stack's default.
    std::optional<bool> flash_attention;
    /// The step is compiled (torch.compile, XLA): elementwise chains fused into one kernel
    /// each, fewer host operations (hardware/kernel_model.h, ComputeModel::setCompiled).
    bool compile = false;
    /// CNN activations' layout (training.memory_format); channels last unless set.
    MemoryFormat memory_format = MemoryFormat::NHWC;
    /// FP8 scaling recipe (training.fp8_recipe, precision fp8 only); the stack's unless set.
    Fp8Scaling fp8_recipe = Fp8Scaling::Stack;
    /// training.framework as written: a catalog id or "auto". The stack that runs the plan
    /// is derived from it when a plan is made (stackOf, plan/framework_rules.h).
    std::string framework = kFrameworkAuto;
    /// `mxfp8` / `nvfp4`: `precision` is FP8 and this names the block format.
    BlockFormat block_format = BlockFormat::None;
    /// Extension: of each GPU's transformer layers, the first this many keep their saved
    /// activations in host memory between forward and backward (Megatron-Core
    /// --cpu-offloading-num-layers, Transformer Engine's CPU offload context); 0 = none.
    int64_t activation_offload_layers = 0;
    /// Tokens per sample where they differ from the model's (0: the model's); applied to
    /// the model when the scenario is read.
    int64_t seq_len = 0;
    /// Multi-token-prediction modules (-1: the model's published setting); applied to the
    /// model when the scenario is read.
    int64_t mtp_depth = -1;

    bool operator==(const TrainingSpec &) const = default;
};

struct ParallelSpec {
    int data = 0; // 0 = GPU count / (tensor * pipeline)
    int tensor = 1;
    int pipeline = 1;
    int zero = 0;
    Schedule schedule = Schedule::OneFOneB;
    int virtual_stages = 1;
    /// Unset: the stack's default (FrameworkSpec::grad_overlap, bucket_mb), as a file that
    /// leaves them out means; set: the scenario's own choice, kept under any stack.
    std::optional<bool> overlap;
    std::optional<double> bucket_mb;
    bool sequence_parallel = false;
    UpdateMode update = UpdateMode::Sync;
    /// Tensor-parallel communication overlapped with the GEMMs (Megatron-Core
    /// tp_comm_overlap, torchtitan async TP); unset: the framework's default.
    std::optional<bool> tp_overlap;
    /// Context parallelism: each sequence split over `context` GPUs (Megatron-Core CP,
    /// torchtitan); unset algorithm: the framework's default (ring).
    int context = 1;
    std::optional<ContextAlgorithm> context_algorithm;
    /// Expert parallelism: routed experts split over `expert` ranks, each expert's MLP over
    /// `expert_tensor` (Megatron-Core's parallel folding: the expert group is carved from the
    /// same GPUs as tensor x context x data).
    int expert = 1;
    int expert_tensor = 1;
    std::optional<ExpertDispatcher> expert_dispatcher;
    bool expert_overlap = false;
    /// Megatron-Core counts the embedding / the loss as one pipeline layer each
    /// (account_for_embedding_in_pipeline_split, account_for_loss_in_pipeline_split).
    bool pipeline_counts_embedding = false;
    bool pipeline_counts_loss = false;

    bool operator==(const ParallelSpec &) const = default;
};

/// Training work and prices (the `cost` section): what owning, renting and waiting cost.
struct CostSpec {
    double gpu_price_usd = 0;
    double server_price_usd = 0; // per node, beyond its GPUs
    double amortisation_years = 3;
    double power_price_per_kwh = 0.15;
    double pue = 1.5;
    double cloud_price_per_gpu_hour = 0;
    // Work of one training run: tokens, or epochs x samples_per_epoch, or steps.
    double tokens = 0;
    double epochs = 0;
    double samples_per_epoch = 0;
    double steps = 0;
    double runs_per_month = 1;
    double migration_days = 2;
    double day_rate_usd = 800;

    bool operator==(const CostSpec &) const = default;
};

struct CollectiveSpec {
    CollectiveOp op = CollectiveOp::AllReduce;
    double bytes = 0;
    CollectiveAlgo algorithm = CollectiveAlgo::Auto;

    bool operator==(const CollectiveSpec &) const = default;
};

struct Scenario {
    std::string name;
    HardwareSpec hardware;
    // Either a training workload ...
    ModelSpec model;
    TrainingSpec training;
    ParallelSpec parallel;
    // ... or a single collective.
    std::optional<CollectiveSpec> collective;
    EffectsSpec effects;
    std::optional<CostSpec> cost;
    /// The stacks training.framework may name (the catalog's; empty: the model's generic
    /// stack under each id).
    StackTable stacks;
    /// "x-" keys of any object (spec/scenario.md: ignored by the model), kept so that saving a
    /// file does not drop what another tool or the claims gallery wrote there: key and
    /// value as compact JSON text, in file order.
    std::vector<std::pair<std::string, std::string>> extensions;

    bool isCollective() const { return collective.has_value(); }

    bool operator==(const Scenario &) const = default;
};

} // namespace scalescope
