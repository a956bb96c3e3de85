// The GEMM test: TFLOP/s of C = op(A) B per precision and size, each result checked against
// a double-precision reference on sampled entries.
#include "runner.h"

namespace scalescope::gpuprobe::probe_detail
{

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

} // namespace scalescope::gpuprobe::probe_detail
