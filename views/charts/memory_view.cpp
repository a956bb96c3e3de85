#include "charts/memory_view.h"

#include "charts/chart_common.h"
#include "model_text.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFontMetrics>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{

double partBytes(const MemoryBreakdown &m, MemoryView::Part part)
{
    switch (part) {
    case MemoryView::Parameters:
        return m.parameters;
    case MemoryView::Gradients:
        return m.gradients;
    case MemoryView::OptimizerStates:
        return m.optimizer_states;
    case MemoryView::Activations:
        return m.activations;
    case MemoryView::PartCount:
        break;
    }
    return 0;
}

const QColor kOverCapacity(0xc6, 0x28, 0x28);

} // namespace

QString MemoryView::partName(Part part)
{
    switch (part) {
    case Parameters:
        return tr("Parameters");
    case Gradients:
        return tr("Gradients");
    case OptimizerStates:
        return tr("Optimizer states");
    case Activations:
        return tr("Activations");
    case PartCount:
        break;
    }
    return {};
}

QColor MemoryView::partColor(Part part)
{
    switch (part) {
    case Parameters:
        return QColor(0x2f, 0x6f, 0xb5);
    case Gradients:
        return QColor(0x56, 0xb4, 0xe9);
    case OptimizerStates:
        return QColor(0xe6, 0x9f, 0x00);
    case Activations:
        return QColor(0x00, 0x9e, 0x73);
    case PartCount:
        break;
    }
    return Qt::black;
}

MemoryView::MemoryView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("memoryView"));

    verdict_ = new QLabel(this);
    verdict_->setTextFormat(Qt::PlainText);
    verdict_->setObjectName(QStringLiteral("memoryVerdict"));
    verdict_->setWordWrap(true);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    details_ = new QLabel(this);
    details_->setTextFormat(Qt::PlainText);
    details_->setObjectName(QStringLiteral("memoryDetails"));
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    chart_ = makeChart(tr("Memory per GPU"));
    series_ = new QHorizontalStackedBarSeries(chart_);
    series_->setObjectName(QStringLiteral("memoryBars"));
    series_->setLabelsVisible(true);
    series_->setLabelsFormat(QStringLiteral("@value"));
    series_->setLabelsPrecision(3);
    for (int i = 0; i < PartCount; ++i) {
        auto *set = new QBarSet(partName(Part(i)), series_);
        set->setColor(partColor(Part(i)));
        set->setBorderColor(partColor(Part(i)).darker(130));
        set->setLabelColor(Qt::white);
        sets_[size_t(i)] = set;
        series_->append(set);
    }
    chart_->addSeries(series_);
    capacity_ = new QLineSeries(chart_);
    capacity_->setObjectName(QStringLiteral("capacityLine"));
    chart_->addSeries(capacity_);

    gb_axis_ = new QValueAxis;
    gb_axis_->setTitleText(tr("Memory per GPU (GiB)"));
    gb_axis_->setLabelFormat(QStringLiteral("%g"));
    category_axis_ = new QBarCategoryAxis;
    line_axis_ = new QValueAxis; // the capacity line's own vertical scale, not shown
    line_axis_->setRange(0, 1);
    line_axis_->setVisible(false);
    chart_->addAxis(gb_axis_, Qt::AlignBottom);
    chart_->addAxis(category_axis_, Qt::AlignLeft);
    chart_->addAxis(line_axis_, Qt::AlignRight);
    series_->attachAxis(gb_axis_);
    series_->attachAxis(category_axis_);
    capacity_->attachAxis(gb_axis_);
    capacity_->attachAxis(line_axis_);

    chart_view_ = new QChartView(chart_, this);
    chart_view_->setObjectName(QStringLiteral("memoryChart"));
    // The bar's values are shown or hidden once the chart knows its plot area's width.
    connect(chart_, &QChart::plotAreaChanged, this, [this](const QRectF &) { fitBarLabels(); });
    chart_view_->setRenderHint(QPainter::Antialiasing);
    chart_view_->setMinimumHeight(160);

    auto *content = new QWidget(this);
    auto *content_layout = new QVBoxLayout(content);
    content_layout->setContentsMargins(0, 0, 0, 0);
    content_layout->addWidget(verdict_);
    // The legend wraps below the bar instead of eliding ("Pa... Gr..." at 1024 x 768).
    content_layout->addWidget(withWrappingLegend(chart_view_), 1);
    content_layout->addWidget(details_);

    message_ = makeEmptyStateLabel(this);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(message_);
    stack_->addWidget(content);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(stack_);

    applyChartFonts(chart_, font());
    setResult(nullptr);
}

