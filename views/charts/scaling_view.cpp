// The Scaling tab (scaling_view.h). About 700 lines on purpose: one widget whose speed-up,
// efficiency and loss charts share the sweep's series, log axes and tooltips.
#include "charts/scaling_view.h"

#include "analysis/format.h"

#include "charts/chart_common.h"
#include "model_text.h"
#include "palette.h"

#include <QBarCategoryAxis>
#include <QBarLegendMarker>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QStackedWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <optional>

namespace scalescope
{

namespace
{

constexpr int kMinChartWidth = 180;
constexpr double kLogPadding = 1.25;         // range padding factor of the log axes
const QColor kOutOfMemory(0xc6, 0x28, 0x28); // as the memory view's over-capacity red

QLineSeries *addLine(QChart *chart, const QString &object_name, const QColor &color,
                     Qt::PenStyle style, double width)
{
    auto *series = new QLineSeries(chart);
    series->setObjectName(object_name);
    QPen pen(color);
    pen.setStyle(style);
    pen.setWidthF(width);
    series->setPen(pen);
    chart->addSeries(series);
    return series;
}

QScatterSeries *addHighlight(QChart *chart, const QString &object_name)
{
    auto *series = new QScatterSeries(chart);
    series->setObjectName(object_name);
    series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    series->setMarkerSize(18);
    series->setBrush(Qt::NoBrush);
    series->setPen(QPen(Qt::black, 2.5));
    chart->addSeries(series);
    return series;
}

/// Red rings on the sweep points whose run does not fit in memory.
QScatterSeries *addOutOfMemory(QChart *chart, const QString &object_name)
{
    auto *series = new QScatterSeries(chart);
    series->setObjectName(object_name);
    series->setName(ScalingView::tr("Does not fit in memory"));
    series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    series->setMarkerSize(13);
    QColor fill = kOutOfMemory;
    fill.setAlpha(70);
    series->setBrush(fill);
    series->setPen(QPen(kOutOfMemory, 2.5));
    series->setVisible(false);
    chart->addSeries(series);
    return series;
}

/// Labels of a vertical axis whose ticks may all be one digit ("1", "2", "4"): a space after
/// each (ASCII: Qt Charts formats labels through Latin-1). Qt Charts sizes such an axis from
/// its widest label but leaves its title the axis' width less the width of "...", so
/// one-digit labels left a title in a CJK font (a taller line than Latin) no room: it was
/// drawn as a vertical "..." (issue 26, slides 22-24).
const QString kNarrowLabelFormat = QStringLiteral("%g ");

/// Filled circles on the sweep points the engine simulated (every GPU's step).
QScatterSeries *addSimulatedPoints(QChart *chart, const QString &object_name)
{
    auto *series = new QScatterSeries(chart);
    series->setObjectName(object_name);
    series->setName(ScalingView::tr("Simulated by the engine"));
    series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    series->setMarkerSize(9);
    series->setBrush(kindColor(SegmentKind::Compute));
    series->setPen(QPen(kindColor(SegmentKind::Compute).darker(130), 1));
    chart->addSeries(series);
    return series;
}

/// Hollow squares on the sweep points the closed form answered (beyond the engine's size).
QScatterSeries *addClosedForm(QChart *chart, const QString &object_name)
{
    auto *series = new QScatterSeries(chart);
    series->setObjectName(object_name);
    series->setName(ScalingView::tr("Closed form (estimate: too large for the engine)"));
    series->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    series->setMarkerSize(11);
    series->setBrush(Qt::white);
    series->setPen(QPen(kindColor(SegmentKind::Compute), 2));
    series->setVisible(false);
    chart->addSeries(series);
    return series;
}

QLogValueAxis *makeGpuAxis()
{
    auto *axis = new QLogValueAxis;
    axis->setBase(2);
    axis->setLabelFormat(QStringLiteral("%g"));
    // The short title still says the scale (issue 26: at 1280 px the axis read "GPUs").
    setAxisTitles(axis, ScalingView::tr("GPUs (log scale)"), ScalingView::tr("GPUs (log)"));
    axis->setMinorTickCount(0);
    return axis;
}

void attach(QChart *chart, QAbstractAxis *x, QAbstractAxis *y)
{
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const auto series = chart->series();
    for (QAbstractSeries *s : series) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
}

/// Integer GPU counts spread evenly on a log scale over [lo, hi], for smooth curves.
std::vector<int> curveSamples(int lo, int hi)
{
    std::vector<int> out;
    constexpr int kSamples = 64;
    const double log_lo = std::log(double(lo)), log_hi = std::log(double(hi));
    for (int i = 0; i <= kSamples; ++i) {
        const int n = int(std::lround(std::exp(log_lo + (log_hi - log_lo) * i / kSamples)));
        if (out.empty() || n > out.back())
            out.push_back(n);
    }
    return out;
}

QString percent(double fraction, int decimals = 1)
{
    return QLocale().toString(fraction * 100.0, 'f', decimals);
}

} // namespace

ScalingView::ScalingView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("scalingView"));

    auto *mode_label = new QLabel(tr("&Scaling:"), this);
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("scalingMode"));
    mode_->addItem(tr("Strong (same global batch)"), int(Scaling::Strong));
    mode_->addItem(tr("Weak (same batch per replica)"), int(Scaling::Weak));
    mode_->setToolTip(tr("Strong scaling spreads a fixed global batch over more GPUs; weak "
                         "scaling grows the global batch with the GPU count."));
    mode_label->setBuddy(mode_);
    connect(mode_, &QComboBox::currentIndexChanged, this,
            [this](int) { Q_EMIT scalingModeChanged(scalingMode()); });

    fit_label_ = new QLabel(this);
    fit_label_->setTextFormat(Qt::PlainText);
    fit_label_->setObjectName(QStringLiteral("amdahlLabel"));
    fit_label_->setWordWrap(true);
    fit_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    reference_note_ = new QLabel(this);
    reference_note_->setTextFormat(Qt::PlainText);
    reference_note_->setObjectName(QStringLiteral("speedupReferenceNote"));
    reference_note_->setWordWrap(true);
    reference_note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    reference_note_->setStyleSheet(
        QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(kOutOfMemory.name()));
    reference_note_->hide();

    // How the sweep grows the cluster (the scenario's nodes, or full nodes first): said on
    // the chart, chosen by the user, never taken silently from the GPU-count slider.
    auto *shape_label = new QLabel(tr("&Cluster:"), this);
    shape_ = new QComboBox(this);
    shape_->setObjectName(QStringLiteral("sweepShape"));
    // Its texts are long: it may shrink (eliding) rather than widen the page past 1280 px.
    shape_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    shape_->setMinimumContentsLength(12);
    shape_->addItem(QString(), 0);
    shape_->addItem(QString(), kFullNodeGpus);
    shape_->setToolTip(tr("How the sweep reaches each GPU count: more nodes of the scenario's "
                          "size, or nodes of %1 GPUs filled before another is added")
                           .arg(kFullNodeGpus));
    shape_label->setBuddy(shape_);
    updateShapeTexts(1);
    connect(shape_, &QComboBox::currentIndexChanged, this,
            [this](int) { Q_EMIT sweepShapeChanged(shape_->currentData().toInt()); });

    auto *top = new QHBoxLayout;
    top->addWidget(mode_label);
    top->addWidget(mode_);
    top->addSpacing(12);
    top->addWidget(shape_label);
    top->addWidget(shape_, 1);

    // Speed-up chart: log-log, so the ideal line is the diagonal.
    speedup_chart_ = makeChart(tr("Speed-up"));
    ideal_ =
        addLine(speedup_chart_, QStringLiteral("idealSpeedup"), Qt::darkGray, Qt::DashLine, 1.5);
    ideal_->setName(tr("Ideal"));
    amdahl_ = addLine(speedup_chart_, QStringLiteral("amdahlFit"), QColor(0xd5, 0x5e, 0x00),
                      Qt::DashDotLine, 2);
    gustafson_ = addLine(speedup_chart_, QStringLiteral("gustafson"), QColor(0x00, 0x9e, 0x73),
                         Qt::DotLine, 2.5);
    speedup_ = addLine(speedup_chart_, QStringLiteral("speedup"), kindColor(SegmentKind::Compute),
                       Qt::SolidLine, 2.5);
    speedup_->setName(tr("Speed-up"));
    // The points say how each was computed: filled by the engine, hollow by the closed form
    // (issue 26: the line's own points, under a legend entry "Simulated", covered both).
    speedup_sim_ = addSimulatedPoints(speedup_chart_, QStringLiteral("speedupSimulated"));
    current_speedup_ = addHighlight(speedup_chart_, QStringLiteral("currentSpeedup"));
    speedup_oom_ = addOutOfMemory(speedup_chart_, QStringLiteral("speedupOutOfMemory"));
    speedup_cf_ = addClosedForm(speedup_chart_, QStringLiteral("speedupClosedForm"));
    speedup_x_ = makeGpuAxis();
    speedup_y_ = new QLogValueAxis;
    speedup_y_->setBase(2);
    speedup_y_->setLabelFormat(kNarrowLabelFormat);
    speedup_y_->setMinorTickCount(0);
    setAxisTitles(speedup_y_, tr("Speed-up (×, log scale)"), tr("Speed-up (×, log)"));
    attach(speedup_chart_, speedup_x_, speedup_y_);
    speedup_view_ = new QChartView(speedup_chart_, this);
    speedup_view_->setObjectName(QStringLiteral("speedupChart"));
    speedup_view_->setRenderHint(QPainter::Antialiasing);
    speedup_view_->setMinimumSize(kMinChartWidth, 200);

    // Efficiency chart: linear percentage against log GPU count.
    efficiency_chart_ = makeChart();
    setChartTitles(efficiency_chart_, tr("Scaling efficiency"), tr("Efficiency"));
    ideal_efficiency_ = addLine(efficiency_chart_, QStringLiteral("idealEfficiency"), Qt::darkGray,
                                Qt::DashLine, 1.5);
    ideal_efficiency_->setName(tr("Ideal"));
    efficiency_ = addLine(efficiency_chart_, QStringLiteral("efficiency"),
                          kindColor(SegmentKind::Compute), Qt::SolidLine, 2.5);
    efficiency_->setName(tr("Efficiency"));
    efficiency_sim_ = addSimulatedPoints(efficiency_chart_, QStringLiteral("efficiencySimulated"));
    current_efficiency_ = addHighlight(efficiency_chart_, QStringLiteral("currentEfficiency"));
    efficiency_oom_ = addOutOfMemory(efficiency_chart_, QStringLiteral("efficiencyOutOfMemory"));
    efficiency_cf_ = addClosedForm(efficiency_chart_, QStringLiteral("efficiencyClosedForm"));
    efficiency_x_ = makeGpuAxis();
    efficiency_y_ = new QValueAxis;
    efficiency_y_->setLabelFormat(QStringLiteral("%.0f"));
    efficiency_y_->setTitleText(tr("Efficiency (%)"));
    attach(efficiency_chart_, efficiency_x_, efficiency_y_);
    efficiency_view_ = new QChartView(efficiency_chart_, this);
    efficiency_view_->setObjectName(QStringLiteral("efficiencyChart"));
    efficiency_view_->setRenderHint(QPainter::Antialiasing);
    efficiency_view_->setMinimumSize(kMinChartWidth, 200);

    for (QXYSeries *s : std::initializer_list<QXYSeries *>{speedup_, efficiency_, speedup_sim_,
                                                          efficiency_sim_, speedup_cf_,
                                                          efficiency_cf_})
        connect(s, &QXYSeries::hovered, this, &ScalingView::showPointToolTip);

    // Where the missing speed-up went: achieved speed-up, then the losses by cause.
    loss_chart_ = makeChart();
    setChartTitles(loss_chart_, tr("Where the missing speed-up went"), tr("Missing speed-up"));
    loss_series_ = new QStackedBarSeries(loss_chart_);
    loss_series_->setObjectName(QStringLiteral("speedupLossBars"));
    achieved_set_ = new QBarSet(tr("Achieved speed-up"), loss_series_);
    achieved_set_->setObjectName(QStringLiteral("achievedSpeedup"));
    achieved_set_->setColor(kindColor(SegmentKind::Compute));
    achieved_set_->setBorderColor(kindColor(SegmentKind::Compute).darker(130));
    loss_series_->append(achieved_set_);
    for (int i = 0; i < kSpeedupLossCount; ++i) {
        const auto loss = SpeedupLoss(i);
        auto *set = new QBarSet(speedupLossLabel(loss), loss_series_);
        set->setObjectName(QString::fromLatin1(speedupLossName(loss)));
        set->setColor(speedupLossColor(loss));
        set->setBorderColor(speedupLossColor(loss).darker(130));
        loss_sets_[size_t(i)] = set;
        loss_series_->append(set);
    }
    loss_chart_->addSeries(loss_series_);
    loss_x_ = new QBarCategoryAxis;
    loss_x_->setTitleText(tr("GPUs"));
    loss_y_ = new QValueAxis;
    loss_y_->setLabelFormat(kNarrowLabelFormat);
    setAxisTitles(loss_y_, tr("Speed-up and lost speed-up (GPUs)"), tr("Speed-up (GPUs)"));
    attach(loss_chart_, loss_x_, loss_y_);
    loss_view_ = new QChartView(loss_chart_, this);
    loss_view_->setObjectName(QStringLiteral("speedupLossChart"));
    loss_view_->setRenderHint(QPainter::Antialiasing);
    loss_view_->setMinimumSize(kMinChartWidth, 200);
    connect(loss_series_, &QStackedBarSeries::hovered, this, &ScalingView::showLossToolTip);

    auto *charts = new QWidget(this);
    panels_ = new QHBoxLayout(charts);
    panels_->setContentsMargins(0, 0, 0, 0);
    // Legends as wrapping text under each chart: nine causes of lost speed-up do not fit
    // in a chart's own legend at a third of the window's width.
    panels_->addWidget(withWrappingLegend(speedup_view_), 1);
    panels_->addWidget(withWrappingLegend(efficiency_view_), 1);
    panels_->addWidget(withWrappingLegend(loss_view_), 1);

    message_ = makeEmptyStateLabel(this);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(message_);
    stack_->addWidget(charts);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(fit_label_);
    layout->addWidget(reference_note_);
    layout->addWidget(stack_, 1);

    applyChartFonts(speedup_chart_, font());
    applyChartFonts(efficiency_chart_, font());
    applyChartFonts(loss_chart_, font());
    setResult(nullptr);
}

