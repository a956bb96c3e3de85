// Time formatting for the timeline: durations (tooltips) and nice axis ticks.
#pragma once

#include <QString>

#include <vector>

namespace scalescope
{

/// "850 ns", "12.5 µs", "3.20 ms", "1.25 s": three significant digits, unit by magnitude.
QString formatDuration(double seconds);
/// A step time as the status bar shows it: "—" when unknown, µs or ms with one decimal
/// below a second, seconds with two (the plan dialog and the status bar agree to the digit).
QString formatStepTime(double seconds);

/// Axis ticks at 1, 2 or 5 x 10^k seconds, at least `min_spacing_px` apart.
struct TimeAxisTicks {
    double step_s = 0;
    std::vector<double> ticks_s;
    double unit_s = 1; ///< 1e-6, 1e-3 or 1
    QString unit;      ///< "µs", "ms" or "s"
    int decimals = 0;  ///< enough to tell neighbouring ticks apart
    QString label(double t_s) const;
};
TimeAxisTicks computeTimeAxisTicks(double start_s, double end_s, int width_px, int min_spacing_px);

} // namespace scalescope
