#include "sim/schedule.h"

#include "layers/stage_layout.h"

#include <algorithm>
#include <cassert>
#include <deque>
#include <limits>

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
    op.kind = forward ? PipelineOp::Kind::Forward : PipelineOp::Kind::Backward;
    const int64_t group = k / (static_cast<int64_t>(stages) * chunks);
    const int64_t in_group = k % (static_cast<int64_t>(stages) * chunks);
    int chunk = static_cast<int>(in_group / stages);
    if (!forward)
        chunk = chunks - 1 - chunk;
    op.chunk = chunk;
    op.micro_batch = static_cast<int32_t>(group * stages + in_group % stages);
    return op;
}

PipelineOp makeOp(PipelineOp::Kind kind, int64_t micro_batch, int chunk = 0)
{
    PipelineOp op;
    op.kind = kind;
    op.micro_batch = static_cast<int32_t>(micro_batch);
    op.chunk = chunk;
    return op;
}

// ZB-H1 (Qi et al., ICLR 2024, Sec. 3, Fig. 3 top): 1F1B's warm-up (stages - stage
// forwards before the first backward, so 1F1B's activations), B in place of the whole
// backward, and stage s's W passes s micro-batches behind its B passes: the later stages'
// B passes start earlier, and the W passes held back fill the cool-down.
std::vector<PipelineOp> zbH1Order(int stages, int stage, int64_t m)
{
    using K = PipelineOp::Kind;
    std::vector<PipelineOp> order;
    order.reserve(static_cast<size_t>(3 * m));
    int64_t f = 0, w = 0;
    for (; f < std::min<int64_t>(stages - stage, m); ++f)
        order.push_back(makeOp(K::Forward, f));
    for (int64_t b = 0; b < m; ++b) {
        order.push_back(makeOp(K::InputGrad, b));
        if (b >= stage)
            order.push_back(makeOp(K::WeightGrad, w++));
        if (f < m)
            order.push_back(makeOp(K::Forward, f++));
    }
    while (w < m)
        order.push_back(makeOp(K::WeightGrad, w++));
    return order;
}

// DualPipe's order on rank `rank` (deepseek-ai/DualPipe, DualPipe.step(), its eight
// phases; DeepSeek-V3 report, Sec. 3.2.1, Fig. 5). Phase 0 is the direction entering at
// rank 0 on the first half of the ranks and the other one on the second half; a backward
// "with zero bubble" is a B whose W is queued (first in, first out) for a later W slot,
// the others are whole backwards. The overlapped forward-and-backward pairs run here as
// the forward, then the backward (one compute stream; the all-to-all they hide is in the
// step description).
std::vector<PipelineOp> dualPipeOrder(int stages, int rank, int64_t m)
{
    using K = PipelineOp::Kind;
    assert(stages % 2 == 0 && m % 2 == 0 && m >= 2 * stages); // plan/rules.cpp
    const int half = stages / 2;
    const int half_rank = std::min(rank, stages - 1 - rank);
    const int64_t per_direction = m / 2;
    const int second_half = rank >= half ? 1 : 0;
    int64_t forwards[2] = {0, 0}, backwards[2] = {0, 0};
    std::deque<PipelineOp> weights;
    std::vector<PipelineOp> order;
    order.reserve(static_cast<size_t>(3 * m));
    const auto forward = [&](int phase) {
        const int d = phase ^ second_half;
        order.push_back(makeOp(K::Forward, d * per_direction + forwards[d]++, d));
    };
    const auto backward = [&](int phase, bool zero_bubble) {
        const int d = phase ^ second_half;
        const int64_t mb = d * per_direction + backwards[d]++;
        order.push_back(makeOp(zero_bubble ? K::InputGrad : K::Backward, mb, d));
        if (zero_bubble)
            weights.push_back(makeOp(K::WeightGrad, mb, d));
    };
    const auto weight = [&] {
        assert(!weights.empty());
        order.push_back(weights.front());
        weights.pop_front();
    };
    const int64_t outer = half - half_rank - 1;
    for (int64_t i = 0; i < 2 * outer; ++i) // 1: nF0
        forward(0);
    for (int i = 0; i <= half_rank; ++i) { // 2: nF0F1
        forward(0);
        forward(1);
    }
    for (int64_t i = 0; i < outer; ++i) { // 3: nB1W1F1
        backward(1, true);
        weight();
        forward(1);
    }
    for (int64_t i = 0; i < per_direction - stages + half_rank + 1; ++i) { // 4: nF0B1F1B0
        forward(0);
        backward(1, false);
        forward(1);
        backward(0, false);
    }
    for (int64_t i = 0; i < outer; ++i) { // 5: nB1F1B0
        backward(1, false);
        forward(1);
        backward(0, false);
    }
    const int n6 = half_rank + 1; // 6: nB1B0, the second half of them split
    bool zero_bubble = false;
    for (int i = 0; i < n6; ++i) {
        if (i == n6 / 2 && half_rank % 2 == 1)
            zero_bubble = true;
        backward(1, zero_bubble);
        if (i == n6 / 2 && half_rank % 2 == 0)
            zero_bubble = true;
        backward(0, zero_bubble);
    }
    for (int64_t i = 0; i < outer; ++i) { // 7: nWB0
        weight();
        backward(0, true);
    }
    while (!weights.empty()) // 8: nW (half_rank + 1 of them)
        weight();
    return order;
}

