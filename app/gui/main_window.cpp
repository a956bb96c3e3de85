#include "main_window.h"

#include "recent_files.h"

#include "autosave.h"
#include "calibration_page.h"
#include "charts/breakdown_view.h"
#include "charts/cost_view.h"
#include "charts/delta_view.h"
#include "charts/export.h"
#include "charts/memory_view.h"
#include "charts/scaling_view.h"
#include "controls/control_panel.h"
#include "document.h"
#include "io/catalog_io.h"
#include "io/file_io.h"
#include "io/profile_io.h"
#include "io/report_io.h"
#include "io/scenario_io.h"
#include "model_text.h"
#include "options.h"
#include "palette.h"
#include "plan_dialog.h"
#include "presentation.h"
#include "recompute.h"
#include "timeline/timeline_format.h"
#include "timeline/timeline_widget.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QWindow>

#include <cmath>
#include <functional>

namespace scalescope
{

namespace
{

constexpr int kMaxRecentFiles = 8;
// The size of a first start (no saved geometry) where the screen has room for it.
constexpr QSize kDefaultWindowSize(1500, 940);
// Room left for the window frame, which is unknown before the window is first shown.
constexpr QSize kFrameAllowance(16, 48);

QString formatRate(double per_second)
{
    if (per_second >= 1e6)
        return QStringLiteral("%1 M").arg(per_second / 1e6, 0, 'f', 2);
    if (per_second >= 1e3)
        return QStringLiteral("%1 k").arg(per_second / 1e3, 0, 'f', 1);
    return QString::number(per_second, 'f', 1);
}

} // namespace

MainWindow::MainWindow(const WindowContext &context, QWidget *parent)
    : QMainWindow(parent), ctx_(context)
{
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    iterations_ =
        std::clamp(ctx_.settings->value(QStringLiteral("view/iterations"), 1).toInt(), 1, 4);
    buildUi();
    buildMenus();
    // Saving over a file another window changed: Save As asks with the window's own dialog;
    // a window without a user (tests, --screenshot) never blocks on a dialog and cancels.
    ctx_.document->setSaveAsHandler([this](const QString &) {
        return askSavePath(tr("Save scenario"), tr("Scenarios (*.json)"), QStringLiteral("json"));
    });
    if (!ctx_.interactive)
        ctx_.document->setConflictHandler(
            [](const QString &) { return SaveConflictChoice::Cancel; });

    connect(ctx_.recomputer, &Recomputer::resultReady, this, &MainWindow::showResult);
    connect(ctx_.document, &Document::scenarioChanged, this, [this] {
        controls_->setScenario(ctx_.document->scenario());
        calibration_page_->setAppliedProfile(
            QString::fromStdString(ctx_.document->scenario().hardware.calibration_path));
        calibration_page_->setHardware(ctx_.document->scenario().hardware);
        // A report about a profile the scenario no longer uses (undone, another file
        // opened) is withdrawn.
        if (!calibration_pending_ &&
            QString::fromStdString(ctx_.document->scenario().hardware.calibration_path) !=
                calibration_applied_)
            calibration_page_->setApplyReport(QString());
        requestRecompute();
    });
    connect(ctx_.document, &Document::modifiedChanged, this, [this](bool modified) {
        updateTitle();
        if (!modified && ctx_.autosave)
            ctx_.autosave->clear();
    });
    connect(ctx_.document, &Document::filePathChanged, this, [this] { updateTitle(); });
    // After the stack moved (the scenario changes inside push(), before the index does).
    connect(ctx_.document->undoStack(), &QUndoStack::indexChanged, this,
            [this] { scheduleAutosave(); });

    autosave_timer_ = new QTimer(this);
    autosave_timer_->setSingleShot(true);
    autosave_timer_->setInterval(2000);
    connect(autosave_timer_, &QTimer::timeout, this, &MainWindow::writeAutosave);

    controls_->setScenario(ctx_.document->scenario());
    calibration_page_->setAppliedProfile(
        QString::fromStdString(ctx_.document->scenario().hardware.calibration_path));
    calibration_page_->setHardware(ctx_.document->scenario().hardware);
    updateTitle();
    rebuildRecentMenu();

    // Never larger than the screen: geometry saved on a larger monitor, or the default size
    // on a 1280 x 720 projector, is fitted into the available geometry.
    if (!ctx_.settings->value(QStringLiteral("window/geometry")).isNull()) {
        restoreGeometry(ctx_.settings->value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(ctx_.settings->value(QStringLiteral("window/state")).toByteArray());
        if (!isMaximized() && !isFullScreen())
            fitIntoScreen(size());
    } else {
        fitIntoScreen(kDefaultWindowSize);
    }
    requestRecompute();
}

MainWindow::~MainWindow()
{
    if (presenting_) {
        qApp->removeEventFilter(this);
        setPaletteMode(PaletteMode::Screen);
    }
}

void MainWindow::fitIntoScreen(const QSize &wanted)
{
    QScreen *s = screen() != nullptr ? screen() : QGuiApplication::primaryScreen();
    if (s == nullptr) {
        resize(wanted);
        return;
    }
    const QRect available = s->availableGeometry();
    // The frame once known (after the first show), else a title bar's allowance.
    QSize frame = frameGeometry().size() - geometry().size();
    if (!isVisible() || frame.isEmpty())
        frame = frame.expandedTo(kFrameAllowance);
    const QSize room = (available.size() - frame).expandedTo(QSize(320, 240));
    const QSize size = wanted.boundedTo(room).expandedTo(minimumSize().boundedTo(room));
    resize(size);
    const QRect frame_rect(pos(), size + frame);
    if (!available.contains(frame_rect)) {
        const int x = available.left() + std::max(0, (available.width() - frame_rect.width()) / 2);
        const int y = available.top() + std::max(0, (available.height() - frame_rect.height()) / 2);
        move(x, y);
    }
}

void MainWindow::buildUi()
{
    // Left: the control panel.
    controls_ = new ControlPanel;
    controls_dock_ = new QDockWidget(tr("Scenario"), this);
    controls_dock_->setObjectName(QStringLiteral("controlsDock"));
    controls_dock_->setWidget(controls_);
    // Closable, so that View > Scenario (F6) can hide and show it.
    controls_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                                QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, controls_dock_);
    // A wheel notch over a control the pointer merely passes changes it only when it has
    // focus (one notch over the strategy combo switched the strategy); the panel scrolls.
    wheel_guard_ = new WheelGuard(this);
    wheel_guard_->guard(controls_);
    connect(controls_, &ControlPanel::scenarioEdited, this,
            [this](const Scenario &s, const QString &description, int merge_key) {
                startEditTimer();
                ctx_.document->edit(s, description, merge_key);
            });

    // Right: the claims gallery.
    gallery_dock_ = new QDockWidget(tr("Claims gallery"), this);
    gallery_dock_->setObjectName(QStringLiteral("galleryDock"));
    auto *gallery_box = new QWidget;
    auto *gallery_layout = new QVBoxLayout(gallery_box);
    gallery_list_ = new QListWidget;
    gallery_list_->setObjectName(QStringLiteral("galleryList"));
    gallery_list_->setWordWrap(true);
    if (ctx_.gallery) {
        for (const GalleryEntry &e : *ctx_.gallery)
            gallery_list_->addItem(tr("Claim %1: %2").arg(e.claim).arg(e.title(ctx_.language)));
    }
    gallery_text_ = new QLabel;
    gallery_text_->setObjectName(QStringLiteral("galleryText"));
    gallery_text_->setWordWrap(true);
    gallery_text_->setTextFormat(Qt::RichText);
    gallery_text_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    gallery_layout->addWidget(gallery_list_, 2);
    gallery_layout->addWidget(gallery_text_, 1);
    gallery_dock_->setWidget(gallery_box);
    addDockWidget(Qt::RightDockWidgetArea, gallery_dock_);
    connect(gallery_list_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { loadGalleryEntry(gallery_list_->row(item)); });
    connect(gallery_list_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { loadGalleryEntry(gallery_list_->row(item)); });

    // Centre: timeline area and tabs; presentation mode swaps in its stage.
    auto *centre = new QWidget;
    centre_ = centre;
    auto *centre_layout = new QVBoxLayout(centre);
    centre_layout->setContentsMargins(4, 4, 4, 4);

    auto *timeline_area = new QWidget;
    auto *timeline_layout = new QVBoxLayout(timeline_area);
    timeline_layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    auto *iterations_label = new QLabel(tr("Steps shown:"));
    iterations_spin_ = new QSpinBox;
    iterations_spin_->setObjectName(QStringLiteral("iterationsSpin"));
    iterations_spin_->setRange(1, 4);
    iterations_spin_->setValue(iterations_);
    iterations_spin_->setToolTip(tr("Measured training steps drawn on the timeline (1-4); with a "
                                    "data loader or asynchronous updates, the warm-up steps "
                                    "simulated before them are drawn too"));
    iterations_label->setBuddy(iterations_spin_);
    connect(iterations_spin_, &QSpinBox::valueChanged, this, [this](int n) {
        iterations_ = n;
        ctx_.settings->setValue(QStringLiteral("view/iterations"), n);
        startEditTimer();
        requestRecompute();
    });
    auto *fit_button = new QPushButton(tr("Fit"));
    fit_button->setObjectName(QStringLiteral("fitButton"));
    fit_button->setToolTip(tr("Show the whole timeline (Home)"));
    auto *plan_button = new QPushButton(tr("Suggest plan…"));
    plan_button->setObjectName(QStringLiteral("suggestPlanButton"));
    plan_button->setToolTip(tr("Search data / tensor / pipeline degrees, ZeRO stage, "
                               "micro-batch, schedule and recompute for the fastest plan "
                               "that fits in memory"));
    connect(plan_button, &QPushButton::clicked, this, &MainWindow::suggestPlan);
    compare_label_ = new QLabel;
    compare_label_->setObjectName(QStringLiteral("compareLabel"));
    timeline_note_ = new QLabel;
    timeline_note_->setObjectName(QStringLiteral("timelineNote"));
    bar->addWidget(iterations_label);
    bar->addWidget(iterations_spin_);
    bar->addWidget(fit_button);
    bar->addWidget(plan_button);
    bar->addWidget(compare_label_);
    bar->addWidget(timeline_note_);
    bar->addStretch(1);
    timeline_layout->addLayout(bar);

    pinned_timeline_ = new TimelineWidget;
    pinned_timeline_->setObjectName(QStringLiteral("pinnedTimeline"));
    pinned_timeline_->setVisible(false);
    timeline_ = new TimelineWidget;
    timeline_->setObjectName(QStringLiteral("timeline"));
    auto *timelines = new QSplitter(Qt::Vertical);
    timelines->addWidget(pinned_timeline_);
    timelines->addWidget(timeline_);
    timeline_layout->addWidget(timelines, 1);
    connect(fit_button, &QPushButton::clicked, this, [this] {
        timeline_->fitToView();
        if (pinned_timeline_->isVisible())
            pinned_timeline_->setTimeRange(timeline_->timeRange().first,
                                           timeline_->timeRange().second);
    });
    // A/B compare: both timelines share one time axis.
    connect(timeline_, &TimelineWidget::timeRangeChanged, this, [this](double a, double b) {
        if (pinned_timeline_->isVisible() && pinned_timeline_->timeRange() != qMakePair(a, b))
            pinned_timeline_->setTimeRange(a, b);
    });
    connect(pinned_timeline_, &TimelineWidget::timeRangeChanged, this, [this](double a, double b) {
        if (timeline_->timeRange() != qMakePair(a, b))
            timeline_->setTimeRange(a, b);
    });

    tabs_ = new QTabWidget;
    tabs_->setObjectName(QStringLiteral("resultTabs"));
    scaling_view_ = new ScalingView;
    breakdown_view_ = new BreakdownView;
    memory_view_ = new MemoryView;
    cost_view_ = new CostView;
    calibration_page_ = new CalibrationPage;
    delta_view_ = new DeltaView;
    // Each page scrolls rather than forcing a large window (small screens, projectors).
    auto add_page = [this](QWidget *page, const QString &title) {
        auto *scroll = new QScrollArea;
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(page);
        tabs_->addTab(scroll, title);
    };
    add_page(scaling_view_, tr("Scaling"));
    add_page(breakdown_view_, tr("Breakdown"));
    add_page(memory_view_, tr("Memory"));
    add_page(cost_view_, tr("Cost"));
    add_page(calibration_page_, tr("Calibration"));
    add_page(delta_view_, tr("A/B compare"));
    connect(cost_view_, &CostView::costEdited, this,
            [this](const CostSpec &cost, const QString &description) {
                Scenario s = ctx_.document->scenario();
                s.cost = cost;
                startEditTimer();
                ctx_.document->edit(s, description);
            });
    connect(calibration_page_, &CalibrationPage::applyRequested, this,
            &MainWindow::applyCalibration);
    connect(scaling_view_, &ScalingView::scalingModeChanged, this, [this](Scaling mode) {
        scaling_ = mode;
        startEditTimer();
        requestRecompute();
    });
    connect(scaling_view_, &ScalingView::sweepShapeChanged, this, [this](int node_gpus) {
        sweep_node_gpus_ = node_gpus;
        startEditTimer();
        requestRecompute();
    });

    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        if (!fresh_pages_.contains(currentPage()))
            refreshCurrentTab();
    });

    splitter_ = new QSplitter(Qt::Vertical);
    splitter_->setObjectName(QStringLiteral("centreSplitter"));
    splitter_->addWidget(timeline_area);
    splitter_->addWidget(tabs_);
    splitter_->setStretchFactor(0, 1);
    splitter_->setStretchFactor(1, 1);
    centre_layout->addWidget(splitter_, 1);
    central_stack_ = new QStackedWidget;
    central_stack_->setObjectName(QStringLiteral("centralStack"));
    central_stack_->addWidget(centre);
    setCentralWidget(central_stack_);

    // Status bar: the figures that answer "how fast, and why not faster".
    auto make_label = [this](const char *name, const QString &tip) {
        auto *label = new QLabel;
        label->setObjectName(QLatin1String(name));
        label->setToolTip(tip);
        statusBar()->addWidget(label);
        return label;
    };
    status_step_ = make_label("statusStepTime", tr("Wall time of one optimizer step"));
    status_throughput_ = make_label("statusThroughput", tr("Samples (and tokens) per second"));
    status_mfu_ = make_label("statusMfu", tr("Model FLOPs utilisation: model FLOP/s over the "
                                             "GPUs' peak at this precision"));
    status_speedup_ = make_label("statusSpeedup", tr("Against one GPU of the same kind"));
    status_efficiency_ = make_label("statusEfficiency", tr("Speed-up divided by GPU count"));
    status_staleness_ =
        make_label("statusStaleness", tr("Asynchronous updates: how many steps old the parameters "
                                         "are that an applied gradient was computed on"));
    status_staleness_->hide();
    status_bottleneck_ = new QLabel;
    status_bottleneck_->setObjectName(QStringLiteral("statusBottleneck"));
    status_bottleneck_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(status_bottleneck_, 1);
    status_busy_ = new QLabel;
    status_busy_->setObjectName(QStringLiteral("statusBusy"));
    statusBar()->addPermanentWidget(status_busy_);
    // Presentation keys: an application event filter while presenting (eventFilter()).
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *new_action = file->addAction(tr("&New"), this, &MainWindow::newDocument);
    new_action->setShortcut(QKeySequence::New);
    QAction *open_action = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
    open_action->setShortcut(QKeySequence::Open);
    recent_menu_ = file->addMenu(tr("Open &Recent"));
    QAction *save_action = file->addAction(tr("&Save"), this, [this] { save(); });
    save_action->setShortcut(QKeySequence::Save);
    QAction *save_as_action = file->addAction(tr("Save &As…"), this, [this] { saveAs(); });
    save_as_action->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    QMenu *export_menu = file->addMenu(tr("&Export"));
    export_menu->addAction(tr("Timeline as PNG…"), this,
                           [this] { exportTimeline(QStringLiteral("png")); });
    export_menu->addAction(tr("Timeline as SVG…"), this,
                           [this] { exportTimeline(QStringLiteral("svg")); });
    export_menu->addAction(tr("Current chart as PNG…"), this,
                           [this] { exportChart(QStringLiteral("png")); });
    export_menu->addAction(tr("Current chart as SVG…"), this,
                           [this] { exportChart(QStringLiteral("svg")); });
    export_menu->addAction(tr("Scaling sweep as CSV…"), this, &MainWindow::exportSweepCsv);
    export_menu->addAction(tr("Timeline as Chrome trace…"), this, &MainWindow::exportTrace);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = ctx_.document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = ctx_.document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redoAction"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    // Also on the window: the menu bar is hidden while presenting, and the shortcuts of
    // actions only in hidden menus do not fire.
    addAction(undo);
    addAction(redo);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    present_action_ = view->addAction(tr("&Presentation mode"));
    present_action_->setShortcut(QKeySequence(Qt::Key_F5));
    present_action_->setCheckable(true);
    connect(present_action_, &QAction::toggled, this, [this](bool on) { setPresentationMode(on); });
    addAction(present_action_);
    view->addSeparator();
    pin_action_ = view->addAction(tr("Pin as &A (compare)"), this, &MainWindow::pinCurrent);
    pin_action_->setShortcut(QKeySequence(tr("Ctrl+P")));
    unpin_action_ = view->addAction(tr("&End compare"), this, &MainWindow::clearPin);
    unpin_action_->setEnabled(false);
    view->addSeparator();
    QAction *show_controls = controls_dock_->toggleViewAction();
    show_controls->setShortcut(QKeySequence(Qt::Key_F6));
    view->addAction(show_controls);
    addAction(show_controls);
    view->addAction(gallery_dock_->toggleViewAction());

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    QAction *suggest =
        tools->addAction(tr("&Suggest a parallel plan…"), this, &MainWindow::suggestPlan);
    suggest->setObjectName(QStringLiteral("suggestPlanAction"));
    suggest->setShortcut(QKeySequence(tr("Ctrl+Shift+P")));
    tools->addAction(tr("&Calibration profiles"), this,
                     [this] { showTab(QStringLiteral("calibration")); });

    QMenu *gallery = menuBar()->addMenu(tr("&Gallery"));
    if (ctx_.gallery) {
        for (int i = 0; i < static_cast<int>(ctx_.gallery->size()); ++i) {
            const GalleryEntry &e = (*ctx_.gallery)[static_cast<size_t>(i)];
            gallery->addAction(tr("Claim %1: %2").arg(e.claim).arg(e.title(ctx_.language)), this,
                               [this, i] { loadGalleryEntry(i); });
        }
    }

    QMenu *language = menuBar()->addMenu(tr("&Language"));
    auto *group = new QActionGroup(this);
    const std::pair<QString, QString> languages[] = {
        {QStringLiteral("en"), QStringLiteral("English")},
        {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
    for (const auto &[code, name] : languages) {
        QAction *a = language->addAction(name);
        a->setCheckable(true);
        a->setChecked(code == ctx_.language);
        a->setObjectName(QStringLiteral("language_") + code);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, code = code] {
            if (code != ctx_.language)
                Q_EMIT languageChangeRequested(code);
        });
    }

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("&Keyboard and mouse…"), this, [this] { showShortcuts(); });
    keys->setObjectName(QStringLiteral("helpShortcuts"));
    keys->setShortcut(QKeySequence::HelpContents);
    help->addSeparator();
    help->addAction(tr("&About ScaleScope"), this, [this] {
        QMessageBox::about(
            this, tr("About ScaleScope"),
            tr("<h3>ScaleScope %1</h3><p>Shows why adding GPUs does not make deep-learning "
               "training proportionally faster: compute, communication, pipeline bubbles, "
               "stragglers and data loading, simulated per GPU.</p>")
                .arg(QCoreApplication::applicationVersion()));
    });
}

