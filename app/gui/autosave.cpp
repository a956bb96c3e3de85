#include "autosave.h"

#include "io/file_io.h"

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
        Result<QByteArray> data = readFileLimited(path, kMaxAutosaveBytes, "autosave file");
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

void AutosaveStore::discard(const RecoveredWork &work)
{
    QFile::remove(work.autosave_path);
}

QString AutosaveStore::setAside(const RecoveredWork &work)
{
    const QString kept = work.autosave_path + QStringLiteral(".damaged");
    QFile::remove(kept); // an older damaged autosave of the same slot
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
