// The simulated GPUs of tests and --fake-gpus (fake_backend.h). About 610 lines on purpose:
// one method per Backend call, each with its virtual clock and its fault point.
#include "fake_backend.h"

#include "api_calls.h"
#include "probe.h"
#include "random.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace scalescope::gpuprobe
{

namespace
{

const char *kInjected = "injected failure";

/// What the real backend reports where cuBLAS is not installed.
CallStatus cublasMissing()
{
    return CallStatus::failure("dlopen(libcublas.so.13)",
                               "libcublas.so.13: cannot open shared object file");
}

} // namespace

FakeBackend::FakeBackend(Config config) : config_(std::move(config))
{
    clock_s_.assign(static_cast<size_t>(std::max(0, config_.gpus)), 0.0);
}

FakeBackend::~FakeBackend()
{
    for (void *p : host_buffers_)
        std::free(p);
    for (Plan *p : plans_)
        delete p;
    for (Group *g : groups_)
        delete g;
    for (auto &e : events_)
        delete static_cast<char *>(e.first);
}

size_t FakeBackend::liveObjects() const
{
    return buffers_.size() + host_buffers_.size() + events_.size() + plans_.size() + groups_.size();
}

CallStatus FakeBackend::enter(const char *call, const char *fault_point)
{
    const int index = static_cast<int>(calls_.size());
    calls_.emplace_back(call);
    if (index == fail_at_)
        return CallStatus::failure(call, kInjected);
    if (fail_apis_.empty())
        return CallStatus::success();
    // The real method's calls in order: the first failing one is the one reported.
    for (const ApiCall &api : apiCalls()) {
        if (std::strcmp(api.fault_point, fault_point) != 0 || !injectNow(api.name, fault_point))
            continue;
        if (api.effect == FaultEffect::LaunchError)
            return CallStatus::failure(call, kInjected);
        if (api.effect == FaultEffect::Reported)
            return CallStatus::failure(api.name, kInjected);
    }
    return CallStatus::success();
}

bool FakeBackend::injectNow(const char *api, const char *fault_point)
{
    for (const std::string &where : {std::string(), std::string(fault_point)}) {
        auto it = fail_apis_.find({api, where});
        if (it == fail_apis_.end() || it->second == 0)
            continue;
        if (it->second > 0)
            --it->second;
        ++injected_;
        return true;
    }
    return false;
}

void FakeBackend::cleanup(const char *fault_point)
{
    if (fail_apis_.empty())
        return;
    for (const ApiCall &api : apiCalls())
        if (std::strcmp(api.fault_point, fault_point) == 0)
            injectNow(api.name, fault_point); // ignored, as the real backend ignores it
}

void FakeBackend::advance(int device, double seconds)
{
    if (validDevice(device))
        clock_s_[static_cast<size_t>(device)] += seconds;
}

CallStatus FakeBackend::init(RuntimeInfo *info)
{
    CallStatus s = enter("cudaGetDeviceCount", "init");
    if (!s.ok())
        return s;
    if (!config_.init_failure.empty())
        return CallStatus::failure(config_.init_call, config_.init_failure);
    info->device_count = config_.gpus;
    info->driver_version = "13.0";
    info->runtime_version = "13.0";
    return s;
}

CallStatus FakeBackend::deviceInfo(int device, DeviceInfo *out)
{
    CallStatus s = enter("cudaGetDeviceProperties", "deviceInfo");
    if (!s.ok())
        return s;
    if (!validDevice(device))
        return CallStatus::failure("cudaGetDeviceProperties", "invalid device ordinal");
    char bus[32];
    std::snprintf(bus, sizeof bus, "0000:%02x:00.0", 0x18 + device);
    char uuid[64];
    std::snprintf(uuid, sizeof uuid, "GPU-fa4e0000-0000-0000-0000-%012d", device);
    out->name = config_.name;
    out->uuid = uuid;
    out->pci_bus_id = bus;
    out->cc_major = config_.cc_major;
    out->cc_minor = config_.cc_minor;
    out->sm_count = 132;
    out->memory_bytes = config_.memory_bytes;
    out->l2_bytes = config_.l2_bytes;
    return s;
}

CallStatus FakeBackend::openDevice(int device)
{
    CallStatus s = enter("cudaStreamCreateWithFlags", "openDevice");
    if (s.ok() && !validDevice(device))
        return CallStatus::failure("cudaSetDevice", "invalid device ordinal");
    return s;
}

void FakeBackend::closeDevice(int)
{
    cleanup("closeDevice");
}

CallStatus FakeBackend::deviceMalloc(int device, size_t bytes, void **ptr)
{
    CallStatus s = enter("cudaMalloc", "deviceMalloc");
    if (!s.ok())
        return s;
    if (!validDevice(device) || static_cast<double>(bytes) > config_.memory_bytes)
        return CallStatus::failure("cudaMalloc", "out of memory");
    const uintptr_t address = next_address_;
    next_address_ += (bytes + 0xFFFF) & ~uintptr_t(0xFFFF);
    buffers_[address] = Buffer{device, bytes, false, 0, 0};
    *ptr = reinterpret_cast<void *>(address);
    return s;
}

void FakeBackend::deviceFree(int, void *ptr)
{
    cleanup("deviceFree");
    buffers_.erase(reinterpret_cast<uintptr_t>(ptr));
}

CallStatus FakeBackend::hostMalloc(size_t bytes, bool pinned, void **ptr)
{
    CallStatus s =
        enter(pinned ? "cudaMallocHost" : "malloc", pinned ? "hostMalloc(pinned)" : "hostMalloc");
    if (!s.ok())
        return s;
    *ptr = std::malloc(std::max<size_t>(bytes, 1));
    if (!*ptr)
        return CallStatus::failure(pinned ? "cudaMallocHost" : "malloc", "out of memory");
    host_buffers_.insert(*ptr);
    if (pinned)
        pinned_.insert(*ptr);
    return s;
}

void FakeBackend::hostFree(void *ptr, bool pinned)
{
    if (pinned)
        cleanup("hostFree(pinned)");
    pinned_.erase(ptr);
    if (host_buffers_.erase(ptr))
        std::free(ptr);
}

CallStatus FakeBackend::memcpyAsync(int device, void *dst, const void *src, size_t bytes,
                                    CopyKind kind)
{
    CallStatus s = enter("cudaMemcpyAsync", "memcpyAsync");
    if (!s.ok())
        return s;
    if (kind == CopyKind::DeviceToDevice) {
        advance(device, 2.0 * bytes / (config_.memory_gbps * 1e9));
        return s;
    }
    const bool to_device = kind == CopyKind::HostToDevice;
    auto it = buffers_.find(reinterpret_cast<uintptr_t>(to_device ? dst : src));
    if (it == buffers_.end() || bytes > it->second.bytes)
        return CallStatus::failure("cudaMemcpyAsync", "invalid argument");
    Buffer &buffer = it->second;
    if (to_device) {
        buffer.random = false; // the runner checks uploads with verifyRandom
        if (bytes == sizeof(unsigned))
            std::memcpy(&buffer.counter, src, sizeof(unsigned));
    } else if (bytes == sizeof(unsigned)) {
        std::memcpy(dst, &buffer.counter, sizeof(unsigned));
    } else {
        // The host receives what filled the device buffer (random data the runner checks).
        double *out = static_cast<double *>(dst);
        const size_t n = bytes / sizeof(double);
        for (size_t i = 0; i < n; ++i)
            out[i] = buffer.random ? randomValue(buffer.seed, i) : 0.0;
        if (corrupt_.count("hostCopy") && n > 0)
            out[n / 2] += 1.0;
    }
    const void *host = to_device ? src : dst;
    const double gbps = pinned_.count(host) ? config_.pinned_gbps : config_.pageable_gbps;
    advance(device, bytes / (gbps * 1e9));
    return s;
}

CallStatus FakeBackend::memcpyPeerAsync(int dst_device, void *, int src_device, const void *,
                                        size_t bytes)
{
    CallStatus s = enter("cudaMemcpyPeerAsync", "memcpyPeerAsync");
    if (!s.ok())
        return s;
    const bool peer = peer_enabled_.count({src_device, dst_device}) > 0;
    const double bw = (peer ? config_.peer_gbps : config_.staged_gbps) * 1e9;
    const double lat = (peer ? config_.peer_latency_us : config_.staged_latency_us) * 1e-6;
    advance(src_device, lat + bytes / bw);
    return s;
}

CallStatus FakeBackend::fillRandom(int device, void *ptr, DataType type, size_t count,
                                   uint64_t seed)
{
    CallStatus s = enter("fillRandom<<<>>>", "fillRandom");
    if (!s.ok())
        return s;
    auto it = buffers_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == buffers_.end() || count * dataTypeBytes(type) > it->second.bytes)
        return CallStatus::failure("fillRandom<<<>>>", "invalid argument");
    it->second.random = type == DataType::F64;
    it->second.seed = seed;
    advance(device, count * dataTypeBytes(type) / (config_.memory_gbps * 1e9));
    return s;
}

