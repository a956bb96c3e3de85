// cuBLAS, cuBLASLt, NCCL and NVML loaded at run time with dlopen, so that gpuprobe starts
// (and runs its other tests) on machines without them. Only the few entry points the probe
// uses are declared here, with their C ABI (cublas_api.h, cublasLt.h, nccl.h, nvml.h): enums
// (cublasStatus_t, cudaDataType_t, ncclResult_t, ...) as int, handles and streams as void *.
// No header of these libraries is needed to build.
#pragma once

#include "backend.h"

#include <cstddef>
#include <cstdint>
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

/// cublasLtMatmulAlgo_t (cublasLt.h): 64 opaque bytes that cublasLtMatmulAlgoGetHeuristic
/// fills and cublasLtMatmul reads. cuda_backend.cu checks the layouts against the header.
struct CublasLtMatmulAlgoAbi {
    uint64_t data[8];
};

/// cublasLtMatmulHeuristicResult_t (cublasLt.h).
struct CublasLtHeuristicResultAbi {
    CublasLtMatmulAlgoAbi algo;
    size_t workspaceSize;
    int state; // cublasStatus_t
    float wavesCount;
    int reserved[4];
};

/// cuBLAS and cuBLASLt, one major version of both (the libcublas.so.N of a toolkit or a
/// wheel needs its own libcublasLt.so.N). Each call returns the failing function's name
/// (the versioned one where cublas_v2.h #defines the plain name to it: cublasCreate_v2)
/// and cublasGetStatusName / cublasGetStatusString of its status.
class CublasLibrary
{
public:
    CublasLibrary() = default;
    ~CublasLibrary();
    CublasLibrary(const CublasLibrary &) = delete;
    CublasLibrary &operator=(const CublasLibrary &) = delete;

    /// dlopen("libcublas.so.13") and "libcublasLt.so.13", else the pair of an older major
    /// (12, 11); `sonames` gets what was loaded ("libcublas.so.13, libcublasLt.so.13").
    CallStatus load(std::string *sonames);
    bool loaded() const { return blas_ != nullptr; }

    // cuBLAS (cublas_api.h).
    CallStatus create(void **handle);                 // cublasCreate_v2
    CallStatus destroy(void *handle);                 // cublasDestroy_v2
    CallStatus setStream(void *handle, void *stream); // cublasSetStream_v2
    /// cublasGemmEx; `ops` are cublasOperation_t, `*_type` cudaDataType_t, `compute`
    /// cublasComputeType_t, `algo` cublasGemmAlgo_t.
    CallStatus gemmEx(void *handle, int op_a, int op_b, int m, int n, int k, const void *alpha,
                      const void *a, int a_type, int lda, const void *b, int b_type, int ldb,
                      const void *beta, void *c, int c_type, int ldc, int compute, int algo);

    // cuBLASLt (cublasLt.h).
    CallStatus ltCreate(void **handle);
    CallStatus ltDestroy(void *handle);
    /// `compute`: cublasComputeType_t; `scale_type`: cudaDataType_t.
    CallStatus ltMatmulDescCreate(void **desc, int compute, int scale_type);
    CallStatus ltMatmulDescDestroy(void *desc);
    /// `attribute`: cublasLtMatmulDescAttributes_t.
    CallStatus ltMatmulDescSetAttribute(void *desc, int attribute, const void *value, size_t bytes);
    /// `type`: cudaDataType_t.
    CallStatus ltMatrixLayoutCreate(void **layout, int type, uint64_t rows, uint64_t cols,
                                    int64_t ld);
    CallStatus ltMatrixLayoutDestroy(void *layout);
    CallStatus ltMatmulPreferenceCreate(void **preference);
    CallStatus ltMatmulPreferenceDestroy(void *preference);
    /// `attribute`: cublasLtMatmulPreferenceAttributes_t.
    CallStatus ltMatmulPreferenceSetAttribute(void *preference, int attribute, const void *value,
                                              size_t bytes);
    CallStatus ltMatmulAlgoGetHeuristic(void *handle, void *desc, void *a_layout, void *b_layout,
                                        void *c_layout, void *d_layout, void *preference,
                                        int requested, CublasLtHeuristicResultAbi *results,
                                        int *returned);
    /// `stream` is a cudaStream_t.
    CallStatus ltMatmul(void *handle, void *desc, const void *alpha, const void *a, void *a_layout,
                        const void *b, void *b_layout, const void *beta, const void *c,
                        void *c_layout, void *d, void *d_layout, const CublasLtMatmulAlgoAbi *algo,
                        void *workspace, size_t workspace_bytes, void *stream);

private:
    CallStatus result(int code, const char *call) const;
    void unload();

    void *blas_ = nullptr;
    void *lt_ = nullptr;
    std::string sonames_;
    const char *(*status_name_)(int) = nullptr;
    const char *(*status_string_)(int) = nullptr;
    int (*create_)(void **) = nullptr;
    int (*destroy_)(void *) = nullptr;
    int (*set_stream_)(void *, void *) = nullptr;
    int (*gemm_ex_)(void *, int, int, int, int, int, const void *, const void *, int, int,
                    const void *, int, int, const void *, void *, int, int, int, int) = nullptr;
    int (*lt_create_)(void **) = nullptr;
    int (*lt_destroy_)(void *) = nullptr;
    int (*lt_desc_create_)(void **, int, int) = nullptr;
    int (*lt_desc_destroy_)(void *) = nullptr;
    int (*lt_desc_set_)(void *, int, const void *, size_t) = nullptr;
    int (*lt_layout_create_)(void **, int, uint64_t, uint64_t, int64_t) = nullptr;
    int (*lt_layout_destroy_)(void *) = nullptr;
    int (*lt_pref_create_)(void **) = nullptr;
    int (*lt_pref_destroy_)(void *) = nullptr;
    int (*lt_pref_set_)(void *, int, const void *, size_t) = nullptr;
    int (*lt_heuristic_)(void *, void *, void *, void *, void *, void *, void *, int,
                         CublasLtHeuristicResultAbi *, int *) = nullptr;
    int (*lt_matmul_)(void *, void *, const void *, const void *, void *, const void *, void *,
                      const void *, const void *, void *, void *, void *,
                      const CublasLtMatmulAlgoAbi *, void *, size_t, void *) = nullptr;
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
