// A scenario (spec/scenario.md): hardware, model, training, parallel plan and effects.
#pragma once

#include "effects/effects.h"
#include "hardware/framework.h"
#include "hardware/hardware.h"
#include "plan/collective_op.h"
#include "workload/workload.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace scalescope
{

enum class Optimizer { SGD, Adam };
enum class Recompute { None, Selective, Full };
enum class Schedule { GPipe, OneFOneB, Interleaved };
enum class UpdateMode { Sync, Async };

/// The scenario file's name of a schedule ("gpipe", "1f1b", "interleaved").
const char *scheduleName(Schedule s);

struct TrainingSpec {
    int64_t global_batch = 0;
    int64_t micro_batch = 0; // 0 = global_batch / data
    Precision precision = Precision::BF16;
    Optimizer optimizer = Optimizer::Adam;
    Recompute recompute = Recompute::None;
    /// Extension: fused attention (no s^2 tensors in memory); unset: the stack's default.
    std::optional<bool> flash_attention;
    /// The step is compiled (torch.compile, XLA): elementwise chains fused into one kernel
    /// each, fewer host operations (hardware/kernel_model.h, ComputeModel::setCompiled).
    bool compile = false;
    /// training.framework as written: a catalog id or "auto". The stack that runs the plan
    /// is derived from it when a plan is made (stackOf, plan/framework_rules.h).
    std::string framework = kFrameworkAuto;

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