CallStatus FakeBackend::verifyRandom(int, const void *, size_t, uint64_t, uint64_t *mismatches)
{
    CallStatus s = enter("verifyRandom<<<>>>", "verifyRandom");
    if (s.ok())
        *mismatches = corrupt_.count("verifyRandom") ? 3 : 0;
    return s;
}

CallStatus FakeBackend::copyKernel(int device, double *, const double *, size_t count)
{
    CallStatus s = enter("copy<<<>>>", "copyKernel");
    if (s.ok())
        advance(device, 2.0 * count * sizeof(double) / (config_.memory_gbps * 1e9));
    return s;
}

CallStatus FakeBackend::triadKernel(int device, double *, const double *, const double *, double,
                                    size_t count)
{
    CallStatus s = enter("triad<<<>>>", "triadKernel");
    if (s.ok())
        advance(device, 3.0 * count * sizeof(double) / (config_.memory_gbps * 1e9));
    return s;
}

CallStatus FakeBackend::verifyTriad(int, const double *, const double *, const double *, double,
                                    size_t, uint64_t *mismatches)
{
    CallStatus s = enter("verifyTriad<<<>>>", "verifyTriad");
    if (s.ok())
        *mismatches = corrupt_.count("verifyTriad") ? 1 : 0;
    return s;
}

