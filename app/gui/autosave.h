// Autosave of unsaved work and its recovery after a crash. Each running instance owns one
// autosave file, guarded by a lock file; an autosave whose lock is stale (its instance
// died) is offered for recovery at the next start.
#pragma once

#include "plan/scenario.h"

#include <QDateTime>
#include <QLockFile>
#include <QString>

#include <memory>
#include <vector>

namespace scalescope
{

struct RecoveredWork {
    QString autosave_path; // the autosave file itself
    QString original_path; // the file the work belonged to ("" = never saved)
    QDateTime saved_at;
    QByteArray scenario_json; // a valid scenario document (x-autosave key included)
    QString error;            // non-empty: the autosave is damaged (and was not loaded)
};

class AutosaveStore
{
public:
    /// `directory` defaults to the application's data location + "/autosave".
    explicit AutosaveStore(const QString &directory = QString());
    ~AutosaveStore();

    QString directory() const { return directory_; }
    /// Autosaves left behind by instances that are no longer running.
    std::vector<RecoveredWork> orphans() const;
    /// Deletes an orphan (after it was restored or declined).
    static void discard(const RecoveredWork &work);
    /// Renames a damaged orphan to "<file>.damaged" (kept for the user, never offered
    /// again) and returns the new path; "" when it could not be renamed.
    static QString setAside(const RecoveredWork &work);

    /// Writes this instance's autosave atomically. Returns false and sets `error`.
    bool write(const QByteArray &scenario_json, const QString &original_path, QString *error);
    /// Removes this instance's autosave (after a save, or a clean exit).
    void clear();
    QString ownPath() const { return own_path_; }

private:
    QString directory_;
    QString own_path_;
    std::unique_ptr<QLockFile> lock_;
};

} // namespace scalescope
