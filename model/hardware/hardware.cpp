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

/// The chip of a GPU name ("NVIDIA A100-SXM4-80GB" -> "a100", "NVIDIA GeForce RTX 4060 Ti"
/// -> "4060", "AMD Instinct MI300X" -> "mi300x"): the first word with two to four digits
/// that is not a memory size. Empty when the name has none (an inline lab GPU).
std::string gpuChip(const std::string &name)
{
    std::string word;
    const auto chipOf = [](const std::string &w) {
        int digits = 0;
        for (char c : w)
            digits += (c >= '0' && c <= '9') ? 1 : 0;
        const bool memory = w.size() > 2 && w.compare(w.size() - 2, 2, "gb") == 0;
        return digits >= 2 && digits <= 4 && !memory;
    };
    for (size_t i = 0; i <= name.size(); ++i) {
        const char c = i < name.size() ? name[i] : ' ';
        const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (alnum) {
            word += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            continue;
        }
        if (chipOf(word))
            return word;
        word.clear();
    }
    return {};
}

std::string calibrationGpuMismatch(const HardwareSpec &hw)
{
    if (!hw.calibration || hw.calibration->gpus.empty())
        return {};
    const std::string &measured = hw.calibration->gpus.front().name;
    const std::string chip = gpuChip(measured), mine = gpuChip(hw.gpu.name);
    return !chip.empty() && !mine.empty() && chip != mine ? measured : std::string();
}

} // namespace scalescope
