// The main window's measured run (issue 28, item 3): File > Open measured trace (or a drop)
// reads PyTorch profiler (Kineto) traces, one per rank, on a worker thread with progress and
// cancel, and draws their measured rows (analysis/measured_timeline.h) in a timeline below
// the predicted one, on one time axis from a step start; the Measured run tab compares the
// run with the prediction, and "Fit the model to this run" writes a profile fitted from the
// traces (analysis/trace_profile.h) and applies it.
#include "main_window_p.h"
#include "plain_message.h"

#include "analysis/measured_critical_path.h"
#include "analysis/measured_run.h"
#include "analysis/measured_timeline.h"
#include "analysis/trace_profile.h"
#include "io/file_io.h"
#include "io/kineto_trace.h"
#include "io/profile_io.h"

#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QProgressDialog>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

namespace scalescope
{

using namespace window_detail;

namespace
{

// What the worker hands back: the traces' timeline and figures, or the first error.
struct MeasuredLoad {
    std::shared_ptr<const Timeline> timeline;
    std::optional<MeasuredRun> run;
    std::vector<MeasuredRank> ranks;
    std::shared_ptr<const TraceProfileFit> fit;
    std::optional<MeasuredCriticalPath> path; // the first rank's median step
    QString error;
    bool cancelled = false;
};

MeasuredLoad loadTraces(const QStringList &files, int gpus_per_node,
                        const std::atomic<bool> *cancel, std::atomic<int64_t> *done,
                        std::atomic<int64_t> *total)
{
    MeasuredLoad load;
    std::vector<KinetoTrace> traces;
    std::vector<MeasuredRank> ranks;
    int64_t before = 0;
    for (const QString &f : files) {
        TraceReadOptions options;
        options.cancel = cancel;
        options.progress = [&](int64_t d, int64_t t) {
            done->store(before + d);
            total->store(std::max<int64_t>(total->load(), before + t));
        };
        Result<KinetoTrace> t = readKinetoTrace(f, options);
        if (!t) {
            load.cancelled = t.error().path == kTraceCancelled;
            load.error = QString::fromStdString(t.error().toString());
            return load;
        }
        before = done->load();
        ranks.push_back(measureRank(t.value()));
        traces.push_back(std::move(t).value());
    }
    Result<MeasuredRun> run = combineRanks(ranks);
    if (!run) {
        load.error = QString::fromStdString(run.error().toString());
        return load;
    }
    load.run = run.value();
    load.ranks = ranks;
    std::vector<const KinetoTrace *> pointers;
    for (const KinetoTrace &t : traces)
        pointers.push_back(&t);
    // Each rank's critical paths, once: drawn on its rows, the first rank's median step
    // said in the Measured run tab.
    std::vector<std::vector<MeasuredCriticalPath>> paths;
    for (size_t i = 0; i < traces.size(); ++i)
        paths.push_back(measuredCriticalPaths(traces[i], ranks[i]));
    load.timeline = std::make_shared<const Timeline>(measuredTimeline(pointers, ranks, paths));
    if (const MeasuredCriticalPath *p = medianStepPath(paths.front())) {
        load.path = *p;
        load.path->segments.clear();
    }
    // The profile "Fit the model to this run" writes, fitted now: the traces are not kept.
    TraceProfileOptions fit_options;
    fit_options.gpus_per_node = gpus_per_node;
    fit_options.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    load.fit = std::make_shared<const TraceProfileFit>(fitTraceProfile(pointers, fit_options));
    return load;
}

} // namespace

void MainWindow::buildMeasuredTimeline(QSplitter *timelines)
{
    measured_timeline_ = new TimelineWidget;
    measured_timeline_->setObjectName(QStringLiteral("measuredTimeline"));
    measured_timeline_->setVisible(false);
    timelines->addWidget(measured_timeline_);
    // Measured and predicted rows share one time axis.
    connect(timeline_, &TimelineWidget::timeRangeChanged, this, [this](double a, double b) {
        if (measured_timeline_->isVisible() && measured_timeline_->timeRange() != qMakePair(a, b))
            measured_timeline_->setTimeRange(a, b);
    });
    connect(measured_timeline_, &TimelineWidget::timeRangeChanged, this,
            [this](double a, double b) {
                if (timeline_->timeRange() != qMakePair(a, b))
                    timeline_->setTimeRange(a, b);
            });
}

void MainWindow::openMeasuredTraceDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open measured trace"), QString(),
        tr("PyTorch profiler traces (*.json *.json.gz *.gz);;All files (*)"));
    if (!files.isEmpty() && openMeasuredTraces(files))
        showTab(QStringLiteral("measured"));
}

