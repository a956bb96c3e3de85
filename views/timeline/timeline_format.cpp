#include "timeline/timeline_format.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{
QString unitName(double unit_s)
{
    if (unit_s < 1e-6)
        return QCoreApplication::translate("TimelineWidget", "ns");
    if (unit_s < 1e-3)
        return QCoreApplication::translate("TimelineWidget", "µs");
    if (unit_s < 1)
        return QCoreApplication::translate("TimelineWidget", "ms");
    return QCoreApplication::translate("TimelineWidget", "s");
}
} // namespace

QString formatDuration(double seconds)
{
    const double magnitude = std::abs(seconds);
    double unit_s = 1;
    if (magnitude < 1e-6)
        unit_s = 1e-9;
    else if (magnitude < 1e-3)
        unit_s = 1e-6;
    else if (magnitude < 1)
        unit_s = 1e-3;
    const double value = seconds / unit_s;
    const double abs_value = std::abs(value);
    const int decimals = abs_value == 0 || abs_value >= 100 ? 0 : abs_value >= 10 ? 1 : 2;
    return QStringLiteral("%1 %2").arg(value, 0, 'f', decimals).arg(unitName(unit_s));
}

QString formatStepTime(double seconds)
{
    if (!(seconds > 0))
        return QStringLiteral("—");
    if (seconds < 1e-3)
        return QCoreApplication::translate("MainWindow", "%1 µs").arg(seconds * 1e6, 0, 'f', 1);
    if (seconds < 1.0)
        return QCoreApplication::translate("MainWindow", "%1 ms").arg(seconds * 1e3, 0, 'f', 1);
    return QCoreApplication::translate("MainWindow", "%1 s").arg(seconds, 0, 'f', 2);
}

QString TimeAxisTicks::label(double t_s) const
{
    double value = t_s / unit_s;
    if (std::abs(value) < step_s / unit_s * 1e-6)
        value = 0; // no "-0.00"
    return QStringLiteral("%1 %2").arg(value, 0, 'f', decimals).arg(unit);
}

TimeAxisTicks computeTimeAxisTicks(double start_s, double end_s, int width_px, int min_spacing_px)
{
    TimeAxisTicks ticks;
    if (!(end_s > start_s) || width_px <= 0)
        return ticks;
    const double span = end_s - start_s;
    const double max_ticks =
        std::max(1.0, static_cast<double>(width_px) / std::max(1, min_spacing_px));
    const double raw_step = span / max_ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
    double step = magnitude * 10;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * magnitude >= raw_step * (1 - 1e-9)) {
            step = m * magnitude;
            break;
        }
    }
    ticks.step_s = step;
    // Unit by the magnitude of the times shown, decimals by the step in that unit.
    const double largest = std::max(std::abs(start_s), std::abs(end_s));
    ticks.unit_s = largest < 1e-3 ? 1e-6 : largest < 1 ? 1e-3 : 1;
    ticks.unit = unitName(ticks.unit_s);
    ticks.decimals =
        std::clamp(static_cast<int>(-std::floor(std::log10(step / ticks.unit_s) + 1e-9)), 0, 9);
    const double first = std::ceil(start_s / step - 1e-9) * step;
    for (size_t n = 0;; ++n) {
        const double t = first + step * static_cast<double>(n);
        if (t > end_s + step * 1e-9)
            break;
        ticks.ticks_s.push_back(t);
    }
    return ticks;
}

} // namespace scalescope
