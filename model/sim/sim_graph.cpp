// The task graph of a step: stages and buckets, each unit's tasks, pipeline links, collectives.
#include "sim/simulation_p.h"

#include "layers/stage_layout.h"
#include "plan/numerics.h"
#include "sim/schedule.h"

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace sim_detail
{

std::vector<int> Simulation::membersOf(uint32_t unit) const
{
    std::vector<int> ranks;
    const int stage = static_cast<int>(unit) % plan_.pipeline;
    const int replica = static_cast<int>(unit) / plan_.pipeline;
    if (per_rank_) {
        for (int k = 0; k < plan_.stageWidth(); ++k)
            ranks.push_back(plan_.rankOf(k, replica, stage));
    } else {
        for (int d = 0; d < plan_.data; ++d)
            for (int k = 0; k < plan_.stageWidth(); ++k)
                ranks.push_back(plan_.rankOf(k, d, stage));
    }
    return ranks;
}

TaskId Simulation::addTask(uint32_t unit, Stream s, SegmentKind k, double d, uint32_t label,
                           int32_t mb, int it, bool jitter, double bytes)
{
    const TaskId id = graph_.add(unit, s, k, d, label, mb, static_cast<uint16_t>(it));
    graph_.setBytes(id, bytes);
    // Per-GPU factors of jittered work are drawn for every task at once (drawFactors).
    if (jitter)
        graph_[id].jittered = true;
    if (s != Stream::Loader)
        stream_tasks_[unit * kStreamCount + static_cast<size_t>(s)].push_back(id);
    return id;
}

void Simulation::buildUnit(int replica, int stage)
{
    const auto unit = static_cast<uint32_t>(replica * plan_.pipeline + stage);
    const auto first_task = static_cast<TaskId>(graph_.size());
    const int64_t m = plan_.micro_batches;
    const StepDescription &d = step_;
    const PipelineLayout &layout = d.layout;
    const std::vector<PipelineOp> &order = orders_[static_cast<size_t>(stage)];
    auto dpTask = [&](const StepCollective &c, uint32_t label, int32_t mb, int it) {
        const TaskId id = addTask(unit, Stream::Collective, SegmentKind::DpComm, c.time_s, label,
                                  mb, it, false, c.bytes);
        dp_collectives_[unit].push_back(id);
        return id;
    };
    const uint32_t grad_label = d.grad_op == CollectiveOp::ReduceScatter
                                    ? labelId(LabelKind::GradReduceScatter)
                                    : labelId(LabelKind::GradAllReduce);
    const StepStage &stage_step = d.stages[static_cast<size_t>(stage)];

    TaskId gate = kNoTask;         // what the next iteration's first forward waits for
    TaskId pending_send = kNoTask; // the last pipeline send: blocks the next compute
    TaskId recent_compute[2] = {kNoTask, kNoTask}; // the last two computes (ZeRO-3 prefetch)
    for (int it = 0; it < iterations_; ++it) {
        std::vector<TaskId> grad_comms;
        std::vector<std::pair<const StepCollective *, int>> deferred; // when !overlap
        bool first_op = true;
        for (const PipelineOp &op : order) {
            const int v = layout.virtualStage(stage, op.chunk);
            const StepChunk &st = d.chunks[static_cast<size_t>(v)];
            const int32_t mb = op.micro_batch;
            const size_t idx = tableIndex(replica, it, v, mb);
            TaskId first = kNoTask, last = kNoTask;
            auto compute = [&](double dur, uint32_t label) {
                const TaskId id =
                    addTask(unit, Stream::Compute, SegmentKind::Compute, dur, label, mb, it, true);
                // Megatron-LM's pipeline exchanges are blocking (p2p_communication.py:
                // batched isend/irecv, then wait): a stage computes on only after its
                // previous send has gone out.
                graph_.depend(id, pending_send);
                pending_send = kNoTask;
                if (first == kNoTask)
                    first = id;
                last = id;
                recent_compute[0] = recent_compute[1];
                recent_compute[1] = id;
                return id;
            };
            auto onCompute = [&](double dur, SegmentKind kind, uint32_t label, double bytes) {
                if (dur <= 0)
                    return;
                last = addTask(unit, Stream::Compute, kind, dur, label, mb, it, false, bytes);
            };
            // What follows a piece's compute on the critical path: the wait for the busiest
            // expert, the experts' all-to-alls, the context exchange and the tensor-parallel
            // collectives (one task each, summed over the piece's layers).
            auto after = [&](const Piece &p, bool forward) {
                onCompute(forward ? p.wait_fwd : p.wait_bwd, SegmentKind::Wait,
                          labelId(LabelKind::WaitExpert), 0);
                onCompute(forward ? p.ep_fwd : p.ep_bwd, SegmentKind::EpComm,
                          labelId(forward ? LabelKind::ExpertForward : LabelKind::ExpertBackward),
                          forward ? p.ep_fwd_bytes : p.ep_bwd_bytes);
                onCompute(forward ? p.cp_fwd : p.cp_bwd, SegmentKind::CpComm,
                          labelId(forward ? LabelKind::ContextForward : LabelKind::ContextBackward),
                          forward ? p.cp_fwd_bytes : p.cp_bwd_bytes);
                onCompute(forward ? p.tp_fwd : p.tp_bwd, SegmentKind::TpComm,
                          labelId(forward ? LabelKind::TpForward : LabelKind::TpBackward),
                          forward ? p.tp_fwd_bytes : p.tp_bwd_bytes);
            };
            // A blocking pipeline send of this micro-batch after the work just added.
            auto send = [&](uint32_t label) {
                const TaskId id = addTask(unit, Stream::PointToPoint, SegmentKind::PpComm, d.send_s,
                                          label, mb, it, false, d.send_bytes);
                graph_.depend(id, last);
                pending_send = id;
                return id;
            };
            auto zero3Gather = [&](const StepPiece &piece) {
                // With prefetch, one piece ahead: the gather may start once the compute two
                // pieces back has finished (FSDP forward/backward prefetch, Zhao et al.
                // VLDB'23 Sec. 3.3.3). Without (the stack's zero3_prefetch: DeepSpeed
                // ZeRO-3 as SC21's baseline ran it), a piece is fetched when the compute
                // before it is done, so every gather is on the critical path.
                const TaskId ag = dpTask(piece.gather, labelId(LabelKind::Zero3AllGather), mb, it);
                graph_.depend(ag, recent_compute[d.zero3_prefetch ? 0 : 1]);
                return ag;
            };
            // A gradient reduction after the work just added (with overlap), or after
            // the whole backward pass.
            auto reduceGrad = [&](const StepCollective &grad) {
                if (d.overlap) {
                    const TaskId r = dpTask(grad, grad_label, mb, it);
                    graph_.depend(r, last);
                    grad_comms.push_back(r);
                } else {
                    deferred.emplace_back(&grad, mb);
                }
            };
            const bool recompute = plan_.recompute != Recompute::None;
            if (op.forward()) {
                TaskId load = kNoTask;
                if (v == layout.firstOf(mb) && d.loader_s > 0) {
                    load = graph_.add(
                        unit, Stream::Loader, SegmentKind::DataLoad, loads_free_ ? 0.0 : d.loader_s,
                        labelId(LabelKind::DataLoader), mb, static_cast<uint16_t>(it));
                    load_[(static_cast<size_t>(replica) * iterations_ + it) * m +
                          static_cast<size_t>(mb)] = load;
                    // A loader slot frees when an earlier micro-batch enters the GPU: the
                    // training loop takes it (next() on the DataLoader) as its forward
                    // starts. Before, the slot freed at the end of the micro-batch's first
                    // compute task, which under ZeRO-3 is one piece, not the forward: the
                    // job loaded ahead of a forward that the same job without ZeRO-3 and
                    // its one-GPU reference waited out (efficiency 1.06).
                    // Counted in the loader's own micro-batches: dualpipe loads each
                    // direction at its own end.
                    const int64_t own = layout.lastMicroBatch(v) - layout.firstMicroBatch(v) + 1;
                    const int64_t global = it * own + (mb - layout.firstMicroBatch(v));
                    if (global >= d.loader_depth) {
                        const int64_t back = global - d.loader_depth;
                        graph_.dependOnStart(
                            load, f_first_[tableIndex(replica, static_cast<int>(back / own), v,
                                                      layout.firstMicroBatch(v) + back % own)]);
                    }
                }
                if (d.zero3) {
                    for (const StepPiece &piece : st.pieces) {
                        const TaskId ag = zero3Gather(piece);
                        const TaskId c = compute(piece.fwd, labelId(LabelKind::Forward));
                        graph_.depend(c, ag);
                        after(piece, true);
                    }
                } else {
                    compute(st.total.fwd, labelId(LabelKind::Forward));
                    after(st.total, true);
                }
                graph_.depend(first, load);
                if (first_op)
                    graph_.depend(first, gate);
                f_first_[idx] = first;
                // Linked to the stage before it (linkPipeline): counted now, while hot.
                if (v > layout.firstOf(mb))
                    graph_.expectRelease(first);
                // At the V's turn the next virtual stage is on this GPU: it waits for
                // the forward itself, nothing is sent.
                if (v != layout.lastOf(mb))
                    f_send_[idx] =
                        layout.sendsAfter(v) ? send(labelId(LabelKind::SendActivations)) : last;
            } else if (op.kind == PipelineOp::Kind::WeightGrad) {
                // W: the weight-gradient GEMMs a zero-bubble schedule deferred (Qi et al.,
                // ICLR 2024, Sec. 2); the piece's gradients are complete after it, so its
                // reduction follows it, not the B pass.
                const bool reduce_now = d.data_parallel && (d.reduce_every_micro_batch ||
                                                            mb == layout.lastMicroBatch(v));
                const uint32_t label = labelId(LabelKind::Backward);
                if (d.zero3 || (reduce_now && d.bucketed)) {
                    for (auto piece = st.pieces.rbegin(); piece != st.pieces.rend(); ++piece) {
                        compute(piece->wgrad, label);
                        if (reduce_now)
                            reduceGrad(piece->grad);
                    }
                } else {
                    compute(st.total.wgrad, label);
                    if (reduce_now)
                        reduceGrad(st.pieces.front().grad);
                }
            } else {
                const uint32_t label = recompute ? labelId(LabelKind::RecomputeBackward)
                                                 : labelId(LabelKind::Backward);
                // Gradients are reduced once per step (after the last micro-batch) or
                // every micro-batch (step_description.cpp).
                // B (the input gradient only) leaves the weight gradient and the
                // reduction to its W pass.
                const bool input_only = op.kind == PipelineOp::Kind::InputGrad;
                const bool reduce_now =
                    !input_only && d.data_parallel &&
                    (d.reduce_every_micro_batch || mb == layout.lastMicroBatch(v));
                const bool split = d.zero3 || (reduce_now && d.bucketed);
                auto reduce = [&](const StepCollective &grad) {
                    if (reduce_now)
                        reduceGrad(grad);
                };
                const auto time = [input_only](const Piece &x) {
                    return input_only ? x.bwd - x.wgrad : x.bwd;
                };
                if (split) {
                    // ZeRO-3 gathers the next piece before reducing this one (FSDP
                    // BACKWARD_PRE prefetch), so gathers never queue behind reductions.
                    TaskId next_ag = kNoTask;
                    if (d.zero3)
                        next_ag = zero3Gather(st.pieces.back());
                    for (auto piece = st.pieces.rbegin(); piece != st.pieces.rend(); ++piece) {
                        const TaskId ag = next_ag;
                        const TaskId c = compute(time(*piece), label);
                        graph_.depend(c, ag);
                        after(*piece, false);
                        if (d.zero3 && piece + 1 != st.pieces.rend())
                            next_ag = zero3Gather(*(piece + 1));
                        reduce(piece->grad);
                    }
                } else {
                    compute(time(st.total), label);
                    after(st.total, false);
                    // Unbucketed: the chunk is one piece (packPieces), its gradients one
                    // reduction.
                    reduce(st.pieces.front().grad);
                }
                b_first_[idx] = first;
                if (v < layout.lastOf(mb)) // linked to the stage after it (linkPipeline)
                    graph_.expectRelease(first);
                if (v != layout.firstOf(mb))
                    b_send_[idx] =
                        layout.sendsAfter(v - 1) ? send(labelId(LabelKind::SendGradients)) : last;
            }
            first_op = false;
        }
        // Without overlap, gradients are reduced after the whole backward pass.
        const TaskId backward_end = stream_tasks_[unit * kStreamCount].back();
        for (const auto &[grad, mb] : deferred) {
            const TaskId r = dpTask(*grad, grad_label, mb, it);
            graph_.depend(r, backward_end);
            grad_comms.push_back(r);
        }
        const TaskId opt =
            addTask(unit, Stream::Compute, SegmentKind::Optimizer, stage_step.optimizer_s,
                    labelId(LabelKind::Optimizer), -1, it, true);
        if (d.sync) // the update needs every replica's gradients (synchronous SGD)
            for (TaskId r : grad_comms)
                graph_.depend(opt, r);
        gate = opt;
        if (d.param_gather) {
            // Updated parameter shards are gathered before the next forward pass.
            const TaskId ag =
                dpTask(stage_step.param_gather, labelId(LabelKind::ParamAllGather), -1, it);
            graph_.depend(ag, opt);
            gate = ag;
        }
    }
    unit_tasks_[unit] = {first_task, static_cast<TaskId>(graph_.size())};
}

void Simulation::linkPipeline()
{
    const PipelineLayout &layout = step_.layout;
    for (int r = 0; r < replicas_; ++r)
        for (int it = 0; it < iterations_; ++it)
            for (int v = 0; v < vstages_; ++v)
                for (int64_t mb = layout.firstMicroBatch(v); mb <= layout.lastMicroBatch(v); ++mb) {
                    const size_t idx = tableIndex(r, it, v, mb);
                    const auto unit = static_cast<uint32_t>(r * plan_.pipeline + layout.stageOf(v));
                    // What a virtual stage waits for: the send from the one before it, or
                    // at the V's turn that stage's own last task on this GPU (buildUnit: the
                    // hand-over from `from_vs` is a send where the layout sends after it).
                    // Known from the layout, so the tasks are not read (each read a miss).
                    const auto link = [&](TaskId task, TaskId from, int from_vs) {
                        graph_.dependExpected(task, from); // counted by buildUnit
                        if (layout.sendsAfter(from_vs))
                            recv_tasks_[unit].push_back(from);
                    };
                    if (v > layout.firstOf(mb))
                        link(f_first_[idx], f_send_[tableIndex(r, it, v - 1, mb)], v - 1);
                    if (v < layout.lastOf(mb))
                        link(b_first_[idx], b_send_[tableIndex(r, it, v + 1, mb)], v);
                }
}

void Simulation::groupCollectives()
{
    // Synchronous collectives: the k-th data-parallel collective of stage s is one
    // operation across all replicas and starts when the last of them is ready.
    if (!per_rank_ || replicas_ <= 1)
        return;
    const bool async = plan_.update == UpdateMode::Async;
    std::vector<TaskId> members(static_cast<size_t>(replicas_));
    for (int s = 0; s < plan_.pipeline; ++s) {
        const size_t count = dp_collectives_[static_cast<size_t>(s)].size();
        for (size_t k = 0; k < count; ++k) {
            const Task &t0 = graph_[dp_collectives_[static_cast<size_t>(s)][k]];
            // Asynchronous updates exchange gradients without a barrier.
            if (async && (t0.label == labelId(LabelKind::GradAllReduce) ||
                          t0.label == labelId(LabelKind::GradReduceScatter)))
                continue;
            for (int r = 0; r < replicas_; ++r)
                members[static_cast<size_t>(r)] =
                    dp_collectives_[static_cast<size_t>(r * plan_.pipeline + s)][k];
            graph_.group(members);
        }
    }
}

size_t Simulation::estimateTasks() const
{
    size_t pieces = 1;
    for (const StepChunk &c : step_.chunks)
        pieces = std::max(pieces, c.pieces.size());
    const bool zero3 = step_.zero3;
    const double passes = splitsBackward(plan_.schedule) ? 3.0 : 2.0; // F, B, (W)
    const double ops = passes * static_cast<double>(plan_.micro_batches) * plan_.virtual_stages;
    const double per_op = 3.0 + (zero3 ? 3.0 * static_cast<double>(pieces) : 0.0);
    const double per_unit =
        ops * per_op + 3.0 * static_cast<double>(pieces) * plan_.virtual_stages + 4.0;
    const double total = per_unit * units_ * iterations_;
    return total > 1e18 ? static_cast<size_t>(1e18) : static_cast<size_t>(total);
}

} // namespace sim_detail