// ZB-V as the zero-bubble repo builds it (zbv.py, PipelineGraph.try_v_schedule; Qi et al.
// 2024, "Pipeline Parallelism with Controllable Memory", Sec. 3 V-ZB): a list schedule of
// every stage at given costs. An idle stage runs the oldest ready B (the later virtual
// stage first), else the oldest ready forward if its activations fit 1F1B's peak
// (2 * stages chunk forwards; F +2, B -1, W -1 in half units), else a deferred W.
std::vector<std::vector<PipelineOp>> zbVListSchedule(int stages, int64_t m, const PassCosts &c)
{
    using K = PipelineOp::Kind;
    const PipelineLayout layout = pipelineLayout(Schedule::ZbV, stages, 2, m);
    const int V = layout.virtualStages();
    const double cost[3] = {std::max(0.0, c.forward), std::max(0.0, c.input_grad),
                            std::max(0.0, c.weight_grad)};
    const int64_t max_memory = 4 * static_cast<int64_t>(stages);
    constexpr double kUnset = -1;
    std::vector<double> f_end(static_cast<size_t>(V * m), kUnset);
    std::vector<double> b_end(static_cast<size_t>(V * m), kUnset);
    const auto at = [m](int v, int64_t mb) { return static_cast<size_t>(v * m + mb); };
    struct StageState {
        double free = 0;
        int64_t memory = 0;
        int64_t next_f[2] = {0, 0}, next_b[2] = {0, 0};
        std::deque<PipelineOp> weights;
    };
    std::vector<StageState> st(static_cast<size_t>(stages));
    std::vector<std::vector<PipelineOp>> orders(static_cast<size_t>(stages));
    int64_t left = 3 * 2 * m * stages;
    double t = 0;
    // Ends reached along different sums of the same costs differ in the last bits: equal
    // within a billionth of a micro-batch's passes.
    const double eps = 1e-9 * (cost[0] + cost[1] + cost[2]);
    const auto done = [&](double end) { return end >= 0 && end <= t + eps; };
    bool relax_memory = false; // never needed in practice: a guard against a stall
    while (left > 0) {
        bool progressed = false;
        for (int s = 0; s < stages; ++s) {
            StageState &x = st[static_cast<size_t>(s)];
            if (x.free > t + eps)
                continue;
            // Candidates: the oldest micro-batch, then the later virtual stage.
            int pick_kind = -1, pick_chunk = -1;
            int64_t pick_mb = std::numeric_limits<int64_t>::max();
            int pick_v = -1;
            const auto consider = [&](int kind, int chunk, int v, int64_t mb) {
                if (mb < pick_mb || (mb == pick_mb && v > pick_v)) {
                    pick_kind = kind;
                    pick_chunk = chunk;
                    pick_mb = mb;
                    pick_v = v;
                }
            };
            for (int chunk = 0; chunk < 2; ++chunk) {
                const int v = layout.virtualStage(s, chunk);
                const int64_t mb = x.next_b[chunk];
                if (mb < m && done(f_end[at(v, mb)]) && (v == V - 1 || done(b_end[at(v + 1, mb)])))
                    consider(1, chunk, v, mb);
            }
            if (pick_kind < 0 && (x.memory + 2 <= max_memory || relax_memory)) {
                for (int chunk = 0; chunk < 2; ++chunk) {
                    const int v = layout.virtualStage(s, chunk);
                    const int64_t mb = x.next_f[chunk];
                    if (mb < m && (v == 0 || done(f_end[at(v - 1, mb)])))
                        consider(0, chunk, v, mb);
                }
            }
            double end = std::max(t, x.free);
            if (pick_kind == 0) {
                end += cost[0];
                f_end[at(pick_v, pick_mb)] = end;
                ++x.next_f[pick_chunk];
                x.memory += 2;
                orders[static_cast<size_t>(s)].push_back(makeOp(K::Forward, pick_mb, pick_chunk));
            } else if (pick_kind == 1) {
                end += cost[1];
                b_end[at(pick_v, pick_mb)] = end;
                ++x.next_b[pick_chunk];
                x.memory -= 1;
                orders[static_cast<size_t>(s)].push_back(makeOp(K::InputGrad, pick_mb, pick_chunk));
                x.weights.push_back(makeOp(K::WeightGrad, pick_mb, pick_chunk));
            } else if (!x.weights.empty()) {
                end += cost[2];
                x.memory -= 1;
                orders[static_cast<size_t>(s)].push_back(x.weights.front());
                x.weights.pop_front();
            } else {
                continue;
            }
            x.free = end;
            --left;
            progressed = true;
        }
        if (progressed)
            continue; // zero-length passes end now: look again at the same moment
        double next = std::numeric_limits<double>::infinity();
        for (const StageState &x : st)
            if (x.free > t + eps)
                next = std::min(next, x.free);
        if (next == std::numeric_limits<double>::infinity())
            relax_memory = true;
        else
            t = next;
    }
    return orders;
}

