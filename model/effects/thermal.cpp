// Thermal throttling over time and the effects a smaller cluster keeps (effects.h).
#include "effects/effects.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace scalescope
{

double ThermalSpec::steadyC(int gpu) const
{
    for (const ThermalGpuSpec &g : gpus)
        if (g.gpu == gpu)
            return g.steady_c;
    // Version-1 files give no temperatures: every GPU settles above the threshold.
    return steady_c.value_or(throttle_above_c + kUnstatedSteadyAboveThrottleC);
}

double ThermalSpec::temperatureC(int gpu, double t_s) const
{
    // First-order thermal model (Newton's law of cooling; HotSpot, Skadron et al. ISCA 2003).
    const double rise = steadyC(gpu) - ambient_c;
    return ambient_c + rise * (1.0 - std::exp(-std::max(0.0, t_s) / warmup_s));
}

double ThermalSpec::throttleOnsetS(int gpu) const
{
    const double tss = steadyC(gpu);
    if (tss <= throttle_above_c)
        return std::numeric_limits<double>::infinity();
    if (ambient_c >= throttle_above_c)
        return 0;
    // Solve Ta + (Tss - Ta)(1 - exp(-t/tau)) = threshold for t.
    return -warmup_s * std::log1p(-(throttle_above_c - ambient_c) / (tss - ambient_c));
}

bool ThermalSpec::throttledAt(int gpu, double t_s) const
{
    if (!start_s)
        return steadyC(gpu) > throttle_above_c;
    return t_s >= throttleOnsetS(gpu);
}

bool ThermalSpec::varies(int gpu_count) const
{
    if (!enabled)
        return false;
    if (start_s)
        return true;
    const bool first = steadyC(0) > throttle_above_c;
    int listed = 0;
    for (const ThermalGpuSpec &g : gpus) {
        if (g.gpu >= gpu_count)
            continue;
        ++listed;
        if ((g.steady_c > throttle_above_c) != first)
            return true;
    }
    // GPUs not listed take the common steady-state temperature.
    const bool others =
        steady_c.value_or(throttle_above_c + kUnstatedSteadyAboveThrottleC) > throttle_above_c;
    return listed < gpu_count && others != first;
}

double ThermalSpec::referenceSteadyC(int gpu_count) const
{
    double coolest = std::numeric_limits<double>::infinity();
    std::vector<bool> listed(static_cast<size_t>(std::max(0, gpu_count)), false);
    int listed_count = 0;
    for (const ThermalGpuSpec &g : gpus) {
        if (g.gpu < 0 || g.gpu >= gpu_count)
            continue;
        coolest = std::min(coolest, steadyC(g.gpu)); // its first entry, as steadyC reads it
        if (!listed[static_cast<size_t>(g.gpu)]) {
            listed[static_cast<size_t>(g.gpu)] = true;
            ++listed_count;
        }
    }
    if (listed_count < gpu_count) // a GPU of the job has the common cooling
        coolest =
            std::min(coolest, steady_c.value_or(throttle_above_c + kUnstatedSteadyAboveThrottleC));
    return coolest;
}

void EffectsSpec::restrictTo(int gpus)
{
    std::erase_if(stragglers, [&](const StragglerSpec &s) { return s.gpu >= gpus; });
    std::erase_if(thermal.gpus, [&](const ThermalGpuSpec &g) { return g.gpu >= gpus; });
}

} // namespace scalescope
