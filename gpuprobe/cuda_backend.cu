// The real Backend: CUDA runtime, the probe's own kernels (cuda_kernels.cuh), and cuBLASLt /
// cuBLAS, NCCL and NVML through dlopen (dynamic_libs.h). Compiled only when the CUDA toolkit is
// found; the cuBLAS headers give the types and constants, the calls go through CublasLibrary.
// Longer than 600 lines on purpose: every CUDA call of the backend stays in this one file,
// which tst_probe_faults reads to check that api_calls.cpp gives each one a fault point.
#include "cli.h"
#include "cuda_kernels.cuh"
#include "dynamic_libs.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace scalescope::gpuprobe
{

namespace
{

CallStatus cudaResult(cudaError_t e, const char *call)
{
    if (e == cudaSuccess)
        return CallStatus::success();
    cudaGetLastError(); // clear a non-sticky error so the next figure can run
    return CallStatus::failure(call,
                               std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e));
}

/// After a kernel launch: launch errors (no kernel image for this GPU, bad configuration).
CallStatus launchResult(const char *kernel)
{
    return cudaResult(cudaGetLastError(), kernel);
}

CallStatus setDevice(int device)
{
    return cudaResult(cudaSetDevice(device), "cudaSetDevice");
}

// dynamic_libs.h declares the cuBLAS(Lt) entry points with plain C types: enums as int,
// handles and streams as void *, the two structs by their layout. Check them against the
// headers this file is built with.
static_assert(sizeof(cublasStatus_t) == sizeof(int) && sizeof(cudaDataType_t) == sizeof(int) &&
                  sizeof(cublasComputeType_t) == sizeof(int) &&
                  sizeof(cublasOperation_t) == sizeof(int) &&
                  sizeof(cublasGemmAlgo_t) == sizeof(int) &&
                  sizeof(cublasLtMatmulDescAttributes_t) == sizeof(int) &&
                  sizeof(cublasLtMatmulPreferenceAttributes_t) == sizeof(int),
              "cuBLAS enums passed as int");
static_assert(sizeof(cublasHandle_t) == sizeof(void *) &&
                  sizeof(cublasLtHandle_t) == sizeof(void *) &&
                  sizeof(cublasLtMatmulDesc_t) == sizeof(void *) &&
                  sizeof(cublasLtMatrixLayout_t) == sizeof(void *) &&
                  sizeof(cublasLtMatmulPreference_t) == sizeof(void *) &&
                  sizeof(cudaStream_t) == sizeof(void *),
              "cuBLAS handles passed as void *");
static_assert(sizeof(CublasLtMatmulAlgoAbi) == sizeof(cublasLtMatmulAlgo_t) &&
                  alignof(CublasLtMatmulAlgoAbi) == alignof(cublasLtMatmulAlgo_t),
              "cublasLtMatmulAlgo_t layout");
static_assert(sizeof(CublasLtHeuristicResultAbi) == sizeof(cublasLtMatmulHeuristicResult_t) &&
                  offsetof(CublasLtHeuristicResultAbi, workspaceSize) ==
                      offsetof(cublasLtMatmulHeuristicResult_t, workspaceSize) &&
                  offsetof(CublasLtHeuristicResultAbi, state) ==
                      offsetof(cublasLtMatmulHeuristicResult_t, state) &&
                  offsetof(CublasLtHeuristicResultAbi, wavesCount) ==
                      offsetof(cublasLtMatmulHeuristicResult_t, wavesCount),
              "cublasLtMatmulHeuristicResult_t layout");

// --- Types -----------------------------------------------------------------------------------

cudaDataType_t cudaType(DataType t)
{
    switch (t) {
    case DataType::F64:
        return CUDA_R_64F;
    case DataType::F32:
        return CUDA_R_32F;
    case DataType::F16:
        return CUDA_R_16F;
    case DataType::BF16:
        return CUDA_R_16BF;
    case DataType::F8E4M3:
        return CUDA_R_8F_E4M3;
    }
    return CUDA_R_32F;
}

cublasComputeType_t computeType(Precision p)
{
    // Every precision accumulates in fp32; tf32 lets the tensor cores round fp32 inputs.
    return p == Precision::TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

struct GemmPlanImpl {
    int device = 0;
    cudaStream_t stream = nullptr;
    GemmSpec spec;
    const void *a = nullptr, *b = nullptr;
    void *d = nullptr;
    float alpha = 1.0f, beta = 0.0f;
    // cuBLASLt: cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
    // cublasLtMatmulPreference_t
    void *lt = nullptr;
    void *op = nullptr;
    void *layout_a = nullptr, *layout_b = nullptr, *layout_d = nullptr;
    void *preference = nullptr;
    CublasLtMatmulAlgoAbi algo{};
    void *workspace = nullptr;
    size_t workspace_bytes = 0;
    // cuBLAS: cublasHandle_t
    void *blas = nullptr;
};

struct NcclGroupImpl {
    std::vector<int> devices;
    std::vector<void *> comms;
};

class CudaBackend final : public Backend
{
public:
    ~CudaBackend() override { nvml_.unload(); }

    std::string name() const override { return "cuda"; }

    CallStatus init(RuntimeInfo *info) override
    {
        int count = 0;
        const cudaError_t e = cudaGetDeviceCount(&count);
        if (e == cudaErrorNoDevice)
            return CallStatus::failure("cudaGetDeviceCount",
                                       "no CUDA device found (cudaErrorNoDevice)");
        if (e == cudaErrorInsufficientDriver)
            return CallStatus::failure(
                "cudaGetDeviceCount", "no NVIDIA driver, or one older than this CUDA runtime needs "
                                      "(cudaErrorInsufficientDriver)");
        CallStatus s = cudaResult(e, "cudaGetDeviceCount");
        if (!s.ok())
            return s;
        info->device_count = count;
        int driver = 0, runtime = 0;
        s = cudaResult(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
        if (s.ok())
            s = cudaResult(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
        if (!s.ok())
            return s;
        info->driver_version = version(driver);
        info->runtime_version = version(runtime);
        streams_.assign(static_cast<size_t>(count), nullptr);
        scratch_.assign(static_cast<size_t>(count), nullptr);
        return s;
    }

    CallStatus deviceInfo(int device, DeviceInfo *out) override
    {
        cudaDeviceProp prop{};
        CallStatus s =
            cudaResult(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
        if (!s.ok())
            return s;
        out->name = prop.name;
        const unsigned char *u = reinterpret_cast<const unsigned char *>(prop.uuid.bytes);
        char uuid[64];
        std::snprintf(uuid, sizeof uuid,
                      "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                      u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
                      u[12], u[13], u[14], u[15]);
        out->uuid = uuid;
        char bus[32] = {};
        s = cudaResult(cudaDeviceGetPCIBusId(bus, sizeof bus, device), "cudaDeviceGetPCIBusId");
        if (!s.ok())
            return s;
        std::string id = bus;
        for (char &c : id)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        out->pci_bus_id = id;
        out->cc_major = prop.major;
        out->cc_minor = prop.minor;
        out->sm_count = prop.multiProcessorCount;
        out->memory_bytes = static_cast<double>(prop.totalGlobalMem);
        out->l2_bytes = static_cast<double>(prop.l2CacheSize);
        return s;
    }

    CallStatus openDevice(int device) override
    {
        CallStatus s = cudaResult(cudaSetDevice(device), "cudaSetDevice");
        if (!s.ok())
            return s;
        s = cudaResult(cudaStreamCreateWithFlags(&streams_.at(static_cast<size_t>(device)),
                                                 cudaStreamNonBlocking),
                       "cudaStreamCreateWithFlags");
        if (!s.ok())
            return s;
        // A counter for the checking kernels' wrong-element counts.
        return cudaResult(cudaMalloc(&scratch_[static_cast<size_t>(device)], 64), "cudaMalloc");
    }

    void closeDevice(int device) override
    {
        if (device < 0 || static_cast<size_t>(device) >= streams_.size())
            return;
        cudaSetDevice(device);
        if (streams_[static_cast<size_t>(device)]) {
            cudaStreamSynchronize(streams_[static_cast<size_t>(device)]);
            cudaStreamDestroy(streams_[static_cast<size_t>(device)]);
            streams_[static_cast<size_t>(device)] = nullptr;
        }
        if (scratch_[static_cast<size_t>(device)]) {
            cudaFree(scratch_[static_cast<size_t>(device)]);
            scratch_[static_cast<size_t>(device)] = nullptr;
        }
        if (device < static_cast<int>(lt_.size()) && lt_[static_cast<size_t>(device)]) {
            cublas_.ltDestroy(lt_[static_cast<size_t>(device)]);
            lt_[static_cast<size_t>(device)] = nullptr;
        }
        cudaGetLastError();
    }

    CallStatus deviceMalloc(int device, size_t bytes, void **ptr) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        return cudaResult(cudaMalloc(ptr, bytes), "cudaMalloc");
    }

    void deviceFree(int device, void *ptr) override
    {
        cudaSetDevice(device);
        cudaFree(ptr);
    }

    CallStatus hostMalloc(size_t bytes, bool pinned, void **ptr) override
    {
        if (pinned)
            return cudaResult(cudaMallocHost(ptr, bytes), "cudaMallocHost");
        *ptr = std::malloc(bytes);
        return *ptr ? CallStatus::success() : CallStatus::failure("malloc", "out of host memory");
    }

    void hostFree(void *ptr, bool pinned) override
    {
        if (pinned)
            cudaFreeHost(ptr);
        else
            std::free(ptr);
    }

    CallStatus memcpyAsync(int device, void *dst, const void *src, size_t bytes,
                           CopyKind kind) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        const cudaMemcpyKind k = kind == CopyKind::HostToDevice   ? cudaMemcpyHostToDevice
                                 : kind == CopyKind::DeviceToHost ? cudaMemcpyDeviceToHost
                                                                  : cudaMemcpyDeviceToDevice;
        return cudaResult(cudaMemcpyAsync(dst, src, bytes, k, stream(device)), "cudaMemcpyAsync");
    }

    CallStatus memcpyPeerAsync(int dst_device, void *dst, int src_device, const void *src,
                               size_t bytes) override
    {
        if (CallStatus s = setDevice(src_device); !s.ok())
            return s;
        return cudaResult(
            cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, stream(src_device)),
            "cudaMemcpyPeerAsync");
    }

    CallStatus fillRandom(int device, void *ptr, DataType type, size_t count,
                          uint64_t seed) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        const unsigned grid = gridFor(count);
        cudaStream_t s = stream(device);
        switch (type) {
        case DataType::F64:
            fillRandomKernel<<<grid, kThreads, 0, s>>>(static_cast<double *>(ptr), count, seed);
            break;
        case DataType::F32:
            fillRandomKernel<<<grid, kThreads, 0, s>>>(static_cast<float *>(ptr), count, seed);
            break;
        case DataType::F16:
            fillRandomKernel<<<grid, kThreads, 0, s>>>(static_cast<__half *>(ptr), count, seed);
            break;
        case DataType::BF16:
            fillRandomKernel<<<grid, kThreads, 0, s>>>(static_cast<__nv_bfloat16 *>(ptr), count,
                                                       seed);
            break;
        case DataType::F8E4M3:
            fillRandomKernel<<<grid, kThreads, 0, s>>>(static_cast<__nv_fp8_e4m3 *>(ptr), count,
                                                       seed);
            break;
        }
        return launchResult("fillRandom<<<>>>");
    }

    CallStatus verifyRandom(int device, const void *ptr, size_t count, uint64_t seed,
                            uint64_t *mismatches) override
    {
        return countWrong(device, "verifyRandom<<<>>>", mismatches, [&](unsigned long long *wrong) {
            verifyRandomKernel<<<gridFor(count), kThreads, 0, stream(device)>>>(
                static_cast<const double *>(ptr), count, seed, wrong);
        });
    }

    CallStatus copyKernel(int device, double *dst, const double *src, size_t count) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        copyKernelImpl<<<oneElementPerThread(count), 1024, 0, stream(device)>>>(dst, src, count);
        return launchResult("copy<<<>>>");
    }

    CallStatus triadKernel(int device, double *a, const double *b, const double *c, double scalar,
                           size_t count) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        triadKernelImpl<<<oneElementPerThread(count), 1024, 0, stream(device)>>>(a, b, c, scalar,
                                                                                 count);
        return launchResult("triad<<<>>>");
    }

    CallStatus verifyTriad(int device, const double *a, const double *b, const double *c,
                           double scalar, size_t count, uint64_t *mismatches) override
    {
        return countWrong(device, "verifyTriad<<<>>>", mismatches, [&](unsigned long long *wrong) {
            verifyTriadKernel<<<gridFor(count), kThreads, 0, stream(device)>>>(a, b, c, scalar,
                                                                               count, wrong);
        });
    }

    CallStatus emptyKernel(int device, unsigned *counter) override
    {
        // cudaSetDevice is a no-op when the device is current (tens of nanoseconds).
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        emptyKernelImpl<<<1, 1, 0, stream(device)>>>(counter);
        return launchResult("empty<<<>>>");
    }

    CallStatus fillRanked(int device, float *ptr, size_t count, uint64_t seed, int rank) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        fillRankedKernel<<<gridFor(count), kThreads, 0, stream(device)>>>(ptr, count, seed, rank);
        return launchResult("fillRanked<<<>>>");
    }

    CallStatus verifyCollective(int device, const float *recv, const CollectiveCheck &c,
                                uint64_t *mismatches) override
    {
        const size_t elements =
            c.op == CollectiveOp::AllGather ? c.count * static_cast<size_t>(c.nranks) : c.count;
        // Sums cost nranks hashes per element: sample evenly beyond 2^32 of that work.
        const double work = static_cast<double>(elements) *
                            (c.op == CollectiveOp::AllGather ? 1 : std::max(1, c.nranks));
        const size_t stride = std::max<size_t>(1, static_cast<size_t>(work / 4294967296.0) + 1);
        return countWrong(
            device, "verifyCollective<<<>>>", mismatches, [&](unsigned long long *wrong) {
                verifyCollectiveKernel<<<gridFor(elements / stride + 1), kThreads, 0,
                                         stream(device)>>>(recv, static_cast<int>(c.op), c.count,
                                                           c.nranks, c.rank, c.seed, elements,
                                                           stride, wrong);
            });
    }

    CallStatus gemmCheck(int device, const GemmSpec &spec, const void *a, const void *b,
                         const void *d, int samples, uint64_t seed, double *max_error) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        double *errors = nullptr;
        CallStatus s = cudaResult(cudaMalloc(&errors, sizeof(double) * samples), "cudaMalloc");
        if (!s.ok())
            return s;
        cudaStream_t st = stream(device);
        const GemmTypes t = gemmTypes(spec.precision);
        const int64_t m = spec.m, n = spec.n, k = spec.k;
        switch (t.ab) {
        case DataType::F32:
            gemmCheckKernel<<<samples, kThreads, 0, st>>>(
                static_cast<const float *>(a), static_cast<const float *>(b),
                static_cast<const float *>(d), m, n, k, seed, samples, errors);
            break;
        case DataType::F16:
            gemmCheckKernel<<<samples, kThreads, 0, st>>>(
                static_cast<const __half *>(a), static_cast<const __half *>(b),
                static_cast<const __half *>(d), m, n, k, seed, samples, errors);
            break;
        case DataType::BF16:
            gemmCheckKernel<<<samples, kThreads, 0, st>>>(
                static_cast<const __nv_bfloat16 *>(a), static_cast<const __nv_bfloat16 *>(b),
                static_cast<const __nv_bfloat16 *>(d), m, n, k, seed, samples, errors);
            break;
        case DataType::F8E4M3:
            gemmCheckKernel<<<samples, kThreads, 0, st>>>(
                static_cast<const __nv_fp8_e4m3 *>(a), static_cast<const __nv_fp8_e4m3 *>(b),
                static_cast<const __nv_bfloat16 *>(d), m, n, k, seed, samples, errors);
            break;
        case DataType::F64:
            break;
        }
        s = launchResult("gemmCheck<<<>>>");
        std::vector<double> host(static_cast<size_t>(samples), 0.0);
        if (s.ok())
            s = cudaResult(cudaMemcpyAsync(host.data(), errors, sizeof(double) * samples,
                                           cudaMemcpyDeviceToHost, st),
                           "cudaMemcpyAsync");
        if (s.ok())
            s = cudaResult(cudaStreamSynchronize(st), "cudaStreamSynchronize");
        cudaFree(errors);
        if (s.ok()) {
            double worst = 0;
            for (double e : host)
                worst = e == e ? std::max(worst, e) : 1e300; // NaN is a failure
            *max_error = worst;
        }
        return s;
    }

    CallStatus eventCreate(int device, void **event) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        cudaEvent_t e = nullptr;
        CallStatus s = cudaResult(cudaEventCreate(&e), "cudaEventCreate");
        *event = e;
        return s;
    }

    void eventDestroy(int device, void *event) override
    {
        cudaSetDevice(device);
        cudaEventDestroy(static_cast<cudaEvent_t>(event));
    }

    CallStatus eventRecord(int device, void *event) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        return cudaResult(cudaEventRecord(static_cast<cudaEvent_t>(event), stream(device)),
                          "cudaEventRecord");
    }

    CallStatus eventElapsed(void *start, void *end, double *seconds) override
    {
        CallStatus s =
            cudaResult(cudaEventSynchronize(static_cast<cudaEvent_t>(end)), "cudaEventSynchronize");
        if (!s.ok())
            return s;
        float ms = 0;
        s = cudaResult(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start),
                                            static_cast<cudaEvent_t>(end)),
                       "cudaEventElapsedTime");
        *seconds = ms * 1e-3;
        return s;
    }

    CallStatus synchronize(int device) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        return cudaResult(cudaStreamSynchronize(stream(device)), "cudaStreamSynchronize");
    }

    CallStatus canAccessPeer(int device, int peer, bool *can) override
    {
        int value = 0;
        CallStatus s =
            cudaResult(cudaDeviceCanAccessPeer(&value, device, peer), "cudaDeviceCanAccessPeer");
        *can = value != 0;
        return s;
    }

    CallStatus setPeerAccess(int device, int peer, bool enable) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        if (enable) {
            const cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
            if (e == cudaErrorPeerAccessAlreadyEnabled) {
                cudaGetLastError();
                return CallStatus::success();
            }
            return cudaResult(e, "cudaDeviceEnablePeerAccess");
        }
        const cudaError_t e = cudaDeviceDisablePeerAccess(peer);
        if (e == cudaErrorPeerAccessNotEnabled) {
            cudaGetLastError();
            return CallStatus::success();
        }
        return cudaResult(e, "cudaDeviceDisablePeerAccess");
    }

    CallStatus gemmSetup(int device, const GemmSpec &spec, const void *a, const void *b, void *d,
                         void **plan) override
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        if (!cublas_.loaded()) { // the probe loads it first (cublasLoad); a direct caller may not
            std::string sonames;
            if (CallStatus s = cublas_.load(&sonames); !s.ok())
                return s;
        }
        auto *p = new GemmPlanImpl;
        p->device = device;
        p->stream = stream(device);
        p->spec = spec;
        p->a = a;
        p->b = b;
        p->d = d;
        const CallStatus s = spec.library == GemmLibrary::Cublas ? setupBlas(p) : setupLt(p);
        if (!s.ok()) {
            gemmDestroy(p);
            return s;
        }
        *plan = p;
        return s;
    }

    CallStatus gemmRun(void *plan) override
    {
        auto *p = static_cast<GemmPlanImpl *>(plan);
        // A kernel launch fails on a stream of another device than the current one, and a
        // cuBLAS handle is bound to the device it was created on: the thermal soak runs the
        // plans of several GPUs in turn.
        if (CallStatus s = setDevice(p->device); !s.ok())
            return s;
        const GemmTypes t = gemmTypes(p->spec.precision);
        if (p->blas)
            return cublas_.gemmEx(p->blas, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(p->spec.m),
                                  static_cast<int>(p->spec.n), static_cast<int>(p->spec.k),
                                  &p->alpha, p->a, cudaType(t.ab), static_cast<int>(p->spec.k),
                                  p->b, cudaType(t.ab), static_cast<int>(p->spec.k), &p->beta, p->d,
                                  cudaType(t.c), static_cast<int>(p->spec.m),
                                  computeType(p->spec.precision), CUBLAS_GEMM_DEFAULT);
        // beta = 0: C is not read; D is written in place of C.
        return cublas_.ltMatmul(p->lt, p->op, &p->alpha, p->a, p->layout_a, p->b, p->layout_b,
                                &p->beta, p->d, p->layout_d, p->d, p->layout_d, &p->algo,
                                p->workspace, p->workspace_bytes, p->stream);
    }

    void gemmDestroy(void *plan) override
    {
        auto *p = static_cast<GemmPlanImpl *>(plan);
        if (!p)
            return;
        cudaSetDevice(p->device);
        if (p->preference)
            cublas_.ltMatmulPreferenceDestroy(p->preference);
        if (p->layout_a)
            cublas_.ltMatrixLayoutDestroy(p->layout_a);
        if (p->layout_b)
            cublas_.ltMatrixLayoutDestroy(p->layout_b);
        if (p->layout_d)
            cublas_.ltMatrixLayoutDestroy(p->layout_d);
        if (p->op)
            cublas_.ltMatmulDescDestroy(p->op);
        if (p->workspace)
            cudaFree(p->workspace);
        if (p->blas)
            cublas_.destroy(p->blas);
        delete p;
    }

    CallStatus cublasLoad(std::string *sonames) override { return cublas_.load(sonames); }

    CallStatus ncclLoad(std::string *version) override { return nccl_.load(version); }

    CallStatus ncclGetUniqueId(NcclId *id) override { return nccl_.getUniqueId(id); }

    CallStatus ncclInitAll(const std::vector<int> &devices, void **group) override
    {
        auto *g = new NcclGroupImpl;
        g->devices = devices;
        g->comms.assign(devices.size(), nullptr);
        const CallStatus s =
            nccl_.commInitAll(g->comms.data(), static_cast<int>(devices.size()), devices.data());
        if (!s.ok()) {
            delete g;
            return s;
        }
        *group = g;
        return s;
    }

    CallStatus ncclInitRank(int device, int nranks, int rank, const NcclId &id,
                            void **group) override
    {
        CallStatus s = cudaResult(cudaSetDevice(device), "cudaSetDevice");
        if (!s.ok())
            return s;
        auto *g = new NcclGroupImpl;
        g->devices = {device};
        g->comms.assign(1, nullptr);
        s = nccl_.commInitRank(&g->comms[0], nranks, id, rank);
        if (!s.ok()) {
            delete g;
            return s;
        }
        *group = g;
        return s;
    }

    CallStatus ncclRun(void *group, CollectiveOp op, const std::vector<const float *> &send,
                       const std::vector<float *> &recv, size_t count) override
    {
        auto *g = static_cast<NcclGroupImpl *>(group);
        CallStatus s = nccl_.groupStart();
        if (!s.ok())
            return s;
        CallStatus first = CallStatus::success();
        for (size_t i = 0; i < g->comms.size() && first.ok(); ++i) {
            void *st = stream(g->devices[i]);
            switch (op) {
            case CollectiveOp::AllReduce:
                first = nccl_.allReduce(send[i], recv[i], count, g->comms[i], st);
                break;
            case CollectiveOp::AllGather:
                first = nccl_.allGather(send[i], recv[i], count, g->comms[i], st);
                break;
            case CollectiveOp::ReduceScatter:
                first = nccl_.reduceScatter(send[i], recv[i], count, g->comms[i], st);
                break;
            default:
                first = CallStatus::failure("ncclGroupStart", "collective not measured");
                break;
            }
        }
        s = nccl_.groupEnd(); // always closes the group it opened
        return first.ok() ? s : first;
    }

    CallStatus ncclQuery(void *group, bool *done) override
    {
        auto *g = static_cast<NcclGroupImpl *>(group);
        *done = true;
        for (size_t i = 0; i < g->comms.size(); ++i) {
            // An asynchronous NCCL error (a peer that died, a network failure) would
            // otherwise look like a hang until the deadline.
            CallStatus s = nccl_.commGetAsyncError(g->comms[i]);
            if (!s.ok())
                return s;
            const cudaError_t e = cudaStreamQuery(stream(g->devices[i]));
            if (e == cudaErrorNotReady) {
                *done = false;
                continue;
            }
            s = cudaResult(e, "cudaStreamQuery");
            if (!s.ok())
                return s;
        }
        return CallStatus::success();
    }

    CallStatus ncclAbort(void *group) override
    {
        auto *g = static_cast<NcclGroupImpl *>(group);
        CallStatus first = CallStatus::success();
        for (void *&comm : g->comms) {
            if (!comm)
                continue;
            const CallStatus s = nccl_.commAbort(comm);
            if (first.ok())
                first = s;
            comm = nullptr; // freed by ncclCommAbort: ncclDestroy must not destroy it again
        }
        return first;
    }

    void ncclDestroy(void *group) override
    {
        auto *g = static_cast<NcclGroupImpl *>(group);
        if (!g)
            return;
        for (void *comm : g->comms)
            if (comm)
                nccl_.commDestroy(comm);
        delete g;
    }

    CallStatus nvmlLoad(std::string *driver_version) override { return nvml_.load(driver_version); }
    CallStatus nvmlDeviceHandle(const std::string &pci_bus_id, void **handle) override
    {
        return nvml_.handleByPciBusId(pci_bus_id, handle);
    }
    CallStatus nvmlSmClock(void *handle, unsigned *mhz) override
    {
        return nvml_.smClockMhz(handle, mhz);
    }
    CallStatus nvmlTemperature(void *handle, unsigned *celsius) override
    {
        return nvml_.temperatureC(handle, celsius);
    }
    CallStatus nvmlPower(void *handle, unsigned *milliwatts) override
    {
        return nvml_.powerMilliwatts(handle, milliwatts);
    }
    CallStatus nvmlThrottleReasons(void *handle, unsigned long long *mask) override
    {
        return nvml_.throttleReasons(handle, mask);
    }
    void nvmlUnload() override { nvml_.unload(); }