CallStatus FakeBackend::emptyKernel(int device, unsigned *counter)
{
    CallStatus s = enter("empty<<<>>>", "emptyKernel");
    if (!s.ok())
        return s;
    advance(device, config_.launch_us * 1e-6);
    // The counter lives in "device memory": remember launches per buffer.
    auto it = buffers_.find(reinterpret_cast<uintptr_t>(counter));
    if (it != buffers_.end() && !corrupt_.count("emptyKernel"))
        it->second.counter += 1;
    return s;
}

CallStatus FakeBackend::fillRanked(int device, float *, size_t count, uint64_t, int)
{
    CallStatus s = enter("fillRanked<<<>>>", "fillRanked");
    if (s.ok())
        advance(device, count * 4.0 / (config_.memory_gbps * 1e9));
    return s;
}

CallStatus FakeBackend::verifyCollective(int, const float *, const CollectiveCheck &,
                                         uint64_t *mismatches)
{
    CallStatus s = enter("verifyCollective<<<>>>", "verifyCollective");
    if (s.ok())
        *mismatches = corrupt_.count("verifyCollective") ? 7 : 0;
    return s;
}

CallStatus FakeBackend::gemmCheck(int, const GemmSpec &, const void *, const void *, const void *,
                                  int, uint64_t, double *max_error)
{
    CallStatus s = enter("gemmCheck<<<>>>", "gemmCheck");
    if (s.ok())
        *max_error = corrupt_.count("gemmCheck") ? 0.5 : 1e-4;
    return s;
}

CallStatus FakeBackend::eventCreate(int device, void **event)
{
    CallStatus s = enter("cudaEventCreate", "eventCreate");
    if (!s.ok())
        return s;
    *event = new char;
    events_[*event] = {device, 0.0};
    return s;
}

void FakeBackend::eventDestroy(int, void *event)
{
    cleanup("eventDestroy");
    if (events_.erase(event))
        delete static_cast<char *>(event);
}

CallStatus FakeBackend::eventRecord(int device, void *event)
{
    CallStatus s = enter("cudaEventRecord", "eventRecord");
    if (!s.ok())
        return s;
    auto it = events_.find(event);
    if (it == events_.end() || !validDevice(device))
        return CallStatus::failure("cudaEventRecord", "invalid resource handle");
    it->second = {device, clock_s_[static_cast<size_t>(device)]};
    return s;
}

CallStatus FakeBackend::eventElapsed(void *start, void *end, double *seconds)
{
    CallStatus s = enter("cudaEventElapsedTime", "eventElapsed");
    if (!s.ok())
        return s;
    auto a = events_.find(start), b = events_.find(end);
    if (a == events_.end() || b == events_.end())
        return CallStatus::failure("cudaEventElapsedTime", "invalid resource handle");
    // cudaEventElapsedTime has a resolution of about 0.5 microseconds.
    *seconds = std::max(0.5e-6, b->second.second - a->second.second);
    return s;
}

CallStatus FakeBackend::synchronize(int)
{
    return enter("cudaStreamSynchronize", "synchronize");
}

