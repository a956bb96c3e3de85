#include "document.h"

#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QFileInfo>

namespace scalescope
{

Document::Document(QObject *parent) : QObject(parent)
{
    connect(&undo_, &QUndoStack::cleanChanged, this,
            [this](bool) { Q_EMIT modifiedChanged(isModified()); });
}

QString Document::displayName() const
{
    if (!file_path_.isEmpty())
        return QFileInfo(file_path_).fileName();
    if (!scenario_.name.empty())
        return QString::fromStdString(scenario_.name);
    return tr("Untitled");
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
    if (writeScenario(scenario) == writeScenario(scenario_))
        return;
    undo_.push(new EditScenarioCommand(this, scenario_, scenario, description, merge_key));
}

void Document::reset(const Scenario &scenario, const QString &file_path, bool modified)
{
    undo_.clear();
    modified_without_undo_ = modified;
    if (file_path_ != file_path) {
        file_path_ = file_path;
        Q_EMIT filePathChanged(file_path_);
    }
    apply(scenario);
    Q_EMIT modifiedChanged(isModified());
}

bool Document::open(const QString &path, QString *error)
{
    Result<Scenario> loaded = loadScenarioFile(path, builtinCatalog());
    if (!loaded) {
        if (error)
            *error = QString::fromStdString(loaded.error().toString());
        return false;
    }
    reset(loaded.value(), QFileInfo(path).absoluteFilePath());
    return true;
}

bool Document::save(const QString &path, QString *error)
{
    if (!saveScenarioFile(path, scenario_, error))
        return false;
    modified_without_undo_ = false;
    undo_.setClean();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (file_path_ != absolute) {
        file_path_ = absolute;
        Q_EMIT filePathChanged(file_path_);
    }
    Q_EMIT modifiedChanged(isModified());
    return true;
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
