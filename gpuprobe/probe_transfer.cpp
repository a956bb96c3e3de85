// The transfer test: host-to-device and device-to-host bandwidth, pinned and pageable.
#include "runner.h"

#include "random.h"

#include <cstring>

namespace scalescope::gpuprobe::probe_detail
{

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

} // namespace scalescope::gpuprobe::probe_detail
