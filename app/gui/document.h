// The document: the scenario being edited, its file, and its undo history. Every change
// made by the user goes through an undo command (DESIGN.md section 3).
#pragma once

#include "plan/scenario.h"

#include <QObject>
#include <QString>
#include <QUndoCommand>
#include <QUndoStack>

namespace scalescope
{

class Document : public QObject
{
    Q_OBJECT
public:
    explicit Document(QObject *parent = nullptr);

    const Scenario &scenario() const { return scenario_; }
    QUndoStack *undoStack() { return &undo_; }
    QString filePath() const { return file_path_; }
    /// File name, or the scenario's name for a document never saved.
    QString displayName() const;
    bool isModified() const { return !undo_.isClean() || modified_without_undo_; }

    /// A user edit (undoable). Consecutive edits with the same non-zero merge key (one
    /// slider drag) become one undo entry. An edit that changes nothing is ignored.
    void edit(const Scenario &scenario, const QString &description, int merge_key = 0);
    /// Replaces the whole document (open, new, gallery, recovery); clears the history.
    void reset(const Scenario &scenario, const QString &file_path, bool modified = false);
    /// Opens a scenario file; on error the document is unchanged and `error` says why.
    bool open(const QString &path, QString *error);
    /// Saves atomically (QSaveFile); the document becomes clean and takes the new path.
    bool save(const QString &path, QString *error);

    /// The scenario as the spec format (what save writes).
    QByteArray serialized() const;

Q_SIGNALS:
    void scenarioChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);

private:
    friend class EditScenarioCommand;
    void apply(const Scenario &scenario);

    Scenario scenario_;
    QString file_path_;
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
