// A Backend without hardware: plausible timings from a virtual clock per GPU, buffers that
// remember what filled them, and fault injection (fail the n-th call, or corrupt a check).
// Used by the tests and by `gpuprobe --fake-gpus N` (GUI tests without a GPU).
#pragma once

#include "backend.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace scalescope::gpuprobe
{

class FakeBackend final : public Backend
{
public:
    struct Config {
        int gpus = 1;
        std::string init_failure; // non-empty: init fails with this message (no GPU)
        std::string init_call = "cudaGetDeviceCount"; // the call named by that failure
        bool cublas = true;                           // libcublas.so.13 "found"
        bool nccl = true;                             // libnccl.so.2 "found"
        bool nvml = true;                             // libnvidia-ml.so.1 "found"
        bool peer_access = true;                      // GPU pairs can access each other
        int cc_major = 9, cc_minor = 0;
        std::string name = "Fake GPU";
        double memory_bytes = 80e9;
        double l2_bytes = 50e6;
        // Timing model.
        double gemm_peak_tflops[5] = {60, 400, 800, 800, 1600}; // fp32 tf32 fp16 bf16 fp8
        double memory_gbps = 3000;
        double pinned_gbps = 50, pageable_gbps = 20;
        double launch_us = 2.5;
        double peer_gbps = 300, staged_gbps = 20, peer_latency_us = 2, staged_latency_us = 10;
        double nccl_bus_gbps = 300, nccl_latency_us = 15;
        /// A collective that never completes ("all_reduce", "all_gather", "reduce_scatter";
        /// empty = none): ncclQuery says "not done" until the group is aborted.
        std::string hang_collective;
        /// An NVML older than R535 (nvmlDeviceGetCurrentClocksThrottleReasons).
        bool nvml_legacy_throttle = false;
    };

    explicit FakeBackend(Config config);
    FakeBackend() : FakeBackend(Config()) {}
    ~FakeBackend() override;

    /// The `index`-th counted call (0-based, in call order) fails with "injected failure".
    void failCall(int index) { fail_at_ = index; }
    /// The library function `api` (a name from api_calls.h) fails wherever the real backend
    /// makes it, or only in the method `fault_point` (api_calls.h's fault_point); `times`
    /// limits how often (-1: every time). The method fails as the real one would (naming the
    /// call; a kernel launch under the kernel's name); a failure the real backend ignores
    /// (cleanup) is counted but has no effect.
    void failApi(std::string api, std::string fault_point = std::string(), int times = -1)
    {
        fail_apis_[{std::move(api), std::move(fault_point)}] = times;
    }
    /// How many times a failApi fault fired (reported or ignored).
    int injectedFaults() const { return injected_; }
    /// Result checks of this kind report wrong results ("verifyRandom", "verifyTriad",
    /// "verifyCollective", "gemmCheck", "emptyKernel", "hostCopy").
    void corrupt(std::string check) { corrupt_.insert(std::move(check)); }
    /// Names of the counted calls made so far, in order.
    const std::vector<std::string> &calls() const { return calls_; }
    /// Memory still allocated (a leak check for tests): device and host buffers, events,
    /// GEMM plans, NCCL groups.
    size_t liveObjects() const;

    std::string name() const override { return "fake"; }
    CallStatus init(RuntimeInfo *info) override;
    CallStatus deviceInfo(int device, DeviceInfo *out) override;
    CallStatus openDevice(int device) override;
    void closeDevice(int device) override;
    CallStatus deviceMalloc(int device, size_t bytes, void **ptr) override;
    void deviceFree(int device, void *ptr) override;
    CallStatus hostMalloc(size_t bytes, bool pinned, void **ptr) override;
    void hostFree(void *ptr, bool pinned) override;
    CallStatus memcpyAsync(int device, void *dst, const void *src, size_t bytes,
                           CopyKind kind) override;
    CallStatus memcpyPeerAsync(int dst_device, void *dst, int src_device, const void *src,
                               size_t bytes) override;
    CallStatus fillRandom(int device, void *ptr, DataType type, size_t count,
                          uint64_t seed) override;
    CallStatus verifyRandom(int device, const void *ptr, size_t count, uint64_t seed,
                            uint64_t *mismatches) override;
    CallStatus copyKernel(int device, double *dst, const double *src, size_t count) override;
    CallStatus triadKernel(int device, double *a, const double *b, const double *c, double scalar,
                           size_t count) override;
    CallStatus verifyTriad(int device, const double *a, const double *b, const double *c,
                           double scalar, size_t count, uint64_t *mismatches) override;
    CallStatus emptyKernel(int device, unsigned *counter) override;
    CallStatus fillRanked(int device, float *ptr, size_t count, uint64_t seed, int rank) override;
    CallStatus verifyCollective(int device, const float *recv, const CollectiveCheck &check,
                                uint64_t *mismatches) override;
    CallStatus gemmCheck(int device, const GemmSpec &spec, const void *a, const void *b,
                         const void *d, int samples, uint64_t seed, double *max_error) override;
    CallStatus eventCreate(int device, void **event) override;
    void eventDestroy(int device, void *event) override;
    CallStatus eventRecord(int device, void *event) override;
    CallStatus eventElapsed(void *start, void *end, double *seconds) override;
    CallStatus synchronize(int device) override;
    CallStatus canAccessPeer(int device, int peer, bool *can) override;
    CallStatus setPeerAccess(int device, int peer, bool enable) override;
    CallStatus cublasLoad(std::string *sonames) override;
    CallStatus gemmSetup(int device, const GemmSpec &spec, const void *a, const void *b, void *d,
                         void **plan) override;
    CallStatus gemmRun(void *plan) override;
    void gemmDestroy(void *plan) override;
    CallStatus ncclLoad(std::string *version) override;
    CallStatus ncclGetUniqueId(NcclId *id) override;
    CallStatus ncclInitAll(const std::vector<int> &devices, void **group) override;
    CallStatus ncclInitRank(int device, int nranks, int rank, const NcclId &id,
                            void **group) override;
    CallStatus ncclRun(void *group, CollectiveOp op, const std::vector<const float *> &send,
                       const std::vector<float *> &recv, size_t count) override;
    CallStatus ncclQuery(void *group, bool *done) override;
    CallStatus ncclAbort(void *group) override;
    void ncclDestroy(void *group) override;
    CallStatus nvmlLoad(std::string *driver_version) override;
    CallStatus nvmlDeviceHandle(const std::string &pci_bus_id, void **handle) override;
    CallStatus nvmlSmClock(void *handle, unsigned *mhz) override;
    CallStatus nvmlTemperature(void *handle, unsigned *celsius) override;
    CallStatus nvmlPower(void *handle, unsigned *milliwatts) override;
    CallStatus nvmlThrottleReasons(void *handle, unsigned long long *mask) override;
    void nvmlUnload() override;

private:
    struct Buffer {
        int device = -1;
        size_t bytes = 0;
        bool random = false; // filled by fillRandom(F64) with `seed`
        uint64_t seed = 0;
        unsigned counter = 0; // a 4-byte buffer: what the empty kernels counted
    };
    struct Plan {
        int device;
        GemmSpec spec;
    };
    struct Group {
        std::vector<int> devices;
        int nranks;
        bool hung = false;    // a collective that never completes was queued
        bool aborted = false; // ncclAbort
    };

    /// Counts the call (`call` names it in calls()) made by the method `fault_point`
    /// (api_calls.h) and decides whether it fails.
    CallStatus enter(const char *call, const char *fault_point);
    /// A method whose failures the real backend ignores (cleanup): counts injected faults.
    void cleanup(const char *fault_point);
    bool validDevice(int device) const { return device >= 0 && device < config_.gpus; }
    void advance(int device, double seconds);

    Config config_;
    int fail_at_ = -1;
    std::map<std::pair<std::string, std::string>, int> fail_apis_; // -> failures left
    /// Whether a failApi fault for `api` at its fault point fires now (and counts it).
    bool injectNow(const char *api, const char *fault_point);
    int injected_ = 0;
    std::set<std::string> corrupt_;
    std::vector<std::string> calls_;
    std::vector<double> clock_s_; // virtual time per GPU
    std::set<std::pair<int, int>> peer_enabled_;
    std::map<uintptr_t, Buffer> buffers_;
    uintptr_t next_address_ = 0x100000;
    std::set<void *> host_buffers_;
    std::set<const void *> pinned_;
    std::map<void *, std::pair<int, double>> events_; // event -> device, recorded time
    std::set<Plan *> plans_;
    std::set<Group *> groups_;
    bool nvml_loaded_ = false;
    int nvml_reads_ = 0;
};

} // namespace scalescope::gpuprobe
