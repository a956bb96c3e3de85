// Axis labels that fit their chart (axis_labels.h): tick counts, log bases, upright bar
// categories and short titles chosen from the plot area, with Qt Charts' own layout rules.
#include "charts/axis_labels.h"

#include <QAbstractAxis>
#include <QBarCategoryAxis>
#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLogValueAxis>
#include <QMarginsF>
#include <QTextDocument>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{
// Axis properties: what setZeroBasedRange() was asked for, and what fitAxisLabels() chose.
constexpr const char *kZeroBasedMax = "scalescopeZeroBasedMax";
constexpr const char *kZeroBasedMin = "scalescopeZeroBasedMin";
constexpr const char *kMaxTicks = "scalescopeMaxTicks";     // zero-based and fixed-count axes
constexpr const char *kFixedTicks = "scalescopeFixedTicks"; // a fixed-count axis' own count
constexpr const char *kLogStep = "scalescopeLogStep";       // log axes: base 2^step
constexpr const char *kUpright = "scalescopeUpright";       // bar categories turned upright
constexpr const char *kFullTitle = "scalescopeFullTitle";
constexpr const char *kShortTitle = "scalescopeShortTitle";
constexpr int kMostTicks = 7; // six intervals
constexpr int kLargestLogStep = 20;
// Qt Charts (VerticalAxis/HorizontalAxis::updateGeometry) gives each of n tick labels 1/n of
// the axis' rectangle less 4 px of padding on both sides and elides a label that does not
// fit to "..." (sizes as its text items have them: textSize()). One more pixel for rounding.
constexpr qreal kLabelPadding = 2 * 4.0 + 1.0;
// Between neighbouring labels along the plot: Qt hides a vertical label that overlaps the one
// below it, and draws horizontal ones over each other.
constexpr qreal kVerticalGap = 1.0;
constexpr qreal kHorizontalGap = 6.0;
// Finer ticks only with room to spare: labels change the plot they are fitted to (a wider
// label widens its axis), so a size at the edge would switch back and forth. Upright
// categories change the plot's height, and with it the other axis, the most.
constexpr qreal kSpareRoom = 0.97;
constexpr qreal kSpareRoomCategories = 0.9;

/// The size of `text` as Qt Charts measures it (ChartPresenter::textBoundingRect: a text item
/// with a document margin of half a pixel).
QSizeF textSize(const QFont &font, const QString &text)
{
    QTextDocument document;
    document.setDocumentMargin(0.5);
    document.setDefaultFont(font);
    document.setHtml(text);
    return document.size();
}

/// The room of an axis' labels: the plot's length along the axis (the ticks' spacing), and
/// the length Qt Charts shares among the labels before it elides them. That is not the plot:
/// CartesianChartLayout gives a horizontal axis the width of the whole layout, a vertical one
/// the height of the layout's bottom edge.
struct Room {
    qreal plot = 0;
    qreal shared = 0;
    bool vertical = false;
    /// The layout's extent across the axis: an axis may take 40 % of it (CartesianChartLayout's
    /// maxAxisPortion), beyond which its labels and title are squeezed and elided.
    qreal across = 0;
    Room scaled(qreal f) const { return Room{plot * f, shared * f, vertical, across}; }
};
constexpr qreal kMaxAxisPortion = 0.4;
constexpr qreal kTitlePadding = 2 * 2.0;

/// The chart's width inside the layout's own margins (its background) and its margins.
qreal layoutWidth(const QChart *chart)
{
    qreal left = 0, top = 0, right = 0, bottom = 0;
    if (const QGraphicsLayout *layout = chart->layout())
        layout->getContentsMargins(&left, &top, &right, &bottom);
    return chart->size().width() - left - right - chart->margins().left() -
           chart->margins().right();
}

Room roomOf(QChart *chart, const QAbstractAxis *axis)
{
    const QRectF plot = chart->plotArea();
    const QMarginsF margins = chart->margins();
    // The layout's own margins (the chart's background), then the chart's margins.
    qreal other = 0, below = 0;
    if (const QGraphicsLayout *layout = chart->layout())
        layout->getContentsMargins(&other, &other, &other, &below);
    Room room;
    room.vertical = axis->orientation() == Qt::Vertical;
    qreal bottom = chart->size().height() - below - margins.bottom();
    QLegend *legend = chart->legend();
    if (legend->isVisible() && legend->isAttachedToChart() &&
        legend->alignment() == Qt::AlignBottom)
        bottom -= legend->size().height();
    const qreal width = layoutWidth(chart);
    if (room.vertical) {
        room.plot = plot.height();
        room.shared = std::max(plot.bottom(), bottom);
        room.across = width;
    } else {
        room.plot = plot.width();
        room.shared = std::max(plot.width(), width);
        // From the chart's title (or top margin) to the bottom edge, less the half label the
        // vertical axes keep above the plot.
        const qreal half_label = textSize(axis->labelsFont(), QStringLiteral("0")).height() / 2;
        room.across = std::max(plot.height(), bottom - plot.top() + half_label);
    }
    return room;
}

