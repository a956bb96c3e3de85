// The main window: construction, recomputation requests, calibration, plan suggestions and
// the pinned result; its other parts are in main_window_<part>.cpp.
#include "io/catalog_io.h"
#include "main_window_p.h"
#include "plain_message.h"
#include "plan/rules.h"

namespace scalescope
{

using namespace window_detail;

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
        updateTitle(); // an edited scenario's title names what it runs on now
        updateSlideTitle();
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
        arrangeDocksFor(width());
    }
    requestRecompute();
}

void MainWindow::arrangeDocksFor(int width)
{
    const bool by_default = !gallery_dock_->isFloating() && !controls_dock_->isFloating() &&
                            !gallery_dock_->isHidden() && !controls_dock_->isHidden();
    if (!by_default)
        return;
    const bool narrow = width < kGalleryBesideWidth;
    if (narrow && !gallery_tabbed_ && dockWidgetArea(gallery_dock_) == Qt::RightDockWidgetArea) {
        tabifyDockWidget(controls_dock_, gallery_dock_);
        controls_dock_->raise();
        gallery_tabbed_ = true;
    } else if (!narrow && gallery_tabbed_) {
        addDockWidget(Qt::RightDockWidgetArea, gallery_dock_);
        gallery_tabbed_ = false;
    }
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
    Result<CalibrationProfile> profile = loadProfileFile(path, ReadKinds::RegularOnly);
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
        const GpuSpec *match = builtinCatalog().matchGpuName(g.name, g.memory_bytes);
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
            plainMessage(this, QMessageBox::Question, tr("Profile of another GPU"),
                         tr("The profile was measured on %1, not on the scenario's %2. Switch the "
                            "scenario's GPU to %3 and apply it?")
                             .arg(QString::fromStdString(measured), mine,
                                  QString::fromStdString(match->name)),
                         QMessageBox::Yes | QMessageBox::No) != QMessageBox::Yes) {
            calibration_pending_ = false;
            return;
        }
        const bool cap_dropped = replaceGpu(s.hardware, *match);
        description =
            (cap_dropped
                 ? tr("Apply calibration profile %1 (GPU set to %2, where it was measured; "
                      "power limit back to its TDP)")
                 : tr("Apply calibration profile %1 (GPU set to %2, where it was measured)"))
                .arg(QFileInfo(path).fileName(), QString::fromStdString(match->name));
        calibration_gpu_switched_ = QString::fromStdString(match->name);
    } else {
        calibration_gpu_switched_.clear();
    }
    startEditTimer();
    ctx_.document->edit(s, description);
}

namespace
{

/// Why applying a profile left the step where it was (issue 26: an 8-GPU NVLink profile on
/// 2 x 4 RTX 4090 "raised" the bus bandwidth 58x and the step moved 0.00%, unexplained). A
/// measured collective stands only for a group of the shape it ran on (CommModel::measuredFor),
/// so a profile of another cluster shape (the rule table's warning) changes no collective.
QString unchangedStepReason(const Scenario &scenario)
{
    for (const RuleFinding &f : checkRules(scenario))
        if (f.rule == Rule::CalibrationOtherCluster)
            return MainWindow::tr("The step does not move: a measured collective stands only for "
                                  "a group of the shape it ran on, and the profile's ran on %1 "
                                  "node(s) of %2 GPUs, this scenario has %3 of %4.")
                .arg(f.at.profile_nodes)
                .arg(f.at.profile_gpus_per_node)
                .arg(f.at.nodes)
                .arg(f.at.gpus_per_node);
    return MainWindow::tr(
        "The step does not move: none of the figures the profile measured sets this step's time.");
}

} // namespace

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
                // The measured figure as a share of the datasheet's, as the figure table
                // gives it (issue 26: "5850%" there beside "+5750.0%" here).
                changed << tr("%1 %2 → %3 %4 (%5%)")
                               .arg(row.figure, locale.toString(row.datasheet, 'f', 1),
                                    locale.toString(row.measured.front(), 'f', 1), row.unit)
                               .arg(100.0 * row.measured.front() / row.datasheet, 0, 'f', 0);
        if (!changed.isEmpty())
            text +=
                QLatin1Char(' ') +
                tr("Measured instead of datasheet: %1.").arg(changed.join(QStringLiteral("; ")));
    } else {
        text = tr("Datasheet figures restored.");
    }
    if (before && before->ok() && before->summary().step_time_s > 0) {
        const double a = before->summary().step_time_s, b = after->summary().step_time_s;
        text += QLatin1Char(' ') + tr("Step %1 → %2 (%3%).")
                                       .arg(formatStepTime(a), formatStepTime(b))
                                       .arg((b / a - 1) * 100, 0, 'f', 2);
        // Issue 26: a profile that moves nothing says why, instead of a bare "0.00%".
        if (profile && std::abs(b / a - 1) < 5e-5)
            text += QLatin1Char(' ') + unchangedStepReason(after->scenario);
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
    pinned_timeline_->setTimeline(pinned_->timeline());
    pinned_timeline_->setTitle(
        tr("A (pinned): %1")
            .arg(QString::fromStdString(pinned_->scenario.name.empty() ? std::string("scenario")
                                                                       : pinned_->scenario.name)));
    timeline_->setTitle(tr("B (current)"));
    pinned_timeline_->setVisible(true);
    // Both on one axis: the longer step decides the range.
    const double end = std::max(pinned_->timeline() ? pinned_->timeline()->endTime() : 0.0,
                                current_->timeline() ? current_->timeline()->endTime() : 0.0);
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
    // The shared axis ends with the compare (issue 26: it kept A's range, -100..870 ms).
    timeline_->fitToView();
    timeline_->setTitle(QString());
    compare_label_->clear();
    unpin_action_->setEnabled(false);
    delta_view_->setResults(nullptr, current_);
}

} // namespace scalescope
