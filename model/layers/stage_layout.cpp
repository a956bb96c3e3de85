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
    // Megatron-Core's account-for-embedding/loss split: the embedding and the loss are one
    // pipeline layer each, so the first and last virtual stages take one block fewer
    // (transformer_block.py, get_num_layers_to_build).
    const int lead = w.counts_embedding ? 1 : 0;
    const int units = w.block_count + lead + (w.counts_loss ? 1 : 0);
    const int base = units / vstages;
    const int extra = units % vstages;
    const auto unitStart = [&](int v) { return v * base + std::min(v, extra); };
    const auto blockAt = [&](int unit) {
        return w.first_block + std::clamp(unit - lead, 0, w.block_count);
    };
    LayerRange r;
    r.begin = blockAt(unitStart(vs));
    r.end = blockAt(unitStart(vs + 1));
    if (vs == 0)
        r.begin = 0;
    if (vs == vstages - 1)
        r.end = static_cast<int>(w.layers.size());
    return r;
}

} // namespace scalescope
