#include "autosave.h"

#include "io/file_io.h"
#include "io/scenario_io.h"
#include "plan/rules.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace scalescope
{

namespace
{
constexpr qint64 kMaxAutosaveBytes = 16 * 1024 * 1024;
const QLatin1String kKey("x-autosave");

/// `stem` + `suffix` if no file is there, else with "-2", "-3", ... between them.
QString freeName(const QString &stem, const QString &suffix)
{
    QString path = stem + suffix;
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = stem + QStringLiteral("-%1").arg(n) + suffix;
    return path;
}
} // namespace

AutosaveStore::AutosaveStore(const QString &directory)
    : directory_(directory.isEmpty()
                     ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                           QStringLiteral("/autosave")
                     : directory)
{
    QDir().mkpath(directory_);
    // Pick a free slot: the first whose lock this process can take.
    for (int slot = 0; slot < 1000; ++slot) {
        const QString base = directory_ + QStringLiteral("/autosave-%1").arg(slot);
        auto lock = std::make_unique<QLockFile>(base + QStringLiteral(".lock"));
        lock->setStaleLockTime(0);
        if (!lock->tryLock(0))
            continue;
        // A free slot may still hold the autosave of an instance that died: keep it for
        // recovery and take the next slot.
        if (QFileInfo::exists(base + QStringLiteral(".json"))) {
            lock->unlock();
            continue;
        }
        lock_ = std::move(lock);
        own_path_ = base + QStringLiteral(".json");
        break;
    }
}

AutosaveStore::~AutosaveStore() = default;

std::vector<RecoveredWork> AutosaveStore::orphans() const
{
    std::vector<RecoveredWork> found;
    const QDir dir(directory_);
    const QStringList files =
        dir.entryList({QStringLiteral("autosave-*.json")}, QDir::Files, QDir::Name);
    for (const QString &name : files) {
        const QString path = dir.filePath(name);
        if (path == own_path_)
            continue;
        QString base = path;
        base.chop(5);
        QLockFile lock(base + QStringLiteral(".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue; // its instance is still running
        lock.unlock();
        RecoveredWork work;
        work.autosave_path = path;
        work.saved_at = QFileInfo(path).lastModified();
        Result<QByteArray> data =
            readFileLimited(path, kMaxAutosaveBytes, "autosave file", ReadKinds::RegularOnly);
        if (!data) {
            work.error = QString::fromStdString(data.error().toString());
        } else {
            QJsonParseError parse_error;
            const QJsonDocument doc = QJsonDocument::fromJson(data.value(), &parse_error);
            if (!doc.isObject()) {
                // Valid JSON that is not an object (an array, a number) is no scenario either.
                work.error = QCoreApplication::translate("Autosave", "not valid JSON: %1")
                                 .arg(parse_error.error == QJsonParseError::NoError
                                          ? QStringLiteral("not an object")
                                          : parse_error.errorString());
            } else {
                const QJsonObject meta = doc.object().value(kKey).toObject();
                work.original_path = meta.value(QLatin1String("file")).toString();
                work.scenario_json = data.value();
            }
        }
        found.push_back(std::move(work));
    }
    return found;
}

RecoveredScenario AutosaveStore::openScenario(const RecoveredWork &work, const Catalog &catalog)
{
    const QString base_dir = QFileInfo(work.original_path).absolutePath();
    Result<Scenario> parsed = parseScenario(work.scenario_json, catalog, base_dir);
    if (parsed)
        return RecoveredScenario{std::move(parsed).value(), {}};
    // Work the window held while a rule across keys was broken (it autosaves what the user
    // is editing): offered as it was, with the rule's error shown beside its control.
    if (Result<ScenarioDraft> draft = parseScenarioDraft(work.scenario_json, catalog, base_dir))
        if (std::optional<InputError> rule = ruleError(draft.value().scenario))
            return RecoveredScenario{std::move(draft.value().scenario), std::move(*rule)};
    return RecoveredScenario{std::nullopt, parsed.error()};
}

void AutosaveStore::discard(const RecoveredWork &work)
{
    QFile::remove(work.autosave_path);
}

QString AutosaveStore::setAside(const RecoveredWork &work)
{
    const QFileInfo info(work.autosave_path);
    const QString kept =
        work.error.isEmpty()
            ? freeName(info.dir().filePath(QStringLiteral("kept-") + info.completeBaseName()),
                       QStringLiteral(".json"))
            : freeName(work.autosave_path, QStringLiteral(".damaged"));
    if (!QFile::rename(work.autosave_path, kept))
        return QString();
    return kept;
}

bool AutosaveStore::write(const QByteArray &scenario_json, const QString &original_path,
                          QString *error)
{
    if (own_path_.isEmpty()) {
        if (error)
            *error =
                QCoreApplication::translate("Autosave", "no autosave slot in %1").arg(directory_);
        return false;
    }
    QJsonParseError parse_error;
    QJsonDocument doc = QJsonDocument::fromJson(scenario_json, &parse_error);
    if (!doc.isObject()) {
        if (error)
            *error = parse_error.errorString();
        return false;
    }
    QJsonObject object = doc.object();
    QJsonObject meta;
    meta.insert(QLatin1String("file"), original_path);
    meta.insert(QLatin1String("saved_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    object.insert(kKey, meta);
    return writeFileAtomically(own_path_, QJsonDocument(object).toJson(), error);
}

void AutosaveStore::clear()
{
    if (!own_path_.isEmpty())
        QFile::remove(own_path_);
}

} // namespace scalescope
