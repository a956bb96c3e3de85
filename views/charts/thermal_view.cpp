#include "charts/thermal_view.h"

#include "charts/chart_common.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <utility>

namespace scalescope
{

namespace
{

constexpr int kListedOnsets = 3; // GPUs named in the text before "n of N GPUs throttle"

QColor curveColor(size_t index)
{
    // Okabe-Ito: distinguishable with common colour-vision deficiencies.
    static const QColor colors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00),
                                    QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                    QColor(0x56, 0xb4, 0xe9), QColor(0xd5, 0x5e, 0x00),
                                    QColor(0x80, 0x80, 0x80), QColor(0x00, 0x00, 0x00)};
    return colors[index % (sizeof colors / sizeof colors[0])];
}

QString seconds(double t_s)
{
    return ThermalView::tr("%1 s").arg(QLocale().toString(t_s, 'f', 0));
}

QString celsius(double c)
{
    return ThermalView::tr("%1 °C").arg(QLocale().toString(c, 'f', 0));
}

} // namespace

ThermalView::ThermalView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("thermalView"));
    chart_ = makeChart();
    setChartTitles(chart_, tr("GPU temperature under load"), tr("GPU temperature"));
    threshold_ = new QLineSeries(chart_);
    threshold_->setObjectName(QStringLiteral("throttleThreshold"));
    QPen pen(QColor(0xc6, 0x28, 0x28));
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(2);
    threshold_->setPen(pen);
    chart_->addSeries(threshold_);
    x_ = new QValueAxis;
    setAxisTitles(x_, tr("Time under load (s)"), tr("Time (s)"));
    x_->setLabelFormat(QStringLiteral("%g"));
    y_ = new QValueAxis;
    setAxisTitles(y_, tr("Temperature (°C)"), tr("°C"));
    y_->setLabelFormat(QStringLiteral("%g"));
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    threshold_->attachAxis(x_);
    threshold_->attachAxis(y_);
    chart_view_ = new QChartView(chart_, this);
    chart_view_->setObjectName(QStringLiteral("thermalChart"));
    chart_view_->setRenderHint(QPainter::Antialiasing);
    chart_view_->setMinimumHeight(260);

    text_ = new QLabel(this);
    text_->setTextFormat(Qt::PlainText);
    text_->setObjectName(QStringLiteral("thermalText"));
    text_->setWordWrap(true);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(chart_view_, 1);
    layout->addWidget(text_);
    applyChartFonts(chart_, font());
    setResult(nullptr);
}

QString ThermalView::summaryText() const
{
    return text_->text();
}

void ThermalView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
        applyChartFonts(chart_, font());
    QWidget::changeEvent(event);
}

void ThermalView::resizeGpuSeries(size_t count)
{
    while (gpu_series_.size() > count) {
        QLineSeries *s = gpu_series_.back();
        gpu_series_.pop_back();
        chart_->removeSeries(s);
        delete s;
    }
    while (gpu_series_.size() < count) {
        auto *s = new QLineSeries(chart_);
        QPen pen(curveColor(gpu_series_.size()));
        pen.setWidthF(2);
        s->setPen(pen);
        chart_->addSeries(s);
        s->attachAxis(x_);
        s->attachAxis(y_);
        gpu_series_.push_back(s);
    }
}

