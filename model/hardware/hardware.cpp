#include "hardware/hardware.h"

#include <algorithm>

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

const char *pcieTopologyName(PcieTopology t)
{
    return t == PcieTopology::RootPorts ? "root_ports" : "switch";
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

std::vector<std::string> gpuNameWords(const std::string &name)
{
    std::vector<std::string> words;
    std::string word;
    for (size_t i = 0; i <= name.size(); ++i) {
        const char c = i < name.size() ? name[i] : ' ';
        const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (alnum) {
            word += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        } else if (!word.empty()) {
            words.push_back(std::move(word));
            word.clear();
        }
    }
    return words;
}

bool isGpuFormFactorWord(const std::string &w)
{
    return w == "pcie" || w == "nvl" || w.rfind("sxm", 0) == 0;
}

bool isGpuModelWord(const std::string &w)
{
    if (std::none_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    const bool size = w.size() > 2 && w.compare(w.size() - 2, 2, "gb") == 0 && w.front() >= '0' &&
                      w.front() <= '9';
    const bool memory_type = w.rfind("hbm", 0) == 0 || w.rfind("gddr", 0) == 0;
    return !size && !memory_type && !isGpuFormFactorWord(w);
}

std::string gpuChip(const std::string &name)
{
    for (const std::string &w : gpuNameWords(name)) {
        const auto digits = std::count_if(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (isGpuModelWord(w) && digits >= 2 && digits <= 4)
            return w;
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
