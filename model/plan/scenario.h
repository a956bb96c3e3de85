// A scenario (spec/scenario.md): hardware, model, training, parallel plan and effects.
#pragma once

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
    bool flash_attention = false; // extension: fused attention (no s^2 tensors in memory)
    /// training.framework as written: a catalog id or "auto".
    std::string framework = kFrameworkAuto;
    /// The stack the model uses: the named catalog entry, or under "auto" the entry that
    /// autoFrameworkId() picks for the plan (plan/framework_rules.h).
    FrameworkSpec stack;

    bool operator==(const TrainingSpec &) const = default;
};

struct ParallelSpec {
    int data = 0; // 0 = GPU count / (tensor * pipeline)
    int tensor = 1;
    int pipeline = 1;
    int zero = 0;
    Schedule schedule = Schedule::OneFOneB;
    int virtual_stages = 1;
    bool overlap = true;
    double bucket_mb = 25;
    bool sequence_parallel = false;
    UpdateMode update = UpdateMode::Sync;

    bool operator==(const ParallelSpec &) const = default;
};

struct StragglerSpec {
    int gpu = 0;
    double slowdown = 1.0; // duration multiplier, >= 1

    bool operator==(const StragglerSpec &) const = default;
};

/// Steady-state temperature of one GPU under sustained load (its cooling).
struct ThermalGpuSpec {
    int gpu = 0;
    double steady_c = 0;

    bool operator==(const ThermalGpuSpec &) const = default;
};

struct ThermalSpec {
    bool enabled = false;
    double throttle_above_c = 84;
    double clock_drop = 0.15; // fractional clock loss while throttled
    double warmup_s = 60;     // time constant of the temperature rise under load
    double ambient_c = 30;    // temperature at the start (idle GPU at intake air)
    /// Steady-state temperature under sustained load of every GPU not listed in `gpus`;
    /// unset: every GPU settles above the threshold (the steady-state model of version 1).
    std::optional<double> steady_c;
    std::vector<ThermalGpuSpec> gpus; // per-GPU steady-state temperatures (cooling)
    /// Seconds of load before the first simulated step; unset: steady state (long run).
    std::optional<double> start_s;

    /// Steady-state temperature of `gpu` under load.
    double steadyC(int gpu) const;
    /// Temperature after `t_s` seconds of load: first-order (RC) thermal model, Newton's
    /// law of cooling, T = Ta + (Tss - Ta)(1 - exp(-t/tau)) (Skadron et al. ISCA 2003).
    double temperatureC(int gpu, double t_s) const;
    /// Seconds of load until `gpu` exceeds throttle_above_c (infinity when it never does).
    double throttleOnsetS(int gpu) const;
    /// Whether `gpu` throttles after `t_s` seconds of load (start_s unset: steady state).
    bool throttledAt(int gpu, double t_s) const;
    /// Whether GPUs differ, or change during the simulated steps (start_s set).
    bool varies(int gpus) const;

    bool operator==(const ThermalSpec &) const = default;
};

/// Preset steady-state temperatures of a cooling class (assumptions, see docs/scenario.md).
inline constexpr double kCoolingDatacenterC = 70;  // SXM board in a server with ducted airflow
inline constexpr double kCoolingWorkstationC = 80; // open-air cards with space between them
inline constexpr double kCoolingPoorC = 92;        // cards packed in a poorly ventilated case
/// Without steady temperatures (the steady-state model of version 1) every GPU settles this far
/// above throttle_above_c: an assumption, not a measurement. Only the side of the threshold
/// matters in steady state; with start_s it sets how soon a GPU reaches the threshold.
inline constexpr double kUnstatedSteadyAboveThrottleC = 6;

/// A fraction of a physical GPU (time-sliced vGPU or shared GPU).
struct VirtualGpuSpec {
    bool enabled = false;
    double fraction = 1;     // share of the physical GPU's time (and memory) this job gets
    bool host_routed = true; // no peer-to-peer: GPU-to-GPU traffic goes through host memory

    bool operator==(const VirtualGpuSpec &) const = default;
};

/// Failures and checkpointing (goodput over a long run).
struct FailureSpec {
    bool enabled = false;
    double mtbf_hours_per_gpu = 50000;
    double checkpoint_bytes = 0;      // 0 = model states (parameters, gradients, optimizer)
    double checkpoint_write_gbps = 5; // storage write bandwidth, GB/s, all writers together
    double restart_s = 600;           // from failure to training again (excluding rework)
    double checkpoint_interval_s = 0; // 0 = the optimum (Young/Daly)

    bool operator==(const FailureSpec &) const = default;
};

struct DataLoaderSpec {
    bool enabled = false;
    int workers_per_gpu = 0; // 0: the training process loads the data itself (PyTorch)
    double samples_per_s_per_worker = 0;
    int prefetch_factor = 2; // batches each worker keeps ready (PyTorch DataLoader default)

    bool operator==(const DataLoaderSpec &) const = default;
};

/// Samples per second one GPU's loader delivers. PyTorch's num_workers = 0 loads in the
/// main process, at the rate of one worker (torch.utils.data documentation, "Single- and
/// Multi-process Data Loading").
inline double loaderRate(const DataLoaderSpec &d)
{
    return std::max(1, d.workers_per_gpu) * d.samples_per_s_per_worker;
}

/// Batches the loader keeps ready ahead of the GPU: prefetch_factor per worker, one for the
/// main process (which loads the next batch only after issuing the current one).
inline int loaderDepth(const DataLoaderSpec &d)
{
    return d.workers_per_gpu > 0 ? std::max(1, d.prefetch_factor * d.workers_per_gpu) : 1;
}

struct EffectsSpec {
    uint64_t seed = 1;
    double jitter = 0; // relative standard deviation of each compute task's duration
    std::vector<StragglerSpec> stragglers;
    ThermalSpec thermal;
    DataLoaderSpec data_loader;
    VirtualGpuSpec virtual_gpu;
    FailureSpec failures;

    /// Effects that make GPUs differ, so every replica must be simulated. (Thermal
    /// throttling in steady state slows every GPU alike unless their cooling differs.)
    bool perRank(int gpus = 0) const
    {
        return jitter > 0 || !stragglers.empty() || (thermal.enabled && thermal.varies(gpus));
    }

    /// Drops the stragglers and GPUs with their own cooling that a cluster of `gpus` GPUs
    /// does not have (a sweep point or a planned count smaller than the scenario's).
    void restrictTo(int gpus);

    bool operator==(const EffectsSpec &) const = default;
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
    /// "x-" keys of any object (spec/scenario.md: ignored by the model), kept so that saving a
    /// file does not drop what another tool or the claims gallery wrote there: key and
    /// value as compact JSON text, in file order.
    std::vector<std::pair<std::string, std::string>> extensions;

    bool isCollective() const { return collective.has_value(); }

    bool operator==(const Scenario &) const = default;
};

} // namespace scalescope
