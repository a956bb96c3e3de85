// Benchmark of the Kineto trace reader (DESIGN.md section 6: "reading a 100 MB Kineto trace:
// <= 3 s, peak memory <= 4x the file"). Writes a synthetic trace of about 100 MB (the event
// mix of torch.profiler's output: step annotations, CPU operators, launches, compute and
// NCCL kernels with long template names, copies) to a temporary folder, streaming, then
// reads and measures it. Prints seconds and peak RSS (VmHWM of /proc/self/status) against
// the file's size; never fails on time (DESIGN.md section 5).
#include "analysis/measured_critical_path.h"
#include "analysis/measured_run.h"
#include "io/kineto_trace.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <fstream>
#include <string>

using namespace scalescope;

namespace
{

constexpr int64_t kTargetBytes = 100'000'000;

// kB of a "VmHWM:" / "VmRSS:" line of /proc/self/status; -1 where there is none.
long statusKb(const char *key)
{
    std::ifstream f("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(key) + ":";
    while (std::getline(f, line)) {
        if (line.rfind(prefix, 0) == 0)
            return std::stol(line.substr(prefix.size()));
    }
    return -1;
}

// Resets VmHWM to the current RSS (Linux 4.0+, proc(5) "clear_refs": 5).
bool resetPeak()
{
    std::ofstream f("/proc/self/clear_refs");
    f << "5";
    return bool(f);
}

// Writes the trace in pieces (the generator never holds the file); returns its size.
int64_t writeSyntheticTrace(const QString &path, size_t *kernels_out)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return -1;
    QByteArray chunk;
    int64_t written = 0;
    const auto flush = [&] {
        written += f.write(chunk);
        chunk.clear();
    };
    chunk += "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 "
             "80GB HBM3\", \"totalGlobalMem\": 85045870592, \"numSms\": 132}], "
             "\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8}, "
             "\"traceEvents\": [\n";
    const char *kernels[] = {
        "void "
        "cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>"
        "(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8::Params)",
        "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::"
        "TensorIteratorBase&, at::native::GeluType)::{lambda()#1}::operator()() const::{lambda()#2}"
        "::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >(int, "
        "at::native::GeluCUDAKernelImpl, at::detail::Array<char*, 2>)",
        "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, "
        "float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, "
        "float*, float*, c10::BFloat16*)",
    };
    double t = 1'700'000'000'000'000.0; // microseconds, as Kineto writes wall-clock times
    int64_t correlation = 1000;
    size_t kernel_count = 0;
    bool first = true;
    int step = 0;
    char line[2048];
    const auto put = [&](int n) {
        chunk.append(first ? "" : ",\n");
        first = false;
        chunk.append(line, n);
        if (chunk.size() > (1 << 20))
            flush();
    };
    while (written + chunk.size() < kTargetBytes) {
        const double step_start = t;
        const int ops = 2000;
        put(std::snprintf(line, sizeof line,
                          "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
                          "\"ProfilerStep#%d\", \"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, "
                          "\"dur\": %.3f, \"args\": {\"External id\": %lld}}",
                          step, step_start, ops * 12.0, static_cast<long long>(correlation)));
        for (int i = 0; i < ops; ++i) {
            ++correlation;
            const double ts = step_start + i * 12.0;
            const bool nccl = i % 50 == 49;
            put(std::snprintf(line, sizeof line,
                              "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::linear\", "
                              "\"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, \"dur\": 9.5, \"args\": "
                              "{\"External id\": %lld, \"Record function id\": 0, \"Ev Idx\": %d}}",
                              ts, static_cast<long long>(correlation), i));
            put(std::snprintf(line, sizeof line,
                              "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
                              "\"cudaLaunchKernel\", \"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, "
                              "\"dur\": 4.1, \"args\": {\"External id\": %lld, \"cbid\": 211, "
                              "\"correlation\": %lld}}",
                              ts + 2, static_cast<long long>(correlation),
                              static_cast<long long>(correlation)));
            const char *name = nccl ? "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, "
                                      "unsigned long, ncclWork*)"
                                    : kernels[i % 3];
            put(std::snprintf(
                line, sizeof line,
                "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, "
                "\"tid\": %d, \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"External id\": "
                "%lld, \"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": %d, "
                "\"correlation\": %lld, \"registers per thread\": 128, \"shared "
                "memory\": 0, \"blocks per SM\": 1.5, \"warps per SM\": 12.0, "
                "\"grid\": [264, 1, 1], \"block\": [256, 1, 1], \"est. achieved "
                "occupancy %%\": 19}}",
                name, nccl ? 20 : 7, ts + 30, nccl ? 40.0 : 10.5,
                static_cast<long long>(correlation), nccl ? 20 : 7,
                static_cast<long long>(correlation)));
            ++kernel_count;
            if (i % 100 == 0)
                put(std::snprintf(
                    line, sizeof line,
                    "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy "
                    "HtoD (Pinned -> Device)\", \"pid\": 0, \"tid\": 7, \"ts\": %.3f, "
                    "\"dur\": 1.2, \"args\": {\"device\": 0, \"context\": 1, "
                    "\"stream\": 7, \"correlation\": %lld, \"bytes\": 4096, "
                    "\"memory bandwidth (GB/s)\": 3.4}}",
                    ts + 41, static_cast<long long>(correlation)));
        }
        t += ops * 12.0 + 500;
        ++step;
    }
    chunk += "\n], \"traceName\": \"synthetic\", \"displayTimeUnit\": \"ms\"}\n";
    flush();
    *kernels_out = kernel_count;
    return written;
}

} // namespace

