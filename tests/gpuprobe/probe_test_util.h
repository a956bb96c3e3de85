// Helpers shared by the probe tests (tst_probe, tst_probe_faults).
#pragma once

#include "io/profile_io.h"

#include <algorithm>
#include <string>
#include <vector>

namespace scalescope::gpuprobe::test
{

/// Whether any note's text contains `text`.
inline bool mentions(const std::vector<ProfileNote> &notes, const std::string &text)
{
    return std::any_of(notes.begin(), notes.end(), [&](const ProfileNote &n) {
        return n.text.find(text) != std::string::npos;
    });
}

/// How many measured figures a profile holds (GEMM points, bandwidths, launch overhead,
/// thermal samples, collectives, p2p pairs).
inline size_t figures(const CalibrationProfile &p)
{
    size_t n = p.collectives.size() + p.p2p.size();
    for (const ProfileGpu &g : p.gpus) {
        for (const auto &points : g.gemm_tflops)
            n += points.size();
        n += (g.memory_bandwidth_gbps > 0) + (g.h2d_pinned_gbps > 0) + (g.d2h_pinned_gbps > 0) +
             (g.launch_overhead_us > 0) + g.thermal_samples.size();
    }
    return n;
}

} // namespace scalescope::gpuprobe::test
