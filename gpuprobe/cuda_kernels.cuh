// The CUDA backend's kernels (device code) and their launch geometry: fill and verify random
// data, BabelStream copy and triad, the empty kernel, collective checks, sampled GEMM reference.
// Included by cuda_backend.cu alone (the kernels launch from the translation unit that holds
// them), hence the unnamed namespace.
#pragma once

#include "backend.h"
#include "random.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace scalescope::gpuprobe
{

namespace
{

constexpr int kThreads = 256;

/// Grid-stride kernels: enough blocks to fill any GPU, no more.
unsigned gridFor(size_t n)
{
    const size_t blocks = (n + kThreads - 1) / kThreads;
    return static_cast<unsigned>(std::clamp<size_t>(blocks, 1, 65536));
}

/// Blocks of 1024 threads covering n elements once (BabelStream's layout).
unsigned oneElementPerThread(size_t n)
{
    return static_cast<unsigned>(std::max<size_t>(1, (n + 1023) / 1024));
}

// --- Kernels ---------------------------------------------------------------------------------

template <typename T> __device__ T fromDouble(double v);
template <> __device__ double fromDouble<double>(double v)
{
    return v;
}
template <> __device__ float fromDouble<float>(double v)
{
    return static_cast<float>(v);
}
template <> __device__ __half fromDouble<__half>(double v)
{
    return __double2half(v);
}
template <> __device__ __nv_bfloat16 fromDouble<__nv_bfloat16>(double v)
{
    return __double2bfloat16(v);
}
template <> __device__ __nv_fp8_e4m3 fromDouble<__nv_fp8_e4m3>(double v)
{
    return __nv_fp8_e4m3(static_cast<float>(v));
}

__device__ double toDouble(float v)
{
    return v;
}
__device__ double toDouble(__half v)
{
    return __half2float(v);
}
__device__ double toDouble(__nv_bfloat16 v)
{
    return __bfloat162float(v);
}
__device__ double toDouble(__nv_fp8_e4m3 v)
{
    return static_cast<float>(v);
}

template <typename T> __global__ void fillRandomKernel(T *p, size_t n, uint64_t seed)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x)
        p[i] = fromDouble<T>(randomValue(seed, i));
}

__global__ void verifyRandomKernel(const double *p, size_t n, uint64_t seed,
                                   unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x)
        mine += p[i] != randomValue(seed, i);
    if (mine)
        atomicAdd(wrong, mine);
}

// BabelStream kernels: one element per thread (CUDA stream.cu, TBSIZE 1024).
__global__ void copyKernelImpl(double *dst, const double *src, size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}

__global__ void triadKernelImpl(double *a, const double *b, const double *c, double scalar,
                                size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n)
        a[i] = __fma_rn(scalar, c[i], b[i]); // explicit fma: the check computes the same
}

__global__ void verifyTriadKernel(const double *a, const double *b, const double *c, double scalar,
                                  size_t n, unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x)
        mine += a[i] != __fma_rn(scalar, c[i], b[i]);
    if (mine)
        atomicAdd(wrong, mine);
}

__global__ void emptyKernelImpl(unsigned *counter)
{
    atomicAdd(counter, 1u);
}

__global__ void fillRankedKernel(float *p, size_t n, uint64_t seed, int rank)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x)
        p[i] = rankedValue(seed, rank, i);
}

/// Checks every `stride`-th received element against the known sums (CollectiveCheck).
__global__ void verifyCollectiveKernel(const float *recv, int op, size_t count, int nranks,
                                       int rank, uint64_t seed, size_t elements, size_t stride,
                                       unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (size_t j = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * stride; j < elements;
         j += size_t(gridDim.x) * blockDim.x * stride) {
        float expected = 0;
        if (op == static_cast<int>(CollectiveOp::AllGather)) {
            expected = rankedValue(seed, static_cast<int>(j / count), j % count);
        } else {
            const size_t index =
                op == static_cast<int>(CollectiveOp::ReduceScatter) ? size_t(rank) * count + j : j;
            for (int r = 0; r < nranks; ++r)
                expected += rankedValue(seed, r, index);
        }
        mine += recv[j] != expected;
    }
    if (mine)
        atomicAdd(wrong, mine);
}

/// One block per sampled entry of D = op(A) B (A stored k x m, B k x n, D m x n).
template <typename TA, typename TD>
__global__ void gemmCheckKernel(const TA *a, const TA *b, const TD *d, int64_t m, int64_t n,
                                int64_t k, uint64_t seed, int samples, double *errors)
{
    __shared__ double sum[kThreads];
    __shared__ double magnitude[kThreads];
    const int s = blockIdx.x;
    const int64_t i = static_cast<int64_t>(mix64(seed + 2 * s) % static_cast<uint64_t>(m));
    const int64_t j = static_cast<int64_t>(mix64(seed + 2 * s + 1) % static_cast<uint64_t>(n));
    double acc = 0, mag = 0;
    for (int64_t kk = threadIdx.x; kk < k; kk += blockDim.x) {
        const double product = toDouble(a[kk + i * k]) * toDouble(b[kk + j * k]);
        acc += product;
        mag += fabs(product);
    }
    sum[threadIdx.x] = acc;
    magnitude[threadIdx.x] = mag;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            sum[threadIdx.x] += sum[threadIdx.x + half];
            magnitude[threadIdx.x] += magnitude[threadIdx.x + half];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        const double got = toDouble(d[i + j * m]);
        errors[s] = fabs(got - sum[0]) / fmax(magnitude[0], 1e-30);
    }
}

} // namespace

} // namespace scalescope::gpuprobe
