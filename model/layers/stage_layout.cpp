#include "layers/stage_layout.h"

#include <algorithm>

namespace scalescope
{

PipelineLayout pipelineLayout(Schedule schedule, int stages, int chunks, int64_t micro_batches)
{
    PipelineLayout l;
    l.schedule = schedule;
    l.stages = std::max(1, stages);
    l.chunks = std::max(1, chunks);
    l.micro_batches = std::max<int64_t>(1, micro_batches);
    return l;
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
