#include "presentation.h"

#include "charts/breakdown_view.h"
#include "charts/cost_view.h"
#include "charts/memory_view.h"
#include "charts/scaling_view.h"
#include "model_text.h"
#include "palette.h"
#include "timeline/timeline_widget.h"

#include <QAbstractBarSeries>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLayout>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace scalescope
{

namespace
{

// Stage font: the base size follows the stage's height, so that 1280 x 720 and 1920 x 1080
// show the same slide at the same proportions (about 44 lines of text per screen height).
constexpr double kLinesPerScreen = 44.0;
constexpr int kMinBasePx = 13;
constexpr int kMaxBasePx = 30;
constexpr double kTitleScale = 1.45;
// The timeline's font is reduced down to this share of the base size to fit its rows, or
// grown up to the other where a few folded rows leave room.
constexpr double kMinTimelineScale = 0.62;
constexpr double kMaxTimelineScale = 1.35;
constexpr int kMinTimelinePx = 11;
// Chart lines and markers on a projector.
constexpr double kLineScale = 2.0;
constexpr double kMinLineWidth = 3.0;
constexpr double kMarkerScale = 1.6;

// The node of the GPU with the most compute time in its compute row (ties: the first).
int nodeOfSlowestGpu(const Timeline &t)
{
    int slowest = 0;
    double most = -1;
    for (int gpu = 0; gpu < t.gpus(); ++gpu) {
        const int row = gpu * kStreamCount + static_cast<int>(Stream::Compute);
        double busy = 0;
        for (size_t i = t.rowBegin(row); i < t.rowEnd(row); ++i)
            if (t.kind(i) == SegmentKind::Compute)
                busy += t.duration(i);
        if (busy > most * (1 + 1e-9)) {
            most = busy;
            slowest = gpu;
        }
    }
    return slowest / std::max(1, t.gpusPerNode());
}

QString figuresSeparator()
{
    return QStringLiteral("  ·  ");
}

} // namespace

// ---------------------------------------------------------------------------------------

void WheelGuard::guard(QWidget *root)
{
    if (root == nullptr)
        return;
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *w : widgets) {
        if (qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w) ||
            qobject_cast<QAbstractSlider *>(w)) {
            // Not Qt::WheelFocus (QComboBox's default): a wheel notch must not take focus.
            w->setFocusPolicy(Qt::StrongFocus);
            w->removeEventFilter(this);
            w->installEventFilter(this);
        }
    }
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Wheel) {
        auto *w = qobject_cast<QWidget *>(watched);
        if (w != nullptr && !w->hasFocus()) {
            // Not for this control: the parent (a scroll area) scrolls instead.
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

SlideKey presentationKeyAction(int key, Qt::KeyboardModifiers modifiers)
{
    if (modifiers & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return SlideKey::None;
    const bool shift = modifiers & Qt::ShiftModifier;
    switch (key) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_PageDown:
        return SlideKey::Next;
    case Qt::Key_Left:
    case Qt::Key_Up:
    case Qt::Key_PageUp:
        return SlideKey::Previous;
    case Qt::Key_Space:
        return shift ? SlideKey::Previous : SlideKey::Next;
    case Qt::Key_Home:
        return SlideKey::First;
    case Qt::Key_End:
        return SlideKey::Last;
    case Qt::Key_Escape:
        return SlideKey::Leave;
    case Qt::Key_F5: // clickers' "start slide show" (F5, Shift+F5): already presenting
        return SlideKey::Stay;
    case Qt::Key_B:
    case Qt::Key_Period:
        return shift && key == Qt::Key_B ? SlideKey::None : SlideKey::Blank;
    default:
        return SlideKey::None;
    }
}

// ---------------------------------------------------------------------------------------

PresentationStage::PresentationStage(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("presentationStage"));
    setPalette(projectorPalette());
    setAutoFillBackground(true);
    setFocusPolicy(Qt::StrongFocus);
    wheel_guard_ = new WheelGuard(this);

    title_ = new QLabel(this);
    // The name of the former banner: the title of the slide and its number.
    title_->setObjectName(QStringLiteral("presentationBanner"));
    title_->setTextFormat(Qt::RichText);
    title_->setWordWrap(true);
    text_ = new QLabel(this);
    text_->setObjectName(QStringLiteral("presentationText"));
    text_->setTextFormat(Qt::PlainText);
    text_->setWordWrap(true);
    text_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    views_ = new QStackedWidget(this);
    views_->setObjectName(QStringLiteral("presentationViews"));
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("presentationStatus"));
    status_->setTextFormat(Qt::RichText);
    status_->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addWidget(text_);
    layout->addWidget(views_, 1);
    layout->addWidget(status_);

    blank_ = new QWidget(this);
    blank_->setObjectName(QStringLiteral("presentationBlank"));
    QPalette black;
    black.setColor(QPalette::Window, Qt::black);
    blank_->setPalette(black);
    blank_->setAutoFillBackground(true);
    blank_->hide();
    applyRoomFonts();
}

