#include "charts/breakdown_view.h"

#include "charts/chart_common.h"
#include "charts/sweep_table_model.h"
#include "charts/thermal_view.h"
#include "palette.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{

double partSeconds(const Breakdown &b, BreakdownPart part)
{
    switch (part) {
    case BreakdownPart::Compute:
        return b.compute;
    case BreakdownPart::TpCommunication:
        return b.tp_comm;
    case BreakdownPart::DpCommunication:
        // Exposed communication is tensor + pipeline + expert + context + data parallel
        // (sim/sim_breakdown.cpp, analysis/summary.cpp): the rest is data-parallel.
        return std::max(0.0,
                        b.communication_exposed - b.tp_comm - b.pp_exposed - b.ep_comm - b.cp_comm);
    case BreakdownPart::PpCommunication:
        return b.pp_exposed;
    case BreakdownPart::PipelineBubble:
        return b.pipeline_bubble;
    case BreakdownPart::Wait:
        return b.wait;
    case BreakdownPart::DataLoading:
        return b.data_loading;
    case BreakdownPart::ExpertCommunication:
        return b.ep_comm;
    case BreakdownPart::ContextCommunication:
        return b.cp_comm;
    }
    return 0;
}

} // namespace

BreakdownView::BreakdownView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("breakdownView"));

    auto *unit_label = new QLabel(tr("&Show:"), this);
    unit_ = new QComboBox(this);
    unit_->setObjectName(QStringLiteral("breakdownUnit"));
    unit_->addItem(tr("Seconds per step"), int(Unit::SecondsPerStep));
    unit_->addItem(tr("Share of the step (%)"), int(Unit::PercentOfStep));
    unit_label->setBuddy(unit_);
    connect(unit_, &QComboBox::currentIndexChanged, this, [this](int) {
        updateChart();
        updateWhatIf();
    });
    auto *top = new QHBoxLayout;
    top->addWidget(unit_label);
    top->addWidget(unit_);
    top->addStretch(1);

    chart_ = makeChart();
    setChartTitles(chart_, tr("Where the step time goes"), tr("Step time"));
    series_ = new QStackedBarSeries(chart_);
    series_->setObjectName(QStringLiteral("breakdownBars"));
    for (int i = 0; i < kBreakdownPartCount; ++i) {
        const auto part = BreakdownPart(i);
        auto *set = new QBarSet(breakdownName(part), series_);
        set->setColor(breakdownColor(part));
        set->setBorderColor(breakdownColor(part).darker(130));
        sets_[size_t(i)] = set;
        series_->append(set);
    }
    chart_->addSeries(series_);
    x_ = new QBarCategoryAxis;
    x_->setTitleText(tr("GPUs"));
    y_ = new QValueAxis;
    y_->setLabelFormat(QStringLiteral("%g"));
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    series_->attachAxis(x_);
    series_->attachAxis(y_);
    chart_view_ = new QChartView(chart_, this);
    chart_view_->setObjectName(QStringLiteral("breakdownChart"));
    chart_view_->setRenderHint(QPainter::Antialiasing);
    chart_view_->setMinimumHeight(190);

    // What each cause would gain if it were free (analysis/what_if.h): one bar per cause.
    what_if_chart_ = makeChart();
    what_if_series_ = new QHorizontalBarSeries(what_if_chart_);
    what_if_series_->setObjectName(QStringLiteral("whatIfBars"));
    what_if_set_ = new QBarSet(tr("Gain"), what_if_series_);
    what_if_set_->setColor(breakdownColor(BreakdownPart::Compute));
    what_if_set_->setBorderColor(breakdownColor(BreakdownPart::Compute).darker(130));
    what_if_series_->append(what_if_set_);
    what_if_chart_->addSeries(what_if_series_);
    what_if_chart_->legend()->hide();
    what_if_causes_ = new QBarCategoryAxis;
    what_if_gain_ = new QValueAxis;
    what_if_gain_->setLabelFormat(QStringLiteral("%g"));
    what_if_gain_->setTitleVisible(true);
    what_if_chart_->addAxis(what_if_causes_, Qt::AlignLeft);
    what_if_chart_->addAxis(what_if_gain_, Qt::AlignBottom);
    what_if_series_->attachAxis(what_if_causes_);
    what_if_series_->attachAxis(what_if_gain_);
    what_if_view_ = new QChartView(what_if_chart_, this);
    what_if_view_->setObjectName(QStringLiteral("whatIfChart"));
    what_if_view_->setRenderHint(QPainter::Antialiasing);
    what_if_view_->setMinimumHeight(150);

    model_ = new SweepTableModel(this);
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(SweepTableModel::RawValueRole);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("sweepTable"));
    table_->setModel(proxy);
    table_->setSortingEnabled(true);
    table_->sortByColumn(SweepTableModel::Gpus, Qt::AscendingOrder);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);

    thermal_ = new ThermalView(this);
    thermal_->hide();

    auto *splitter = new QSplitter(Qt::Vertical, this);
    // The legend wraps below the bars instead of eliding its seven entries; the splitter
    // keeps room for two lines of it.
    QWidget *bars = withWrappingLegend(chart_view_);
    bars->setMinimumHeight(190 + 3 * fontMetrics().height());
    // The what-if bars beside the breakdown's, a third of the width.
    auto *charts = new QSplitter(Qt::Horizontal, this);
    charts->addWidget(bars);
    charts->addWidget(what_if_view_);
    charts->setCollapsible(0, false);
    charts->setStretchFactor(0, 2);
    charts->setStretchFactor(1, 1);
    charts->setSizes({1700, 1000});
    splitter->addWidget(charts);
    splitter->setCollapsible(0, false);
    splitter->addWidget(thermal_);
    splitter->addWidget(table_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 2);
    // Proportions: the bars and their legend get about two thirds (of what the thermal chart
    // leaves when shown).
    splitter->setSizes({4000, 2000, 2000});

    message_ = makeEmptyStateLabel(this);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(message_);
    stack_->addWidget(splitter);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(stack_, 1);

    applyChartFonts(chart_, font());
    applyChartFonts(what_if_chart_, font());
    keepRoomForTableRows();
    setResult(nullptr);
}

