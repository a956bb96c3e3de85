// Deterministic random data, the same on host and device: a value is a pure function of a
// seed and an index, so a kernel (or the host) can check a buffer without a second copy.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define GPUPROBE_HOST_DEVICE __host__ __device__
#else
#define GPUPROBE_HOST_DEVICE
#endif

namespace scalescope::gpuprobe
{

/// SplitMix64 finaliser (Steele, Lea, Flood: "Fast splittable pseudorandom number
/// generators", OOPSLA 2014).
GPUPROBE_HOST_DEVICE inline uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// A value in (-1, -0.25] or [0.25, 1): random, never zero, representable (after rounding)
/// in every GEMM input type down to FP8 E4M3, and well conditioned for dot products. Every
/// step is exact in double precision, so host and device (where nvcc may fuse a multiply
/// and an add) compute the same bits and a buffer can be checked on either side.
GPUPROBE_HOST_DEVICE inline double randomValue(uint64_t seed, uint64_t index)
{
    const uint64_t h = mix64(seed ^ mix64(index));
    const double mantissa =
        1.0 + static_cast<double>(h >> 12) * (1.0 / 4503599627370496.0); // [1, 2)
    const double magnitude = (h & 2) ? mantissa * 0.5 : mantissa * 0.25;
    return (h & 1) ? -magnitude : magnitude;
}

/// A whole number in 1..8 for collectives: sums over up to 2^21 ranks stay exact in fp32.
GPUPROBE_HOST_DEVICE inline float rankedValue(uint64_t seed, int rank, uint64_t index)
{
    const uint64_t h = mix64(seed ^ mix64(index * 0x100000001b3ULL + static_cast<uint64_t>(rank)));
    return static_cast<float>(1 + (h % 8));
}

} // namespace scalescope::gpuprobe
