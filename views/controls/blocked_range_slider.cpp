#include "controls/blocked_range_slider.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QToolTip>

#include <algorithm>

namespace scalescope
{

BlockedRangeSlider::BlockedRangeSlider(QWidget *parent) : QSlider(Qt::Horizontal, parent) {}

void BlockedRangeSlider::setBlockedReasons(std::vector<QString> reasons)
{
    if (reasons == reasons_)
        return;
    reasons_ = std::move(reasons);
    update();
}

bool BlockedRangeSlider::isBlocked(int value) const
{
    const int i = value - minimum();
    return i >= 0 && i < static_cast<int>(reasons_.size()) &&
           !reasons_[static_cast<size_t>(i)].isEmpty();
}

namespace
{
struct Track {
    int left = 0, span = 0; // where the handle's centre can go: [left, left + span]
};
Track trackOf(const QSlider &slider)
{
    QStyleOptionSlider opt;
    opt.initFrom(&slider);
    opt.orientation = slider.orientation();
    opt.minimum = slider.minimum();
    opt.maximum = slider.maximum();
    opt.sliderPosition = slider.sliderPosition();
    opt.sliderValue = slider.value();
    opt.tickPosition = slider.tickPosition();
    opt.tickInterval = slider.tickInterval();
    opt.subControls = QStyle::SC_SliderGroove | QStyle::SC_SliderHandle;
    const QStyle *style = slider.style();
    const QRect groove =
        style->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, &slider);
    const QRect handle =
        style->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, &slider);
    return {groove.x() + handle.width() / 2, std::max(1, groove.width() - handle.width())};
}
} // namespace

int BlockedRangeSlider::positionOf(int value) const
{
    const Track t = trackOf(*this);
    return t.left + QStyle::sliderPositionFromValue(minimum(), maximum(), value, t.span);
}

int BlockedRangeSlider::valueAt(int x) const
{
    const Track t = trackOf(*this);
    const int steps = std::max(1, maximum() - minimum());
    const double step_px = static_cast<double>(t.span) / steps;
    const int v = minimum() + static_cast<int>(std::lround((x - t.left) / step_px));
    return std::clamp(v, minimum(), maximum());
}

void BlockedRangeSlider::paintEvent(QPaintEvent *event)
{
    QSlider::paintEvent(event);
    if (std::none_of(reasons_.begin(), reasons_.end(),
                     [](const QString &r) { return !r.isEmpty(); }))
        return;
    // Each refused position gets its share of the track, hatched over the groove and ticks.
    QPainter p(this);
    const Track t = trackOf(*this);
    const double half = 0.5 * t.span / std::max(1, maximum() - minimum());
    QColor tint = palette().color(QPalette::Disabled, QPalette::WindowText);
    QColor shade = tint;
    tint.setAlpha(70);
    shade.setAlpha(200);
    for (int v = minimum(); v <= maximum(); ++v) {
        if (!isBlocked(v))
            continue;
        const int x = positionOf(v);
        const QRectF r(x - half, 0, 2 * half, height());
        p.fillRect(r, tint);
        p.fillRect(r, QBrush(shade, Qt::BDiagPattern));
    }
}

bool BlockedRangeSlider::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(e);
        const int v = valueAt(help->pos().x());
        if (isBlocked(v)) {
            QToolTip::showText(help->globalPos(), reasons_[static_cast<size_t>(v - minimum())],
                               this);
            return true;
        }
    }
    return QSlider::event(e);
}

} // namespace scalescope
