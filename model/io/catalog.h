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
};

} // namespace scalescope
