#include "hardware/hardware.h"

namespace scalescope
{

const char *precisionName(Precision p)
{
    switch (p) {
    case Precision::FP32:
        return "fp32";
    case Precision::TF32:
        return "tf32";
    case Precision::FP16:
        return "fp16";
    case Precision::BF16:
        return "bf16";
    case Precision::FP8:
        return "fp8";
    }
    return "unknown";
}

double activationBytes(Precision p)
{
    switch (p) {
    case Precision::FP32:
    case Precision::TF32: // tf32 rounds inside the tensor cores; tensors stay fp32
        return 4;
    case Precision::FP16:
    case Precision::BF16:
    case Precision::FP8: // fp8 GEMMs keep bf16 activations between layers
        return 2;
    }
    return 4;
}

const char *familyName(GpuFamily f)
{
    switch (f) {
    case GpuFamily::Pascal:
        return "pascal";
    case GpuFamily::Volta:
        return "volta";
    case GpuFamily::Ampere:
        return "ampere";
    case GpuFamily::AdaLovelace:
        return "ada";
    case GpuFamily::Hopper:
        return "hopper";
    case GpuFamily::Blackwell:
        return "blackwell";
    case GpuFamily::CDNA3:
        return "cdna3";
    case GpuFamily::Unknown:
        break;
    }
    return "unknown";
}

GpuFamily familyFromName(const std::string &name)
{
    for (GpuFamily f :
         {GpuFamily::Pascal, GpuFamily::Volta, GpuFamily::Ampere, GpuFamily::AdaLovelace,
          GpuFamily::Hopper, GpuFamily::Blackwell, GpuFamily::CDNA3}) {
        if (name == familyName(f))
            return f;
    }
    return GpuFamily::Unknown;
}

} // namespace scalescope
