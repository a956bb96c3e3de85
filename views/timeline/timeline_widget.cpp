#include "timeline/timeline_widget.h"

#include "charts/chart_common.h"
#include "model_text.h"
#include "palette.h"
#include "timeline/timeline_format.h"

#include <QBuffer>
#include <QEvent>
#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QSaveFile>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{
constexpr double kMinSpanS = 1e-9;
constexpr int kDragThresholdPx = 3;
constexpr double kWheelZoomPerNotch = 0.8; // span factor per 120 units of wheel delta
constexpr double kKeyZoom = 1.5;
constexpr double kKeyPanFraction = 0.1;
const QColor kOutOfMemory(0xc6, 0x28, 0x28); // as the memory view's over-capacity red

QColor textColorOn(const QColor &background)
{
    // Rec. 709 luma; dark text on light colours.
    const double luma =
        0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luma > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

/// The model's segment labels in the current language, by label id (GUI thread; shared by
/// every timeline widget, cleared on a language change).
ModelLabelCache &labelTexts()
{
    static ModelLabelCache cache;
    return cache;
}
} // namespace

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

void TimelineWidget::setMemory(const MemoryBreakdown &memory)
{
    const bool was_shown = isMemoryBannerShown();
    memory_ = memory;
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
    return tr("Does not fit in memory: the most loaded GPU needs %1 GB of its %2 GB, so this "
              "run cannot start. The timeline shows the step as if memory were no limit.")
        .arg(formatGb(memory_.total), formatGb(memory_.capacity));
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

void TimelineWidget::paintBanner(QPainter &painter, const QRect &area)
{
    if (area.isEmpty())
        return;
    painter.save();
    painter.fillRect(area, kOutOfMemory);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(Qt::white);
    const int pad = std::max(4, QFontMetrics(bold).height() / 3);
    painter.drawText(area.adjusted(2 * pad, pad, -2 * pad, -pad),
                     Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, memoryBannerText());
    painter.restore();
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
    return items;
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

// ---------------------------------------------------------------------------------------
// Painting

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    paintContent(painter, size(), true);
}

void TimelineWidget::render(QPainter *painter, const QRect &target)
{
    painter->save();
    painter->translate(target.topLeft());
    painter->setClipRect(QRect(QPoint(0, 0), target.size()));
    painter->setFont(font());
    paintContent(*painter, target.size(), target.size() == size());
    painter->restore();
}

void TimelineWidget::paintContent(QPainter &painter, QSize size, bool use_cache)
{
    // use_cache: this widget's own size and scroll bar, geometry from the cache; else a
    // target of its own (exports), geometry built afresh and no room for the scroll bar.
    const int sb_w = use_cache && !scroll_bar_->isHidden() ? scroll_bar_->sizeHint().width() : 0;
    const Areas areas = areasFor(size, sb_w);
    const QPalette &pal = palette();
    painter.fillRect(QRect(QPoint(0, 0), size), pal.color(QPalette::Window));

    if (!timeline_ || timeline_->size() == 0 || areas.plot.isEmpty()) {
        painter.fillRect(QRect(QPoint(0, 0), size), pal.color(QPalette::Base));
        painter.setPen(pal.color(QPalette::PlaceholderText));
        const QString reason =
            // A caller's reason is a whole sentence ("No timeline: ..."); the widget's own
            // ones get the prefix here, once.
            !empty_reason_.isEmpty()
                ? empty_reason_
                : tr("No timeline: %1")
                      .arg(timeline_ ? tr("the timeline has no segments.")
                                     : tr("no valid scenario yet, or the timeline was too "
                                          "large to build. Lower the GPU count or the number "
                                          "of steps."));
        painter.drawText(QRect(QPoint(0, areas.banner.height()), size).adjusted(20, 20, -20, -20),
                         Qt::AlignCenter | Qt::TextWordWrap, reason);
        paintBanner(painter, areas.banner);
        if (!title_.isEmpty()) {
            QFont bold = font();
            bold.setBold(true);
            painter.setFont(bold);
            painter.setPen(pal.color(QPalette::WindowText));
            painter.drawText(areas.corner.adjusted(6, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                             title_);
            painter.setFont(font());
        }
        return;
    }

    const TimelineViewport vp = viewportFor(areas.plot);
    const TimelineGeometry *geometry = nullptr;
    TimelineGeometry built;
    if (!use_cache) {
        TimelineGeometryBuilder builder;
        builder.setLabelMinWidthPx(cache_.builder().labelMinWidthPx());
        builder.build(*timeline_, layout_, vp, built);
        geometry = &built;
    } else {
        geometry = &cache_.geometry(*timeline_, layout_, vp);
    }
    paintRows(painter, areas, vp, *geometry);
    paintHeader(painter, areas, vp);
    paintAxis(painter, areas, vp);
    paintLegend(painter, areas);
    paintBanner(painter, areas.banner);
}

void TimelineWidget::paintRows(QPainter &painter, const Areas &areas, const TimelineViewport &vp,
                               const TimelineGeometry &geometry)
{
    const QPalette &pal = palette();
    painter.save();
    painter.setClipRect(areas.plot);
    painter.translate(areas.plot.topLeft());
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QRect plot(0, 0, areas.plot.width(), areas.plot.height());
    painter.fillRect(plot, pal.color(QPalette::Base));

    // Row backgrounds: node rows and every other GPU shaded.
    const auto [first, last] =
        layout_.rowsIntersecting(vp.scroll_y_px, vp.scroll_y_px + vp.height_px);
    const QColor node_bg = pal.color(QPalette::Window);
    const QColor odd_bg = pal.color(QPalette::AlternateBase);
    for (size_t r = first; r < last; ++r) {
        const TimelineRowInfo &row = layout_.row(r);
        const QRect band(0, row.y_px - vp.scroll_y_px, plot.width(), row.height_px);
        if (row.type == TimelineRowInfo::Type::Node)
            painter.fillRect(band, node_bg);
        else if (row.gpu % 2 == 1)
            painter.fillRect(band, odd_bg);
    }

    // Tick grid.
    const QFontMetrics fm = fontMetrics();
    const TimeAxisTicks ticks =
        computeTimeAxisTicks(vp.start_s, vp.end_s, vp.width_px,
                             fm.horizontalAdvance(QStringLiteral("000.000 ms")) + fm.height());
    const double pps = vp.pixelsPerSecond();
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(60);
    painter.setPen(grid);
    for (const double t : ticks.ticks_s) {
        const int x = static_cast<int>(std::floor((t - vp.start_s) * pps));
        painter.drawLine(x, 0, x, plot.height());
    }

    // Segments: one drawRects per colour.
    painter.setPen(Qt::NoPen);
    for (int k = 0; k < kSegmentKindCount; ++k) {
        const auto &rects = geometry.rects_by_kind[static_cast<size_t>(k)];
        if (rects.isEmpty())
            continue;
        painter.setBrush(kindColor(static_cast<SegmentKind>(k)));
        painter.drawRects(rects.constData(), static_cast<int>(rects.size()));
    }
    painter.setBrush(Qt::NoBrush);

    // Labels on segments wide enough.
    const int text_pad = std::max(2, fm.averageCharWidth() / 2);
    for (const TimelineLabelItem &item : geometry.labels) {
        const SegmentKind kind = timeline_->kind(item.segment);
        const QString &label = labelTexts().label(timeline_, item.segment);
        const QString text = label.isEmpty() ? kindName(kind) : label;
        const QRect text_rect = item.rect.adjusted(text_pad, 0, -text_pad, 0);
        const QString elided = fm.elidedText(text, Qt::ElideRight, text_rect.width());
        if (elided.isEmpty() || elided == QStringLiteral("…"))
            continue;
        painter.setPen(textColorOn(kindColor(kind)));
        painter.drawText(text_rect, Qt::AlignLeft | Qt::AlignVCenter, elided);
    }

    // Iteration boundaries.
    const int iterations = timeline_->iterations();
    if (iterations > 1) {
        QPen pen(pal.color(QPalette::WindowText));
        pen.setStyle(Qt::DashLine);
        painter.setPen(pen);
        const double step_s = timeline_->endTime() / iterations;
        for (int k = 1; k < iterations; ++k) {
            const double x = (k * step_s - vp.start_s) * pps;
            if (x >= 0 && x < plot.width())
                painter.drawLine(QPointF(std::floor(x), 0), QPointF(std::floor(x), plot.height()));
        }
    }

    // Overlays: never touch the cached geometry.
    paintOverlay(painter, vp, selected_, true);
    paintOverlay(painter, vp, hovered_, false);
    painter.restore();
}

void TimelineWidget::paintOverlay(QPainter &painter, const TimelineViewport &vp, qint64 segment,
                                  bool selected)
{
    if (segment < 0 || !timeline_ || static_cast<size_t>(segment) >= timeline_->size())
        return;
    const auto i = static_cast<size_t>(segment);
    // Row of the segment: binary search over the row offsets.
    int lo = 0, hi = timeline_->rows();
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (timeline_->rowBegin(mid) <= i)
            lo = mid;
        else
            hi = mid;
    }
    const int layout_row = layout_.layoutRowOfTimelineRow(lo);
    if (layout_row < 0)
        return;
    const TimelineRowInfo &row = layout_.row(static_cast<size_t>(layout_row));
    const double pps = vp.pixelsPerSecond();
    const double x0 = std::clamp((timeline_->start(i) - vp.start_s) * pps, -2.0, vp.width_px + 2.0);
    const double x1 = std::clamp((timeline_->end(i) - vp.start_s) * pps, -2.0, vp.width_px + 2.0);
    const QRectF r(std::floor(x0) - 1, row.y_px - vp.scroll_y_px, std::max(1.0, x1 - x0) + 2,
                   row.height_px - 1);
    QPen pen(selected ? palette().color(QPalette::Highlight)
                      : palette().color(QPalette::WindowText));
    pen.setWidth(2);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(r);
}

void TimelineWidget::paintHeader(QPainter &painter, const Areas &areas, const TimelineViewport &vp)
{
    const QPalette &pal = palette();
    const QFontMetrics fm = fontMetrics();
    painter.save();
    painter.setClipRect(areas.header);
    painter.fillRect(areas.header, pal.color(QPalette::Window));
    const int indent = fm.height();
    int streams_w = 0;
    for (int s = 0; s < kStreamCount; ++s)
        streams_w = std::max(streams_w, fm.horizontalAdvance(streamLabel(static_cast<Stream>(s))));
    QFont bold = font();
    bold.setBold(true);
    const auto [first, last] =
        layout_.rowsIntersecting(vp.scroll_y_px, vp.scroll_y_px + vp.height_px);
    for (size_t r = first; r < last; ++r) {
        const TimelineRowInfo &row = layout_.row(r);
        const QRect band(areas.header.left(), areas.header.top() + row.y_px - vp.scroll_y_px,
                         areas.header.width(), row.height_px);
        if (row.type == TimelineRowInfo::Type::Node) {
            // Disclosure triangle, then "Node N".
            const int s = fm.height() / 3;
            const QPoint c(band.left() + indent / 2 + 2, band.center().y());
            QPolygon triangle;
            if (row.collapsed)
                triangle << QPoint(c.x() - s / 2, c.y() - s) << QPoint(c.x() + s / 2, c.y())
                         << QPoint(c.x() - s / 2, c.y() + s);
            else
                triangle << QPoint(c.x() - s, c.y() - s / 2) << QPoint(c.x() + s, c.y() - s / 2)
                         << QPoint(c.x(), c.y() + s / 2);
            painter.setRenderHint(QPainter::Antialiasing, true);
            painter.setPen(Qt::NoPen);
            painter.setBrush(pal.color(QPalette::WindowText));
            painter.drawPolygon(triangle);
            painter.setRenderHint(QPainter::Antialiasing, false);
            painter.setFont(bold);
            painter.setPen(pal.color(QPalette::WindowText));
            const auto [gpu_begin, gpu_end] = layout_.gpuRange(row.node);
            QString text = tr("Node %1").arg(row.node);
            if (row.collapsed)
                text += QStringLiteral("  ") + tr("(%1 GPUs)").arg(gpu_end - gpu_begin);
            painter.drawText(
                band.adjusted(indent + 2, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                QFontMetrics(bold).elidedText(text, Qt::ElideRight, band.width() - indent - 4));
            painter.setFont(font());
        } else {
            painter.setPen(pal.color(QPalette::WindowText));
            if (row.first_of_gpu)
                painter.drawText(band.adjusted(indent, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                                 tr("GPU %1").arg(row.gpu));
            painter.setPen(pal.color(QPalette::PlaceholderText));
            painter.drawText(band.adjusted(0, 0, -indent / 2, 0), Qt::AlignRight | Qt::AlignVCenter,
                             streamLabel(row.stream));
        }
    }
    painter.setPen(pal.color(QPalette::Mid));
    painter.drawLine(areas.header.topRight(), areas.header.bottomRight());
    painter.restore();
}

void TimelineWidget::paintAxis(QPainter &painter, const Areas &areas, const TimelineViewport &vp)
{
    const QPalette &pal = palette();
    const QFontMetrics fm = fontMetrics();
    painter.save();
    painter.fillRect(areas.corner, pal.color(QPalette::Window));
    painter.fillRect(areas.axis, pal.color(QPalette::Window));
    if (!title_.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(pal.color(QPalette::WindowText));
        const QRect title_rect = areas.corner.adjusted(fm.height() / 2, 0, -2, 0);
        painter.drawText(title_rect, Qt::AlignLeft | Qt::AlignVCenter,
                         QFontMetrics(bold).elidedText(title_, Qt::ElideRight, title_rect.width()));
        painter.setFont(font());
    }
    painter.setClipRect(areas.axis);
    const double pps = vp.pixelsPerSecond();
    const TimeAxisTicks ticks =
        computeTimeAxisTicks(vp.start_s, vp.end_s, vp.width_px,
                             fm.horizontalAdvance(QStringLiteral("000.000 ms")) + fm.height());
    const int bottom = areas.axis.bottom();
    painter.setPen(pal.color(QPalette::WindowText));
    painter.drawLine(areas.axis.left(), bottom, areas.axis.right(), bottom);
    for (const double t : ticks.ticks_s) {
        const int x = areas.axis.left() + static_cast<int>(std::floor((t - vp.start_s) * pps));
        painter.drawLine(x, bottom - 4, x, bottom);
        const QString text = ticks.label(t);
        const int w = fm.horizontalAdvance(text);
        // Keep edge labels ("0 s" at the left end) inside the axis instead of clipped.
        const int left = std::clamp(x - w / 2 - 2, areas.axis.left(),
                                    std::max(areas.axis.left(), areas.axis.right() - w - 4));
        painter.drawText(QRect(left, bottom - 4 - fm.height(), w + 4, fm.height()), Qt::AlignCenter,
                         text);
    }
    const int iterations = timeline_->iterations();
    if (iterations > 1) {
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        const double step_s = timeline_->endTime() / iterations;
        for (int k = 0; k < iterations; ++k) {
            const double x_start = (k * step_s - vp.start_s) * pps;
            const double x_end = ((k + 1) * step_s - vp.start_s) * pps;
            if (x_end < 0 || x_start > vp.width_px)
                continue;
            // Label at the step start, or at the left edge while the step is in view.
            const int x = areas.axis.left() + static_cast<int>(std::max(0.0, x_start)) + 4;
            const QString text = tr("step %1").arg(k + 1);
            if (x + QFontMetrics(bold).horizontalAdvance(text) < areas.axis.left() + x_end)
                painter.drawText(QRect(x, areas.axis.top() + 2, areas.axis.width(), fm.height()),
                                 Qt::AlignLeft | Qt::AlignVCenter, text);
        }
    }
    painter.restore();
}

void TimelineWidget::paintLegend(QPainter &painter, const Areas &areas)
{
    const QPalette &pal = palette();
    const QFontMetrics fm = fontMetrics();
    painter.save();
    painter.fillRect(areas.legend, pal.color(QPalette::Window));
    painter.setPen(pal.color(QPalette::Mid));
    painter.drawLine(areas.legend.topLeft(), areas.legend.topRight());
    const int swatch = fm.height() * 3 / 4;
    for (const LegendItem &item : legendItems(areas.legend)) {
        const QRect box(item.rect.left(), item.rect.center().y() - swatch / 2, swatch, swatch);
        painter.fillRect(box, kindColor(item.kind));
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawText(item.rect.adjusted(swatch + swatch / 2, 0, 0, 0),
                         Qt::AlignLeft | Qt::AlignVCenter, kindName(item.kind));
    }
    painter.restore();
}

// ---------------------------------------------------------------------------------------
// Export

namespace
{
QSize exportSize(const QWidget &w)
{
    const QSize s = w.size();
    return s.width() < 200 || s.height() < 120 ? w.sizeHint() : s;
}
} // namespace

bool TimelineWidget::exportPng(const QString &path, QString *error)
{
    const QSize size = exportSize(*this);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(palette().color(QPalette::Window));
    {
        QPainter painter(&image);
        painter.setFont(font());
        paintContent(painter, size, false);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool TimelineWidget::exportSvg(const QString &path, QString *error)
{
    const QSize size = exportSize(*this);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(title_.isEmpty() ? tr("ScaleScope timeline") : title_);
        generator.setDescription(tr("Per-GPU timeline exported by ScaleScope"));
        QPainter painter(&generator);
        painter.setFont(font());
        paintContent(painter, size, false);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(buffer.data()) != buffer.size() ||
        !file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------
// Interaction

qint64 TimelineWidget::segmentAt(QPoint pos) const
{
    if (!timeline_)
        return -1;
    const QRect plot = plotRect();
    if (!plot.contains(pos))
        return -1;
    const TimelineViewport vp = viewportFor(plot);
    return hitTest(*timeline_, layout_, vp, pos - plot.topLeft()).segment;
}

QString TimelineWidget::segmentToolTip(size_t i) const
{
    const Timeline &tl = *timeline_;
    int lo = 0, hi = tl.rows();
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (tl.rowBegin(mid) <= i)
            lo = mid;
        else
            hi = mid;
    }
    const int gpu = lo / kStreamCount;
    const auto stream = static_cast<Stream>(lo % kStreamCount);
    const SegmentKind kind = tl.kind(i);
    QString html = QStringLiteral("<b>%1</b>").arg(kindName(kind).toHtmlEscaped());
    if (const QString &label = labelTexts().label(timeline_, i); !label.isEmpty())
        html += QStringLiteral("<br>") + label.toHtmlEscaped();
    html += QStringLiteral("<br>") + tr("GPU %1, %2").arg(gpu).arg(streamLabel(stream));
    html += QStringLiteral("<br>") + tr("Start: %1").arg(formatDuration(tl.start(i)));
    html += QStringLiteral("<br>") + tr("Duration: %1").arg(formatDuration(tl.duration(i)));
    if (tl.microBatch(i) >= 0)
        html += QStringLiteral("<br>") + tr("Micro-batch: %1").arg(tl.microBatch(i));
    // What communication moves and, for whole transfers (their own rows), at what rate:
    // nccl-tests' algorithm bandwidth, the buffer over the time (a tensor-parallel segment on
    // the compute row may be only the part not hidden behind compute).
    if (const double bytes = tl.bytes(i); bytes > 0) {
        const QLocale locale;
        const QString size = bytes >= 1e9   ? tr("%1 GB").arg(locale.toString(bytes / 1e9, 'f', 2))
                             : bytes >= 1e6 ? tr("%1 MB").arg(locale.toString(bytes / 1e6, 'f', 1))
                                            : tr("%1 kB").arg(locale.toString(bytes / 1e3, 'f', 1));
        if (stream != Stream::Compute && tl.duration(i) > 0)
            html += QStringLiteral("<br>") +
                    tr("Moves %1 at %2 GB/s (algorithm bandwidth)")
                        .arg(size, locale.toString(bytes / tl.duration(i) / 1e9, 'f', 1));
        else
            html += QStringLiteral("<br>") + tr("Moves %1").arg(size);
    }
    if (tl.iterations() > 1 && tl.endTime() > 0) {
        const int step =
            std::clamp(static_cast<int>(tl.start(i) / (tl.endTime() / tl.iterations())), 0,
                       tl.iterations() - 1);
        html += QStringLiteral("<br>") + tr("Step: %1").arg(step + 1);
    }
    if (kind == SegmentKind::Wait || kind == SegmentKind::Bubble || kind == SegmentKind::DataLoad)
        html += QStringLiteral("<br><i>%1</i>").arg(kindDescription(kind).toHtmlEscaped());
    return html;
}

QString TimelineWidget::toolTipTextAt(QPoint pos) const
{
    const Areas areas =
        areasFor(size(), scroll_bar_->isHidden() ? 0 : scroll_bar_->sizeHint().width());
    if (areas.legend.contains(pos)) {
        for (const LegendItem &item : legendItems(areas.legend))
            if (item.rect.contains(pos))
                return QStringLiteral("<b>%1</b><br>%2")
                    .arg(kindName(item.kind).toHtmlEscaped(),
                         kindDescription(item.kind).toHtmlEscaped());
        return {};
    }
    if (!timeline_)
        return {};
    const qint64 segment = segmentAt(pos);
    if (segment >= 0)
        return segmentToolTip(static_cast<size_t>(segment));
    if (pos.y() >= areas.plot.top() && pos.y() < areas.plot.bottom() &&
        pos.x() < areas.plot.right()) {
        const int index = layout_.rowIndexAt(pos.y() - areas.plot.top() + scrollOffsetPx());
        if (index >= 0 &&
            layout_.row(static_cast<size_t>(index)).type == TimelineRowInfo::Type::Node) {
            const TimelineRowInfo &row = layout_.row(static_cast<size_t>(index));
            const auto [gpu_begin, gpu_end] = layout_.gpuRange(row.node);
            return row.collapsed
                       ? tr("Node %1, GPUs %2-%3: the dominant activity of all its GPUs. Click to "
                            "expand.")
                             .arg(row.node)
                             .arg(gpu_begin)
                             .arg(gpu_end - 1)
                       : tr("Node %1, GPUs %2-%3. Click to collapse into one summary row.")
                             .arg(row.node)
                             .arg(gpu_begin)
                             .arg(gpu_end - 1);
        }
    }
    return {};
}

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipTextAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
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
            labelTexts().clear();
        updateGeometry();
        relayout(); // row heights and label widths follow the font
    } else if (event->type() == QEvent::PaletteChange) {
        update();
    }
}

void TimelineWidget::setHovered(qint64 segment)
{
    if (segment == hovered_)
        return;
    hovered_ = segment;
    update(); // overlay only: the geometry cache stays valid
    Q_EMIT segmentHovered(segment);
}

void TimelineWidget::wheelEvent(QWheelEvent *event)
{
    if (!timeline_) {
        event->ignore();
        return;
    }
    const QPoint angle = event->angleDelta();
    const QRect plot = plotRect();
    const double span = end_s_ - start_s_;
    if (event->modifiers() & Qt::ShiftModifier) {
        const int delta = angle.y() != 0 ? angle.y() : angle.x();
        scroll_bar_->setValue(scroll_bar_->value() - delta * 3 * rowHeight() / 120);
    } else if (std::abs(angle.x()) > std::abs(angle.y())) {
        const double shift = -angle.x() / 120.0 * span * kKeyPanFraction;
        setTimeRange(start_s_ + shift, end_s_ + shift);
    } else if (angle.y() != 0 && plot.width() > 0) {
        const double x =
            std::clamp(event->position().x() - plot.left(), 0.0, static_cast<double>(plot.width()));
        const double anchor = start_s_ + x / plot.width() * span;
        zoomAround(anchor, std::pow(kWheelZoomPerNotch, angle.y() / 120.0));
    }
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    pressed_ = true;
    dragged_ = false;
    press_pos_ = event->position().toPoint();
    press_start_s_ = start_s_;
    press_end_s_ = end_s_;
    press_scroll_px_ = scroll_bar_->value();
    event->accept();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (pressed_ && (event->buttons() & Qt::LeftButton)) {
        const QPoint delta = pos - press_pos_;
        if (!dragged_ && delta.manhattanLength() > kDragThresholdPx) {
            dragged_ = true;
            setCursor(Qt::ClosedHandCursor);
            setHovered(-1);
        }
        if (dragged_) {
            const QRect plot = plotRect();
            if (plot.width() > 0) {
                const double dt = -delta.x() * (press_end_s_ - press_start_s_) / plot.width();
                setTimeRange(press_start_s_ + dt, press_end_s_ + dt);
            }
            scroll_bar_->setValue(press_scroll_px_ - delta.y());
        }
        return;
    }
    setHovered(segmentAt(pos));
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !pressed_) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    pressed_ = false;
    if (dragged_) {
        dragged_ = false;
        unsetCursor();
        return;
    }
    // A click: node rows toggle, segments are selected.
    const QPoint pos = event->position().toPoint();
    const QRect plot = plotRect();
    if (timeline_ && pos.y() >= plot.top() && pos.y() <= plot.bottom() && pos.x() <= plot.right()) {
        const int index = layout_.rowIndexAt(pos.y() - plot.top() + scrollOffsetPx());
        if (index >= 0 &&
            layout_.row(static_cast<size_t>(index)).type == TimelineRowInfo::Type::Node) {
            toggleNode(layout_.row(static_cast<size_t>(index)).node);
            return;
        }
    }
    const qint64 segment = segmentAt(pos);
    if (segment != selected_) {
        selected_ = segment;
        update();
    }
    Q_EMIT segmentSelected(segment);
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && event->position().x() >= plotRect().left()) {
        fitToView();
        event->accept();
        return;
    }
    QWidget::mouseDoubleClickEvent(event);
}

void TimelineWidget::keyPressEvent(QKeyEvent *event)
{
    const double span = end_s_ - start_s_;
    const double centre = 0.5 * (start_s_ + end_s_);
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAround(centre, 1.0 / kKeyZoom);
        break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
        zoomAround(centre, kKeyZoom);
        break;
    case Qt::Key_Left:
        setTimeRange(start_s_ - span * kKeyPanFraction, end_s_ - span * kKeyPanFraction);
        break;
    case Qt::Key_Right:
        setTimeRange(start_s_ + span * kKeyPanFraction, end_s_ + span * kKeyPanFraction);
        break;
    case Qt::Key_Up:
        scroll_bar_->triggerAction(QAbstractSlider::SliderSingleStepSub);
        break;
    case Qt::Key_Down:
        scroll_bar_->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        break;
    case Qt::Key_PageUp:
        scroll_bar_->triggerAction(QAbstractSlider::SliderPageStepSub);
        break;
    case Qt::Key_PageDown:
        scroll_bar_->triggerAction(QAbstractSlider::SliderPageStepAdd);
        break;
    case Qt::Key_Home:
        fitToView();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineWidget::leaveEvent(QEvent *event)
{
    setHovered(-1);
    QWidget::leaveEvent(event);
}

} // namespace scalescope
