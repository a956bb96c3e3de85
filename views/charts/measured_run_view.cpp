#include "charts/measured_run_view.h"

#include "charts/chart_common.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{
// The figures drawn, in the order of compareFigures (copies are left out: the model has
// none, and the sentence still names them when they matter).
constexpr const char *kDrawn[] = {"step_time_s", "compute", "communication",
                                  "communication_exposed", "idle"};

QString figureName(const char *name)
{
    const QLatin1String n(name);
    if (n == QLatin1String("step_time_s"))
        return MeasuredRunView::tr("step time");
    if (n == QLatin1String("compute"))
        return MeasuredRunView::tr("compute");
    if (n == QLatin1String("communication"))
        return MeasuredRunView::tr("communication");
    if (n == QLatin1String("communication_exposed"))
        return MeasuredRunView::tr("exposed communication");
    if (n == QLatin1String("copies"))
        return MeasuredRunView::tr("copies");
    return MeasuredRunView::tr("idle");
}

QString milliseconds(double s)
{
    return MeasuredRunView::tr("%1 ms").arg(QLocale().toString(s * 1e3, 'f', s < 0.01 ? 3 : 1));
}

QString ratioText(double r)
{
    return QLocale().toString(r, 'f', r < 10 ? 2 : 1);
}
} // namespace

MeasuredRunView::MeasuredRunView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("measuredRunView"));
    description_ = new QLabel(this);
    description_->setObjectName(QStringLiteral("measuredRunDescription"));
    description_->setWordWrap(true);
    gpu_mismatch_ = new QLabel(this);
    gpu_mismatch_->setObjectName(QStringLiteral("measuredRunGpuMismatch"));
    gpu_mismatch_->setWordWrap(true);
    gpu_mismatch_->setStyleSheet(QStringLiteral("QLabel { color: #c62828; font-weight: bold; }"));
    gpu_mismatch_->setVisible(false);
    empty_ = new QLabel(tr("No measured run. Open PyTorch profiler traces of your job (one per "
                           "rank, .json or .json.gz) with File > Open measured trace, or drop "
                           "them on the window: their step is drawn under the predicted one "
                           "and compared with it here."),
                        this);
    empty_->setObjectName(QStringLiteral("measuredRunEmpty"));
    empty_->setWordWrap(true);
    // With no run loaded the labels share the page: this one and the track record below it
    // meet in the middle, one paragraph after the other.
    empty_->setAlignment(Qt::AlignLeft | Qt::AlignBottom);
    open_ = new QPushButton(tr("Open measured trace…"), this);
    open_->setObjectName(QStringLiteral("measuredRunOpen"));
    connect(open_, &QPushButton::clicked, this, &MeasuredRunView::openRequested);

    chart_ = makeChart();
    setChartTitles(chart_, tr("Measured step against the model's prediction"),
                   tr("Measured vs predicted"));
    // Horizontal bars: the figures' names read in full on the left at any width.
    auto *series = new QHorizontalBarSeries(chart_);
    series->setObjectName(QStringLiteral("measuredRunBars"));
    measured_set_ = new QBarSet(tr("Measured (median over steps and ranks)"), series);
    predicted_set_ = new QBarSet(tr("Predicted by the model"), series);
    measured_set_->setColor(QColor(0x55, 0x55, 0x55));
    predicted_set_->setColor(QColor(0x1f, 0x77, 0xb4));
    series->append(measured_set_);
    series->append(predicted_set_);
    chart_->addSeries(series);
    x_ = new QBarCategoryAxis;
    // Categories run bottom-up in a horizontal series: listed in reverse, step time on top.
    QStringList names;
    for (const char *n : kDrawn)
        names.prepend(figureName(n));
    x_->append(names);
    y_ = new QValueAxis;
    y_->setLabelFormat(QStringLiteral("%g"));
    y_->setTitleText(tr("ms per step"));
    chart_->addAxis(x_, Qt::AlignLeft);
    chart_->addAxis(y_, Qt::AlignBottom);
    series->attachAxis(x_);
    series->attachAxis(y_);
    chart_view_ = new QChartView(chart_, this);
    chart_view_->setObjectName(QStringLiteral("measuredRunChart"));
    chart_view_->setRenderHint(QPainter::Antialiasing);
    // Five categories, each a line of its label: in a CJK font (taller lines) Qt Charts elides
    // a category label to "..." once the plot gives it less than a line; 280 px leave each
    // category room at 1280 x 720 in both languages.
    chart_view_->setMinimumHeight(280);

    disagreement_ = new QLabel(this);
    disagreement_->setObjectName(QStringLiteral("measuredRunDisagreement"));
    disagreement_->setWordWrap(true);
    spread_ = new QLabel(this);
    spread_->setObjectName(QStringLiteral("measuredRunSpread"));
    spread_->setWordWrap(true);
    track_record_ = new QLabel(this);
    track_record_->setObjectName(QStringLiteral("measuredRunTrackRecord"));
    track_record_->setWordWrap(true);
    track_record_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    track_record_->setVisible(false);
    critical_ = new QLabel(this);
    critical_->setObjectName(QStringLiteral("measuredRunCriticalPath"));
    critical_->setWordWrap(true);
    critical_->setVisible(false);
    fit_ = new QPushButton(tr("Fit the model to this run"), this);
    fit_->setObjectName(QStringLiteral("measuredRunFit"));
    fit_->setToolTip(tr("Writes a calibration profile fitted from the traces (collective "
                        "bandwidth by size, GEMM throughput where shapes were recorded, the "
                        "host's launch time), applies it and says what changed"));
    connect(fit_, &QPushButton::clicked, this, &MeasuredRunView::fitRequested);
    fit_report_ = new QLabel(this);
    fit_report_->setObjectName(QStringLiteral("measuredRunFitReport"));
    fit_report_->setWordWrap(true);
    fit_report_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(fit_);
    buttons->addWidget(open_);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(description_);
    layout->addWidget(gpu_mismatch_);
    layout->addWidget(spread_);
    layout->addWidget(empty_);
    layout->addWidget(chart_view_, 1);
    layout->addWidget(disagreement_);
    layout->addWidget(track_record_);
    layout->addWidget(critical_);
    layout->addLayout(buttons);
    layout->addWidget(fit_report_);
    refresh();
}

