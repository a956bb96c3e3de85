#include "probe.h"

#include "random.h"

#include "io/profile_io.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSysInfo>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <thread>

namespace scalescope::gpuprobe
{

const char *testName(TestId test)
{
    switch (test) {
    case TestId::Gemm:
        return "gemm";
    case TestId::Memory:
        return "memory";
    case TestId::Transfer:
        return "transfer";
    case TestId::Launch:
        return "launch";
    case TestId::P2P:
        return "p2p";
    case TestId::Nccl:
        return "nccl";
    case TestId::Thermal:
        return "thermal";
    }
    return "?";
}

std::optional<TestId> testFromName(std::string_view name)
{
    for (TestId t : kAllTests)
        if (name == testName(t))
            return t;
    return std::nullopt;
}

bool ProbeOptions::has(TestId t) const
{
    return std::find(tests.begin(), tests.end(), t) != tests.end();
}


std::string isoNow()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
}

std::string localHostname()
{
    const std::string name = QSysInfo::machineHostName().toStdString();
    return name.empty() ? std::string("unknown") : name;
}

std::string localCpuName()
{
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (cpuinfo.open(QIODevice::ReadOnly | QIODevice::Text)) {
        while (!cpuinfo.atEnd()) {
            const QByteArray line = cpuinfo.readLine();
            if (line.startsWith("model name")) {
                const int colon = line.indexOf(':');
                if (colon >= 0)
                    return line.mid(colon + 1).trimmed().toStdString();
            }
        }
    }
    return QSysInfo::currentCpuArchitecture().toStdString();
}

namespace
{

constexpr size_t kMiB = size_t(1) << 20;
constexpr size_t kGiB = size_t(1) << 30;

/// A failed call, thrown inside one measurement and caught by the step that made it.
struct CallFailure {
    CallStatus status;
};

void check(const CallStatus &s)
{
    if (!s.ok())
        throw CallFailure{s};
}

/// The collective watchdog aborted the communicators: its deadline passed, or NCCL reported
/// an asynchronous error.
struct CollectiveAborted {
    std::string message;
};

/// "64 MiB", "1.5 KiB", "48 bytes".
std::string sizeText(double bytes)
{
    const char *units[] = {"GiB", "MiB", "KiB"};
    double scale = 1024.0 * 1024.0 * 1024.0;
    for (const char *unit : units) {
        if (bytes >= scale) {
            char text[64];
            std::snprintf(text, sizeof text, "%g %s", std::round(bytes / scale * 10) / 10, unit);
            return text;
        }
        scale /= 1024.0;
    }
    return std::to_string(static_cast<long long>(bytes)) + " bytes";
}

std::string fmt(double value, int decimals = 1)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string gpuLabel(int device)
{
    return "GPU " + std::to_string(device);
}

/// The profile's test name of one GEMM precision ("gemm.bf16").
std::string gemmTestName(Precision p)
{
    return std::string("gemm.") + precisionName(p);
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    const size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<long>(mid), values.end());
    double m = values[mid];
    if (values.size() % 2 == 0) {
        const double lower =
            *std::max_element(values.begin(), values.begin() + static_cast<long>(mid));
        m = 0.5 * (m + lower);
    }
    return m;
}

// --- Owners of backend objects: released on every path, failures included ---------------

class DeviceBuffer
{
public:
    DeviceBuffer(Backend &b, int device, size_t bytes) : b_(b), device_(device), bytes_(bytes)
    {
        check(b.deviceMalloc(device, std::max<size_t>(bytes, 1), &ptr_));
    }
    ~DeviceBuffer()
    {
        if (ptr_)
            b_.deviceFree(device_, ptr_);
    }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    void *get() const { return ptr_; }
    template <typename T> T *as() const { return static_cast<T *>(ptr_); }
    size_t bytes() const { return bytes_; }

private:
    Backend &b_;
    int device_;
    size_t bytes_;
    void *ptr_ = nullptr;
};

class HostBuffer
{
public:
    HostBuffer(Backend &b, size_t bytes, bool pinned) : b_(b), pinned_(pinned)
    {
        check(b.hostMalloc(bytes, pinned, &ptr_));
    }
    ~HostBuffer()
    {
        if (ptr_)
            b_.hostFree(ptr_, pinned_);
    }
    HostBuffer(const HostBuffer &) = delete;
    HostBuffer &operator=(const HostBuffer &) = delete;
    template <typename T> T *as() const { return static_cast<T *>(ptr_); }

private:
    Backend &b_;
    bool pinned_;
    void *ptr_ = nullptr;
};

class Event
{
public:
    Event(Backend &b, int device) : b_(b), device_(device) { check(b.eventCreate(device, &ev_)); }
    ~Event()
    {
        if (ev_)
            b_.eventDestroy(device_, ev_);
    }
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;
    void *get() const { return ev_; }

private:
    Backend &b_;
    int device_;
    void *ev_ = nullptr;
};

class GemmPlan
{
public:
    GemmPlan(Backend &b, int device, const GemmSpec &spec, const void *a, const void *bm, void *d)
        : b_(b)
    {
        check(b.gemmSetup(device, spec, a, bm, d, &plan_));
    }
    ~GemmPlan()
    {
        if (plan_)
            b_.gemmDestroy(plan_);
    }
    GemmPlan(const GemmPlan &) = delete;
    GemmPlan &operator=(const GemmPlan &) = delete;
    void run() const { check(b_.gemmRun(plan_)); }

private:
    Backend &b_;
    void *plan_ = nullptr;
};

class NcclGroup
{
public:
    explicit NcclGroup(Backend &b) : b_(b) {}
    ~NcclGroup()
    {
        if (group_)
            b_.ncclDestroy(group_);
    }
    NcclGroup(const NcclGroup &) = delete;
    NcclGroup &operator=(const NcclGroup &) = delete;
    void **out() { return &group_; }
    void *get() const { return group_; }

private:
    Backend &b_;
    void *group_ = nullptr;
};

struct Method {
    int warmup;
    int repetitions;
};

/// Seeds: one per buffer role, so a copy that did not happen is caught.
constexpr uint64_t kSeedA = 0x5ca1e5c0be01ULL, kSeedB = 0x5ca1e5c0be02ULL,
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

