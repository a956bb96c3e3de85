// The Runner's core (runner.h): text helpers, planning (what runs, in how many progress
// steps), timing with CUDA events, opening the GPUs, and run(), which calls the tests.
#include "runner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace scalescope::gpuprobe::probe_detail
{

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

std::string fmt(double value, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string gpuLabel(int device)
{
    return "GPU " + std::to_string(device);
}

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
            steps += o_.has(TestId::Memory) + o_.has(TestId::Transfer) +
                     kLaunchSteps * o_.has(TestId::Launch);
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

} // namespace scalescope::gpuprobe::probe_detail
