// Pipeline schedules: the program order of forward and backward passes on each stage.
#pragma once

#include "plan/scenario.h"

#include <cstdint>
#include <vector>

namespace scalescope
{

struct PipelineOp {
    bool forward = true;
    int32_t micro_batch = 0;
    int32_t chunk = 0; // model chunk on this stage (interleaved schedule), else 0
};

/// Program order of stage `stage` (0-based) of `stages` for `micro_batches` micro-batches and
/// `chunks` model chunks per stage.
/// - GPipe: all forwards, then all backwards (Huang et al. 2019).
/// - 1F1B: warm-up of (stages - stage - 1) forwards, then one forward / one backward,
///   then the remaining backwards (PipeDream-Flush, Narayanan et al. 2021, Fig. 4 top).
/// - Interleaved: Megatron-LM's interleaved 1F1B over virtual stages (SC21 Sec. 2.2.2,
///   Fig. 4 bottom): micro-batches in groups of `stages` per chunk, warm-up
///   (stages - stage - 1) * 2 + (chunks - 1) * stages.
std::vector<PipelineOp> pipelineOrder(Schedule schedule, int stages, int stage,
                                      int64_t micro_batches, int chunks);

} // namespace scalescope
