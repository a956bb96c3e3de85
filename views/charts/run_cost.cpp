#include "charts/run_cost.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace scalescope
{

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