PresentationStage::~PresentationStage() = default;

QString PresentationStage::objectNameOf(GalleryView view)
{
    switch (view) {
    case GalleryView::Timeline:
        return QStringLiteral("presentationTimeline");
    case GalleryView::Scaling:
        return QStringLiteral("presentationScaling");
    case GalleryView::Breakdown:
        return QStringLiteral("presentationBreakdown");
    case GalleryView::Memory:
        return QStringLiteral("presentationMemory");
    case GalleryView::Cost:
        return QStringLiteral("presentationCost");
    }
    return {};
}

QWidget *PresentationStage::viewWidget(GalleryView view)
{
    // Built on first use, while the projector palette is on (charts take their colours
    // when they are built).
    QWidget *page = nullptr;
    QWidget *widget = nullptr;
    switch (view) {
    case GalleryView::Timeline:
        if (!timeline_) {
            timeline_page_ = new QWidget(views_);
            auto *l = new QVBoxLayout(timeline_page_);
            l->setContentsMargins(0, 0, 0, 0);
            timeline_note_ = new QLabel;
            timeline_note_->setTextFormat(Qt::PlainText);
            timeline_note_->setObjectName(QStringLiteral("presentationTimelineNote"));
            timeline_note_->setWordWrap(true);
            timeline_note_->hide();
            timeline_ = new TimelineWidget;
            timeline_->setObjectName(objectNameOf(view));
            timeline_->installEventFilter(this); // refit the rows when it is resized
            l->addWidget(timeline_note_);
            l->addWidget(timeline_, 1);
            page = timeline_page_;
        }
        widget = timeline_;
        break;
    case GalleryView::Scaling:
        if (!scaling_) {
            scaling_ = new ScalingView(views_);
            connect(scaling_, &ScalingView::scalingModeChanged, this,
                    &PresentationStage::scalingModeChanged);
            page = scaling_;
        }
        widget = scaling_;
        break;
    case GalleryView::Breakdown:
        if (!breakdown_) {
            breakdown_ = new BreakdownView(views_);
            // The slide texts speak of shares of the step; the table is for the desk.
            breakdown_->setUnit(BreakdownView::Unit::PercentOfStep);
            if (auto *table = breakdown_->findChild<QTableView *>(QStringLiteral("sweepTable")))
                table->hide();
            page = breakdown_;
        }
        widget = breakdown_;
        break;
    case GalleryView::Memory:
        if (!memory_) {
            memory_ = new MemoryView(views_);
            page = memory_;
        }
        widget = memory_;
        break;
    case GalleryView::Cost:
        if (!cost_) {
            cost_ = new CostView(views_);
            connect(cost_, &CostView::costEdited, this, &PresentationStage::costEdited);
            page = cost_;
        }
        widget = cost_;
        break;
    }
    if (page != nullptr) {
        if (widget != timeline_)
            widget->setObjectName(objectNameOf(view));
        views_->addWidget(page);
        wheel_guard_->guard(page);
        styleCharts(page);
        restyleSheetLabels();
    }
    return widget;
}

