// The one door to the GPU: every CUDA, cuBLAS(Lt), NCCL and NVML call the probe makes goes
// through this interface, one method per API call (or per kernel launch, or per short fixed
// sequence of calls), so that a fake can stand in for the hardware in tests and fail each call
// in turn. api_calls.h lists every library function the real backend calls and the method
// that makes it.
#pragma once

#include "hardware/precision.h"
#include "plan/collective_op.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace scalescope::gpuprobe
{

/// Outcome of one call: empty `call` = success; otherwise the API call that failed
/// ("cudaMalloc") and its error text.
struct CallStatus {
    std::string call;
    std::string message;

    bool ok() const { return call.empty(); }
    static CallStatus success() { return {}; }
    static CallStatus failure(std::string call, std::string message)
    {
        return {std::move(call), std::move(message)};
    }
};

/// Element types the probe's kernels fill and check.
enum class DataType { F64, F32, F16, BF16, F8E4M3 };
size_t dataTypeBytes(DataType t);
const char *dataTypeName(DataType t);

/// Storage of a GEMM's operands at a precision: A and B, and C/D.
struct GemmTypes {
    DataType ab;
    DataType c;
};
/// fp32 and tf32 keep fp32 operands (tf32 rounds inside the tensor cores); fp16 and bf16
/// store 16-bit operands and results; fp8 stores E4M3 operands and a bf16 result (the
/// cuBLASLt FP8 combination with C = D = bf16). All accumulate in fp32.
GemmTypes gemmTypes(Precision p);

/// Which library runs the GEMMs.
enum class GemmLibrary { CublasLt, Cublas };
const char *gemmLibraryName(GemmLibrary l);

/// One GEMM: D(m x n) = op(A)(m x k) * B(k x n), column-major, A transposed ("TN", the
/// layout cuBLASLt's FP8 kernels require; used for every precision so all are comparable).
/// A is stored k x m (lda = k), B k x n (ldb = k), C and D m x n (ldc = m).
struct GemmSpec {
    Precision precision = Precision::BF16;
    int64_t m = 0, n = 0, k = 0;
    GemmLibrary library = GemmLibrary::CublasLt;
};

enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice };

/// What a collective's receive buffer on `rank` must hold when every rank r filled its send
/// buffer with rankedValue(seed, r, i) (random.h).
struct CollectiveCheck {
    CollectiveOp op = CollectiveOp::AllReduce;
    size_t count = 0; // NCCL's count argument: elements reduced, sent (all_gather) or received
                      // (reduce_scatter)
    int nranks = 1;
    int rank = 0;
    uint64_t seed = 0;
};

struct RuntimeInfo {
    int device_count = 0;
    std::string driver_version;  // CUDA driver API version ("13.0")
    std::string runtime_version; // CUDA runtime ("13.0")
};

struct DeviceInfo {
    std::string name;
    std::string uuid;       // "GPU-xxxxxxxx-xxxx-..."
    std::string pci_bus_id; // "0000:18:00.0"
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    double memory_bytes = 0;
    double l2_bytes = 0;
};

/// NCCL's unique id (ncclUniqueId is 128 opaque bytes, NCCL_UNIQUE_ID_BYTES).
using NcclId = std::array<char, 128>;

class Backend
{
public:
    virtual ~Backend() = default;

    /// A short name for the profile's "tool" field ("cuda", "fake").
    virtual std::string name() const = 0;

    // --- Runtime and devices -------------------------------------------------------------
    /// cudaGetDeviceCount (+ driver and runtime versions). A failure here means no usable GPU.
    virtual CallStatus init(RuntimeInfo *info) = 0;
    /// cudaGetDeviceProperties.
    virtual CallStatus deviceInfo(int device, DeviceInfo *out) = 0;
    /// cudaSetDevice + cudaStreamCreateWithFlags: the device's one work stream.
    virtual CallStatus openDevice(int device) = 0;
    virtual void closeDevice(int device) = 0;

