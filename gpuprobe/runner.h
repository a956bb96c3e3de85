// The probe's Runner (runProbe, probe.h): its steps, timing helpers and tests. Private to
// gpuprobe: runner.cpp holds its core, probe_<test>.cpp each test, one file a test.
#pragma once

#include "backend_objects.h"
#include "probe.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace scalescope::gpuprobe::probe_detail
{

inline constexpr size_t kMiB = size_t(1) << 20;
inline constexpr size_t kGiB = size_t(1) << 30;

/// The collective watchdog aborted the communicators: its deadline passed, or NCCL reported
/// an asynchronous error.
struct CollectiveAborted {
    std::string message;
};

/// "64 MiB", "1.5 KiB", "48 bytes".
std::string sizeText(double bytes);
std::string fmt(double value, int decimals = 1);
std::string gpuLabel(int device);
/// The profile's test name of one GEMM precision ("gemm.bf16").
std::string gemmTestName(Precision p);
double median(std::vector<double> values);
/// Progress steps of the launch test on one GPU: its GPU-side figure, then its host-side ones.
inline constexpr int kLaunchSteps = 2;

struct Method {
    int warmup;
    int repetitions;
};

/// Seeds: one per buffer role, so a copy that did not happen is caught.
inline constexpr uint64_t kSeedA = 0x5ca1e5c0be01ULL, kSeedB = 0x5ca1e5c0be02ULL,
                          kSeedC = 0x5ca1e5c0be03ULL, kSeedD = 0x5ca1e5c0be04ULL;

class Runner
{
public:
    Runner(Backend &backend, Cluster &cluster, const ProbeOptions &options, ProbeListener *listener)
        : b_(backend), cluster_(cluster), o_(options), listener_(listener)
    {
        method_ = o_.quick ? Method{2, 5} : Method{3, 15};
        if (o_.repetitions > 0)
            method_.repetitions = o_.repetitions;
        if (o_.warmup >= 0)
            method_.warmup = o_.warmup;
    }

    ProbeResult run();

private:
    struct Gpu {
        int device;
        DeviceInfo info;
        size_t profile_index;
    };

    // Recording.
    void skip(const std::string &test, const std::string &reason)
    {
        r_.profile.skipped.push_back({test, reason});
        if (listener_)
            listener_->skipped(test, reason);
    }
    void fail(const std::string &test, const std::string &message)
    {
        r_.profile.errors.push_back({test, message});
        if (listener_)
            listener_->error(test, message);
    }
    void failCall(const std::string &test, const std::string &where, const CallStatus &s)
    {
        fail(test, where + ": " + s.call + ": " + s.message);
    }
    void step(const std::string &test, const std::string &message)
    {
        ++done_;
        if (listener_)
            listener_->progress(done_, total_, test, message);
    }
    /// After a test stopped early: count its remaining steps as done.
    void finishTest(int end, const std::string &test)
    {
        if (done_ < end) {
            done_ = end;
            if (listener_)
                listener_->progress(done_, total_, test, "stopped early");
        }
    }
    ProfileGpu &profileOf(const Gpu &g) { return r_.profile.gpus[g.profile_index]; }

    // Planning (the same functions decide what runs and how many progress steps it has).
    bool precisionSupported(const Gpu &g, Precision p, std::string *why) const;
    std::vector<int64_t> gemmSizes(const Gpu &g, Precision p) const;
    size_t memoryArrayBytes(const Gpu &g) const;
    size_t transferBytes() const;
    size_t p2pBytes() const;
    size_t collectiveMaxBytes() const;
    std::vector<size_t> collectiveSizes() const;
    int thermalSamples() const;
    bool multiRank() const { return cluster_.size() > 1; }
    /// Waits for the group's queued collectives, polling (ncclQuery) against the
    /// --collective-timeout deadline; on expiry, or on an asynchronous NCCL error, aborts
    /// the group and throws CollectiveAborted. `what` names the collective ("all_reduce of
    /// 64 MiB on 8 GPUs").
    void waitCollective(NcclGroup &group, const std::string &what);
    bool localTests() const { return cluster_.rank() == 0; }
    int planSteps() const;

    // Timing.
    double timeMedian(int device, const std::function<void()> &enqueue);
    double timeMedianPerCall(int device, const std::function<void()> &once, double batch_s);

    // Tests.
    bool openGpus();
    void runGemm(const Gpu &g);
    void runMemory(const Gpu &g);
    void runTransfer(const Gpu &g);
    void runLaunch(const Gpu &g);
    void runP2P();
    void measurePair(const Gpu &src, const Gpu &dst);
    void runNccl();
    void runCollectives(NcclGroup &group, const std::vector<int> &devices, int nranks,
                        int first_rank);
    void runThermal();

    Backend &b_;
    Cluster &cluster_;
    const ProbeOptions &o_;
    ProbeListener *listener_;
    Method method_{};
    ProbeResult r_;
    std::vector<Gpu> gpus_;
    bool nvml_ = false;
    std::string nvml_error_;
    bool cublas_ = false;      // cuBLAS and cuBLASLt loaded (GEMM tests, thermal load)
    std::string cublas_error_; // why not, naming the library
    int done_ = 0, total_ = 0;
};

} // namespace scalescope::gpuprobe::probe_detail