QWidget *PresentationStage::currentView() const
{
    QWidget *page = views_->currentWidget();
    return page == timeline_page_ ? timeline_ : page;
}

void PresentationStage::setHint(const QString &hint)
{
    hint_ = hint;
    updateTexts();
}

void PresentationStage::setSlide(const Slide &slide)
{
    slide_ = slide;
    hint_.clear();
    QWidget *view = viewWidget(slide.view);
    views_->setCurrentWidget(view == timeline_ ? timeline_page_ : view);
    updateTexts();
}

void PresentationStage::updateTexts()
{
    // A gallery slide's number; the document shown alone has none ("1/1" read as a deck).
    QString where = slide_.count > 0 ? QStringLiteral("%1/%2").arg(slide_.number).arg(slide_.count)
                                     : tr("your scenario");
    if (!hint_.isEmpty())
        where += QStringLiteral(" — ") + hint_;
    title_->setText(QStringLiteral("<b>%1</b>&nbsp;&nbsp;<span style='font-size:small'>%2</span>")
                        .arg(slide_.title.toHtmlEscaped(), where.toHtmlEscaped()));
    text_->setText(slide_.text);
    text_->setVisible(!slide_.text.isEmpty());
}

void PresentationStage::setResult(const ResultPtr &result, bool refit)
{
    result_ = result;
    if (!result)
        return;
    switch (slide_.view) {
    case GalleryView::Timeline:
        showTimeline(result, refit);
        break;
    case GalleryView::Scaling:
        scaling_->setResult(result);
        styleCharts(scaling_);
        break;
    case GalleryView::Breakdown:
        breakdown_->setResult(result);
        styleCharts(breakdown_);
        break;
    case GalleryView::Memory:
        memory_->setResult(result);
        styleCharts(memory_);
        break;
    case GalleryView::Cost:
        cost_->setResult(result);
        styleCharts(cost_);
        break;
    }
    restyleSheetLabels(); // views set their coloured notes' style sheets per result
}

void PresentationStage::showTimeline(const ResultPtr &result, bool refit)
{
    std::shared_ptr<const Timeline> shown = result->ok() ? result->timeline() : nullptr;
    QString note;
    if (shown) {
        const FoldedTimeline folded = foldIdenticalGpus(*shown);
        if (folded.timeline) {
            shown = folded.timeline;
            if (folded.members.size() == 1 && folded.members.front().size() == 2) {
                note = tr("Both GPUs have the same timeline: one row stands for both.");
            } else if (folded.members.size() == 1) {
                note = tr("All %1 GPUs have the same timeline: one row stands for all of them.")
                           .arg(folded.members.front().size());
            } else {
                QStringList groups;
                for (size_t r = 0; r < folded.members.size(); ++r) {
                    if (folded.members[r].size() == 1 && folded.members[r].front() == int(r))
                        continue;
                    groups << tr("GPU %1 stands for GPUs %2")
                                  .arg(r)
                                  .arg(gpuRangesText(folded.members[r]));
                }
                note = tr("GPUs with identical timelines are drawn once: %1.")
                           .arg(groups.join(QStringLiteral("; ")));
            }
        }
    } else if (result->ok()) {
        timeline_->setEmptyReason(tr("No timeline: more segments than can be drawn; the "
                                     "figures come from the closed-form model."));
    } else {
        timeline_->setEmptyReason(
            tr("No timeline: the scenario is not valid (%1).").arg(result->error));
    }
    timeline_note_->setText(note);
    timeline_note_->setVisible(!note.isEmpty());
    timeline_->setMemory(result->ok() ? result->summary().memory : MemoryBreakdown{},
                         result->ok() ? translatedRemedyClause(result->summary()) : QString());
    // Every node expanded first; fitTimelineRows() collapses what does not fit.
    timeline_->setTimeline(shown);
    timeline_->setAllNodesCollapsed(false);
    if (refit && shown) {
        // The slide's zoom, whatever was shown before: one whole step (the measured one
        // where warm-up steps were simulated before it).
        const auto [from, to] = slideStepRange(*shown, result->summary().step_time_s);
        timeline_->setTimeRange(from, to);
    }
    fitTimelineRows();
}