QList<QPair<QString, QString>> MainWindow::shortcutList() const
{
    // From the menus' own actions, so the list cannot drift from what the keys do.
    QList<QPair<QString, QString>> rows;
    std::function<void(const QMenu *, const QString &)> walk = [&](const QMenu *menu,
                                                                   const QString &path) {
        for (const QAction *a : menu->actions()) {
            const QString text = path + QString(a->text()).remove(QLatin1Char('&'));
            if (a->menu())
                walk(a->menu(), text + QStringLiteral(" › "));
            else if (!a->shortcuts().isEmpty()) {
                QStringList keys;
                for (const QKeySequence &k : a->shortcuts())
                    keys << k.toString(QKeySequence::NativeText);
                rows.append({text, keys.join(QStringLiteral(", "))});
            }
        }
    };
    for (const QAction *top : menuBar()->actions())
        if (top->menu())
            walk(top->menu(),
                 QString(top->text()).remove(QLatin1Char('&')) + QStringLiteral(" › "));
    // The timeline's own mouse and keys (views/timeline/timeline_input.cpp).
    rows.append(
        {tr("Timeline: zoom around the pointer"), tr("Wheel (when the timeline has focus)")});
    rows.append({tr("Timeline: pan"), tr("Drag")});
    rows.append({tr("Timeline: fit the whole step"), tr("Home or double-click")});
    rows.append({tr("Timeline: collapse or expand a node"), tr("Click its name")});
    rows.append(
        {tr("Presentation: next or previous slide"), tr("Arrow keys, Page Up / Page Down, Space")});
    return rows;
}