bool ThermalView::setResult(const ResultPtr &result)
{
    has_thermal_ = emptyStateMessage(result).isEmpty() && !result->scenario.isCollective() &&
                   result->scenario.effects.thermal.enabled;
    if (!has_thermal_) {
        resizeGpuSeries(0);
        threshold_->clear();
        text_->clear();
        return false;
    }
    const ThermalSpec &thermal = result->scenario.effects.thermal;
    const int gpus = std::max(1, result->summary().gpus);

    // The GPUs drawn: each of up to kMaxGpuCurves, else the hottest and the coolest.
    std::vector<int> drawn;
    QStringList names;
    if (gpus <= kMaxGpuCurves) {
        for (int g = 0; g < gpus; ++g) {
            drawn.push_back(g);
            names.append(tr("GPU %1").arg(g));
        }
    } else {
        int hottest = 0, coolest = 0;
        for (int g = 1; g < gpus; ++g) {
            if (thermal.steadyC(g) > thermal.steadyC(hottest))
                hottest = g;
            if (thermal.steadyC(g) < thermal.steadyC(coolest))
                coolest = g;
        }
        if (thermal.steadyC(hottest) == thermal.steadyC(coolest)) {
            drawn.push_back(0);
            names.append(tr("All %1 GPUs").arg(gpus));
        } else {
            drawn = {hottest, coolest};
            names.append(tr("GPU %1 (hottest)").arg(hottest));
            names.append(tr("GPU %1 (coolest)").arg(coolest));
        }
    }

    // When each GPU crosses the threshold (infinity: never).
    std::vector<std::pair<double, int>> onsets;
    double hottest_c = thermal.ambient_c;
    for (int g = 0; g < gpus; ++g) {
        hottest_c = std::max(hottest_c, thermal.steadyC(g));
        const double onset = thermal.throttleOnsetS(g);
        if (std::isfinite(onset))
            onsets.emplace_back(onset, g);
    }
    std::sort(onsets.begin(), onsets.end());

    // Time range: three time constants (95 % of the rise), and past the first onset.
    double t_max = 3.0 * thermal.warmup_s;
    if (!onsets.empty())
        t_max = std::max(t_max, 1.5 * onsets.front().first);
    if (!(t_max > 0) || !std::isfinite(t_max))
        t_max = 1;

    resizeGpuSeries(drawn.size());
    double lo = std::min(thermal.ambient_c, thermal.throttle_above_c);
    double hi = std::max(hottest_c, thermal.throttle_above_c);
    for (size_t i = 0; i < drawn.size(); ++i) {
        QList<QPointF> points;
        points.reserve(kSamples);
        for (int k = 0; k < kSamples; ++k) {
            const double t = t_max * k / (kSamples - 1);
            const double c = thermal.temperatureC(drawn[i], t);
            points.append(QPointF(t, c));
            lo = std::min(lo, c);
            hi = std::max(hi, c);
        }
        gpu_series_[i]->setObjectName(QStringLiteral("temperatureGpu%1").arg(drawn[i]));
        gpu_series_[i]->setName(names[qsizetype(i)]);
        gpu_series_[i]->replace(points);
    }
    threshold_->replace(
        {QPointF(0, thermal.throttle_above_c), QPointF(t_max, thermal.throttle_above_c)});
    threshold_->setName(tr("Throttle threshold (%1)").arg(celsius(thermal.throttle_above_c)));
    x_->setRange(0, t_max);
    y_->setRange(std::floor((lo - 5) / 10) * 10, std::ceil((hi + 5) / 10) * 10);
    fitAxisLabels(chart_);

    // The sentence: who throttles when.
    QString text;
    if (onsets.empty()) {
        text = tr("No GPU reaches the throttle threshold of %1 (the hottest settles at %2).")
                   .arg(celsius(thermal.throttle_above_c), celsius(hottest_c));
    } else {
        text = tr("GPU %1 starts throttling after %2")
                   .arg(onsets.front().second)
                   .arg(seconds(onsets.front().first));
        const size_t listed = std::min(onsets.size(), size_t(kListedOnsets));
        for (size_t i = 1; i < listed; ++i)
            text += tr("; GPU %1 after %2").arg(onsets[i].second).arg(seconds(onsets[i].first));
        text += QLatin1Char('.');
        if (onsets.size() > listed || gpus > kMaxGpuCurves)
            text += QLatin1Char(' ') + tr("%1 of %2 GPUs throttle.")
                                           .arg(QLocale().toString(qlonglong(onsets.size())),
                                                QLocale().toString(gpus));
        text += QLatin1Char(' ') + tr("Throttled clocks drop by %1 %.")
                                       .arg(QLocale().toString(thermal.clock_drop * 100.0, 'f', 0));
    }
    if (thermal.start_s)
        text += QLatin1Char(' ') +
                tr("The simulated steps begin after %1 of load.").arg(seconds(*thermal.start_s));
    else
        text += QLatin1Char(' ') + tr("The simulated steps are in steady state (a long run).");
    text_->setText(text);
    return true;
}

} // namespace scalescope