void MeasuredRunView::setMeasured(const std::optional<StepFigures> &measured,
                                  const QString &description)
{
    measured_ = measured;
    description_->setText(description);
    refresh();
}

void MeasuredRunView::setPredicted(const std::optional<StepFigures> &predicted)
{
    predicted_ = predicted;
    refresh();
}

void MeasuredRunView::setFitReport(const QString &text)
{
    fit_report_->setText(text);
    fit_report_->setVisible(!text.isEmpty());
}

namespace
{
QString pathPartWords(PathPart part)
{
    switch (part) {
    case PathPart::Compute:
        return MeasuredRunView::tr("compute");
    case PathPart::Communication:
        return MeasuredRunView::tr("communication");
    case PathPart::Copy:
        return MeasuredRunView::tr("copies");
    case PathPart::Host:
        return MeasuredRunView::tr("host");
    case PathPart::LaunchGap:
        return MeasuredRunView::tr("launch gaps");
    case PathPart::Untraced:
        return MeasuredRunView::tr("untraced");
    }
    return QString();
}
} // namespace

void MeasuredRunView::setCriticalPath(const std::optional<MeasuredCriticalPath> &path, int64_t rank)
{
    const double span = path ? (path->end_us - path->start_us) * 1e-6 : 0;
    if (!path || span <= 0) {
        critical_->clear();
        critical_->setVisible(false);
        return;
    }
    // Parts largest first, as the CLI's sentence names them.
    const std::vector<PathPart> parts = partsBySize(*path);
    QStringList words;
    for (PathPart part : parts)
        words << tr("%1 %2%").arg(
            pathPartWords(part),
            QLocale().toString(100.0 * path->seconds[static_cast<size_t>(part)] / span, 'f', 1));
    QString text = tr("Critical path of step %1 (rank %2, %3): %4. It is drawn on the measured "
                      "rows of the timeline.")
                       .arg(path->step)
                       .arg(rank)
                       .arg(milliseconds(span), words.join(tr(", ")));
    if (!parts.empty() && parts.front() == PathPart::Host)
        text += QLatin1Char(' ') +
                tr("Host: the launching thread in and between its CUDA calls (Python, the "
                   "framework, the data loader); the GPU waited for it.");
    if (path->waitsInferred())
        text += QLatin1Char(' ') + tr("Waits between streams are inferred from timing: the "
                                      "trace records no cuda_sync events.");
    critical_->setText(text);
    critical_->setVisible(true);
}

void MeasuredRunView::setPredictedSpread(const std::optional<StepSpread> &spread)
{
    spread_figures_ = spread;
    refresh();
}

void MeasuredRunView::setGpuMismatch(const QString &sentence)
{
    gpu_mismatch_->setText(sentence);
    refresh();
}

QString MeasuredRunView::gpuMismatchText() const
{
    return gpu_mismatch_->text();
}

