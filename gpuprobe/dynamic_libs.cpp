#include "dynamic_libs.h"

#include <dlfcn.h>

#include <cctype>
#include <cstdio>
#include <cstring>

namespace scalescope::gpuprobe
{

namespace
{

/// dlsym into a typed function pointer (POSIX guarantees the conversion).
template <typename F> bool resolve(void *lib, const char *name, F *out)
{
    *out = reinterpret_cast<F>(dlsym(lib, name));
    return *out != nullptr;
}

std::string dlerrorText()
{
    const char *e = dlerror();
    return e ? e : "unknown error";
}

// nvml.h
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlErrorInvalidArgument = 2;
constexpr int kNvmlErrorNotFound = 6;
constexpr int kNvmlClockSm = 1;                   // NVML_CLOCK_SM
constexpr int kNvmlTemperatureGpu = 0;            // NVML_TEMPERATURE_GPU
constexpr unsigned kNvmlDriverVersionBuffer = 80; // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE

// cublas_api.h
constexpr int kCublasSuccess = 0; // CUBLAS_STATUS_SUCCESS

// nccl.h
constexpr int kNcclSuccess = 0;
constexpr int kNcclInProgress = 7; // NCCL 2.14+, non-blocking communicators
constexpr int kNcclFloat32 = 7;
constexpr int kNcclSum = 0;

} // namespace

// --- NVML ----------------------------------------------------------------------------------

CallStatus NvmlLibrary::result(int code, const char *call) const
{
    if (code == kNvmlSuccess)
        return CallStatus::success();
    const char *text = error_string_ ? error_string_(code) : nullptr;
    return CallStatus::failure(call, (text ? std::string(text) : std::string("error")) +
                                         " (nvmlReturn_t " + std::to_string(code) + ")");
}

CallStatus NvmlLibrary::load(std::string *driver_version)
{
    if (lib_)
        unload();
    dlerror();
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib_)
        return CallStatus::failure("dlopen(libnvidia-ml.so.1)", dlerrorText());
    // Versioned entry points: nvml.h maps the plain names to these with #defines.
    bool ok = resolve(lib_, "nvmlInit_v2", &init_) && resolve(lib_, "nvmlShutdown", &shutdown_) &&
              resolve(lib_, "nvmlErrorString", &error_string_) &&
              resolve(lib_, "nvmlSystemGetDriverVersion", &driver_version_) &&
              resolve(lib_, "nvmlDeviceGetHandleByPciBusId_v2", &handle_by_bus_id_) &&
              resolve(lib_, "nvmlDeviceGetClockInfo", &clock_info_) &&
              resolve(lib_, "nvmlDeviceGetTemperature", &temperature_) &&
              resolve(lib_, "nvmlDeviceGetPowerUsage", &power_usage_);
    // R535 renamed throttle reasons to clock event reasons; older drivers have only the first.
    if (ok) {
        clock_reasons_name_ = "nvmlDeviceGetCurrentClocksEventReasons";
        if (!resolve(lib_, clock_reasons_name_, &clock_reasons_)) {
            clock_reasons_name_ = "nvmlDeviceGetCurrentClocksThrottleReasons";
            ok = resolve(lib_, clock_reasons_name_, &clock_reasons_);
        }
    }
    if (!ok) {
        const std::string why = dlerrorText();
        unload();
        return CallStatus::failure("dlsym(libnvidia-ml.so.1)", why);
    }
    CallStatus s = result(init_(), "nvmlInit_v2");
    if (!s.ok()) {
        unload();
        return s;
    }
    initialised_ = true;
    char version[kNvmlDriverVersionBuffer] = {};
    s = result(driver_version_(version, sizeof version), "nvmlSystemGetDriverVersion");
    if (!s.ok()) {
        unload();
        return s;
    }
    *driver_version = version;
    return s;
}

void NvmlLibrary::unload()
{
    if (initialised_ && shutdown_)
        shutdown_();
    initialised_ = false;
    if (lib_)
        dlclose(lib_);
    lib_ = nullptr;
}

CallStatus NvmlLibrary::handleByPciBusId(const std::string &bus_id, void **handle)
{
    if (!initialised_)
        return CallStatus::failure("nvmlDeviceGetHandleByPciBusId_v2", "NVML not loaded");
    int code = handle_by_bus_id_(bus_id.c_str(), handle);
    if (code == kNvmlErrorNotFound || code == kNvmlErrorInvalidArgument) {
        // NVML writes the domain with 8 hex digits and upper case ("00000000:18:00.0").
        const size_t colon = bus_id.find(':');
        if (colon != std::string::npos) {
            std::string domain = bus_id.substr(0, colon);
            while (domain.size() < 8)
                domain.insert(domain.begin(), '0');
            std::string nvml = domain + bus_id.substr(colon);
            for (char &c : nvml)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            code = handle_by_bus_id_(nvml.c_str(), handle);
        }
    }
    return result(code, "nvmlDeviceGetHandleByPciBusId_v2");
}

