// TimelineWidget's painting: rows, segments and their labels, header, axis, legend and the
// memory banner, on screen or into a PNG or SVG export.
#include "timeline/timeline_widget.h"

#include "io/file_io.h"
#include "palette.h"
#include "timeline/timeline_format.h"
#include "timeline/timeline_widget_p.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QScrollBar>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{
const QColor kOutOfMemory(0xc6, 0x28, 0x28);  // as the memory view's over-capacity red
const QColor kCriticalPath(0xe0, 0x1e, 0x5a); // apart from every kind's colour (palette.cpp)

QColor textColorOn(const QColor &background)
{
    // Rec. 709 luma; dark text on light colours.
    const double luma =
        0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luma > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}
} // namespace

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
        const QString &label = timeline_detail::labelTexts().label(timeline_, item.segment);
        const QString text = label.isEmpty() ? kindName(kind) : label;
        const QRect text_rect = item.rect.adjusted(text_pad, 0, -text_pad, 0);
        const QString elided = fm.elidedText(text, Qt::ElideRight, text_rect.width());
        if (elided.isEmpty() || elided == QStringLiteral("…"))
            continue;
        painter.setPen(textColorOn(kindColor(kind)));
        painter.drawText(text_rect, Qt::AlignLeft | Qt::AlignVCenter, elided);
    }

    // The critical path (issue 28, item 4): a bar along the bottom of each segment that sets
    // the step, on the rows of its first GPU (sim/critical_path.h).
    const std::vector<CriticalSpan> &path = timeline_->criticalPath();
    if (!path.empty()) {
        const int bar = std::max(2, fm.height() / 5);
        painter.setPen(Qt::NoPen);
        painter.setBrush(kCriticalPath);
        for (const CriticalSpan &span : path) {
            if (span.end_s < vp.start_s || span.start_s > vp.end_s)
                continue;
            const int layout_row = layout_.layoutRowOfTimelineRow(span.row);
            if (layout_row < 0)
                continue;
            const TimelineRowInfo &row = layout_.row(static_cast<size_t>(layout_row));
            const int y = row.y_px - vp.scroll_y_px + row.height_px - bar - 1;
            if (y + bar < 0 || y > plot.height())
                continue;
            const double x0 =
                std::clamp((span.start_s - vp.start_s) * pps, -2.0, vp.width_px + 2.0);
            const double x1 = std::clamp((span.end_s - vp.start_s) * pps, -2.0, vp.width_px + 2.0);
            painter.drawRect(QRectF(x0, y, std::max(1.0, x1 - x0), bar));
        }
        painter.setBrush(Qt::NoBrush);
    }

    // Iteration boundaries.
    const int iterations = timeline_->iterations();
    if (iterations > 1) {
        QPen pen(pal.color(QPalette::WindowText));
        pen.setStyle(Qt::DashLine);
        painter.setPen(pen);
        for (int k = 1; k < iterations; ++k) {
            const double x = (timeline_->stepStart(k) - vp.start_s) * pps;
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
        for (int k = 0; k < iterations; ++k) {
            const double x_start = (timeline_->stepStart(k) - vp.start_s) * pps;
            const double x_end =
                ((k + 1 < iterations ? timeline_->stepStart(k + 1) : timeline_->endTime()) -
                 vp.start_s) *
                pps;
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
        if (item.critical) // the bar the path draws under its segments
            painter.fillRect(box.adjusted(0, swatch * 2 / 3, 0, 0), kCriticalPath);
        else
            painter.fillRect(box, kindColor(item.kind));
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawText(item.rect.adjusted(swatch + swatch / 2, 0, 0, 0),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         item.critical ? criticalPathName() : kindName(item.kind));
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

// Through the one writer (io/file_io.h): a full disk or a read-only folder keeps an
// existing file and says why (QSaveFile's commit() could rename an empty file over it).
bool writeExport(const QString &path, const QByteArray &data, QString *error)
{
    const WriteResult written = writeFileSafely(path, data);
    if (!written && error)
        *error = TimelineWidget::tr("Could not write %1: %2").arg(path, written.reason);
    return written.ok;
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
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, buffer.errorString());
        return false;
    }
    return writeExport(path, buffer.data(), error);
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
    return writeExport(path, buffer.data(), error);
}

} // namespace scalescope