bool MainWindow::openMeasuredTraces(const QStringList &files)
{
    std::atomic<bool> cancel{false};
    std::atomic<int64_t> done{0}, total{0};
    MeasuredLoad load;
    const int gpus_per_node = ctx_.document->scenario().hardware.gpus_per_node;
    QThread *worker =
        QThread::create([&] { load = loadTraces(files, gpus_per_node, &cancel, &done, &total); });
    QProgressDialog progress(tr("Reading the measured trace…"), tr("Cancel"), 0, 1000, this);
    progress.setObjectName(QStringLiteral("measuredTraceProgress"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(500);
    QTimer poll;
    connect(&poll, &QTimer::timeout, &progress, [&] {
        const int64_t t = total.load();
        if (t > 0)
            progress.setValue(static_cast<int>(std::min<int64_t>(999, 1000 * done.load() / t)));
    });
    connect(&progress, &QProgressDialog::canceled, &progress, [&] { cancel.store(true); });
    QEventLoop loop;
    connect(worker, &QThread::finished, &loop, &QEventLoop::quit);
    worker->start();
    poll.start(100);
    loop.exec();
    worker->wait();
    delete worker;
    poll.stop();
    progress.reset();
    if (load.cancelled)
        return false;
    if (!load.run) {
        showError(tr("Cannot open measured trace"), load.error);
        return false;
    }
    measured_ = load.timeline;
    measured_fit_ = load.fit;
    measured_files_ = files;
    const MeasuredRun &run = *load.run;
    measured_gpu_ = run.gpu;
    measured_timeline_->setTimeline(measured_);
    QStringList rank_numbers;
    for (const MeasuredRank &r : load.ranks)
        rank_numbers.append(QString::number(r.rank));
    const QString title =
        tr("Measured: ranks %1, %2, median step %3 ms (compute %4 ms, exposed communication "
           "%5 ms, idle %6 ms)")
            .arg(rank_numbers.join(QStringLiteral(", ")),
                 run.gpu ? QString::fromStdString(*run.gpu) : tr("GPU not named"))
            .arg(run.median.step_time_s * 1e3, 0, 'f', 2)
            .arg(run.median.compute_s * 1e3, 0, 'f', 2)
            .arg(run.median.communication_exposed_s * 1e3, 0, 'f', 2)
            .arg(run.median.idle_s * 1e3, 0, 'f', 2);
    measured_timeline_->setTitle(title);
    measured_timeline_->setVisible(true);
    QStringList names;
    for (const QString &f : files)
        names << QFileInfo(f).fileName();
    measured_view_->setMeasured(
        run.median, tr("%1 · %2 step(s) of %3 rank(s) from %4; measured steps from %5 to %6 "
                       "ms, P90 %7 ms")
                        .arg(title)
                        .arg(run.steps)
                        .arg(run.ranks)
                        .arg(names.join(QStringLiteral(", ")))
                        .arg(run.step_min_s * 1e3, 0, 'f', 2)
                        .arg(run.step_max_s * 1e3, 0, 'f', 2)
                        .arg(run.step_p90_s * 1e3, 0, 'f', 2));
    measured_view_->setFitReport(QString());
    measured_view_->setCriticalPath(load.path, load.ranks.front().rank);
    showMeasuredComparison();
    // One axis from a step start: the predicted step and the measured steps both start at 0.
    const double predicted_end = timeline_->timeline() ? timeline_->timeline()->endTime() : 0;
    const double end = std::max(predicted_end, measured_->endTime());
    measured_timeline_->setSharedExtent(end);
    timeline_->setSharedExtent(end);
    measured_timeline_->setTimeRange(0, end);
    timeline_->setTimeRange(0, end);
    return true;
}

void MainWindow::closeMeasuredTrace()
{
    measured_.reset();
    measured_fit_.reset();
    measured_files_.clear();
    measured_gpu_.reset();
    measured_view_->setGpuMismatch(QString());
    measured_timeline_->setTimeline(nullptr);
    measured_timeline_->setVisible(false);
    measured_view_->setMeasured(std::nullopt, QString());
    measured_view_->setFitReport(QString());
    measured_view_->setCriticalPath(std::nullopt, 0);
}

void MainWindow::showMeasuredComparison()
{
    // The prediction of the step on screen (the last valid one while an edit is refused).
    const ResultPtr &r = views_result_ ? views_result_ : current_;
    // A trace of another GPU than the scenario's compares two different machines: said above
    // the bars (the chip read from both names, hardware/hardware.h), so that a
    // disagreement is not read as the model's error.
    const std::string scenario_gpu =
        r ? r->scenario.hardware.gpu.name : ctx_.document->scenario().hardware.gpu.name;
    measured_view_->setGpuMismatch(
        measured_gpu_ && differentGpuChips(*measured_gpu_, scenario_gpu)
            ? tr("The trace ran on %1 and the scenario models %2: the bars compare different "
                 "GPUs. Set the scenario's GPU to the trace's to compare like with like.")
                  .arg(QString::fromStdString(*measured_gpu_), QString::fromStdString(scenario_gpu))
            : QString());
    if (r && r->ok()) {
        measured_view_->setPredicted(predictedFigures(r->summary()));
        measured_view_->setPredictedSpread(r->spread);
    } else {
        measured_view_->setPredicted(std::nullopt);
        measured_view_->setPredictedSpread(std::nullopt);
    }
}

bool MainWindow::fitModelToMeasuredRun(const QString &path)
{
    if (!measured_fit_)
        return false;
    QString target = path;
    if (target.isEmpty()) {
        if (!ctx_.interactive)
            return false;
        const QFileInfo first(measured_files_.value(0));
        QString base = first.fileName();
        for (const char *suffix : {".gz", ".json"})
            if (base.endsWith(QLatin1String(suffix)))
                base.chop(static_cast<int>(qstrlen(suffix)));
        target = QFileDialog::getSaveFileName(
            this, tr("Save the profile fitted from the measured run"),
            first.dir().filePath(base + QStringLiteral("-profile.json")),
            tr("Calibration profiles (*.json)"));
        if (target.isEmpty())
            return false;
    }
    // Never over one of the traces it comes from, nor over anything but a regular file.
    WriteGuard guard;
    guard.inputs = measured_files_;
    std::vector<QString> names;
    for (const QString &f : measured_files_)
        names.push_back(QFileInfo(f).fileName());
    const WriteResult written = writeFileSafely(
        target,
        writeTraceFittedProfile(measured_fit_->profile,
                                {measured_fit_->collective_samples, measured_fit_->gemm_samples,
                                 measured_fit_->launch_samples},
                                names),
        guard);
    if (!written) {
        showError(tr("Cannot write the fitted profile"), written.error);
        return false;
    }
    const TraceProfileFit &fit = *measured_fit_;
    QStringList notes;
    for (const std::string &n : fit.notes)
        notes << QString::fromStdString(n);
    QString report =
        tr("Wrote %1 from the traces: %2 collective sample(s), %3 GEMM sample(s), %4 launch "
           "sample(s), each figure marked as coming from a trace. Applied to the scenario: "
           "the Calibration tab says what it changed.")
            .arg(QFileInfo(target).fileName())
            .arg(fit.collective_samples)
            .arg(fit.gemm_samples)
            .arg(fit.launch_samples);
    if (!notes.isEmpty())
        report += QLatin1Char(' ') + tr("Not fitted: %1.").arg(notes.join(QStringLiteral("; ")));
    applyCalibration(target);
    // Said only once the scenario holds it (a profile of another GPU can be refused).
    const bool applied =
        QString::fromStdString(ctx_.document->scenario().hardware.calibration_path) ==
        QFileInfo(target).absoluteFilePath();
    if (!applied)
        report = tr("Wrote %1 from the traces, but it was not applied (see the message).")
                     .arg(QFileInfo(target).fileName());
    measured_view_->setFitReport(report);
    return applied;
}

} // namespace scalescope
