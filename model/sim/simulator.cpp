// Simulating a step: the engine run, its breakdown, the entry points (the measured window:
// sim_window.cpp).
#include "sim/simulator.h"

#include "sim/simulation_p.h"

#ifdef __GLIBC__
#include <malloc.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cmath>
#include <string>

namespace scalescope
{

namespace sim_detail
{

SimResult Simulation::run()
{
    SimResult result;
    if (!buildAndRun(result))
        return result;
    if (loads_free_) {
        // The GPUs' own pace: the same graph and draws with data always at hand, from the
        // start over all iterations (the first step of a job without a loader is steady).
        result.step_time_s = iteration_end_.back() / iterations_;
        result.jitter_mean = jitter_mean_;
        result.ok = true;
        return result;
    }
    if (!measureWindow(result)) // sim_window.cpp
        return result;
    criticalPathOf(result);
    if (plan_.update == UpdateMode::Async) {
        // Asynchronous replicas each keep their own pace (measureWindow): a step is one
        // replica's, so the steps are every unit's iteration lengths, pooled; their mean is
        // the step time (a straggler's replica is the slow tail, not every step).
        const size_t n = static_cast<size_t>(iterations_);
        for (size_t u = 0; u < static_cast<size_t>(units_); ++u) {
            const double *e = &unit_end_[u * n];
            for (int it = firstMeasured(); it < iterations_; ++it)
                result.step_times_s.push_back(e[it] - (it > 0 ? e[it - 1] : 0.0));
        }
    } else {
        for (int it = firstMeasured(); it < iterations_; ++it)
            result.step_times_s.push_back(
                iteration_end_[static_cast<size_t>(it)] -
                (it > 0 ? iteration_end_[static_cast<size_t>(it) - 1] : 0.0));
    }
    account(result);
    if (opt_.build_timeline && (cancelled(result) || !buildTimeline(result)))
        return result;
    result.ok = true;
    return result;
}

bool Simulation::buildAndRun(SimResult &result)
{
    result.per_rank = per_rank_;
    result.tasks = estimateTasks();
    if (result.tasks > opt_.max_tasks) {
        result.too_large = true;
        result.error = "the event simulation would need about " + std::to_string(result.tasks) +
                       " tasks, more than the limit of " + std::to_string(opt_.max_tasks) +
                       " (fewer micro-batches per step, iterations or simulated GPUs fit)";
        return false;
    }
    const size_t table = static_cast<size_t>(replicas_) * iterations_ * vstages_ *
                         static_cast<size_t>(plan_.micro_batches);
    f_first_.assign(table, kNoTask);
    f_send_.assign(table, kNoTask);
    b_first_.assign(table, kNoTask);
    b_send_.assign(table, kNoTask);
    load_.assign(step_.loader_s > 0 ? static_cast<size_t>(replicas_) * iterations_ *
                                          static_cast<size_t>(plan_.micro_batches)
                                    : 0,
                 kNoTask);
    stream_tasks_.assign(static_cast<size_t>(units_) * kStreamCount, {});
    members_.resize(static_cast<size_t>(units_));
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u)
        members_[u] = membersOf(u);
    dp_collectives_.assign(static_cast<size_t>(units_), {});
    recv_tasks_.assign(static_cast<size_t>(units_), {});
    unit_tasks_.assign(static_cast<size_t>(units_), {});
    {
        // The first replica is built (replicateFirst sizes the graph for the copies once
        // it is known exactly).
        const size_t tasks =
            static_cast<size_t>(plan_.pipeline) * iterations_ *
            (static_cast<size_t>(plan_.micro_batches * plan_.virtual_stages) * 6 + 64);
        graph_.reserve(tasks, 2 * tasks);
    }
    orders_ = pipelineOrders(plan_.schedule, plan_.pipeline, plan_.micro_batches,
                             plan_.virtual_stages, step_.pass_costs);
    const auto first_task = static_cast<TaskId>(graph_.size());
    const size_t first_edge = graph_.edgeCount();
    for (int s = 0; s < plan_.pipeline; ++s)
        buildUnit(0, s);
    if (replicas_ > 1)
        replicateFirst(first_task, first_edge);
    linkPipeline();
    groupCollectives();
    if (cancelled(result))
        return false;
    drawFactors();
    if (cancelled(result))
        return false;
    if (!graph_.run()) {
        result.error = "internal error: the task graph of this plan deadlocks";
        return false;
    }
    if (cancelled(result))
        return false;
    labelGroups();
    result.tasks = graph_.size();