bool Runner::precisionSupported(const Gpu &g, Precision p, std::string *why) const
{
    const int cc = g.info.cc_major * 10 + g.info.cc_minor;
    const std::string gpu = gpuLabel(g.device) + " (" + g.info.name + ", compute capability " +
                            std::to_string(g.info.cc_major) + "." +
                            std::to_string(g.info.cc_minor) + ")";
    switch (p) {
    case Precision::FP32:
    case Precision::FP16:
        return true;
    case Precision::TF32:
    case Precision::BF16:
        if (cc >= 80)
            return true;
        *why = gpu + " has no " + precisionName(p) + " tensor cores (needs 8.0)";
        return false;
    case Precision::FP8:
        if (cc < 89) {
            *why = gpu + " has no fp8 tensor cores (needs 8.9)";
            return false;
        }
        if (o_.gemm_library == GemmLibrary::Cublas) {
            *why = "cublasGemmEx has no fp8; run with --gemm-library cublaslt";
            return false;
        }
        return true;
    }
    return false;
}

std::vector<int64_t> Runner::gemmSizes(const Gpu &g, Precision p) const
{
    std::vector<int64_t> sizes = o_.gemm_sizes;
    if (sizes.empty())
        sizes = o_.quick ? std::vector<int64_t>{256, 1024, 4096, 8192}
                         : std::vector<int64_t>{256, 512, 1024, 2048, 4096, 8192, 16384};
    const GemmTypes t = gemmTypes(p);
    std::vector<int64_t> fitting;
    for (int64_t s : sizes) {
        const double bytes =
            static_cast<double>(s) * s * (2.0 * dataTypeBytes(t.ab) + dataTypeBytes(t.c));
        if (bytes <= 0.5 * g.info.memory_bytes)
            fitting.push_back(s);
    }
    return fitting;
}

size_t Runner::memoryArrayBytes(const Gpu &g) const
{
    if (o_.memory_array_bytes > 0)
        return o_.memory_array_bytes / 8 * 8;
    // Several times the L2 so the arrays stream from DRAM (BabelStream uses 2^25 doubles).
    const double floor_bytes = o_.quick ? 128.0 * kMiB : 256.0 * kMiB;
    double bytes = std::max(8.0 * g.info.l2_bytes, floor_bytes);
    bytes = std::min(bytes, g.info.memory_bytes / 8);
    return static_cast<size_t>(bytes) / kMiB * kMiB;
}

size_t Runner::transferBytes() const
{
    return o_.transfer_bytes > 0 ? o_.transfer_bytes / 8 * 8 : (o_.quick ? 64 : 256) * kMiB;
}

size_t Runner::p2pBytes() const
{
    return o_.p2p_bytes > 0 ? o_.p2p_bytes / 8 * 8 : (o_.quick ? 64 : 256) * kMiB;
}

size_t Runner::collectiveMaxBytes() const
{
    size_t max_bytes =
        o_.collective_max_bytes > 0 ? o_.collective_max_bytes : (o_.quick ? 256 * kMiB : kGiB);
    for (const Gpu &g : gpus_) // send + receive buffers on each GPU
        while (max_bytes > 8 && static_cast<double>(max_bytes) > g.info.memory_bytes / 8)
            max_bytes /= 2;
    return max_bytes;
}

std::vector<size_t> Runner::collectiveSizes() const
{
    // nccl-tests -b 8 -e <max> -f 2 (quick: -f 8).
    const size_t factor = o_.quick ? 8 : 2;
    const size_t max_bytes = collectiveMaxBytes();
    std::vector<size_t> sizes;
    for (size_t s = 8; s <= max_bytes; s *= factor)
        sizes.push_back(s);
    if (sizes.empty() || sizes.back() != max_bytes)
        sizes.push_back(max_bytes);
    return sizes;
}

int Runner::thermalSamples() const
{
    return std::max(1, static_cast<int>(std::ceil(o_.thermal_s / o_.thermal_sample_s - 1e-9)));
}

constexpr CollectiveOp kCollectiveOps[] = {CollectiveOp::AllReduce, CollectiveOp::AllGather,
                                           CollectiveOp::ReduceScatter};

int Runner::planSteps() const
{
    int steps = 0;
    if (localTests()) {
        for (const Gpu &g : gpus_) {
            if (o_.has(TestId::Gemm) && cublas_)
                for (int p = 0; p < kPrecisionCount; ++p) {
                    std::string why;
                    if (precisionSupported(g, Precision(p), &why))
                        steps += static_cast<int>(gemmSizes(g, Precision(p)).size());
                }
            steps += o_.has(TestId::Memory) + o_.has(TestId::Transfer) + o_.has(TestId::Launch);
        }
        const int n = static_cast<int>(gpus_.size());
        if (o_.has(TestId::P2P))
            steps += n * (n - 1);
    }
    if (o_.has(TestId::Nccl) && (multiRank() || gpus_.size() > 1))
        steps += 3 * static_cast<int>(collectiveSizes().size());
    if (o_.has(TestId::Thermal) && localTests())
        steps += thermalSamples();
    return steps;
}

double Runner::timeMedian(int device, const std::function<void()> &enqueue)
{
    Event start(b_, device), end(b_, device);
    for (int i = 0; i < method_.warmup; ++i)
        enqueue();
    check(b_.synchronize(device));
    std::vector<double> times;
    for (int r = 0; r < method_.repetitions; ++r) {
        check(b_.eventRecord(device, start.get()));
        enqueue();
        check(b_.eventRecord(device, end.get()));
        double t = 0;
        check(b_.eventElapsed(start.get(), end.get(), &t));
        times.push_back(t);
    }
    return median(times);
}

double Runner::timeMedianPerCall(int device, const std::function<void()> &once, double batch_s)
{
    // Short operations are timed in batches of back-to-back calls long enough for the
    // events' resolution (about 0.5 us), as nccl-tests and nvbandwidth do.
    Event start(b_, device), end(b_, device);
    once(); // warm-up and estimate
    check(b_.eventRecord(device, start.get()));
    once();
    check(b_.eventRecord(device, end.get()));
    double one = 0;
    check(b_.eventElapsed(start.get(), end.get(), &one));
    const int batch =
        static_cast<int>(std::clamp(std::ceil(batch_s / std::max(one, 1e-7)), 1.0, 1000.0));
    const double per_batch = timeMedian(device, [&] {
        for (int i = 0; i < batch; ++i)
            once();
    });
    return per_batch / batch;
}

