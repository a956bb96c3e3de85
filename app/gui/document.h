// The document: the scenario being edited, its file, and its undo history. Every change
// made by the user goes through an undo command (DESIGN.md section 3).
#pragma once

#include "plan/scenario.h"

#include <QByteArray>
#include <QDateTime>
#include <QObject>
#include <QString>
#include <QUndoCommand>
#include <QUndoStack>

#include <functional>

namespace scalescope
{

/// What the file looked like on disk when the document opened or last saved it.
struct DiskStamp {
    bool exists = false; // a regular file was there
    qint64 size = -1;
    QDateTime modified;
    QByteArray sha256;
};

/// What to do when the file to save over changed on disk since it was opened or saved
/// (another window or program wrote it).
enum class SaveConflictChoice { Overwrite, SaveAs, Cancel };

class Document : public QObject
{
    Q_OBJECT
public:
    /// Asked when saving over `path` would replace what another window or program wrote.
    using ConflictHandler = std::function<SaveConflictChoice(const QString &path)>;
    /// Asked for another file after SaveAs ("" = cancelled); `path` is the file that changed.
    using SaveAsHandler = std::function<QString(const QString &path)>;

    explicit Document(QObject *parent = nullptr);

    const Scenario &scenario() const { return scenario_; }
    QUndoStack *undoStack() { return &undo_; }
    QString filePath() const { return file_path_; }
    /// File name; for a document never saved, the scenario's name until it is edited, then
    /// what it runs on now (scenarioHeadline, views/model_text.h).
    QString displayName() const;
    bool isModified() const { return !undo_.isClean() || modified_without_undo_; }

    /// A user edit (undoable). Consecutive edits with the same non-zero merge key (one
    /// slider drag) become one undo entry. An edit that changes nothing is ignored.
    void edit(const Scenario &scenario, const QString &description, int merge_key = 0);
    /// Replaces the whole document (open, new, gallery, recovery); clears the history.
    void reset(const Scenario &scenario, const QString &file_path, bool modified = false);
    /// Opens a scenario file; on error the document is unchanged and `error` says why.
    bool open(const QString &path, QString *error);
    /// Saves atomically (writeFileSafely, io/file_io.h); the document becomes clean and takes the new path.
    /// Saving over the document's own file when it changed on disk since it was opened or
    /// last saved asks the conflict handler first: Overwrite, Save As (another file, asked
    /// from the save-as handler) or Cancel. Returns false with an empty `error` when the
    /// user cancelled (nothing was written), with the reason when writing failed.
    bool save(const QString &path, QString *error);

    /// Whether the document's file changed on disk (size or content) since it was opened or
    /// last saved. A file that is gone, or a document without a file, has not changed.
    bool changedOnDisk() const;
    /// Replaces the question asked on a conflict (default: a QMessageBox with Overwrite,
    /// Save As and Cancel); tests and non-interactive callers set their own.
    void setConflictHandler(ConflictHandler handler) { conflict_handler_ = std::move(handler); }
    /// Replaces the file dialog asked after Save As (default: QFileDialog).
    void setSaveAsHandler(SaveAsHandler handler) { save_as_handler_ = std::move(handler); }

    /// The scenario as the spec format (what save writes).
    QByteArray serialized() const;

Q_SIGNALS:
    void scenarioChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);

private:
    friend class EditScenarioCommand;
    void apply(const Scenario &scenario);
    void setFilePath(const QString &path);
    SaveConflictChoice askConflict(const QString &path) const;
    QString askSaveAsPath(const QString &path) const;

    Scenario scenario_;
    QString file_path_;
    DiskStamp stamp_; // of file_path_
    ConflictHandler conflict_handler_;
    SaveAsHandler save_as_handler_;
    QUndoStack undo_;
    bool modified_without_undo_ = false;
};

/// One user edit: the scenario before and after.
class EditScenarioCommand : public QUndoCommand
{
public:
    EditScenarioCommand(Document *document, Scenario before, Scenario after, const QString &text,
                        int merge_key);
    void undo() override;
    void redo() override;
    int id() const override { return merge_key_ != 0 ? 1 : -1; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    Document *document_;
    Scenario before_;
    Scenario after_;
    int merge_key_;
};

} // namespace scalescope