    // Iteration ends, globally and per unit (asynchronous replicas run at their own pace),
    // and each unit's receives in time order. A unit's streams run in order and hold their
    // tasks in program order, iteration after iteration: a stream's last task of an
    // iteration ends it there, and its last task ends it overall (found by a binary search
    // over iterations instead of reading every task). The step's last task is the first,
    // in task order, of the latest-ending ones: within a stream the earliest of a trailing
    // run of equal ends, across streams the lowest id.
    const size_t its = static_cast<size_t>(iterations_);
    iteration_end_.assign(its, 0.0);
    unit_end_.assign(static_cast<size_t>(units_) * its, 0.0);
    std::vector<double> ends(static_cast<size_t>(units_) * its, 0.0); // every stream's
    std::vector<TaskId> unit_last(static_cast<size_t>(units_), kNoTask);
    parallelChunks(static_cast<size_t>(units_), threads_, 16, [&](size_t ub, size_t ue) {
        for (size_t u = ub; u < ue; ++u) {
            std::vector<TaskId> &recv = recv_tasks_[u];
            std::sort(recv.begin(), recv.end(),
                      [&](TaskId a, TaskId b) { return graph_[a].start < graph_[b].start; });
            TaskId &last = unit_last[u];
            for (size_t s = 0; s < kStreamCount; ++s) {
                const std::vector<TaskId> &list = stream_tasks_[u * kStreamCount + s];
                if (list.empty())
                    continue;
                auto from = list.begin();
                for (size_t it = 0; it < its && from != list.end(); ++it) {
                    const auto to = std::partition_point(
                        from, list.end(), [&](TaskId id) { return graph_[id].iteration <= it; });
                    if (to != from) {
                        const double e = graph_[*(to - 1)].end();
                        ends[u * its + it] = std::max(ends[u * its + it], e);
                        if (s == static_cast<size_t>(Stream::Compute))
                            unit_end_[u * its + it] = e;
                    }
                    from = to;
                }
                size_t k = list.size() - 1;
                while (k > 0 && graph_[list[k - 1]].end() == graph_[list[k]].end())
                    --k;
                const TaskId cand = list[k];
                if (last == kNoTask || graph_[cand].end() > graph_[last].end() ||
                    (graph_[cand].end() == graph_[last].end() && cand < last))
                    last = cand;
            }
        }
    });
    last_task_ = kNoTask;
    for (size_t u = 0; u < static_cast<size_t>(units_); ++u) {
        const TaskId l = unit_last[u];
        if (l != kNoTask && (last_task_ == kNoTask || graph_[l].end() > graph_[last_task_].end()))
            last_task_ = l;
        for (size_t it = 0; it < its; ++it)
            iteration_end_[it] = std::max(iteration_end_[it], ends[u * its + it]);
    }
    for (int it = 1; it < iterations_; ++it)
        iteration_end_[static_cast<size_t>(it)] = std::max(
            iteration_end_[static_cast<size_t>(it)], iteration_end_[static_cast<size_t>(it) - 1]);
    return true;
}

void Simulation::replicateFirst(TaskId first_task, size_t first_edge)
{
    // buildUnit depends on the replica only through the unit and the replica's rows of the
    // tables, and durations differ per GPU only once drawn (drawFactors, later): every
    // replica is the first one with its units and task ids moved up. Copying it (the graph,
    // then the per-unit lists and the tables) gives the graph that building each would.
    const auto P = static_cast<uint32_t>(plan_.pipeline);
    const TaskId n = static_cast<TaskId>(graph_.size()) - first_task;
    graph_.replicateTail(first_task, first_edge, 0, P, replicas_ - 1);
    const auto moved = [](const std::vector<TaskId> &from, TaskId off) {
        std::vector<TaskId> to(from);
        for (TaskId &id : to)
            id += off;
        return to;
    };
    const size_t table = static_cast<size_t>(iterations_) * vstages_ *
                         static_cast<size_t>(plan_.micro_batches); // one replica's rows
    const size_t loads =
        load_.empty() ? 0
                      : static_cast<size_t>(iterations_) * static_cast<size_t>(plan_.micro_batches);
    for (int r = 1; r < replicas_; ++r) {
        const TaskId off = static_cast<TaskId>(r) * n;
        for (uint32_t s = 0; s < P; ++s) {
            const size_t u = static_cast<size_t>(r) * P + s;
            for (size_t k = 0; k < kStreamCount; ++k)
                stream_tasks_[u * kStreamCount + k] =
                    moved(stream_tasks_[s * kStreamCount + k], off);
            dp_collectives_[u] = moved(dp_collectives_[s], off);
            unit_tasks_[u] = {unit_tasks_[s].first + off, unit_tasks_[s].second + off};
        }
        const auto copyRows = [&](std::vector<TaskId> &t, size_t rows) {
            for (size_t i = 0; i < rows; ++i) {
                const TaskId id = t[i];
                t[static_cast<size_t>(r) * rows + i] = id == kNoTask ? kNoTask : id + off;
            }
        };
        copyRows(f_first_, table);
        copyRows(f_send_, table);
        copyRows(b_first_, table);
        copyRows(b_send_, table);
        if (loads > 0)
            copyRows(load_, loads);
    }
}

void Simulation::criticalPathOf(SimResult &result) const
{
    if (last_task_ == kNoTask)
        return;
    const double from = window_[graph_[last_task_].unit].first;
    CriticalPath path = criticalPath(graph_, last_task_, from);
    const double steps = iterations_ - firstMeasured();
    path.span_s /= steps;
    for (double &x : path.seconds_by_kind)
        x /= steps;
    path.slowest_gpu_s /= steps;
    path.idle_s /= steps;
    result.critical_path = std::move(path);
}

void Simulation::account(SimResult &result)
{
    const double steps = iterations_ - firstMeasured();
    // Each unit's rows are walked once and shared by its member GPUs (every data-parallel
    // replica when they are identical, the tensor ranks of one replica otherwise); only
    // jittered work differs per member (expand). Units are independent: several threads.
    std::vector<UnitRows> unit_rows;
    if (opt_.build_timeline) {
        unit_rows = takeRowsStorage();
        unit_rows.resize(static_cast<size_t>(units_));
    }
    std::vector<UnitAccount> accounts(static_cast<size_t>(units_));
    parallelChunks(static_cast<size_t>(units_), threads_, 4, [&](size_t ub, size_t ue) {
        UnitRows local;
        for (size_t u = ub; u < ue; ++u) {
            UnitRows &r = opt_.build_timeline ? unit_rows[u] : local;
            unitRows(static_cast<uint32_t>(u), r);
            accountUnit(static_cast<uint32_t>(u), r, accounts[u]);
        }
    });
    // Breakdown over the measured window, averaged over GPUs (summed in unit order, so the
    // figures do not depend on the thread count).
    Breakdown sum;
    std::vector<double> wait_by_label(kLabelCount + extra_labels_.size(), 0.0);
    constexpr double Breakdown::*kFields[] = {&Breakdown::compute,
                                              &Breakdown::communication_exposed,
                                              &Breakdown::communication_total,
                                              &Breakdown::pipeline_bubble,
                                              &Breakdown::wait,
                                              &Breakdown::data_loading,
                                              &Breakdown::tp_comm,
                                              &Breakdown::dp_comm,
                                              &Breakdown::pp_comm,
                                              &Breakdown::pp_exposed,
                                              &Breakdown::ep_comm,
                                              &Breakdown::cp_comm,
                                              &Breakdown::expert_wait,
                                              &Breakdown::optimizer};
    for (const UnitAccount &acc : accounts) {
        for (double Breakdown::*f : kFields)
            sum.*f += acc.b.*f;
        for (const auto &[label, x] : acc.waits)
            wait_by_label[label] += x;
    }
    accounts = {};
    const double norm = 1.0 / (plan_.gpus * steps);
    for (double Breakdown::*f : kFields)
        sum.*f *= norm;
    // What overlap hid of the exchanges on the critical path is on no stream: the step
    // description's figure, the same for every step.
    sum.tp_hidden = step_.tp_hidden_s;
    sum.ep_hidden = step_.ep_hidden_s;
    sum.cp_hidden = step_.cp_hidden_s;
    sum.communication_total += sum.tp_hidden + sum.ep_hidden + sum.cp_hidden;
    result.breakdown = sum;
    // What GPUs wait for most (names the straggler when there is one).
    const auto most = std::max_element(wait_by_label.begin(), wait_by_label.end());
    if (*most > 0)
        result.main_wait = labelRecord(static_cast<uint32_t>(most - wait_by_label.begin()));

    if (plan_.update == UpdateMode::Async && result.step_time_s > 0)
        result.staleness_steps = std::ceil(sum.dp_comm / result.step_time_s);
    if (opt_.build_timeline)
        unit_rows_ = std::move(unit_rows);
}

} // namespace sim_detail