bool Runner::openGpus()
{
    RuntimeInfo rt;
    const CallStatus init = b_.init(&rt);
    if (!init.ok()) {
        r_.no_gpu_reason = init.call == "build" ? init.message : init.call + ": " + init.message;
        return false;
    }
    r_.profile.cuda_runtime = rt.runtime_version;
    r_.profile.driver = rt.driver_version;
    if (rt.device_count <= 0) {
        r_.no_gpu_reason = "no CUDA device found";
        return false;
    }
    std::vector<int> devices = o_.devices;
    if (devices.empty())
        for (int d = 0; d < rt.device_count; ++d)
            devices.push_back(d);
    for (int d : devices)
        if (d < 0 || d >= rt.device_count) {
            r_.argument_error = "--devices: GPU " + std::to_string(d) +
                                " does not exist; allowed: 0 to " +
                                std::to_string(rt.device_count - 1);
            return false;
        }
    if (multiRank()) // one GPU per MPI rank, chosen by the rank within its node
        devices = {devices[static_cast<size_t>(cluster_.localRank()) % devices.size()]};

    std::string first_error;
    for (int d : devices) {
        Gpu g{d, {}, 0};
        CallStatus s = b_.deviceInfo(d, &g.info);
        if (s.ok())
            s = b_.openDevice(d);
        if (!s.ok()) {
            b_.closeDevice(d); // what openDevice made before it failed (stream, counter)
            failCall("gpu", gpuLabel(d), s);
            if (first_error.empty())
                first_error = gpuLabel(d) + ": " + s.call + ": " + s.message;
            continue;
        }
        g.profile_index = r_.profile.gpus.size();
        ProfileGpu pg;
        pg.index = d;
        pg.name = g.info.name.empty() ? "unnamed GPU" : g.info.name;
        pg.uuid = g.info.uuid;
        pg.pci_bus_id = g.info.pci_bus_id;
        pg.compute_capability =
            std::to_string(g.info.cc_major) + "." + std::to_string(g.info.cc_minor);
        pg.sm_count = std::max(0, g.info.sm_count);
        pg.memory_bytes = g.info.memory_bytes;
        r_.profile.gpus.push_back(pg);
        gpus_.push_back(g);
    }
    if (gpus_.empty()) {
        r_.no_gpu_reason = "no usable CUDA device: " + first_error;
        return false;
    }
    return true;
}

void Runner::runGemm(const Gpu &g)
{
    const int d = g.device;
    for (int pi = 0; pi < kPrecisionCount; ++pi) {
        const Precision p = Precision(pi);
        const std::string test = gemmTestName(p);
        std::string why;
        if (!precisionSupported(g, p, &why)) {
            skip(test, why);
            continue;
        }
        const GemmTypes types = gemmTypes(p);
        for (int64_t s : gemmSizes(g, p)) {
            const std::string shape =
                std::to_string(s) + "x" + std::to_string(s) + "x" + std::to_string(s);
            const std::string where = gpuLabel(d) + " " + shape;
            try {
                const GemmSpec spec{p, s, s, s, o_.gemm_library};
                const size_t elements = static_cast<size_t>(s) * static_cast<size_t>(s);
                DeviceBuffer a(b_, d, elements * dataTypeBytes(types.ab));
                DeviceBuffer bm(b_, d, elements * dataTypeBytes(types.ab));
                DeviceBuffer c(b_, d, elements * dataTypeBytes(types.c));
                check(b_.fillRandom(d, a.get(), types.ab, elements,
                                    kSeedA + static_cast<uint64_t>(s)));
                check(b_.fillRandom(d, bm.get(), types.ab, elements,
                                    kSeedB + static_cast<uint64_t>(s)));
                check(b_.fillRandom(d, c.get(), types.c, elements, kSeedC));
                GemmPlan plan(b_, d, spec, a.get(), bm.get(), c.get());
                const double t = timeMedianPerCall(
                    d, [&] { plan.run(); }, o_.min_batch_s);
                check(b_.synchronize(d));
                // Tolerances relative to sum |a b| (the dot product's error scale): input
                // rounding (tf32: 2^-11) and output rounding (bf16: 2^-8, fp16: 2^-11),
                // with room for fp32 accumulation over k terms.
                static const double kTolerance[] = {1e-4, 4e-3, 4e-3, 2e-2, 4e-2};
                double max_error = 0;
                check(b_.gemmCheck(d, spec, a.get(), bm.get(), c.get(), 256, kSeedD, &max_error));
                if (!(max_error <= kTolerance[pi])) {
                    fail(test, where + ": result check failed (max relative error " +
                                   fmt(max_error, 4) + " > " + fmt(kTolerance[pi], 4) +
                                   "); figure not written");
                    step(test, where + ": check failed");
                    continue;
                }
                const double tflops = 2.0 * static_cast<double>(s) * s * s / t / 1e12;
                profileOf(g).gemm_tflops[static_cast<size_t>(pi)].push_back(
                    {static_cast<double>(s), static_cast<double>(s), static_cast<double>(s),
                     tflops});
                step(test, where + ": " + fmt(tflops) + " TFLOP/s");
            } catch (const CallFailure &f) {
                failCall(test, where, f.status);
                step(test, where + ": failed");
            }
        }
    }
}

void Runner::runMemory(const Gpu &g)
{
    const int d = g.device;
    const std::string test = "memory";
    const size_t bytes = memoryArrayBytes(g);
    const size_t n = bytes / sizeof(double);
    const std::string where = gpuLabel(d) + " " + std::to_string(bytes / kMiB) + " MiB arrays";
    try {
        DeviceBuffer a(b_, d, bytes), bb(b_, d, bytes), c(b_, d, bytes);
        check(b_.fillRandom(d, a.get(), DataType::F64, n, kSeedA));
        check(b_.fillRandom(d, bb.get(), DataType::F64, n, kSeedB));
        check(b_.fillRandom(d, c.get(), DataType::F64, n, kSeedC));
        // BabelStream: copy c = a, then triad a = b + scalar * c (startScalar 0.4).
        const double t_copy =
            timeMedian(d, [&] { check(b_.copyKernel(d, c.as<double>(), a.as<double>(), n)); });
        uint64_t wrong = 0;
        check(b_.verifyRandom(d, c.get(), n, kSeedA, &wrong));
        if (wrong != 0) {
            fail(test, where + ": copy check failed (" + std::to_string(wrong) +
                           " wrong elements); figure not written");
            step(test, where + ": check failed");
            return;
        }
        constexpr double kScalar = 0.4;
        const double t_triad = timeMedian(d, [&] {
            check(b_.triadKernel(d, a.as<double>(), bb.as<double>(), c.as<double>(), kScalar, n));
        });
        check(
            b_.verifyTriad(d, a.as<double>(), bb.as<double>(), c.as<double>(), kScalar, n, &wrong));
        if (wrong != 0) {
            fail(test, where + ": triad check failed (" + std::to_string(wrong) +
                           " wrong elements); figure not written");
            step(test, where + ": check failed");
            return;
        }
        // Bytes read plus bytes written (BabelStream): copy moves 2 arrays, triad 3.
        const double copy_gbps = 2.0 * bytes / t_copy / 1e9;
        const double triad_gbps = 3.0 * bytes / t_triad / 1e9;
        profileOf(g).memory_bandwidth_gbps = std::max(copy_gbps, triad_gbps);
        r_.details.memory.push_back({d, static_cast<double>(bytes), copy_gbps, triad_gbps});
        step(test,
             where + ": copy " + fmt(copy_gbps) + " GB/s, triad " + fmt(triad_gbps) + " GB/s");
    } catch (const CallFailure &f) {
        failCall(test, where, f.status);
        step(test, where + ": failed");
    }
}