class BenchTrace : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void read100MB()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("synthetic-trace.json"));
        size_t kernels = 0;
        const int64_t bytes = writeSyntheticTrace(path, &kernels);
        QVERIFY(bytes > kTargetBytes / 2);
        const bool reset = resetPeak();
        const long before_kb = statusKb("VmRSS");
        QElapsedTimer timer;
        timer.start();
        const Result<KinetoTrace> trace = readKinetoTrace(path);
        const double read_s = static_cast<double>(timer.nsecsElapsed()) / 1e9;
        QVERIFY2(trace, trace ? "" : trace.error().toString().c_str());
        const MeasuredRank rank = measureRank(trace.value());
        const double total_s = static_cast<double>(timer.nsecsElapsed()) / 1e9;
        // The critical paths of its steps (issue 28, item 4), as the window computes them.
        const std::vector<MeasuredCriticalPath> paths =
            measuredCriticalPaths(trace.value(), rank);
        const double path_s = static_cast<double>(timer.nsecsElapsed()) / 1e9 - total_s;
        const long peak_kb = statusKb("VmHWM");
        QCOMPARE(paths.size(), rank.steps.size());
        QCOMPARE(trace.value().kernels, kernels);
        QVERIFY(!rank.steps.empty());
        const double mb = static_cast<double>(bytes) / 1e6;
        std::printf("BENCH trace_read file %.1f MB, %zu kernels, %llu events: read %.2f s, read + "
                    "measure %.2f s (%.0f MB/s); budget 3 s\n",
                    mb, kernels, static_cast<unsigned long long>(trace.value().events), read_s,
                    total_s, mb / total_s);
        std::printf("BENCH trace_critical_path %zu steps in %.3f s (after reading)\n",
                    paths.size(), path_s);
        std::printf("BENCH trace_read peak RSS %.1f MB (VmHWM%s; %.1f MB before reading) = %.2fx "
                    "the file; budget 4x\n",
                    peak_kb / 1024.0, reset ? " reset before reading" : " of the whole process",
                    before_kb / 1024.0, peak_kb * 1024.0 / static_cast<double>(bytes));
    }
};

QTEST_GUILESS_MAIN(BenchTrace)
#include "bench_trace.moc"