/// The extent of a label along its axis: its height on a vertical axis (or upright), its
/// width on a horizontal one.
qreal labelExtent(const QFont &font, const QString &text, bool along_height)
{
    const QSizeF size = textSize(font, text);
    return along_height ? size.height() : size.width();
}

/// Whether `count` labels, the widest `extent` pixels along the axis, `spacing` pixels apart
/// on the plot, are drawn whole and apart.
bool labelsFit(int count, qreal extent, qreal spacing, const Room &room)
{
    const qreal gap = room.vertical ? kVerticalGap : kHorizontalGap;
    return count * (extent + kLabelPadding) <= room.shared &&
           (count < 2 || spacing >= extent + gap);
}

/// A value as the axis writes it (a printf format such as "%g" or "%.0f").
QString axisLabel(const QString &format, double value)
{
    return QString::asprintf(format.toLatin1().constData(), value);
}

/// The round interval and top of [0, max_value] with at most `intervals` intervals.
std::pair<double, double> zeroBasedTicks(double max_value, int intervals)
{
    intervals = std::max(1, intervals);
    const double raw_step = max_value / intervals;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
    double step = 10 * magnitude;
    for (double m : {1.0, 2.0, 5.0})
        if (m * magnitude >= raw_step * (1 - 1e-9)) {
            step = m * magnitude;
            break;
        }
    // From 2 to 5 the step more than doubles: a maximum just below 5 would get one interval.
    if (intervals >= 2 && max_value <= step * (1 + 1e-9) && std::abs(step / magnitude - 5) < 1e-9)
        step = 2.5 * magnitude;
    const double top = std::ceil(max_value / step * (1 - 1e-9)) * step;
    return {step, top};
}

/// Powers of `base` in [lo, hi] (QLogValueAxis' ticks).
int logTickCount(double lo, double hi, double base)
{
    if (!(lo > 0) || !(hi > lo))
        return 1;
    const double log_lo = std::log(lo) / std::log(base), log_hi = std::log(hi) / std::log(base);
    return std::max(0, int(std::floor(log_hi + 1e-9) - std::ceil(log_lo - 1e-9)) + 1);
}

/// The smallest step (base 2^step) whose labels fit; the largest when none does.
/// The widest label of a log axis with base 2^step: its largest power (labels widen with
/// their value).
qreal logLabelExtent(const QLogValueAxis *axis, int step, bool vertical)
{
    const double base = std::pow(2.0, step);
    const double largest =
        std::pow(base, std::floor(std::log(std::max(axis->max(), 1.0)) / std::log(base) + 1e-9));
    return labelExtent(axis->labelsFont(), axisLabel(axis->labelFormat(), largest), vertical);
}

/// The smallest step (base 2^step) whose labels fit; the largest when none does. The last
/// label of a horizontal axis reaches half its width past the plot, which the layout keeps
/// free: the plot narrows by the difference to the labels of `current_step`.
int logStepThatFits(const QLogValueAxis *axis, const Room &room, int current_step)
{
    const double octaves = std::log2(axis->max() / axis->min());
    const qreal current_extent = logLabelExtent(axis, current_step, room.vertical);
    for (int step = 1; step <= kLargestLogStep; ++step) {
        const int count = logTickCount(axis->min(), axis->max(), std::pow(2.0, step));
        const qreal extent = logLabelExtent(axis, step, room.vertical);
        const qreal plot =
            room.vertical ? room.plot : room.plot - std::max(0.0, extent - current_extent) / 2;
        const qreal spacing = octaves > 0 ? plot * step / octaves : plot;
        if (count <= 2 || labelsFit(count, extent, spacing, room))
            return step;
    }
    return kLargestLogStep;
}

/// The most ticks (2 to kMostTicks) of a zero-based axis whose labels fit.
int zeroBasedTicksThatFit(const QValueAxis *axis, double max_value, const Room &room)
{
    for (int ticks = kMostTicks; ticks > 2; --ticks) {
        const auto [step, top] = zeroBasedTicks(max_value, ticks - 1);
        const int count = int(std::lround(top / step)) + 1;
        qreal extent = 0;
        for (int i = 0; i < count; ++i)
            extent = std::max(extent,
                              labelExtent(axis->labelsFont(),
                                          axisLabel(axis->labelFormat(), i * step), room.vertical));
        if (labelsFit(count, extent, room.plot / (count - 1), room))
            return ticks;
    }
    return 2;
}