Scaling ScalingView::scalingMode() const
{
    return Scaling(mode_->currentData().toInt());
}

void ScalingView::setScalingMode(Scaling mode)
{
    mode_->setCurrentIndex(mode_->findData(int(mode)));
}

void ScalingView::addPanel(QWidget *panel, int stretch)
{
    panels_->addWidget(panel, stretch);
}

void ScalingView::setResult(const ResultPtr &result)
{
    result_ = result;
    if (result_) {
        const QSignalBlocker block(mode_);
        mode_->setCurrentIndex(mode_->findData(int(result_->scaling)));
        const QSignalBlocker block_shape(shape_);
        updateShapeTexts(result_->scenario.hardware.gpus_per_node);
        shape_->setCurrentIndex(std::max(0, shape_->findData(result_->sweep_node_gpus)));
    }
    updateCharts();
}

void ScalingView::updateShapeTexts(int scenario_gpus_per_node)
{
    shape_->setItemText(
        0, tr("add nodes like the scenario's (GPUs per node: %1)").arg(scenario_gpus_per_node));
    shape_->setItemText(1, tr("fill nodes of %1 GPUs first").arg(kFullNodeGpus));
}

void ScalingView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange) {
        applyChartFonts(speedup_chart_, font());
        applyChartFonts(efficiency_chart_, font());
        applyChartFonts(loss_chart_, font());
    }
    QWidget::changeEvent(event);
}