void Runner::runTransfer(const Gpu &g)
{
    const int d = g.device;
    const size_t bytes = transferBytes();
    const size_t n = bytes / sizeof(double);
    std::string summary;
    for (bool pinned : {true, false}) {
        const char *kind = pinned ? "pinned" : "pageable";
        ProfileGpu &pg = profileOf(g);
        for (bool to_device : {true, false}) {
            const std::string test = to_device ? "h2d" : "d2h";
            const std::string where =
                gpuLabel(d) + " " + kind + " " + std::to_string(bytes / kMiB) + " MiB";
            try {
                HostBuffer host(b_, bytes, pinned);
                DeviceBuffer dev(b_, d, bytes);
                double *h = host.as<double>();
                uint64_t wrong = 0;
                if (to_device) {
                    for (size_t i = 0; i < n; ++i)
                        h[i] = randomValue(kSeedA, i);
                    check(b_.fillRandom(d, dev.get(), DataType::F64, n, kSeedB));
                } else {
                    std::memset(h, 0, bytes);
                    check(b_.fillRandom(d, dev.get(), DataType::F64, n, kSeedC));
                }
                const double t = timeMedian(d, [&] {
                    check(to_device
                              ? b_.memcpyAsync(d, dev.get(), h, bytes, CopyKind::HostToDevice)
                              : b_.memcpyAsync(d, h, dev.get(), bytes, CopyKind::DeviceToHost));
                });
                check(b_.synchronize(d));
                if (to_device) {
                    check(b_.verifyRandom(d, dev.get(), n, kSeedA, &wrong));
                } else {
                    for (size_t i = 0; i < n; ++i)
                        wrong += h[i] != randomValue(kSeedC, i);
                }
                if (wrong != 0) {
                    fail(test, where + ": copy check failed (" + std::to_string(wrong) +
                                   " wrong elements); figure not written");
                    continue;
                }
                const double gbps = bytes / t / 1e9;
                (to_device ? (pinned ? pg.h2d_pinned_gbps : pg.h2d_pageable_gbps)
                           : (pinned ? pg.d2h_pinned_gbps : pg.d2h_pageable_gbps)) = gbps;
                summary +=
                    (summary.empty() ? "" : ", ") + test + " " + kind + " " + fmt(gbps) + " GB/s";
            } catch (const CallFailure &f) {
                failCall(test, where, f.status);
            }
        }
    }
    step("transfer", gpuLabel(d) + ": " + (summary.empty() ? std::string("failed") : summary));
}

void Runner::runLaunch(const Gpu &g)
{
    const int d = g.device;
    const std::string test = "launch";
    const std::string where = gpuLabel(d);
    try {
        DeviceBuffer counter(b_, d, sizeof(unsigned));
        unsigned zero = 0;
        check(b_.memcpyAsync(d, counter.get(), &zero, sizeof zero, CopyKind::HostToDevice));
        check(b_.synchronize(d));
        // Back-to-back empty kernels on one stream: the per-kernel cost a training step
        // pays between dependent kernels.
        const int launches = std::max(1, o_.launch_kernels);
        const double t = timeMedian(d, [&] {
            for (int i = 0; i < launches; ++i)
                check(b_.emptyKernel(d, counter.as<unsigned>()));
        });
        unsigned counted = 0;
        check(b_.memcpyAsync(d, &counted, counter.get(), sizeof counted, CopyKind::DeviceToHost));
        check(b_.synchronize(d));
        const unsigned expected =
            static_cast<unsigned>((method_.warmup + method_.repetitions) * launches);
        if (counted != expected) {
            fail(test, where + ": launch check failed (" + std::to_string(counted) + " of " +
                           std::to_string(expected) + " kernels ran); figure not written");
            step(test, where + ": check failed");
            return;
        }
        profileOf(g).launch_overhead_us = t / launches * 1e6;
        step(test, where + ": " + fmt(t / launches * 1e6, 2) + " us per kernel");
    } catch (const CallFailure &f) {
        failCall(test, where, f.status);
        step(test, where + ": failed");
    }
}

