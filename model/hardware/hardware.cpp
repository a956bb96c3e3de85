#include "hardware/hardware.h"

#include "hardware/framework.h"

#include <algorithm>
#include <initializer_list>
#include <cmath>

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

const char *fp8ScalingName(Fp8Scaling s)
{
    switch (s) {
    case Fp8Scaling::Delayed:
        return "delayed";
    case Fp8Scaling::Current:
        return "current";
    case Fp8Scaling::Tensorwise:
        return "tensorwise";
    case Fp8Scaling::Rowwise:
        return "rowwise";
    case Fp8Scaling::Stack:
        break;
    }
    return "";
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

namespace
{
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

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isFormFactorWord(const std::string &w)
{
    return w == "pcie" || w == "nvl" || w.rfind("sxm", 0) == 0;
}

bool isOneOf(const std::string &w, std::initializer_list<const char *> words)
{
    return std::any_of(words.begin(), words.end(), [&](const char *x) { return w == x; });
}

/// Whether `w` names the model (see GpuNameReading::chip); `after_brand`: the word before it
/// is a vendor or product line ("nvidia", "tesla", "geforce", "rtx", "instinct").
bool isModelWord(const std::string &w, bool after_brand)
{
    const auto digits = std::count_if(w.begin(), w.end(), isDigit);
    if (digits == 0 || isFormFactorWord(w) || w.rfind("hbm", 0) == 0 || w.rfind("gddr", 0) == 0)
        return false;
    if (w.size() > 2 && w.compare(w.size() - 2, 2, "gb") == 0 && isDigit(w.front()))
        return false; // a memory size
    if (size_t(digits) == w.size())
        return digits >= 3 && digits <= 4;
    return digits >= 2 || after_brand;
}
} // namespace

GpuNameReading readGpuName(const std::string &name)
{
    GpuNameReading r;
    const std::vector<std::string> words = gpuNameWords(name);
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string &w = words[i];
        if (isFormFactorWord(w)) {
            r.form_factors.push_back(w);
            continue;
        }
        const bool after_brand =
            i > 0 && isOneOf(words[i - 1], {"nvidia", "tesla", "quadro", "grid", "geforce", "rtx",
                                            "amd", "instinct", "radeon"});
        if (!r.chip.empty() || !isModelWord(w, after_brand))
            continue;
        r.chip = w;
        // "RTX 4060 Ti", "RTX 4090 D", "RTX 6000 Ada Generation": another GPU than the
        // number alone ("RTX 4060", "RTX 4090", the Turing "Quadro RTX 6000").
        for (size_t j = i + 1; j < words.size() && isOneOf(words[j], {"ti", "super", "d", "ada",
                                                                      "blackwell", "laptop"});
             ++j)
            r.chip += words[j];
    }
    return r;
}

std::string gpuChip(const std::string &name)
{
    return readGpuName(name).chip;
}

bool differentGpuChips(const std::string &a, const std::string &b)
{
    const std::string chip_a = gpuChip(a), chip_b = gpuChip(b);
    return !chip_a.empty() && !chip_b.empty() && chip_a != chip_b;
}

std::string calibrationGpuMismatch(const HardwareSpec &hw)
{
    if (!hw.calibration || hw.calibration->gpus.empty())
        return {};
    const std::string &measured = hw.calibration->gpus.front().name;
    return differentGpuChips(measured, hw.gpu.name) ? measured : std::string();
}

} // namespace scalescope

