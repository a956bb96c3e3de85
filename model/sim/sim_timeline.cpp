// The per-GPU timeline: member rows from their unit's, merged per time quantum (level of detail).
#include "sim/simulation_p.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <string>

namespace scalescope
{

namespace sim_detail
{

namespace
{
uint32_t hotLabel(uint32_t label)
{
    switch (label) {
    case labelId(LabelKind::Forward):
        return labelId(LabelKind::ForwardHot);
    case labelId(LabelKind::Backward):
        return labelId(LabelKind::BackwardHot);
    case labelId(LabelKind::RecomputeBackward):
        return labelId(LabelKind::RecomputeBackwardHot);
    case labelId(LabelKind::Optimizer):
        return labelId(LabelKind::OptimizerHot);
    default:
        return label;
    }
}
} // namespace

template <typename Out>
void Simulation::expand(const std::vector<Item> &row, int gpu, bool own_is_group, Out &&out) const
{
    if (own_is_group && !step_.thermal_varies) {
        // The member's jittered work is the group's (it is the only member, or nothing is
        // drawn per GPU) and no clock is throttled: the row as it is.
        for (const Item &it : row)
            out(it.start, it.dur, it.kind(), it.label(), it.mb,
                it.task == kNoTask ? static_cast<double>(it.bytes) : 0.0);
        return;
    }
    for (const Item &it : row) {
        if (it.task == kNoTask) {
            out(it.start, it.dur, it.kind(), it.label(), it.mb, it.bytes);
            continue;
        }
        // Jittered work: this member's own time, then waiting for the slowest member.
        const Task &t = graph_[it.task];
        const double own = memberDuration(t, it.task, gpu);
        const bool is_hot =
            hot_[static_cast<size_t>(t.iteration) * static_cast<size_t>(plan_.gpus) +
                 static_cast<size_t>(gpu)] != 0;
        out(it.start, own, it.kind(), is_hot ? hotLabel(it.label()) : it.label(), it.mb, 0.0);
        if (t.duration > own)
            out(it.start + own, t.duration - own, SegmentKind::Wait, labelId(LabelKind::WaitTp),
                it.mb, 0.0);
    }
}

namespace
{
struct Segment {
    double start, dur;
    SegmentKind kind;
    uint32_t label;
    int32_t mb;
    double bytes;
};

// Level of detail (DESIGN.md section 3, as Perfetto and Tracy merge what is too small to
// see): items on a row that start less than a quantum after the first item of the current
// group join it; a group of one keeps its own kind and label, a larger one takes its
// dominant kind. Items of no duration take part in the grouping, and only segments of some
// duration come out (TimelineBuilder::add).
template <typename Out> class Merger
{
public:
    Merger(double quantum, const uint32_t *merged_label, Out &out)
        : quantum_(quantum), merged_label_(merged_label), out_(out)
    {
    }
    void operator()(double start, double dur, SegmentKind kind, uint32_t label, int32_t mb,
                    double bytes)
    {
        if (quantum_ <= 0) {
            if (dur > 0)
                out_(start, dur, kind, label, mb, bytes);
            return;
        }
        if (count_ > 0 && start < first_.start + quantum_) {
            by_kind_[static_cast<size_t>(kind)] += dur;
            end_ = std::max(end_, start + dur);
            ++count_;
            return;
        }
        flush();
        first_ = {start, dur, kind, label, mb, bytes};
        by_kind_ = {};
        by_kind_[static_cast<size_t>(kind)] += dur;
        end_ = start + dur;
        count_ = 1;
    }
    void flush()
    {
        if (count_ == 1) {
            if (first_.dur > 0)
                out_(first_.start, first_.dur, first_.kind, first_.label, first_.mb, first_.bytes);
        } else if (count_ > 1) {
            const auto dominant = static_cast<size_t>(
                std::max_element(by_kind_.begin(), by_kind_.end()) - by_kind_.begin());
            if (end_ - first_.start > 0)
                out_(first_.start, end_ - first_.start, static_cast<SegmentKind>(dominant),
                     merged_label_[dominant], -1, 0.0);
        }
        count_ = 0;
    }

private:
    double quantum_;
    const uint32_t *merged_label_;
    Out &out_;
    Segment first_{};
    std::array<double, kSegmentKindCount> by_kind_{};
    double end_ = 0;
    size_t count_ = 0;
};
} // namespace

bool Simulation::buildTimeline(SimResult &result)
{
    // Size check before materialising every GPU's rows.
    size_t estimate = 0;
    size_t busy_rows = 0; // rows with at least one task (the compute row always)
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u) {
        size_t per_gpu = 0;
        size_t rows = 1;
        for (int s = 0; s < kStreamCount; ++s) {
            const size_t n = stream_tasks_[u * kStreamCount + static_cast<size_t>(s)].size();
            per_gpu += n;
            rows += s > 0 && n > 0 ? 1 : 0;
        }
        per_gpu += recv_tasks_[u].size();
        rows += recv_tasks_[u].empty() ? 0 : 1;
        estimate += per_gpu * 2 * members_[u].size();
        busy_rows += std::min<size_t>(rows, kStreamCount) * members_[u].size();
    }
    // Beyond max_segments items are merged per time quantum (Merger). Each merged segment
    // then spans at least one quantum, so a row holds at most span / quantum + 1 segments
    // and the whole timeline at most rows x (span / quantum + 1).
    const size_t rows_total = busy_rows;
    const double span = iteration_end_.back();
    double quantum = 0;
    // Where the timeline is simplified, the GPUs of the first data-parallel replica (one
    // per tensor and context rank of every pipeline stage) keep every item, so that zooming
    // into their rows shows the step as simulated (issue 26: at 131,072 GPUs every row
    // stayed merged at any zoom; Perfetto likewise keeps full detail where it is asked for).
    const size_t gpus = static_cast<size_t>(plan_.gpus);
    std::vector<char> detailed(gpus, 0);
    size_t detailed_estimate = 0;
    if (estimate > opt_.max_segments) {
        for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u) {
            size_t per_gpu = recv_tasks_[u].size();
            for (int s = 0; s < kStreamCount; ++s)
                per_gpu += stream_tasks_[u * kStreamCount + static_cast<size_t>(s)].size();
            for (int g : members_[u])
                if (plan_.replicaOf(g) == 0) {
                    detailed[static_cast<size_t>(g)] = 1;
                    detailed_estimate += per_gpu * 2;
                }
        }
        if (detailed_estimate * 2 > opt_.max_segments) { // more than half the room: merge them too
            std::fill(detailed.begin(), detailed.end(), 0);
            detailed_estimate = 0;
        }
    }
    if (estimate > opt_.max_segments) {
        const size_t reserved = rows_total + detailed_estimate;
        const size_t room = opt_.max_segments > 2 * reserved ? opt_.max_segments - reserved : 0;
        if (room == 0 || span <= 0) {
            result.error = "the timeline would hold about " + std::to_string(estimate) +
                           " segments on " + std::to_string(rows_total) +
                           " rows, more than the limit of " + std::to_string(opt_.max_segments) +
                           "; simulate fewer GPUs";
            return false;
        }
        quantum = span * static_cast<double>(rows_total) / static_cast<double>(room);
        result.timeline_merge_quantum_s = quantum;
        result.timeline_full_segments = estimate;
        result.timeline_first_replica_detailed = detailed_estimate > 0;
    }
    TimelineBuilder builder(plan_.gpus, plan_.gpus_per_node, iterations_);
    std::array<uint32_t, kSegmentKindCount> merged_label{};
    for (int k = 0; k < kSegmentKindCount; ++k)
        merged_label[static_cast<size_t>(k)] = builder.internLabel(
            SegmentLabel{LabelKind::Merged, WaitCause::None, static_cast<SegmentKind>(k)});
    std::vector<uint32_t> label_ids;
    for (uint32_t l = 0; l < kLabelCount + extra_labels_.size(); ++l)
        label_ids.push_back(builder.internLabel(labelRecord(l)));

