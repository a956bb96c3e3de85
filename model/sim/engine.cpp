#include "sim/engine.h"

#include <algorithm>

namespace scalescope
{

TaskGraph::TaskGraph(int units) : units_(units)
{
    last_in_stream_.assign(static_cast<size_t>(units) * kEngineStreamCount, kNoTask);
}

void TaskGraph::reserve(size_t tasks, size_t edges)
{
    tasks_.reserve(tasks);
    base_.reserve(tasks);
    bytes_.reserve(tasks);
    next_.reserve(tasks);
    edges_.reserve(edges);
    edge_on_start_.reserve(edges);
}

void TaskGraph::replicateTail(TaskId first, size_t first_edge, uint32_t unit_first, uint32_t units,
                              int copies)
{
    const TaskId end = static_cast<TaskId>(tasks_.size());
    const size_t edge_end = edges_.size();
    const TaskId n = end - first;
    const size_t total = tasks_.size() + static_cast<size_t>(n) * static_cast<size_t>(copies);
    reserve(total, edges_.size() + (edge_end - first_edge) * static_cast<size_t>(copies));
    for (int c = 1; c <= copies; ++c) {
        const TaskId off = static_cast<TaskId>(c) * n;
        const uint32_t unit_off = static_cast<uint32_t>(c) * units;
        for (TaskId i = first; i < end; ++i) {
            Task t = tasks_[i];
            t.unit += unit_off;
            tasks_.push_back(t);
            base_.push_back(base_[i]);
            bytes_.push_back(bytes_[i]);
            next_.push_back(next_[i] == kNoTask ? kNoTask : next_[i] + off);
        }
        for (size_t e = first_edge; e < edge_end; ++e) {
            const auto [task, on] = edges_[e];
            edges_.emplace_back(task + off, on + off);
            edge_on_start_.push_back(edge_on_start_[e]);
        }
        for (uint32_t u = unit_first; u < unit_first + units; ++u)
            for (size_t s = 0; s < kEngineStreamCount; ++s) {
                const TaskId last = last_in_stream_[u * kEngineStreamCount + s];
                last_in_stream_[(u + unit_off) * kEngineStreamCount + s] =
                    last == kNoTask ? kNoTask : last + off;
            }
    }
}

TaskId TaskGraph::add(uint32_t unit, Stream stream, SegmentKind kind, double duration,
                      uint32_t label, int32_t micro_batch, uint16_t iteration)
{
    const auto id = static_cast<TaskId>(tasks_.size());
    Task t;
    t.duration = duration;
    t.unit = unit;
    t.stream = stream;
    t.kind = kind;
    t.label = label;
    t.micro_batch = micro_batch;
    t.iteration = iteration;
    TaskId &last = last_in_stream_[unit * kEngineStreamCount + static_cast<size_t>(stream)];
    t.pending = last != kNoTask ? 1 : 0;
    tasks_.push_back(t);
    base_.push_back(duration);
    bytes_.push_back(0.0f);
    next_.push_back(kNoTask);
    if (last != kNoTask)
        next_[last] = id;
    last = id;
    return id;
}

void TaskGraph::depend(TaskId task, TaskId on)
{
    if (on != kNoTask && on != task) {
        edges_.emplace_back(task, on);
        edge_on_start_.push_back(0);
        ++tasks_[task].pending;
    }
}

void TaskGraph::dependExpected(TaskId task, TaskId on)
{
    if (on != kNoTask && on != task) {
        edges_.emplace_back(task, on);
        edge_on_start_.push_back(0);
    } else {
        --tasks_[task].pending; // nothing to wait for after all
    }
}

void TaskGraph::dependOnStart(TaskId task, TaskId on)
{
    if (on != kNoTask && on != task) {
        edges_.emplace_back(task, on);
        edge_on_start_.push_back(1);
        ++tasks_[task].pending;
    }
}

void TaskGraph::group(const std::vector<TaskId> &members)
{
    const auto g = static_cast<int32_t>(groups_.size());
    for (TaskId m : members)
        tasks_[m].group = g;
    groups_.push_back(members);
}

bool TaskGraph::run()
{
    const size_t n = tasks_.size();
    // Successor lists (CSR) of the dependency edges; the stream order is next_. Each entry
    // succ_begin[on + 1] counts up to its list's end as the edges are placed, in their order.
    std::vector<uint32_t> succ_begin(n + 2, 0);
    for (const auto &[task, on] : edges_)
        ++succ_begin[on + 2];
    for (size_t i = 2; i < n + 2; ++i)
        succ_begin[i] += succ_begin[i - 1];
    std::vector<TaskId> succ(edges_.size());
    // Start-to-start edges are few (the data loader's slots): flagged only when present.
    const bool any_on_start =
        std::find(edge_on_start_.begin(), edge_on_start_.end(), 1) != edge_on_start_.end();
    std::vector<uint8_t> succ_on_start(any_on_start ? edges_.size() : 0);
    for (size_t e = 0; e < edges_.size(); ++e) {
        const uint32_t k = succ_begin[edges_[e].second + 1]++;
        if (any_on_start)
            succ_on_start[k] = edge_on_start_[e];
        succ[k] = edges_[e].first;
    }
    if (ran_) {
        // A task starts from the defaults add() gave it; a second run resets them and counts
        // its releases again (the first run counted them down).
        for (Task &t : tasks_) {
            t.ready = 0;
            t.dep_ready = 0;
            t.binding = kNoTask;
            t.pending = 0;
        }
        for (TaskId nx : next_)
            if (nx != kNoTask)
                ++tasks_[nx].pending;
        for (const auto &[task, on] : edges_)
            ++tasks_[task].pending;
    }
    ran_ = true;
    std::vector<uint32_t> group_waiting(groups_.size());
    for (size_t g = 0; g < groups_.size(); ++g)
        group_waiting[g] = static_cast<uint32_t>(groups_[g].size());

    std::vector<TaskId> work;
    work.reserve(1024);
    for (size_t i = 0; i < n; ++i)
        if (tasks_[i].pending == 0)
            work.push_back(static_cast<TaskId>(i));

    size_t resolved = 0;
    std::vector<TaskId> finished;
    finished.reserve(64);
    auto release = [&](TaskId from, TaskId to, bool stream, bool on_start = false) {
        Task &t = tasks_[to];
        const double e = on_start ? tasks_[from].start : tasks_[from].end();
        if (!stream)
            t.dep_ready = std::max(t.dep_ready, e);
        if (t.binding == kNoTask || e > t.ready) {
            t.ready = std::max(t.ready, e);
            t.binding = from;
        }
        if (--t.pending == 0)
            work.push_back(to);
    };
    while (!work.empty()) {
        const TaskId id = work.back();
        work.pop_back();
        Task &t = tasks_[id];
        finished.clear();
        if (t.group < 0) {
            t.start = t.ready;
            finished.push_back(id);
        } else {
            // A collective starts when its last member is ready (synchronous barrier).
            const auto g = static_cast<size_t>(t.group);
            if (--group_waiting[g] > 0)
                continue;
            double start = 0;
            for (TaskId m : groups_[g])
                start = std::max(start, tasks_[m].ready);
            for (TaskId m : groups_[g]) {
                tasks_[m].start = start;
                finished.push_back(m);
            }
        }
        for (TaskId f : finished) {
            ++resolved;
            for (uint32_t k = succ_begin[f]; k < succ_begin[f + 1]; ++k)
                release(f, succ[k], false, any_on_start && succ_on_start[k] != 0);
            if (next_[f] != kNoTask)
                release(f, next_[f], true);
        }
    }
    return resolved == n;
}

} // namespace scalescope