void MainWindow::showShortcuts()
{
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("shortcutsDialog"));
    dialog.setWindowTitle(tr("Keyboard and mouse"));
    auto *table = new QTableWidget(&dialog);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    const QList<QPair<QString, QString>> rows = shortcutList();
    table->setColumnCount(2);
    table->setRowCount(static_cast<int>(rows.size()));
    table->setHorizontalHeaderLabels({tr("Action"), tr("Keys")});
    for (int r = 0; r < rows.size(); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(rows[r].first));
        table->setItem(r, 1, new QTableWidgetItem(rows[r].second));
    }
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    // Inside the screen (issue 13: windows open inside the screen).
    const QScreen *screen = this->screen();
    const QSize room = screen ? screen->availableGeometry().size() : QSize(640, 520);
    dialog.resize(std::min(640, room.width() - 32), std::min(520, room.height() - 64));
    dialog.exec();
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] — ScaleScope").arg(ctx_.document->displayName()));
    setWindowModified(ctx_.document->isModified());
}

void MainWindow::startEditTimer()
{
    edit_timer_.start();
    status_latency_taken_ = timeline_latency_taken_ = false;
}

void MainWindow::requestRecompute()
{
    if (!edit_timer_.isValid())
        startEditTimer();
    RecomputeRequest request;
    request.scenario = ctx_.document->scenario();
    // A slide's zoom is one whole step (GalleryZoom::Step): one step is simulated.
    request.iterations = presenting_ ? 1 : iterations_;
    request.scaling = scaling_;
    request.sweep_node_gpus = sweep_node_gpus_;
    request.sweep_gpus = sweep_counts_;
    ctx_.recomputer->request(std::move(request));
    status_busy_->setText(tr("computing…"));
}