void ScalingView::updateCharts()
{
    QString message = emptyStateMessage(result_);
    std::vector<const SweepRow *> rows;
    if (message.isEmpty()) {
        for (const SweepRow &row : result_->sweep())
            // Counted from the fewest GPUs that fit (SpeedupReference), counts below them
            // have no speed-up: they cannot start (the Memory tab shows why).
            if (row.gpus > 0 && row.summary.speedup > 0 && row.gpus >= result_->reference().gpus)
                rows.push_back(&row);
        if (rows.empty())
            message = tr("No scaling sweep for this scenario.");
    }
    if (!message.isEmpty()) {
        message_->setText(message);
        fit_label_->clear();
        reference_note_->clear();
        reference_note_->hide();
        stack_->setCurrentWidget(message_);
        for (QXYSeries *s : std::initializer_list<QXYSeries *>{
                 speedup_, ideal_, amdahl_, gustafson_, current_speedup_, efficiency_,
                 ideal_efficiency_, current_efficiency_, speedup_oom_, efficiency_oom_, speedup_cf_,
                 efficiency_cf_, speedup_sim_, efficiency_sim_})
            s->clear();
        speedup_oom_->setVisible(false);
        efficiency_oom_->setVisible(false);
        speedup_cf_->setVisible(false);
        efficiency_cf_->setVisible(false);
        loss_rows_.clear();
        oom_gpus_.clear();
        updateLossChart();
        refreshWrappingLegend(speedup_view_);
        refreshWrappingLegend(efficiency_view_);
        return;
    }
    std::sort(rows.begin(), rows.end(),
              [](const SweepRow *a, const SweepRow *b) { return a->gpus < b->gpus; });
    const Summary &now = result_->summary();
    const bool weak = result_->scaling == Scaling::Weak;

    QList<QPointF> speedup, ideal, efficiency, ideal_efficiency, speedup_oom, efficiency_oom,
        speedup_cf, efficiency_cf, speedup_sim, efficiency_sim;
    int lo = rows.front()->gpus, hi = rows.back()->gpus;
    double speedup_lo = 1, speedup_hi = 1, efficiency_hi = 100;
    double simulated_hi = 0; // highest speed-up of the simulated curve (and current point)
    // The evaluation's reference (analysis/speedup_reference.h): when one GPU cannot hold
    // the model, how much faster than the fewest that fit (N0), against an ideal of N / N0,
    // the figures of the status bar and the CLI.
    const SpeedupReference &ref = result_->reference();
    const auto shown = [&ref](double speedup_vs_one) { return ref.faster(speedup_vs_one); };
    oom_gpus_.clear();
    // Over the capacity by less than the model's memory error a run may still fit
    // (analysis/memory.h): the rings' legend says which kind of "over" it draws.
    bool any_over = false, any_maybe = false;
    const auto over = [&](const MemoryBreakdown &m) {
        any_maybe |= m.mayNotFit();
        any_over |= !m.mayNotFit();
    };
    for (const SweepRow *row : rows) {
        const double row_speedup = shown(row->summary.speedup);
        const double eff_pct = ref.efficiencyOf(row->summary.speedup, row->gpus) * 100.0;
        speedup.append(QPointF(row->gpus, row_speedup));
        ideal.append(QPointF(row->gpus, ref.ideal(row->gpus)));
        efficiency.append(QPointF(row->gpus, eff_pct));
        ideal_efficiency.append(QPointF(row->gpus, 100.0));
        simulated_hi = std::max(simulated_hi, row_speedup);
        (row->closed_form ? speedup_cf : speedup_sim).append(speedup.back());
        (row->closed_form ? efficiency_cf : efficiency_sim).append(efficiency.back());
        if (exceedsCapacity(row->summary.memory)) {
            speedup_oom.append(speedup.back());
            efficiency_oom.append(efficiency.back());
            oom_gpus_.push_back(row->gpus);
            over(row->summary.memory);
        }
        speedup_lo = std::min({speedup_lo, row_speedup, ref.ideal(row->gpus)});
        speedup_hi = std::max({speedup_hi, row_speedup, ref.ideal(row->gpus)});
        efficiency_hi = std::max(efficiency_hi, eff_pct);
    }
    speedup_->replace(speedup);
    ideal_->replace(ideal);
    efficiency_->replace(efficiency);
    ideal_efficiency_->replace(ideal_efficiency);
    speedup_cf_->replace(speedup_cf);
    efficiency_cf_->replace(efficiency_cf);
    speedup_cf_->setVisible(!speedup_cf.isEmpty());
    efficiency_cf_->setVisible(!efficiency_cf.isEmpty());
    speedup_sim_->replace(speedup_sim);
    efficiency_sim_->replace(efficiency_sim);
    speedup_sim_->setVisible(!speedup_sim.isEmpty());
    efficiency_sim_->setVisible(!efficiency_sim.isEmpty());

    // The current scenario, from its own summary (it need not be one of the sweep counts).
    QList<QPointF> current_speedup, current_efficiency;
    if (now.gpus > 0 && now.speedup > 0) {
        // One GPU is 1x and 100% whatever the reference (spec/cli.md).
        const double now_speedup = now.gpus == 1 ? now.speedup : shown(now.speedup);
        const double now_eff =
            now.gpus == 1 ? now.scaling_efficiency * 100.0
                          : ref.efficiencyOf(now.speedup, now.gpus) * 100.0;
        current_speedup.append(QPointF(now.gpus, now_speedup));
        current_efficiency.append(QPointF(now.gpus, now_eff));
        lo = std::min(lo, now.gpus);
        hi = std::max(hi, now.gpus);
        speedup_lo = std::min(speedup_lo, now_speedup);
        speedup_hi = std::max(speedup_hi, now_speedup);
        simulated_hi = std::max(simulated_hi, now_speedup);
        efficiency_hi = std::max(efficiency_hi, now_eff);
    }
    // A current run that does not fit in memory is drawn as the sweep's points that do not
    // fit: a red ring, never as if it ran (issue 26).
    const bool current_oom = !current_speedup.isEmpty() && exceedsCapacity(now.memory);
    if (current_oom && std::find(oom_gpus_.begin(), oom_gpus_.end(), now.gpus) == oom_gpus_.end()) {
        speedup_oom.append(current_speedup.front());
        efficiency_oom.append(current_efficiency.front());
        oom_gpus_.push_back(now.gpus);
        over(now.memory);
    }
    const QString oom_name = any_maybe && !any_over ? tr("May not fit in memory")
                             : any_maybe            ? tr("Does not fit / may not fit")
                                                    : tr("Does not fit in memory");
    speedup_oom_->setName(oom_name);
    efficiency_oom_->setName(oom_name);
    for (QScatterSeries *current : {current_speedup_, current_efficiency_})
        current->setPen(QPen(current_oom ? kOutOfMemory : QColor(Qt::black), 2.5));
    speedup_oom_->replace(speedup_oom);
    efficiency_oom_->replace(efficiency_oom);
    speedup_oom_->setVisible(!speedup_oom.isEmpty());
    efficiency_oom_->setVisible(!efficiency_oom.isEmpty());
    current_speedup_->replace(current_speedup);
    current_efficiency_->replace(current_efficiency);
    current_speedup_->setName(tr("N = %1").arg(now.gpus));
    current_efficiency_->setName(current_speedup_->name());

    // Amdahl's and Gustafson's laws count from one GPU (S(1) = 1): with another reference
    // they are not drawn, and the label says why.
    const AmdahlFit &fit = ref.rebased() ? AmdahlFit{} : result_->amdahl();
    // Weak scaling: Gustafson's serial fraction of the same rows (s = (N - S) / (N - 1)).
    std::vector<int> row_gpus;
    std::vector<double> row_speedups;
    for (const SweepRow *row : rows) {
        row_gpus.push_back(row->gpus);
        row_speedups.push_back(row->summary.speedup);
    }
    const bool weak_view = weak && hi > 1 && !ref.rebased();
    const double gustafson_s = weak_view ? gustafsonSerialFraction(row_gpus, row_speedups) : 0.0;
    // Gustafson's line passes the gate Amdahl's fit does (issue 26: it was drawn and quoted
    // without R²): R² of its speed-ups against the simulated ones over the rows beyond one
    // GPU, at least kAmdahlMinPoints of them and R² >= kAmdahlMinRSquared (analysis/scaling.h).
    int gustafson_points = 0;
    double gustafson_r2 = 0;
    if (weak_view) {
        double mean = 0, ss_res = 0, ss_tot = 0;
        std::vector<size_t> used;
        for (size_t i = 0; i < row_gpus.size(); ++i)
            if (row_gpus[i] > 1 && std::isfinite(row_speedups[i]) && row_speedups[i] > 0) {
                used.push_back(i);
                mean += row_speedups[i];
            }
        gustafson_points = int(used.size());
        mean = used.empty() ? 0.0 : mean / double(used.size());
        for (size_t i : used) {
            const double r = row_speedups[i] - gustafsonSpeedup(gustafson_s, row_gpus[i]);
            ss_res += r * r;
            ss_tot += (row_speedups[i] - mean) * (row_speedups[i] - mean);
        }
        gustafson_r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : (ss_res < 1e-12 ? 1.0 : 0.0);
    }
    const bool show_gustafson = weak_view && gustafson_points >= kAmdahlMinPoints &&
                                gustafson_r2 >= kAmdahlMinRSquared;
    QList<QPointF> amdahl, gustafson;
    for (int n : curveSamples(lo, hi)) {
        if (fit.valid)
            amdahl.append(QPointF(n, amdahlSpeedup(fit.serial_fraction, n)));
        if (show_gustafson)
            gustafson.append(QPointF(n, gustafsonSpeedup(gustafson_s, n)));
    }
    for (const QPointF &p : amdahl + gustafson) {
        speedup_lo = std::min(speedup_lo, p.y());
        speedup_hi = std::max(speedup_hi, p.y());
    }
    if (fit.valid)
        amdahl_->setName(tr("Amdahl fit: s = %1 %").arg(percent(fit.serial_fraction)));
    QString text = ref.rebased()
                       ? tr("No Amdahl or Gustafson fit: both laws count from one GPU, and one "
                            "GPU cannot hold this model.")
                       : amdahlText(fit, simulated_hi);
    const QLocale locale;
    const QString r2_text =
        locale.toString(gustafson_r2, 'f', decimalsApart(gustafson_r2, kAmdahlMinRSquared, 3));
    QString gustafson_text;
    if (show_gustafson) {
        gustafson_->setName(tr("Gustafson: s = %1 %").arg(percent(gustafson_s)));
        gustafson_text = tr("Weak scaling: Gustafson serial fraction s = %1 % (scaled speed-up "
                            "N - s (N - 1), the work grows with N; R² = %2 over %3 points).")
                             .arg(percent(gustafson_s), r2_text, locale.toString(gustafson_points));
    } else if (weak_view && gustafson_points < kAmdahlMinPoints) {
        gustafson_text = tr("No Gustafson fit: it needs at least %1 sweep points with more than "
                            "one GPU, this sweep has %2.")
                             .arg(locale.toString(kAmdahlMinPoints),
                                  locale.toString(gustafson_points));
    } else if (weak_view) {
        gustafson_text = tr("No Gustafson fit: Gustafson's law does not describe this curve "
                            "(R² = %1 over %2 points, below %3), so it gives no serial fraction.")
                             .arg(r2_text, locale.toString(gustafson_points),
                                  locale.toString(kAmdahlMinRSquared, 'f', 2));
    }
    if (!gustafson_text.isEmpty())
        text = text.isEmpty() ? gustafson_text : text + QLatin1Char(' ') + gustafson_text;
    fit_label_->setText(text);
    updateReferenceNote();
    amdahl_->replace(amdahl);
    gustafson_->replace(gustafson);
    amdahl_->setVisible(fit.valid);
    gustafson_->setVisible(show_gustafson);

    speedup_x_->setRange(lo / kLogPadding, hi * kLogPadding);
    efficiency_x_->setRange(lo / kLogPadding, hi * kLogPadding);
    speedup_y_->setRange(speedup_lo / kLogPadding, speedup_hi * kLogPadding);
    setZeroBasedRange(efficiency_y_, efficiency_hi * 1.02);
    // Ticks whose labels have room at this size (and again whenever a plot area resizes).
    fitAxisLabels(speedup_chart_);
    fitAxisLabels(efficiency_chart_);

    // The attribution the evaluation computed, one per sweep row.
    loss_rows_ = result_->attribution();
    loss_rows_.erase(std::remove_if(loss_rows_.begin(), loss_rows_.end(),
                                    [](const SpeedupAttribution &a) { return a.gpus <= 0; }),
                     loss_rows_.end());
    std::stable_sort(
        loss_rows_.begin(), loss_rows_.end(),
        [](const SpeedupAttribution &a, const SpeedupAttribution &b) { return a.gpus < b.gpus; });
    updateLossChart();
    refreshWrappingLegend(speedup_view_);
    refreshWrappingLegend(efficiency_view_);
    stack_->setCurrentIndex(1);
}

