// Axis labels that fit their chart at any size: Qt Charts elides a tick label or title with
// too little room to "...", so the ticks, log bases, bar category labels and titles of a chart
// are chosen from its plot area (fitAxisLabels), whenever it changes.
#pragma once

#include <QString>

class QAbstractAxis;
class QBarCategoryAxis;
class QChart;
class QValueAxis;

namespace scalescope
{

/// Sets `axis` to [0, a round number >= max_value] with ticks at a round interval
/// (1, 2 or 5 times a power of ten; 2.5 where that alone gives three ticks): at most seven
/// ticks, fewer where the chart's plot area has room for fewer labels (fitAxisLabels()).
/// A negative `min_value` extends the axis below zero (the ticks stay anchored at zero).
void setZeroBasedRange(QValueAxis *axis, double max_value, double min_value = 0);

/// Keeps the axes of `chart` readable at the size of its plot area. Qt Charts elides a tick
/// label with too little room to "..." (and then hides it), so each value axis gets as many
/// ticks as its labels have room for: zero-based axes (setZeroBasedRange) a coarser round
/// interval, log axes a larger power of two as base, fixed-count axes fewer ticks; at
/// least three labelled ticks wherever three fit. Bar categories too wide to stand side by
/// side are turned upright, and an axis or chart title longer than its room is replaced by
/// its short form (setAxisTitles, setChartTitles); where even that does not fit, it is left
/// out. A band of a few percent keeps a size at the edge from switching back and forth.
/// makeChart() connects it to the chart's plotAreaChanged(); call it after changing an axis'
/// range.
void fitAxisLabels(QChart *chart);
/// Gives `axis` its title and the shorter one it shows where that does not fit.
void setAxisTitles(QAbstractAxis *axis, const QString &title, const QString &short_title);
/// Gives `chart` its title and the shorter one it shows where that does not fit.
void setChartTitles(QChart *chart, const QString &title, const QString &short_title);
/// The narrowest width of `chart` at which the bar categories of `axis` (below the plot)
/// stand upright side by side, whole; `fallback` when that is narrower.
int categoryChartMinimumWidth(const QChart *chart, const QBarCategoryAxis *axis, int fallback);

} // namespace scalescope