CallStatus NvmlLibrary::smClockMhz(void *handle, unsigned *mhz)
{
    return result(clock_info_(handle, kNvmlClockSm, mhz), "nvmlDeviceGetClockInfo");
}

CallStatus NvmlLibrary::temperatureC(void *handle, unsigned *celsius)
{
    return result(temperature_(handle, kNvmlTemperatureGpu, celsius), "nvmlDeviceGetTemperature");
}

CallStatus NvmlLibrary::powerMilliwatts(void *handle, unsigned *milliwatts)
{
    return result(power_usage_(handle, milliwatts), "nvmlDeviceGetPowerUsage");
}

CallStatus NvmlLibrary::throttleReasons(void *handle, unsigned long long *mask)
{
    return result(clock_reasons_(handle, mask), clock_reasons_name_);
}

// --- cuBLAS and cuBLASLt -------------------------------------------------------------------

CublasLibrary::~CublasLibrary()
{
    unload();
}

void CublasLibrary::unload()
{
    if (blas_)
        dlclose(blas_);
    if (lt_)
        dlclose(lt_);
    blas_ = nullptr;
    lt_ = nullptr;
}

CallStatus CublasLibrary::result(int code, const char *call) const
{
    if (code == kCublasSuccess)
        return CallStatus::success();
    const char *name = status_name_ ? status_name_(code) : nullptr;
    const char *text = status_string_ ? status_string_(code) : nullptr;
    return CallStatus::failure(call, std::string(name ? name : "error") + ": " +
                                         (text ? text : "cublasStatus_t " + std::to_string(code)));
}

