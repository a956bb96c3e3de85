// JSON form of GPUs, links and models, shared by catalog files and scenario files
// (internal to model/io). Catalog entries carry "id" and a required "source"; inline
// objects in a scenario have no "id" and default what a catalog entry must state.
#pragma once

#include "hardware/framework.h"
#include "hardware/hardware.h"
#include "io/json_util.h"
#include "workload/workload.h"

namespace scalescope::json
{

enum class Origin { Catalog, Scenario };

const char *linkKindName(LinkKind kind);

/// One CPU socket's DRAM bandwidth in GB/s (an intra-node link's `host_memory_gbps`, the
/// scenario's `hardware.host_memory_gbps`): from a 4-channel DDR4 desktop (~40) to 12-channel
/// DDR5 and HBM server parts (~1,000); 0 = not stated.
constexpr RealRange kHostMemoryRange = RealRange::closed(0, 5000);

GpuSpec readGpu(const ObjectReader &reader, Origin origin);
IntraLinkSpec readIntraLink(const ObjectReader &reader, Origin origin);
InterLinkSpec readInterLink(const ObjectReader &reader, Origin origin);
/// A catalog model entry, or an inline scenario model: exactly one of "transformer",
/// "custom" or "layers" (a per-layer table).
ModelSpec readModel(const ObjectReader &reader, Origin origin);

/// A framework (software stack) entry of the catalog (frameworks.json).
FrameworkSpec readFramework(const ObjectReader &reader, Origin origin);

// Inline (scenario) form; readX(writeX(spec), Origin::Scenario) gives spec back, id aside.
OrderedObject writeGpu(const GpuSpec &gpu);
OrderedObject writeIntraLink(const IntraLinkSpec &link);
OrderedObject writeInterLink(const InterLinkSpec &link);
OrderedObject writeModel(const ModelSpec &model);

} // namespace scalescope::json
