#include "io/file_io.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <string>

namespace scalescope
{

Result<QByteArray> readFileLimited(const QString &path, qint64 limit, const char *what)
{
    const QFileInfo info(path);
    const std::string quoted = "\"" + path.toStdString() + "\"";
    if (info.isDir())
        return InputError{"", "cannot read " + quoted + ": it is a folder"};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return InputError{"", "cannot read " + quoted + ": " + file.errorString().toStdString()};
    const std::string too_large = "cannot read " + quoted + ": larger than the limit of " +
                                  std::to_string(limit) + " bytes for a " + what;
    if (file.size() > limit)
        return InputError{"", too_large + " (" + std::to_string(file.size()) + " bytes)"};
    // Read one byte past the limit: files that do not report their size (pipes) stop there.
    QByteArray data = file.read(limit + 1);
    if (data.size() > limit)
        return InputError{"", too_large};
    return data;
}

bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly) && file.write(data) == data.size() && file.commit())
        return true;
    if (error)
        *error = QStringLiteral("cannot write \"%1\": %2").arg(path, file.errorString());
    return false;
}

} // namespace scalescope
