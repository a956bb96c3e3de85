#include "charts/export.h"

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

QByteArray sweepCsv(const std::vector<SweepRow> &rows)
{
    QByteArray out =
        "gpus,step_time_s,samples_per_s,tokens_per_s,speedup,scaling_efficiency_pct,mfu_pct,"
        "compute_s,communication_exposed_s,communication_total_s,pipeline_bubble_s,wait_s,"
        "data_loading_s,memory_per_gpu_gb\n";
    // QByteArray::number is locale-independent (C locale).
    auto num = [](double v) { return QByteArray::number(v, 'g', 10); };
    for (const SweepRow &row : rows) {
        const Summary &s = row.summary;
        const Breakdown &b = s.breakdown;
        const QByteArrayList fields = {QByteArray::number(row.gpus),
                                       num(s.step_time_s),
                                       num(s.samples_per_s),
                                       num(s.tokens_per_s),
                                       num(s.speedup),
                                       num(s.scaling_efficiency * 100.0),
                                       num(s.mfu * 100.0),
                                       num(b.compute),
                                       num(b.communication_exposed),
                                       num(b.communication_total),
                                       num(b.pipeline_bubble),
                                       num(b.wait),
                                       num(b.data_loading),
                                       num(s.memory.total / 1e9)};
        out += fields.join(',');
        out += '\n';
    }
    return out;
}

bool exportSweepCsv(const std::vector<SweepRow> &rows, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return fail(error, QCoreApplication::translate("Export", "Cannot write %1: %2")
                               .arg(path, file.errorString()));
    const QByteArray csv = sweepCsv(rows);
    if (file.write(csv) != csv.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return fail(error,
                    QCoreApplication::translate("Export", "Cannot write %1: %2").arg(path, why));
    }
    return commit(file, error);
}

} // namespace scalescope