    // --- Memory ----------------------------------------------------------------------------
    virtual CallStatus deviceMalloc(int device, size_t bytes, void **ptr) = 0; // cudaMalloc
    virtual void deviceFree(int device, void *ptr) = 0;                        // cudaFree
    /// cudaMallocHost (pinned) or plain malloc (pageable).
    virtual CallStatus hostMalloc(size_t bytes, bool pinned, void **ptr) = 0;
    virtual void hostFree(void *ptr, bool pinned) = 0;
    /// cudaMemcpyAsync on the device's stream.
    virtual CallStatus memcpyAsync(int device, void *dst, const void *src, size_t bytes,
                                   CopyKind kind) = 0;
    /// cudaMemcpyPeerAsync, issued on the source device's stream.
    virtual CallStatus memcpyPeerAsync(int dst_device, void *dst, int src_device, const void *src,
                                       size_t bytes) = 0;

    // --- The probe's kernels (each one launch) ----------------------------------------------
    /// ptr[i] = randomValue(seed, i) converted to `type` (random.h): never zero.
    virtual CallStatus fillRandom(int device, void *ptr, DataType type, size_t count,
                                  uint64_t seed) = 0;
    /// Counts elements of ptr (type F64) that differ from randomValue(seed, i).
    virtual CallStatus verifyRandom(int device, const void *ptr, size_t count, uint64_t seed,
                                    uint64_t *mismatches) = 0;
    /// dst[i] = src[i] over doubles (BabelStream copy).
    virtual CallStatus copyKernel(int device, double *dst, const double *src, size_t count) = 0;
    /// a[i] = b[i] + scalar * c[i] (BabelStream triad).
    virtual CallStatus triadKernel(int device, double *a, const double *b, const double *c,
                                   double scalar, size_t count) = 0;
    /// Counts elements of a that differ from b[i] + scalar * c[i].
    virtual CallStatus verifyTriad(int device, const double *a, const double *b, const double *c,
                                   double scalar, size_t count, uint64_t *mismatches) = 0;
    /// An empty kernel of one thread that adds one to *counter (launch overhead).
    virtual CallStatus emptyKernel(int device, unsigned *counter) = 0;
    /// ptr[i] = rankedValue(seed, rank, i) as float (small whole numbers: sums are exact).
    virtual CallStatus fillRanked(int device, float *ptr, size_t count, uint64_t seed,
                                  int rank) = 0;
    virtual CallStatus verifyCollective(int device, const float *recv, const CollectiveCheck &check,
                                        uint64_t *mismatches) = 0;
    /// Recomputes `samples` entries of D (chosen by `seed`) in double precision from the
    /// stored A and B; returns the largest |D - ref| / sum_k |a_ik b_kj|.
    virtual CallStatus gemmCheck(int device, const GemmSpec &spec, const void *a, const void *b,
                                 const void *d, int samples, uint64_t seed, double *max_error) = 0;

    // --- Events and streams ---------------------------------------------------------------
    virtual CallStatus eventCreate(int device, void **event) = 0; // cudaEventCreate
    virtual void eventDestroy(int device, void *event) = 0;
    virtual CallStatus eventRecord(int device, void *event) = 0; // on the device's stream
    /// cudaEventSynchronize(end) + cudaEventElapsedTime.
    virtual CallStatus eventElapsed(void *start, void *end, double *seconds) = 0;
    virtual CallStatus synchronize(int device) = 0; // cudaStreamSynchronize

    // --- Peer to peer -----------------------------------------------------------------------
    virtual CallStatus canAccessPeer(int device, int peer, bool *can) = 0;
    /// cudaDeviceEnablePeerAccess / cudaDeviceDisablePeerAccess (from `device` to `peer`).
    virtual CallStatus setPeerAccess(int device, int peer, bool enable) = 0;

