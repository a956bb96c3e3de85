#include "api_calls.h"

#include <algorithm>

namespace scalescope::gpuprobe
{

namespace
{

constexpr FaultEffect R = FaultEffect::Reported;
constexpr FaultEffect L = FaultEffect::LaunchError;
constexpr FaultEffect I = FaultEffect::Ignored;
constexpr FaultEffect T = FaultEffect::ErrorText;

// Keep in step with cuda_backend.cu and dynamic_libs.cpp (tst_probe_faults checks it).
// Fault points name FakeBackend's keys: the Backend method, and in parentheses the variant
// that makes the call (the GEMM library, pinned memory, enabling or disabling peer access,
// the collective, an NVML driver older than R535).
const std::vector<ApiCall> kCalls = {
    // --- CUDA runtime: devices ---------------------------------------------------------
    {"cudaGetDeviceCount", "cuda", "init", R},
    {"cudaDriverGetVersion", "cuda", "init", R},
    {"cudaRuntimeGetVersion", "cuda", "init", R},
    {"cudaGetDeviceProperties", "cuda", "deviceInfo", R},
    {"cudaDeviceGetPCIBusId", "cuda", "deviceInfo", R},
    {"cudaSetDevice", "cuda", "openDevice", R},
    {"cudaStreamCreateWithFlags", "cuda", "openDevice", R},
    {"cudaMalloc", "cuda", "openDevice", R},
    {"cudaSetDevice", "cuda", "closeDevice", I},
    {"cudaStreamSynchronize", "cuda", "closeDevice", I},
    {"cudaStreamDestroy", "cuda", "closeDevice", I},
    {"cudaFree", "cuda", "closeDevice", I},
    {"cublasLtDestroy", "cublas", "closeDevice", I},
    // --- Memory and copies -------------------------------------------------------------
    {"cudaSetDevice", "cuda", "deviceMalloc", R},
    {"cudaMalloc", "cuda", "deviceMalloc", R},
    {"cudaSetDevice", "cuda", "deviceFree", I},
    {"cudaFree", "cuda", "deviceFree", I},
    {"cudaMallocHost", "cuda", "hostMalloc(pinned)", R},
    {"cudaFreeHost", "cuda", "hostFree(pinned)", I},
    {"cudaSetDevice", "cuda", "memcpyAsync", R},
    {"cudaMemcpyAsync", "cuda", "memcpyAsync", R},
    {"cudaSetDevice", "cuda", "memcpyPeerAsync", R},
    {"cudaMemcpyPeerAsync", "cuda", "memcpyPeerAsync", R},
    // --- The probe's kernels -----------------------------------------------------------
    {"cudaSetDevice", "cuda", "fillRandom", R},
    {"cudaGetLastError", "cuda", "fillRandom", L},
    {"cudaSetDevice", "cuda", "copyKernel", R},
    {"cudaGetLastError", "cuda", "copyKernel", L},
    {"cudaSetDevice", "cuda", "triadKernel", R},
    {"cudaGetLastError", "cuda", "triadKernel", L},
    {"cudaSetDevice", "cuda", "emptyKernel", R},
    {"cudaGetLastError", "cuda", "emptyKernel", L},
    {"cudaSetDevice", "cuda", "fillRanked", R},
    {"cudaGetLastError", "cuda", "fillRanked", L},
    {"cudaSetDevice", "cuda", "verifyRandom", R},
    {"cudaMemsetAsync", "cuda", "verifyRandom", R},
    {"cudaGetLastError", "cuda", "verifyRandom", L},
    {"cudaMemcpyAsync", "cuda", "verifyRandom", R},
    {"cudaStreamSynchronize", "cuda", "verifyRandom", R},
    {"cudaSetDevice", "cuda", "verifyTriad", R},
    {"cudaMemsetAsync", "cuda", "verifyTriad", R},
    {"cudaGetLastError", "cuda", "verifyTriad", L},
    {"cudaMemcpyAsync", "cuda", "verifyTriad", R},
    {"cudaStreamSynchronize", "cuda", "verifyTriad", R},
    {"cudaSetDevice", "cuda", "verifyCollective", R},
    {"cudaMemsetAsync", "cuda", "verifyCollective", R},
    {"cudaGetLastError", "cuda", "verifyCollective", L},
    {"cudaMemcpyAsync", "cuda", "verifyCollective", R},
    {"cudaStreamSynchronize", "cuda", "verifyCollective", R},
    {"cudaSetDevice", "cuda", "gemmCheck", R},
    {"cudaMalloc", "cuda", "gemmCheck", R},
    {"cudaGetLastError", "cuda", "gemmCheck", L},
    {"cudaMemcpyAsync", "cuda", "gemmCheck", R},
    {"cudaStreamSynchronize", "cuda", "gemmCheck", R},
    {"cudaFree", "cuda", "gemmCheck", I},
    // --- Events and streams ------------------------------------------------------------
    {"cudaSetDevice", "cuda", "eventCreate", R},
    {"cudaEventCreate", "cuda", "eventCreate", R},
    {"cudaSetDevice", "cuda", "eventDestroy", I},
    {"cudaEventDestroy", "cuda", "eventDestroy", I},
    {"cudaSetDevice", "cuda", "eventRecord", R},
    {"cudaEventRecord", "cuda", "eventRecord", R},
    {"cudaEventSynchronize", "cuda", "eventElapsed", R},
    {"cudaEventElapsedTime", "cuda", "eventElapsed", R},
    {"cudaSetDevice", "cuda", "synchronize", R},
    {"cudaStreamSynchronize", "cuda", "synchronize", R},
    // --- Peer to peer ------------------------------------------------------------------
    {"cudaDeviceCanAccessPeer", "cuda", "canAccessPeer", R},
    {"cudaSetDevice", "cuda", "setPeerAccess(enable)", R},
    {"cudaDeviceEnablePeerAccess", "cuda", "setPeerAccess(enable)", R},
    {"cudaSetDevice", "cuda", "setPeerAccess(disable)", R},
    {"cudaDeviceDisablePeerAccess", "cuda", "setPeerAccess(disable)", R},
    // --- GEMM: cuBLAS, cuBLASLt (dlopen; _v2 names as cublas_v2.h maps them) -----------
    {"cudaSetDevice", "cuda", "gemmSetup(cublasLt)", R},
    {"cublasLtCreate", "cublas", "gemmSetup(cublasLt)", R},
    {"cublasLtMatmulDescCreate", "cublas", "gemmSetup(cublasLt)", R},
    {"cublasLtMatmulDescSetAttribute", "cublas", "gemmSetup(cublasLt)", R},
    {"cublasLtMatrixLayoutCreate", "cublas", "gemmSetup(cublasLt)", R},
    {"cudaMalloc", "cuda", "gemmSetup(cublasLt)", R},
    {"cublasLtMatmulPreferenceCreate", "cublas", "gemmSetup(cublasLt)", R},
    {"cublasLtMatmulPreferenceSetAttribute", "cublas", "gemmSetup(cublasLt)", R},
    {"cublasLtMatmulAlgoGetHeuristic", "cublas", "gemmSetup(cublasLt)", R},
    {"cudaSetDevice", "cuda", "gemmSetup(cublas)", R},
    {"cublasCreate_v2", "cublas", "gemmSetup(cublas)", R},
    {"cublasSetStream_v2", "cublas", "gemmSetup(cublas)", R},
    {"cudaSetDevice", "cuda", "gemmRun(cublasLt)", R},
    {"cublasLtMatmul", "cublas", "gemmRun(cublasLt)", R},
    {"cudaSetDevice", "cuda", "gemmRun(cublas)", R},
    {"cublasGemmEx", "cublas", "gemmRun(cublas)", R},
    {"cudaSetDevice", "cuda", "gemmDestroy(cublasLt)", I},
    {"cublasLtMatmulPreferenceDestroy", "cublas", "gemmDestroy(cublasLt)", I},
    {"cublasLtMatrixLayoutDestroy", "cublas", "gemmDestroy(cublasLt)", I},
    {"cublasLtMatmulDescDestroy", "cublas", "gemmDestroy(cublasLt)", I},
    {"cudaFree", "cuda", "gemmDestroy(cublasLt)", I},
    {"cudaSetDevice", "cuda", "gemmDestroy(cublas)", I},
    {"cublasDestroy_v2", "cublas", "gemmDestroy(cublas)", I},
    // --- NCCL (dlopen) -----------------------------------------------------------------
    {"ncclGetVersion", "nccl", "ncclLoad", R},
    {"ncclGetUniqueId", "nccl", "ncclGetUniqueId", R},
    {"ncclCommInitAll", "nccl", "ncclInitAll", R},
    {"cudaSetDevice", "cuda", "ncclInitRank", R},
    {"ncclCommInitRank", "nccl", "ncclInitRank", R},
    {"ncclGroupStart", "nccl", "ncclRun(all_reduce)", R},
    {"ncclAllReduce", "nccl", "ncclRun(all_reduce)", R},
    {"ncclGroupEnd", "nccl", "ncclRun(all_reduce)", R},
    {"ncclGroupStart", "nccl", "ncclRun(all_gather)", R},
    {"ncclAllGather", "nccl", "ncclRun(all_gather)", R},
    {"ncclGroupEnd", "nccl", "ncclRun(all_gather)", R},
    {"ncclGroupStart", "nccl", "ncclRun(reduce_scatter)", R},
    {"ncclReduceScatter", "nccl", "ncclRun(reduce_scatter)", R},
    {"ncclGroupEnd", "nccl", "ncclRun(reduce_scatter)", R},
    {"ncclCommGetAsyncError", "nccl", "ncclQuery", R},
    {"cudaStreamQuery", "cuda", "ncclQuery", R},
    {"ncclCommAbort", "nccl", "ncclAbort", R},
    {"ncclCommDestroy", "nccl", "ncclDestroy", I},
    // --- NVML (dlopen) -----------------------------------------------------------------
    {"nvmlInit_v2", "nvml", "nvmlLoad", R},
    {"nvmlSystemGetDriverVersion", "nvml", "nvmlLoad", R},
    {"nvmlDeviceGetHandleByPciBusId_v2", "nvml", "nvmlDeviceHandle", R},
    {"nvmlDeviceGetClockInfo", "nvml", "nvmlSmClock", R},
    {"nvmlDeviceGetTemperature", "nvml", "nvmlTemperature", R},
    {"nvmlDeviceGetPowerUsage", "nvml", "nvmlPower", R},
    {"nvmlDeviceGetCurrentClocksEventReasons", "nvml", "nvmlThrottleReasons", R},
    {"nvmlDeviceGetCurrentClocksThrottleReasons", "nvml", "nvmlThrottleReasons(legacy driver)", R},
    {"nvmlShutdown", "nvml", "nvmlUnload", I},
    // --- Error text: describe a failure already being reported -------------------------
    {"cudaGetLastError", "cuda", "", T}, // also clears a non-sticky error after one
    {"cudaGetErrorName", "cuda", "", T},
    {"cudaGetErrorString", "cuda", "", T},
    {"cublasGetStatusName", "cublas", "", T},
    {"cublasGetStatusString", "cublas", "", T},
    {"ncclGetErrorString", "nccl", "", T},
    {"nvmlErrorString", "nvml", "", T},
};

} // namespace

const std::vector<ApiCall> &apiCalls()
{
    return kCalls;
}

bool isKnownApiCall(std::string_view name)
{
    return std::any_of(kCalls.begin(), kCalls.end(),
                       [&](const ApiCall &c) { return name == c.name; });
}

const char *faultEffectName(FaultEffect effect)
{
    switch (effect) {
    case FaultEffect::Reported:
        return "reported";
    case FaultEffect::LaunchError:
        return "launch error";
    case FaultEffect::Ignored:
        return "ignored (cleanup)";
    case FaultEffect::ErrorText:
        return "error text";
    }
    return "";
}

} // namespace scalescope::gpuprobe