void Runner::measurePair(const Gpu &src, const Gpu &dst)
{
    const std::string test = "p2p";
    const std::string where = gpuLabel(src.device) + " -> " + gpuLabel(dst.device);
    const size_t bytes = p2pBytes();
    const size_t n = bytes / sizeof(double);
    bool can = false;
    bool enabled = false;
    try {
        check(b_.canAccessPeer(src.device, dst.device, &can));
        DeviceBuffer from(b_, src.device, bytes), to(b_, dst.device, bytes);
        check(b_.fillRandom(src.device, from.get(), DataType::F64, n, kSeedA));

        // Bandwidth of one large copy and latency of small ones (CUDA samples'
        // p2pBandwidthLatencyTest), with peer access on (when possible) and off.
        struct Figures {
            double bandwidth_gbps = 0, latency_us = 0;
            bool ok = false;
        };
        const auto measure = [&](uint64_t scratch_seed) {
            Figures f;
            check(b_.fillRandom(dst.device, to.get(), DataType::F64, n, scratch_seed));
            // The fill runs on dst's stream, the copies on src's: cudaMemcpyPeerAsync is not
            // ordered with other devices' streams, so the fill must be done before they start.
            check(b_.synchronize(dst.device));
            const double t = timeMedian(src.device, [&] {
                check(b_.memcpyPeerAsync(dst.device, to.get(), src.device, from.get(), bytes));
            });
            check(b_.synchronize(src.device));
            uint64_t wrong = 0;
            check(b_.verifyRandom(dst.device, to.get(), n, kSeedA, &wrong));
            if (wrong != 0) {
                fail(test, where + ": copy check failed (" + std::to_string(wrong) +
                               " wrong elements); figure not written");
                return f;
            }
            const int small_copies = std::max(1, o_.p2p_small_copies);
            const double t_small = timeMedian(src.device, [&] {
                for (int i = 0; i < small_copies; ++i)
                    check(b_.memcpyPeerAsync(dst.device, to.get(), src.device, from.get(),
                                             sizeof(double)));
            });
            check(b_.synchronize(src.device));
            f.bandwidth_gbps = bytes / t / 1e9;
            f.latency_us = t_small / small_copies * 1e6;
            f.ok = true;
            return f;
        };

        ProfileP2P entry;
        entry.src = src.device;
        entry.dst = dst.device;
        entry.access = can;
        Figures on;
        if (can) {
            check(b_.setPeerAccess(src.device, dst.device, true));
            enabled = true;
            check(b_.setPeerAccess(dst.device, src.device, true));
            on = measure(kSeedB);
            check(b_.setPeerAccess(src.device, dst.device, false));
            check(b_.setPeerAccess(dst.device, src.device, false));
            enabled = false;
        }
        const Figures off = measure(kSeedC);
        if (off.ok)
            r_.details.p2p_peer_access_off.push_back(
                {src.device, dst.device, off.bandwidth_gbps, off.latency_us});
        const Figures &best = can ? on : off;
        if (best.ok) {
            entry.bandwidth_gbps = best.bandwidth_gbps;
            entry.latency_us = best.latency_us;
        }
        r_.profile.p2p.push_back(entry);
        std::string message = where + (can ? ": peer access" : ": no peer access");
        if (can && on.ok)
            message += ", on " + fmt(on.bandwidth_gbps) + " GB/s " + fmt(on.latency_us, 2) + " us";
        if (off.ok)
            message +=
                ", off " + fmt(off.bandwidth_gbps) + " GB/s " + fmt(off.latency_us, 2) + " us";
        step(test, message);
    } catch (const CallFailure &f) {
        if (enabled) { // leave the devices as found
            b_.setPeerAccess(src.device, dst.device, false);
            b_.setPeerAccess(dst.device, src.device, false);
        }
        failCall(test, where, f.status);
        step(test, where + ": failed");
    }
}

void Runner::runP2P()
{
    if (gpus_.size() < 2) {
        skip("p2p", "one GPU only");
        return;
    }
    const int end = done_ + static_cast<int>(gpus_.size() * (gpus_.size() - 1));
    for (const Gpu &src : gpus_)
        for (const Gpu &dst : gpus_)
            if (src.device != dst.device)
                measurePair(src, dst);
    finishTest(end, "p2p");
}

void Runner::runCollectives(NcclGroup &group, const std::vector<int> &devices, int nranks,
                            int first_rank)
{
    const size_t max_bytes = collectiveMaxBytes();
    const size_t max_count = max_bytes / sizeof(float);
    std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
    std::vector<const float *> send_ptrs;
    std::vector<float *> recv_ptrs;
    for (size_t i = 0; i < devices.size(); ++i) {
        send.push_back(std::make_unique<DeviceBuffer>(b_, devices[i], max_bytes));
        recv.push_back(std::make_unique<DeviceBuffer>(b_, devices[i], max_bytes));
        send_ptrs.push_back(send.back()->as<float>());
        recv_ptrs.push_back(recv.back()->as<float>());
        // Each rank's data depends only on (rank, index): fill once for every size.
        check(b_.fillRanked(devices[i], send.back()->as<float>(), max_count, kSeedD,
                            first_rank + static_cast<int>(i)));
    }
    std::vector<std::unique_ptr<Event>> starts, ends;
    for (int d : devices) {
        starts.push_back(std::make_unique<Event>(b_, d));
        ends.push_back(std::make_unique<Event>(b_, d));
    }
    const int nodes = cluster_.nodes();

    for (CollectiveOp op : kCollectiveOps) {
        const std::string test = std::string("nccl.") + collectiveOpName(op);
        double previous_bytes = 0;
        for (size_t target : collectiveSizes()) {
            // nccl-tests' sizes: all_reduce moves `count` elements; all_gather and
            // reduce_scatter report the larger side, n * count.
            const bool per_rank = op != CollectiveOp::AllReduce;
            const size_t count = std::max<size_t>(
                1, target / sizeof(float) / (per_rank ? static_cast<size_t>(nranks) : 1));
            const size_t elements = count * (per_rank ? static_cast<size_t>(nranks) : 1);
            const double bytes = static_cast<double>(elements * sizeof(float));
            const std::string where = std::to_string(static_cast<long long>(bytes)) + " bytes";
            if (elements > max_count || bytes == previous_bytes) {
                // Sizes below n x 4 bytes round up to the same one (as in nccl-tests).
                step(test,
                     where + (bytes == previous_bytes ? ": measured already" : ": does not fit"));
                continue;
            }
            previous_bytes = bytes;
            try {
                const size_t recv_count = op == CollectiveOp::ReduceScatter ? count : elements;
                for (size_t i = 0; i < devices.size(); ++i) // not a possible result
                    check(
                        b_.fillRandom(devices[i], recv_ptrs[i], DataType::F32, recv_count, kSeedA));
                const auto run = [&] {
                    check(b_.ncclRun(group.get(), op, send_ptrs, recv_ptrs, count));
                };
                const int batch = bytes <= 1048576 && o_.min_batch_s > 0 ? 10 : 1;
                const std::string what = std::string(collectiveOpName(op)) + " of " +
                                         sizeText(bytes) + " on " + std::to_string(nranks) +
                                         " GPUs";
                for (int i = 0; i < method_.warmup; ++i)
                    run();
                // Never block on a collective: a hang would stop the whole run.
                waitCollective(group, what);
                std::vector<double> times;
                for (int r = 0; r < method_.repetitions; ++r) {
                    for (size_t i = 0; i < devices.size(); ++i)
                        check(b_.eventRecord(devices[i], starts[i]->get()));
                    for (int k = 0; k < batch; ++k)
                        run();
                    double slowest = 0;
                    for (size_t i = 0; i < devices.size(); ++i)
                        check(b_.eventRecord(devices[i], ends[i]->get()));
                    waitCollective(group, what); // the end events below are then complete
                    for (size_t i = 0; i < devices.size(); ++i) {
                        double t = 0;
                        check(b_.eventElapsed(starts[i]->get(), ends[i]->get(), &t));
                        slowest = std::max(slowest, t);
                    }
                    // A collective ends when its slowest rank does.
                    times.push_back(cluster_.maxOverRanks(slowest) / batch);
                }
                double wrong = 0;
                for (size_t i = 0; i < devices.size(); ++i) {
                    uint64_t w = 0;
                    const CollectiveCheck c{op, count, nranks, first_rank + static_cast<int>(i),
                                            kSeedD};
                    check(b_.verifyCollective(devices[i], recv_ptrs[i], c, &w));
                    wrong += static_cast<double>(w);
                }
                wrong = cluster_.sumOverRanks(wrong);
                if (wrong != 0) {
                    fail(test, where + ": result check failed (" + fmt(wrong, 0) +
                                   " wrong elements); figure not written");
                    step(test, where + ": check failed");
                    continue;
                }
                ProfileCollective c;
                c.op = collectiveOpName(op);
                c.gpus = nranks;
                c.nodes = std::min(nodes, nranks);
                c.bytes = bytes;
                c.time_s = median(times);
                c.algbw_gbps = bytes / c.time_s / 1e9;
                c.busbw_gbps = c.algbw_gbps * busBandwidthFactor(op, nranks);
                r_.profile.collectives.push_back(c);
                step(test, where + ": " + fmt(c.time_s * 1e6, 1) + " us, busbw " +
                               fmt(c.busbw_gbps, 2) + " GB/s");
            } catch (const CallFailure &f) {
                failCall(test, where, f.status);
                step(test, where + ": failed");
            } catch (const CollectiveAborted &t) {
                // The communicators are gone: no further collective can run. runNccl
                // counts the remaining steps; the other tests go on.
                fail(test, t.message);
                step(test, where + ": hung, aborted");
                return;
            }
        }
    }
}