    // --- GEMM (cuBLAS and cuBLASLt, loaded at run time) ----------------------------------
    /// dlopen("libcublas.so.13") and "libcublasLt.so.13" (or an older major); `sonames` gets
    /// the libraries loaded. Without them the GEMM tests are skipped, naming the library.
    virtual CallStatus cublasLoad(std::string *sonames) = 0;
    /// Handles, descriptors, workspace and algorithm for one shape
    /// (cublasLtMatmulAlgoGetHeuristic).
    virtual CallStatus gemmSetup(int device, const GemmSpec &spec, const void *a, const void *b,
                                 void *d, void **plan) = 0;
    virtual CallStatus gemmRun(void *plan) = 0; // cublasLtMatmul / cublasGemmEx
    virtual void gemmDestroy(void *plan) = 0;

    // --- NCCL (loaded at run time) ------------------------------------------------------------
    /// dlopen("libnccl.so.2") + ncclGetVersion.
    virtual CallStatus ncclLoad(std::string *version) = 0;
    virtual CallStatus ncclGetUniqueId(NcclId *id) = 0;
    /// ncclCommInitAll over `devices` (one process, all local GPUs).
    virtual CallStatus ncclInitAll(const std::vector<int> &devices, void **group) = 0;
    /// ncclCommInitRank: this process's one GPU in a group of `nranks` (MPI launch).
    virtual CallStatus ncclInitRank(int device, int nranks, int rank, const NcclId &id,
                                    void **group) = 0;
    /// One collective on every GPU of the group (ncclGroupStart, one call per GPU on its
    /// stream, ncclGroupEnd). send/recv hold one float buffer per GPU of the group.
    virtual CallStatus ncclRun(void *group, CollectiveOp op, const std::vector<const float *> &send,
                               const std::vector<float *> &recv, size_t count) = 0;
    /// Whether the group's queued work has finished, without blocking: cudaStreamQuery on
    /// each GPU's stream, and ncclCommGetAsyncError on each communicator (an asynchronous
    /// NCCL error is a failure). The probe's collective watchdog polls this against a
    /// deadline instead of blocking in cudaStreamSynchronize on a collective that may hang.
    virtual CallStatus ncclQuery(void *group, bool *done) = 0;
    /// ncclCommAbort on each communicator of the group (the watchdog's deadline passed):
    /// the GPUs' queued NCCL work is cancelled; the group can then only be destroyed.
    virtual CallStatus ncclAbort(void *group) = 0;
    virtual void ncclDestroy(void *group) = 0; // ncclCommDestroy (not after ncclAbort)

    // --- NVML (loaded at run time) ------------------------------------------------------------
    /// dlopen("libnvidia-ml.so.1") + nvmlInit_v2 + nvmlSystemGetDriverVersion.
    virtual CallStatus nvmlLoad(std::string *driver_version) = 0;
    /// nvmlDeviceGetHandleByPciBusId_v2.
    virtual CallStatus nvmlDeviceHandle(const std::string &pci_bus_id, void **handle) = 0;
    virtual CallStatus nvmlSmClock(void *handle, unsigned *mhz) = 0; // nvmlDeviceGetClockInfo
    virtual CallStatus nvmlTemperature(void *handle,
                                       unsigned *celsius) = 0; // nvmlDeviceGetTemperature
    virtual CallStatus nvmlPower(void *handle, unsigned *milliwatts) = 0; // nvmlDeviceGetPowerUsage
    /// nvmlDeviceGetCurrentClocksEventReasons (older drivers: ...ClocksThrottleReasons).
    virtual CallStatus nvmlThrottleReasons(void *handle, unsigned long long *mask) = 0;
    virtual void nvmlUnload() = 0; // nvmlShutdown
};

/// NVML clock-event (throttle) reason bits and the names the profile uses (nvml.h,
/// nvmlClocksEventReason*: GpuIdle 0x1 ... DisplayClockSetting 0x100).
std::vector<std::string> throttleReasonNames(unsigned long long mask);

} // namespace scalescope::gpuprobe
