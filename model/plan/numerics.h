// Bytes per parameter of the numbers training keeps and moves, by precision and optimizer:
// read by the plan (gradient reduce precision), the engine and the memory model.
#pragma once

#include "hardware/hardware.h"
#include "plan/scenario.h"

namespace scalescope
{

/// Bytes per parameter of the gradients that are kept and communicated. Transformers follow
/// Megatron-LM/DeepSpeed: fp16 training keeps fp16 gradients, bf16 accumulates and
/// all-reduces them in fp32 (Megatron-LM "--accumulate-allreduce-grads-in-fp32", forced for
/// bf16). Other models follow PyTorch automatic mixed precision (torch.cuda.amp): weights
/// and therefore gradients stay fp32.
double gradientBytesPerParam(Precision p, bool transformer = true);
/// Bytes per parameter of the weights used in forward/backward.
double weightBytesPerParam(Precision p);
/// Memory traffic of the optimizer step per local parameter (bytes read + written).
double optimizerTrafficPerParam(Optimizer o, Precision p);

} // namespace scalescope
