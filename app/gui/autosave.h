// Autosave of unsaved work and its recovery after a crash. Each running instance owns one
// autosave file, guarded by a lock file; an autosave whose lock is stale (its instance
// died) is offered for recovery at the next start.
#pragma once

#include "io/catalog.h"
#include "plan/error.h"
#include "plan/scenario.h"

#include <QDateTime>
#include <QLockFile>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace scalescope
{

struct RecoveredWork {
    QString autosave_path; // the autosave file itself
    QString original_path; // the file the work belonged to ("" = never saved)
    QDateTime saved_at;
    QByteArray scenario_json; // a JSON object, as written (x-autosave key included)
    QString error;            // non-empty: the autosave is damaged (and was not loaded)
};

/// The scenario of an orphan, as recovery opens it.
struct RecoveredScenario {
    /// The work as it was left, rule errors included; empty: it cannot be opened.
    std::optional<Scenario> scenario;
    /// Why the scenario parser refuses the document (empty message: it does not). With a
    /// scenario: the first rule across keys it breaks (plan/rules.h), shown beside its
    /// control once opened; without: why it cannot be opened.
    InputError refusal;
    bool refused() const { return !refusal.message.empty(); }
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
    /// Opens an orphan's scenario (not a damaged one). The window autosaves work the
    /// parser refuses (Save does not write it, plan/rules.h): a plan that breaks a rule
    /// across keys is opened all the same, exactly as it was written, with that rule.
    static RecoveredScenario openScenario(const RecoveredWork &work, const Catalog &catalog);
    /// Deletes an orphan (after it was restored or declined).
    static void discard(const RecoveredWork &work);
    /// Moves an orphan that cannot be opened out of the way, unchanged, and returns its new
    /// path ("" when it could not be moved): a damaged one (`error`) to "<file>.damaged", a
    /// scenario that cannot be opened to "kept-<file>" (a JSON file to fix in an editor).
    /// Neither is offered again; an older file of that name is never replaced (a number
    /// is added).
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
