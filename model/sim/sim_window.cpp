// The measured window of a simulated run: which stretch of the simulated iterations counts
// as the step (after the warm-up, bounded by the data loader's pace), per unit.
#include "sim/simulation_p.h"

#include <algorithm>
#include <utility>

namespace scalescope
{

namespace sim_detail
{

bool Simulation::measureWindow(SimResult &result)
{
    const int first = firstMeasured();
    const double steps = iterations_ - first;
    const bool async = plan_.update == UpdateMode::Async;
    const double own_compute = plan_.gpus > 0 ? jittered_compute_ / plan_.gpus : 0.0;
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
        own_pace.build_timeline = false;
        const SimResult gpus = Simulation(ctx_, own_pace, Loads::Free).run();
        if (cancelled(result) || !gpus.ok) {
            result.error = gpus.error;
            return false;
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
        const double *e = &unit_end_[u * static_cast<size_t>(iterations_)];
        const int replica = static_cast<int>(u) / plan_.pipeline;
        return bounded(first > 0 ? e[first - 1] : 0.0, e[iterations_ - 1],
                       loadSpan(replica, first), loaderBound(replica, first), 0.0);
    };
    double step_sum = 0;
    window_.resize(static_cast<size_t>(units_));
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u) {
        window_[u] = windowOf(u);
        step_sum += (window_[u].second - window_[u].first) * static_cast<double>(members_[u].size());
    }
    result.step_time_s = step_sum / plan_.gpus / steps;
    result.window_start_s = window_[0].first;
    result.window_end_s = window_[0].second;
    result.warmup_iterations = warmup_;
    result.jitter_mean = jitter_mean_;
    return true;
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
        const TaskId in = f_first_[tableIndex(replica, static_cast<int>(k / m),
                                              step_.layout.firstOf(k % m), k % m)];
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

} // namespace scalescope
