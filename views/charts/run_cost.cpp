#include "charts/run_cost.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace scalescope
{

RunCost computeRunCost(const RunCostInputs &in)
{
    RunCost out;
    const double gpus = in.gpus > 0 ? in.gpus : 0;
    const double steps = in.steps > 0 ? in.steps : 0;
    const double step_s = in.step_time_s > 0 ? in.step_time_s : 0;
    constexpr double kJoulePerKwh = 3.6e6;
    out.step_time_s = step_s;
    out.run_time_s = step_s * steps;
    out.gpu_hours = gpus * out.run_time_s / 3600.0;
    out.energy_known = in.board_power_w > 0;
    if (out.energy_known) {
        out.energy_per_step_kwh = gpus * in.board_power_w * step_s / kJoulePerKwh;
        out.energy_per_run_kwh = out.energy_per_step_kwh * steps;
        out.electricity_cost = out.energy_per_run_kwh * std::max(0.0, in.price_per_kwh);
    }
    return out;
}

double stepsForTokens(double tokens, int64_t global_batch, int64_t seq_len)
{
    if (global_batch <= 0 || seq_len <= 0 || tokens <= 0)
        return 0;
    return std::ceil(tokens / (double(global_batch) * double(seq_len)));
}

QString formatRunDuration(double seconds)
{
    const QLocale locale;
    if (!(seconds >= 0) || !std::isfinite(seconds))
        return QStringLiteral("—");
    if (seconds < 1)
        return QCoreApplication::translate("Duration", "%1 ms")
            .arg(locale.toString(seconds * 1e3, 'g', 3));
    if (seconds < 60)
        return QCoreApplication::translate("Duration", "%1 s")
            .arg(locale.toString(seconds, 'g', 3));
    if (seconds < 3600)
        return QCoreApplication::translate("Duration", "%1 min")
            .arg(locale.toString(seconds / 60, 'f', 1));
    if (seconds < 48 * 3600)
        return QCoreApplication::translate("Duration", "%1 h")
            .arg(locale.toString(seconds / 3600, 'f', 1));
    return QCoreApplication::translate("Duration", "%1 days")
        .arg(locale.toString(seconds / 86400, 'f', 1));
}

} // namespace scalescope