void Runner::waitCollective(NcclGroup &group, const std::string &what)
{
    using Clock = std::chrono::steady_clock;
    const auto deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(o_.collective_timeout_s));
    auto pause = std::chrono::microseconds(20);
    const auto abort = [&](const std::string &why) {
        const CallStatus aborted = b_.ncclAbort(group.get());
        throw CollectiveAborted{
            what + " " + why + "; " +
            (aborted.ok() ? std::string("NCCL communicator aborted (ncclCommAbort)")
                          : "aborting the NCCL communicator failed too: " + aborted.call + ": " +
                                aborted.message)};
    };
    for (;;) {
        bool done = false;
        const CallStatus s = b_.ncclQuery(group.get(), &done);
        // NCCL's advice after an asynchronous error: abort the communicator.
        if (!s.ok() && s.call == "ncclCommGetAsyncError")
            abort("failed: " + s.call + ": " + s.message);
        check(s);
        if (done)
            return;
        if (Clock::now() >= deadline) {
            char limit[32];
            std::snprintf(limit, sizeof limit, "%g", o_.collective_timeout_s);
            abort(std::string("did not complete within ") + limit + " s");
        }
        // Short at first (a collective of a few bytes takes microseconds), then 10 ms.
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(10000));
    }
}

void Runner::runNccl()
{
    if (!multiRank() && gpus_.size() < 2) {
        skip("nccl", "one GPU only");
        return;
    }
    const int end = done_ + 3 * static_cast<int>(collectiveSizes().size());
    std::string version;
    const CallStatus loaded = b_.ncclLoad(&version);
    // Every rank must agree before any of them enters a collective call.
    if (cluster_.sumOverRanks(loaded.ok() ? 0 : 1) != 0) {
        skip("nccl",
             loaded.ok() ? "NCCL is missing on another rank" : loaded.call + ": " + loaded.message);
        finishTest(end, "nccl");
        return;
    }
    r_.profile.nccl = version;
    try {
        NcclGroup group(b_);
        std::vector<int> devices;
        for (const Gpu &g : gpus_)
            devices.push_back(g.device);
        if (multiRank()) {
            NcclId id{};
            CallStatus s = CallStatus::success();
            if (cluster_.rank() == 0)
                s = b_.ncclGetUniqueId(&id);
            cluster_.broadcast(id.data(), id.size());
            if (cluster_.sumOverRanks(s.ok() ? 0 : 1) != 0)
                check(s.ok() ? CallStatus::failure("ncclGetUniqueId", "failed on rank 0") : s);
            check(b_.ncclInitRank(devices.front(), cluster_.size(), cluster_.rank(), id,
                                  group.out()));
            runCollectives(group, devices, cluster_.size(), cluster_.rank());
        } else {
            check(b_.ncclInitAll(devices, group.out()));
            runCollectives(group, devices, static_cast<int>(devices.size()), 0);
        }
    } catch (const CallFailure &f) {
        failCall("nccl", gpuLabel(gpus_.front().device), f.status);
    }
    finishTest(end, "nccl");
}

