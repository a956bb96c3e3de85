// A scenario (spec/scenario.md): hardware, model, training, parallel plan and effects.
#pragma once

#include "hardware/hardware.h"
#include "workload/workload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalescope
{

enum class Optimizer { SGD, Adam };
enum class Recompute { None, Selective, Full };
enum class Schedule { GPipe, OneFOneB, Interleaved };
enum class UpdateMode { Sync, Async };

struct TrainingSpec {
    int64_t global_batch = 0;
    int64_t micro_batch = 0; // 0 = global_batch / data
    Precision precision = Precision::BF16;
    Optimizer optimizer = Optimizer::Adam;
    Recompute recompute = Recompute::None;
    bool flash_attention = false; // extension: fused attention (no s^2 tensors in memory)
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
};

struct StragglerSpec {
    int gpu = 0;
    double slowdown = 1.0; // duration multiplier, >= 1
};

struct ThermalSpec {
    bool enabled = false;
    double throttle_above_c = 84;
    double clock_drop = 0.15; // fractional clock loss while throttled
    double warmup_s = 60;     // time constant of the temperature rise under load
};

struct DataLoaderSpec {
    bool enabled = false;
    int workers_per_gpu = 0;
    double samples_per_s_per_worker = 0;
};

struct EffectsSpec {
    uint64_t seed = 1;
    double jitter = 0; // relative standard deviation of each compute task's duration
    std::vector<StragglerSpec> stragglers;
    ThermalSpec thermal;
    DataLoaderSpec data_loader;

    /// Effects that make GPUs differ, so every replica must be simulated. (Thermal
    /// throttling in steady state slows every GPU alike.)
    bool perRank() const { return jitter > 0 || !stragglers.empty(); }
};

enum class CollectiveOp { AllReduce, AllGather, ReduceScatter, Broadcast, AllToAll };
enum class CollectiveAlgo { Auto, Ring, Tree, NVLS, Hierarchical };
const char *collectiveOpName(CollectiveOp op);
const char *collectiveAlgoName(CollectiveAlgo a);

struct CollectiveSpec {
    CollectiveOp op = CollectiveOp::AllReduce;
    double bytes = 0;
    CollectiveAlgo algorithm = CollectiveAlgo::Auto;
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

    bool isCollective() const { return collective.has_value(); }
};

} // namespace scalescope
