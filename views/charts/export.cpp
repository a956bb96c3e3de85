#include "charts/export.h"

#include "io/file_io.h"
#include "io/report_io.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace scalescope
{

namespace
{

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

// Through the one writer (io/file_io.h): a full disk or a read-only folder keeps an
// existing file and says why (QSaveFile's commit() could rename an empty file over it).
bool writeExport(const QString &path, const QByteArray &data, QString *error)
{
    const WriteResult written = writeFileSafely(path, data);
    if (!written)
        return fail(
            error,
            QCoreApplication::translate("Export", "Cannot write %1: %2").arg(path, written.reason));
    return true;
}

} // namespace

bool exportWidgetImage(QWidget *widget, const QString &path, QString *error)
{
    if (!widget)
        return fail(error, QCoreApplication::translate("Export", "Nothing to export."));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return fail(error, QCoreApplication::translate(
                               "Export", "Cannot export %1: choose a .png or .svg file name.")
                               .arg(path));
    const QSize size = widget->size();
    if (size.isEmpty())
        return fail(error, QCoreApplication::translate("Export", "The view has no size."));

    QBuffer file;
    file.open(QIODevice::WriteOnly);

    if (suffix == QLatin1String("png")) {
        const qreal dpr = widget->devicePixelRatioF();
        QImage image(size * dpr, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        image.fill(widget->palette().color(widget->backgroundRole()));
        widget->render(&image);
        QImageWriter writer(&file, "png");
        if (!writer.write(image))
            return fail(error, QCoreApplication::translate("Export", "Cannot write %1: %2")
                                   .arg(path, writer.errorString()));
        return writeExport(path, file.data(), error);
    }

    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(widget->windowTitle().isEmpty() ? QStringLiteral("ScaleScope")
                                                 : widget->windowTitle());
    svg.setDescription(QCoreApplication::translate("Export", "Exported from ScaleScope"));
    QPainter painter;
    if (!painter.begin(&svg))
        return fail(error, QCoreApplication::translate("Export", "Cannot write %1: %2")
                               .arg(path, file.errorString()));
    widget->render(&painter);
    painter.end();
    return writeExport(path, file.data(), error);
}

bool exportSweepCsv(const std::vector<SweepRow> &rows, const QString &path, QString *error)
{
    // The CLI's sweep --csv columns first, then the window's extra figures.
    return writeExport(path, sweepToCsv(rows, true), error);
}

} // namespace scalescope