void MainWindow::showTimelineOf(const ResultPtr &result)
{
    if (!result->ok())
        timeline_->setEmptyReason(
            tr("No timeline: the scenario is not valid (%1).").arg(result->error));
    else if (!result->timeline)
        timeline_->setEmptyReason(tr("No timeline: more segments than can be drawn; the "
                                     "figures come from the closed-form model."));
    // A/B compare: both timelines span the longer of the two steps, so neither is cut off.
    const double shared_end =
        pinned_ && pinned_->timeline && result->ok() && result->timeline
            ? std::max(pinned_->timeline->endTime(), result->timeline->endTime())
            : 0.0;
    timeline_->setSharedExtent(shared_end);
    pinned_timeline_->setSharedExtent(shared_end);
    timeline_->setMemory(result->ok() ? result->summary.memory : MemoryBreakdown{});
    // The complete result carries the timeline its stage already showed: kept as it is
    // (with the user's selection) rather than set again.
    const std::shared_ptr<const Timeline> shown = result->ok() ? result->timeline : nullptr;
    if (shown == nullptr || timeline_->timeline() != shown)
        timeline_->setTimeline(shown);
    // The first result of a newly loaded gallery scenario shows its whole step: the range
    // kept from the previous scenario (within 20 % of its length) cut the end off.
    if (refit_pending_ && result->generation >= refit_generation_) {
        refit_pending_ = false;
        refit_now_ = true;
        timeline_->fitToView();
    }
    QStringList notes;
    // "Steps shown" counts the measured steps; warm-up steps drawn before them are said.
    if (result->ok() && result->timeline && result->warmup_steps > 0)
        notes << (result->warmup_steps == 1
                      ? tr("1 warm-up step drawn before the measured ones (the data loader or "
                           "asynchronous updates carry state from step to step)")
                      : tr("%1 warm-up steps drawn before the measured ones (the data loader "
                           "or asynchronous updates carry state from step to step)")
                            .arg(result->warmup_steps));
    if (result->ok() && result->timeline && result->timeline_merge_quantum_s > 0)
        notes << tr("Simplified: items closer than %1 are merged (%2 of about %3 segments drawn)")
                     .arg(formatDuration(result->timeline_merge_quantum_s),
                          QLocale().toString(qulonglong(result->timeline->size())),
                          QLocale().toString(qulonglong(result->timeline_full_segments)));
    timeline_note_->setText(notes.join(QStringLiteral(" · ")));
    timeline_note_->setToolTip(timeline_note_->text());
}

void MainWindow::showStage(const ResultPtr &result)
{
    // A large scenario answers in stages (Recomputer): the closed-form status at once, then
    // the engine's figures with the timeline, then the sweep. The tabs wait for the last.
    shown_generation_ = result->generation;
    controls_->setValidationError(QString(), QString());
    updateStatus(result);
    if (result->stage == ResultStage::Summary) {
        status_busy_->setText(tr("simulating…"));
        timeline_note_->setText(tr("Updating the timeline…"));
    } else {
        status_busy_->setText(tr("computing the scaling sweep…"));
        if (!presenting_)
            showTimelineOf(result);
    }
    if (presenting_ && stage_)
        stage_->setStatus(statusFigures(), bottleneck_plain_);
    // The closed-form stage changes the status bar only: it alone is painted now.
    if (result->stage == ResultStage::Summary && !presenting_)
        statusBar()->repaint();
    else
        repaint();
    if (edit_timer_.isValid()) {
        const double ms = static_cast<double>(edit_timer_.nsecsElapsed()) / 1e6;
        if (!status_latency_taken_) {
            status_latency_ms_ = ms;
            status_latency_taken_ = true;
        }
        if (result->stage == ResultStage::Timeline && !timeline_latency_taken_) {
            timeline_latency_ms_ = ms;
            timeline_latency_taken_ = true;
        }
    }
    Q_EMIT stageShown(result->generation, static_cast<int>(result->stage));
}

void MainWindow::showResult(const ResultPtr &result)
{
    if (!result || result->generation < shown_generation_)
        return; // an older request finished after a newer one was shown
    if (result->ok() && result->stage != ResultStage::Complete) {
        showStage(result);
        return;
    }
    shown_generation_ = result->generation;
    current_ = result;
    if (result->generation == ctx_.recomputer->latestGeneration())
        status_busy_->clear();

    controls_->setValidationError(result->error_path, result->error);
    refit_now_ = false;
    showTimelineOf(result);
    const bool refit = refit_now_;
    // Only the tab on screen is redrawn now; the others catch up when they are shown (while
    // presenting, the stage's view is the one on screen).
    stale_tabs_ = true;
    if (presenting_) {
        fresh_pages_.clear();
        updateStatus(result);
        if (stage_) {
            controls_dock_->setFont(stage_->font()); // F6: the room's font size
            stage_->setResult(result, refit);
            stage_->setStatus(statusFigures(), bottleneck_plain_);
        }
    } else {
        refreshCurrentTab();
        updateStatus(result);
    }
    if (calibration_pending_ && result->ok() &&
        QString::fromStdString(result->scenario.hardware.calibration_path) ==
            calibration_applied_) {
        calibration_pending_ = false;
        calibration_page_->setApplyReport(calibrationReport(calibration_before_, result));
        calibration_before_.reset();
    }

    // Time from the edit to the redrawn window: paint now rather than at the next frame.
    repaint();
    if (edit_timer_.isValid()) {
        last_latency_ms_ = static_cast<double>(edit_timer_.nsecsElapsed()) / 1e6;
        if (!status_latency_taken_)
            status_latency_ms_ = last_latency_ms_;
        if (!timeline_latency_taken_)
            timeline_latency_ms_ = last_latency_ms_;
        edit_timer_.invalidate();
    }
    Q_EMIT stageShown(result->generation, static_cast<int>(result->stage));
    Q_EMIT resultShown(result->generation);
}

