// The p2p test: bandwidth and latency of copies between every pair of GPUs, with peer
// access on (where possible) and off.
#include "runner.h"

#include <algorithm>

namespace scalescope::gpuprobe::probe_detail
{

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

} // namespace scalescope::gpuprobe::probe_detail
