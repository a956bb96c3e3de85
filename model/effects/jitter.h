// Jitter: the random delay of each compute task (effects.jitter, spec/scenario.md). One
// definition for the engine, which draws it per GPU and task, and the closed form, which
// uses its mean.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace scalescope
{

/// SplitMix64 (Steele et al. 2014): a counter-based hash, so a task's random duration
/// depends only on (seed, GPU, task) and can be recomputed instead of stored.
inline uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/// The duration factor of a jittered task: a log-normal draw L with mean 1 and relative
/// standard deviation `sigma` (task times are positive and right-skewed; Box-Muller for
/// the normal draw), clipped at 1. The task's time without jitter is the fastest the
/// hardware runs it: interference (OS noise, clock and memory contention) only delays it
/// (Hoefler et al. SC10, "Characterizing the influence of system noise", noise as detours).
struct JitterDraw {
    explicit JitterDraw(double sigma)
        : sigma(sigma), s2(std::log1p(sigma * sigma)), root_s2(std::sqrt(s2)), half_s2(0.5 * s2)
    {
    }
    double operator()(uint64_t seed, uint32_t gpu, uint32_t task) const
    {
        if (sigma <= 0)
            return 1.0;
        const uint64_t h = splitmix(seed ^ splitmix((static_cast<uint64_t>(gpu) << 32) | task));
        const double u2 = unit01(splitmix(h));
        // cos(2 pi u2) <= 0 on [1/4, 3/4] (to within 1e-16 at the ends): z <= 0 and the
        // draw is below 1, clipped to 1. Half of all draws end here, without the log, cos
        // and exp, and with the same result as the full formula.
        if (u2 >= 0.25 && u2 <= 0.75)
            return 1.0;
        const double u1 = unit01(h);
        const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
        const double x = root_s2 * z - half_s2;
        return x <= 0 ? 1.0 : std::max(1.0, std::exp(x)); // exp(x) <= 1 for x <= 0
    }
    static double unit01(uint64_t h) { return static_cast<double>((h >> 11) + 1) * 0x1.0p-53; }
    double sigma, s2, root_s2, half_s2;
};

/// The mean of JitterDraw: E[max(1, L)] for log-normal L with mean 1 and log-sd s is
/// 2 Phi(s / 2) (the at-the-money Black-Scholes call plus its strike, Black & Scholes 1973,
/// Eq. 13 with S = K = 1 and r = 0).
inline double jitterMeanFactor(double sigma)
{
    if (sigma <= 0)
        return 1.0;
    const double s = std::sqrt(std::log1p(sigma * sigma));
    return std::erfc(-s / 2.0 / std::numbers::sqrt2); // 2 Phi(x) = erfc(-x / sqrt 2)
}

} // namespace scalescope