void PresentationStage::fitTimelineRows()
{
    if (!timeline_ || fitting_ || views_->currentWidget() != timeline_page_)
        return;
    fitting_ = true;
    if (QLayout *l = layout())
        l->activate();
    if (QLayout *l = timeline_page_->layout())
        l->activate();
    const auto fits = [this] {
        return timeline_->rowLayout().totalHeightPx() <= timeline_->plotRect().height();
    };
    QFont f = font();
    f.setPixelSize(base_px_);
    timeline_->setFont(f);
    const std::shared_ptr<const Timeline> &shown = timeline_->timeline();
    if (shown && fits()) {
        // A few rows (folded replicas): larger, for the back of the room.
        const int max_px = static_cast<int>(std::lround(base_px_ * kMaxTimelineScale));
        for (int px = base_px_ + 1; px <= max_px; ++px) {
            f.setPixelSize(px);
            timeline_->setFont(f);
            if (!fits()) {
                f.setPixelSize(px - 1);
                timeline_->setFont(f);
                break;
            }
        }
    }
    int kept_node = 0;
    if (shown && !fits() && timeline_->nodeCount() > 1) {
        // One node in full, the others as one summary row each: the node of the slowest
        // GPU (the one the others wait for), else the first.
        kept_node = nodeOfSlowestGpu(*shown);
        for (int node = 0; node < timeline_->nodeCount(); ++node)
            timeline_->setNodeCollapsed(node, node != kept_node);
    }
    const int min_px =
        std::max(kMinTimelinePx, static_cast<int>(std::lround(base_px_ * kMinTimelineScale)));
    for (int px = base_px_ - 1; shown && !fits() && px >= min_px; --px) {
        f.setPixelSize(px);
        timeline_->setFont(f);
    }
    if (shown && !fits() && timeline_->nodeCount() > 1)
        timeline_->setNodeCollapsed(kept_node, true);
    fitting_ = false;
}

void PresentationStage::setStatus(const QStringList &figures, const QString &bottleneck)
{
    QStringList parts;
    for (const QString &f : figures)
        if (!f.isEmpty())
            parts << f.toHtmlEscaped();
    QString html = parts.join(figuresSeparator());
    if (!bottleneck.isEmpty())
        html += QStringLiteral("<br>") + bottleneck.toHtmlEscaped();
    status_->setText(html);
}

void PresentationStage::setBlank(bool blank)
{
    blank_->setGeometry(rect());
    blank_->setVisible(blank);
    if (blank)
        blank_->raise();
}

bool PresentationStage::isBlank() const
{
    return blank_->isVisible();
}

void PresentationStage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    blank_->setGeometry(rect());
    applyRoomFonts();
    fitTimelineRows();
}

bool PresentationStage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == timeline_ && event->type() == QEvent::Resize)
        fitTimelineRows();
    return QWidget::eventFilter(watched, event);
}

void PresentationStage::applyRoomFonts()
{
    const int px = std::clamp(static_cast<int>(std::lround(height() / kLinesPerScreen)), kMinBasePx,
                              kMaxBasePx);
    if (px == base_px_)
        return;
    base_px_ = px;
    QFont base = QApplication::font();
    base.setPixelSize(px);
    setFont(base);
    QFont title = base;
    title.setPixelSize(static_cast<int>(std::lround(px * kTitleScale)));
    title_->setFont(title);
    QFont small = base;
    small.setPixelSize(std::max(kMinBasePx, static_cast<int>(std::lround(px * 0.92))));
    status_->setFont(small);
    if (timeline_note_)
        timeline_note_->setFont(small);
    const int margin = px / 2;
    layout()->setContentsMargins(margin * 2, margin, margin * 2, margin / 2);
    layout()->setSpacing(margin / 2);
    restyleSheetLabels();
    // Bar labels take their font here, not from the chart.
    for (QWidget *view : {static_cast<QWidget *>(scaling_), static_cast<QWidget *>(breakdown_),
                          static_cast<QWidget *>(memory_), static_cast<QWidget *>(cost_)})
        if (view != nullptr)
            styleCharts(view);
}