QString ScalingView::amdahlText(const AmdahlFit &fit, double highest_plotted_speedup)
{
    const QLocale locale;
    switch (fit.status) {
    case AmdahlFitStatus::NotComputed:
        return {};
    case AmdahlFitStatus::TooFewPoints:
        return tr("No Amdahl fit: it needs at least %1 sweep points with more than one GPU, "
                  "this sweep has %2.")
            .arg(locale.toString(kAmdahlMinPoints), locale.toString(fit.points));
    case AmdahlFitStatus::PoorFit:
        return tr("No Amdahl fit: Amdahl's law does not describe this curve (R² = %1 over %2 "
                  "points, below %3), so it gives no serial fraction and no ceiling.")
            .arg(locale.toString(fit.r_squared, 'f',
                                 decimalsApart(fit.r_squared, kAmdahlMinRSquared, 2)),
                 locale.toString(fit.points),
                 locale.toString(kAmdahlMinRSquared, 'f', 2));
    case AmdahlFitStatus::Accepted:
        break;
    }
    QString text = tr("Amdahl fit: serial fraction s = %1 % (R² = %2 over %3 points).")
                       .arg(percent(fit.serial_fraction), locale.toString(fit.r_squared, 'f', 3))
                       .arg(fit.points);
    const double ceiling = amdahlCeiling(fit, highest_plotted_speedup);
    if (ceiling > 0)
        text += QLatin1Char(' ') + tr("With a fixed batch, no number of GPUs gets past %1× (1/s).")
                                       .arg(locale.toString(ceiling, 'f', 1));
    else if (fit.serial_fraction > 0)
        text += QLatin1Char(' ') + tr("The simulated speed-up already passes 1/s, so the fit "
                                      "gives no ceiling.");
    return text;
}