CallStatus FakeBackend::canAccessPeer(int, int, bool *can)
{
    CallStatus s = enter("cudaDeviceCanAccessPeer", "canAccessPeer");
    if (s.ok())
        *can = config_.peer_access;
    return s;
}

CallStatus FakeBackend::setPeerAccess(int device, int peer, bool enable)
{
    CallStatus s = enter(enable ? "cudaDeviceEnablePeerAccess" : "cudaDeviceDisablePeerAccess",
                         enable ? "setPeerAccess(enable)" : "setPeerAccess(disable)");
    if (!s.ok())
        return s;
    if (enable)
        peer_enabled_.insert({device, peer});
    else
        peer_enabled_.erase({device, peer});
    return s;
}

CallStatus FakeBackend::cublasLoad(std::string *sonames)
{
    CallStatus s = enter("dlopen(libcublas.so.13)", "cublasLoad");
    if (!s.ok())
        return s;
    if (!config_.cublas)
        return cublasMissing();
    *sonames = "libcublas.so.13, libcublasLt.so.13";
    return s;
}

CallStatus FakeBackend::gemmSetup(int device, const GemmSpec &spec, const void *, const void *,
                                  void *, void **plan)
{
    CallStatus s = enter(
        spec.library == GemmLibrary::Cublas ? "cublasCreate_v2" : "cublasLtMatmulAlgoGetHeuristic",
        spec.library == GemmLibrary::Cublas ? "gemmSetup(cublas)" : "gemmSetup(cublasLt)");
    if (!s.ok())
        return s;
    if (!config_.cublas) // the real backend loads cuBLAS here when the probe has not
        return cublasMissing();
    if (spec.library == GemmLibrary::Cublas && spec.precision == Precision::FP8)
        return CallStatus::failure("cublasGemmEx", "FP8 needs cuBLASLt");
    Plan *p = new Plan{device, spec};
    plans_.insert(p);
    *plan = p;
    return s;
}

CallStatus FakeBackend::gemmRun(void *plan)
{
    Plan *p = static_cast<Plan *>(plan);
    CallStatus s =
        enter(p->spec.library == GemmLibrary::Cublas ? "cublasGemmEx" : "cublasLtMatmul",
              p->spec.library == GemmLibrary::Cublas ? "gemmRun(cublas)" : "gemmRun(cublasLt)");
    if (!s.ok())
        return s;
    // Efficiency rises with work and saturates (a simple wave-fill curve).
    const double work = static_cast<double>(p->spec.m) * p->spec.n * p->spec.k;
    const double efficiency = 0.85 * work / (work + std::pow(1024.0, 3));
    const double peak = config_.gemm_peak_tflops[static_cast<int>(p->spec.precision)] * 1e12;
    advance(p->device, 3e-6 + 2.0 * work / (peak * efficiency));
    return s;
}

void FakeBackend::gemmDestroy(void *plan)
{
    Plan *p = static_cast<Plan *>(plan);
    if (plans_.count(p))
        cleanup(p->spec.library == GemmLibrary::Cublas ? "gemmDestroy(cublas)"
                                                       : "gemmDestroy(cublasLt)");
    if (plans_.erase(p))
        delete p;
}

CallStatus FakeBackend::ncclLoad(std::string *version)
{
    CallStatus s = enter("dlopen(libnccl.so.2)", "ncclLoad");
    if (!s.ok())
        return s;
    if (!config_.nccl)
        return CallStatus::failure("dlopen(libnccl.so.2)",
                                   "libnccl.so.2: cannot open shared object file");
    *version = "2.27.3";
    return s;
}

CallStatus FakeBackend::ncclGetUniqueId(NcclId *id)
{
    CallStatus s = enter("ncclGetUniqueId", "ncclGetUniqueId");
    if (s.ok())
        id->fill('x');
    return s;
}

CallStatus FakeBackend::ncclInitAll(const std::vector<int> &devices, void **group)
{
    CallStatus s = enter("ncclCommInitAll", "ncclInitAll");
    if (!s.ok())
        return s;
    Group *g = new Group{devices, static_cast<int>(devices.size())};
    groups_.insert(g);
    *group = g;
    return s;
}

CallStatus FakeBackend::ncclInitRank(int device, int nranks, int, const NcclId &, void **group)
{
    CallStatus s = enter("ncclCommInitRank", "ncclInitRank");
    if (!s.ok())
        return s;
    Group *g = new Group{{device}, nranks};
    groups_.insert(g);
    *group = g;
    return s;
}

