// How the layers of a step are laid out over (virtual) pipeline stages, and where a
// schedule puts its virtual stages.
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

/// Where a schedule's virtual stages sit, and which of them a micro-batch passes. Virtual
/// stage `vs` is chunk vs / stages; its GPU (pipeline stage) is
/// - vs % stages for GPipe, 1F1B and interleaved 1F1B (Narayanan et al. SC21 Sec. 2.2.2);
/// - vs for chunk 0 and 2 stages - 1 - vs for chunk 1 in zb-v's V shape (Qi et al. 2024,
///   "Pipeline Parallelism with Controllable Memory", Sec. 3: the first and the last
///   virtual stage on GPU 0, the turn on GPU stages - 1);
/// - the same for dualpipe, whose chunk c is direction c (DeepSeek-V3 report, Sec. 3.2.1;
///   deepseek-ai/DualPipe: rank r holds stage r of one direction and stage stages - 1 - r
///   of the other). Each direction runs the whole model over `stages` virtual stages, so a
///   micro-batch passes only its direction's half: the first micro_batches / 2 go 0 ..
///   stages - 1 (in at GPU 0), the others stages .. 2 stages - 1 (in at the last GPU).
struct PipelineLayout {
    Schedule schedule = Schedule::OneFOneB;
    int stages = 1; // pipeline GPUs
    int chunks = 1; // model chunks per GPU
    int64_t micro_batches = 1;

    int virtualStages() const { return stages * chunks; }
    bool vShape() const { return schedule == Schedule::ZbV || schedule == Schedule::DualPipe; }
    bool bidirectional() const { return schedule == Schedule::DualPipe; }
    int stageOf(int vs) const
    {
        return vShape() && vs >= stages ? 2 * stages - 1 - vs : vs % stages;
    }
    int chunkOf(int vs) const { return vs / stages; }
    int virtualStage(int stage, int chunk) const
    {
        return vShape() && chunk == 1 ? 2 * stages - 1 - stage : chunk * stages + stage;
    }
    /// How many parts the layers are split into, and the part virtual stage `vs` computes
    /// (dualpipe: both directions run the same `stages` parts).
    int parts() const { return bidirectional() ? stages : virtualStages(); }
    int partOf(int vs) const { return bidirectional() ? vs % stages : vs; }
    /// The first and last virtual stage micro-batch `mb` passes.
    int firstOf(int64_t mb) const
    {
        return bidirectional() && 2 * mb >= micro_batches ? stages : 0;
    }
    int lastOf(int64_t mb) const
    {
        return bidirectional() && 2 * mb < micro_batches ? stages - 1 : virtualStages() - 1;
    }
    bool passes(int vs, int64_t mb) const { return vs >= firstOf(mb) && vs <= lastOf(mb); }
    /// The micro-batches that pass virtual stage `vs`: [first, last].
    int64_t firstMicroBatch(int vs) const
    {
        return bidirectional() && vs >= stages ? micro_batches / 2 : 0;
    }
    int64_t lastMicroBatch(int vs) const
    {
        return bidirectional() && vs < stages ? micro_batches / 2 - 1 : micro_batches - 1;
    }
    /// The share of a step's micro-batches that pass `vs` (dualpipe: each direction half).
    double share(int vs) const
    {
        return static_cast<double>(lastMicroBatch(vs) - firstMicroBatch(vs) + 1) /
               static_cast<double>(micro_batches);
    }
    /// Whether handing a micro-batch from `vs` to `vs + 1` is a pipeline send (the V's turn
    /// stays on one GPU). The other schedules send at every hand-over, as they always did.
    bool sendsAfter(int vs) const { return !vShape() || stageOf(vs) != stageOf(vs + 1); }
};
PipelineLayout pipelineLayout(Schedule schedule, int stages, int chunks, int64_t micro_batches);

} // namespace scalescope
