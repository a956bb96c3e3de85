// TimelineWidget (timeline_widget.h): its state (timeline, nodes collapsed, time range) and
// its layout (areas, rows, scroll bar); painting, tooltips and input are in files of their own.
#include "timeline/timeline_widget.h"

#include "charts/chart_common.h"
#include "model_text.h"
#include "palette.h"
#include "timeline/timeline_widget_p.h"

#include <QEvent>
#include <QLocale>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{
constexpr double kMinSpanS = 1e-9;
} // namespace

ModelLabelCache &timeline_detail::labelTexts()
{
    static ModelLabelCache cache;
    return cache;
}

TimelineWidget::TimelineWidget(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("timelineWidget"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    scroll_bar_ = new QScrollBar(Qt::Vertical, this);
    scroll_bar_->setObjectName(QStringLiteral("timelineScrollBar"));
    scroll_bar_->hide();
    connect(scroll_bar_, &QScrollBar::valueChanged, this, [this] { update(); });
    relayout();
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setTimeline(std::shared_ptr<const Timeline> timeline)
{
    const bool had_timeline = timeline_ != nullptr;
    const double old_extent = extentS();
    timeline_ = std::move(timeline);
    hovered_ = -1;
    selected_ = -1;
    const int nodes = timeline_ ? TimelineRowLayout::nodeCountOf(*timeline_) : 0;
    if (static_cast<int>(collapsed_.size()) != nodes) {
        // Large clusters start collapsed except the first node: one summary row per node.
        collapsed_.assign(static_cast<size_t>(nodes), nodes > 8);
        if (nodes > 0)
            collapsed_[0] = false;
    }
    cache_.invalidate();
    relayout();
    const double new_extent = extentS();
    if (had_timeline && timeline_ &&
        std::abs(new_extent - old_extent) <= 0.2 * std::max(new_extent, old_extent))
        setTimeRange(start_s_, end_s_);
    else
        fitToView();
    update();
}

void TimelineWidget::setEmptyReason(const QString &reason)
{
    empty_reason_ = reason;
    update();
}

void TimelineWidget::setMemory(const MemoryBreakdown &memory, const QString &remedy)
{
    const bool was_shown = isMemoryBannerShown();
    memory_ = memory;
    memory_remedy_ = remedy;
    if (was_shown || isMemoryBannerShown()) {
        updateGeometry();
        relayout(); // the banner takes room above the axis
    }
}

bool TimelineWidget::isMemoryBannerShown() const
{
    return memory_.capacity > 0 && memory_.total > memory_.capacity;
}

QString TimelineWidget::memoryBannerText() const
{
    if (!isMemoryBannerShown())
        return {};
    if (memory_.verdictWithinError()) {
        // Over by less than the model's own memory error (analysis/memory.h): it may run.
        const QString over =
            tr("May not fit in memory: the most loaded GPU needs %1 GiB of its "
               "%2 GiB, %3 % over, less than the model's %4 % memory error, so "
               "it may run.")
                .arg(formatGiB(memory_.total), formatGiB(memory_.capacity),
                     QLocale().toString(100.0 * memory_.overCapacityShare(), 'f', 1),
                     memoryErrorPercent());
        return withSentence(
            over, memory_remedy_.isEmpty()
                      ? tr("The timeline shows the step as if memory were no limit.")
                      : tr("If not, %1. The timeline shows the step as if memory were no limit.")
                            .arg(memory_remedy_));
    }
    if (!memory_remedy_.isEmpty())
        return tr("Does not fit in memory: the most loaded GPU needs %1 GiB of its %2 GiB, so "
                  "this run cannot start; %3. The timeline shows the step as if memory were no "
                  "limit.")
            .arg(formatGiB(memory_.total), formatGiB(memory_.capacity), memory_remedy_);
    return tr("Does not fit in memory: the most loaded GPU needs %1 GiB of its %2 GiB, so this "
              "run cannot start. The timeline shows the step as if memory were no limit.")
        .arg(formatGiB(memory_.total), formatGiB(memory_.capacity));
}

int TimelineWidget::bannerHeight(int width) const
{
    if (!isMemoryBannerShown())
        return 0;
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fm(bold);
    const int pad = std::max(4, fm.height() / 3);
    const QRect text = fm.boundingRect(QRect(0, 0, std::max(1, width - 4 * pad), 100000),
                                       Qt::TextWordWrap, memoryBannerText());
    return text.height() + 2 * pad;
}

void TimelineWidget::setTitle(const QString &title)
{
    title_ = title;
    updateGeometry();
    relayout();
}

bool TimelineWidget::isNodeCollapsed(int node) const
{
    return node >= 0 && static_cast<size_t>(node) < collapsed_.size() &&
           collapsed_[static_cast<size_t>(node)];
}

void TimelineWidget::setNodeCollapsed(int node, bool collapsed)
{
    if (node < 0 || static_cast<size_t>(node) >= collapsed_.size() ||
        collapsed_[static_cast<size_t>(node)] == collapsed)
        return;
    collapsed_[static_cast<size_t>(node)] = collapsed;
    hovered_ = -1;
    relayout();
    Q_EMIT nodeCollapsedChanged(node, collapsed);
}

void TimelineWidget::setAllNodesCollapsed(bool collapsed)
{
    for (int node = 0; node < static_cast<int>(collapsed_.size()); ++node)
        setNodeCollapsed(node, collapsed);
}

void TimelineWidget::toggleNode(int node)
{
    setNodeCollapsed(node, !isNodeCollapsed(node));
}

double TimelineWidget::extentS() const
{
    return timeline_ ? std::max({timeline_->endTime(), kMinSpanS, shared_extent_s_}) : 1.0;
}

void TimelineWidget::setSharedExtent(double extent_s)
{
    shared_extent_s_ = std::isfinite(extent_s) && extent_s > 0 ? extent_s : 0;
}

void TimelineWidget::setTimeRange(double start_s, double end_s)
{
    if (!(end_s > start_s) || !std::isfinite(start_s) || !std::isfinite(end_s))
        return;
    const double extent = extentS();
    double span = end_s - start_s;
    const double clamped_span = std::clamp(span, kMinSpanS, std::max(extent * 4, 1e-6));
    if (clamped_span != span) {
        const double centre = 0.5 * (start_s + end_s);
        span = clamped_span;
        start_s = centre - 0.5 * span;
    }
    // Keep the middle of the view inside the data.
    start_s = std::clamp(start_s, -0.5 * span, extent - 0.5 * span);
    end_s = start_s + span;
    if (start_s == start_s_ && end_s == end_s_)
        return;
    start_s_ = start_s;
    end_s_ = end_s;
    update();
    Q_EMIT timeRangeChanged(start_s_, end_s_);
}

void TimelineWidget::fitToView()
{
    setTimeRange(0, extentS());
}

void TimelineWidget::zoomAround(double anchor_s, double factor)
{
    if (!(factor > 0))
        return;
    setTimeRange(anchor_s - (anchor_s - start_s_) * factor,
                 anchor_s + (end_s_ - anchor_s) * factor);
}

// ---------------------------------------------------------------------------------------
// Layout

int TimelineWidget::rowHeight() const
{
    return fontMetrics().height() + 6;
}

int TimelineWidget::headerWidth() const
{
    const QFontMetrics fm = fontMetrics();
    const int gpus = std::max(100, timeline_ ? timeline_->gpus() : 0);
    const int nodes = std::max(10, layout_.nodeCount());
    int streams_w = 0;
    for (int s = 0; s < kStreamCount; ++s)
        streams_w = std::max(streams_w, fm.horizontalAdvance(streamLabel(static_cast<Stream>(s))));
    const int indent = fm.height();
    const int gpu_w = fm.horizontalAdvance(tr("GPU %1").arg(gpus - 1)) + indent / 2 + streams_w;
    QFont bold = font();
    bold.setBold(true);
    const int node_w = QFontMetrics(bold).horizontalAdvance(
        tr("Node %1").arg(nodes - 1) + QStringLiteral("  ") + tr("(%1 GPUs)").arg(88));
    // The title does not widen the header (it is elided into it): two timelines of an A/B
    // compare keep the same header width and so the same time axis.
    return std::max(indent + gpu_w, indent + node_w) + indent;
}

int TimelineWidget::legendHeight(int width) const
{
    const auto items = legendItems(QRect(0, 0, width, 0));
    const QFontMetrics fm = fontMetrics();
    int bottom = 0;
    for (const auto &item : items)
        bottom = std::max(bottom, item.rect.bottom() + 1);
    return bottom + fm.height() / 3;
}

std::vector<TimelineWidget::LegendItem> TimelineWidget::legendItems(const QRect &area) const
{
    const QFontMetrics fm = fontMetrics();
    const int pad = std::max(4, fm.height() / 3);
    const int line_h = fm.height() + pad;
    const int swatch = fm.height() * 3 / 4;
    std::vector<LegendItem> items;
    int x = area.left() + pad, y = area.top() + pad / 2;
    for (int k = 0; k < kSegmentKindCount; ++k) {
        const auto kind = static_cast<SegmentKind>(k);
        const int w = swatch + swatch / 2 + fm.horizontalAdvance(kindName(kind)) + 2;
        if (x + w > area.right() && x > area.left() + pad) {
            x = area.left() + pad;
            y += line_h;
        }
        items.push_back({kind, QRect(x, y, w, line_h)});
        x += w + 2 * pad;
    }
    if (timeline_ && !timeline_->criticalPath().empty()) {
        const int w = swatch + swatch / 2 + fm.horizontalAdvance(criticalPathName()) + 2;
        if (x + w > area.right() && x > area.left() + pad) {
            x = area.left() + pad;
            y += line_h;
        }
        items.push_back({SegmentKind::Compute, QRect(x, y, w, line_h), true});
    }
    return items;
}

QString TimelineWidget::criticalPathName()
{
    return tr("Critical path (what sets the step)");
}

TimelineWidget::Areas TimelineWidget::areasFor(QSize size, int scroll_bar_width) const
{
    const QFontMetrics fm = fontMetrics();
    const int axis_h = 2 * fm.height() + 8; // step labels above, tick labels below
    const int legend_h = legendHeight(size.width());
    const int header_w = std::min(headerWidth(), size.width() / 2);
    const int banner_h = std::min(bannerHeight(size.width()), size.height() / 2);
    Areas a;
    const int plot_w = std::max(0, size.width() - header_w - scroll_bar_width);
    const int plot_h = std::max(0, size.height() - banner_h - axis_h - legend_h);
    a.banner = QRect(0, 0, size.width(), banner_h);
    a.corner = QRect(0, banner_h, header_w, axis_h);
    a.axis = QRect(header_w, banner_h, plot_w, axis_h);
    a.header = QRect(0, banner_h + axis_h, header_w, plot_h);
    a.plot = QRect(header_w, banner_h + axis_h, plot_w, plot_h);
    a.legend = QRect(0, banner_h + axis_h + plot_h, size.width(), legend_h);
    return a;
}

QRect TimelineWidget::plotRect() const
{
    return areasFor(size(), scroll_bar_->isHidden() ? 0 : scroll_bar_->sizeHint().width()).plot;
}

TimelineViewport TimelineWidget::viewportFor(const QRect &plot) const
{
    TimelineViewport vp;
    vp.start_s = start_s_;
    vp.end_s = end_s_;
    vp.width_px = plot.width();
    vp.height_px = plot.height();
    vp.scroll_y_px =
        std::clamp(scroll_bar_->value(), 0, std::max(0, layout_.totalHeightPx() - plot.height()));
    return vp;
}

void TimelineWidget::relayout()
{
    layout_.build(timeline_.get(), collapsed_, rowHeight(), rowHeight() + 2);
    cache_.builder().setLabelMinWidthPx(fontMetrics().averageCharWidth() * 5);
    updateScrollBar();
    update();
}

void TimelineWidget::updateScrollBar()
{
    const int sb_w = scroll_bar_->sizeHint().width();
    const QRect plot = areasFor(size(), sb_w).plot;
    const int max_scroll = std::max(0, layout_.totalHeightPx() - plot.height());
    scroll_bar_->setRange(0, max_scroll);
    scroll_bar_->setPageStep(std::max(1, plot.height()));
    scroll_bar_->setSingleStep(rowHeight());
    scroll_bar_->setGeometry(width() - sb_w, plot.top(), sb_w, plot.height());
    scroll_bar_->setVisible(max_scroll > 0);
}

int TimelineWidget::scrollOffsetPx() const
{
    return viewportFor(plotRect()).scroll_y_px;
}

void TimelineWidget::scrollToLayoutRow(int layout_row)
{
    if (layout_row < 0 || static_cast<size_t>(layout_row) >= layout_.size())
        return;
    const TimelineRowInfo &row = layout_.row(static_cast<size_t>(layout_row));
    const QRect plot = plotRect();
    const int scroll = scrollOffsetPx();
    if (row.y_px < scroll)
        scroll_bar_->setValue(row.y_px);
    else if (row.y_px + row.height_px > scroll + plot.height())
        scroll_bar_->setValue(row.y_px + row.height_px - plot.height());
}

QPoint TimelineWidget::positionOf(double time_s, int layout_row) const
{
    const QRect plot = plotRect();
    const TimelineViewport vp = viewportFor(plot);
    const int x =
        plot.left() + static_cast<int>(std::floor((time_s - start_s_) * vp.pixelsPerSecond()));
    int y = plot.top();
    if (layout_row >= 0 && static_cast<size_t>(layout_row) < layout_.size()) {
        const TimelineRowInfo &row = layout_.row(static_cast<size_t>(layout_row));
        y += row.y_px - vp.scroll_y_px + row.height_px / 2;
    }
    return {x, y};
}

QPoint TimelineWidget::nodeHeaderPosition(int node) const
{
    const QPoint p = positionOf(start_s_, layout_.layoutRowOfNode(node));
    return {fontMetrics().height() * 2, p.y()};
}

QSize TimelineWidget::sizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 120, fm.height() * 30};
}

QSize TimelineWidget::minimumSizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    return {headerWidth() + fm.averageCharWidth() * 20, fm.height() * 8};
}

QString TimelineWidget::streamLabel(Stream stream) const
{
    switch (stream) {
    case Stream::Compute:
        return tr("compute");
    case Stream::Collective:
        return tr("collectives");
    case Stream::PointToPoint:
        return tr("p2p send");
    case Stream::Receive:
        return tr("p2p recv");
    case Stream::Loader:
        return tr("loader");
    }
    return {};
}

void TimelineWidget::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateScrollBar();
}

void TimelineWidget::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::LanguageChange) {
        if (event->type() == QEvent::LanguageChange)
            timeline_detail::labelTexts().clear();
        updateGeometry();
        relayout(); // row heights and label widths follow the font
    } else if (event->type() == QEvent::PaletteChange) {
        update();
    }
}

} // namespace scalescope