void MainWindow::updateStatus(const ResultPtr &result)
{
    if (!result->ok()) {
        for (QLabel *l :
             {status_step_, status_throughput_, status_mfu_, status_speedup_, status_efficiency_})
            l->clear();
        const QString where = result->error_path.isEmpty()
                                  ? QString()
                                  : QStringLiteral("<b>%1</b>: ").arg(result->error_path);
        status_bottleneck_->setText(QStringLiteral("<span style='color:#b00020'>%1%2</span>")
                                        .arg(where, result->error.toHtmlEscaped()));
        status_staleness_->hide();
        bottleneck_plain_ = result->error_path.isEmpty()
                                ? result->error
                                : result->error_path + QStringLiteral(": ") + result->error;
        return;
    }
    const Summary &s = result->summary;
    status_step_->setText(tr("Step %1").arg(formatStepTime(s.step_time_s)));
    QString throughput = tr("%1 samples/s").arg(formatRate(s.samples_per_s));
    if (s.tokens_per_s > 0)
        throughput += tr(" · %1 tokens/s").arg(formatRate(s.tokens_per_s));
    status_throughput_->setText(throughput);
    status_mfu_->setText(tr("MFU %1%").arg(s.mfu * 100, 0, 'f', 1));
    status_speedup_->setText(
        s.gpus == 1 ? tr("Speed-up %1× on 1 GPU").arg(s.speedup, 0, 'f', 2)
                    : tr("Speed-up %1× on %2 GPUs").arg(s.speedup, 0, 'f', 2).arg(s.gpus));
    status_efficiency_->setText(tr("Efficiency %1%").arg(s.scaling_efficiency * 100, 0, 'f', 0));
    // Asynchronous updates trade the barrier for stale parameters: the price is shown.
    if (s.staleness_steps > 0) {
        status_staleness_->setText(
            s.staleness_steps == 1
                ? tr("Staleness: 1 step")
                : tr("Staleness: %1 steps").arg(QLocale().toString(s.staleness_steps, 'g', 3)));
        status_staleness_->show();
    } else {
        status_staleness_->clear();
        status_staleness_->hide();
    }
    QString sentence = translatedBottleneck(s.bottleneck_record);
    if (result->stage == ResultStage::Summary)
        sentence += tr(" (closed-form estimate while the simulation runs)");
    else if (!result->timeline)
        sentence += tr(" (timeline not drawn: too many segments; figures from the closed form)");
    status_bottleneck_->setText(sentence.toHtmlEscaped());
    status_bottleneck_->setToolTip(sentence);
    bottleneck_plain_ = sentence;
}

QStringList MainWindow::statusFigures() const
{
    QStringList figures;
    for (const QLabel *l : {status_step_, status_throughput_, status_mfu_, status_speedup_,
                            status_efficiency_, status_staleness_})
        if (!l->text().isEmpty() && (l != status_staleness_ || !l->isHidden()))
            figures << l->text();
    return figures;
}

int MainWindow::pageIndex(QWidget *page) const
{
    for (int i = 0; i < tabs_->count(); ++i) {
        auto *scroll = qobject_cast<QScrollArea *>(tabs_->widget(i));
        if (tabs_->widget(i) == page || (scroll != nullptr && scroll->widget() == page))
            return i;
    }
    return -1;
}

QWidget *MainWindow::currentPage() const
{
    auto *scroll = qobject_cast<QScrollArea *>(tabs_->currentWidget());
    return scroll != nullptr ? scroll->widget() : tabs_->currentWidget();
}

void MainWindow::refreshCurrentTab()
{
    if (!current_)
        return;
    QWidget *page = currentPage();
    if (page == scaling_view_)
        scaling_view_->setResult(current_);
    else if (page == breakdown_view_)
        breakdown_view_->setResult(current_);
    else if (page == memory_view_)
        memory_view_->setResult(current_);
    else if (page == cost_view_)
        cost_view_->setResult(current_);
    else if (page == delta_view_)
        delta_view_->setResults(pinned_, current_);
    if (page != nullptr)
        fresh_pages_.insert(page);
    if (stale_tabs_) {
        fresh_pages_.clear();
        if (page != nullptr)
            fresh_pages_.insert(page);
        stale_tabs_ = false;
    }
}

bool MainWindow::showTab(const QString &name)
{
    if (presenting_) // a slide shows the view its gallery entry names
        return tabNames().contains(name);
    if (name == QLatin1String("timeline")) {
        const int h = std::max(splitter_->height(), 600);
        splitter_->setSizes({h * 3 / 4, h / 4});
        timeline_->setFocus();
        return true;
    }
    QWidget *page = nullptr;
    if (name == QLatin1String("scaling"))
        page = scaling_view_;
    else if (name == QLatin1String("breakdown"))
        page = breakdown_view_;
    else if (name == QLatin1String("memory"))
        page = memory_view_;
    else if (name == QLatin1String("cost"))
        page = cost_view_;
    else if (name == QLatin1String("calibration"))
        page = calibration_page_;
    else if (name == QLatin1String("compare"))
        page = delta_view_;
    if (page == nullptr)
        return false;
    tabs_->setCurrentIndex(pageIndex(page));
    const int h = std::max(splitter_->height(), 600);
    splitter_->setSizes({h * 2 / 5, h * 3 / 5});
    return true;
}

void MainWindow::setPresentationMode(bool on, bool full_screen)
{
    if (on == presenting_)
        return;
    if (on) {
        // The first slide before anything changes: loading one may ask to save first.
        chooseStartSlide();
        presenting_ = true;
        if (!present_action_->isChecked())
            present_action_->setChecked(true);
        was_maximized_ = isMaximized();
        was_full_screen_ = isFullScreen();
        focus_before_presenting_ = QApplication::focusWidget();
        controls_were_visible_ = controls_dock_->isVisible();
        gallery_was_visible_ = gallery_dock_->isVisible();
        // No menu, tool bar, docks or status bar: the slide is all there is.
        menuBar()->hide();
        statusBar()->hide();
        gallery_dock_->hide();
        controls_dock_->hide();
        setPaletteMode(PaletteMode::Projector);
        ensureStage();
        central_stack_->setCurrentWidget(stage_);
        // Keys step the slides whatever widget has focus (F5 left it in a spin box).
        qApp->installEventFilter(this);
        showSlide();
        if (full_screen)
            showFullScreen();
        stage_->setFocus(Qt::OtherFocusReason);
        // F6 shows the controls for a live demonstration: in the room's font size too.
        controls_dock_->setFont(stage_->font());
        requestRecompute(); // one step per slide (the slide's zoom)
    } else {
        presenting_ = false;
        if (present_action_->isChecked())
            present_action_->setChecked(false);
        qApp->removeEventFilter(this);
        stage_->setBlank(false);
        setPaletteMode(PaletteMode::Screen);
        central_stack_->setCurrentWidget(centre_);
        menuBar()->show();
        statusBar()->show();
        gallery_dock_->setVisible(gallery_was_visible_);
        controls_dock_->setVisible(controls_were_visible_);
        controls_dock_->setFont(QFont()); // back to the window's font
        single_slide_.reset();
        if (was_full_screen_)
            showFullScreen();
        else if (was_maximized_)
            showMaximized();
        else
            showNormal();
        if (focus_before_presenting_ && focus_before_presenting_->isVisible())
            focus_before_presenting_->setFocus(Qt::OtherFocusReason);
        refreshCurrentTab();
        timeline_->update();
        if (iterations_ != 1)
            requestRecompute();
    }
    updateGalleryText();
}

