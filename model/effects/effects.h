// The effects that make real runs slower than their plan (spec/scenario.md "effects"):
// jitter, stragglers, thermal throttling, data loaders, virtual GPUs and failures. What a
// scenario file says about each, and the physics of the ones that change over time
// (thermal.cpp). Below plan/ and sim/, which read them; above nothing but the standard
// library.
#pragma once

#include "hardware/hardware.h"
#include "workload/workload.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace scalescope
{

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
    /// The cooling of the speed-up reference's one GPU (spec/cli.md: hot spots left out):
    /// the coolest steady-state temperature among a job of `gpus` GPUs, the common one
    /// included when a GPU of the job is not listed. No GPU of the job runs cooler, so the
    /// reference is never slowed where the job is not (efficiency <= 1).
    double referenceSteadyC(int gpus) const;

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

/// An input pipeline whose CPU cost per sample comes from the catalog below
/// (effects.data_loader.pipeline); None: the scenario states a rate per worker.
enum class LoaderPipeline { None, Pil, PilSimd, DaliCpu, DaliGpu };
const char *loaderPipelineName(LoaderPipeline p);

struct DataLoaderSpec {
    bool enabled = false;
    int workers_per_gpu = 0; // 0: the training process loads the data itself (PyTorch)
    double samples_per_s_per_worker = 0; // as stated; 0 with a pipeline
    int prefetch_factor = 2; // batches each worker keeps ready (PyTorch DataLoader default)
    LoaderPipeline pipeline = LoaderPipeline::None;

    bool operator==(const DataLoaderSpec &) const = default;
};

/// CPU core-seconds to decode, augment and collate one sample of `input_elements` (pixels x
/// channels) with `pipeline` (effects.cpp: the catalog, with its sources).
double loaderCpuSecondsPerSample(LoaderPipeline pipeline, double input_elements);

/// Samples per second one worker delivers: the stated rate, or with a pipeline one worker's
/// share of the node's CPU cores (the training processes hold one core each, PyTorch
/// DistributedDataParallel's one process per GPU) over the pipeline's cost per sample.
double loaderSamplesPerWorker(const DataLoaderSpec &d, const HardwareSpec &hw,
                              const ModelSpec &model);

/// Samples per second one GPU's loader delivers. PyTorch's num_workers = 0 loads in the
/// main process, at the rate of one worker (torch.utils.data documentation, "Single- and
/// Multi-process Data Loading").
inline double loaderRate(const DataLoaderSpec &d, const HardwareSpec &hw, const ModelSpec &model)
{
    return std::max(1, d.workers_per_gpu) * loaderSamplesPerWorker(d, hw, model);
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
    /// Tokens received by the busiest expert over the mean, per MoE layer (1 = balanced
    /// routing, as benchmarks force it): the layer's experts finish when the busiest does.
    double expert_imbalance = 1;

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

} // namespace scalescope
