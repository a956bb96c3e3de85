// Numeric precisions of GPU math. A header of its own (C++17) so that gpuprobe's CUDA sources,
// which nvcc compiles as C++17, need none of the spec structs (C++20 comparisons).
#pragma once

namespace scalescope
{

enum class Precision { FP32 = 0, TF32, FP16, BF16, FP8 };
inline constexpr int kPrecisionCount = 5;
const char *precisionName(Precision p);
/// Bytes per element of weights/activations in the forward pass at this precision
/// (mixed precision keeps fp16/bf16 copies; fp8 keeps bf16 master activations).
double activationBytes(Precision p);

} // namespace scalescope
