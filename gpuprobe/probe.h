// The measurement runner: which tests, in which order, with which method (warm-up, CUDA
// events, median of repetitions, a result check for every figure), and the profile it
// fills. It talks to the GPU only through a Backend, so every path runs in tests on a fake.
#pragma once

#include "backend.h"
#include "cluster.h"

#include "hardware/calibration.h"

#include <QByteArray>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scalescope::gpuprobe
{

inline constexpr const char *kVersion = "0.1.0";

enum class TestId { Gemm, Memory, Transfer, Launch, P2P, Nccl, Thermal };
inline constexpr TestId kAllTests[] = {TestId::Gemm,   TestId::Memory, TestId::Transfer,
                                       TestId::Launch, TestId::P2P,    TestId::Nccl,
                                       TestId::Thermal};
const char *testName(TestId test);
std::optional<TestId> testFromName(std::string_view name);

struct ProbeOptions {
    /// Tests to run, in kAllTests order; thermal only when asked for (--thermal, --tests).
    std::vector<TestId> tests = {TestId::Gemm,   TestId::Memory, TestId::Transfer,
                                 TestId::Launch, TestId::P2P,    TestId::Nccl};
    std::vector<int> devices; // CUDA device indices; empty = all
    bool quick = false;
    double thermal_s = 60;
    double thermal_sample_s = 0.5;
    GemmLibrary gemm_library = GemmLibrary::CublasLt;
    // Sizes; 0 or empty = chosen from the GPU (L2 and memory size) and `quick`.
    size_t memory_array_bytes = 0;
    size_t transfer_bytes = 0;
    size_t p2p_bytes = 0;
    size_t collective_max_bytes = 0;
    std::vector<int64_t> gemm_sizes; // square m = n = k
    int repetitions = 0;             // timed repetitions per figure (0 = default)
    int warmup = -1;                 // warm-up runs before them (-1 = default)
    double min_batch_s = 2e-3;       // short operations are timed in batches this long
    int launch_kernels = 1000;       // empty kernels per timed batch (launch overhead)
    int p2p_small_copies = 100;      // 8-byte copies per timed batch (p2p latency)
    /// The collective watchdog: queued NCCL work that has not completed this many seconds
    /// after the probe starts waiting for it is a hang; the communicators are aborted
    /// (ncclCommAbort), the error is recorded, and the run goes on with the next test.
    double collective_timeout_s = 30;
    std::string tool = std::string("gpuprobe ") + kVersion;

    bool has(TestId t) const;
};

/// Receives what the run does, as it happens (the --progress lines, see README.md).
class ProbeListener
{
public:
    virtual ~ProbeListener() = default;
    virtual void progress(int done, int total, const std::string &test,
                          const std::string &message) = 0;
    virtual void skipped(const std::string &test, const std::string &reason) = 0;
    virtual void error(const std::string &test, const std::string &message) = 0;
};

/// Figures the profile format has no key for, written under "x-gpuprobe".
struct ProbeDetails {
    struct Memory {
        int gpu = 0;
        double array_bytes = 0;
        double copy_gbps = 0, triad_gbps = 0;
    };
    struct PeerOff {
        int src = 0, dst = 0;
        double bandwidth_gbps = 0, latency_us = 0;
    };
    std::vector<Memory> memory;
    std::vector<PeerOff> p2p_peer_access_off;
    int warmup = 0, repetitions = 0;
    std::string gemm_library;
    std::string cublas_libraries; // the sonames loaded ("libcublas.so.13, libcublasLt.so.13")
};

struct ProbeResult {
    CalibrationProfile profile;
    ProbeDetails details;
    /// No usable GPU (built without CUDA, no driver, no device): the reason, one line.
    std::string no_gpu_reason;
    /// A bad --devices list (known only once the devices are counted).
    std::string argument_error;
    /// This process is an MPI rank other than 0: it helped measure, rank 0 writes.
    bool secondary_rank = false;
};

/// Runs the probe. Never throws for GPU failures: each one becomes an `errors` entry naming
/// the call, and the run goes on with the next figure.
ProbeResult runProbe(Backend &backend, Cluster &cluster, const ProbeOptions &options,
                     ProbeListener *listener);

/// The profile document (model/io writeProfile) with the probe's method and extra figures
/// under "x-gpuprobe".
QByteArray writeProbeProfile(const ProbeResult &result);

/// nccl-tests' definitions (doc/PERFORMANCE.md): algbw = bytes / time, busbw = algbw x
/// the model's busBandwidthFactor (plan/scenario.h), one definition for probe and model.
using scalescope::busBandwidthFactor;

/// The current time as ISO 8601 UTC ("2026-11-30T10:00:00Z").
std::string isoNow();
std::string localHostname();
std::string localCpuName();

} // namespace scalescope::gpuprobe
