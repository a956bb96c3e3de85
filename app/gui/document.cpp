#include "document.h"

#include "controls/control_checks.h"
#include "io/catalog_io.h"
#include "io/file_io.h"
#include "io/scenario_io.h"
#include "model_text.h"

#include <QApplication>
#include <QCryptographicHash>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

namespace scalescope
{

namespace
{

/// The stamp of `path` now; with `content`, the bytes just read from or written to it
/// (hashed instead of reading the file again).
DiskStamp stampOf(const QString &path, const QByteArray *content = nullptr)
{
    DiskStamp stamp;
    const QFileInfo info(path);
    if (path.isEmpty() || !info.isFile())
        return stamp; // none, or a FIFO or device: nothing that another window saves
    stamp.exists = true;
    stamp.size = info.size();
    stamp.modified = info.lastModified();
    if (content != nullptr) {
        stamp.size = content->size();
        stamp.sha256 = QCryptographicHash::hash(*content, QCryptographicHash::Sha256);
    } else if (Result<QByteArray> data = readFileLimited(path, kMaxScenarioFileBytes,
                                                         "scenario file", ReadKinds::RegularOnly)) {
        stamp.size = data.value().size();
        stamp.sha256 = QCryptographicHash::hash(data.value(), QCryptographicHash::Sha256);
    }
    return stamp;
}

} // namespace

Document::Document(QObject *parent) : QObject(parent)
{
    connect(&undo_, &QUndoStack::cleanChanged, this,
            [this](bool) { Q_EMIT modifiedChanged(isModified()); });
}

QString Document::displayName() const
{
    if (!file_path_.isEmpty())
        return QFileInfo(file_path_).fileName();
    // An edited scenario is named by what it runs on now: its written name ("... (PCIe,
    // 25 GbE)") went stale with the first change of hardware (issue 26).
    if (!scenario_.name.empty() && !isModified())
        return QString::fromStdString(scenario_.name);
    return scenarioHeadline(scenario_);
}

QByteArray Document::serialized() const
{
    return writeScenario(scenario_);
}

void Document::apply(const Scenario &scenario)
{
    scenario_ = scenario;
    Q_EMIT scenarioChanged();
}

void Document::edit(const Scenario &scenario, const QString &description, int merge_key)
{
    if (scenario == scenario_)
        return;
    undo_.push(new EditScenarioCommand(this, scenario_, scenario, description, merge_key));
}

void Document::setFilePath(const QString &path)
{
    if (file_path_ != path) {
        file_path_ = path;
        Q_EMIT filePathChanged(file_path_);
    }
}

void Document::reset(const Scenario &scenario, const QString &file_path, bool modified)
{
    undo_.clear();
    modified_without_undo_ = modified;
    // Not read from the file (recovered work, a gallery entry): later saves are checked
    // against the file as it is now.
    stamp_ = stampOf(file_path);
    setFilePath(file_path);
    apply(scenario);
    Q_EMIT modifiedChanged(isModified());
}

bool Document::open(const QString &path, QString *error)
{
    // Read once: the stamp is of the bytes parsed, not of a later version of the file. In
    // the GUI thread: regular files only, opened without blocking (a FIFO would hang it).
    const Result<QByteArray> data =
        readFileLimited(path, kMaxScenarioFileBytes, "scenario file", ReadKinds::RegularOnly);
    Result<Scenario> loaded =
        data ? parseScenario(data.value(), builtinCatalog(), QFileInfo(path).absolutePath())
             : Result<Scenario>(data.error());
    if (!loaded) {
        if (error)
            *error = QString::fromStdString(loaded.error().toString());
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    reset(loaded.value(), absolute);
    stamp_ = stampOf(absolute, &data.value());
    return true;
}

bool Document::changedOnDisk() const
{
    if (file_path_.isEmpty())
        return false;
    const DiskStamp now = stampOf(file_path_);
    if (!now.exists)
        return false; // gone: saving loses nothing
    if (!stamp_.exists)
        return true; // a file appeared where there was none
    // The modification time alone is not enough (two saves within its resolution) and not
    // needed (a touched file with the same content loses nothing): size and content decide.
    return now.size != stamp_.size || now.sha256 != stamp_.sha256;
}

bool Document::save(const QString &path, QString *error)
{
    if (error)
        error->clear();
    // A file the parser would refuse is not written (plan/rules.h): the message names the
    // control to fix; the work stays in the window and in its autosave.
    for (const ControlIssue &issue : checkScenario(scenario_)) {
        if (issue.severity != ControlIssue::Severity::Error)
            continue;
        if (error)
            *error = tr("Not saved: a scenario file cannot hold this plan, it would not open "
                        "again. Fix %1 first: %2")
                         .arg(issue.key_path, issue.message);
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute == file_path_ && changedOnDisk()) {
        const SaveConflictChoice choice =
            conflict_handler_ ? conflict_handler_(absolute) : askConflict(absolute);
        if (choice == SaveConflictChoice::Cancel)
            return false;
        if (choice == SaveConflictChoice::SaveAs) {
            const QString other =
                save_as_handler_ ? save_as_handler_(absolute) : askSaveAsPath(absolute);
            if (other.isEmpty())
                return false;
            if (QFileInfo(other).absoluteFilePath() != absolute)
                return save(other, error);
            // The same file chosen again in the dialog: the user overwrites it.
        }
    }
    const QByteArray data = writeScenario(scenario_, QFileInfo(absolute).absolutePath());
    if (!writeFileAtomically(path, data, error))
        return false;
    stamp_ = stampOf(absolute, &data);
    modified_without_undo_ = false;
    undo_.setClean();
    setFilePath(absolute);
    Q_EMIT modifiedChanged(isModified());
    return true;
}

SaveConflictChoice Document::askConflict(const QString &path) const
{
    const QFileInfo info(path);
    QMessageBox box(
        QMessageBox::Warning, tr("File changed on disk"),
        tr("“%1” was changed on disk by another window or program (%2) since you "
           "opened or last saved it.")
            .arg(info.fileName(), QLocale().toString(info.lastModified(), QLocale::ShortFormat)),
        QMessageBox::NoButton, QApplication::activeWindow());
    box.setTextFormat(Qt::PlainText); // it names the file
    box.setInformativeText(tr("Overwrite it with your version (the other changes are lost), "
                              "save your version under another name, or cancel?"));
    QPushButton *overwrite = box.addButton(tr("Overwrite"), QMessageBox::DestructiveRole);
    QPushButton *save_as = box.addButton(tr("Save As…"), QMessageBox::AcceptRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(save_as);
    box.setEscapeButton(cancel);
    box.exec();
    if (box.clickedButton() == overwrite)
        return SaveConflictChoice::Overwrite;
    if (box.clickedButton() == save_as)
        return SaveConflictChoice::SaveAs;
    return SaveConflictChoice::Cancel;
}

QString Document::askSaveAsPath(const QString &path) const
{
    QString chosen =
        QFileDialog::getSaveFileName(QApplication::activeWindow(), tr("Save scenario as"),
                                     QFileInfo(path).absolutePath(), tr("Scenarios (*.json)"));
    if (!chosen.isEmpty() && QFileInfo(chosen).suffix().isEmpty())
        chosen += QStringLiteral(".json");
    return chosen;
}

EditScenarioCommand::EditScenarioCommand(Document *document, Scenario before, Scenario after,
                                         const QString &text, int merge_key)
    : QUndoCommand(text), document_(document), before_(std::move(before)), after_(std::move(after)),
      merge_key_(merge_key)
{
}

void EditScenarioCommand::undo()
{
    document_->apply(before_);
}
void EditScenarioCommand::redo()
{
    document_->apply(after_);
}

bool EditScenarioCommand::mergeWith(const QUndoCommand *other)
{
    const auto *o = dynamic_cast<const EditScenarioCommand *>(other);
    if (o == nullptr || merge_key_ == 0 || o->merge_key_ != merge_key_)
        return false;
    after_ = o->after_;
    setText(o->text());
    return true;
}

} // namespace scalescope