void MeasuredRunView::setTrackRecord(const QString &sentence)
{
    track_record_->setText(sentence);
    track_record_->setVisible(!sentence.isEmpty());
}

QString MeasuredRunView::trackRecordText() const
{
    return track_record_->text();
}

QString MeasuredRunView::spreadText() const
{
    return spread_->text();
}

QString MeasuredRunView::criticalPathText() const
{
    return critical_->text();
}

QString MeasuredRunView::disagreementText() const
{
    return disagreement_->text();
}

QString MeasuredRunView::fitReport() const
{
    return fit_report_->text();
}

QList<qreal> MeasuredRunView::measuredBars() const
{
    QList<qreal> v;
    for (int i = 0; i < measured_set_->count(); ++i)
        v << measured_set_->at(i);
    return v;
}

QList<qreal> MeasuredRunView::predictedBars() const
{
    QList<qreal> v;
    for (int i = 0; i < predicted_set_->count(); ++i)
        v << predicted_set_->at(i);
    return v;
}

void MeasuredRunView::refresh()
{
    const bool have = measured_.has_value();
    empty_->setVisible(!have);
    description_->setVisible(have);
    gpu_mismatch_->setVisible(have && !gpu_mismatch_->text().isEmpty());
    chart_view_->setVisible(have);
    disagreement_->setVisible(have);
    fit_->setVisible(have);
    fit_report_->setVisible(have && !fit_report_->text().isEmpty());
    // The model's steps beside the measured steps' range (issue 28, item 5).
    if (have && spread_figures_ && spread_figures_->steps > 1)
        spread_->setText(tr("The model's steps (%1 simulated): P50 %2, P90 %3, P99 %4.")
                             .arg(spread_figures_->steps)
                             .arg(milliseconds(spread_figures_->p50_s),
                                  milliseconds(spread_figures_->p90_s),
                                  milliseconds(spread_figures_->p99_s)));
    else if (have && spread_figures_)
        spread_->setText(tr("The model's steps do not vary (no jitter, straggler, data loader "
                            "or throttling over time): each takes %1.")
                             .arg(milliseconds(spread_figures_->p50_s)));
    else
        spread_->clear();
    spread_->setVisible(!spread_->text().isEmpty());
    measured_set_->remove(0, measured_set_->count());
    predicted_set_->remove(0, predicted_set_->count());
    if (!have) {
        disagreement_->clear();
        return;
    }
    const StepFigures none;
    const std::vector<StepComparison> figures =
        compareFigures(*measured_, predicted_ ? *predicted_ : none);
    double top = 0;
    for (auto it = std::rbegin(kDrawn); it != std::rend(kDrawn); ++it)
        for (const StepComparison &c : figures)
            if (QLatin1String(c.name) == QLatin1String(*it)) {
                measured_set_->append(c.measured * 1e3);
                predicted_set_->append(predicted_ ? c.predicted * 1e3 : 0.0);
                top = std::max({top, c.measured * 1e3, predicted_ ? c.predicted * 1e3 : 0.0});
            }
    y_->setRange(0, top > 0 ? top * 1.1 : 1.0);
    y_->applyNiceNumbers();
    if (!predicted_) {
        disagreement_->setText(tr("The model's prediction of this step is not computed yet."));
        return;
    }
    const auto worst = largestDisagreement(figures, measured_->step_time_s);
    if (!worst) {
        disagreement_->setText(tr("No figure of the step to compare."));
        return;
    }
    const QString name = figureName(worst->name);
    switch (disagreementOf(*worst)) {
    case Disagreement::MeasuredMore:
        disagreement_->setText(
            tr("The largest disagreement is %1: measured %2, %3 times the model's %4.")
                .arg(name, milliseconds(worst->measured), ratioText(*worst->ratio),
                     milliseconds(worst->predicted)));
        break;
    case Disagreement::PredictedMore:
        disagreement_->setText(
            tr("The largest disagreement is %1: the model predicts %2, %3 times the measured "
               "%4.")
                .arg(name, milliseconds(worst->predicted), ratioText(1.0 / *worst->ratio),
                     milliseconds(worst->measured)));
        break;
    case Disagreement::MeasuredNone:
        disagreement_->setText(
            tr("The largest disagreement is %1: the model predicts %2, the run measured none.")
                .arg(name, milliseconds(worst->predicted)));
        break;
    case Disagreement::NotPredicted:
        disagreement_->setText(
            tr("The largest disagreement is %1: measured %2, which the model does not predict "
               "at all.")
                .arg(name, milliseconds(worst->measured)));
        break;
    }
}

} // namespace scalescope
