// Collective operations and algorithms (spec/scenario.md, "collective"). A header of its own
// (C++17) so that gpuprobe's CUDA sources, which nvcc compiles as C++17, need none of the
// spec structs (C++20 comparisons).
#pragma once

namespace scalescope
{

enum class CollectiveOp { AllReduce, AllGather, ReduceScatter, Broadcast, AllToAll };
enum class CollectiveAlgo { Auto, Ring, Tree, NVLS, Hierarchical };
const char *collectiveOpName(CollectiveOp op);
/// nccl-tests' bus bandwidth factor, busbw = algbw x factor (nccl-tests doc/PERFORMANCE.md,
/// "Bus bandwidth"): 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter and
/// all-to-all, 1 for broadcast; one rank moves nothing between GPUs (0). The model and
/// gpuprobe both report with it.
double busBandwidthFactor(CollectiveOp op, int ranks);
const char *collectiveAlgoName(CollectiveAlgo a);

} // namespace scalescope
