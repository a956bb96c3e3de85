// Helpers shared by the result charts: a chart set up the same way everywhere (light theme,
// no animations, legend visible, fonts from the widget), and the empty/error state page.
#pragma once

#include "charts/axis_labels.h" // every chart fits its axis labels (makeChart)
#include "result.h"

#include <QColor>
#include <QString>

class QChart;
class QChartView;
class QLegendMarker;
class QFont;
class QLabel;
class QWidget;

namespace scalescope
{

/// A new chart (the QChartView that receives it owns it): light theme, animations off,
/// legend at the bottom.
QChart *makeChart(const QString &title = {});

/// Applies `base` (usually the view's font, which follows the application font) to the
/// chart's title, legend and every axis' labels and title.
void applyChartFonts(QChart *chart, const QFont &base);

/// Puts `view` in a widget with its legend below it as wrapping text and hides the chart's
/// own legend, which elides entries ("Am...") whenever the chart is narrower than its
/// entries. Call refreshWrappingLegend() after the series or their markers change.
QWidget *withWrappingLegend(QChartView *view);
/// Rebuilds the text legend of a view set up by withWrappingLegend() from the chart's
/// legend markers (in order, with their colours; not those of hidden series or those
/// hidden with setLegendEntryShown()).
void refreshWrappingLegend(QChartView *view);
/// Shows or hides one entry of a wrapping legend (the chart's own legend is hidden, so
/// QLegendMarker::setVisible() no longer says anything).
void setLegendEntryShown(QLegendMarker *marker, bool shown);

/// The message a view shows instead of data: empty for a result it can draw.
/// "No result yet" for null, the validation error for an invalid scenario.
QString emptyStateMessage(const ResultPtr &result);

/// A centred, word-wrapped label for the empty/error state (objectName "emptyState").
QLabel *makeEmptyStateLabel(QWidget *parent);

/// Colour of a cause of lost speed-up: the timeline colour of the matching segment kind
/// (DP comm, TP comm, bubble, PP send, waiting, data loading, optimizer); compute and latency,
/// which has no segment kind of its own, a brown distinct from all of them.
QColor speedupLossColor(SpeedupLoss loss);
/// Translated name of a cause of lost speed-up ("DP communication", ...).
QString speedupLossLabel(SpeedupLoss loss);

/// `bytes` in GiB (2^30 bytes, as nvidia-smi and PyTorch count GPU memory) with one
/// decimal, without ".0" for whole numbers ("80").
QString formatGiB(double bytes);

} // namespace scalescope
