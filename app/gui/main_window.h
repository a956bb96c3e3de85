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
class QTabWidget;
class QTimer;
class QToolButton;

namespace scalescope
{

class AutosaveStore;
class BreakdownView;
class CalibrationPage;
class ControlPanel;
class CostView;
class DeltaView;
class Document;
class MemoryView;
class Recomputer;
class ScalingView;
class TimelineWidget;

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
    /// Presentation mode: large fonts, the gallery banner, arrow keys step the gallery, the
    /// scenario controls hidden (F6 shows them); full screen unless `full_screen` is false
    /// (screenshots at a given size).
    void setPresentationMode(bool on, bool full_screen = true);
    bool presentationMode() const { return presenting_; }
    /// Loads gallery entry `index` into the document (not undoable: a new document).
    void loadGalleryEntry(int index);
    int galleryIndex() const { return gallery_index_; }
    /// Pins the current result as A of an A/B compare; clearPin ends the compare.
    void pinCurrent();
    void clearPin();

    /// Asks the worker for a recompute of the document's scenario.
    void requestRecompute();
    /// Shows a result (normally from the worker; --screenshot calls it directly).
    void showResult(const ResultPtr &result);
    ResultPtr currentResult() const { return current_; }
    ResultPtr pinnedResult() const { return pinned_; }
    /// Milliseconds from the last edit to the redrawn window (benchmarks).
    double lastLatencyMs() const { return last_latency_ms_; }
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

protected:
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
    void scheduleAutosave();
    void writeAutosave();
    QString askSavePath(const QString &title, const QString &filter, const QString &suffix);
    QString askImagePath(const QString &title, const QString &format); // png or svg
    void showError(const QString &title, const QString &text);

    WindowContext ctx_;
    ResultPtr current_;
    ResultPtr pinned_;
    quint64 shown_generation_ = 0;
    int iterations_ = 1;
    Scaling scaling_ = Scaling::Strong;
    std::vector<int> sweep_counts_; // from the gallery entry; empty = default
    int gallery_index_ = -1;
    bool presenting_ = false;
    QFont normal_font_;
    bool was_maximized_ = false;
    bool controls_were_visible_ = true;
    bool stale_tabs_ = false;
    QSet<QWidget *> fresh_pages_; // tab pages that show current_
    QElapsedTimer edit_timer_;
    double last_latency_ms_ = 0;

    ControlPanel *controls_ = nullptr;
    QDockWidget *controls_dock_ = nullptr;
    QDockWidget *gallery_dock_ = nullptr;
    QListWidget *gallery_list_ = nullptr;
    QLabel *gallery_text_ = nullptr;
    QLabel *banner_ = nullptr;
    QSplitter *splitter_ = nullptr;
    TimelineWidget *timeline_ = nullptr;
    TimelineWidget *pinned_timeline_ = nullptr;
    QSpinBox *iterations_spin_ = nullptr;
    QLabel *timeline_note_ = nullptr;
    QLabel *compare_label_ = nullptr;
    QTabWidget *tabs_ = nullptr;
    ScalingView *scaling_view_ = nullptr;
    BreakdownView *breakdown_view_ = nullptr;
    MemoryView *memory_view_ = nullptr;
    CostView *cost_view_ = nullptr;
    CalibrationPage *calibration_page_ = nullptr;
    DeltaView *delta_view_ = nullptr;
    QLabel *status_step_ = nullptr;
    QLabel *status_throughput_ = nullptr;
    QLabel *status_mfu_ = nullptr;
    QLabel *status_speedup_ = nullptr;
    QLabel *status_efficiency_ = nullptr;
    QLabel *status_bottleneck_ = nullptr;
    QLabel *status_busy_ = nullptr;
    QMenu *recent_menu_ = nullptr;
    QAction *present_action_ = nullptr;
    QAction *pin_action_ = nullptr;
    QAction *unpin_action_ = nullptr;
    QTimer *autosave_timer_ = nullptr;
    QList<QShortcut *> presentation_shortcuts_;
};

} // namespace scalescope
