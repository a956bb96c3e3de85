#include "analysis/step_spread.h"

#include <algorithm>
#include <cmath>

namespace scalescope
{

double nearestRankQuantile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const double n = static_cast<double>(values.size());
    const auto rank = static_cast<size_t>(std::clamp(std::ceil(q * n), 1.0, n));
    return values[rank - 1];
}

bool stepsVary(const SimContext &ctx)
{
    const EffectsSpec &fx = ctx.scenario.effects;
    return fx.jitter > 0 || fx.data_loader.enabled || ctx.plan.update == UpdateMode::Async ||
           (fx.thermal.enabled && fx.thermal.start_s.has_value());
}

Result<StepSpread> stepSpread(const SimContext &ctx, const SimResult &one, int steps,
                              size_t max_tasks, const std::atomic<bool> *cancel)
{
    StepSpread s;
    s.varies = stepsVary(ctx);
    if (!s.varies || !one.ok) {
        s.steps = 1;
        s.p50_s = s.p90_s = s.p99_s = one.step_time_s;
        return s;
    }
    // As many steps as the engine's task limit allows, at least 8.
    SimOptions o;
    if (max_tasks > 0)
        o.max_tasks = max_tasks;
    o.cancel = cancel;
    const size_t per_step = std::max<size_t>(1, estimatedTasks(ctx, o));
    o.iterations = std::clamp(static_cast<int>(o.max_tasks / per_step) - 4, 8, std::max(8, steps));
    const SimResult r = simulate(ctx, o);
    if (!r.ok)
        return InputError{"", r.error};
    s.steps = static_cast<int>(r.step_times_s.size());
    s.p50_s = nearestRankQuantile(r.step_times_s, 0.50);
    s.p90_s = nearestRankQuantile(r.step_times_s, 0.90);
    s.p99_s = nearestRankQuantile(r.step_times_s, 0.99);
    return s;
}

} // namespace scalescope
