// The main window: control panel (left), Gantt timeline (centre) with result tabs under it,
// gallery, status bar, A/B compare and presentation mode (DESIGN.md section 3).
#pragma once

#include "analysis/sweep.h"
#include "io/gallery_io.h"
#include "result.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>
#include <QSet>

#include <optional>
#include <utility>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QListWidget;
class QMenu;
class QSettings;
class QShortcut;
class QSpinBox;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QToolButton;

namespace scalescope
{

namespace window_detail
{
class StaleVeil;
class WrappedStatusLabel;
}

class AutosaveStore;
class BreakdownView;
class CalibrationPage;
class ControlPanel;
class CostView;
class DeltaView;
class MeasuredRunView;
struct TraceProfileFit;
class Document;
class MemoryView;
class PresentationStage;
class Recomputer;
class ScalingView;
class TimelineWidget;
class WheelGuard;
enum class SlideKey;

struct WindowContext {
    Document *document = nullptr;
    Recomputer *recomputer = nullptr;
    QSettings *settings = nullptr;
    AutosaveStore *autosave = nullptr; // null: no autosave (screenshots, some tests)
    const std::vector<GalleryEntry> *gallery = nullptr;
    QString language;        // "en" or "zh_CN"
    bool interactive = true; // false: never open modal dialogs (tests, screenshots)
};

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(const WindowContext &context, QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Shows a tab by --tab name; "timeline" gives the timeline most of the height.
    bool showTab(const QString &name);
    /// What a window rebuilt around the same document (a language switch) carries over:
    /// the tab shown and the claim the document is.
    struct ViewState {
        int tab = 0;
        int gallery_index = -1;
        std::vector<int> sweep_counts;
    };
    ViewState viewState() const;
    void restoreViewState(const ViewState &state);
    /// Presentation mode (presentation.h): no menu bar, tool bar, docks or status bar; a
    /// slide is the claim's title and text, the view its gallery entry names and a status
    /// line, in room-sized fonts and the projector palette. Arrow keys, PgUp/PgDn, Space,
    /// Home/End and clicker keys step the slides whatever has focus; B or period blacks the
    /// screen; Esc leaves; F6 shows the scenario controls. It starts at the gallery slide
    /// shown, else at the slide of the document's file (a file that is not in the gallery,
    /// or an edited untitled scenario, is a one-slide deck), else at the first slide. Full
    /// screen unless `full_screen` is false (screenshots and tests at a given size).
    void setPresentationMode(bool on, bool full_screen = true);
    /// What a show presents: the claims gallery (F5; from the claim the document is, else
    /// from the first), the document alone as one slide (Shift+F5), or as --present chooses
    /// (the gallery slide of the document's file, a file not in the gallery alone, else the
    /// gallery). Whatever the show loads, the document is what it was when the show ends.
    enum class ShowWhat { Auto, Gallery, Document };
    void present(ShowWhat what, bool full_screen = true);
    bool presentationMode() const { return presenting_; }
    /// The stage of presentation mode (null before the first presentation).
    PresentationStage *presentationStage() const { return stage_; }
    /// Whether the presentation is a one-slide deck of the document (not a gallery slide).
    bool presentsSingleSlide() const { return single_slide_.has_value(); }
    /// The gallery entry whose file has the same content as `path` (or is `path`), or -1.
    int galleryIndexOfFile(const QString &path) const;
    /// Resizes to `size` (the saved or default size, --size) bounded by the available
    /// geometry of the window's screen, and moves the window inside it.
    void fitIntoScreen(const QSize &size);
    /// The docks' default arrangement for a window `width` pixels wide: the Claims gallery on
    /// the right when there is room for it beside the views (kGalleryBesideWidth), tabbed
    /// behind the Scenario dock below that (a 1024 x 768 screen), so that the charts keep
    /// their width. Leaves an arrangement the user made (moved, floated or hid a dock) alone.
    void arrangeDocksFor(int width);
    /// Loads gallery entry `index` into the document (not undoable: a new document).
    void loadGalleryEntry(int index);
    int galleryIndex() const { return gallery_index_; }
    /// Pins the current result as A of an A/B compare; clearPin ends the compare.
    void pinCurrent();
    void clearPin();

    /// Asks the worker for a recompute of the document's scenario.
    void requestRecompute();
    /// Reads measured traces (one per rank) and draws their rows below the predicted ones
    /// (main_window_trace.cpp); false when one is no trace (the message shown) or cancelled.
    bool openMeasuredTraces(const QStringList &files);
    void closeMeasuredTrace();
    /// "Fit the model to this run": writes a calibration profile fitted from the open
    /// measured traces to `path` (asked for when empty and interactive), applies it and says
    /// what it wrote; false when no run is open, the file cannot be written or it was
    /// cancelled.
    bool fitModelToMeasuredRun(const QString &path = QString());
    /// Shows a result (normally from the worker; --screenshot calls it directly).
    void showResult(const ResultPtr &result);
    ResultPtr currentResult() const { return current_; }
    /// Help › Keyboard and mouse: every menu action with its keys, then the timeline's and
    /// the presentation's mouse and keys.
    QList<QPair<QString, QString>> shortcutList() const;
    void showShortcuts();
    /// "<scenario>-<what>.<suffix>": the scenario's file or name, made safe for a file name
    /// (what the save and export dialogs start from).
    QString suggestedFileName(const QString &what, const QString &suffix) const;
    ResultPtr pinnedResult() const { return pinned_; }
    /// Milliseconds from the last edit to the redrawn window (benchmarks).
    double lastLatencyMs() const { return last_latency_ms_; }
    /// Milliseconds from the last edit to its status bar and to its timeline on screen
    /// (either stage or the complete result, whichever came first).
    double lastStatusLatencyMs() const { return status_latency_ms_; }
    double lastTimelineLatencyMs() const { return timeline_latency_ms_; }
    int iterations() const { return iterations_; }
    Scaling scaling() const { return scaling_; }

    /// Opens a file (asks to save unsaved work first when interactive).
    bool openFile(const QString &path);
    bool saveTo(const QString &path);
    /// Makes the scenario use a calibration profile ("" = datasheet figures); undoable.
    void applyCalibration(const QString &path);
    /// Opens the plan search; the chosen plan becomes one undoable edit.
    void suggestPlan();

Q_SIGNALS:
    /// The user picked another language; the application rebuilds the window.
    void languageChangeRequested(const QString &language);
    /// A result was shown and the window repainted (tests and benchmarks).
    void resultShown(quint64 generation);
    /// A stage of a request is on screen (ResultStage as int); the complete one is also
    /// announced by resultShown.
    void stageShown(quint64 generation, int stage);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildUi();
    int pageIndex(QWidget *page) const;
    /// The widget of the tab on screen (inside its scroll area).
    QWidget *currentPage() const;
    /// Gives the current result to the tab on screen (the others when they are shown).
    void refreshCurrentTab();
    void buildMenus();
    void updateTitle();
    void updateStatus(const ResultPtr &result);
    void updateGalleryText();
    void stepGallery(int delta);
    void goToSlide(int index);
    void handleSlideKey(SlideKey action);
    /// Builds the stage on first use (with the projector palette on).
    void ensureStage();
    /// Gives the stage the slide now shown and, when there is one, the current result.
    void showSlide();
    /// Chooses the first slide when presentation starts (see setPresentationMode()).
    void chooseStartSlide();
    /// The one-slide deck of the document: its file's gallery text while unedited; titled by
    /// what it runs on now once edited (Document::displayName).
    void presentDocumentAlone();
    /// The title of the slide shown: the claim's, or what the edited scenario runs on now.
    QString slideTitle(const GalleryEntry *entry) const;
    /// The gallery entry (or one-slide deck) shown while presenting, or null.
    const GalleryEntry *shownEntry() const;
    /// An edit during a show (F6) retitles the slide by what it runs on now.
    void updateSlideTitle();
    /// Greys the views, which keep the last valid result, and says why above them (`invalid`:
    /// the result that did not compute; null: the views are current).
    void showStalePicture(const ResultPtr &invalid);
    /// The refusal of `result` (key path, message) in the window's language.
    std::pair<QString, QString> localizedError(const ScenarioResult &result) const;
    /// Highlights gallery row `index` (-1: none, the document is no claim).
    void showGalleryRow(int index);
    /// Gives the document back as the show found it (show_return_), if a slide replaced it.
    void restoreDocumentAfterShow();
    QStringList statusFigures() const;
    bool maybeSave();
    bool save();
    bool saveAs();
    void newDocument();
    void openDialog();
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void exportTimeline(const QString &format);
    void exportChart(const QString &format);
    void exportSweepCsv();
    void exportTrace();
    void openMeasuredTraceDialog();
    void buildMeasuredTimeline(QSplitter *timelines);
    /// The Measured run tab's bars: the open run against the current result's prediction.
    void showMeasuredComparison();
    void scheduleAutosave();
    void writeAutosave();
    /// Asks where to save, starting from suggestedFileName(what, suffix) in the last folder.
    QString askSavePath(const QString &title, const QString &filter, const QString &suffix,
                        const QString &what = {});
    QString askImagePath(const QString &title, const QString &format, // png or svg
                         const QString &what);
    /// The tab on screen as a file name part ("scaling", "memory", ...).
    QString chartFileTag() const;
    void showError(const QString &title, const QString &text);

    WindowContext ctx_;
    ResultPtr current_;
    ResultPtr pinned_;
    quint64 shown_generation_ = 0;
    int iterations_ = 1;
    Scaling scaling_ = Scaling::Strong;
    int sweep_node_gpus_ = 0; // the sweep grows by nodes of this many GPUs (0: the scenario's)
    std::vector<int> sweep_counts_; // from the gallery entry; empty = default
    int gallery_index_ = -1;
    bool presenting_ = false;
    bool was_maximized_ = false;
    bool was_full_screen_ = false;
    bool controls_were_visible_ = true;
    bool gallery_was_visible_ = true;
    bool gallery_tabbed_ = false; // arrangeDocksFor put the gallery behind the Scenario dock
    QPointer<QWidget> focus_before_presenting_;
    std::optional<GalleryEntry> single_slide_; // one-slide deck (a file not in the gallery)
    ShowWhat show_what_ = ShowWhat::Auto;      // what the show starting now presents
    /// The document as the show found it, given back when the show ends if a slide replaced it.
    struct ShowReturn {
        Scenario scenario;
        QString path;
        bool modified = false;
        int gallery_index = -1;
        std::vector<int> sweep_counts;
        bool replaced = false; // a gallery slide was loaded into the document
    };
    std::optional<ShowReturn> show_return_;
    ResultPtr last_valid_;   // the newest result that computed
    ResultPtr views_result_; // what the timeline and tabs show (last_valid_ after an error)
    // The first result of a newly loaded slide refits the timeline to the slide's zoom.
    quint64 refit_generation_ = 0;
    bool refit_pending_ = false;
    QString bottleneck_plain_; // the status bar's sentence, for the presentation status line
    bool stale_tabs_ = false;
    QSet<QWidget *> fresh_pages_; // tab pages that show current_
    QElapsedTimer edit_timer_;
    double status_latency_ms_ = 0;
    double timeline_latency_ms_ = 0;
    bool status_latency_taken_ = false;
    bool timeline_latency_taken_ = false;
    bool refit_now_ = false;       // showTimelineOf fitted the timeline to its step
    ResultPtr calibration_before_; // the result before a profile was applied or removed
    QString calibration_applied_;  // that profile's absolute path ("" = datasheet)
    bool calibration_pending_ = false;
    QString calibration_gpu_switched_; // the GPU an applied profile switched the scenario to
    QString calibrationReport(const ResultPtr &before, const ResultPtr &after) const;
    void showStage(const ResultPtr &result);
    /// An edit happened now: latencies count from here.
    void startEditTimer();
    void showTimelineOf(const ResultPtr &result);
    double last_latency_ms_ = 0;

    ControlPanel *controls_ = nullptr;
    QDockWidget *controls_dock_ = nullptr;
    QDockWidget *gallery_dock_ = nullptr;
    QListWidget *gallery_list_ = nullptr;
    QLabel *gallery_text_ = nullptr;
    QStackedWidget *central_stack_ = nullptr;
    QWidget *centre_ = nullptr;
    PresentationStage *stage_ = nullptr;
    WheelGuard *wheel_guard_ = nullptr;
    QSplitter *splitter_ = nullptr;
    TimelineWidget *timeline_ = nullptr;
    TimelineWidget *pinned_timeline_ = nullptr;
    TimelineWidget *measured_timeline_ = nullptr; // main_window_trace.cpp
    std::shared_ptr<const Timeline> measured_;
    std::shared_ptr<const TraceProfileFit> measured_fit_; // fitted when the traces were read
    QStringList measured_files_;
    std::optional<std::string> measured_gpu_;  // the GPU the traces name, if they do
    MeasuredRunView *measured_view_ = nullptr; // the Measured run tab
    QSpinBox *iterations_spin_ = nullptr;
    QLabel *timeline_note_ = nullptr;
    QLabel *compare_label_ = nullptr;
    QTabWidget *tabs_ = nullptr;
    window_detail::StaleVeil *stale_veil_ = nullptr; // over the timeline and the tabs
    ScalingView *scaling_view_ = nullptr;
    BreakdownView *breakdown_view_ = nullptr;
    MemoryView *memory_view_ = nullptr;
    CostView *cost_view_ = nullptr;
    CalibrationPage *calibration_page_ = nullptr;
    DeltaView *delta_view_ = nullptr;
    QLabel *status_memory_ = nullptr; // first, and only when the run does not fit
    QLabel *status_step_ = nullptr;
    QLabel *status_throughput_ = nullptr;
    QLabel *status_mfu_ = nullptr;
    QLabel *status_speedup_ = nullptr;
    QLabel *status_efficiency_ = nullptr;
    QLabel *status_staleness_ = nullptr;
    window_detail::WrappedStatusLabel *status_bottleneck_ = nullptr;
    QLabel *status_busy_ = nullptr;
    QMenu *recent_menu_ = nullptr;
    QAction *present_action_ = nullptr;          // present the gallery (F5)
    QAction *present_scenario_action_ = nullptr; // present my scenario (Shift+F5)
    QAction *pin_action_ = nullptr;
    QAction *unpin_action_ = nullptr;
    QTimer *autosave_timer_ = nullptr;
};

} // namespace scalescope
