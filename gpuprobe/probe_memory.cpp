// The memory test: BabelStream copy and triad bandwidth of arrays several times the L2.
#include "runner.h"

#include <algorithm>

namespace scalescope::gpuprobe::probe_detail
{

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

} // namespace scalescope::gpuprobe::probe_detail