    // Rows of a GPU are identical for every member of a unit unless jittered work differs
    // per member (jitter, stragglers or uneven heat inside a tensor-parallel group).
    const bool member_varies = per_rank_ && plan_.stageWidth() > 1;
    // Every row of units [ub, ue): f(unit, row, source), where source is the row of the
    // unit's first member of the same detail that this one repeats (kNoRow: it has segments
    // of its own).
    constexpr size_t kNoRow = static_cast<size_t>(-1);
    const auto forEachRow = [&](size_t ub, size_t ue, auto &&f) {
        for (size_t u = ub; u < ue; ++u) {
            const std::vector<int> &members = members_[u];
            const auto firstOf = [&](char detail) {
                for (size_t m = 0; m < members.size(); ++m)
                    if (detailed[static_cast<size_t>(members[m])] == detail)
                        return m;
                return size_t{0};
            };
            const size_t first_detailed = firstOf(1), first_merged = firstOf(0);
            for (size_t m = 0; m < members.size(); ++m) {
                const size_t src =
                    detailed[static_cast<size_t>(members[m])] ? first_detailed : first_merged;
                for (size_t s = 0; s < kStreamCount; ++s) {
                    const bool same = m != src && (!member_varies || s > 0);
                    f(u, static_cast<size_t>(members[m]) * kStreamCount + s,
                      same ? static_cast<size_t>(members[src]) * kStreamCount + s : kNoRow);
                }
            }
        }
    };
    // A row's segments, merged per quantum where the timeline is simplified (except the
    // rows kept in full detail).
    // A member's jittered work lasts as long as its unit's when it is the only member or
    // nothing is drawn per GPU (drawFactors): its rows are the unit's as walked.
    const auto ownIsGroup = [&](size_t u) { return !per_rank_ || members_[u].size() == 1; };
    const auto emitRow = [&](size_t u, size_t row, auto &&out) {
        Merger merge(detailed[row / kStreamCount] ? 0.0 : quantum, merged_label.data(), out);
        expand(unit_rows_[u].row[row % kStreamCount], static_cast<int>(row / kStreamCount),
               ownIsGroup(u),
               [&](double start, double dur, SegmentKind k, uint32_t label, int32_t mb,
                   double bytes) { merge(start, dur, k, label_ids[label], mb, bytes); });
        merge.flush();
    };
    // First pass: how many segments each row gets, so that each is then written once, in
    // place, from any thread.
    std::vector<size_t> row_sizes(gpus * kStreamCount, 0);
    parallelChunks(static_cast<size_t>(units_), threads_, 4, [&](size_t ub, size_t ue) {
        forEachRow(ub, ue, [&](size_t u, size_t row, size_t source) {
            if (source != kNoRow) {
                row_sizes[row] = row_sizes[source];
                return;
            }
            // Not merged, and its jittered work (on the compute row only) is the unit's: one
            // segment per item of some duration.
            const size_t s = row % kStreamCount;
            if ((quantum <= 0 || detailed[row / kStreamCount]) && (s > 0 || ownIsGroup(u))) {
                row_sizes[row] = unit_rows_[u].timed[s];
                return;
            }
            size_t n = 0;
            emitRow(u, row, [&n](double, double, SegmentKind, uint32_t, int32_t, double) { ++n; });
            row_sizes[row] = n;
        });
    });
    if (cancelled(result))
        return false;
    const std::vector<size_t> &offset = builder.allocate(row_sizes);
    row_sizes = {};
    // Second pass: the segments; a row that repeats another is copied.
    std::vector<double> unit_latest(static_cast<size_t>(units_), 0.0);
    std::atomic<bool> sized_wrong{false}; // a row's segments disagree with its size
    parallelChunks(static_cast<size_t>(units_), threads_, 4, [&](size_t ub, size_t ue) {
        forEachRow(ub, ue, [&](size_t u, size_t row, size_t source) {
            if (source != kNoRow) {
                builder.copyRange(offset[source], offset[source + 1], offset[row]);
                return;
            }
            size_t i = offset[row];
            const size_t end = offset[row + 1];
            double &latest = unit_latest[u];
            emitRow(u, row,
                    [&](double start, double dur, SegmentKind k, uint32_t label, int32_t mb,
                        double bytes) {
                        if (i < end) // never past the row (a wrong size fails below)
                            builder.set(i, start, dur, k, label, mb, bytes);
                        ++i;
                        latest = std::max(latest, start + dur);
                    });
            if (i != end)
                sized_wrong.store(true, std::memory_order_relaxed);
        });
    });
    if (sized_wrong.load()) {
        result.error = "internal error: the timeline's rows were sized wrongly";
        return false;
    }
    builder.setEndTime(
        unit_latest.empty() ? 0.0 : *std::max_element(unit_latest.begin(), unit_latest.end()));
    // Steps start where the one before ended on its slowest GPU (the iteration ends), not at
    // an even split of the drawn span (issue 26: markers fell inside a backward pass).
    std::vector<double> starts(static_cast<size_t>(iterations_), 0.0);
    for (int it = 1; it < iterations_; ++it)
        starts[static_cast<size_t>(it)] = iteration_end_[static_cast<size_t>(it) - 1];
    builder.setStepStarts(std::move(starts));
    // The critical path (criticalPathOf) on the rows of each task's first GPU, in time order:
    // where the step is set (HolisticTraceAnalysis draws it over the trace the same way).
    std::vector<CriticalSpan> spans;
    spans.reserve(result.critical_path.tasks.size());
    for (auto it = result.critical_path.tasks.rbegin(); it != result.critical_path.tasks.rend();
         ++it) {
        const Task &t = graph_[*it];
        if (t.stream == Stream::Loader || t.duration <= 0 || members_[t.unit].empty())
            continue;
        const int gpu = members_[t.unit].front();
        spans.push_back({gpu * kStreamCount + static_cast<int>(t.stream), t.start, t.end()});
    }
    builder.setCriticalPath(std::move(spans));
    result.timeline = builder.finish();
    giveRowsStorage(std::move(unit_rows_));
    unit_rows_ = {};
    return true;
}

struct Simulation::RowsPool {
    std::mutex mutex;
    std::vector<UnitRows> rows;
};

Simulation::RowsPool &Simulation::rowsPool()
{
    static RowsPool p;
    return p;
}

std::vector<Simulation::UnitRows> Simulation::takeRowsStorage()
{
    RowsPool &p = rowsPool();
    std::lock_guard<std::mutex> lock(p.mutex);
    return std::move(p.rows);
}

void Simulation::giveRowsStorage(std::vector<UnitRows> &&rows)
{
    // At most 512 MiB kept (rows of ~13 million segments); larger storage is freed.
    size_t bytes = 0;
    for (const UnitRows &r : rows)
        for (const std::vector<Item> &row : r.row)
            bytes += row.capacity() * sizeof(Item);
    if (bytes > (size_t{512} << 20))
        return;
    RowsPool &p = rowsPool();
    std::lock_guard<std::mutex> lock(p.mutex);
    if (p.rows.size() < rows.size())
        p.rows = std::move(rows);
}

} // namespace sim_detail

} // namespace scalescope
