// Gap attribution: what each idle stretch of a unit's rows waits for, and which GPU it waits for.
#include "sim/simulation_p.h"

#include <algorithm>
#include <unordered_map>

namespace scalescope
{

namespace sim_detail
{

void Simulation::labelGroups()
{
    // "waiting for GPU N": the member of each collective that was ready last.
    std::unordered_map<int64_t, uint32_t> index; // by GPU and cause
    const size_t groups = graph_.groupCount();
    group_wait_label_.assign(groups, labelId(LabelKind::WaitReplica));
    for (size_t g = 0; g < groups; ++g) {
        const std::vector<TaskId> &m = graph_.groupMembers(static_cast<int32_t>(g));
        TaskId slowest = m.front();
        // The member whose own work (not its stream queue) was ready last.
        for (TaskId id : m)
            if (graph_[id].dep_ready > graph_[slowest].dep_ready)
                slowest = id;
        const int stage = static_cast<int>(graph_[slowest].unit) % plan_.pipeline;
        const int replica = static_cast<int>(graph_[slowest].unit) / plan_.pipeline;
        // The GPU of the slowest replica that made it slow (its slowest tensor rank).
        int gpu = plan_.rankOf(0, replica, stage);
        double worst = 0;
        for (int k = 0; k < plan_.stageWidth(); ++k) {
            const int g = plan_.rankOf(k, replica, stage);
            const double f = step_.slowdownOf(g) * thermalFactor(g, graph_[slowest].iteration);
            if (f > worst + 1e-12) {
                worst = f;
                gpu = g;
            }
        }
        SegmentLabel label{LabelKind::WaitForGpu, WaitCause::None, SegmentKind::Wait, gpu};
        if (hot(gpu, graph_[slowest].iteration))
            label.cause = WaitCause::ThermalThrottling;
        else if (step_.slowdownOf(gpu) > 1.0)
            label.cause = WaitCause::Straggler;
        auto [it, inserted] =
            index.emplace(int64_t{gpu} * 4 + static_cast<int64_t>(label.cause), 0);
        if (inserted) {
            extra_labels_.push_back(label);
            it->second = static_cast<uint32_t>(kLabelCount + extra_labels_.size() - 1);
        }
        group_wait_label_[g] = it->second;
    }
    own_end_.assign(graph_.size(), 0.0);
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u) {
        double clock = 0;
        for (TaskId id : stream_tasks_[u * kStreamCount + 1]) {
            const Task &t = graph_[id];
            clock = std::max(clock, t.dep_ready) + t.duration;
            own_end_[id] = clock;
        }
    }
}

uint32_t Simulation::waitLabelFor(TaskId collective) const
{
    const Task &t = graph_[collective];
    return t.group < 0 ? static_cast<uint32_t>(labelId(LabelKind::WaitReplica))
                       : group_wait_label_[static_cast<size_t>(t.group)];
}

template <typename Emit> void Simulation::walk(uint32_t unit, Emit &&emit) const
{
    const auto put = [&emit](Stream s, double start, double dur, SegmentKind k, uint32_t label,
                             int32_t mb, double bytes = 0) {
        emit(s, start, dur, k, label, mb, kNoTask, bytes);
    };
    const double end_time = iteration_end_.back();
    // Compute stream: tasks, the gaps between them with their reason, per-GPU jitter.
    const std::vector<TaskId> &cs = stream_tasks_[unit * kStreamCount];
    const std::vector<TaskId> &coll = stream_tasks_[unit * kStreamCount + 1];
    double cursor = 0;
    // Idle time behind a data-parallel collective: as long as the collective would have
    // kept this GPU waiting on its own (had no replica been slower) it is exposed
    // communication; the rest is waiting for the slowest replica, named.
    auto dpGap = [&](double a, double b, TaskId binding, int32_t mb) {
        const Task &bt = graph_[binding];
        const double exposed = std::clamp(own_end_[binding] - a, 0.0, b - a);
        if (exposed > 0)
            put(Stream::Compute, a, exposed, SegmentKind::DpComm, labelId(LabelKind::ExposedDp),
                mb);
        if (b - a - exposed > 0)
            put(Stream::Compute, a + exposed, b - a - exposed, SegmentKind::Wait,
                bt.group >= 0 ? group_wait_label_[static_cast<size_t>(bt.group)]
                              : static_cast<uint32_t>(labelId(LabelKind::WaitReplica)),
                mb);
    };
    auto gap = [&](double a, double b, TaskId binding, int32_t mb) {
        if (b <= a)
            return;
        if (binding == kNoTask) {
            put(Stream::Compute, a, b - a, SegmentKind::Wait, labelId(LabelKind::Idle), mb);
            return;
        }
        const Task &bt = graph_[binding];
        if (bt.stream == Stream::Loader) {
            put(Stream::Compute, a, b - a, SegmentKind::DataLoad, labelId(LabelKind::WaitData), mb);
        } else if (bt.kind == SegmentKind::DpComm) {
            dpGap(a, b, binding, mb);
        } else if (bt.kind == SegmentKind::PpComm && bt.unit == unit) {
            put(Stream::Compute, a, b - a, SegmentKind::PpComm, labelId(LabelKind::SendBlocking),
                mb);
        } else if (bt.kind == SegmentKind::PpComm) {
            // Waiting for another stage: while its send is on the wire this stage is
            // receiving (exposed pipeline communication); before that it is the bubble.
            const double transfer = std::clamp(bt.start, a, b);
            if (transfer > a)
                put(Stream::Compute, a, transfer - a, SegmentKind::Bubble,
                    labelId(LabelKind::Bubble), mb);
            put(Stream::Compute, transfer, b - transfer, SegmentKind::PpComm,
                labelId(LabelKind::Receive), mb);
        } else if (bt.unit != unit) {
            put(Stream::Compute, a, b - a, SegmentKind::Bubble, labelId(LabelKind::Bubble), mb);
        } else {
            put(Stream::Compute, a, b - a, SegmentKind::Wait, labelId(LabelKind::Idle), mb);
        }
    };
    for (TaskId id : cs) {
        const Task &t = graph_[id];
        gap(cursor, t.start, t.binding, t.micro_batch);
        emit(Stream::Compute, t.start, t.duration, t.kind, t.label, t.micro_batch,
             t.jittered ? id : kNoTask, graph_.bytes(id));
        cursor = t.end();
    }
    // Tail: exposed communication still running on this unit, then idle until the slowest
    // GPU ends the step. Asynchronous replicas have no such barrier (each runs on to its next
    // step, which is past the simulated window): their rows end with their own work.
    if (cursor < end_time && plan_.update != UpdateMode::Async) {
        double comm_end = cursor;
        if (!coll.empty())
            comm_end = std::clamp(graph_[coll.back()].end(), cursor, end_time);
        if (comm_end > cursor)
            dpGap(cursor, comm_end, coll.back(), -1);
        if (end_time > comm_end)
            put(Stream::Compute, comm_end, end_time - comm_end,
                plan_.pipeline > 1 ? SegmentKind::Bubble : SegmentKind::Wait,
                plan_.pipeline > 1 ? labelId(LabelKind::Bubble) : labelId(LabelKind::Idle), -1);
    }
    for (TaskId id : coll) {
        const Task &t = graph_[id];
        if (t.group >= 0 && t.start > t.ready)
            put(Stream::Collective, t.ready, t.start - t.ready, SegmentKind::Wait, waitLabelFor(id),
                t.micro_batch);
        put(Stream::Collective, t.start, t.duration, t.kind, t.label, t.micro_batch,
            graph_.bytes(id));
    }
    for (TaskId id : stream_tasks_[unit * kStreamCount + 2]) {
        const Task &t = graph_[id];
        put(Stream::PointToPoint, t.start, t.duration, t.kind, t.label, t.micro_batch,
            graph_.bytes(id));
    }
    // What the neighbouring stages send here, overlapping transfers merged (a row's
    // segments never overlap).
    double recv_start = 0, recv_end = -1, recv_bytes = 0;
    int32_t recv_mb = -1;
    for (TaskId id : recv_tasks_[unit]) {
        const Task &t = graph_[id];
        if (t.start <= recv_end) {
            recv_end = std::max(recv_end, t.end());
            recv_bytes += graph_.bytes(id);
            continue;
        }
        if (recv_end > recv_start)
            put(Stream::Receive, recv_start, recv_end - recv_start, SegmentKind::PpComm,
                labelId(LabelKind::ReceiveTransfer), recv_mb, recv_bytes);
        recv_start = t.start;
        recv_end = t.end();
        recv_mb = t.micro_batch;
        recv_bytes = graph_.bytes(id);
    }
    if (recv_end > recv_start)
        put(Stream::Receive, recv_start, recv_end - recv_start, SegmentKind::PpComm,
            labelId(LabelKind::ReceiveTransfer), recv_mb, recv_bytes);
}

void Simulation::unitRows(uint32_t unit, UnitRows &out) const
{
    // Each task gives at most a gap and itself, a gap at most two segments.
    for (int s = 0; s < kStreamCount; ++s) {
        out.row[s].clear();
        const size_t tasks =
            s == static_cast<int>(Stream::Receive)
                ? recv_tasks_[unit].size()
                : stream_tasks_[unit * kStreamCount + static_cast<size_t>(s)].size();
        out.row[s].reserve(3 * tasks + 2);
    }
    std::fill(std::begin(out.timed), std::end(out.timed), 0u);
    walk(unit, [&out](Stream s, double start, double dur, SegmentKind k, uint32_t label, int32_t mb,
                      TaskId task, double bytes) {
        out.row[static_cast<int>(s)].emplace_back(start, dur, label, mb, task,
                                                  static_cast<float>(bytes), k);
        out.timed[static_cast<int>(s)] += dur > 0 ? 1u : 0u;
    });
}

} // namespace sim_detail

} // namespace scalescope