namespace scalescope
{

int HardwareSpec::cpuCores() const
{
    return cpu_cores > 0 ? cpu_cores : defaultCpuCores(gpu);
}

double HardwareSpec::hostLinkGbps() const
{
    if (gpu.host_link_gbps > 0)
        return gpu.host_link_gbps;
    constexpr double kPinnedCopyShare = 0.85;
    if (intra.kind == LinkKind::PCIe && intra.bandwidth_gbps > 0)
        return intra.bandwidth_gbps * kPinnedCopyShare;
    switch (gpu.family) {
    case GpuFamily::Hopper:
    case GpuFamily::Blackwell:
    case GpuFamily::CDNA3:
        return 63.0 * kPinnedCopyShare; // PCIe 5.0 x16
    case GpuFamily::Ampere:
    case GpuFamily::AdaLovelace:
        return 31.5 * kPinnedCopyShare; // PCIe 4.0 x16
    default:
        return 15.75 * kPinnedCopyShare; // PCIe 3.0 x16
    }
}

HardwareSpec HardwareSpec::communicationView() const
{
    HardwareSpec view = *this;
    int domain = nvlinkDomainGpus();
    // A job that does not fill whole domains (256 GPUs on NVL72 racks) is placed in equal
    // slices of them, whole trays each (Slurm's topology/block plugin allocates in blocks of
    // one NVLink domain: 4 racks x 64 GPUs, not 3 full racks and a remainder): the largest
    // multiple of the tray size that divides the GPU count and fits in a domain.
    while (domain > gpus_per_node && gpuCount() % domain != 0)
        domain -= gpus_per_node;
    if (domain <= gpus_per_node)
        return view;
    // NVIDIA GB200 NVL72 datasheet: 72 GPUs in one NVLink domain (fifth-generation NVLink
    // switch trays, 1.8 TB/s per GPU); each compute tray keeps its own NICs for the
    // scale-out network, so the domain has trays x nics_per_node of them.
    view.nics_per_node = nics_per_node * (domain / gpus_per_node);
    view.gpus_per_node = domain;
    view.nodes = gpuCount() / domain;
    view.nvlink_domain = 0;
    return view;
}

int defaultCpuCores(const GpuSpec &gpu)
{
    // The usual server of each generation (vendor system guides): DGX-1 (2x 20-core Xeon
    // E5-2698 v4) for Pascal and Volta; DGX A100 (2x 64-core EPYC 7742); DGX H100 / H200 and
    // DGX B200 (2x 56-core Xeon 8480C / 8570); AMD Instinct platforms (2x 64-core EPYC 9004).
    // Cards without NVLink servers (GeForce, workstation, PCIe) sit in 32-core workstations
    // (Lambda Vector, Threadripper PRO 5975WX). Boards on GDDR memory (under 2 TB/s) are
    // such cards even at 575-600 W (RTX 5090, RTX PRO 6000 Blackwell datasheets).
    const bool pcie_card = (gpu.tdp_w > 0 && gpu.tdp_w <= 450) ||
                           (gpu.memory_bandwidth_gbps > 0 && gpu.memory_bandwidth_gbps < 2000);
    switch (gpu.family) {
    case GpuFamily::Pascal:
    case GpuFamily::Volta:
        return pcie_card ? 32 : 40;
    case GpuFamily::Ampere:
        return pcie_card ? 32 : 128;
    case GpuFamily::Hopper:
    case GpuFamily::Blackwell:
        return pcie_card ? 32 : 112;
    case GpuFamily::CDNA3:
        return 128;
    case GpuFamily::AdaLovelace:
    case GpuFamily::Unknown:
        break;
    }
    return 32;
}

double lowestPowerLimit(const GpuSpec &gpu)
{
    return gpu.tdp_w > 0 ? std::ceil(kPowerLimitMinShare * gpu.tdp_w) : 0.0;
}

bool powerLimitFits(const GpuSpec &gpu, double power_limit_w)
{
    return gpu.tdp_w > 0 && power_limit_w >= lowestPowerLimit(gpu) && power_limit_w <= gpu.tdp_w;
}

bool replaceGpu(HardwareSpec &hw, const GpuSpec &gpu)
{
    hw.gpu = gpu;
    if (hw.power_limit_w > 0 && !powerLimitFits(gpu, hw.power_limit_w)) {
        hw.power_limit_w = 0;
        return true;
    }
    return false;
}

double powerLimitedClockRatio(const GpuSpec &gpu, double power_limit_w)
{
    if (power_limit_w <= 0 || gpu.tdp_w <= 0 || power_limit_w >= gpu.tdp_w)
        return 1.0;
    // Board power under dense GEMMs at clock f: a constant part (leakage, HBM, board: ~30% of
    // TDP, the idle-plus-memory share of power-capping studies of H100/H200, arXiv
    // 2604.11391, Sec. 4) and the dynamic part a C V^2 f, with V rising linearly with f over
    // the DVFS range, so ~f^3 (Mei et al., "A survey and measurement study of GPU DVFS",
    // 2017). At TDP the GPU holds its sustained clock, so under a cap P:
    //   f / f_TDP = ((P - P_static) / (TDP - P_static))^(1/3).
    constexpr double kStaticShare = 0.30;
    const double fixed = kStaticShare * gpu.tdp_w;
    const double dynamic = std::max(0.05, (power_limit_w - fixed) / (gpu.tdp_w - fixed));
    return std::cbrt(dynamic);
}

} // namespace scalescope