void MainWindow::chooseStartSlide()
{
    single_slide_.reset();
    if (gallery_index_ >= 0)
        return;
    const QString path = ctx_.document->filePath();
    if (!path.isEmpty()) {
        const int index = galleryIndexOfFile(path);
        if (index >= 0) {
            // The document already holds the gallery scenario: show it as that slide.
            gallery_index_ = index;
            sweep_counts_ = (*ctx_.gallery)[static_cast<size_t>(index)].sweep;
            if (gallery_list_->currentRow() != index)
                gallery_list_->setCurrentRow(index);
            refit_pending_ = true;
            refit_generation_ = ctx_.recomputer->latestGeneration() + 1;
            return;
        }
    }
    if (path.isEmpty() && !ctx_.document->isModified() && ctx_.gallery && !ctx_.gallery->empty()) {
        loadGalleryEntry(0);
        if (gallery_index_ == 0)
            return;
    }
    // A file that is not in the gallery, or edited work: a one-slide deck of the document,
    // with the file's own "x-gallery" text where it has one.
    GalleryEntry slide;
    slide.scenario = ctx_.document->scenario();
    if (!path.isEmpty()) {
        QFile f(path);
        if (f.open(QIODevice::ReadOnly)) {
            Result<GalleryEntry> entry =
                parseGalleryEntry(f.readAll(), QFileInfo(path).absolutePath());
            if (entry)
                slide = entry.value();
        }
    }
    if (slide.title_en.isEmpty()) {
        const QString name = QString::fromStdString(ctx_.document->scenario().name);
        slide.title_en = slide.title_zh = !name.isEmpty() ? name : ctx_.document->displayName();
    }
    slide.path = path;
    sweep_counts_ = slide.sweep;
    single_slide_ = slide;
    refit_pending_ = true;
    refit_generation_ = ctx_.recomputer->latestGeneration() + 1;
}

int MainWindow::galleryIndexOfFile(const QString &path) const
{
    if (!ctx_.gallery || path.isEmpty())
        return -1;
    const QFileInfo info(path);
    QFile f(path);
    const QByteArray data = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    for (size_t i = 0; i < ctx_.gallery->size(); ++i) {
        const QString &entry_path = (*ctx_.gallery)[i].path;
        if (!entry_path.startsWith(QLatin1Char(':')) &&
            QFileInfo(entry_path).canonicalFilePath() == info.canonicalFilePath())
            return static_cast<int>(i);
        QFile g(entry_path);
        if (!data.isEmpty() && g.open(QIODevice::ReadOnly) && g.readAll() == data)
            return static_cast<int>(i);
    }
    return -1;
}

void MainWindow::ensureStage()
{
    if (stage_)
        return;
    stage_ = new PresentationStage;
    central_stack_->addWidget(stage_);
    connect(stage_, &PresentationStage::scalingModeChanged, this, [this](Scaling mode) {
        scaling_ = mode;
        startEditTimer();
        requestRecompute();
    });
    connect(stage_, &PresentationStage::costEdited, this,
            [this](const CostSpec &cost, const QString &description) {
                Scenario s = ctx_.document->scenario();
                s.cost = cost;
                startEditTimer();
                ctx_.document->edit(s, description);
            });
}

void MainWindow::showSlide()
{
    if (!stage_)
        return;
    PresentationStage::Slide slide;
    const GalleryEntry *entry = nullptr;
    if (single_slide_) {
        entry = &*single_slide_;
        slide.number = slide.count = 1;
    } else if (ctx_.gallery && gallery_index_ >= 0) {
        entry = &(*ctx_.gallery)[static_cast<size_t>(gallery_index_)];
        slide.number = gallery_index_ + 1;
        slide.count = static_cast<int>(ctx_.gallery->size());
    }
    if (entry != nullptr) {
        slide.title = entry->title(ctx_.language);
        slide.text = entry->explanation(ctx_.language);
        slide.view = entry->view;
        slide.zoom = entry->zoom;
    } else {
        slide.title = ctx_.document->displayName();
    }
    stage_->setSlide(slide);
    if (current_) {
        stage_->setResult(current_, true);
        stage_->setStatus(statusFigures(), bottleneck_plain_);
    }
}

void MainWindow::loadGalleryEntry(int index)
{
    if (!ctx_.gallery || index < 0 || index >= static_cast<int>(ctx_.gallery->size()))
        return;
    // During a talk, changes made to a gallery scenario are demonstrations: stepping on does
    // not ask to save them. Work on a file is never dropped without asking.
    const bool demo = presenting_ && ctx_.document->filePath().isEmpty();
    if (!demo && !maybeSave())
        return;
    const GalleryEntry &e = (*ctx_.gallery)[static_cast<size_t>(index)];
    gallery_index_ = index;
    single_slide_.reset();
    sweep_counts_ = e.sweep;
    if (gallery_list_->currentRow() != index)
        gallery_list_->setCurrentRow(index);
    startEditTimer();
    // The reset requests the recompute whose result refits the timeline.
    refit_pending_ = true;
    refit_generation_ = ctx_.recomputer->latestGeneration() + 1;
    ctx_.document->reset(e.scenario, QString());
    // The window shows the tab the explanation talks about (the timeline is always shown).
    if (!presenting_ && e.view != GalleryView::Timeline)
        showTab(QString::fromLatin1(galleryViewName(e.view)));
    updateGalleryText();
    if (presenting_)
        showSlide();
}

void MainWindow::stepGallery(int delta)
{
    if (single_slide_ || !ctx_.gallery || ctx_.gallery->empty())
        return;
    const int n = static_cast<int>(ctx_.gallery->size());
    const int next = gallery_index_ < 0 ? 0 : ((gallery_index_ + delta) % n + n) % n;
    loadGalleryEntry(next);
}

void MainWindow::goToSlide(int index)
{
    if (single_slide_ || !ctx_.gallery || ctx_.gallery->empty())
        return;
    loadGalleryEntry(std::clamp(index, 0, static_cast<int>(ctx_.gallery->size()) - 1));
}