CallStatus FakeBackend::ncclRun(void *group, CollectiveOp op, const std::vector<const float *> &,
                                const std::vector<float *> &, size_t count)
{
    const char *name = op == CollectiveOp::AllReduce       ? "ncclAllReduce"
                       : op == CollectiveOp::AllGather     ? "ncclAllGather"
                       : op == CollectiveOp::ReduceScatter ? "ncclReduceScatter"
                                                           : "ncclGroupEnd";
    const std::string fault_point = std::string("ncclRun(") + collectiveOpName(op) + ")";
    CallStatus s = enter(name, fault_point.c_str());
    if (!s.ok())
        return s;
    Group *g = static_cast<Group *>(group);
    if (g->aborted)
        return CallStatus::failure(name, "invalid usage: the communicator was aborted");
    if (config_.hang_collective == collectiveOpName(op)) {
        g->hung = true; // queued, never completes: the GPUs' clocks stop here
        return s;
    }
    // nccl-tests' size: all_reduce count elements; all_gather / reduce_scatter n * count.
    const double bytes = 4.0 * count * (op == CollectiveOp::AllReduce ? 1 : g->nranks);
    const double bus = config_.nccl_bus_gbps * 1e9;
    const double t =
        config_.nccl_latency_us * 1e-6 + bytes * busBandwidthFactor(op, g->nranks) / bus;
    for (int d : g->devices)
        advance(d, t);
    return s;
}

CallStatus FakeBackend::ncclQuery(void *group, bool *done)
{
    CallStatus s = enter("cudaStreamQuery", "ncclQuery");
    if (s.ok())
        *done = !static_cast<Group *>(group)->hung;
    return s;
}

CallStatus FakeBackend::ncclAbort(void *group)
{
    Group *g = static_cast<Group *>(group);
    g->aborted = true; // even when the call "fails": the watchdog gives the group up
    g->hung = false;
    return enter("ncclCommAbort", "ncclAbort");
}

void FakeBackend::ncclDestroy(void *group)
{
    cleanup("ncclDestroy");
    Group *g = static_cast<Group *>(group);
    if (groups_.erase(g))
        delete g;
}

CallStatus FakeBackend::nvmlLoad(std::string *driver_version)
{
    CallStatus s = enter("dlopen(libnvidia-ml.so.1)", "nvmlLoad");
    if (!s.ok())
        return s;
    if (!config_.nvml)
        return CallStatus::failure("dlopen(libnvidia-ml.so.1)",
                                   "libnvidia-ml.so.1: cannot open shared object file");
    nvml_loaded_ = true;
    *driver_version = "580.159";
    return s;
}

CallStatus FakeBackend::nvmlDeviceHandle(const std::string &, void **handle)
{
    CallStatus s = enter("nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceHandle");
    if (s.ok())
        *handle = &nvml_reads_;
    return s;
}

CallStatus FakeBackend::nvmlSmClock(void *, unsigned *mhz)
{
    CallStatus s = enter("nvmlDeviceGetClockInfo", "nvmlSmClock");
    if (s.ok())
        *mhz = 1980 - 15 * static_cast<unsigned>(std::min(nvml_reads_++, 40));
    return s;
}

CallStatus FakeBackend::nvmlTemperature(void *, unsigned *celsius)
{
    CallStatus s = enter("nvmlDeviceGetTemperature", "nvmlTemperature");
    if (s.ok())
        *celsius = 45 + static_cast<unsigned>(std::min(nvml_reads_, 40));
    return s;
}

CallStatus FakeBackend::nvmlPower(void *, unsigned *milliwatts)
{
    CallStatus s = enter("nvmlDeviceGetPowerUsage", "nvmlPower");
    if (s.ok())
        *milliwatts = 610000;
    return s;
}

CallStatus FakeBackend::nvmlThrottleReasons(void *, unsigned long long *mask)
{
    CallStatus s = enter(config_.nvml_legacy_throttle ? "nvmlDeviceGetCurrentClocksThrottleReasons"
                                                      : "nvmlDeviceGetCurrentClocksEventReasons",
                         config_.nvml_legacy_throttle ? "nvmlThrottleReasons(legacy driver)"
                                                      : "nvmlThrottleReasons");
    if (s.ok())
        *mask = nvml_reads_ > 2 ? 0x4ULL : 0ULL;
    return s;
}

void FakeBackend::nvmlUnload()
{
    if (nvml_loaded_)
        cleanup("nvmlUnload");
    nvml_loaded_ = false;
}

} // namespace scalescope::gpuprobe
