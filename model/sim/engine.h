// Discrete-event engine over a task graph: in-order streams per simulated unit, task
// dependencies, and collectives that start together on every member (synchronisation).
#pragma once

#include "sim/timeline.h"

#include <cstdint>
#include <vector>

namespace scalescope
{

using TaskId = uint32_t;
inline constexpr TaskId kNoTask = 0xffffffffu;

// One cache line per task (the engine reaches tasks in dependency order, not memory order):
// what the engine and the views read together; the duration before jitter and the bytes a
// communication moves are kept aside (TaskGraph::baseDuration, bytes).
struct alignas(64) Task {
    double duration = 0;
    double ready = 0;         // when its stream and dependencies allowed it to start
    double dep_ready = 0;     // when its explicit dependencies (not its stream) allowed it
    double start = 0;
    uint32_t unit = 0;  // simulated unit (a tensor-parallel group of one stage)
    int32_t group = -1; // collective group (all members start together), or -1
    int32_t micro_batch = -1;
    uint32_t label = 0;         // label id in the graph's label table
    uint32_t binding = kNoTask; // the dependency that released it last (for gap reasons)
    uint16_t iteration = 0;
    // How many releases (its stream predecessor and its dependencies) it waits for; run()
    // counts it down (kept in the task: the engine reaches the task's line anyway).
    uint32_t pending = 0;
    SegmentKind kind = SegmentKind::Compute;
    Stream stream = Stream::Compute;
    bool jittered = false; // compute work: varies per GPU with jitter and stragglers

    double end() const { return start + duration; }
};
static_assert(sizeof(Task) == 64, "a task is one cache line");

/// Tasks are added per unit and stream in program order.
class TaskGraph
{
public:
    explicit TaskGraph(int units);
    /// Gives its storage back for the next graph (a process-wide pool of one, see
    /// engine.cpp): a large graph rebuilt as the user drags a control reuses memory already
    /// mapped instead of faulting in hundreds of megabytes again.
    ~TaskGraph();
    TaskGraph(TaskGraph &&) = default;
    TaskGraph &operator=(TaskGraph &&other) noexcept;
    TaskGraph(const TaskGraph &) = delete;
    TaskGraph &operator=(const TaskGraph &) = delete;
    /// Before any task is added: the number of simulated units.
    void setUnits(int units);

    /// The per-task and per-edge arrays: what a finished graph hands to the next (engine.cpp).
    struct Storage {
        std::vector<Task> tasks;
        std::vector<double> base; // per task: the duration add() gave
        std::vector<float> bytes; // per task: what it moves
        // Kept as the graph grows, so run() needs no pass to derive it: each task's successor
        // in its stream (and Task::pending, how many tasks must release it).
        std::vector<TaskId> next;
        // Dependencies are collected unsorted (task, on) and compacted in run().
        std::vector<std::pair<TaskId, TaskId>> edges;
        std::vector<uint8_t> edge_on_start; // per edge: released by `on`'s start, not its end
        /// Calls f on each array (sizing and clearing treat them all alike, as
        /// Timeline::forEachArray does for a timeline's).
        template <typename F> void forEachArray(F &&f) { each(*this, f); }
        template <typename F> void forEachArray(F &&f) const { each(*this, f); }
        size_t capacityBytes() const;
        void clear() // keeps the capacity
        {
            forEachArray([](auto &v) { v.clear(); });
        }

    private:
        template <typename S, typename F> static void each(S &s, F &f)
        {
            f(s.tasks);
            f(s.base);
            f(s.bytes);
            f(s.next);
            f(s.edges);
            f(s.edge_on_start);
        }
    };

    TaskId add(uint32_t unit, Stream stream, SegmentKind kind, double duration, uint32_t label,
               int32_t micro_batch, uint16_t iteration);
    void depend(TaskId task, TaskId on);
    /// `task` may start once `on` has started (a start-to-start edge).
    void dependOnStart(TaskId task, TaskId on);
    /// depend() in two halves, for a task whose dependency is known when it is added but
    /// linked later: expectRelease counts the release while the task's line is fresh,
    /// dependExpected adds the edge without reading the task again.
    void expectRelease(TaskId task) { ++s_.tasks[task].pending; }
    void dependExpected(TaskId task, TaskId on);
    /// Makes `members` one collective: they start at the latest of their ready times.
    void group(const std::vector<TaskId> &members);
    void reserve(size_t tasks, size_t edges);
    /// Appends `copies` copies of tasks [first, size()) and of the edges added with them
    /// (from edge `first_edge`), which must refer only to each other: copy c moves its units
    /// up by c x `units` (those tasks' units are [unit_first, unit_first + units)) and its
    /// task ids by c x their count. For identical replicas (same tasks, durations before
    /// jitter and dependencies): the same graph as adding them one by one.
    void replicateTail(TaskId first, size_t first_edge, uint32_t unit_first, uint32_t units,
                       int copies);
    size_t edgeCount() const { return s_.edges.size(); }

    size_t size() const { return s_.tasks.size(); }
    Task &operator[](TaskId id) { return s_.tasks[id]; }
    const Task &operator[](TaskId id) const { return s_.tasks[id]; }
    const std::vector<Task> &tasks() const { return s_.tasks; }
    /// The duration `add` gave (before per-GPU jitter and stragglers).
    double baseDuration(TaskId id) const { return s_.base[id]; }
    /// What a communication task moves (collective buffer, pipeline message).
    double bytes(TaskId id) const { return s_.bytes[id]; }
    void setBytes(TaskId id, double bytes) { s_.bytes[id] = static_cast<float>(bytes); }
    int units() const { return units_; }
    const std::vector<TaskId> &groupMembers(int32_t g) const
    {
        return groups_[static_cast<size_t>(g)];
    }
    size_t groupCount() const { return groups_.size(); }

    /// Resolves start times. Returns false if the graph deadlocks (a schedule bug).
    bool run();

private:
    int units_;
    Storage s_;
    bool ran_ = false;
    std::vector<TaskId> last_in_stream_;  // per unit * kEngineStreamCount
    std::vector<TaskId> first_in_stream_; // per unit * kEngineStreamCount
    std::vector<std::vector<TaskId>> groups_;
};

} // namespace scalescope
