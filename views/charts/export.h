// Exports of result views: images of a widget (PNG or SVG, by suffix) and the sweep as CSV.
// Files are written atomically (writeFileSafely, io/file_io.h): a failed export leaves an
// existing file intact.
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

/// Writes the sweep as CSV (sweepToCsv, detailed): the columns of scalescope-cli sweep --csv
/// first, then the window's extra figures; numbers in the C locale.
bool exportSweepCsv(const std::vector<SweepRow> &rows, const QString &path,
                    QString *error = nullptr);

} // namespace scalescope
