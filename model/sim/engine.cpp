#include "sim/engine.h"

#include <algorithm>
#include <mutex>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace scalescope
{

namespace
{

/// The storage of the largest graph released so far, for the next one to reuse.
struct StoragePool {
    std::mutex mutex;
    std::vector<Task> tasks;
    std::vector<double> base;
    std::vector<float> bytes;
    std::vector<TaskId> next;
    std::vector<std::pair<TaskId, TaskId>> edges;
    std::vector<uint8_t> edge_on_start;
};
StoragePool &pool()
{
    static StoragePool p;
    return p;
}
// What the pool keeps at most (a graph of ~10 million tasks); larger ones are freed.
constexpr size_t kPoolMaxBytes = size_t{1} << 30;

template <typename V> size_t capacityBytes(const V &v)
{
    return v.capacity() * sizeof(typename V::value_type);
}

/// Advises transparent huge pages for a buffer just reserved and not yet touched (Linux
/// madvise(MADV_HUGEPAGE); the kernel's "madvise" THP mode, Debian's default, backs only
/// advised ranges): whole 2 MiB pages inside it take 512x fewer page faults and TLB misses
/// as the engine reaches tasks in dependency order, far apart in memory. Advice only.
template <typename V> void adviseHugePages(const V &v)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr uintptr_t kHuge = uintptr_t{2} << 20;
    const auto p = reinterpret_cast<uintptr_t>(v.data());
    const uintptr_t begin = (p + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t end = (p + capacityBytes(v)) & ~(kHuge - 1);
    if (end > begin)
        (void)madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)v;
#endif
}

} // namespace

TaskGraph::TaskGraph(int units) : units_(units)
{
    {
        StoragePool &p = pool();
        std::lock_guard<std::mutex> lock(p.mutex);
        tasks_.swap(p.tasks);
        base_.swap(p.base);
        bytes_.swap(p.bytes);
        next_.swap(p.next);
        edges_.swap(p.edges);
        edge_on_start_.swap(p.edge_on_start);
    }
    tasks_.clear();
    base_.clear();
    bytes_.clear();
    next_.clear();
    edges_.clear();
    edge_on_start_.clear();
    last_in_stream_.assign(static_cast<size_t>(units) * kEngineStreamCount, kNoTask);
}

void TaskGraph::setUnits(int units)
{
    units_ = units;
    last_in_stream_.assign(static_cast<size_t>(units) * kEngineStreamCount, kNoTask);
}

TaskGraph::~TaskGraph()
{
    const size_t mine = capacityBytes(tasks_) + capacityBytes(base_) + capacityBytes(bytes_) +
                        capacityBytes(next_) + capacityBytes(edges_) +
                        capacityBytes(edge_on_start_);
    if (mine == 0 || mine > kPoolMaxBytes)
        return;
    StoragePool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    const size_t pooled = capacityBytes(p.tasks) + capacityBytes(p.base) + capacityBytes(p.bytes) +
                          capacityBytes(p.next) + capacityBytes(p.edges) +
                          capacityBytes(p.edge_on_start);
    if (mine <= pooled)
        return; // the pool keeps the larger storage; this one is freed
    tasks_.swap(p.tasks);
    base_.swap(p.base);
    bytes_.swap(p.bytes);
    next_.swap(p.next);
    edges_.swap(p.edges);
    edge_on_start_.swap(p.edge_on_start);
}

TaskGraph &TaskGraph::operator=(TaskGraph &&other) noexcept
{
    if (this != &other) {
        // This graph's storage goes to the pool as a destroyed graph's would.
        TaskGraph old(std::move(*this));
        units_ = other.units_;
        tasks_ = std::move(other.tasks_);
        base_ = std::move(other.base_);
        bytes_ = std::move(other.bytes_);
        next_ = std::move(other.next_);
        ran_ = other.ran_;
        last_in_stream_ = std::move(other.last_in_stream_);
        edges_ = std::move(other.edges_);
        edge_on_start_ = std::move(other.edge_on_start_);
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
        adviseHugePages(v); // before the first touch
    };
    grow(tasks_, tasks);
    grow(base_, tasks);
    grow(bytes_, tasks);
    grow(next_, tasks);
    grow(edges_, edges);
    grow(edge_on_start_, edges);
}

void TaskGraph::replicateTail(TaskId first, size_t first_edge, uint32_t unit_first, uint32_t units,
                              int copies)
{
    const TaskId end = static_cast<TaskId>(tasks_.size());
    const size_t edge_end = edges_.size();
    const TaskId n = end - first;
    const size_t total = tasks_.size() + static_cast<size_t>(n) * static_cast<size_t>(copies);
    reserve(total, edges_.size() + (edge_end - first_edge) * static_cast<size_t>(copies));
    // Each copy is appended whole (one pass over the new memory), then its ids and units are
    // moved up while it is still in cache.
    const std::vector<Task> proto_tasks(tasks_.begin() + first, tasks_.end());
    const std::vector<TaskId> proto_next(next_.begin() + first, next_.end());
    const std::vector<double> proto_base(base_.begin() + first, base_.end());
    const std::vector<float> proto_bytes(bytes_.begin() + first, bytes_.end());
    const std::vector<std::pair<TaskId, TaskId>> proto_edges(
        edges_.begin() + static_cast<std::ptrdiff_t>(first_edge), edges_.end());
    const std::vector<uint8_t> proto_on_start(
        edge_on_start_.begin() + static_cast<std::ptrdiff_t>(first_edge), edge_on_start_.end());
    for (int c = 1; c <= copies; ++c) {
        const TaskId off = static_cast<TaskId>(c) * n;
        const uint32_t unit_off = static_cast<uint32_t>(c) * units;
        const size_t at = tasks_.size();
        tasks_.insert(tasks_.end(), proto_tasks.begin(), proto_tasks.end());
        for (size_t i = at; i < tasks_.size(); ++i)
            tasks_[i].unit += unit_off;
        base_.insert(base_.end(), proto_base.begin(), proto_base.end());
        bytes_.insert(bytes_.end(), proto_bytes.begin(), proto_bytes.end());
        next_.insert(next_.end(), proto_next.begin(), proto_next.end());
        for (size_t i = at; i < next_.size(); ++i)
            if (next_[i] != kNoTask)
                next_[i] += off;
        const size_t edge_at = edges_.size();
        edges_.insert(edges_.end(), proto_edges.begin(), proto_edges.end());
        for (size_t e = edge_at; e < edges_.size(); ++e) {
            edges_[e].first += off;
            edges_[e].second += off;
        }
        edge_on_start_.insert(edge_on_start_.end(), proto_on_start.begin(), proto_on_start.end());
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
