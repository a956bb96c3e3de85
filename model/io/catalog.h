// Catalogs of GPUs, links and model presets (resources/catalogs/*.json).
#pragma once

#include "hardware/framework.h"
#include "hardware/hardware.h"
#include "workload/workload.h"

#include <string>
#include <vector>

namespace scalescope
{

struct Catalog {
    std::vector<GpuSpec> gpus;
    std::vector<IntraLinkSpec> intra_links;
    std::vector<InterLinkSpec> inter_links;
    std::vector<ModelSpec> models;
    std::vector<FrameworkSpec> frameworks;

    const GpuSpec *findGpu(const std::string &id) const;
    const IntraLinkSpec *findIntra(const std::string &id) const;
    const InterLinkSpec *findInter(const std::string &id) const;
    const ModelSpec *findModel(const std::string &id) const;
    const FrameworkSpec *findFramework(const std::string &id) const;
    /// The GPU a measured name denotes ("NVIDIA H200" -> h200-sxm-141gb; a calibration
    /// profile or an nccl-tests log names its GPU so), or null. Every model token of the
    /// name (a word with a digit: "h200", "4090", "a100", "mi300x") must be in the entry's
    /// name or id; among those, the memory size nearest `memory_bytes` wins, or the largest
    /// when the memory is not known (0).
    const GpuSpec *matchGpuName(const std::string &name, double memory_bytes = 0) const;
};

/// The catalog's frameworks as a scenario holds them (Scenario::stacks).
StackTable stackTableOf(const Catalog &catalog);

} // namespace scalescope