/// The most ticks (2 to `own`) of a fixed-count axis whose labels fit.
int fixedTicksThatFit(const QValueAxis *axis, int own, const Room &room)
{
    int ticks = own;
    for (; ticks > 2; --ticks) {
        qreal extent = 0;
        for (int i = 0; i < ticks; ++i)
            extent = std::max(
                extent,
                labelExtent(axis->labelsFont(),
                            axisLabel(axis->labelFormat(),
                                      axis->min() + (axis->max() - axis->min()) * i / (ticks - 1)),
                            room.vertical));
        if (labelsFit(ticks, extent, room.plot / (ticks - 1), room))
            break;
    }
    return ticks;
}

/// A choice kept in `property` (`current` before the first), with hysteresis: `needed` (the
/// finest that fits) when the kept one is finer, `spare` (the finest that fits with room to
/// spare) when the kept one is coarser; else the kept one. Finer: larger, or smaller unless
/// `larger_is_finer`.
int withHysteresis(QObject *axis, const char *property, int current, int needed, int spare,
                   bool larger_is_finer)
{
    const int value =
        axis->property(property).isValid() ? axis->property(property).toInt() : current;
    int chosen = value;
    if (larger_is_finer ? value > needed : value < needed)
        chosen = needed;
    else if (larger_is_finer ? value < spare : value > spare)
        chosen = spare;
    axis->setProperty(property, chosen);
    return chosen;
}

void applyZeroBasedRange(QValueAxis *axis, double max_value, int ticks)
{
    const auto [step, top] = zeroBasedTicks(max_value, std::min(ticks, kMostTicks) - 1);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(std::min(0.0, axis->property(kZeroBasedMin).toDouble()), top);
}

/// The axis' title that fits: its own, else its short form, else none (hidden). A title
/// must fit along the plot's side, and with the labels (`labels_across` pixels across the
/// axis) in the axis' share of the layout.
void fitTitle(QAbstractAxis *axis, const Room &room, qreal labels_across)
{
    // A title set since (a view changing it with setTitleText) becomes the axis' own.
    const QString shown = axis->titleText();
    if (shown != axis->property(kFullTitle).toString() &&
        shown != axis->property(kShortTitle).toString()) {
        axis->setProperty(kFullTitle, shown);
        axis->setProperty(kShortTitle, QString());
    }
    // Qt elides a title longer than the plot's side.
    const auto fits = [&](const QString &title) {
        return !title.isEmpty() && textSize(axis->titleFont(), title).width() + 1 <= room.plot;
    };
    QString title = axis->property(kFullTitle).toString();
    if (!fits(title))
        title = axis->property(kShortTitle).toString();
    const bool room_across = labels_across + 4.0 +
                                 textSize(axis->titleFont(), QStringLiteral("X")).height() + 1 +
                                 kTitlePadding <=
                             kMaxAxisPortion * room.across;
    const bool visible = fits(title) && room_across;
    if (visible && axis->titleText() != title)
        axis->setTitleText(title);
    if (axis->isTitleVisible() != visible)
        axis->setTitleVisible(visible);
}

