// The launch test: the overhead of one empty kernel among back-to-back ones on a stream.
#include "runner.h"

#include <algorithm>

namespace scalescope::gpuprobe::probe_detail
{

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

} // namespace scalescope::gpuprobe::probe_detail
