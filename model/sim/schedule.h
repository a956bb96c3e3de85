// Pipeline schedules: the program order of forward and backward passes on each stage.
#pragma once

#include "plan/scenario.h"

#include <cstdint>
#include <vector>

namespace scalescope
{

struct PipelineOp {
    /// A forward pass, a whole backward pass, or one of the two halves of a split backward
    /// (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024, Sec. 2): B, the input
    /// gradient the previous stage waits for, and W, the weight gradient no one waits for.
    enum class Kind : uint8_t { Forward, Backward, InputGrad, WeightGrad };
    Kind kind = Kind::Forward;
    int32_t micro_batch = 0;
    int32_t chunk = 0; // model chunk on this stage (interleaved, zb-v; dualpipe: direction)

    bool forward() const { return kind == Kind::Forward; }
    /// The pass that sends a gradient to the previous virtual stage (Backward or B).
    bool carriesGradient() const { return kind == Kind::Backward || kind == Kind::InputGrad; }
};

/// One model chunk's forward, input-gradient and weight-gradient time per micro-batch
/// (relative values suffice): what zb-v's order is list-scheduled with.
struct PassCosts {
    double forward = 1, input_grad = 1, weight_grad = 1;
};

/// Program order of stage `stage` (0-based) of `stages` for `micro_batches` micro-batches and
/// `chunks` model chunks per stage. Micro-batch ids are the step's (0 .. micro_batches - 1).
/// - GPipe: all forwards, then all backwards (Huang et al. 2019).
/// - 1F1B: warm-up of (stages - stage - 1) forwards, then one forward / one backward,
///   then the remaining backwards (PipeDream-Flush, Narayanan et al. 2021, Fig. 4 top).
/// - Interleaved: Megatron-LM's interleaved 1F1B over virtual stages (SC21 Sec. 2.2.2,
///   Fig. 4 bottom): micro-batches in groups of `stages` per chunk, warm-up
///   (stages - stage - 1) * 2 + (chunks - 1) * stages.
/// - zb-h1: 1F1B with the backward split into B and W, stage s running its W passes s
///   micro-batches late so that they fill the cool-down (Qi et al. 2024, Sec. 3, Fig. 3 top):
///   bubble (p-1)(F+B-W) against 1F1B's (p-1)(F+B+W), 1F1B's peak memory.
/// - zb-v: two chunks per stage in a V (stage_layout.h), list-scheduled with `costs`
///   (zero-bubble repo, zbv.py: B first, then F while memory allows, W to fill the gaps).
/// - dualpipe: DeepSeek's bidirectional order (deepseek-ai/DualPipe, DualPipe.step(): its
///   eight phases), chunk c = direction c.
std::vector<PipelineOp> pipelineOrder(Schedule schedule, int stages, int stage,
                                      int64_t micro_batches, int chunks,
                                      const PassCosts &costs = {});
/// Every stage's order at once (zb-v's is one list schedule over all stages).
std::vector<std::vector<PipelineOp>> pipelineOrders(Schedule schedule, int stages,
                                                    int64_t micro_batches, int chunks,
                                                    const PassCosts &costs = {});

/// The step's length when every stage runs `orders` with `costs` per chunk pass (a whole
/// backward B + W) under the pipeline's dependencies, sends free; -1 where they deadlock.
double pipelineSpan(Schedule schedule, int stages, int64_t micro_batches, int chunks,
                    const PassCosts &costs, const std::vector<std::vector<PipelineOp>> &orders);

/// Peak number of micro-batch forward passes (per model chunk) whose backward is pending on
/// `stage`: what the schedule keeps in memory. Where the backward is split, B frees half of
/// a forward's activations and W the rest (the zero-bubble repo's V scheduler counts F +2,
/// B -1, W -1; Qi et al. 2024, Table 1: W needs only the inputs of the linear layers), so
/// the count can end in a half.
double peakInFlight(Schedule schedule, int stages, int stage, int64_t micro_batches, int chunks);

} // namespace scalescope
