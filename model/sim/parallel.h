// Splitting the engine's independent work (units, GPUs) over the machine's cores.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace scalescope
{

/// Threads the engine uses: `requested` when > 0, else the hardware's (at most 8).
inline int engineThreads(int requested)
{
    if (requested > 0)
        return requested;
    const unsigned hw = std::thread::hardware_concurrency();
    return static_cast<int>(std::clamp(hw, 1u, 8u));
}

/// Calls fn(begin, end) on contiguous chunks of [0, n): one chunk per thread (the calling
/// thread takes the first), or all of [0, n) on the calling thread when n / threads is below
/// `min_per_thread` (starting a thread costs tens of microseconds). Chunks are decided by n
/// and the thread count alone, and fn must only write what its chunk owns, so the result
/// does not depend on scheduling.
template <typename F> void parallelChunks(size_t n, int threads, size_t min_per_thread, F &&fn)
{
    size_t t = static_cast<size_t>(std::max(1, threads));
    t = std::min(t, std::max<size_t>(1, n / std::max<size_t>(1, min_per_thread)));
    if (t <= 1) {
        fn(size_t{0}, n);
        return;
    }
    std::vector<std::thread> helpers;
    helpers.reserve(t - 1);
    for (size_t k = 1; k < t; ++k)
        helpers.emplace_back([&fn, n, t, k] { fn(n * k / t, n * (k + 1) / t); });
    fn(size_t{0}, n / t);
    for (std::thread &h : helpers)
        h.join();
}

} // namespace scalescope
