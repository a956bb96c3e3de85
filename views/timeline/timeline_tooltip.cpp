// TimelineWidget's hit-testing and tooltips: the segment under the cursor, what it is and
// moves, the legend's descriptions and the node rows' hints.
#include "timeline/timeline_widget.h"

#include "palette.h"
#include "timeline/timeline_format.h"
#include "timeline/timeline_widget_p.h"

#include <QHelpEvent>
#include <QLocale>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>

namespace scalescope
{

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
    if (const QString &label = timeline_detail::labelTexts().label(timeline_, i); !label.isEmpty())
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
        html += QStringLiteral("<br>") + tr("Step: %1").arg(tl.stepAt(tl.start(i)) + 1);
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

} // namespace scalescope