void Runner::runThermal()
{
    const std::string test = "thermal";
    const int samples = thermalSamples();
    const int end = done_ + samples;
    if (!nvml_) {
        skip(test, "NVML unavailable: " + nvml_error_);
        finishTest(end, test);
        return;
    }
    if (!cublas_) {
        skip(test, "no GEMM load: " + cublas_error_);
        finishTest(end, test);
        return;
    }
    // One sustained GEMM load per GPU: bf16 (fp32 where there is none), the largest
    // quick/standard shape that fits.
    struct Load {
        const Gpu *gpu;
        void *nvml = nullptr;
        GemmSpec spec;
        std::unique_ptr<DeviceBuffer> a, b, d;
        std::unique_ptr<GemmPlan> plan;
        // Two batches in flight at most: events around each, and its GEMM count (0 = none).
        std::unique_ptr<Event> start[2], stop[2];
        int batch[2] = {0, 0};
        double gemm_s = 0;
        bool sampling = true;
        std::vector<ProfileThermalSample> samples;
    };
    std::vector<Load> loads;
    for (const Gpu &g : gpus_) {
        Load load;
        load.gpu = &g;
        std::string why;
        const Precision p =
            precisionSupported(g, Precision::BF16, &why) ? Precision::BF16 : Precision::FP32;
        const std::vector<int64_t> sizes = gemmSizes(g, p);
        const int64_t s =
            sizes.empty() ? 1024 : std::min<int64_t>(sizes.back(), o_.quick ? 4096 : 8192);
        load.spec = GemmSpec{p, s, s, s, o_.gemm_library};
        const GemmTypes types = gemmTypes(p);
        const size_t elements = static_cast<size_t>(s) * static_cast<size_t>(s);
        try {
            check(b_.nvmlDeviceHandle(g.info.pci_bus_id, &load.nvml));
            load.a =
                std::make_unique<DeviceBuffer>(b_, g.device, elements * dataTypeBytes(types.ab));
            load.b =
                std::make_unique<DeviceBuffer>(b_, g.device, elements * dataTypeBytes(types.ab));
            load.d =
                std::make_unique<DeviceBuffer>(b_, g.device, elements * dataTypeBytes(types.c));
            check(b_.fillRandom(g.device, load.a->get(), types.ab, elements, kSeedA));
            check(b_.fillRandom(g.device, load.b->get(), types.ab, elements, kSeedB));
            load.plan = std::make_unique<GemmPlan>(b_, g.device, load.spec, load.a->get(),
                                                   load.b->get(), load.d->get());
            for (int slot = 0; slot < 2; ++slot) {
                load.start[slot] = std::make_unique<Event>(b_, g.device);
                load.stop[slot] = std::make_unique<Event>(b_, g.device);
            }
            load.plan->run();
            check(b_.eventRecord(g.device, load.start[0]->get()));
            load.plan->run();
            check(b_.eventRecord(g.device, load.stop[0]->get()));
            check(b_.eventElapsed(load.start[0]->get(), load.stop[0]->get(), &load.gemm_s));
            loads.push_back(std::move(load));
        } catch (const CallFailure &f) {
            failCall(test, gpuLabel(g.device), f.status);
        }
    }
    if (loads.empty()) {
        finishTest(end, test);
        return;
    }

    // Each GPU's queue holds one to two sampling intervals of GEMMs: batch i + 1 is queued
    // before batch i is waited for, so the GPU never runs dry between samples. Each batch is
    // sized from the measured time of the last one (clocks drop as the GPU heats up). NVML
    // is read on a fixed wall-clock schedule, every `interval` seconds from t0.
    const double interval = o_.thermal_sample_s;
    const auto stopLoad = [&](Load &load, const CallStatus &s) {
        failCall(test, gpuLabel(load.gpu->device), s);
        b_.synchronize(load.gpu->device); // nothing of the plan's still queued when it goes
        load.plan.reset();
    };
    const auto enqueue = [&](Load &load, int slot) {
        if (!load.plan)
            return;
        const int batch = static_cast<int>(
            std::clamp(std::ceil(interval / std::max(load.gemm_s, 1e-6)), 1.0, 100000.0));
        try {
            check(b_.eventRecord(load.gpu->device, load.start[slot]->get()));
            for (int k = 0; k < batch; ++k)
                load.plan->run();
            check(b_.eventRecord(load.gpu->device, load.stop[slot]->get()));
            load.batch[slot] = batch;
        } catch (const CallFailure &f) {
            stopLoad(load, f.status);
        }
    };
    const auto wait = [&](Load &load, int slot) {
        if (!load.plan || load.batch[slot] == 0)
            return;
        try {
            double t = 0;
            check(b_.eventElapsed(load.start[slot]->get(), load.stop[slot]->get(), &t));
            if (t > 0)
                load.gemm_s = t / load.batch[slot];
            load.batch[slot] = 0;
        } catch (const CallFailure &f) {
            stopLoad(load, f.status);
        }
    };
    const auto t0 = std::chrono::steady_clock::now();
    for (Load &load : loads)
        enqueue(load, 0);
    for (int i = 0; i < samples; ++i) {
        for (Load &load : loads)
            enqueue(load, (i + 1) % 2);
        std::this_thread::sleep_until(t0 + std::chrono::duration<double>((i + 1) * interval));
        const double t_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::string message = "t " + fmt(t_s, 1) + " s";
        for (Load &load : loads) {
            if (!load.sampling)
                continue;
            try {
                unsigned mhz = 0, celsius = 0, milliwatts = 0;
                unsigned long long reasons = 0;
                check(b_.nvmlSmClock(load.nvml, &mhz));
                check(b_.nvmlTemperature(load.nvml, &celsius));
                check(b_.nvmlPower(load.nvml, &milliwatts));
                check(b_.nvmlThrottleReasons(load.nvml, &reasons));
                load.samples.push_back({t_s, static_cast<double>(mhz), static_cast<double>(celsius),
                                        milliwatts / 1000.0, throttleReasonNames(reasons)});
                message += ", " + gpuLabel(load.gpu->device) + " " + std::to_string(mhz) + " MHz " +
                           std::to_string(celsius) + " C " + fmt(milliwatts / 1000.0, 0) + " W";
            } catch (const CallFailure &f) {
                failCall(test, gpuLabel(load.gpu->device), f.status);
                load.sampling = false;
            }
        }
        for (Load &load : loads)
            wait(load, i % 2);
        step(test, message);
    }
    const double duration =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (Load &load : loads) { // the last batch queued
        if (!load.plan)
            continue;
        const CallStatus s = b_.synchronize(load.gpu->device);
        if (!s.ok())
            stopLoad(load, s);
    }
    for (Load &load : loads) {
        const int d = load.gpu->device;
        // The load must have computed correct results for the samples to describe real work.
        try {
            if (!load.plan)
                continue;
            double max_error = 0;
            check(b_.gemmCheck(d, load.spec, load.a->get(), load.b->get(), load.d->get(), 64,
                               kSeedD, &max_error));
            if (!(max_error <= 4e-2)) {
                fail(test, gpuLabel(d) + ": GEMM load result check failed (max relative error " +
                               fmt(max_error, 4) + "); samples not written");
                continue;
            }
        } catch (const CallFailure &f) {
            failCall(test, gpuLabel(d), f.status);
            continue;
        }
        if (load.samples.empty())
            continue;
        ProfileGpu &pg = profileOf(*load.gpu);
        pg.thermal_duration_s = std::max(duration, 1e-3);
        pg.thermal_samples = std::move(load.samples);
    }
    finishTest(end, test);
}

