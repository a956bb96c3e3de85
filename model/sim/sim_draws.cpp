// Per-GPU duration factors: jitter draws (counter-based RNG), stragglers, thermal throttling.
#include "sim/simulation_p.h"

#include "effects/jitter.h"

namespace scalescope
{

namespace sim_detail
{

bool Simulation::hot(int gpu, int it) const
{
    if (!step_.thermal_varies)
        return false;
    const ThermalSpec &th = ctx_.scenario.effects.thermal;
    // Steps after the warm-up ones are the measured steps; each lasts about one step.
    const double step = ctx_.thermal_step_s > 0 ? ctx_.thermal_step_s : step_.step_compute_s;
    const double t = th.start_s.value_or(0.0) + (it - warmup_ + 0.5) * step;
    return th.throttledAt(gpu, t);
}

double Simulation::thermalFactor(int gpu, int it) const
{
    return hot(gpu, it) ? step_.thermal_stretch : 1.0;
}

void Simulation::drawFactors()
{
    // Jitter, stragglers and thermal throttling per member GPU: each member's factor is
    // drawn once and kept, and the group runs at the slowest member's pace. The draw is
    // counter-based (seed, GPU, task), so units are drawn in parallel with the same result.
    const EffectsSpec &fx = ctx_.scenario.effects;
    const size_t gpus = static_cast<size_t>(plan_.gpus);
    gpu_factor_.resize(gpus * static_cast<size_t>(iterations_));
    hot_.resize(gpus * static_cast<size_t>(iterations_));
    for (int it = 0; it < iterations_; ++it)
        for (size_t g = 0; g < gpus; ++g) {
            const auto gpu = static_cast<int>(g);
            gpu_factor_[static_cast<size_t>(it) * gpus + g] =
                step_.slowdownOf(gpu) * thermalFactor(gpu, it);
            hot_[static_cast<size_t>(it) * gpus + g] = hot(gpu, it) ? 1 : 0;
        }
    if (!per_rank_)
        return;
    const size_t T = static_cast<size_t>(plan_.stageWidth());
    factor_.resize(graph_.size() * T);
    const JitterDraw jitter(fx.jitter);
    // The measured steps' compute, calm and as drawn (per unit, summed in unit order so the
    // mean does not depend on the thread count).
    const int first = firstDrawnForMean();
    std::vector<std::pair<double, double>> drawn(static_cast<size_t>(units_), {0.0, 0.0});
    parallelChunks(static_cast<size_t>(units_), threads_, 16, [&](size_t ub, size_t ue) {
        for (size_t u = ub; u < ue; ++u) {
            const std::vector<int> &m = members_[u];
            double calm = 0, jittered = 0;
            for (TaskId id = unit_tasks_[u].first; id < unit_tasks_[u].second; ++id) {
                Task &t = graph_[id];
                if (!t.jittered)
                    continue;
                const double base = graph_.baseDuration(id);
                double worst = 0;
                const double *gf = &gpu_factor_[static_cast<size_t>(t.iteration) * gpus];
                const bool measured = t.iteration >= first;
                for (int gpu : m) {
                    // Stored as float; the task's duration uses the same rounded factor, so
                    // the slowest member's own time equals the task's (no sliver of waiting,
                    // no overlap with the next segment).
                    const double j = jitter(fx.seed, static_cast<uint32_t>(gpu), id);
                    const auto f = static_cast<float>(gf[gpu] * j);
                    factor_[id * T + static_cast<size_t>(gpu) % T] = f;
                    worst = std::max(worst, static_cast<double>(f));
                    if (measured) {
                        calm += base;
                        jittered += base * j;
                    }
                }
                t.duration = base * worst;
            }
            drawn[u] = {calm, jittered};
        }
    });
    if (fx.jitter > 0) {
        double calm = 0, jittered = 0;
        for (const auto &[c, j] : drawn) {
            calm += c;
            jittered += j;
        }
        jitter_mean_ = calm > 0 ? jittered / calm : jitterMeanFactor(fx.jitter);
        jittered_compute_ = jittered;
    }
}

} // namespace sim_detail

} // namespace scalescope
