// The main window's measured run (issue 28, item 3): File > Open measured trace reads
// PyTorch profiler (Kineto) traces, one per rank, on a worker thread with progress and
// cancel, and draws their measured rows (analysis/measured_timeline.h) in a timeline below
// the predicted one, on one time axis from a step start.
#include "main_window_p.h"
#include "plain_message.h"

#include "analysis/measured_run.h"
#include "analysis/measured_timeline.h"
#include "io/kineto_trace.h"

#include <QFileDialog>
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
    QString error;
    bool cancelled = false;
};

MeasuredLoad loadTraces(const QStringList &files, const std::atomic<bool> *cancel,
                        std::atomic<int64_t> *done, std::atomic<int64_t> *total)
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
    load.timeline = std::make_shared<const Timeline>(measuredTimeline(pointers, ranks));
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
    if (!files.isEmpty())
        openMeasuredTraces(files);
}

bool MainWindow::openMeasuredTraces(const QStringList &files)
{
    std::atomic<bool> cancel{false};
    std::atomic<int64_t> done{0}, total{0};
    MeasuredLoad load;
    QThread *worker = QThread::create([&] { load = loadTraces(files, &cancel, &done, &total); });
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
    const MeasuredRun &run = *load.run;
    measured_timeline_->setTimeline(measured_);
    QStringList rank_numbers;
    for (const MeasuredRank &r : load.ranks)
        rank_numbers.append(QString::number(r.rank));
    measured_timeline_->setTitle(
        tr("Measured: ranks %1, %2, median step %3 ms (compute %4 ms, exposed communication "
           "%5 ms, idle %6 ms)")
            .arg(rank_numbers.join(QStringLiteral(", ")),
                 run.gpu ? QString::fromStdString(*run.gpu) : tr("GPU not named"))
            .arg(run.median.step_time_s * 1e3, 0, 'f', 2)
            .arg(run.median.compute_s * 1e3, 0, 'f', 2)
            .arg(run.median.communication_exposed_s * 1e3, 0, 'f', 2)
            .arg(run.median.idle_s * 1e3, 0, 'f', 2));
    measured_timeline_->setVisible(true);
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
    measured_timeline_->setTimeline(nullptr);
    measured_timeline_->setVisible(false);
}

} // namespace scalescope
