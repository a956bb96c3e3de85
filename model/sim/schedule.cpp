#include "sim/schedule.h"

#include <algorithm>

namespace scalescope
{

namespace
{

// Megatron-LM schedules.py, get_model_chunk_id: the k-th forward (or backward) of a stage
// works on chunk (k / stages) % chunks (reversed for backward), micro-batch
// (k / (stages * chunks)) * stages + k % stages.
PipelineOp interleavedOp(int64_t k, int stages, int chunks, bool forward)
{
    PipelineOp op;
    op.forward = forward;
    const int64_t group = k / (static_cast<int64_t>(stages) * chunks);
    const int64_t in_group = k % (static_cast<int64_t>(stages) * chunks);
    int chunk = static_cast<int>(in_group / stages);
    if (!forward)
        chunk = chunks - 1 - chunk;
    op.chunk = chunk;
    op.micro_batch = static_cast<int32_t>(group * stages + in_group % stages);
    return op;
}

} // namespace

std::vector<PipelineOp> pipelineOrder(Schedule schedule, int stages, int stage,
                                      int64_t micro_batches, int chunks)
{
    std::vector<PipelineOp> order;
    const int64_t m = micro_batches;
    if (stages <= 1 && chunks <= 1) {
        // No pipeline: each micro-batch's forward is followed by its backward (gradient
        // accumulation).
        order.reserve(static_cast<size_t>(2 * m));
        for (int64_t i = 0; i < m; ++i) {
            order.push_back({true, static_cast<int32_t>(i), 0});
            order.push_back({false, static_cast<int32_t>(i), 0});
        }
        return order;
    }
    if (schedule == Schedule::GPipe && chunks <= 1) {
        order.reserve(static_cast<size_t>(2 * m));
        for (int64_t i = 0; i < m; ++i)
            order.push_back({true, static_cast<int32_t>(i), 0});
        for (int64_t i = 0; i < m; ++i)
            order.push_back({false, static_cast<int32_t>(i), 0});
        return order;
    }
    if (chunks <= 1) {
        const int64_t warmup = std::min<int64_t>(stages - stage - 1, m);
        order.reserve(static_cast<size_t>(2 * m));
        int64_t next_f = 0, next_b = 0;
        for (; next_f < warmup; ++next_f)
            order.push_back({true, static_cast<int32_t>(next_f), 0});
        while (next_f < m) {
            order.push_back({true, static_cast<int32_t>(next_f++), 0});
            order.push_back({false, static_cast<int32_t>(next_b++), 0});
        }
        while (next_b < m)
            order.push_back({false, static_cast<int32_t>(next_b++), 0});
        return order;
    }
    // Interleaved 1F1B.
    const int64_t total = m * chunks;
    const int64_t warmup = std::min<int64_t>(static_cast<int64_t>(stages - stage - 1) * 2 +
                                                 static_cast<int64_t>(chunks - 1) * stages,
                                             total);
    order.reserve(static_cast<size_t>(2 * total));
    int64_t f = 0, b = 0;
    for (; f < warmup; ++f)
        order.push_back(interleavedOp(f, stages, chunks, true));
    while (f < total) {
        order.push_back(interleavedOp(f++, stages, chunks, true));
        order.push_back(interleavedOp(b++, stages, chunks, false));
    }
    while (b < total)
        order.push_back(interleavedOp(b++, stages, chunks, false));
    return order;
}

} // namespace scalescope
