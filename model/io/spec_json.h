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

GpuSpec readGpu(const ObjectReader &reader, Origin origin);
IntraLinkSpec readIntraLink(const ObjectReader &reader, Origin origin);
InterLinkSpec readInterLink(const ObjectReader &reader, Origin origin);
/// A catalog model entry, or an inline scenario model: exactly one of "transformer",
/// "custom" or "layers" (a per-layer table).
ModelSpec readModel(const ObjectReader &reader, Origin origin);

/// A framework (software stack) entry of the catalog (frameworks.json).
FrameworkSpec readFramework(const ObjectReader &reader, Origin origin);

/// The keys a writer gives: those whose value is not the reader's default (a scenario's
/// inline object), or every key the reader reads that the value can state (the catalog
/// listing, catalog_io.h catalogListing: an entry pasted inline is the entry, not the
/// reader's defaults; a count the reader bounds below by 1, such as sm_count, is left out
/// where it is 0, "not stated").
enum class Keys { NonDefault, Every };

// Inline (scenario) form; readX(writeX(spec), Origin::Scenario) gives spec back, id aside.
OrderedObject writeGpu(const GpuSpec &gpu, Keys keys = Keys::NonDefault);
OrderedObject writeIntraLink(const IntraLinkSpec &link, Keys keys = Keys::NonDefault);
OrderedObject writeInterLink(const InterLinkSpec &link, Keys keys = Keys::NonDefault);
OrderedObject writeModel(const ModelSpec &model, Keys keys = Keys::NonDefault);
/// Every key of a framework entry, id aside: readFramework(writeFramework(f) + id,
/// Origin::Catalog) gives f back.
OrderedObject writeFramework(const FrameworkSpec &framework);

} // namespace scalescope::json
