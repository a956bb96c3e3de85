// Hardware specifications: GPUs, intra-node links, inter-node networks.
#pragma once

#include "hardware/calibration.h"
#include "hardware/precision.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace scalescope
{

/// Architecture family, selects the GEMM efficiency table (model/hardware/kernel_model).
enum class GpuFamily { Pascal, Volta, Ampere, AdaLovelace, Hopper, Blackwell, CDNA3, Unknown };
const char *familyName(GpuFamily f);
GpuFamily familyFromName(const std::string &name);

/// Bytes in a GiB: GPU memory and every memory figure the product prints are binary, as
/// nvidia-smi (MiB) and PyTorch (GiB) print them.
inline constexpr double kBytesPerGiB = 1073741824.0;

struct GpuSpec {
    std::string id;   // catalog id, empty for inline GPUs
    std::string name; // display name
    GpuFamily family = GpuFamily::Unknown;
    /// Dense (non-sparse) peak TFLOP/s per precision; 0 = not supported.
    std::array<double, kPrecisionCount> peak_tflops{};
    double memory_gb = 0;             // HBM/GDDR as the datasheet says it, in GiB (below)
    double memory_bandwidth_gbps = 0; // GB/s
    double tdp_w = 0;
    int sm_count = 0; // streaming multiprocessors (or CUs); 0 = unknown
    double l2_mb = 0;
    double launch_overhead_us = 0; // per kernel; 0 = family default
    bool pcie_p2p = true;          // peer-to-peer over PCIe (GeForce cards have none)
    /// Sustained SM clock under training load / the clock the datasheet peak assumes:
    /// below 1 for power-capped data-centre parts, above 1 for GeForce cards whose boost
    /// runs past the rated clock.
    double sustained_clock_ratio = 1.0;
    /// Copy bandwidth between this GPU and its host's memory, per direction (GB/s), where it
    /// is not a PCIe slot (NVLink-C2C); 0 = its PCIe slot (HardwareSpec::hostLinkGbps).
    double host_link_gbps = 0;
    /// Softmax exponentials per second of the special function units against Blackwell's
    /// (B200/GB200 = 1): Blackwell Ultra doubles them (ComputeModel::attentionTime).
    double sfu_exp_ratio = 1.0;
    std::string source; // datasheet citation

    double peak(Precision p) const { return peak_tflops[static_cast<int>(p)]; }
    /// GPU memory comes in binary units: an "80 GB" A100 has 80 GiB (nvidia-smi lists
    /// 81,920 MiB; JEDEC JESD21-C sizes memory in powers of two).
    double memoryBytes() const { return memory_gb * kBytesPerGiB; }
    /// What a training process can allocate: the driver reports about 1.1% less as the total
    /// (cudaMemGetInfo; PyTorch's out-of-memory message reads "a total capacity of 79.25 GiB"
    /// on an A100 80GB, 39.59 on an A100 40GB, 23.65 on an RTX 4090), and the CUDA context
    /// with the cuBLAS workspace takes about 0.5 GiB of that before the first tensor (CUDA C
    /// Programming Guide, "Lazy Loading": the context's size; PyTorch "CUDA semantics",
    /// memory management: the caching allocator's figures exclude it).
    double usableMemoryBytes() const
    {
        return std::max(0.0, memoryBytes() * kDriverVisibleShare - kContextBytes);
    }
    static constexpr double kDriverVisibleShare = 0.989;
    static constexpr double kContextBytes = 0.5 * kBytesPerGiB;

    bool operator==(const GpuSpec &) const = default;
};

enum class LinkKind { PCIe, NVLinkSwitched, NVLinkBridge, Ethernet, RoCE, InfiniBand, Custom };

struct IntraLinkSpec {
    std::string id;
    std::string name;
    LinkKind kind = LinkKind::PCIe;
    double bandwidth_gbps = 0; // GB/s per GPU per direction
    double latency_us = 0;
    bool switched = false; // all GPUs of the node reach each other at full bandwidth
    int nvswitch_gen = 0;  // NVSwitch generation (3+ supports NVLS in-switch reduction)
    /// PCIe links: memory bandwidth of one CPU socket of the platform generation that
    /// carries this link (GB/s, datasheet); 0 = not stated. Bounds the traffic of GPUs
    /// without peer-to-peer, which is staged through host memory (collective.cpp).
    double host_memory_gbps = 0;
    std::string source;

    bool operator==(const IntraLinkSpec &) const = default;
};

struct InterLinkSpec {
    std::string id;
    std::string name;
    LinkKind kind = LinkKind::InfiniBand;
    double line_rate_gbit = 0; // Gb/s per NIC
    double latency_us = 0;
    std::string source;

    bool operator==(const InterLinkSpec &) const = default;
};

/// A loaded calibration profile, shared by the copies of a scenario. Two are equal when their
/// profiles are (a file opened again loads a second, equal copy), not only when they are one
/// object: what the spec structs' defaulted comparisons need.
struct SharedProfile : std::shared_ptr<const CalibrationProfile> {
    using std::shared_ptr<const CalibrationProfile>::shared_ptr;
    SharedProfile(std::shared_ptr<const CalibrationProfile> p)
        : std::shared_ptr<const CalibrationProfile>(std::move(p))
    {
    }
    bool operator==(const SharedProfile &other) const
    {
        return get() == other.get() || (get() && other.get() && *get() == *other.get());
    }
    bool operator==(std::nullptr_t) const { return get() == nullptr; }
};

/// How a node's GPUs attach to the host over PCIe (hardware.pcie_topology): it decides
/// where the traffic of GPUs without peer-to-peer, staged through host memory, is bounded.
enum class PcieTopology {
    Switch,   // all GPUs behind one PCIe switch, sharing its x16 uplink to the CPU
    RootPorts // each GPU on its own x16 CPU root port, GPUs split over the CPU sockets
};
const char *pcieTopologyName(PcieTopology t);

struct HardwareSpec {
    GpuSpec gpu;
    int nodes = 1;
    int gpus_per_node = 1;
    IntraLinkSpec intra;
    InterLinkSpec inter;
    int nics_per_node = 1;
    PcieTopology pcie_topology = PcieTopology::Switch;
    /// Memory bandwidth of one CPU socket (GB/s); 0 = the intra link's platform figure.
    double host_memory_gbps = 0;
    /// Board power cap of each GPU (W, `nvidia-smi -pl`); 0 = the GPU's TDP. Below the power
    /// the dense work draws, the SM clock falls (powerLimitedClockRatio).
    double power_limit_w = 0;
    /// GPUs joined by one NVLink switch fabric (GB200 NVL72: 72 over nodes of 4); 0 = one
    /// node. Traffic inside a domain runs over `intra`, across domains over `inter`.
    int nvlink_domain = 0;
    /// Physical CPU cores per node the input pipeline can use; 0 = the platform's
    /// (defaultCpuCores).
    int cpu_cores = 0;
    std::string calibration_path; // optional calibration profile
    /// The profile loaded from calibration_path (null without one).
    SharedProfile calibration;

    int gpuCount() const { return nodes * gpus_per_node; }
    /// GPUs of one NVLink domain (at least one node).
    int nvlinkDomainGpus() const { return nvlink_domain > 0 ? nvlink_domain : gpus_per_node; }
    /// CPU cores of one node (the scenario's, else the platform's).
    int cpuCores() const;
    /// Host-to-device and device-to-host copy bandwidth of each GPU per direction (GB/s): the
    /// GPU's own host link (gpu.host_link_gbps, NVLink-C2C), else its x16 PCIe slot at 85%
    /// (pinned cudaMemcpy; CUDA samples bandwidthTest, NVIDIA nvbandwidth on A100 and H100):
    /// the node's link where GPUs sit on PCIe, else the slot of the GPU family's generation
    /// (links.json's pcie3 / pcie4 / pcie5 line rates, 15.75 / 31.5 / 63 GB/s).
    double hostLinkGbps() const;
    /// The cluster as its communication sees it: an NVLink domain of several nodes is one
    /// "node" whose GPUs reach each other over `intra` and share the domain's NICs (GB200
    /// NVL72: 18 trays of 4 GPUs, 72 GPUs on one NVLink switch fabric). Without a larger
    /// domain, the hardware as it is.
    HardwareSpec communicationView() const;

    bool operator==(const HardwareSpec &) const = default;
};

/// The server platform's physical CPU cores per node for a GPU family (documented in
/// docs/scenario.md under hardware.cpu_cores).
int defaultCpuCores(const GpuSpec &gpu);

/// Sustained SM clock under dense GEMMs at a board power cap, as a fraction of the clock at
/// the GPU's TDP (1 when the cap is at or above TDP, or the GPU states no TDP).
double powerLimitedClockRatio(const GpuSpec &gpu, double power_limit_w);

/// The lowest board power cap a scenario may set, as a share of the TDP (nvidia-smi -pl
/// accepts down to about 30% of the default limit on A100 and H100 boards).
inline constexpr double kPowerLimitMinShare = 0.3;
/// The lowest cap `gpu` takes, in whole watts (0 without a TDP).
double lowestPowerLimit(const GpuSpec &gpu);
/// Whether `power_limit_w` (> 0) is a cap `gpu` takes: lowestPowerLimit up to the TDP.
bool powerLimitFits(const GpuSpec &gpu, double power_limit_w);
/// Puts `gpu` into `hw`. A power cap is a setting of one board: it stays where the new GPU
/// takes it and is dropped (no cap, the TDP) where it does not; returns whether it was.
bool replaceGpu(HardwareSpec &hw, const GpuSpec &gpu);

/// A GPU name as every use reads it (the calibration mismatch, the catalog match, the GUI):
/// NVML's names (nvmlDeviceGetName: "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB",
/// "Tesla T4", "NVIDIA RTX 6000 Ada Generation"), rocm-smi's ("AMD Instinct MI300X") and the
/// catalog's.
struct GpuNameReading {
    /// The model: the first word with a digit that is no memory size ("80gb"), memory type
    /// ("hbm3") or form factor ("sxm4"), joined with the variant words after it ("ti",
    /// "super", "d", "ada", "blackwell", "laptop"): "h100", "l4", "4060ti", "4090d",
    /// "6000ada", "mi300x". A bare number needs three or four digits ("4090"), a one-digit
    /// model ("l4", "t4", "a2") a brand word before it ("NVIDIA L4"), so a lab GPU's "gpu 1"
    /// or "v2" names no model. Empty when the name has none.
    std::string chip;
    /// Form factor words: "pcie", "nvl", "sxm", "sxm4" (NVML names a PCIe or NVL part so, an
    /// SXM part often not at all).
    std::vector<std::string> form_factors;
};
GpuNameReading readGpuName(const std::string &name);
/// readGpuName(name).chip.
std::string gpuChip(const std::string &name);
/// Whether two GPU names name different chips; false when either name has none to read (a
/// trace or a profile that names no GPU cannot be said to be another).
bool differentGpuChips(const std::string &a, const std::string &b);
/// The GPU a calibration profile was measured on when it is another model than `hw.gpu`
/// (its figures must not replace this GPU's), else empty.
std::string calibrationGpuMismatch(const HardwareSpec &hw);

} // namespace scalescope
