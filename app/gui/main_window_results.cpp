// How the main window shows a result: the timeline, each stage of a staged answer, the
// status line and the tabs.
#include "main_window_p.h"

#include "charts/chart_common.h"
#include "controls/control_checks.h"
#include "model_text.h"

namespace scalescope
{

using namespace window_detail;

void MainWindow::showTimelineOf(const ResultPtr &result)
{
    if (!result->ok())
        timeline_->setEmptyReason(
            tr("No timeline: the scenario is not valid (%1).").arg(result->error));
    else if (!result->timeline())
        timeline_->setEmptyReason(tr("No timeline: more segments than can be drawn; the "
                                     "figures come from the closed-form model."));
    // A/B compare: both timelines span the longer of the two steps, so neither is cut off.
    const double shared_end =
        pinned_ && pinned_->timeline() && result->ok() && result->timeline()
            ? std::max(pinned_->timeline()->endTime(), result->timeline()->endTime())
            : 0.0;
    timeline_->setSharedExtent(shared_end);
    pinned_timeline_->setSharedExtent(shared_end);
    timeline_->setMemory(result->ok() ? result->summary().memory : MemoryBreakdown{},
                         result->ok() ? translatedRemedyClause(result->summary()) : QString());
    // The complete result carries the timeline its stage already showed: kept as it is
    // (with the user's selection) rather than set again.
    const std::shared_ptr<const Timeline> shown = result->ok() ? result->timeline() : nullptr;
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
    if (result->ok() && result->timeline() && result->warmupSteps() > 0)
        notes << (result->warmupSteps() == 1
                      ? tr("1 warm-up step drawn before the measured ones (the data loader or "
                           "asynchronous updates carry state from step to step)")
                      : tr("%1 warm-up steps drawn before the measured ones (the data loader "
                           "or asynchronous updates carry state from step to step)")
                            .arg(result->warmupSteps()));
    if (result->ok() && result->timeline() && result->timelineMergeQuantumS() > 0)
        // Said plainly: zooming in does not bring the merged detail back (issue 26).
        notes << (result->timelineFirstReplicaDetailed()
                      ? tr("Simplified at this size: items closer than %1 stay merged at every "
                           "zoom, except on the GPUs of the first data-parallel replica, which "
                           "keep every item (%2 of about %3 segments drawn)")
                      : tr("Simplified at this size: items closer than %1 stay merged at every "
                           "zoom (%2 of about %3 segments drawn)"))
                     .arg(formatDuration(result->timelineMergeQuantumS()),
                          QLocale().toString(qulonglong(result->timeline()->size())),
                          QLocale().toString(qulonglong(result->timelineFullSegments())));
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
    // How far to trust the prediction, with or without a measured run beside it (a refused
    // edit keeps the last valid picture, and this with it).
    if (result->ok())
        measured_view_->setTrackRecord(trackRecordSentence(result->summary()));
    if (result->generation == ctx_.recomputer->latestGeneration())
        status_busy_->clear();

    controls_->setValidationError(result->error_path, result->error);
    // An edit the plan cannot take (a GPU count the batch does not split) keeps the last
    // valid picture, greyed, with the reason above it (issue 26: every chart went blank while
    // the slider passed such counts). The status bar and the control say the error.
    if (result->ok())
        last_valid_ = result;
    const bool keep_last = !result->ok() && last_valid_ != nullptr;
    views_result_ = keep_last ? last_valid_ : result;
    // The measured run is compared with the prediction on screen: after views_result_ moved
    // to this result (before, the bars and the GPU check lagged one result behind).
    if (measured_)
        showMeasuredComparison();
    showStalePicture(keep_last ? result : nullptr);
    refit_now_ = false;
    showTimelineOf(views_result_);
    const bool refit = refit_now_;
    // Only the tab on screen is redrawn now; the others catch up when they are shown (while
    // presenting, the stage's view is the one on screen).
    stale_tabs_ = true;
    if (presenting_) {
        fresh_pages_.clear();
        updateStatus(result);
        if (stage_) {
            controls_dock_->setFont(stage_->font()); // F6: the room's font size
            stage_->setResult(views_result_, refit);
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
    status_memory_->clear();
    status_memory_->hide();
    status_speedup_->setToolTip(tr("Against one GPU of the same kind"));
    if (!result->ok()) {
        for (QLabel *l :
             {status_step_, status_throughput_, status_mfu_, status_speedup_, status_efficiency_})
            l->clear();
        const auto [path, message] = localizedError(*result);
        const QString where =
            path.isEmpty() ? QString() : QStringLiteral("<b>%1</b>: ").arg(path.toHtmlEscaped());
        bottleneck_plain_ = path.isEmpty() ? message : path + QStringLiteral(": ") + message;
        status_bottleneck_->setRichText(QStringLiteral("<span style='color:#b00020'>%1%2</span>")
                                            .arg(where, message.toHtmlEscaped()),
                                        bottleneck_plain_);
        status_staleness_->hide();
        return;
    }
    const Summary &s = result->summary();
    // The evaluation's one speed-up reference (analysis/speedup_reference.h): one GPU, or the
    // fewest GPUs that hold the model when one GPU cannot (its time is then on paper).
    using Kind = SpeedupFigures::Kind;
    const SpeedupReference &ref = result->reference();
    const SpeedupFigures f = speedupFigures(ref, s.gpus, s.speedup);
    const bool reference_on_paper = s.gpus > 1 && ref.one_gpu_on_paper && ref.one_gpu_memory;
    const QString reference_note =
        reference_on_paper
            ? tr("The one-GPU reference cannot hold this model (it would need %1 GiB of its "
                 "%2 GiB): its time is on paper, not a run.")
                  .arg(formatGiB(ref.one_gpu_memory->total),
                       formatGiB(ref.one_gpu_memory->capacity))
            : QString();
    const QString against_paper =
        tr("Against the one GPU on paper this run is %1× (efficiency %2%).")
            .arg(f.vs_one, 0, 'f', 2)
            .arg(f.efficiency_vs_one * 100, 0, 'f', 0);
    // The headline of f, one wording for the status bar, whether the run fits or not.
    QString speedup_text;
    QString efficiency_text;
    // Scaling efficiency compares with the reference, not with busy GPUs: 100% beside a
    // step the GPUs spend 29% of waiting read as a contradiction (issue 26, slides 19 and
    // 21), so the figure says what it is and how long each GPU is still idle.
    const double idle = s.step_time_s > 0 ? 1.0 - s.breakdown.compute / s.step_time_s : 0.0;
    const auto scalingEfficiency = [idle](double efficiency) {
        return idle >= 0.005 ? tr("Scaling efficiency %1% (each GPU still idles %2%)")
                                   .arg(efficiency * 100, 0, 'f', 0)
                                   .arg(idle * 100, 0, 'f', 0)
                             : tr("Scaling efficiency %1%").arg(efficiency * 100, 0, 'f', 0);
    };
    switch (f.kind) {
    case Kind::OneGpu:
        speedup_text = tr("Speed-up %1× on 1 GPU").arg(f.speedup, 0, 'f', 2);
        efficiency_text = scalingEfficiency(f.efficiency);
        break;
    case Kind::AgainstOne:
        // Virtual GPUs: the reference is one slice, not one physical GPU (issue 26, slide 21:
        // "Speed-up 4.13×" beside a job that runs like one whole GPU).
        speedup_text = s.bottleneck.virtual_gpu
                           ? tr("Speed-up %1× on %2 GPUs against one %3% slice")
                                 .arg(f.speedup, 0, 'f', 2)
                                 .arg(f.gpus)
                                 .arg(s.bottleneck.virtual_gpu->fraction * 100, 0, 'f', 0)
                           : tr("Speed-up %1× on %2 GPUs").arg(f.speedup, 0, 'f', 2).arg(f.gpus);
        efficiency_text = scalingEfficiency(f.efficiency);
        break;
    case Kind::Rebased:
        speedup_text = tr("%1× as fast as %2 GPUs, the fewest that fit; ideal %3×")
                           .arg(f.speedup, 0, 'f', 2)
                           .arg(f.from_gpus)
                           .arg(QLocale::c().toString(f.ideal, 'g', 6));
        efficiency_text =
            tr("Efficiency %1% from %2 GPUs").arg(f.efficiency * 100, 0, 'f', 0).arg(f.from_gpus);
        break;
    case Kind::Fewest:
        speedup_text = tr("%1 GPUs are the fewest that fit: %2× against 1 GPU on paper")
                           .arg(f.gpus)
                           .arg(f.vs_one, 0, 'f', 2);
        efficiency_text =
            tr("Efficiency %1% against 1 GPU on paper").arg(f.efficiency_vs_one * 100, 0, 'f', 0);
        break;
    case Kind::OnPaper:
        speedup_text = tr("Speed-up %1× on %2 GPUs against 1 GPU on paper")
                           .arg(f.vs_one, 0, 'f', 2)
                           .arg(f.gpus);
        efficiency_text =
            tr("Efficiency %1% against 1 GPU on paper").arg(f.efficiency_vs_one * 100, 0, 'f', 0);
        break;
    }
    QString speedup_tip = reference_note;
    if (f.kind == Kind::Rebased)
        speedup_tip += QLatin1Char(' ') +
                       tr("Counted from %1 GPUs, the fewest that hold the model: ideally %2 "
                          "GPUs would be %3× as fast as they are.")
                           .arg(f.from_gpus)
                           .arg(f.gpus)
                           .arg(QLocale::c().toString(f.ideal, 'g', 6)) +
                       QLatin1Char(' ') + against_paper;
    // An early stage: one GPU is on paper and the fewest that fit are not known yet; no
    // figure that the complete result would take back.
    const bool reference_pending = s.gpus > 1 && ref.pending;
    const bool fits = s.memory.fits();
    if (!fits) {
        // A run that does not fit in memory does not happen: that comes first, and its figures
        // are only what it would do if it fitted (throughput, MFU and efficiency left out).
        status_memory_->setText(
            s.memory.verdictWithinError()
                // Nearer the capacity than the model's memory error (analysis/memory.h).
                ? tr("May not fit: %1 GiB per GPU against %2 GiB, within the model's %3 % "
                     "memory error")
                      .arg(formatGiB(s.memory.total), formatGiB(s.memory.capacity),
                           memoryErrorPercent())
                : tr("Does not fit: %1 GiB per GPU against %2 GiB")
                      .arg(formatGiB(s.memory.total), formatGiB(s.memory.capacity)));
        // The change the model found that makes it fit (analysis/memory_remedy.h).
        QString memory_tip = tr("Memory per GPU against the GPU's capacity");
        if (const QString remedy = translatedRemedyClause(s); !remedy.isEmpty())
            memory_tip += QLatin1Char('\n') + tr("%1.", "a sentence ending").arg(remedy);
        status_memory_->setToolTip(memory_tip);
        status_memory_->show();
        for (QLabel *l : {status_step_, status_throughput_, status_mfu_, status_efficiency_})
            l->clear();
        const QString step = formatStepTime(s.step_time_s);
        // Over by less than the model's memory error it may run: "if it fits", not "if it
        // fitted" and "it cannot run".
        const bool may_run = s.memory.verdictWithinError();
        if (may_run)
            status_speedup_->setText(s.gpus == 1 || reference_pending
                                         ? tr("If it fits: step %1").arg(step)
                                         : tr("If it fits: step %1, %2").arg(step, speedup_text));
        else
            status_speedup_->setText(s.gpus == 1 || reference_pending
                                         ? tr("If it fitted: step %1").arg(step)
                                         : tr("If it fitted: step %1, %2").arg(step, speedup_text));
        QString tip =
            may_run ? tr("What this step takes if the memory of each GPU holds it: it needs more "
                         "than the GPU has, by less than the model's memory error, so it may "
                         "run. If it does not: reduce the memory per GPU (ZeRO, tensor or "
                         "pipeline parallelism, recomputation, a smaller micro-batch) or use "
                         "GPUs with more memory.")
                    : tr("What this step would take if the memory of each GPU held it. It "
                         "cannot run: reduce the memory per GPU (ZeRO, tensor or pipeline "
                         "parallelism, recomputation, a smaller micro-batch) or use GPUs with "
                         "more memory.");
        if (!speedup_tip.isEmpty())
            tip += QLatin1Char(' ') + speedup_tip;
        status_speedup_->setToolTip(tip);
    } else {
        // Steps differ where it shows: P50 and P90 that print alike ("215.2 ms" twice, a
        // loader's steady queue) are no spread to show.
        if (result->spread &&
            formatStepTime(result->spread->p90_s) != formatStepTime(result->spread->p50_s)) {
            // Steps differ: the spread over many simulated steps, not one draw (issue 28).
            const StepSpread &sp = *result->spread;
            status_step_->setText(tr("Step %1\nP50 %2 · P90 %3")
                                      .arg(formatStepTime(s.step_time_s), formatStepTime(sp.p50_s),
                                           formatStepTime(sp.p90_s)));
            status_step_->setToolTip(withSentence(
                tr("The step is one simulated step from a standing start. Over %1 simulated "
                   "steps in a row: median %2, P90 %3, P99 %4 (jitter, stragglers, the data "
                   "loader or throttling make steps differ).")
                    .arg(sp.steps)
                    .arg(formatStepTime(sp.p50_s), formatStepTime(sp.p90_s),
                         formatStepTime(sp.p99_s)),
                trackRecordSentence(s)));
        } else {
            status_step_->setText(tr("Step %1").arg(formatStepTime(s.step_time_s)));
            // How far to trust it: the model's error on published runs of this kind.
            status_step_->setToolTip(
                withSentence(tr("Wall time of one optimizer step"), trackRecordSentence(s)));
        }
        QString throughput = tr("%1 samples/s").arg(formatRate(s.samples_per_s));
        if (s.tokens_per_s > 0)
            throughput += tr(" · %1 tokens/s").arg(formatRate(s.tokens_per_s));
        status_throughput_->setText(throughput);
        status_mfu_->setText(tr("MFU %1%").arg(s.mfu * 100, 0, 'f', 1));
        if (reference_pending) {
            status_speedup_->setText(
                tr("Speed-up on %1 GPUs: once the fewest GPUs that fit are simulated").arg(s.gpus));
            status_efficiency_->clear();
        } else {
            status_speedup_->setText(speedup_text);
            status_efficiency_->setText(efficiency_text);
        }
        if (!speedup_tip.isEmpty())
            status_speedup_->setToolTip(speedup_tip);
    }
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
    // The memory sentence of the bottleneck is the status bar's first label already.
    Bottleneck bottleneck = s.bottleneck;
    if (!fits)
        bottleneck.out_of_memory.reset();
    QString sentence = translatedBottleneck(bottleneck);
    if (!fits) // its shares and MFU are those of a run that cannot start, or may not
        sentence = (s.memory.verdictWithinError() ? tr("If it fits: %1") : tr("If it fitted: %1"))
                       .arg(sentence);
    if (result->stage == ResultStage::Summary)
        sentence += tr(" (closed-form estimate while the simulation runs)");
    else if (!result->timeline())
        sentence += tr(" (timeline not drawn: too many segments; figures from the closed form)");
    status_bottleneck_->setSentence(sentence);
    bottleneck_plain_ = sentence;
}

QStringList MainWindow::statusFigures() const
{
    QStringList figures;
    for (const QLabel *l : {status_memory_, status_step_, status_throughput_, status_mfu_,
                            status_speedup_, status_efficiency_, status_staleness_})
        if (!l->text().isEmpty() &&
            ((l != status_staleness_ && l != status_memory_) || !l->isHidden()))
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

std::pair<QString, QString> MainWindow::localizedError(const ScenarioResult &result) const
{
    // The model's refusal is English (plan/rules.h renders its records in English for the
    // CLI and files). In another language, the same rule's finding as the control panel
    // translates it (views/controls/control_checks.h: an error exactly when the model refuses),
    // preferably the one for the same key.
    if (ctx_.language != QLatin1String("en") && !result.error.isEmpty()) {
        const QList<ControlIssue> issues = checkScenario(result.scenario);
        const ControlIssue *found = nullptr;
        for (const ControlIssue &issue : issues) {
            if (issue.severity != ControlIssue::Severity::Error)
                continue;
            if (issue.key_path == result.error_path) {
                found = &issue;
                break;
            }
            if (!found)
                found = &issue;
        }
        if (found)
            return {found->key_path, found->message};
    }
    return {result.error_path, result.error};
}

void MainWindow::showStalePicture(const ResultPtr &invalid)
{
    if (!invalid) {
        stale_veil_->hide();
        return;
    }
    const auto [path, message] = localizedError(*invalid);
    const QString where = path.isEmpty() ? message : path + QStringLiteral(": ") + message;
    stale_veil_->showOver(tr("Not computed: %1. Shown greyed: the last valid scenario (%2).")
                              .arg(where, gpuCountText(last_valid_->summary().gpus)));
}

void MainWindow::refreshCurrentTab()
{
    const ResultPtr &current = views_result_ ? views_result_ : current_;
    if (!current)
        return;
    QWidget *page = currentPage();
    if (page == scaling_view_)
        scaling_view_->setResult(current);
    else if (page == breakdown_view_)
        breakdown_view_->setResult(current);
    else if (page == memory_view_)
        memory_view_->setResult(current);
    else if (page == cost_view_)
        cost_view_->setResult(current);
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

MainWindow::ViewState MainWindow::viewState() const
{
    return ViewState{tabs_->currentIndex(), gallery_index_, sweep_counts_};
}

void MainWindow::restoreViewState(const ViewState &state)
{
    if (state.tab >= 0 && state.tab < tabs_->count())
        tabs_->setCurrentIndex(state.tab);
    if (ctx_.gallery && state.gallery_index < static_cast<int>(ctx_.gallery->size())) {
        gallery_index_ = state.gallery_index;
        sweep_counts_ = state.sweep_counts;
        showGalleryRow(gallery_index_);
        updateGalleryText();
        if (!sweep_counts_.empty())
            requestRecompute(); // the claim's own sweep counts
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
    else if (name == QLatin1String("measured"))
        page = measured_view_;
    if (page == nullptr)
        return false;
    tabs_->setCurrentIndex(pageIndex(page));
    const int h = std::max(splitter_->height(), 600);
    splitter_->setSizes({h * 2 / 5, h * 3 / 5});
    return true;
}

} // namespace scalescope