// The sweep table keeps room for its header, four rows and a horizontal scroll bar: at
// 1280 x 720 the splitter left it one row (issue 26); the page scrolls instead.
void BreakdownView::keepRoomForTableRows()
{
    constexpr int kRows = 4;
    table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() +
                             kRows * table_->verticalHeader()->defaultSectionSize() +
                             table_->style()->pixelMetric(QStyle::PM_ScrollBarExtent) +
                             2 * table_->frameWidth());
}

BreakdownView::Unit BreakdownView::unit() const
{
    return Unit(unit_->currentData().toInt());
}

void BreakdownView::setUnit(Unit unit)
{
    unit_->setCurrentIndex(unit_->findData(int(unit)));
}

void BreakdownView::setResult(const ResultPtr &result)
{
    result_ = result;
    if (emptyStateMessage(result_).isEmpty())
        model_->setRows(result_->sweep(), result_->summary().gpus, result_->reference());
    else
        model_->clear();
    thermal_->setVisible(thermal_->setResult(result_));
    updateChart();
    updateWhatIf();
}

void BreakdownView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange) {
        applyChartFonts(chart_, font());
        applyChartFonts(what_if_chart_, font());
        keepRoomForTableRows();
    }
    if (event->type() == QEvent::LanguageChange)
        updateWhatIf();
    QWidget::changeEvent(event);
}

