// How the layers of a step are laid out over (virtual) pipeline stages, and how many
// micro-batches a schedule keeps in flight on a stage.
#pragma once

#include "plan/scenario.h"
#include "layers/layer_cost.h"

#include <cstdint>

namespace scalescope
{

/// Layer range [begin, end) of virtual stage `vs` (0 .. pipeline*virtual_stages-1):
/// repeated blocks spread as evenly as possible (the first stages take the remainder),
/// the embedding on the first and the head on the last virtual stage.
struct LayerRange {
    int begin = 0, end = 0;
};
LayerRange virtualStageLayers(const WorkloadCost &w, int virtual_stages_total, int vs);

/// Peak number of micro-batch forward passes (per model chunk) whose backward is pending on
/// `stage`: what the schedule keeps in memory.
int64_t peakInFlight(Schedule schedule, int stages, int stage, int64_t micro_batches, int chunks);

} // namespace scalescope
