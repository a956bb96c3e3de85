// The launch test: the overhead of one empty kernel among back-to-back ones on a stream.
#include "runner.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace scalescope::gpuprobe::probe_detail
{

void Runner::runLaunch(const Gpu &g)
{
    const int d = g.device;
    const std::string test = "launch";
    const std::string where = gpuLabel(d);
    const int end = done_ + kLaunchSteps; // the GPU side, then the host side
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
            finishTest(end, test);
            return;
        }
        profileOf(g).launch_overhead_us = t / launches * 1e6;
        step(test, where + ": " + fmt(t / launches * 1e6, 2) + " us per kernel");

        // Host side, on the CPU's clock: what a framework pays per operation before its
        // Python and dispatcher (Daydream, ATC'20, Sec. 2): the time cudaLaunchKernel takes
        // to return while the GPU runs behind it, and one empty kernel's launch plus
        // cudaStreamSynchronize on an idle stream (a .item() or a blocking copy). At most
        // 256 launches per batch, well inside the driver's queue, so none waits for room.
        using Clock = std::chrono::steady_clock;
        const int batch = std::min(launches, 256);
        const auto hostMedian = [&](int calls, const std::function<void()> &once) {
            std::vector<double> times;
            for (int r = 0; r < method_.warmup + method_.repetitions; ++r) {
                const Clock::time_point start = Clock::now();
                for (int i = 0; i < calls; ++i)
                    once();
                const double s = std::chrono::duration<double>(Clock::now() - start).count();
                check(b_.synchronize(d));
                if (r >= method_.warmup)
                    times.push_back(s / calls);
            }
            return median(times);
        };
        const double issue =
            hostMedian(batch, [&] { check(b_.emptyKernel(d, counter.as<unsigned>())); });
        const int trips = std::min(launches, 64);
        const double round_trip = hostMedian(trips, [&] {
            check(b_.emptyKernel(d, counter.as<unsigned>()));
            check(b_.synchronize(d));
        });
        check(b_.memcpyAsync(d, &counted, counter.get(), sizeof counted, CopyKind::DeviceToHost));
        check(b_.synchronize(d));
        const unsigned total =
            expected + static_cast<unsigned>((method_.warmup + method_.repetitions) *
                                             (batch + trips));
        if (counted != total) {
            fail(test, where + ": host launch check failed (" + std::to_string(counted) +
                           " of " + std::to_string(total) +
                           " kernels ran); host figures not written");
            step(test, where + ": host check failed");
            return;
        }
        profileOf(g).host_launch_us = issue * 1e6;
        profileOf(g).sync_round_trip_us = round_trip * 1e6;
        step(test, where + ": host " + fmt(issue * 1e6, 2) + " us per launch, " +
                       fmt(round_trip * 1e6, 2) + " us launch + synchronize");
    } catch (const CallFailure &f) {
        failCall(test, where, f.status);
        step(test, where + ": failed");
        finishTest(end, test);
    }
}

} // namespace scalescope::gpuprobe::probe_detail
