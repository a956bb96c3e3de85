// TimelineWidget's mouse and keys: the wheel zooms around the cursor, dragging pans, a click
// selects a segment or toggles a node, the keys zoom, pan and scroll.
#include "timeline/timeline_widget.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{
constexpr int kDragThresholdPx = 3;
constexpr double kWheelZoomPerNotch = 0.8; // span factor per 120 units of wheel delta
constexpr double kKeyZoom = 1.5;
constexpr double kKeyPanFraction = 0.1;
} // namespace

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