void ScalingView::updateReferenceNote()
{
    // The speed-up reference is one GPU (spec/cli.md); when that GPU cannot hold the model
    // the curves count from the smallest swept count that fits, and the note says so.
    const SpeedupReference &ref = result_->reference();
    const std::optional<MemoryBreakdown> &reference = ref.one_gpu_memory;
    if (!ref.one_gpu_on_paper || !reference) {
        reference_note_->clear();
        reference_note_->hide();
        return;
    }
    if (ref.rebased())
        reference_note_->setText(
            tr("One GPU cannot hold this model (it would need %1 GiB of its %2 GiB), so speed-up "
               "is how many times as fast as %3 GPUs, the fewest that fit, with an ideal of "
               "N / %3 on N GPUs; efficiency is speed-up over ideal. Where the missing "
               "speed-up went is still counted against the one GPU on paper.")
                .arg(formatGiB(reference->total), formatGiB(reference->capacity))
                .arg(ref.gpus));
    else
        reference_note_->setText(
            tr("Speed-up against one GPU, which cannot hold this model (it "
               "would need %1 GiB of its %2 GiB): the reference is a time on "
               "paper, not a run.")
                .arg(formatGiB(reference->total), formatGiB(reference->capacity)));
    reference_note_->show();
}

void ScalingView::updateLossChart()
{
    QStringList categories;
    QList<qreal> achieved;
    std::array<QList<qreal>, kSpeedupLossCount> losses;
    double top = 1, bottom = 0;
    for (const SpeedupAttribution &a : loss_rows_) {
        // Runs that do not fit in memory are marked on the speed-up and efficiency curves
        // beside this chart and named in its tooltip: a mark here would not fit under a bar.
        categories.append(QLocale().toString(a.gpus));
        achieved.append(a.speedup);
        double positive = std::max(0.0, a.speedup), negative = std::min(0.0, a.speedup);
        for (int i = 0; i < kSpeedupLossCount; ++i) {
            const double v = a.loss_gpus[size_t(i)];
            losses[size_t(i)].append(v);
            (v >= 0 ? positive : negative) += v;
        }
        top = std::max({top, positive, double(a.gpus)});
        bottom = std::min(bottom, negative);
    }
    achieved_set_->remove(0, achieved_set_->count());
    achieved_set_->append(achieved);
    for (int i = 0; i < kSpeedupLossCount; ++i) {
        QBarSet *set = loss_sets_[size_t(i)];
        set->remove(0, set->count());
        set->append(losses[size_t(i)]);
    }
    // Only the causes that cost something in this sweep get a legend entry.
    const auto markers = loss_chart_->legend()->markers(loss_series_);
    for (QLegendMarker *marker : markers) {
        auto *bar_marker = qobject_cast<QBarLegendMarker *>(marker);
        if (!bar_marker)
            continue;
        const QBarSet *set = bar_marker->barset();
        bool used = set == achieved_set_;
        for (int i = 0; i < set->count() && !used; ++i)
            used = set->at(i) != 0;
        setLegendEntryShown(marker, used);
    }
    loss_x_->clear();
    loss_x_->append(categories);
    // Rare: superlinear per-GPU compute; the axis reaches below zero.
    setZeroBasedRange(loss_y_, top * 1.02, bottom < 0 ? std::floor(bottom * 1.1) : 0.0);
    // Many GPU counts need a wider chart for their labels (upright) than the others.
    loss_view_->setMinimumWidth(categoryChartMinimumWidth(loss_chart_, loss_x_, kMinChartWidth));
    fitAxisLabels(loss_chart_);
    refreshWrappingLegend(loss_view_);
}

