#include "recent_files.h"

#include <QFileInfo>
#include <QSet>
#include <QVariant>

namespace scalescope
{

QString RecentFiles::key()
{
    return QStringLiteral("files/recent");
}

QStringList RecentFiles::read(QSettings &settings, int max)
{
    const QVariant stored = settings.value(key());
    // A list in the ini file; one entry reads as a plain string.
    const QStringList all = stored.typeId() == QMetaType::QString ? QStringList{stored.toString()}
                                                                  : stored.toStringList();
    QStringList kept;
    QSet<QString> seen;
    for (const QString &path : all) {
        if (kept.size() >= max)
            break; // the rest is ignored
        if (path.isEmpty() || seen.contains(path))
            continue;
        seen.insert(path);
        kept.append(path);
    }
    // Cut a damaged list down once, so that the next start does not read it again.
    if (all.size() != kept.size()) {
        if (kept.isEmpty())
            settings.remove(key());
        else
            settings.setValue(key(), kept);
    }
    return kept;
}

QStringList RecentFiles::add(QSettings &settings, const QString &path, int max)
{
    QStringList recent = read(settings, max);
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > max)
        recent.removeLast();
    settings.setValue(key(), recent);
    return recent;
}

QStringList RecentFiles::remove(QSettings &settings, const QString &path, int max)
{
    QStringList recent = read(settings, max);
    if (recent.removeAll(path) > 0) {
        if (recent.isEmpty())
            settings.remove(key());
        else
            settings.setValue(key(), recent);
    }
    return recent;
}

QStringList RecentFiles::dropMissing(QSettings &settings, int max)
{
    const QStringList recent = read(settings, max);
    QStringList existing;
    for (const QString &path : recent) {
        if (QFileInfo::exists(path))
            existing.append(path);
    }
    if (existing.size() != recent.size()) {
        if (existing.isEmpty())
            settings.remove(key());
        else
            settings.setValue(key(), existing);
    }
    return existing;
}

void RecentFiles::clear(QSettings &settings)
{
    settings.remove(key());
}

} // namespace scalescope
