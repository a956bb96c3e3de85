#include "charts/export.h"

#include "io/report_io.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSaveFile>
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

bool commit(QSaveFile &file, QString *error)
{
    if (!file.commit())
        return fail(error, QCoreApplication::translate("Export", "Cannot write %1: %2")
                               .arg(file.fileName(), file.errorString()));
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

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, QCoreApplication::translate("Export", "Cannot write %1: %2")
                               .arg(path, file.errorString()));

    if (suffix == QLatin1String("png")) {
        const qreal dpr = widget->devicePixelRatioF();
        QImage image(size * dpr, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        image.fill(widget->palette().color(widget->backgroundRole()));
        widget->render(&image);
        QImageWriter writer(&file, "png");
        if (!writer.write(image)) {
            file.cancelWriting();
            return fail(error, QCoreApplication::translate("Export", "Cannot write %1: %2")
                                   .arg(path, writer.errorString()));
        }
        return commit(file, error);
    }

    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(widget->windowTitle().isEmpty() ? QStringLiteral("ScaleScope")
                                                 : widget->windowTitle());
    svg.setDescription(QCoreApplication::translate("Export", "Exported from ScaleScope"));
    QPainter painter;
    if (!painter.begin(&svg)) {
        file.cancelWriting();
        return fail(error, QCoreApplication::translate("Export", "Cannot write %1: %2")
                               .arg(path, file.errorString()));
    }
    widget->render(&painter);
    painter.end();
    return commit(file, error);
}

bool exportSweepCsv(const std::vector<SweepRow> &rows, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return fail(error, QCoreApplication::translate("Export", "Cannot write %1: %2")
                               .arg(path, file.errorString()));
    // The CLI's sweep --csv columns first, then the window's extra figures.
    const QByteArray csv = sweepToCsv(rows, true);
    if (file.write(csv) != csv.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return fail(error,
                    QCoreApplication::translate("Export", "Cannot write %1: %2").arg(path, why));
    }
    return commit(file, error);
}

} // namespace scalescope
