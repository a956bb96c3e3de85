// The recent-files list in the settings ("files/recent"), read so that a damaged settings
// file (thousands of entries) costs no more than a short list: only the first entries are
// kept, the rest is ignored and cut from the settings.
#pragma once

#include <QSettings>
#include <QString>
#include <QStringList>

namespace scalescope
{

class RecentFiles
{
public:
    /// Entries kept by default.
    static constexpr int kDefaultMax = 10;
    /// The settings key of the list.
    static QString key();

    /// The first `max` distinct, non-empty entries, newest first. No file system access:
    /// a file that no longer exists stays until dropMissing() (or the user opening it)
    /// finds it gone. A longer list, or one with repeats, is written back cut down.
    static QStringList read(QSettings &settings, int max = kDefaultMax);
    /// Puts `path` first (once) and keeps `max` entries; returns the new list.
    static QStringList add(QSettings &settings, const QString &path, int max = kDefaultMax);
    /// Removes `path` (a file found missing when opened); returns the new list.
    static QStringList remove(QSettings &settings, const QString &path, int max = kDefaultMax);
    /// Drops the entries (of the first `max`) whose files no longer exist; returns the
    /// rest. At most `max` files are looked at.
    static QStringList dropMissing(QSettings &settings, int max = kDefaultMax);
    static void clear(QSettings &settings);
};

} // namespace scalescope
