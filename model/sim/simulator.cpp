// Simulating a step: the engine run, its measured window and breakdown, the entry points.
#include "sim/simulator.h"

#include "sim/simulation_p.h"

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
    result.per_rank = per_rank_;
    result.tasks = estimateTasks();
    if (result.tasks > opt_.max_tasks) {
        result.too_large = true;
        result.error = "the event simulation would need about " + std::to_string(result.tasks) +
                       " tasks, more than the limit of " + std::to_string(opt_.max_tasks) +
                       " (fewer micro-batches per step, iterations or simulated GPUs fit)";
        return result;
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
    graph_.reserve(static_cast<size_t>(units_) * iterations_ *
                   (static_cast<size_t>(plan_.micro_batches * plan_.virtual_stages) * 6 + 64));
    for (int r = 0; r < replicas_; ++r)
        for (int s = 0; s < plan_.pipeline; ++s)
            buildUnit(r, s);
    linkPipeline();
    groupCollectives();
    if (cancelled(result))
        return result;
    drawFactors();
    if (cancelled(result))
        return result;
    if (!graph_.run()) {
        result.error = "internal error: the task graph of this plan deadlocks";
        return result;
    }
    if (cancelled(result))
        return result;
    labelGroups();
    for (std::vector<TaskId> &r : recv_tasks_)
        std::sort(r.begin(), r.end(),
                  [&](TaskId a, TaskId b) { return graph_[a].start < graph_[b].start; });
    result.tasks = graph_.size();

    // Iteration ends, globally and per unit (asynchronous replicas run at their own pace).
    iteration_end_.assign(static_cast<size_t>(iterations_), 0.0);
    std::vector<double> unit_end(static_cast<size_t>(units_) * iterations_, 0.0);
    for (const Task &t : graph_.tasks()) {
        if (t.stream == Stream::Loader)
            continue;
        iteration_end_[t.iteration] = std::max(iteration_end_[t.iteration], t.end());
        if (t.stream == Stream::Compute) {
            double &e = unit_end[t.unit * static_cast<size_t>(iterations_) + t.iteration];
            e = std::max(e, t.end());
        }
    }
    for (int it = 1; it < iterations_; ++it)
        iteration_end_[static_cast<size_t>(it)] = std::max(
            iteration_end_[static_cast<size_t>(it)], iteration_end_[static_cast<size_t>(it) - 1]);
    const int first = firstMeasured();
    const double steps = iterations_ - first;
    const bool async = plan_.update == UpdateMode::Async;
    const double own_compute = plan_.gpus > 0 ? jittered_compute_ / plan_.gpus : 0.0;
    if (opt_.loads_free) {
        // The GPUs' own pace: the same graph and draws with data always at hand, from the
        // start over all iterations (the first step of a job without a loader is steady).
        result.step_time_s = iteration_end_.back() / iterations_;
        result.jitter_mean = jitter_mean_;
        result.ok = true;
        return result;
    }
    // A synchronous step with a data loader, in bottleneck form (a serial producer feeding
    // the GPUs through a bounded queue runs at the slower of the two: Hopp & Spearman,
    // Factory Physics, Ch. 7, the bottleneck rate): the larger of the GPUs' own pace (this
    // graph with loads that take no time, averaged over all iterations from the start), the
    // loader's work per step (a serial producer, n * m loads) and the compute as drawn
    // (the one-GPU reference does it, analysis/summary.cpp). Each is monotone in the
    // hardware: every end is a max-plus function of the durations (fixed stream orders,
    // draws that belong to the task) and the loads depend on neither the GPU nor the links.
    // Measured as the difference of two iteration ends after the queue's warm-up, a GPU or
    // links twice as fast came out up to 0.6% slower (9 of 40,000 random cases), and a
    // loader-bound window up to 4% short of the loader's rate. The warm-up steps are still
    // run and drawn: the queue the measured step shows is in its steady state.
    double sync_length = 0;
    if (syncLoader() && first > 0) {
        SimOptions own_pace = opt_;
        own_pace.loads_free = true;
        own_pace.build_timeline = false;
        const SimResult gpus = Simulation(ctx_, own_pace).run();
        if (cancelled(result) || !gpus.ok) {
            result.error = gpus.error;
            return result;
        }
        double loads = 0;
        for (int r = 0; r < replicas_; ++r)
            loads = std::max(loads, loadWork(r));
        sync_length = steps * std::max({gpus.step_time_s, loads / iterations_,
                                        own_compute / iterations_});
    }
    const auto bounded = [&](double a, double b, double span, bool loader_bound,
                             double compute) {
        if (span <= 0)
            return std::make_pair(a, b);
        const double length = loader_bound ? std::max(span, compute) : std::max(b - a, span);
        return std::make_pair(b - length, b);
    };
    auto windowOf = [&](uint32_t u) {
        if (!async) {
            const double b = iteration_end_.back();
            if (sync_length > 0)
                return std::make_pair(b - sync_length, b);
            return std::make_pair(first > 0 ? iteration_end_[static_cast<size_t>(first) - 1] : 0.0,
                                  b);
        }
        // Asynchronous replicas keep their own pace, each behind its own loader: the
        // measured steps' n * m serial loads take at least their span (loadSpan), which is
        // the window where the loader alone set the pace (loaderBound), never less than
        // the iteration ends' difference otherwise.
        const double *e = &unit_end[u * static_cast<size_t>(iterations_)];
        const int replica = static_cast<int>(u) / plan_.pipeline;
        return bounded(first > 0 ? e[first - 1] : 0.0, e[iterations_ - 1],
                       loadSpan(replica, first), loaderBound(replica, first), 0.0);
    };
    double step_sum = 0;
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u) {
        const auto [a, b] = windowOf(u);
        step_sum += (b - a) * static_cast<double>(members_[u].size());
    }
    result.step_time_s = step_sum / plan_.gpus / steps;
    result.window_start_s = windowOf(0).first;
    result.window_end_s = windowOf(0).second;
    result.warmup_iterations = warmup_;
    result.jitter_mean = jitter_mean_;

    window_.resize(static_cast<size_t>(units_));
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u)
        window_[u] = windowOf(u);

    // Each unit's rows are walked once and shared by its member GPUs (every data-parallel
    // replica when they are identical, the tensor ranks of one replica otherwise); only
    // jittered work differs per member (expand). Units are independent: several threads.
    std::vector<UnitRows> unit_rows(opt_.build_timeline ? static_cast<size_t>(units_) : 0);
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
    result.breakdown = sum;
    // What GPUs wait for most (names the straggler when there is one).
    const auto most = std::max_element(wait_by_label.begin(), wait_by_label.end());
    if (*most > 0) {
        const auto id = static_cast<uint32_t>(most - wait_by_label.begin());
        result.main_wait_label = labelRecord(id);
        result.main_wait = labelText(*result.main_wait_label);
    }

    if (plan_.update == UpdateMode::Async && result.step_time_s > 0)
        result.staleness_steps = std::ceil(sum.dp_comm / result.step_time_s);

    if (opt_.build_timeline) {
        unit_rows_ = std::move(unit_rows);
        if (cancelled(result) || !buildTimeline(result))
            return result;
    }
    result.ok = true;
    return result;
}