void ScalingView::showPointToolTip(const QPointF &point, bool state)
{
    if (!state || !result_) {
        QToolTip::hideText();
        return;
    }
    const int gpus = int(std::lround(point.x()));
    for (const SweepRow &row : result_->sweep()) {
        if (row.gpus != gpus)
            continue;
        QString text =
            tr("N = %1: speed-up %2×, efficiency %3 %, step %4 s")
                .arg(QLocale().toString(gpus), QLocale().toString(row.summary.speedup, 'f', 2),
                     percent(row.summary.scaling_efficiency),
                     QLocale().toString(row.summary.step_time_s, 'g', 4));
        if (exceedsCapacity(row.summary.memory) && row.summary.memory.verdictWithinError())
            // Over by less than the model's memory error (analysis/memory.h): it may run.
            text += QLatin1Char('\n') +
                    tr("May not fit in memory: the most loaded GPU needs %1 GiB of its %2 GiB, "
                       "less over than the model's %3 % memory error.")
                        .arg(formatGiB(row.summary.memory.total),
                             formatGiB(row.summary.memory.capacity), memoryErrorPercent());
        else if (exceedsCapacity(row.summary.memory))
            text += QLatin1Char('\n') +
                    tr("Does not fit in memory: the most loaded GPU needs %1 GiB of its %2 GiB; "
                       "this run cannot start.")
                        .arg(formatGiB(row.summary.memory.total),
                             formatGiB(row.summary.memory.capacity));
        QToolTip::showText(QCursor::pos(), text, this);
        return;
    }
}

void ScalingView::showLossToolTip(bool state, int index, QBarSet *set)
{
    if (!state || index < 0 || size_t(index) >= loss_rows_.size()) {
        QToolTip::hideText();
        return;
    }
    const SpeedupAttribution &a = loss_rows_[size_t(index)];
    const QLocale locale;
    QString text;
    if (set == achieved_set_)
        text = tr("N = %1: achieved speed-up %2× of the ideal %1×")
                   .arg(locale.toString(a.gpus), locale.toString(a.speedup, 'f', 2));
    else
        text =
            tr("N = %1: %2 costs %3 GPUs of speed-up (achieved %4× of the ideal %1×)")
                .arg(locale.toString(a.gpus), set->label(), locale.toString(set->at(index), 'f', 2),
                     locale.toString(a.speedup, 'f', 2));
    if (std::find(oom_gpus_.begin(), oom_gpus_.end(), a.gpus) != oom_gpus_.end())
        text += QLatin1Char('\n') + tr("This run does not fit in memory and cannot start.");
    QToolTip::showText(QCursor::pos(), text, this);
}

} // namespace scalescope