/// Fits the ticks of `axis` to `room`; returns the labels' extent across the axis (the widest
/// label of a vertical axis, the label height of a horizontal one).
qreal fitAxis(QAbstractAxis *axis, const Room &room)
{
    const Room spare = room.scaled(kSpareRoom);
    const qreal label_height = textSize(axis->labelsFont(), QStringLiteral("0")).height();
    const auto widest = [&](const QStringList &labels) {
        qreal w = 0;
        for (const QString &l : labels)
            w = std::max(w, textSize(axis->labelsFont(), l).width());
        return w;
    };
    if (auto *log = qobject_cast<QLogValueAxis *>(axis)) {
        const int current = int(std::lround(std::log2(std::max(log->base(), 2.0))));
        const int kept =
            log->property(kLogStep).isValid() ? log->property(kLogStep).toInt() : current;
        const int step = withHysteresis(log, kLogStep, current, logStepThatFits(log, room, kept),
                                        logStepThatFits(log, spare, kept), false);
        const double base = std::pow(2.0, step);
        if (log->base() != base)
            log->setBase(base);
        if (room.vertical) {
            QStringList labels;
            for (double v = std::pow(base, std::ceil(std::log(log->min()) / std::log(base)));
                 v <= log->max() * (1 + 1e-9); v *= base)
                labels << axisLabel(log->labelFormat(), v);
            return widest(labels);
        }
    } else if (auto *value = qobject_cast<QValueAxis *>(axis)) {
        if (value->property(kZeroBasedMax).isValid()) {
            const double max_value = value->property(kZeroBasedMax).toDouble();
            const int ticks = withHysteresis(value, kMaxTicks, kMostTicks,
                                             zeroBasedTicksThatFit(value, max_value, room),
                                             zeroBasedTicksThatFit(value, max_value, spare), true);
            applyZeroBasedRange(value, max_value, ticks);
        } else if (value->tickType() == QValueAxis::TicksFixed) {
            if (!value->property(kFixedTicks).isValid())
                value->setProperty(kFixedTicks, value->tickCount());
            const int own = value->property(kFixedTicks).toInt();
            const int ticks =
                withHysteresis(value, kMaxTicks, own, fixedTicksThatFit(value, own, room),
                               fixedTicksThatFit(value, own, spare), true);
            if (value->tickCount() != ticks)
                value->setTickCount(ticks);
        }
        if (room.vertical) {
            QStringList labels;
            if (value->tickType() == QValueAxis::TicksDynamic && value->tickInterval() > 0)
                for (double v = 0; v <= value->max() * (1 + 1e-9); v += value->tickInterval())
                    labels << axisLabel(value->labelFormat(), v);
            else
                for (int i = 0; i < value->tickCount(); ++i)
                    labels << axisLabel(value->labelFormat(),
                                        value->min() + (value->max() - value->min()) * i /
                                                           std::max(1, value->tickCount() - 1));
            return widest(labels);
        }
    } else if (auto *bars = qobject_cast<QBarCategoryAxis *>(axis); bars && !room.vertical) {
        // An interval axis: ChartBarCategoryAxisX lays out n categories as n + 2 labels.
        const QStringList categories = bars->categories();
        if (categories.isEmpty())
            return label_height;
        const qreal width = widest(categories);
        const int count = int(categories.size()) + 2;
        const auto fits = [&](const Room &r) {
            return labelsFit(count, width, r.plot / categories.size(), r);
        };
        const bool upright = bars->property(kUpright).toBool()
                                 ? !fits(room.scaled(kSpareRoomCategories))
                                 : !fits(room);
        bars->setProperty(kUpright, upright);
        const qreal angle = upright ? -90 : 0;
        if (bars->labelsAngle() != angle)
            bars->setLabelsAngle(angle);
        return upright ? width : label_height;
    } else if (auto *bars = qobject_cast<QBarCategoryAxis *>(axis)) {
        return widest(bars->categories());
    }
    return label_height;
}
} // namespace

void setZeroBasedRange(QValueAxis *axis, double max_value, double min_value)
{
    if (!(max_value > 0) || !std::isfinite(max_value))
        max_value = 1;
    axis->setProperty(kZeroBasedMax, max_value);
    axis->setProperty(kZeroBasedMin, std::isfinite(min_value) ? std::min(0.0, min_value) : 0.0);
    const QVariant ticks = axis->property(kMaxTicks);
    applyZeroBasedRange(axis, max_value, ticks.isValid() ? ticks.toInt() : kMostTicks);
}

int categoryChartMinimumWidth(const QChart *chart, const QBarCategoryAxis *axis, int fallback)
{
    // Upright labels, n + 2 of them (ChartBarCategoryAxisX), inside the chart's margins.
    const qreal labels =
        (axis->count() + 2) *
        (textSize(axis->labelsFont(), QStringLiteral("0")).height() + kLabelPadding);
    return std::max(fallback,
                    int(std::ceil(labels + chart->size().width() - layoutWidth(chart) + 2)));
}

void setAxisTitles(QAbstractAxis *axis, const QString &title, const QString &short_title)
{
    axis->setProperty(kFullTitle, title);
    axis->setProperty(kShortTitle, short_title);
    axis->setTitleText(title);
}

void setChartTitles(QChart *chart, const QString &title, const QString &short_title)
{
    chart->setProperty(kFullTitle, title);
    chart->setProperty(kShortTitle, short_title);
    chart->setTitle(title);
}

void fitAxisLabels(QChart *chart)
{
    const QRectF plot = chart->plotArea();
    if (plot.width() < 1 || plot.height() < 1)
        return; // not laid out yet
    const QString full = chart->property(kFullTitle).toString();
    if (!full.isEmpty()) {
        // Qt elides the chart's title beyond the width inside the chart's margins.
        const qreal room = layoutWidth(chart);
        const auto fits = [&](const QString &t) {
            return textSize(chart->titleFont(), t).width() + 1 <= room;
        };
        QString title = full;
        if (!fits(title))
            title = chart->property(kShortTitle).toString();
        if (!fits(title))
            title.clear(); // the wrapping legend and the axes still say what it is
        if (chart->title() != title)
            chart->setTitle(title);
    }
    const auto axes = chart->axes();
    for (QAbstractAxis *axis : axes) {
        if (!axis->isVisible())
            continue;
        const Room room = roomOf(chart, axis);
        const qreal labels_across = axis->labelsVisible() ? fitAxis(axis, room) : 0;
        fitTitle(axis, room, labels_across);
    }
}

} // namespace scalescope
