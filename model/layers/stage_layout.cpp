#include "layers/stage_layout.h"

#include <algorithm>

namespace scalescope
{

int64_t peakInFlight(Schedule schedule, int stages, int stage, int64_t micro_batches, int chunks)
{
    // Forward passes whose backward is still pending, per chunk: the schedules' warm-up
    // depth plus the one in flight during the steady phase (sim/schedule.cpp; tested
    // against a replay of the order).
    if (stages <= 1 && chunks <= 1)
        return 1;
    const int64_t total = micro_batches * chunks;
    if (schedule == Schedule::GPipe && chunks <= 1)
        return micro_batches;
    if (chunks <= 1)
        return std::min<int64_t>(stages - stage, micro_batches);
    const int64_t warmup =
        static_cast<int64_t>(stages - stage - 1) * 2 + static_cast<int64_t>(chunks - 1) * stages;
    return std::min(total, warmup + 1);
}

LayerRange virtualStageLayers(const WorkloadCost &w, int vstages, int vs)
{
    const int blocks = w.block_count;
    const int base = blocks / vstages;
    const int extra = blocks % vstages;
    LayerRange r;
    r.begin = w.first_block + vs * base + std::min(vs, extra);
    r.end = r.begin + base + (vs < extra ? 1 : 0);
    if (vs == 0)
        r.begin = 0;
    if (vs == vstages - 1)
        r.end = static_cast<int>(w.layers.size());
    return r;
}

} // namespace scalescope
