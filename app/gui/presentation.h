// Presentation mode (DESIGN.md section 3, issue 13): the stage a slide is shown on, the
// folding of identical GPU rows that lets a timeline fit a projector, and the input guards
// that keep a talk on track (slide keys that work whatever has focus, wheel events that change
// a control only when it has focus).
//
// A slide is the claim's title and text, the one view its gallery entry names (timeline,
// scaling, breakdown, memory or cost) and a status line. The stage is made for 1280 x 720 and
// 1920 x 1080: fonts follow the stage's height, the timeline's rows are folded, its nodes
// collapsed and its font reduced until the rows fit without scrolling, charts get thicker
// lines, everything is drawn with the projector palette (views/palette.h).
#pragma once

#include "analysis/sweep.h"
#include "io/gallery_io.h"
#include "result.h"

#include <QObject>
#include <QString>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QLabel;
class QStackedWidget;

namespace scalescope
{

class BreakdownView;
class CostView;
class MemoryView;
class ScalingView;
class TimelineWidget;
struct CostSpec;

/// A timeline with GPUs whose rows are identical (every stream: same segments, starts,
/// durations, kinds and labels) drawn once. `members[r]` are the original GPUs that row GPU r
/// stands for, ascending; the rows keep the order of their first GPU.
struct FoldedTimeline {
    std::shared_ptr<const Timeline> timeline; // null: nothing to fold (every GPU differs)
    std::vector<std::vector<int>> members;
};
FoldedTimeline foldIdenticalGpus(const Timeline &timeline);

/// The time range of a slide's zoom (GalleryZoom::Step): one whole step. The whole timeline
/// when it holds one step; where warm-up steps were simulated before the measured one (data
/// loaders, asynchronous updates), GPU 0's last step: `step_time_s` up to the end of its
/// last busy segment.
std::pair<double, double> slideStepRange(const Timeline &timeline, double step_time_s);

/// "0–4, 6, 7": ascending GPU numbers with runs of three or more as ranges.
QString gpuRangesText(const std::vector<int> &gpus);

/// Wheel events over a combo box, spin box or slider change it only when it has keyboard
/// focus (a wheel notch while scrolling past an unfocused control changed the strategy); the
/// event goes on to the scroll area around it. Installed by guardWheel().
class WheelGuard : public QObject
{
public:
    using QObject::QObject;
    /// Gives every QComboBox, QAbstractSpinBox and QAbstractSlider below `root` (and `root`
    /// itself) Qt::StrongFocus and this guard.
    void guard(QWidget *root);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

/// What a presentation key does (presentationKeyAction()).
enum class SlideKey { None, Next, Previous, First, Last, Leave, Stay, Blank };
/// The action of a key press while presenting: arrows, PgUp/PgDn, Space (Shift+Space back),
/// Home/End, and what presentation clickers send (PgUp/PgDn or Left/Right, F5 / Shift+F5 to
/// start, which keeps presenting, Esc to leave, B or period to black the screen). Keys with
/// Ctrl, Alt or Meta are not presentation keys.
SlideKey presentationKeyAction(int key, Qt::KeyboardModifiers modifiers);

class PresentationStage : public QWidget
{
    Q_OBJECT
public:
    struct Slide {
        QString title;
        QString text;
        GalleryView view = GalleryView::Timeline;
        GalleryZoom zoom = GalleryZoom::Step;
        int number = 1; // 1-based
        int count = 1;
    };

    explicit PresentationStage(QWidget *parent = nullptr);
    ~PresentationStage() override;

    /// Shows a slide's text and its view (the result follows with setResult).
    void setSlide(const Slide &slide);
    const Slide &slide() const { return slide_; }
    /// A line beside the title until the next slide (why a key did nothing).
    void setHint(const QString &hint);
    /// Gives the result to the slide's view. `refit`: the first result of a new slide, so
    /// the timeline shows the slide's zoom (one whole step) whatever it showed before.
    void setResult(const ResultPtr &result, bool refit);
    /// The status line: the window's figures, then the bottleneck sentence (plain text).
    void setStatus(const QStringList &figures, const QString &bottleneck);

    /// The widget of `view` on the stage (created on first use; objectName
    /// "presentationTimeline", "presentationScaling", ...).
    QWidget *viewWidget(GalleryView view);
    /// The view on screen.
    QWidget *currentView() const;
    TimelineWidget *timeline() const { return timeline_; }

    /// A black screen (clicker "blank" button); any slide key ends it.
    void setBlank(bool blank);
    bool isBlank() const;

    static QString objectNameOf(GalleryView view);

Q_SIGNALS:
    void scalingModeChanged(scalescope::Scaling mode);
    void costEdited(const scalescope::CostSpec &cost, const QString &description);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyRoomFonts();
    void showTimeline(const ResultPtr &result, bool refit);
    /// Collapses nodes and reduces the timeline's font until every row fits.
    void fitTimelineRows();
    void styleCharts(QWidget *view);
    void restyleSheetLabels();
    void updateTexts();

    Slide slide_;
    QString hint_; // setHint(), until the next slide
    ResultPtr result_;
    int base_px_ = 0;
    bool fitting_ = false;
    QLabel *title_ = nullptr;
    QLabel *text_ = nullptr;
    QLabel *timeline_note_ = nullptr;
    QStackedWidget *views_ = nullptr;
    QLabel *status_ = nullptr;
    QWidget *blank_ = nullptr;
    TimelineWidget *timeline_ = nullptr;
    ScalingView *scaling_ = nullptr;
    BreakdownView *breakdown_ = nullptr;
    MemoryView *memory_ = nullptr;
    CostView *cost_ = nullptr;
    WheelGuard *wheel_guard_ = nullptr;
    // The timeline page: the fold note above the widget.
    QWidget *timeline_page_ = nullptr;
};

} // namespace scalescope
