// The breakdown of the measured steps: each unit's segments summed by kind, waits by label.
#include "sim/simulation_p.h"

#include <algorithm>

namespace scalescope
{

namespace sim_detail
{

void Simulation::accountUnit(uint32_t unit, const UnitRows &rows, UnitAccount &acc) const
{
    const double w0 = window_[unit].first, w1 = window_[unit].second;
    Breakdown &b = acc.b;
    // Time of one segment inside the measured window, added (weight > 0) or taken back.
    const auto account = [&](Stream s, double start, double dur, SegmentKind k, uint32_t label,
                             double weight) {
        const double a = std::max(start, w0), e = std::min(start + dur, w1);
        if (e <= a)
            return;
        const double x = (e - a) * weight;
        if (s == Stream::Compute) {
            switch (k) {
            case SegmentKind::Compute:
                b.compute += x;
                break;
            case SegmentKind::Optimizer:
                b.compute += x;
                b.optimizer += x;
                break;
            case SegmentKind::TpComm:
                b.communication_exposed += x;
                b.communication_total += x;
                b.tp_comm += x;
                break;
            case SegmentKind::DpComm:
                b.communication_exposed += x;
                break;
            case SegmentKind::PpComm:
                b.communication_exposed += x;
                b.pp_exposed += x;
                break;
            case SegmentKind::EpComm:
                b.communication_exposed += x;
                b.communication_total += x;
                b.ep_comm += x;
                break;
            case SegmentKind::CpComm:
                b.communication_exposed += x;
                b.communication_total += x;
                b.cp_comm += x;
                break;
            case SegmentKind::Bubble:
                b.pipeline_bubble += x;
                break;
            case SegmentKind::Wait:
                b.wait += x;
                if (label == labelId(LabelKind::WaitExpert))
                    b.expert_wait += x;
                acc.addWait(label, x);
                break;
            case SegmentKind::DataLoad:
                b.data_loading += x;
                break;
            }
        } else if (k == SegmentKind::DpComm) {
            b.communication_total += x;
            b.dp_comm += x;
        } else if (k == SegmentKind::PpComm) {
            b.communication_total += x;
            b.pp_comm += x;
        }
    };
    // Every member as the unit's shared rows show it (jittered work at the group's pace)...
    const std::vector<int> &members = members_[unit];
    const auto weight = static_cast<double>(members.size());
    for (int s = 0; s < kStreamCount; ++s)
        for (const Item &it : rows.row[s])
            account(static_cast<Stream>(s), it.start, it.dur, it.kind(), it.label(), weight);
    if (!(per_rank_ && plan_.stageWidth() > 1))
        return;
    // ...then, per member, the part of jittered work it spends waiting for the slowest:
    // taken from the work's kind (compute or optimizer) and added to waiting.
    double moved = 0, moved_optimizer = 0;
    for (int gpu : members)
        for (const Item &it : rows.row[0]) {
            if (it.task == kNoTask)
                continue;
            const Task &t = graph_[it.task];
            const double own = memberDuration(t, it.task, gpu);
            if (!(t.duration > own))
                continue;
            const double a = std::max(it.start + own, w0),
                         e = std::min(it.start + own + (t.duration - own), w1);
            if (e <= a)
                continue;
            moved += e - a;
            if (it.kind() == SegmentKind::Optimizer)
                moved_optimizer += e - a;
        }
    if (moved > 0) {
        b.compute -= moved;
        b.optimizer -= moved_optimizer;
        b.wait += moved;
        acc.addWait(labelId(LabelKind::WaitTp), moved);
    }
}

} // namespace sim_detail

} // namespace scalescope