// zbv.py keeps the shortest of several greedy runs (create_schedule); here the list
// schedule at the chunks' own costs and at equal costs (the order of the paper's figures),
// each replayed at the own costs: near-equal costs can tip the greedy at their own values.
std::vector<std::vector<PipelineOp>> zbVOrders(int stages, int64_t m, const PassCosts &c)
{
    auto own = zbVListSchedule(stages, m, c);
    auto even = zbVListSchedule(stages, m, PassCosts{});
    const double a = pipelineSpan(Schedule::ZbV, stages, m, 2, c, own);
    const double b = pipelineSpan(Schedule::ZbV, stages, m, 2, c, even);
    return b >= 0 && (a < 0 || b < a) ? even : own;
}

} // namespace

double pipelineSpan(Schedule schedule, int stages, int64_t m, int chunks, const PassCosts &c,
                    const std::vector<std::vector<PipelineOp>> &orders)
{
    using K = PipelineOp::Kind;
    const PipelineLayout layout = pipelineLayout(schedule, stages, chunks, m);
    const auto at = [m](int v, int64_t mb) { return static_cast<size_t>(v * m + mb); };
    std::vector<double> f_end(static_cast<size_t>(layout.virtualStages() * m), -1);
    std::vector<double> b_end(f_end.size(), -1);
    std::vector<size_t> next(static_cast<size_t>(stages), 0);
    std::vector<double> free(static_cast<size_t>(stages), 0);
    size_t left = 0;
    for (const auto &o : orders)
        left += o.size();
    while (left > 0) {
        bool moved = false;
        for (int s = 0; s < stages; ++s) {
            const auto &order = orders[static_cast<size_t>(s)];
            size_t &k = next[static_cast<size_t>(s)];
            for (; k < order.size(); ++k, --left, moved = true) {
                const PipelineOp &op = order[k];
                const int v = layout.virtualStage(s, op.chunk);
                const int64_t mb = op.micro_batch;
                // What the pass waits for besides its GPU: the forward before it, or its
                // own forward and the gradient from the virtual stage after it, or its B.
                const double need =
                    op.kind == K::Forward ? (v > layout.firstOf(mb) ? f_end[at(v - 1, mb)] : 0.0)
                    : op.kind == K::WeightGrad ? b_end[at(v, mb)]
                    : v < layout.lastOf(mb) ? std::min(f_end[at(v, mb)], b_end[at(v + 1, mb)]) < 0
                                                  ? -1.0
                                                  : b_end[at(v + 1, mb)]
                                            : f_end[at(v, mb)];
                if (need < 0)
                    break;
                const double dur = op.kind == K::Forward      ? c.forward
                                   : op.kind == K::InputGrad  ? c.input_grad
                                   : op.kind == K::WeightGrad ? c.weight_grad
                                                              : c.input_grad + c.weight_grad;
                double &free_s = free[static_cast<size_t>(s)];
                free_s = std::max(free_s, need) + dur;
                if (op.kind == K::Forward)
                    f_end[at(v, mb)] = free_s;
                else if (op.kind != K::WeightGrad)
                    b_end[at(v, mb)] = free_s;
            }
        }
        if (!moved)
            return -1;
    }
    return *std::max_element(free.begin(), free.end());
}