namespace
{

/// An MoE layer's dispatch and combine, its wait for the busiest expert, and the context
/// group's attention exchange, added to `cur` (per micro-batch).
void addExpertAndContext(const SimContext &ctx, const LayerCost &l, Piece &cur)
{
    const Plan &P = ctx.plan;
    const bool full = P.recompute == Recompute::Full; // the backward reruns the forward
    cur.wait_fwd += l.expert_wait_fwd;
    cur.wait_bwd += l.expert_wait_bwd + l.expert_wait_recompute;
    if (l.ep_fwd_ops > 0) {
        const double one =
            ctx.comm.expertAllToAllTime(l.ep_tokens, l.ep_top_k, l.ep_token_bytes, P.expertGroup(),
                                        P.dispatcher != ExpertDispatcher::AllToAll,
                                        {l.ep_router_groups, l.ep_group_top_k}) *
            l.ep_busiest;
        const double bytes = l.ep_tokens * l.ep_top_k * l.ep_token_bytes;
        double fwd = l.ep_fwd_ops * one;
        double bwd = (l.ep_bwd_ops + l.ep_recompute_ops) * one;
        cur.ep_fwd_bytes += l.ep_fwd_ops * bytes;
        cur.ep_bwd_bytes += (l.ep_bwd_ops + l.ep_recompute_ops) * bytes;
        if (P.expert_overlap) {
            // Megatron-Core's 1F1B all-to-all overlap and DualPipe run one micro-batch's
            // forward beside another's backward of the same layer, each chunk cut into
            // attention, dispatch, MLP and combine (DeepSeek-V3 report, Sec. 3.2.1, Fig. 4):
            // each all-to-all runs beside one compute component of the other direction, and
            // what outlasts that component stays exposed. Forward dispatch and combine beside
            // the backward's expert and attention parts, the backward's two beside the
            // forward's attention and expert parts. The communication kernels take SMs from
            // the compute they run beside (20 of the H800's 132 SMs, ibid. Sec. 3.2.2).
            const double comm_sm_share = ctx.compute.communicationSmShare();
            const double moe_f = l.moe_fwd_s, moe_b = l.moe_bwd_s;
            const double attn_f = std::max(0.0, l.fwd_s - moe_f);
            const double attn_b = std::max(0.0, l.bwd_s + l.recompute_s - moe_b);
            const double hidden = std::min(0.5 * fwd, moe_b) + std::min(0.5 * fwd, attn_b) +
                                  std::min(0.5 * bwd, attn_f) + std::min(0.5 * bwd, moe_f);
            const double exposed = fwd + bwd - hidden;
            cur.ep_hidden += hidden;
            const double share = fwd + bwd > 0 ? fwd / (fwd + bwd) : 0.5;
            cur.fwd += hidden * comm_sm_share * share;
            cur.bwd += hidden * comm_sm_share * (1.0 - share);
            fwd = exposed * share;
            bwd = exposed * (1.0 - share);
        }
        cur.ep_fwd += fwd;
        cur.ep_bwd += bwd;
    }
    if (l.cp_fwd_steps > 0) {
        const GroupShape g = P.contextGroup();
        if (l.cp_all_gather) {
            // DTensor's ring (layers/layer_cost.cpp): the all-gather runs beside the first
            // block's attention and is waited for before the second; backward, the same, and
            // each block's key and value gradients go to the next rank while the next block
            // runs.
            const double blocks = P.context;
            const double gathered = blocks * l.cp_step_bytes; // the all-gather's output
            const double gather = ctx.comm.cost(CollectiveOp::AllGather, gathered, g).time_s;
            const double grads = ctx.comm.p2pTime(l.cp_grad_step_bytes, g.nodes > 1);
            const double f = std::max(0.0, gather - l.cp_attn_fwd / blocks);
            const double b = std::max(0.0, gather - l.cp_attn_bwd / blocks) +
                             blocks * std::max(0.0, grads - l.cp_attn_bwd / blocks);
            cur.cp_fwd += f;
            cur.cp_bwd += b + (full ? f : 0.0);
            cur.cp_hidden += (full ? 2.0 : 1.0) * (gather - f) + (gather + blocks * grads - b);
            cur.cp_fwd_bytes += gathered;
            cur.cp_bwd_bytes += gathered + blocks * l.cp_grad_step_bytes;
        } else if (P.context_algorithm == ContextAlgorithm::Ring) {
            // Each ring step's transfer overlaps the attention of the block in hand (Liu et
            // al. 2023, Sec. 3.1): exposed where a transfer outlasts a block's compute.
            const double blocks = P.context;
            const double send_f = ctx.comm.p2pTime(l.cp_step_bytes, g.nodes > 1);
            const double send_b = ctx.comm.p2pTime(2.0 * l.cp_step_bytes, g.nodes > 1);
            const double f = l.cp_fwd_steps * std::max(0.0, send_f - l.cp_attn_fwd / blocks);
            const double b = l.cp_bwd_steps * std::max(0.0, send_b - l.cp_attn_bwd / blocks);
            cur.cp_fwd += f;
            cur.cp_bwd += b + (full ? f : 0.0);
            cur.cp_hidden +=
                (full ? 2.0 : 1.0) * (l.cp_fwd_steps * send_f - f) + (l.cp_bwd_steps * send_b - b);
            cur.cp_fwd_bytes += l.cp_fwd_steps * l.cp_step_bytes;
            cur.cp_bwd_bytes += l.cp_bwd_steps * 2.0 * l.cp_step_bytes;
        } else {
            const double one = ctx.comm.cost(CollectiveOp::AllToAll, l.cp_step_bytes, g).time_s;
            cur.cp_fwd += l.cp_fwd_steps * one;
            cur.cp_bwd += (l.cp_bwd_steps + (full ? l.cp_fwd_steps : 0)) * one;
            cur.cp_fwd_bytes += l.cp_fwd_steps * l.cp_step_bytes;
            cur.cp_bwd_bytes += l.cp_bwd_steps * l.cp_step_bytes;
        }
    }
}

} // namespace

