#include "charts/chart_common.h"

#include "palette.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QScatterSeries>
#include <QLocale>
#include <QVBoxLayout>

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
    // Room for the plot in small charts: the legends are text below the chart
    // (withWrappingLegend), so the default margins of 20 px are mostly empty.
    chart->setMargins(QMargins(8, 6, 8, 4));
    if (chart->layout() != nullptr)
        chart->layout()->setContentsMargins(0, 0, 0, 0);
    // Queued: fitting sets axis ranges, which Qt Charts must not get from inside its own layout
    // pass (ChartPresenter::setGeometry emits plotAreaChanged mid-layout; a range set there
    // made the axis and its domain hand two ranges back and forth until the stack overflowed:
    // tst_random_changes, seed 4).
    QObject::connect(
        chart, &QChart::plotAreaChanged, chart, [chart] { fitAxisLabels(chart); },
        Qt::QueuedConnection);
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
    fitAxisLabels(chart);
}

namespace
{
constexpr const char *kLegendProperty = "scalescopeLegendLabel";
constexpr const char *kEntryHiddenProperty = "scalescopeLegendHidden";
} // namespace

void setLegendEntryShown(QLegendMarker *marker, bool shown)
{
    marker->setProperty(kEntryHiddenProperty, !shown);
}

QWidget *withWrappingLegend(QChartView *view)
{
    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto *legend = new QLabel(box);
    legend->setObjectName(QStringLiteral("chartLegend"));
    legend->setWordWrap(true);
    legend->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    legend->setTextFormat(Qt::RichText);
    legend->setContentsMargins(6, 2, 6, 4);
    // The chart view paints a white background; the legend belongs to it visually.
    legend->setAutoFillBackground(true);
    QPalette pal = legend->palette();
    pal.setColor(QPalette::Window, Qt::white);
    pal.setColor(QPalette::WindowText, QColor(0x30, 0x30, 0x30));
    legend->setPalette(pal);
    layout->addWidget(view, 1);
    layout->addWidget(legend);
    view->chart()->legend()->setVisible(false);
    view->setProperty(kLegendProperty, QVariant::fromValue<QObject *>(legend));
    return box;
}

void refreshWrappingLegend(QChartView *view)
{
    auto *legend = qobject_cast<QLabel *>(view->property(kLegendProperty).value<QObject *>());
    if (!legend)
        return;
    QStringList items;
    const auto markers = view->chart()->legend()->markers();
    for (QLegendMarker *marker : markers) {
        if (marker->property(kEntryHiddenProperty).toBool() || !marker->series() ||
            !marker->series()->isVisible() || marker->label().isEmpty())
            continue;
        // Line and outline-only markers carry their colour in the pen, filled ones in the brush.
        // Points are drawn in their own shape, filled or hollow (a white or faint fill reads
        // as hollow), so that the legend tells filled circles from hollow squares.
        const QBrush brush = marker->brush();
        const bool hollow = brush.style() == Qt::NoBrush || brush.color().alpha() < 128 ||
                            brush.color() == QColor(Qt::white);
        const QColor colour = hollow ? marker->pen().color() : brush.color();
        QString glyph = QStringLiteral("&#9632;"); // a filled square: lines, bars, areas
        if (const auto *points = qobject_cast<const QScatterSeries *>(marker->series())) {
            const bool square = points->markerShape() == QScatterSeries::MarkerShapeRectangle;
            glyph = square ? (hollow ? QStringLiteral("&#9633;") : QStringLiteral("&#9632;"))
                           : (hollow ? QStringLiteral("&#9675;") : QStringLiteral("&#9679;"));
        }
        // One entry never breaks inside: spaces are non-breaking, and a word joiner (U+2060)
        // between characters keeps Chinese text, which may break anywhere, in one piece.
        QString joined;
        const QString text = marker->label();
        for (qsizetype i = 0; i < text.size(); ++i) {
            // Only beside CJK characters (from U+2E80): Latin text breaks at spaces alone.
            if (i > 0 && !text[i].isLowSurrogate() &&
                (text[i].unicode() >= 0x2e80 || text[i - 1].unicode() >= 0x2e80))
                joined += QChar(0x2060);
            joined += text[i];
        }
        QString label = joined.toHtmlEscaped();
        label.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
        items << QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
                     .arg(colour.name(), glyph, label);
    }
    legend->setText(items.join(QStringLiteral(" &nbsp; ")));
    legend->setVisible(!items.isEmpty());
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
    label->setTextFormat(Qt::PlainText);
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
    case SpeedupLoss::ExpertComm:
        return kindColor(SegmentKind::EpComm);
    case SpeedupLoss::ContextComm:
        return kindColor(SegmentKind::CpComm);
    case SpeedupLoss::ExpertImbalance:
        return QColor(0x99, 0x1a, 0x4d);
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
    case SpeedupLoss::ExpertComm:
        return QCoreApplication::translate("ResultViews", "Expert all-to-all");
    case SpeedupLoss::ContextComm:
        return QCoreApplication::translate("ResultViews", "Context exchange");
    case SpeedupLoss::ExpertImbalance:
        return QCoreApplication::translate("ResultViews", "Busiest expert");
    }
    return {};
}

QString formatGiB(double bytes)
{
    const double gib = std::round(bytes / kBytesPerGiB * 10.0) / 10.0;
    const bool whole = std::fabs(gib - std::round(gib)) < 1e-9;
    return QLocale().toString(gib, 'f', whole ? 0 : 1);
}

} // namespace scalescope