void MemoryView::setResult(const ResultPtr &result)
{
    result_ = result;
    updateChart();
}

QString MemoryView::verdict() const
{
    return verdict_->text();
}

void MemoryView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
        applyChartFonts(chart_, font());
    QWidget::changeEvent(event);
}

void MemoryView::fitBarLabels()
{
    // Values on the bar only where every part that has one is wide enough for its text;
    // otherwise they would overlap ("3.11 6.22 2.3 3.4"): the line below lists them anyway.
    const double range = gb_axis_->max() - gb_axis_->min();
    const double plot =
        chart_->plotArea().width() > 0 ? chart_->plotArea().width() : 0.6 * chart_view_->width();
    const QFontMetrics metrics(
        series_->barSets().isEmpty() ? font() : series_->barSets().front()->labelFont());
    bool fit = range > 0;
    for (const QBarSet *set : sets_) {
        if (!fit || set->count() == 0 || set->at(0) <= 0)
            continue;
        const double px = set->at(0) / range * plot;
        const QString text = QLocale::c().toString(set->at(0), 'g', 3);
        fit = px >= metrics.horizontalAdvance(text) + 6;
    }
    series_->setLabelsVisible(fit);
}

void MemoryView::updateChart()
{
    QString message = emptyStateMessage(result_);
    if (message.isEmpty() && result_->summary().memory.total <= 0)
        message = tr("No memory estimate for this scenario.");
    if (!message.isEmpty()) {
        message_->setText(message);
        verdict_->clear();
        details_->clear();
        for (QBarSet *set : sets_)
            set->remove(0, set->count());
        capacity_->clear();
        category_axis_->clear();
        stack_->setCurrentWidget(message_);
        return;
    }
    const MemoryBreakdown &m = result_->summary().memory;
    const bool fits = m.fits();
    const int pipeline = std::max(1, result_->scenario.parallel.pipeline);

    QStringList parts;
    double sum_gb = 0;
    for (int i = 0; i < PartCount; ++i) {
        const double bytes = partBytes(m, Part(i));
        QBarSet *set = sets_[size_t(i)];
        // A GPU over capacity: its bar hatched (this run cannot start), outlined in red.
        set->setBrush(fits ? QBrush(partColor(Part(i)))
                           : QBrush(partColor(Part(i)), Qt::BDiagPattern));
        set->setBorderColor(fits ? partColor(Part(i)).darker(130) : kOverCapacity);
        set->setLabelColor(fits ? QColor(Qt::white) : QColor(Qt::black));
        set->remove(0, set->count());
        set->append(bytes / kBytesPerGiB);
        sum_gb += bytes / kBytesPerGiB;
        parts.append(tr("%1 %2 GiB").arg(partName(Part(i)), formatGiB(bytes)));
    }
    const double total_gb = std::max(sum_gb, m.total / kBytesPerGiB);
    const double capacity_gb = m.capacity / kBytesPerGiB;
    category_axis_->clear();
    category_axis_->append(pipeline > 1 ? tr("GPU of stage %1\n(most loaded)").arg(m.stage)
                                        : tr("Each GPU"));
    capacity_->replace(QList<QPointF>{{capacity_gb, 0.0}, {capacity_gb, 1.0}});
    capacity_->setName(tr("Capacity %1 GiB").arg(formatGiB(m.capacity)));
    QPen pen(fits ? QColor(Qt::black) : kOverCapacity);
    pen.setWidthF(2.5);
    pen.setStyle(Qt::DashLine);
    capacity_->setPen(pen);
    setZeroBasedRange(gb_axis_, std::max(total_gb, capacity_gb) * 1.05);
    fitAxisLabels(chart_);
    refreshWrappingLegend(chart_view_);
    fitBarLabels();

    if (fits && m.reserve_limited) {
        // The tensors fit and the allocator's cache fills the rest (analysis/memory.cpp):
        // "0 GiB free" would read as a run on the edge of failing.
        verdict_->setText(tr("Fits: the tensors take %1 GiB of %2 GiB; the caching allocator "
                             "holds the rest.")
                              .arg(formatGiB(m.tensors()), formatGiB(m.capacity)));
        verdict_->setStyleSheet(QString());
    } else if (fits) {
        const double used = m.capacity > 0 ? m.total / m.capacity * 100.0 : 0.0;
        verdict_->setText(tr("Fits: %1 GiB of %2 GiB (%3 %), %4 GiB free.")
                              .arg(formatGiB(m.total), formatGiB(m.capacity),
                                   QLocale().toString(used, 'f', 0),
                                   formatGiB(m.capacity - m.total)));
        verdict_->setStyleSheet(QString());
    } else if (const QString remedy = translatedRemedyClause(result_->summary());
               !remedy.isEmpty()) {
        // The one change the model found that makes it fit, with its cost
        // (analysis/memory_remedy.h).
        // Over by less than the model's memory error it may still run: "may not fit",
        // as the sentence below and the bottleneck say, not "does not fit".
        verdict_->setText((m.verdictWithinError() ? tr("May not fit: needs %1 GiB of %2 GiB — %3")
                                                  : tr("Does not fit: needs %1 GiB of %2 GiB — %3"))
                              .arg(formatGiB(m.total), formatGiB(m.capacity), remedy));
        verdict_->setStyleSheet(
            QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(kOverCapacity.name()));
    } else {
        verdict_->setText((m.verdictWithinError()
                               ? tr("May not fit: needs %1 GiB of %2 GiB — try ZeRO-3, "
                                    "tensor/pipeline parallelism or recompute")
                               : tr("Does not fit: needs %1 GiB of %2 GiB — try ZeRO-3, "
                                    "tensor/pipeline parallelism or recompute"))
                              .arg(formatGiB(m.total), formatGiB(m.capacity)));
        verdict_->setStyleSheet(
            QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(kOverCapacity.name()));
    }
    if (m.verdictWithinError()) {
        // Nearer the capacity than the model's memory error (analysis/memory.h): which way
        // the real run may go, or a run that ran reads as impossible.
        const QString share = QLocale().toString(100.0 * std::abs(m.overCapacityShare()), 'f', 1);
        verdict_->setText(withSentence(
            verdict_->text(),
            (fits ? tr("With %1 % to spare, less than the model's %2 % memory error, it may "
                       "not fit.")
                  : tr("%1 % over is less than the model's %2 % memory error: it may fit."))
                .arg(share, memoryErrorPercent())));
    }
    QString details = parts.join(QStringLiteral(" · "));
    if (m.expert_states > 0)
        details += QLatin1Char('\n') +
                   tr("Of the parameters, gradients and optimizer states, the routed experts "
                      "hold %1 GiB.")
                       .arg(formatGiB(m.expert_states));
    if (m.host_offload > 0)
        details += QLatin1Char('\n') +
                   tr("%1 GiB of activations wait in host memory between forward and backward "
                      "(offloaded layers), not counted above.")
                       .arg(formatGiB(m.host_offload));
    if (pipeline > 1)
        details += QLatin1Char('\n') +
                   tr("Pipeline stage %1 holds the most; other stages need less.").arg(m.stage);
    if (m.reserve_limited)
        details += QLatin1Char('\n') +
                   tr("The tensors take %1 GiB; PyTorch's caching allocator holds the rest of "
                      "the card and gives it back before it would run out of memory.")
                       .arg(formatGiB(m.tensors()));
    // Why an "80 GB" card reads 78.6 GiB (GpuSpec::usableMemoryBytes).
    const GpuSpec &gpu = result_->scenario.hardware.gpu;
    if (gpu.memory_gb > 0 && std::abs(m.capacity - gpu.usableMemoryBytes()) < 1.0)
        details += QLatin1Char('\n') +
                   tr("The capacity is what one process can allocate of the card's %1 GiB: the "
                      "driver keeps about 1% and the CUDA context 0.5 GiB.")
                       .arg(QLocale().toString(gpu.memory_gb));
    details_->setText(details);
    stack_->setCurrentIndex(1);
}

} // namespace scalescope
