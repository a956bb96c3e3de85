#include "sim/engine.h"

#include <algorithm>
#include <mutex>
#include <utility>

namespace scalescope
{

namespace
{

/// The storage of the largest graph released so far, for the next one to reuse.
struct StoragePool {
    std::mutex mutex;
    TaskGraph::Storage storage;
};
StoragePool &pool()
{
    static StoragePool p;
    return p;
}
// What the pool keeps at most (a graph of ~5 million tasks: DeepSeek-V3 on 2,048 GPUs with
// jitter is 2 million); larger ones are freed.
constexpr size_t kPoolMaxBytes = size_t{512} << 20;

} // namespace

size_t TaskGraph::Storage::capacityBytes() const
{
    size_t bytes = 0;
    forEachArray([&bytes](const auto &v) { bytes += v.capacity() * sizeof(*v.data()); });
    return bytes;
}

TaskGraph::TaskGraph(int units) : units_(units)
{
    {
        StoragePool &p = pool();
        std::lock_guard<std::mutex> lock(p.mutex);
        std::swap(s_, p.storage);
    }
    s_.clear();
    last_in_stream_.assign(static_cast<size_t>(units) * kEngineStreamCount, kNoTask);
    first_in_stream_ = last_in_stream_;
}

void TaskGraph::setUnits(int units)
{
    units_ = units;
    last_in_stream_.assign(static_cast<size_t>(units) * kEngineStreamCount, kNoTask);
    first_in_stream_ = last_in_stream_;
}

TaskGraph::~TaskGraph()
{
    const size_t mine = s_.capacityBytes();
    if (mine == 0 || mine > kPoolMaxBytes)
        return;
    StoragePool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    if (mine > p.storage.capacityBytes()) // the pool keeps the larger storage
        std::swap(s_, p.storage);
}

TaskGraph &TaskGraph::operator=(TaskGraph &&other) noexcept
{
    if (this != &other) {
        // This graph's storage goes to the pool as a destroyed graph's would.
        TaskGraph old(std::move(*this));
        units_ = other.units_;
        s_ = std::move(other.s_);
        ran_ = other.ran_;
        last_in_stream_ = std::move(other.last_in_stream_);
        first_in_stream_ = std::move(other.first_in_stream_);
        groups_ = std::move(other.groups_);
    }
    return *this;
}

void TaskGraph::reserve(size_t tasks, size_t edges)
{
    const auto grow = [](auto &v, size_t n) {
        if (n <= v.capacity())
            return; // pooled storage already holds it
        v.reserve(n);
        // Huge pages before the first touch (timeline.h): the engine reaches tasks in
        // dependency order, far apart in memory.
        adviseHugePages(static_cast<void *>(v.data()), v.capacity() * sizeof(*v.data()));
    };
    grow(s_.tasks, tasks);
    grow(s_.base, tasks);
    grow(s_.bytes, tasks);
    grow(s_.next, tasks);
    grow(s_.edges, edges);
    grow(s_.edge_on_start, edges);
}

void TaskGraph::replicateTail(TaskId first, size_t first_edge, uint32_t unit_first, uint32_t units,
                              int copies)
{
    const TaskId end = static_cast<TaskId>(s_.tasks.size());
    const size_t edge_end = s_.edges.size();
    const TaskId n = end - first;
    const size_t total = s_.tasks.size() + static_cast<size_t>(n) * static_cast<size_t>(copies);
    reserve(total, s_.edges.size() + (edge_end - first_edge) * static_cast<size_t>(copies));
    // Each copy is appended whole (one pass over the new memory), then its ids and units are
    // moved up while it is still in cache.
    const std::vector<Task> proto_tasks(s_.tasks.begin() + first, s_.tasks.end());
    const std::vector<TaskId> proto_next(s_.next.begin() + first, s_.next.end());
    const std::vector<double> proto_base(s_.base.begin() + first, s_.base.end());
    const std::vector<float> proto_bytes(s_.bytes.begin() + first, s_.bytes.end());
    const std::vector<std::pair<TaskId, TaskId>> proto_edges(
        s_.edges.begin() + static_cast<std::ptrdiff_t>(first_edge), s_.edges.end());
    const std::vector<uint8_t> proto_on_start(
        s_.edge_on_start.begin() + static_cast<std::ptrdiff_t>(first_edge), s_.edge_on_start.end());
    for (int c = 1; c <= copies; ++c) {
        const TaskId off = static_cast<TaskId>(c) * n;
        const uint32_t unit_off = static_cast<uint32_t>(c) * units;
        const size_t at = s_.tasks.size();
        s_.tasks.insert(s_.tasks.end(), proto_tasks.begin(), proto_tasks.end());
        for (size_t i = at; i < s_.tasks.size(); ++i)
            s_.tasks[i].unit += unit_off;
        s_.base.insert(s_.base.end(), proto_base.begin(), proto_base.end());
        s_.bytes.insert(s_.bytes.end(), proto_bytes.begin(), proto_bytes.end());
        s_.next.insert(s_.next.end(), proto_next.begin(), proto_next.end());
        for (size_t i = at; i < s_.next.size(); ++i)
            if (s_.next[i] != kNoTask)
                s_.next[i] += off;
        const size_t edge_at = s_.edges.size();
        s_.edges.insert(s_.edges.end(), proto_edges.begin(), proto_edges.end());
        for (size_t e = edge_at; e < s_.edges.size(); ++e) {
            s_.edges[e].first += off;
            s_.edges[e].second += off;
        }
        s_.edge_on_start.insert(s_.edge_on_start.end(), proto_on_start.begin(),
                                proto_on_start.end());
        for (uint32_t u = unit_first; u < unit_first + units; ++u)
            for (size_t s = 0; s < kEngineStreamCount; ++s) {
                const TaskId last = last_in_stream_[u * kEngineStreamCount + s];
                last_in_stream_[(u + unit_off) * kEngineStreamCount + s] =
                    last == kNoTask ? kNoTask : last + off;
                const TaskId first_task = first_in_stream_[u * kEngineStreamCount + s];
                first_in_stream_[(u + unit_off) * kEngineStreamCount + s] =
                    first_task == kNoTask ? kNoTask : first_task + off;
            }
    }
}

TaskId TaskGraph::add(uint32_t unit, Stream stream, SegmentKind kind, double duration,
                      uint32_t label, int32_t micro_batch, uint16_t iteration)
{
    const auto id = static_cast<TaskId>(s_.tasks.size());
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
    s_.tasks.push_back(t);
    s_.base.push_back(duration);
    s_.bytes.push_back(0.0f);
    s_.next.push_back(kNoTask);
    if (last != kNoTask)
        s_.next[last] = id;
    else
        first_in_stream_[unit * kEngineStreamCount + static_cast<size_t>(stream)] = id;
    last = id;
    return id;
}

void TaskGraph::depend(TaskId task, TaskId on)
{
    if (on != kNoTask && on != task) {
        s_.edges.emplace_back(task, on);
        s_.edge_on_start.push_back(0);
        ++s_.tasks[task].pending;
    }
}

void TaskGraph::dependExpected(TaskId task, TaskId on)
{
    if (on != kNoTask && on != task) {
        s_.edges.emplace_back(task, on);
        s_.edge_on_start.push_back(0);
    } else {
        --s_.tasks[task].pending; // nothing to wait for after all
    }
}

void TaskGraph::dependOnStart(TaskId task, TaskId on)
{
    if (on != kNoTask && on != task) {
        s_.edges.emplace_back(task, on);
        s_.edge_on_start.push_back(1);
        ++s_.tasks[task].pending;
    }
}

void TaskGraph::group(const std::vector<TaskId> &members)
{
    const auto g = static_cast<int32_t>(groups_.size());
    for (TaskId m : members)
        s_.tasks[m].group = g;
    groups_.push_back(members);
}

bool TaskGraph::run()
{
    const size_t n = s_.tasks.size();
    // Successor lists (CSR) of the dependency edges; the stream order is s_.next. Each entry
    // succ_begin[on + 1] counts up to its list's end as the edges are placed, in their order.
    std::vector<uint32_t> succ_begin(n + 2, 0);
    for (const auto &[task, on] : s_.edges)
        ++succ_begin[on + 2];
    for (size_t i = 2; i < n + 2; ++i)
        succ_begin[i] += succ_begin[i - 1];
    std::vector<TaskId> succ(s_.edges.size());
    // Start-to-start edges are few (the data loader's slots): flagged only when present.
    const bool any_on_start =
        std::find(s_.edge_on_start.begin(), s_.edge_on_start.end(), 1) != s_.edge_on_start.end();
    std::vector<uint8_t> succ_on_start(any_on_start ? s_.edges.size() : 0);
    for (size_t e = 0; e < s_.edges.size(); ++e) {
        const uint32_t k = succ_begin[s_.edges[e].second + 1]++;
        if (any_on_start)
            succ_on_start[k] = s_.edge_on_start[e];
        succ[k] = s_.edges[e].first;
    }
    if (ran_) {
        // A task starts from the defaults add() gave it; a second run resets them and counts
        // its releases again (the first run counted them down).
        for (Task &t : s_.tasks) {
            t.ready = 0;
            t.dep_ready = 0;
            t.binding = kNoTask;
            t.pending = 0;
        }
        for (TaskId nx : s_.next)
            if (nx != kNoTask)
                ++s_.tasks[nx].pending;
        for (const auto &[task, on] : s_.edges)
            ++s_.tasks[task].pending;
    }
    ran_ = true;
    std::vector<uint32_t> group_waiting(groups_.size());
    for (size_t g = 0; g < groups_.size(); ++g)
        group_waiting[g] = static_cast<uint32_t>(groups_[g].size());

    // Every task but the first of its stream waits for its stream predecessor: the tasks
    // that start free are among the streams' first ones (in task order, as a pass over all
    // tasks would find them, without reading every task).
    std::vector<TaskId> work;
    work.reserve(1024);
    for (TaskId f : first_in_stream_)
        if (f != kNoTask && s_.tasks[f].pending == 0)
            work.push_back(f);
    std::sort(work.begin(), work.end());

    size_t resolved = 0;
    std::vector<TaskId> finished;
    finished.reserve(64);
    auto release = [&](TaskId from, TaskId to, bool stream, bool on_start = false) {
        Task &t = s_.tasks[to];
        const double e = on_start ? s_.tasks[from].start : s_.tasks[from].end();
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
        Task &t = s_.tasks[id];
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
                start = std::max(start, s_.tasks[m].ready);
            for (TaskId m : groups_[g]) {
                s_.tasks[m].start = start;
                finished.push_back(m);
            }
        }
        for (TaskId f : finished) {
            ++resolved;
            for (uint32_t k = succ_begin[f]; k < succ_begin[f + 1]; ++k)
                release(f, succ[k], false, any_on_start && succ_on_start[k] != 0);
            if (s_.next[f] != kNoTask)
                release(f, s_.next[f], true);
        }
    }
    return resolved == n;
}

} // namespace scalescope