/// A run allocates and frees hundreds of MB (the task graph, rows, the timeline). On the main
/// thread glibc's malloc gives the top of its heap back to the system when it is freed and
/// page-faults it in again on the next run: the GPT-3 175B timeline of 1,024 GPUs with jitter
/// took 145 ms instead of 42 depending only on the order of frees. 64 MB of padding kept at
/// the top of the main heap (M_TOP_PAD, glibc manual "Malloc Tunable Parameters") keeps the
/// pages of one run for the next; blocks up to 1 GB come from the heap rather than from
/// mmap (M_MMAP_THRESHOLD), which glibc otherwise unmaps on free, and the heap is trimmed
/// only above 1 GB free (M_TRIM_THRESHOLD): the task graph of DeepSeek-V3 on 2,048 GPUs
/// (117 MB of tasks) then reuses its pages. It is set only by a run on the main thread (the
/// CLI, the benchmarks): the window's worker allocates in its own arena, where the same setting
/// made the edit-to-timeline latency 131 ms instead of 63 (bench_gui_stages). The CLI and the
/// model benchmark set it before their first closed form too: a 512-GPU ResNet-101 context's
/// buffers crossed glibc's default 128 KiB mmap threshold and its summary took 0.68 ms
/// instead of 0.2.
void keepHeapBetweenRuns()
{
#ifdef __GLIBC__
    static const bool once = [] {
        return getpid() == static_cast<pid_t>(syscall(SYS_gettid)) &&
               mallopt(M_TOP_PAD, 64 << 20) == 1 && mallopt(M_MMAP_THRESHOLD, 1 << 30) == 1 &&
               mallopt(M_TRIM_THRESHOLD, 1 << 30) == 1;
    }();
    (void)once;
#endif
}

SimResult simulate(const SimContext &ctx, const SimOptions &options)
{
    keepHeapBetweenRuns();
    sim_detail::Simulation sim(ctx, options);
    return sim.run();
}

size_t estimatedTasks(const SimContext &ctx, const SimOptions &options)
{
    return sim_detail::Simulation(ctx, options).estimateTasks();
}

} // namespace scalescope
