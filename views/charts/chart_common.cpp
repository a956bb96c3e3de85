#include "charts/chart_common.h"

#include "palette.h"

#include <QAbstractAxis>
#include <QChart>
#include <QCoreApplication>
#include <QLabel>
#include <QLegend>
#include <QLocale>
#include <QValueAxis>

#include <cmath>

namespace scalescope
{

QChart *makeChart(const QString &title)
{
    auto *chart = new QChart;
    chart->setTheme(QChart::ChartThemeLight);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setTitle(title);
    return chart;
}

void applyChartFonts(QChart *chart, const QFont &base)
{
    QFont title = base;
    title.setBold(true);
    chart->setTitleFont(title);
    chart->legend()->setFont(base);
    QFont small = base;
    if (small.pointSizeF() > 0)
        small.setPointSizeF(base.pointSizeF() * 0.9);
    const auto axes = chart->axes();
    for (QAbstractAxis *axis : axes) {
        axis->setLabelsFont(small);
        axis->setTitleFont(base);
    }
}

void setZeroBasedRange(QValueAxis *axis, double max_value)
{
    if (!(max_value > 0) || !std::isfinite(max_value))
        max_value = 1;
    const double raw_step = max_value / 6.0; // at most six intervals
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
    double step = 10 * magnitude;
    for (double m : {1.0, 2.0, 5.0})
        if (m * magnitude >= raw_step * (1 - 1e-9)) {
            step = m * magnitude;
            break;
        }
    const double top = std::ceil(max_value / step * (1 - 1e-9)) * step;
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(0, top);
}

QString emptyStateMessage(const ResultPtr &result)
{
    if (!result)
        return QCoreApplication::translate("ResultViews", "No result yet.");
    if (!result->ok()) {
        const QString where =
            result->error_path.isEmpty()
                ? QString()
                : QCoreApplication::translate("ResultViews", "%1: ").arg(result->error_path);
        return QCoreApplication::translate("ResultViews", "This scenario cannot be computed.\n%1%2")
            .arg(where, result->error);
    }
    return {};
}

QLabel *makeEmptyStateLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QStringLiteral("emptyState"));
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QColor speedupLossColor(SpeedupLoss loss)
{
    switch (loss) {
    case SpeedupLoss::DpComm:
        return kindColor(SegmentKind::DpComm);
    case SpeedupLoss::TpComm:
        return kindColor(SegmentKind::TpComm);
    case SpeedupLoss::Bubble:
        return kindColor(SegmentKind::Bubble);
    case SpeedupLoss::PointToPoint:
        return kindColor(SegmentKind::PpComm);
    case SpeedupLoss::Sync:
        return kindColor(SegmentKind::Wait);
    case SpeedupLoss::DataLoading:
        return kindColor(SegmentKind::DataLoad);
    case SpeedupLoss::Optimizer:
        return kindColor(SegmentKind::Optimizer);
    case SpeedupLoss::Compute:
        return QColor(0x8c, 0x6d, 0x31);
    }
    return Qt::black;
}

QString speedupLossLabel(SpeedupLoss loss)
{
    switch (loss) {
    case SpeedupLoss::DpComm:
        return QCoreApplication::translate("ResultViews", "DP communication");
    case SpeedupLoss::TpComm:
        return QCoreApplication::translate("ResultViews", "TP communication");
    case SpeedupLoss::Bubble:
        return QCoreApplication::translate("ResultViews", "Pipeline bubble");
    case SpeedupLoss::PointToPoint:
        return QCoreApplication::translate("ResultViews", "Point-to-point");
    case SpeedupLoss::Sync:
        return QCoreApplication::translate("ResultViews", "Stragglers and jitter");
    case SpeedupLoss::DataLoading:
        return QCoreApplication::translate("ResultViews", "Data loading");
    case SpeedupLoss::Optimizer:
        return QCoreApplication::translate("ResultViews", "Optimizer");
    case SpeedupLoss::Compute:
        return QCoreApplication::translate("ResultViews", "Compute and latency");
    }
    return {};
}

QString formatGb(double bytes)
{
    const double gb = std::round(bytes / 1e8) / 10.0;
    const bool whole = std::fabs(gb - std::round(gb)) < 1e-9;
    return QLocale().toString(gb, 'f', whole ? 0 : 1);
}

} // namespace scalescope