void BreakdownView::updateChart()
{
    QString message = emptyStateMessage(result_);
    if (message.isEmpty() && result_->sweep().empty())
        message = tr("No scaling sweep for this scenario.");
    if (!message.isEmpty()) {
        message_->setText(message);
        for (QBarSet *set : sets_)
            set->remove(0, set->count());
        x_->clear();
        stack_->setCurrentWidget(message_);
        return;
    }
    std::vector<SweepRow> rows = result_->sweep();
    std::sort(rows.begin(), rows.end(),
              [](const SweepRow &a, const SweepRow &b) { return a.gpus < b.gpus; });
    const bool percent = unit() == Unit::PercentOfStep;
    QStringList categories;
    bool any_oom = false, any_maybe = false;
    std::array<QList<qreal>, kBreakdownPartCount> values;
    double top = 0;
    for (const SweepRow &row : rows) {
        // A run that does not fit in memory cannot start: its GPU count is marked ✗. Over by
        // less than the model's memory error (analysis/memory.h) it may still run, as the
        // banner and the status bar say: marked ?, not called out of memory.
        const bool over = exceedsCapacity(row.summary.memory);
        const bool maybe = row.summary.memory.mayNotFit();
        any_oom |= over && !maybe;
        any_maybe |= maybe;
        const QString count = QLocale().toString(row.gpus);
        categories.append(maybe ? tr("%1 ?", "GPU count whose run may not fit in memory").arg(count)
                          : over
                              ? tr("%1 ✗", "GPU count whose run does not fit in memory").arg(count)
                              : count);
        const double step = row.summary.step_time_s;
        double sum = 0;
        for (int i = 0; i < kBreakdownPartCount; ++i) {
            double v = partSeconds(row.summary.breakdown, BreakdownPart(i));
            if (percent)
                v = step > 0 ? v / step * 100.0 : 0.0;
            values[size_t(i)].append(v);
            sum += v;
        }
        top = std::max({top, sum, percent ? 100.0 : step});
    }
    const QList<QLegendMarker *> markers = chart_->legend()->markers(series_);
    for (int i = 0; i < kBreakdownPartCount; ++i) {
        QBarSet *set = sets_[size_t(i)];
        set->remove(0, set->count());
        set->append(values[size_t(i)]);
        // Only the parts this sweep has get a legend entry (no pipeline: no pipeline parts).
        const bool any = std::any_of(values[size_t(i)].begin(), values[size_t(i)].end(),
                                     [](qreal v) { return v > 0; });
        if (i < markers.size())
            setLegendEntryShown(markers[i], any);
    }
    refreshWrappingLegend(chart_view_);
    x_->clear();
    x_->append(categories);
    x_->setTitleText(any_oom && any_maybe
                         ? tr("GPUs (✗: out of memory; ?: may not fit, within the model's "
                              "memory error)")
                     : any_oom   ? tr("GPUs (✗: out of memory)")
                     : any_maybe ? tr("GPUs (?: may not fit, within the model's memory error)")
                                 : tr("GPUs"));
    // The unit is in the chart's title: a vertical axis title elides to "..." as soon as
    // the chart is short (1024 x 768).
    y_->setTitleVisible(false);
    chart_->setTitle(percent ? tr("Where the step time goes (% of the step)")
                             : tr("Where the step time goes (seconds per step)"));
    setZeroBasedRange(y_, percent ? std::max(100.0, top) : top * 1.02);
    fitAxisLabels(chart_);
    stack_->setCurrentIndex(1);
}

QString BreakdownView::causeName(WhatIfCause cause)
{
    switch (cause) {
    case WhatIfCause::IntraNodeLink:
        return tr("Node link");
    case WhatIfCause::InterNodeNetwork:
        return tr("Network");
    case WhatIfCause::PipelineBubble:
        return tr("Pipeline bubble");
    case WhatIfCause::HostOverhead:
        return tr("Host");
    case WhatIfCause::SlowestGpu:
        return tr("Slowest GPU");
    case WhatIfCause::ExpertImbalance:
        return tr("Busiest expert");
    case WhatIfCause::DataLoader:
        return tr("Data loader");
    }
    return {};
}

void BreakdownView::updateWhatIf()
{
    const std::vector<WhatIfGain> &gains =
        emptyStateMessage(result_).isEmpty() ? result_->eval().what_if : std::vector<WhatIfGain>{};
    what_if_set_->remove(0, what_if_set_->count());
    what_if_causes_->clear();
    what_if_view_->setVisible(!gains.empty());
    if (gains.empty())
        return;
    const bool percent = unit() == Unit::PercentOfStep;
    const double step = result_->summary().step_time_s;
    // Horizontal bars run from the bottom up: the largest gain (first) is drawn last, on top.
    QStringList causes;
    QList<qreal> values;
    double top = 0;
    for (auto g = gains.rbegin(); g != gains.rend(); ++g) {
        const double v = percent ? (step > 0 ? g->gain_s / step * 100.0 : 0.0) : g->gain_s;
        causes.append(causeName(g->cause));
        values.append(v);
        top = std::max(top, v);
    }
    what_if_causes_->append(causes);
    what_if_set_->append(values);
    what_if_chart_->setTitle(tr("What if this were free"));
    what_if_gain_->setTitleText(percent ? tr("Step shorter by (% of the step)")
                                        : tr("Step shorter by (s)"));
    setZeroBasedRange(what_if_gain_, top > 0 ? top * 1.05 : 1.0);
    fitAxisLabels(what_if_chart_);
}

} // namespace scalescope
