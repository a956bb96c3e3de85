#include "io/data_dir.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace scalescope
{

QString dataDirectoryFor(const QString &appDir)
{
    if (appDir.isEmpty())
        return {};
    const QDir app(appDir);
    const QString installed = app.absoluteFilePath(QStringLiteral("../share/scalescope"));
    if (QFileInfo(installed).isDir())
        return QDir::cleanPath(installed);
    QFile marker(app.absoluteFilePath(QStringLiteral("../") + QLatin1String(kBuildTreeMarker)));
    if (marker.open(QIODevice::ReadOnly)) {
        const QString resources = QString::fromUtf8(marker.readLine(4096)).trimmed();
        // Only an absolute path: a relative one would depend on the current directory.
        if (QDir::isAbsolutePath(resources) && QFileInfo(resources).isDir())
            return QDir::cleanPath(resources);
    }
    return {};
}

QString dataDirectory()
{
    if (QCoreApplication::instance() == nullptr)
        return {};
    static const QString dir = dataDirectoryFor(QCoreApplication::applicationDirPath());
    return dir;
}

} // namespace scalescope
