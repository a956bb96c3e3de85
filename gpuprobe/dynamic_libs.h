// NCCL and NVML loaded at run time with dlopen, so that gpuprobe starts (and runs its other
// tests) on machines without them. Only the few entry points the probe uses are declared
// here, with their C ABI (nccl.h, nvml.h); no header of either library is needed to build.
#pragma once

#include "backend.h"

#include <string>

namespace scalescope::gpuprobe
{

class NvmlLibrary
{
public:
    NvmlLibrary() = default;
    ~NvmlLibrary() { unload(); }
    NvmlLibrary(const NvmlLibrary &) = delete;
    NvmlLibrary &operator=(const NvmlLibrary &) = delete;

    /// dlopen("libnvidia-ml.so.1"), resolve the versioned entry points, nvmlInit_v2, and
    /// read the driver version (nvmlSystemGetDriverVersion).
    CallStatus load(std::string *driver_version);
    /// nvmlShutdown and dlclose.
    void unload();
    bool loaded() const { return lib_ != nullptr; }

    /// nvmlDeviceGetHandleByPciBusId_v2 with CUDA's bus id ("0000:18:00.0"), retried in
    /// NVML's own spelling ("00000000:18:00.0").
    CallStatus handleByPciBusId(const std::string &bus_id, void **handle);
    CallStatus smClockMhz(void *handle, unsigned *mhz);
    CallStatus temperatureC(void *handle, unsigned *celsius);
    CallStatus powerMilliwatts(void *handle, unsigned *milliwatts);
    CallStatus throttleReasons(void *handle, unsigned long long *mask);

private:
    CallStatus result(int code, const char *call) const;

    void *lib_ = nullptr;
    bool initialised_ = false;
    int (*init_)() = nullptr;
    int (*shutdown_)() = nullptr;
    const char *(*error_string_)(int) = nullptr;
    int (*driver_version_)(char *, unsigned) = nullptr;
    int (*handle_by_bus_id_)(const char *, void **) = nullptr;
    int (*clock_info_)(void *, int, unsigned *) = nullptr;
    int (*temperature_)(void *, int, unsigned *) = nullptr;
    int (*power_usage_)(void *, unsigned *) = nullptr;
    int (*clock_reasons_)(void *, unsigned long long *) = nullptr;
    const char *clock_reasons_name_ = "";
};

/// ncclUniqueId, passed by value to ncclCommInitRank.
struct NcclUniqueIdAbi {
    char internal[128];
};

class NcclLibrary
{
public:
    NcclLibrary() = default;
    ~NcclLibrary();
    NcclLibrary(const NcclLibrary &) = delete;
    NcclLibrary &operator=(const NcclLibrary &) = delete;

    /// dlopen("libnccl.so.2") and ncclGetVersion ("2.27.3").
    CallStatus load(std::string *version);
    bool loaded() const { return lib_ != nullptr; }

    CallStatus getUniqueId(NcclId *id);
    CallStatus commInitAll(void **comms, int ndev, const int *devices);
    CallStatus commInitRank(void **comm, int nranks, const NcclId &id, int rank);
    CallStatus commDestroy(void *comm);
    /// ncclCommAbort: cancels the communicator's queued operations and frees it.
    CallStatus commAbort(void *comm);
    /// ncclCommGetAsyncError: a failure when the communicator has an asynchronous error
    /// (ncclInProgress, a non-blocking operation still running, is not one).
    CallStatus commGetAsyncError(void *comm);
    CallStatus groupStart();
    CallStatus groupEnd();
    /// Float32 sum (ncclFloat32 = 7, ncclSum = 0 in nccl.h); `stream` is a cudaStream_t.
    CallStatus allReduce(const void *send, void *recv, size_t count, void *comm, void *stream);
    CallStatus allGather(const void *send, void *recv, size_t send_count, void *comm, void *stream);
    CallStatus reduceScatter(const void *send, void *recv, size_t recv_count, void *comm,
                             void *stream);

private:
    CallStatus result(int code, const char *call) const;

    void *lib_ = nullptr;
    std::string version_;
    int (*get_version_)(int *) = nullptr;
    const char *(*error_string_)(int) = nullptr;
    int (*get_unique_id_)(NcclUniqueIdAbi *) = nullptr;
    int (*comm_init_all_)(void **, int, const int *) = nullptr;
    int (*comm_init_rank_)(void **, int, NcclUniqueIdAbi, int) = nullptr;
    int (*comm_destroy_)(void *) = nullptr;
    int (*comm_abort_)(void *) = nullptr;
    int (*comm_get_async_error_)(void *, int *) = nullptr;
    int (*group_start_)() = nullptr;
    int (*group_end_)() = nullptr;
    int (*all_reduce_)(const void *, void *, size_t, int, int, void *, void *) = nullptr;
    int (*all_gather_)(const void *, void *, size_t, int, void *, void *) = nullptr;
    int (*reduce_scatter_)(const void *, void *, size_t, int, int, void *, void *) = nullptr;
};

} // namespace scalescope::gpuprobe