void PresentationStage::restyleSheetLabels()
{
    // Widgets with a style sheet (coloured notes: "Does not fit", verdicts) keep the font
    // they had when the sheet was applied instead of following the stage's: give them the
    // room's size explicitly (the sheet still sets weight and colour).
    for (QLabel *label : findChildren<QLabel *>()) {
        if (label->styleSheet().isEmpty())
            continue;
        QFont f = label->parentWidget() ? label->parentWidget()->font() : font();
        f.setPixelSize(std::max(f.pixelSize(), base_px_));
        f.setBold(label->font().bold());
        label->setFont(f);
    }
    // The cost verdict is the cost slide's headline (the view enlarges a point size; the
    // stage's fonts have pixel sizes).
    if (cost_ != nullptr) {
        if (auto *verdict = cost_->findChild<QLabel *>(QStringLiteral("costVerdict"))) {
            QFont f = font();
            f.setBold(true);
            f.setPixelSize(static_cast<int>(std::lround(base_px_ * 1.3)));
            verdict->setFont(f);
        }
    }
}

void PresentationStage::styleCharts(QWidget *view)
{
    // Thicker lines and larger markers, black axes and labels: once per series (the base
    // width is kept in a property so that styling again does not compound).
    const QColor black(Qt::black);
    for (QChartView *chart_view : view->findChildren<QChartView *>()) {
        QChart *chart = chart_view->chart();
        if (chart == nullptr)
            continue;
        chart->setBackgroundBrush(Qt::white);
        chart->setTitleBrush(black);
        chart->legend()->setLabelColor(black);
        for (QAbstractAxis *axis : chart->axes()) {
            axis->setLabelsColor(black);
            axis->setTitleBrush(black);
            QPen line = axis->linePen();
            line.setColor(black);
            line.setWidthF(2);
            axis->setLinePen(line);
            QPen grid = axis->gridLinePen();
            grid.setColor(QColor(0xb0, 0xb0, 0xb0));
            axis->setGridLinePen(grid);
        }
        for (QAbstractSeries *series : chart->series()) {
            if (auto *bars = qobject_cast<QAbstractBarSeries *>(series)) {
                QFont label_font = font();
                label_font.setPixelSize(std::max(kMinBasePx, base_px_ * 4 / 5));
                label_font.setBold(true);
                for (QBarSet *set : bars->barSets()) {
                    set->setLabelFont(label_font);
                    set->setLabelColor(black);
                    QPen border = set->pen();
                    border.setWidthF(1.5);
                    set->setPen(border);
                }
                continue;
            }
            auto *xy = qobject_cast<QXYSeries *>(series);
            if (xy == nullptr)
                continue;
            if (!xy->property("roomBaseWidth").isValid())
                xy->setProperty("roomBaseWidth", xy->pen().widthF());
            const double base = xy->property("roomBaseWidth").toDouble();
            QPen pen = xy->pen();
            if (auto *scatter = qobject_cast<QScatterSeries *>(xy)) {
                if (!scatter->property("roomBaseMarker").isValid())
                    scatter->setProperty("roomBaseMarker", scatter->markerSize());
                scatter->setMarkerSize(scatter->property("roomBaseMarker").toDouble() *
                                       kMarkerScale);
                pen.setWidthF(std::max(base * kMarkerScale, 2.0));
            } else {
                pen.setWidthF(std::max(base * kLineScale, kMinLineWidth));
            }
            xy->setPen(pen);
            if (xy->pointsVisible() && !qobject_cast<QScatterSeries *>(xy))
                xy->setMarkerSize(std::max(xy->markerSize(), pen.widthF() * 2.2));
        }
    }
}

} // namespace scalescope