ProbeResult Runner::run()
{
    CalibrationProfile &p = r_.profile;
    p.created = isoNow();
    p.tool = o_.tool;
    p.hostname = localHostname();
    p.cpu = localCpuName();
    p.nodes = std::max(1, cluster_.nodes());
    r_.details.warmup = method_.warmup;
    r_.details.repetitions = method_.repetitions;
    r_.details.gemm_library = gemmLibraryName(o_.gemm_library);
    r_.secondary_rank = cluster_.rank() != 0;

    if (!openGpus()) {
        p.gpus_per_node = static_cast<int>(gpus_.size());
        if (!r_.no_gpu_reason.empty()) // the program prints the reason once, itself
            r_.profile.skipped.push_back({"gpu", r_.no_gpu_reason});
        return std::move(r_);
    }
    // Under MPI each rank drives one GPU: the node holds as many as it has ranks.
    p.gpus_per_node =
        multiRank() ? (cluster_.size() + p.nodes - 1) / p.nodes : static_cast<int>(gpus_.size());

    std::string driver;
    const CallStatus nvml = b_.nvmlLoad(&driver);
    nvml_ = nvml.ok();
    if (nvml_)
        p.driver = driver;
    else
        nvml_error_ = nvml.call + ": " + nvml.message;
    // cuBLAS and cuBLASLt are loaded at run time: without them the GEMM tests are skipped
    // (once per precision) and the thermal test has no load; everything else runs.
    if (localTests() && (o_.has(TestId::Gemm) || o_.has(TestId::Thermal))) {
        const CallStatus blas = b_.cublasLoad(&r_.details.cublas_libraries);
        cublas_ = blas.ok();
        if (!cublas_)
            cublas_error_ = "cuBLAS unavailable: " + blas.call + ": " + blas.message;
    }

    total_ = planSteps();
    if (listener_)
        listener_->progress(0, total_, "start",
                            std::to_string(gpus_.size()) + " GPU(s), " + b_.name() + " backend");
    if (localTests()) {
        if (o_.has(TestId::Gemm) && !cublas_)
            for (int pi = 0; pi < kPrecisionCount; ++pi)
                skip(gemmTestName(Precision(pi)), cublas_error_);
        for (const Gpu &g : gpus_) {
            if (o_.has(TestId::Gemm) && cublas_)
                runGemm(g);
            if (o_.has(TestId::Memory))
                runMemory(g);
            if (o_.has(TestId::Transfer))
                runTransfer(g);
            if (o_.has(TestId::Launch))
                runLaunch(g);
        }
        if (o_.has(TestId::P2P))
            runP2P();
    }
    if (o_.has(TestId::Nccl))
        runNccl();
    if (o_.has(TestId::Thermal) && localTests())
        runThermal();
    if (nvml_)
        b_.nvmlUnload();
    for (const Gpu &g : gpus_)
        b_.closeDevice(g.device);
    return std::move(r_);
}

} // namespace

ProbeResult runProbe(Backend &backend, Cluster &cluster, const ProbeOptions &options,
                     ProbeListener *listener)
{
    Runner runner(backend, cluster, options, listener);
    return runner.run();
}

QByteArray writeProbeProfile(const ProbeResult &result)
{
    QByteArray doc = writeProfile(result.profile);
    const ProbeDetails &d = result.details;
    QJsonObject x;
    x.insert(QStringLiteral("bandwidth_convention"),
             QStringLiteral("memory_bandwidth_gbps counts bytes read plus bytes written "
                            "(BabelStream): the better of copy (2 arrays) and triad (3 arrays); "
                            "h2d, d2h and p2p count the bytes copied once"));
    x.insert(QStringLiteral("method"),
             QStringLiteral("median of %1 timed repetitions after %2 warm-up runs, CUDA events; "
                            "random data; every figure checked (copies compared, GEMMs against a "
                            "double-precision reference on 256 sampled entries, collectives "
                            "against known sums)")
                 .arg(d.repetitions)
                 .arg(d.warmup));
    const std::string library = d.cublas_libraries.empty()
                                    ? d.gemm_library
                                    : d.gemm_library + " (" + d.cublas_libraries + ")";
    x.insert(QStringLiteral("gemm"),
             QStringLiteral("%1, C = op(A) B with A transposed (TN), fp32 accumulation; fp8 is "
                            "E4M3 inputs with a bf16 result")
                 .arg(QString::fromStdString(library)));
    x.insert(QStringLiteral("launch_overhead"),
             QStringLiteral("back-to-back empty kernels on one stream, per kernel"));
    x.insert(QStringLiteral("p2p"),
             QStringLiteral("one cudaMemcpyPeerAsync of the buffer (bandwidth) and of 8 bytes "
                            "(latency); with peer access on where possible, access = "
                            "cudaDeviceCanAccessPeer; p2p_peer_access_off holds the staged "
                            "figures with peer access off"));
    QJsonArray memory;
    for (const ProbeDetails::Memory &m : d.memory)
        memory.append(QJsonObject{{QStringLiteral("gpu"), m.gpu},
                                  {QStringLiteral("array_bytes"), m.array_bytes},
                                  {QStringLiteral("copy_gbps"), m.copy_gbps},
                                  {QStringLiteral("triad_gbps"), m.triad_gbps}});
    x.insert(QStringLiteral("memory"), memory);
    QJsonArray off;
    for (const ProbeDetails::PeerOff &o : d.p2p_peer_access_off)
        off.append(QJsonObject{{QStringLiteral("src"), o.src},
                               {QStringLiteral("dst"), o.dst},
                               {QStringLiteral("bandwidth_gbps"), o.bandwidth_gbps},
                               {QStringLiteral("latency_us"), o.latency_us}});
    x.insert(QStringLiteral("p2p_peer_access_off"), off);

    // The model's writer has no place for extension keys: add "x-gpuprobe" as the last
    // member of the top-level object ("x-..." keys are allowed by spec/profile.md).
    QByteArray extra = QJsonDocument(x).toJson(QJsonDocument::Indented).trimmed();
    extra.replace("\n", "\n    ");
    const qsizetype close = doc.lastIndexOf('}');
    if (close < 0)
        return doc;
    qsizetype last = close - 1;
    while (last >= 0 && (doc[last] == ' ' || doc[last] == '\n'))
        --last;
    const bool empty = last >= 0 && doc[last] == '{';
    doc.insert(last + 1, QByteArray(empty ? "\n" : ",\n") + "    \"x-gpuprobe\": " + extra);
    return doc;
}

} // namespace scalescope::gpuprobe