std::vector<Piece> packPieces(const SimContext &ctx, LayerRange range, TensorParallelCost &tp)
{
    const WorkloadCost &w = ctx.workload;
    const double bucket = ctx.plan.bucket_bytes;
    const double grad_bytes = ctx.plan.grad_bytes_per_param;
    std::vector<Piece> reversed;
    Piece cur;
    for (int i = range.end - 1; i >= range.begin; --i) {
        const LayerCost &l = w.layers[static_cast<size_t>(i)];
        // Compute is already the max of the host and GPU streams (workload/cost.cpp). The
        // tensor-parallel collectives stay on the critical path even while the host is the
        // bottleneck: a collective starts only once every rank's host has issued it, and
        // the work queued behind it waits (hiding them inside the issue time scored worse
        // on the vtrain measurements: 9.4% against 8.8% MAPE).
        cur.fwd += l.fwd_s;
        cur.bwd += l.bwd_s + l.recompute_s;
        cur.wgrad += std::min(l.wgrad_s, l.bwd_s);
        double tp_fwd = l.tp_fwd_ops * tp(l.tp_bytes);
        double tp_bwd = (l.tp_bwd_ops + l.tp_recompute_ops) * tp(l.tp_bytes);
        const double tp_whole = tp_fwd + tp_bwd;
        if (ctx.plan.tp_overlap) {
            // Collectives decomposed into `tensor` chunks pipelined with the GEMMs that
            // produce or consume them (Wang et al., ASPLOS'23, Sec. 3; Transformer Engine
            // userbuffers, Megatron-Core --tp-comm-overlap): the first chunk stays exposed,
            // the rest only where it outlasts the compute beside it.
            // Each collective hides only behind the GEMM it is pipelined with (Wang et al.,
            // Sec. 3.2: an all-gather with the GEMM consuming it, a reduce-scatter with the
            // one producing it), not behind the attention or elementwise kernels.
            const double k = (ctx.plan.tensor - 1.0) / ctx.plan.tensor;
            const auto exposed = [k](double comm, double compute) {
                return comm * (1.0 - k) + std::max(0.0, k * (comm - compute));
            };
            const auto besideEach = [&](int ops, const double(&beside)[2], double whole) {
                const double one = tp(l.tp_bytes);
                double sum = 0;
                for (int j = 0; j < ops; ++j)
                    sum += beside[j % 2] > 0 ? exposed(one, beside[j % 2])
                                             : exposed(one, whole / std::max(1, ops));
                return sum;
            };
            tp_fwd = besideEach(l.tp_fwd_ops, l.tp_beside_fwd, l.fwd_s);
            if (l.tp_overlap_backward) // else the stack overlaps the forward pass only
                tp_bwd = besideEach(l.tp_bwd_ops, l.tp_beside_bwd, l.bwd_s) +
                         besideEach(l.tp_recompute_ops, l.tp_beside_fwd, l.recompute_s);
        }
        cur.tp_hidden += std::max(0.0, tp_whole - tp_fwd - tp_bwd);
        cur.tp_fwd += tp_fwd;
        cur.tp_bwd += tp_bwd;
        cur.tp_fwd_bytes += l.tp_fwd_ops * l.tp_bytes;
        cur.tp_bwd_bytes += (l.tp_bwd_ops + l.tp_recompute_ops) * l.tp_bytes;
        cur.params += l.params;
        cur.expert_params += l.expert_params;
        cur.param_modules += l.param_modules;
        cur.param_tensors += l.param_tensors;
        addExpertAndContext(ctx, l, cur);
        if (bucket > 0 && cur.params * grad_bytes >= bucket) {
            reversed.push_back(cur);
            cur = Piece{};
        }
    }
    if (cur.fwd > 0 || cur.bwd > 0 || cur.params > 0 || reversed.empty())
        reversed.push_back(cur);
    return {reversed.rbegin(), reversed.rend()};
}

} // namespace scalescope