std::vector<std::vector<PipelineOp>> pipelineOrders(Schedule schedule, int stages,
                                                    int64_t micro_batches, int chunks,
                                                    const PassCosts &costs)
{
    if (schedule == Schedule::ZbV && stages > 1)
        return zbVOrders(stages, micro_batches, costs);
    std::vector<std::vector<PipelineOp>> orders;
    orders.reserve(static_cast<size_t>(stages));
    for (int s = 0; s < stages; ++s)
        orders.push_back(pipelineOrder(schedule, stages, s, micro_batches, chunks, costs));
    return orders;
}

double peakInFlight(Schedule schedule, int stages, int stage, int64_t micro_batches, int chunks)
{
    // Forward passes whose backward is still pending, per chunk: the schedules' warm-up
    // depth plus the one in flight during the steady phase (sim/schedule.cpp; tested
    // against a replay of the order).
    if (stages <= 1 && chunks <= 1)
        return 1;
    const int64_t total = micro_batches * chunks;
    if (schedule == Schedule::GPipe && chunks <= 1)
        return static_cast<double>(micro_batches);
    if (schedule == Schedule::ZbV)
        // The list schedule's bound, 1F1B's peak in chunk forwards (Qi et al. 2024: V-ZB
        // keeps 1F1B's activation memory); tst_engine replays the order against it.
        return static_cast<double>(std::min<int64_t>(2 * static_cast<int64_t>(stages), total));
    if (schedule == Schedule::ZbH1 || schedule == Schedule::DualPipe) {
        // Replayed: F +1, B -1/2, W -1/2, a whole backward -1.
        double live = 0, peak = 0;
        for (const PipelineOp &op : pipelineOrder(schedule, stages, stage, micro_batches, chunks)) {
            live += op.kind == PipelineOp::Kind::Forward    ? 1.0
                    : op.kind == PipelineOp::Kind::Backward ? -1.0
                                                            : -0.5;
            peak = std::max(peak, live);
        }
        return peak;
    }
    if (chunks <= 1)
        return static_cast<double>(std::min<int64_t>(stages - stage, micro_batches));
    const int64_t warmup =
        static_cast<int64_t>(stages - stage - 1) * 2 + static_cast<int64_t>(chunks - 1) * stages;
    return static_cast<double>(std::min(total, warmup + 1));
}

std::vector<PipelineOp> pipelineOrder(Schedule schedule, int stages, int stage,
                                      int64_t micro_batches, int chunks, const PassCosts &costs)
{
    std::vector<PipelineOp> order;
    const int64_t m = micro_batches;
    if (stages <= 1 && chunks <= 1) {
        // No pipeline: each micro-batch's forward is followed by its backward (gradient
        // accumulation).
        order.reserve(static_cast<size_t>(2 * m));
        for (int64_t i = 0; i < m; ++i) {
            order.push_back(makeOp(PipelineOp::Kind::Forward, i));
            order.push_back(makeOp(PipelineOp::Kind::Backward, i));
        }
        return order;
    }
    if (schedule == Schedule::ZbH1 && chunks <= 1)
        return zbH1Order(stages, stage, m);
    if (schedule == Schedule::DualPipe)
        return dualPipeOrder(stages, stage, m);
    if (schedule == Schedule::ZbV)
        return zbVOrders(stages, m, costs)[static_cast<size_t>(stage)];
    if (schedule == Schedule::GPipe && chunks <= 1) {
        order.reserve(static_cast<size_t>(2 * m));
        for (int64_t i = 0; i < m; ++i)
            order.push_back(makeOp(PipelineOp::Kind::Forward, i));
        for (int64_t i = 0; i < m; ++i)
            order.push_back(makeOp(PipelineOp::Kind::Backward, i));
        return order;
    }
    if (chunks <= 1) {
        const int64_t warmup = std::min<int64_t>(stages - stage - 1, m);
        order.reserve(static_cast<size_t>(2 * m));
        int64_t next_f = 0, next_b = 0;
        for (; next_f < warmup; ++next_f)
            order.push_back(makeOp(PipelineOp::Kind::Forward, next_f));
        while (next_f < m) {
            order.push_back(makeOp(PipelineOp::Kind::Forward, next_f++));
            order.push_back(makeOp(PipelineOp::Kind::Backward, next_b++));
        }
        while (next_b < m)
            order.push_back(makeOp(PipelineOp::Kind::Backward, next_b++));
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
