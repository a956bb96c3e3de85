// A calibration profile (spec/profile.md): what gpuprobe measured on a machine. The model
// uses these figures in place of the catalog's datasheet numbers.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalescope
{

struct ProfileGemmPoint {
    double m = 0, n = 0, k = 0;
    double tflops = 0;

    bool operator==(const ProfileGemmPoint &) const = default;
};

struct ProfileThermalSample {
    double t_s = 0;
    double sm_clock_mhz = 0;
    double temperature_c = 0;
    double power_w = 0;
    std::vector<std::string> throttle; // NVML throttle reasons, e.g. "sw_power_cap"

    bool operator==(const ProfileThermalSample &) const = default;
};

struct ProfileGpu {
    int index = 0;
    std::string name;
    std::string uuid;
    std::string pci_bus_id;
    std::string compute_capability;
    int sm_count = 0;
    double memory_bytes = 0;
    // Keyed by precision name: fp32, tf32, fp16, bf16, fp8 (index = Precision).
    std::array<std::vector<ProfileGemmPoint>, 5> gemm_tflops;
    double memory_bandwidth_gbps = 0; // 0 = not measured
    double h2d_pinned_gbps = 0, h2d_pageable_gbps = 0;
    double d2h_pinned_gbps = 0, d2h_pageable_gbps = 0;
    double launch_overhead_us = 0; // GPU side: the gap between back-to-back empty kernels
    // Host side, what a framework pays that gpuprobe can measure without one: the CPU time
    // to issue one kernel launch (cudaLaunchKernel returning), and an empty kernel's launch
    // plus cudaStreamSynchronize round trip on an idle stream. 0 = not measured.
    double host_launch_us = 0;
    double sync_round_trip_us = 0;
    double thermal_duration_s = 0;
    std::vector<ProfileThermalSample> thermal_samples;

    bool operator==(const ProfileGpu &) const = default;
};

struct ProfileP2P {
    int src = 0, dst = 0;
    bool access = false;
    double bandwidth_gbps = 0;
    double latency_us = 0;

    bool operator==(const ProfileP2P &) const = default;
};

struct ProfileCollective {
    std::string op; // all_reduce, all_gather, reduce_scatter, broadcast, all_to_all
    int gpus = 0;
    int nodes = 1;
    double bytes = 0;
    double time_s = 0;
    double algbw_gbps = 0;
    double busbw_gbps = 0;

    bool operator==(const ProfileCollective &) const = default;
};

struct ProfileNote {
    std::string test;
    std::string text; // "reason" of a skipped test, "message" of an error

    bool operator==(const ProfileNote &) const = default;
};

/// A software stack's host time per operation as measured on this machine (for example with
/// the PyTorch profiler's CPU time per operator): it overrides the catalog's
/// training.framework host.op_us where the profile applies.
struct ProfileFrameworkHost {
    std::string framework; // a catalog id (resources/catalogs/frameworks.json)
    double op_us = 0;

    bool operator==(const ProfileFrameworkHost &) const = default;
};

struct CalibrationProfile {
    int version = 1;
    std::string created; // ISO 8601
    std::string tool;
    std::string hostname, cpu, driver, cuda_runtime, nccl;
    int gpus_per_node = 0;
    int nodes = 0;
    std::vector<ProfileGpu> gpus;
    std::vector<ProfileP2P> p2p;
    std::vector<ProfileCollective> collectives;
    std::vector<ProfileFrameworkHost> framework_host;
    std::vector<ProfileNote> skipped;
    std::vector<ProfileNote> errors;
    std::string path; // where it was loaded from (not serialised)

    bool operator==(const CalibrationProfile &) const = default;
};

} // namespace scalescope