CallStatus CublasLibrary::load(std::string *sonames)
{
    if (blas_) {
        *sonames = sonames_;
        return CallStatus::success();
    }
    // The newest major first; libcublas.so.N needs the libcublasLt.so.N of the same release.
    // The declarations here hold for 11 to 13; a release that lacks an entry point (an early
    // 11.x has no cublasGetStatusName) fails at dlsym, naming the symbol.
    static const char *const kMajors[] = {"13", "12", "11"};
    std::string failed_call, why, also_tried;
    for (const char *major : kMajors) {
        const std::string blas = std::string("libcublas.so.") + major;
        const std::string lt = std::string("libcublasLt.so.") + major;
        dlerror();
        blas_ = dlopen(blas.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (blas_)
            lt_ = dlopen(lt.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (lt_) {
            sonames_ = blas + ", " + lt;
            break;
        }
        if (failed_call.empty()) {
            failed_call = "dlopen(" + (blas_ ? lt : blas) + ")";
            why = dlerrorText();
        } else {
            also_tried += (also_tried.empty() ? "" : ", ") + blas;
        }
        unload();
    }
    if (!blas_)
        return CallStatus::failure(failed_call, why + " (also tried " + also_tried + ")");
    const bool ok = resolve(blas_, "cublasGetStatusName", &status_name_) &&
                    resolve(blas_, "cublasGetStatusString", &status_string_) &&
                    resolve(blas_, "cublasCreate_v2", &create_) &&
                    resolve(blas_, "cublasDestroy_v2", &destroy_) &&
                    resolve(blas_, "cublasSetStream_v2", &set_stream_) &&
                    resolve(blas_, "cublasGemmEx", &gemm_ex_) &&
                    resolve(lt_, "cublasLtCreate", &lt_create_) &&
                    resolve(lt_, "cublasLtDestroy", &lt_destroy_) &&
                    resolve(lt_, "cublasLtMatmulDescCreate", &lt_desc_create_) &&
                    resolve(lt_, "cublasLtMatmulDescDestroy", &lt_desc_destroy_) &&
                    resolve(lt_, "cublasLtMatmulDescSetAttribute", &lt_desc_set_) &&
                    resolve(lt_, "cublasLtMatrixLayoutCreate", &lt_layout_create_) &&
                    resolve(lt_, "cublasLtMatrixLayoutDestroy", &lt_layout_destroy_) &&
                    resolve(lt_, "cublasLtMatmulPreferenceCreate", &lt_pref_create_) &&
                    resolve(lt_, "cublasLtMatmulPreferenceDestroy", &lt_pref_destroy_) &&
                    resolve(lt_, "cublasLtMatmulPreferenceSetAttribute", &lt_pref_set_) &&
                    resolve(lt_, "cublasLtMatmulAlgoGetHeuristic", &lt_heuristic_) &&
                    resolve(lt_, "cublasLtMatmul", &lt_matmul_);
    if (!ok) {
        const std::string what = "dlsym(" + sonames_ + ")";
        why = dlerrorText();
        unload();
        return CallStatus::failure(what, why);
    }
    *sonames = sonames_;
    return CallStatus::success();
}

CallStatus CublasLibrary::create(void **handle)
{
    return result(create_(handle), "cublasCreate_v2");
}

CallStatus CublasLibrary::destroy(void *handle)
{
    return result(destroy_(handle), "cublasDestroy_v2");
}

CallStatus CublasLibrary::setStream(void *handle, void *stream)
{
    return result(set_stream_(handle, stream), "cublasSetStream_v2");
}

CallStatus CublasLibrary::gemmEx(void *handle, int op_a, int op_b, int m, int n, int k,
                                 const void *alpha, const void *a, int a_type, int lda,
                                 const void *b, int b_type, int ldb, const void *beta, void *c,
                                 int c_type, int ldc, int compute, int algo)
{
    return result(gemm_ex_(handle, op_a, op_b, m, n, k, alpha, a, a_type, lda, b, b_type, ldb, beta,
                           c, c_type, ldc, compute, algo),
                  "cublasGemmEx");
}

CallStatus CublasLibrary::ltCreate(void **handle)
{
    return result(lt_create_(handle), "cublasLtCreate");
}

CallStatus CublasLibrary::ltDestroy(void *handle)
{
    return result(lt_destroy_(handle), "cublasLtDestroy");
}

CallStatus CublasLibrary::ltMatmulDescCreate(void **desc, int compute, int scale_type)
{
    return result(lt_desc_create_(desc, compute, scale_type), "cublasLtMatmulDescCreate");
}

CallStatus CublasLibrary::ltMatmulDescDestroy(void *desc)
{
    return result(lt_desc_destroy_(desc), "cublasLtMatmulDescDestroy");
}

CallStatus CublasLibrary::ltMatmulDescSetAttribute(void *desc, int attribute, const void *value,
                                                   size_t bytes)
{
    return result(lt_desc_set_(desc, attribute, value, bytes), "cublasLtMatmulDescSetAttribute");
}

CallStatus CublasLibrary::ltMatrixLayoutCreate(void **layout, int type, uint64_t rows,
                                               uint64_t cols, int64_t ld)
{
    return result(lt_layout_create_(layout, type, rows, cols, ld), "cublasLtMatrixLayoutCreate");
}

CallStatus CublasLibrary::ltMatrixLayoutDestroy(void *layout)
{
    return result(lt_layout_destroy_(layout), "cublasLtMatrixLayoutDestroy");
}

CallStatus CublasLibrary::ltMatmulPreferenceCreate(void **preference)
{
    return result(lt_pref_create_(preference), "cublasLtMatmulPreferenceCreate");
}

CallStatus CublasLibrary::ltMatmulPreferenceDestroy(void *preference)
{
    return result(lt_pref_destroy_(preference), "cublasLtMatmulPreferenceDestroy");
}

CallStatus CublasLibrary::ltMatmulPreferenceSetAttribute(void *preference, int attribute,
                                                         const void *value, size_t bytes)
{
    return result(lt_pref_set_(preference, attribute, value, bytes),
                  "cublasLtMatmulPreferenceSetAttribute");
}

CallStatus CublasLibrary::ltMatmulAlgoGetHeuristic(void *handle, void *desc, void *a_layout,
                                                   void *b_layout, void *c_layout, void *d_layout,
                                                   void *preference, int requested,
                                                   CublasLtHeuristicResultAbi *results,
                                                   int *returned)
{
    return result(lt_heuristic_(handle, desc, a_layout, b_layout, c_layout, d_layout, preference,
                                requested, results, returned),
                  "cublasLtMatmulAlgoGetHeuristic");
}

CallStatus CublasLibrary::ltMatmul(void *handle, void *desc, const void *alpha, const void *a,
                                   void *a_layout, const void *b, void *b_layout, const void *beta,
                                   const void *c, void *c_layout, void *d, void *d_layout,
                                   const CublasLtMatmulAlgoAbi *algo, void *workspace,
                                   size_t workspace_bytes, void *stream)
{
    return result(lt_matmul_(handle, desc, alpha, a, a_layout, b, b_layout, beta, c, c_layout, d,
                             d_layout, algo, workspace, workspace_bytes, stream),
                  "cublasLtMatmul");
}

// --- NCCL ----------------------------------------------------------------------------------

NcclLibrary::~NcclLibrary()
{
    if (lib_)
        dlclose(lib_);
}

CallStatus NcclLibrary::result(int code, const char *call) const
{
    if (code == kNcclSuccess)
        return CallStatus::success();
    const char *text = error_string_ ? error_string_(code) : nullptr;
    return CallStatus::failure(call, (text ? std::string(text) : std::string("error")) +
                                         " (ncclResult_t " + std::to_string(code) + ")");
}

CallStatus NcclLibrary::load(std::string *version)
{
    if (lib_) {
        *version = version_;
        return CallStatus::success();
    }
    dlerror();
    lib_ = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib_)
        return CallStatus::failure("dlopen(libnccl.so.2)", dlerrorText());
    const bool ok = resolve(lib_, "ncclGetVersion", &get_version_) &&
                    resolve(lib_, "ncclGetErrorString", &error_string_) &&
                    resolve(lib_, "ncclGetUniqueId", &get_unique_id_) &&
                    resolve(lib_, "ncclCommInitAll", &comm_init_all_) &&
                    resolve(lib_, "ncclCommInitRank", &comm_init_rank_) &&
                    resolve(lib_, "ncclCommDestroy", &comm_destroy_) &&
                    resolve(lib_, "ncclCommAbort", &comm_abort_) &&
                    resolve(lib_, "ncclCommGetAsyncError", &comm_get_async_error_) &&
                    resolve(lib_, "ncclGroupStart", &group_start_) &&
                    resolve(lib_, "ncclGroupEnd", &group_end_) &&
                    resolve(lib_, "ncclAllReduce", &all_reduce_) &&
                    resolve(lib_, "ncclAllGather", &all_gather_) &&
                    resolve(lib_, "ncclReduceScatter", &reduce_scatter_);
    if (!ok) {
        const std::string why = dlerrorText();
        dlclose(lib_);
        lib_ = nullptr;
        return CallStatus::failure("dlsym(libnccl.so.2)", why);
    }
    int code = 0;
    CallStatus s = result(get_version_(&code), "ncclGetVersion");
    if (!s.ok()) {
        dlclose(lib_);
        lib_ = nullptr;
        return s;
    }
    // nccl.h NCCL_VERSION: X*1000 + Y*100 + Z up to 2.8, X*10000 + Y*100 + Z after.
    const int major = code >= 10000 ? code / 10000 : code / 1000;
    const int minor = code >= 10000 ? code % 10000 / 100 : code % 1000 / 100;
    char text[32];
    std::snprintf(text, sizeof text, "%d.%d.%d", major, minor, code % 100);
    version_ = text;
    *version = version_;
    return s;
}

CallStatus NcclLibrary::getUniqueId(NcclId *id)
{
    NcclUniqueIdAbi raw{};
    CallStatus s = result(get_unique_id_(&raw), "ncclGetUniqueId");
    if (s.ok())
        std::memcpy(id->data(), raw.internal, sizeof raw.internal);
    return s;
}

CallStatus NcclLibrary::commInitAll(void **comms, int ndev, const int *devices)
{
    return result(comm_init_all_(comms, ndev, devices), "ncclCommInitAll");
}

CallStatus NcclLibrary::commInitRank(void **comm, int nranks, const NcclId &id, int rank)
{
    NcclUniqueIdAbi raw{};
    std::memcpy(raw.internal, id.data(), sizeof raw.internal);
    return result(comm_init_rank_(comm, nranks, raw, rank), "ncclCommInitRank");
}

CallStatus NcclLibrary::commDestroy(void *comm)
{
    return result(comm_destroy_(comm), "ncclCommDestroy");
}

CallStatus NcclLibrary::commAbort(void *comm)
{
    return result(comm_abort_(comm), "ncclCommAbort");
}

CallStatus NcclLibrary::commGetAsyncError(void *comm)
{
    int async_error = kNcclSuccess;
    CallStatus s = result(comm_get_async_error_(comm, &async_error), "ncclCommGetAsyncError");
    if (s.ok() && async_error != kNcclSuccess && async_error != kNcclInProgress)
        s = result(async_error, "ncclCommGetAsyncError");
    return s;
}

CallStatus NcclLibrary::groupStart()
{
    return result(group_start_(), "ncclGroupStart");
}

CallStatus NcclLibrary::groupEnd()
{
    return result(group_end_(), "ncclGroupEnd");
}

CallStatus NcclLibrary::allReduce(const void *send, void *recv, size_t count, void *comm,
                                  void *stream)
{
    return result(all_reduce_(send, recv, count, kNcclFloat32, kNcclSum, comm, stream),
                  "ncclAllReduce");
}

CallStatus NcclLibrary::allGather(const void *send, void *recv, size_t send_count, void *comm,
                                  void *stream)
{
    return result(all_gather_(send, recv, send_count, kNcclFloat32, comm, stream), "ncclAllGather");
}

CallStatus NcclLibrary::reduceScatter(const void *send, void *recv, size_t recv_count, void *comm,
                                      void *stream)
{
    return result(reduce_scatter_(send, recv, recv_count, kNcclFloat32, kNcclSum, comm, stream),
                  "ncclReduceScatter");
}

} // namespace scalescope::gpuprobe
