// The critical path of a simulated step: the chain of tasks whose durations set its length,
// found by walking back from the task that ends the step through what released each task
// last. The public reference is HolisticTraceAnalysis' critical-path analysis of a measured
// step (Meta, hta/analyzers/critical_path_analysis.py: a graph of dependent operations, the
// longest path through it, its time attributed per kind of operation).
#pragma once

#include "sim/engine.h"

#include <array>
#include <vector>

namespace scalescope
{

/// The chain, with its time per kind of task. The times cover [from_s, end of the last
/// task] exactly: sum(seconds_by_kind) + slowest_gpu_s + idle_s = span_s.
struct CriticalPath {
    std::vector<TaskId> tasks; // from the last task back to the first on the path
    double span_s = 0;
    /// Seconds of the path on tasks of each kind (SegmentKind), clipped to the window.
    /// Jittered work counts its calm length here and the rest in slowest_gpu_s.
    std::array<double, kSegmentKindCount> seconds_by_kind{};
    /// Jittered work beyond its calm length: the slowest member GPU's jitter, straggler or
    /// thermal slow-down, which the task waits out on the path.
    double slowest_gpu_s = 0;
    /// Time on the path when no task of it ran (a task released by another's start, or the
    /// first task starting after from_s).
    double idle_s = 0;
};

/// Walks back from `last` (a task of a graph that has run) through, for each task, the latest
/// member of its collective group when it has one (the group starts when that member is
/// ready), then the task that released that member last (TaskGraph's binding: a dependency
/// or the previous task of its stream), until a task starts at or before `from_s`.
CriticalPath criticalPath(const TaskGraph &graph, TaskId last, double from_s);

} // namespace scalescope