double Simulation::loadSpan(int replica, int first) const
{
    if (load_.empty() || first == 0)
        return 0.0;
    const size_t m = static_cast<size_t>(plan_.micro_batches);
    const size_t base = static_cast<size_t>(replica) * iterations_ * m;
    // The loads of the last micro-batch before the window and of the last one in it.
    const TaskId a = load_[base + static_cast<size_t>(first) * m - 1];
    const TaskId b = load_[base + static_cast<size_t>(iterations_) * m - 1];
    return a == kNoTask || b == kNoTask ? 0.0 : graph_[b].end() - graph_[a].end();
}

double Simulation::loadWork(int replica) const
{
    const size_t n = static_cast<size_t>(iterations_) * static_cast<size_t>(plan_.micro_batches);
    const size_t base = static_cast<size_t>(replica) * n;
    double work = 0;
    for (size_t k = 0; k < n && !load_.empty(); ++k)
        if (load_[base + k] != kNoTask)
            work += graph_[load_[base + k]].duration;
    return work;
}

bool Simulation::loaderBound(int replica, int first) const
{
    // Between two moments the GPU waited for its data (the last micro-batch before the
    // window and the last in it entered the GPU the instant they were loaded), the loader
    // never waited for a free slot: then the GPU consumed exactly the loads in between,
    // at the loader's pace.
    if (load_.empty() || first == 0)
        return false;
    const int64_t m = plan_.micro_batches;
    const size_t base = static_cast<size_t>(replica) * iterations_ * static_cast<size_t>(m);
    const int64_t begin = first * m - 1, end = static_cast<int64_t>(iterations_) * m - 1;
    const auto starved = [&](int64_t k) {
        const TaskId load = load_[base + static_cast<size_t>(k)];
        const TaskId in =
            f_first_[tableIndex(replica, static_cast<int>(k / m), 0, k % m)];
        return load != kNoTask && in != kNoTask && graph_[in].start == graph_[load].end();
    };
    if (!starved(begin) || !starved(end))
        return false;
    for (int64_t k = begin + 1; k <= end; ++k) {
        const Task &t = graph_[load_[base + static_cast<size_t>(k)]];
        if (t.start != graph_[load_[base + static_cast<size_t>(k) - 1]].end())
            return false;
    }
    return true;
}

} // namespace sim_detail

SimResult simulate(const SimContext &ctx, const SimOptions &options)
{
    sim_detail::Simulation sim(ctx, options);
    return sim.run();
}

size_t estimatedTasks(const SimContext &ctx, const SimOptions &options)
{
    return sim_detail::Simulation(ctx, options).estimateTasks();
}

} // namespace scalescope
