#include "plan/numerics.h"

namespace scalescope
{

double gradientBytesPerParam(Precision p, bool transformer)
{
    return transformer && p == Precision::FP16 ? 2.0 : 4.0;
}

double optimizerTrafficPerParam(Optimizer o, Precision p)
{
    // Fused Adam/SGD read and write every state once: Adam in mixed precision reads the
    // fp32 weight, gradient, m and v and writes weight, m, v and the half-precision copy
    // (NVIDIA Apex FusedAdam; Megatron-LM's distributed optimizer likewise).
    const bool mixed = weightBytesPerParam(p) < 4.0;
    if (o == Optimizer::Adam)
        return mixed ? 30.0 : 28.0;
    return mixed ? 22.0 : 20.0;
}

double weightBytesPerParam(Precision p)
{
    return (p == Precision::FP32 || p == Precision::TF32) ? 4.0 : 2.0;
}

} // namespace scalescope