void MainWindow::handleSlideKey(SlideKey action)
{
    if (stage_ && stage_->isBlank() && action != SlideKey::Leave) {
        stage_->setBlank(false); // any slide key ends the black screen first
        return;
    }
    switch (action) {
    case SlideKey::Next:
        stepGallery(1);
        break;
    case SlideKey::Previous:
        stepGallery(-1);
        break;
    case SlideKey::First:
        goToSlide(0);
        break;
    case SlideKey::Last:
        goToSlide(ctx_.gallery ? static_cast<int>(ctx_.gallery->size()) - 1 : 0);
        break;
    case SlideKey::Leave:
        setPresentationMode(false);
        break;
    case SlideKey::Blank:
        if (stage_)
            stage_->setBlank(true);
        break;
    case SlideKey::Stay:
    case SlideKey::None:
        break;
    }
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // Installed on the application while presenting: a clicker's or keyboard's slide keys
    // step the slides whatever widget of this window has focus. Accepting the shortcut
    // override keeps window shortcuts (F5 toggles presentation) from taking them first.
    const QEvent::Type type = event->type();
    if (presenting_ && (type == QEvent::KeyPress || type == QEvent::ShortcutOverride)) {
        auto *key = static_cast<QKeyEvent *>(event);
        const SlideKey action = presentationKeyAction(key->key(), key->modifiers());
        const auto *widget = qobject_cast<QWidget *>(watched);
        const bool ours = widget != nullptr ? widget->window() == this
                                            : watched == static_cast<QObject *>(windowHandle());
        if (action != SlideKey::None && ours && QApplication::activeModalWidget() == nullptr &&
            QApplication::activePopupWidget() == nullptr) {
            key->accept();
            if (type == QEvent::KeyPress)
                handleSlideKey(action);
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::updateGalleryText()
{
    if (!ctx_.gallery || gallery_index_ < 0) {
        gallery_text_->setText(tr("Pick a claim to load its scenario. In presentation mode "
                                  "(F5) the arrow keys step through them."));
        return;
    }
    const GalleryEntry &e = (*ctx_.gallery)[static_cast<size_t>(gallery_index_)];
    const QString html = QStringLiteral("<h3>%1</h3><p>%2</p>")
                             .arg(e.title(ctx_.language).toHtmlEscaped(),
                                  e.explanation(ctx_.language).toHtmlEscaped());
    gallery_text_->setText(html);
}

void MainWindow::applyCalibration(const QString &path)
{
    // What it changes is said once the new result is on screen (calibrationReport).
    calibration_before_ = current_;
    calibration_applied_ = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    calibration_pending_ = true;
    calibration_gpu_switched_.clear();
    Scenario s = ctx_.document->scenario();
    if (path.isEmpty()) {
        s.hardware.calibration_path.clear();
        s.hardware.calibration.reset();
        startEditTimer();
        ctx_.document->edit(s, tr("Use datasheet figures"));
        return;
    }
    Result<CalibrationProfile> profile = loadProfileFile(path);
    if (!profile) {
        showError(tr("Cannot use this profile"),
                  QString::fromStdString(profile.error().toString()));
        return;
    }
    s.hardware.calibration_path = QFileInfo(path).absoluteFilePath().toStdString();
    s.hardware.calibration = std::make_shared<const CalibrationProfile>(std::move(profile.value()));
    QString description = tr("Apply calibration profile %1").arg(QFileInfo(path).fileName());
    // A profile measured on another GPU model would put that GPU's figures under this one's
    // name (issue 13: an H200 profile made an RTX 4090 run at H200 speed): the GPU becomes
    // the one it was measured on, said and undoable with the profile, or nothing happens.
    if (const std::string measured = calibrationGpuMismatch(s.hardware); !measured.empty()) {
        const ProfileGpu &g = s.hardware.calibration->gpus.front();
        const GpuSpec *match = matchCatalogGpu(g.name, g.memory_bytes);
        const QString mine = QString::fromStdString(s.hardware.gpu.name);
        if (!match) {
            calibration_pending_ = false;
            showError(tr("Cannot use this profile"),
                      tr("The profile was measured on %1, not on the scenario's %2, and %1 is "
                         "not in the catalog; choose a profile of the %2 or none.")
                          .arg(QString::fromStdString(measured), mine));
            return;
        }
        if (ctx_.interactive &&
            QMessageBox::question(
                this, tr("Profile of another GPU"),
                tr("The profile was measured on %1, not on the scenario's %2. Switch the "
                   "scenario's GPU to %3 and apply it?")
                    .arg(QString::fromStdString(measured), mine,
                         QString::fromStdString(match->name))) != QMessageBox::Yes) {
            calibration_pending_ = false;
            return;
        }
        s.hardware.gpu = *match;
        description = tr("Apply calibration profile %1 (GPU set to %2, where it was measured)")
                          .arg(QFileInfo(path).fileName(), QString::fromStdString(match->name));
        calibration_gpu_switched_ = QString::fromStdString(match->name);
    } else {
        calibration_gpu_switched_.clear();
    }
    startEditTimer();
    ctx_.document->edit(s, description);
}

QString MainWindow::calibrationReport(const ResultPtr &before, const ResultPtr &after) const
{
    // Which figures the model now takes from the profile (measured against the datasheet
    // it used before), and what the step did.
    const QLocale locale;
    QString text;
    const std::shared_ptr<const CalibrationProfile> &profile = after->scenario.hardware.calibration;
    if (profile) {
        text = tr("Applied %1.")
                   .arg(QFileInfo(QString::fromStdString(after->scenario.hardware.calibration_path))
                            .fileName());
        if (!calibration_gpu_switched_.isEmpty())
            text += QLatin1Char(' ') + tr("The GPU is now %1, where the profile was measured.")
                                           .arg(calibration_gpu_switched_);
        QStringList changed;
        for (const FigureRow &row : compareFigures({profile.get()}, &after->scenario.hardware))
            if (row.datasheet > 0 && !row.measured.empty() && row.measured.front() > 0)
                changed << tr("%1 %2 → %3 %4 (%5%)")
                               .arg(row.figure, locale.toString(row.datasheet, 'f', 1),
                                    locale.toString(row.measured.front(), 'f', 1), row.unit)
                               .arg((row.measured.front() / row.datasheet - 1) * 100, 0, 'f', 1);
        if (!changed.isEmpty())
            text +=
                QLatin1Char(' ') +
                tr("Measured instead of datasheet: %1.").arg(changed.join(QStringLiteral("; ")));
    } else {
        text = tr("Datasheet figures restored.");
    }
    if (before && before->ok() && before->summary.step_time_s > 0) {
        const double a = before->summary.step_time_s, b = after->summary.step_time_s;
        text += QLatin1Char(' ') + tr("Step %1 → %2 (%3%).")
                                       .arg(formatStepTime(a), formatStepTime(b))
                                       .arg((b / a - 1) * 100, 0, 'f', 2);
    }
    return text;
}

void MainWindow::suggestPlan()
{
    PlanDialog dialog(ctx_.document->scenario(), this);
    if (dialog.exec() != QDialog::Accepted || !dialog.chosenScenario())
        return;
    startEditTimer();
    ctx_.document->edit(*dialog.chosenScenario(), tr("Apply suggested plan"));
}

void MainWindow::pinCurrent()
{
    if (!current_ || !current_->ok())
        return;
    pinned_ = current_;
    pinned_timeline_->setTimeline(pinned_->timeline);
    pinned_timeline_->setTitle(
        tr("A (pinned): %1")
            .arg(QString::fromStdString(pinned_->scenario.name.empty() ? std::string("scenario")
                                                                       : pinned_->scenario.name)));
    timeline_->setTitle(tr("B (current)"));
    pinned_timeline_->setVisible(true);
    // Both on one axis: the longer step decides the range.
    const double end = std::max(pinned_->timeline ? pinned_->timeline->endTime() : 0.0,
                                current_->timeline ? current_->timeline->endTime() : 0.0);
    if (end > 0) {
        timeline_->setSharedExtent(end);
        pinned_timeline_->setSharedExtent(end);
        timeline_->setTimeRange(0, end);
        pinned_timeline_->setTimeRange(0, end);
    }
    compare_label_->setText(tr("Comparing with pinned A: change anything, see the deltas in "
                               "the A/B compare tab."));
    unpin_action_->setEnabled(true);
    delta_view_->setResults(pinned_, current_);
    tabs_->setCurrentIndex(pageIndex(delta_view_));
}

void MainWindow::clearPin()
{
    pinned_.reset();
    pinned_timeline_->setVisible(false);
    pinned_timeline_->setTimeline(nullptr);
    pinned_timeline_->setSharedExtent(0);
    timeline_->setSharedExtent(0);
    timeline_->setTitle(QString());
    compare_label_->clear();
    unpin_action_->setEnabled(false);
    delta_view_->setResults(nullptr, current_);
}

bool MainWindow::maybeSave()
{
    if (!ctx_.document->isModified() || !ctx_.interactive)
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("“%1” has unsaved changes. Save them first?").arg(ctx_.document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

bool MainWindow::openFile(const QString &path)
{
    if (!maybeSave())
        return false;
    QString error;
    if (!ctx_.document->open(path, &error)) {
        showError(tr("Cannot open scenario"), tr("%1\n\n%2").arg(path, error));
        return false;
    }
    gallery_index_ = -1;
    sweep_counts_.clear();
    updateGalleryText();
    addRecentFile(ctx_.document->filePath());
    return true;
}

bool MainWindow::saveTo(const QString &path)
{
    QString error;
    if (!ctx_.document->save(path, &error)) {
        // An empty error: the user cancelled (the file changed on disk and they chose so).
        if (!error.isEmpty())
            showError(tr("Cannot save scenario"), tr("%1\n\n%2").arg(path, error));
        return false;
    }
    addRecentFile(ctx_.document->filePath());
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

bool MainWindow::save()
{
    if (ctx_.document->filePath().isEmpty())
        return saveAs();
    return saveTo(ctx_.document->filePath());
}

bool MainWindow::saveAs()
{
    const QString path =
        askSavePath(tr("Save scenario"), tr("Scenarios (*.json)"), QStringLiteral("json"));
    return !path.isEmpty() && saveTo(path);
}

void MainWindow::newDocument()
{
    if (!maybeSave())
        return;
    QFile f(QStringLiteral(":/scenarios/default.json"));
    if (!f.open(QIODevice::ReadOnly))
        return;
    gallery_index_ = -1;
    sweep_counts_.clear();
    Scenario s = ctx_.document->scenario();
    if (Result<Scenario> r = parseScenario(f.readAll(), builtinCatalog()))
        s = r.value();
    ctx_.document->reset(s, QString());
    updateGalleryText();
}

void MainWindow::openDialog()
{
    const QString dir = ctx_.settings->value(QStringLiteral("files/lastDir")).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), dir,
                                                      tr("Scenarios (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    ctx_.settings->setValue(QStringLiteral("files/lastDir"), QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::addRecentFile(const QString &path)
{
    RecentFiles::add(*ctx_.settings, path, kMaxRecentFiles);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    recent_menu_->clear();
    // At most kMaxRecentFiles entries, whatever a damaged settings file holds.
    const QStringList recent = RecentFiles::read(*ctx_.settings, kMaxRecentFiles);
    for (const QString &path : recent) {
        QAction *a = recent_menu_->addAction(QFileInfo(path).fileName(), this,
                                             [this, path] { openFile(path); });
        a->setToolTip(path);
        a->setEnabled(QFileInfo::exists(path));
    }
    if (recent.isEmpty())
        recent_menu_->addAction(tr("(none)"))->setEnabled(false);
    else {
        recent_menu_->addSeparator();
        recent_menu_->addAction(tr("Clear list"), this, [this] {
            ctx_.settings->remove(QStringLiteral("files/recent"));
            rebuildRecentMenu();
        });
    }
}

QString MainWindow::suggestedFileName(const QString &what, const QString &suffix) const
{
    // The scenario's file name without its suffix, else its name made safe for a file
    // system (letters, digits, '-', '_', '.'; runs of anything else become one '-').
    QString base;
    if (!ctx_.document->filePath().isEmpty()) {
        base = QFileInfo(ctx_.document->filePath()).completeBaseName();
    } else {
        const QString name = QString::fromStdString(ctx_.document->scenario().name);
        for (const QChar c : name) {
            if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') ||
                c == QLatin1Char('.'))
                base += c;
            else if (!base.endsWith(QLatin1Char('-')))
                base += QLatin1Char('-');
        }
        while (base.startsWith(QLatin1Char('-')) || base.startsWith(QLatin1Char('.')))
            base.remove(0, 1);
        while (base.endsWith(QLatin1Char('-')))
            base.chop(1);
        base.truncate(80);
    }
    if (base.isEmpty())
        base = QStringLiteral("scenario");
    if (!what.isEmpty())
        base += QLatin1Char('-') + what;
    return base + QLatin1Char('.') + suffix;
}

QString MainWindow::chartFileTag() const
{
    const QWidget *page = currentPage();
    if (page == scaling_view_)
        return QStringLiteral("scaling");
    if (page == breakdown_view_)
        return QStringLiteral("breakdown");
    if (page == memory_view_)
        return QStringLiteral("memory");
    if (page == cost_view_)
        return QStringLiteral("cost");
    if (page == calibration_page_)
        return QStringLiteral("calibration");
    if (page == delta_view_)
        return QStringLiteral("compare");
    return QStringLiteral("chart");
}

QString MainWindow::askSavePath(const QString &title, const QString &filter, const QString &suffix,
                                const QString &what)
{
    const QString dir = ctx_.settings->value(QStringLiteral("files/lastDir")).toString();
    // A file name to start from: the scenario's, with what is exported (sweep, trace, ...).
    const QString start =
        QDir(dir.isEmpty() ? QDir::homePath() : dir).filePath(suggestedFileName(what, suffix));
    QString path = QFileDialog::getSaveFileName(this, title, start, filter);
    if (path.isEmpty())
        return path;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    ctx_.settings->setValue(QStringLiteral("files/lastDir"), QFileInfo(path).absolutePath());
    return path;
}

QString MainWindow::askImagePath(const QString &title, const QString &format, const QString &what)
{
    return askSavePath(
        title, format == QLatin1String("svg") ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"),
        format, what);
}

void MainWindow::exportTimeline(const QString &format)
{
    const QString path = askImagePath(tr("Export timeline"), format, QStringLiteral("timeline"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = format == QLatin1String("svg") ? timeline_->exportSvg(path, &error)
                                                   : timeline_->exportPng(path, &error);
    if (!ok)
        showError(tr("Export failed"), error);
}

void MainWindow::exportChart(const QString &format)
{
    const QString path = askImagePath(tr("Export chart"), format, chartFileTag());
    if (path.isEmpty())
        return;
    QString error;
    if (!exportWidgetImage(currentPage(), path, &error))
        showError(tr("Export failed"), error);
}

void MainWindow::exportSweepCsv()
{
    if (!current_ || current_->sweep.empty()) {
        showError(tr("Export failed"), tr("There is no scaling sweep to export yet."));
        return;
    }
    const QString path = askSavePath(tr("Export sweep"), tr("CSV files (*.csv)"),
                                     QStringLiteral("csv"), QStringLiteral("sweep"));
    if (path.isEmpty())
        return;
    QString error;
    if (!scalescope::exportSweepCsv(current_->sweep, path, &error))
        showError(tr("Export failed"), error);
}

void MainWindow::exportTrace()
{
    // The timeline on screen: a large scenario's arrives before the rest of its result.
    const std::shared_ptr<const Timeline> shown = timeline_->timeline();
    if (!shown) {
        showError(tr("Export failed"), tr("There is no timeline to export."));
        return;
    }
    const QString name = QString::fromStdString(ctx_.document->scenario().name);
    const QString path = askSavePath(tr("Export Chrome trace"), tr("Trace files (*.json)"),
                                     QStringLiteral("json"), QStringLiteral("trace"));
    if (path.isEmpty())
        return;
    QString error;
    const QByteArray trace = timelineToChromeTrace(*shown, name);
    if (!writeFileAtomically(path, trace, &error))
        showError(tr("Export failed"), error);
}

void MainWindow::scheduleAutosave()
{
    if (ctx_.autosave && ctx_.document->isModified())
        autosave_timer_->start();
}

void MainWindow::writeAutosave()
{
    if (!ctx_.autosave || !ctx_.document->isModified())
        return;
    QString error;
    if (!ctx_.autosave->write(ctx_.document->serialized(), ctx_.document->filePath(), &error))
        statusBar()->showMessage(tr("Autosave failed: %1").arg(error), 6000);
}

void MainWindow::showError(const QString &title, const QString &text)
{
    if (ctx_.interactive)
        QMessageBox::warning(this, title, text);
    else
        statusBar()->showMessage(title + QStringLiteral(": ") + text, 10000);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (presenting_)
        setPresentationMode(false);
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    ctx_.settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
    ctx_.settings->setValue(QStringLiteral("window/state"), saveState());
    if (ctx_.autosave)
        ctx_.autosave->clear();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile())
        return;
    event->acceptProposedAction();
    openFile(urls.front().toLocalFile());
}

} // namespace scalescope
