#include "sim/critical_path.h"

#include <algorithm>

namespace scalescope
{

namespace
{

/// The member of `t`'s collective group whose readiness started the group (the latest
/// ready; ties: the first member), or `id` itself outside a group.
TaskId latestMember(const TaskGraph &graph, TaskId id)
{
    const Task &t = graph[id];
    if (t.group < 0)
        return id;
    TaskId latest = id;
    for (TaskId m : graph.groupMembers(t.group))
        if (graph[m].ready > graph[latest].ready)
            latest = m;
    return latest;
}

} // namespace

CriticalPath criticalPath(const TaskGraph &graph, TaskId last, double from_s)
{
    CriticalPath path;
    if (last == kNoTask || last >= graph.size())
        return path;
    const double end = graph[last].end();
    path.span_s = std::max(0.0, end - from_s);
    double until = end; // where the task after this one on the path starts
    TaskId id = last;
    // Each step goes to a task resolved before this one, so the walk ends; the bound guards
    // a graph that has not run.
    for (size_t steps = 0; id != kNoTask && steps <= graph.size(); ++steps) {
        const Task &t = graph[id];
        if (t.end() <= from_s && t.start < from_s)
            break;
        path.tasks.push_back(id);
        const double a = std::max(t.start, from_s);
        const double b = std::min(t.end(), until);
        if (b > a) {
            const double on_path = b - a;
            // Jittered work: its calm length is the kind's, the rest the slowest member's.
            const double base = graph.baseDuration(id);
            const double calm_share =
                t.jittered && t.duration > base && t.duration > 0 ? base / t.duration : 1.0;
            path.seconds_by_kind[static_cast<size_t>(t.kind)] += on_path * calm_share;
            path.slowest_gpu_s += on_path * (1.0 - calm_share);
        }
        if (t.start <= from_s)
            break;
        const TaskId from = graph[latestMember(graph, id)].binding;
        // Released by nothing (the first task of its stream, no dependency) or by a task that
        // ended before this one started (a start-to-start edge): nothing on the path ran.
        const double released = from == kNoTask ? from_s : std::max(graph[from].end(), from_s);
        if (released < t.start)
            path.idle_s += t.start - released;
        until = t.start;
        id = from;
    }
    return path;
}

} // namespace scalescope
