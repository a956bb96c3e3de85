// Exports of result views: images of a widget (PNG or SVG, by suffix) and the sweep as CSV.
// Files are written atomically (QSaveFile): a failed export leaves an existing file intact.
#pragma once

#include "analysis/sweep.h"

#include <QString>

#include <vector>

class QWidget;

namespace scalescope
{

/// Renders `widget` to `path`: ".png" (raster, the widget's size times its device pixel
/// ratio) or ".svg" (vector). False with a message in *error (if given) on failure.
bool exportWidgetImage(QWidget *widget, const QString &path, QString *error = nullptr);

/// Writes the sweep as CSV: a header row whose names carry units, then one row per GPU count,
/// numbers in the C locale.
bool exportSweepCsv(const std::vector<SweepRow> &rows, const QString &path,
                    QString *error = nullptr);

/// The CSV text exportSweepCsv writes.
QByteArray sweepCsv(const std::vector<SweepRow> &rows);

} // namespace scalescope