private:
    static std::string version(int v)
    {
        // CUDA encodes 1000 * major + 10 * minor (13000 = 13.0).
        return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
    }

    cudaStream_t stream(int device) const
    {
        return device >= 0 && static_cast<size_t>(device) < streams_.size()
                   ? streams_[static_cast<size_t>(device)]
                   : nullptr;
    }

    /// Zeroes the device's counter, runs `launch(counter)`, and reads the count back.
    template <typename F>
    CallStatus countWrong(int device, const char *kernel, uint64_t *mismatches, F &&launch)
    {
        if (CallStatus s = setDevice(device); !s.ok())
            return s;
        auto *wrong = static_cast<unsigned long long *>(scratch_.at(static_cast<size_t>(device)));
        cudaStream_t st = stream(device);
        CallStatus s = cudaResult(cudaMemsetAsync(wrong, 0, sizeof *wrong, st), "cudaMemsetAsync");
        if (!s.ok())
            return s;
        launch(wrong);
        s = launchResult(kernel);
        if (!s.ok())
            return s;
        unsigned long long host = 0;
        s = cudaResult(cudaMemcpyAsync(&host, wrong, sizeof host, cudaMemcpyDeviceToHost, st),
                       "cudaMemcpyAsync");
        if (s.ok())
            s = cudaResult(cudaStreamSynchronize(st), "cudaStreamSynchronize");
        if (s.ok())
            *mismatches = host;
        return s;
    }

    CallStatus setupBlas(GemmPlanImpl *p)
    {
        CallStatus s = cublas_.create(&p->blas);
        if (s.ok())
            s = cublas_.setStream(p->blas, p->stream);
        return s;
    }

    CallStatus setupLt(GemmPlanImpl *p)
    {
        const size_t dev = static_cast<size_t>(p->device);
        if (lt_.size() <= dev)
            lt_.resize(dev + 1, nullptr);
        if (!lt_[dev]) {
            CallStatus s = cublas_.ltCreate(&lt_[dev]);
            if (!s.ok())
                return s;
        }
        p->lt = lt_[dev];
        const GemmTypes t = gemmTypes(p->spec.precision);
        const uint64_t m = static_cast<uint64_t>(p->spec.m), n = static_cast<uint64_t>(p->spec.n),
                       k = static_cast<uint64_t>(p->spec.k);
        CallStatus s =
            cublas_.ltMatmulDescCreate(&p->op, computeType(p->spec.precision), CUDA_R_32F);
        // "TN": A transposed, B not (required by the FP8 kernels, used for all precisions).
        const cublasOperation_t transa = CUBLAS_OP_T, transb = CUBLAS_OP_N;
        if (s.ok())
            s = cublas_.ltMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &transa,
                                                 sizeof transa);
        if (s.ok())
            s = cublas_.ltMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &transb,
                                                 sizeof transb);
        if (s.ok())
            s = cublas_.ltMatrixLayoutCreate(&p->layout_a, cudaType(t.ab), k, m,
                                             static_cast<int64_t>(k));
        if (s.ok())
            s = cublas_.ltMatrixLayoutCreate(&p->layout_b, cudaType(t.ab), k, n,
                                             static_cast<int64_t>(k));
        if (s.ok())
            s = cublas_.ltMatrixLayoutCreate(&p->layout_d, cudaType(t.c), m, n,
                                             static_cast<int64_t>(m));
        // 32 MiB of workspace: what cuBLAS recommends for Hopper.
        p->workspace_bytes = 32u << 20;
        if (s.ok())
            s = cudaResult(cudaMalloc(&p->workspace, p->workspace_bytes), "cudaMalloc");
        if (s.ok())
            s = cublas_.ltMatmulPreferenceCreate(&p->preference);
        const uint64_t workspace = p->workspace_bytes;
        if (s.ok())
            s = cublas_.ltMatmulPreferenceSetAttribute(p->preference,
                                                       CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                       &workspace, sizeof workspace);
        if (!s.ok())
            return s;
        CublasLtHeuristicResultAbi result{};
        int found = 0;
        s = cublas_.ltMatmulAlgoGetHeuristic(p->lt, p->op, p->layout_a, p->layout_b, p->layout_d,
                                             p->layout_d, p->preference, 1, &result, &found);
        if (s.ok() && found == 0)
            return CallStatus::failure("cublasLtMatmulAlgoGetHeuristic",
                                       "no algorithm for this precision and shape");
        p->algo = result.algo;
        return s;
    }

    std::vector<cudaStream_t> streams_;
    std::vector<void *> scratch_;
    CublasLibrary cublas_;
    std::vector<void *> lt_; // cublasLtHandle_t per device
    NcclLibrary nccl_;
    NvmlLibrary nvml_;
};

} // namespace

std::unique_ptr<Backend> makeCudaBackend()
{
    return std::make_unique<CudaBackend>();
}

bool builtWithCuda()
{
    return true;
}

} // namespace scalescope::gpuprobe
