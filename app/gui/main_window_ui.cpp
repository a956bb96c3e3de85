// The main window's widgets, docks, status bar and menus, and the keyboard and mouse list
// (Help › Keyboard and mouse).
#include "main_window_p.h"

namespace scalescope
{

using namespace window_detail;

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
    compare_label_->setTextFormat(Qt::PlainText);
    compare_label_->setObjectName(QStringLiteral("compareLabel"));
    timeline_note_ = new QLabel;
    timeline_note_->setTextFormat(Qt::PlainText);
    timeline_note_->setObjectName(QStringLiteral("timelineNote"));
    // Wrapped, so that its length does not set the views' minimum width: on one line the
    // warm-up note held them at 1080 px and squeezed the Scenario dock at 1280 px.
    timeline_note_->setWordWrap(true);
    timeline_note_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    bar->addWidget(iterations_label);
    bar->addWidget(iterations_spin_);
    bar->addWidget(fit_button);
    bar->addWidget(plan_button);
    bar->addWidget(compare_label_);
    bar->addWidget(timeline_note_, 1);
    timeline_layout->addLayout(bar);

    pinned_timeline_ = new TimelineWidget;
    pinned_timeline_->setObjectName(QStringLiteral("pinnedTimeline"));
    pinned_timeline_->setVisible(false);
    timeline_ = new TimelineWidget;
    timeline_->setObjectName(QStringLiteral("timeline"));
    auto *timelines = new QSplitter(Qt::Vertical);
    timelines->addWidget(pinned_timeline_);
    timelines->addWidget(timeline_);
    buildMeasuredTimeline(timelines);
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
    measured_view_ = new MeasuredRunView;
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
    add_page(measured_view_, tr("Measured run"));
    connect(measured_view_, &MeasuredRunView::openRequested, this,
            &MainWindow::openMeasuredTraceDialog);
    connect(measured_view_, &MeasuredRunView::fitRequested, this,
            [this] { fitModelToMeasuredRun(); });
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
    // The views and, stacked over them by one layout (same geometry, no event tracking), the
    // veil of a result that did not compute.
    auto *views_box = new QWidget;
    auto *views_stack = new QStackedLayout(views_box);
    views_stack->setStackingMode(QStackedLayout::StackAll);
    views_stack->addWidget(splitter_);
    stale_veil_ = new StaleVeil;
    views_stack->addWidget(stale_veil_);
    views_stack->setCurrentWidget(stale_veil_); // on top whenever shown
    stale_veil_->hide();
    centre_layout->addWidget(views_box, 1);
    central_stack_ = new QStackedWidget;
    central_stack_->setObjectName(QStringLiteral("centralStack"));
    central_stack_->addWidget(centre);
    setCentralWidget(central_stack_);

    // Status bar: the figures that answer "how fast, and why not faster".
    auto make_label = [this](const char *name, const QString &tip) {
        auto *label = new QLabel;
        label->setObjectName(QLatin1String(name));
        label->setTextFormat(Qt::PlainText);
        label->setToolTip(tip);
        statusBar()->addWidget(label);
        return label;
    };
    // A run that does not fit in memory says so first; its figures follow as "if it fitted".
    status_memory_ = make_label("statusMemory", tr("Memory per GPU against the GPU's capacity"));
    status_memory_->setStyleSheet(QStringLiteral("QLabel { color: #b00020; font-weight: bold; }"));
    status_memory_->hide();
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
    status_bottleneck_ = new WrappedStatusLabel;
    status_bottleneck_->setObjectName(QStringLiteral("statusBottleneck"));
    // Rich text (an error's key path in bold, in red): what it quotes is escaped.
    status_bottleneck_->setTextFormat(Qt::RichText);
    status_bottleneck_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The sentence gives way first, onto more lines: a narrow window wraps it, and the
    // figures before it keep their width.
    status_bottleneck_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
    statusBar()->addWidget(status_bottleneck_, 1);
    status_busy_ = new QLabel;
    status_busy_->setTextFormat(Qt::PlainText);
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
    file->addAction(tr("Open &measured trace…"), this, &MainWindow::openMeasuredTraceDialog)
        ->setObjectName(QStringLiteral("openMeasuredTraceAction"));
    file->addAction(tr("Close measured trace"), this, &MainWindow::closeMeasuredTrace);
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
    // Two shows (issue 26: F5 on an edited scenario showed it as "1/1" under a stale title):
    // the claims gallery, or the scenario being edited as one slide. Esc ends either.
    present_action_ = view->addAction(tr("&Present the gallery"));
    present_action_->setObjectName(QStringLiteral("presentGalleryAction"));
    present_action_->setShortcut(QKeySequence(Qt::Key_F5));
    connect(present_action_, &QAction::triggered, this, [this] { present(ShowWhat::Gallery); });
    addAction(present_action_);
    present_scenario_action_ = view->addAction(tr("Present &my scenario"));
    present_scenario_action_->setObjectName(QStringLiteral("presentScenarioAction"));
    present_scenario_action_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    connect(present_scenario_action_, &QAction::triggered, this,
            [this] { present(ShowWhat::Document); });
    addAction(present_scenario_action_);
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

} // namespace scalescope
