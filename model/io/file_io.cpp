#include "io/file_io.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace scalescope
{

Result<QByteArray> readFileLimited(const QString &path, qint64 limit, const char *what)
{
    const QFileInfo info(path);
    const std::string quoted = "\"" + path.toStdString() + "\"";
    if (path.isEmpty())
        return InputError{"", std::string("cannot read the ") + what + ": the file name is empty"};
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

namespace
{

bool statPath(const QString &path, struct stat *st)
{
    return ::stat(QFile::encodeName(path).constData(), st) == 0;
}

bool sameFile(const struct stat &a, const struct stat &b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

QString quoted(const QString &path)
{
    return QLatin1Char('"') + path + QLatin1Char('"');
}

WriteResult refused(const QString &path, const QString &why)
{
    return {false, true, QStringLiteral("cannot write %1: %2").arg(quoted(path), why)};
}

WriteResult failed(const QString &path, const QString &why)
{
    return {false, false, QStringLiteral("cannot write %1: %2").arg(quoted(path), why)};
}

// Paths that name an open descriptor (/dev/stdout, /dev/fd/1, /proc/self/fd/1): they
// resolve to whatever the descriptor is, even a regular file, which a rename would replace
// (and the descriptor would keep writing into the replaced file).
bool isDescriptorAlias(const QString &path)
{
    static const QRegularExpression alias(QStringLiteral(
        "^/(dev/(stdin|stdout|stderr)|dev/fd/[0-9]+|proc/(self|thread-self|[0-9]+)/fd/[0-9]+)$"));
    return alias.match(QDir::cleanPath(QFileInfo(path).absoluteFilePath())).hasMatch();
}

// Opens the target itself and writes into it (no temporary file, no rename).
WriteResult writeDirectly(const QString &path, const QByteArray &data)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return failed(path, file.errorString());
    if (file.write(data) != data.size())
        return failed(path, file.errorString());
    file.close();
    if (file.error() != QFileDevice::NoError)
        return failed(path, file.errorString());
    return {};
}

} // namespace

WriteResult writeFileSafely(const QString &path, const QByteArray &data, const WriteGuard &guard)
{
    if (path.isEmpty())
        return {false, true, QStringLiteral("cannot write a file with an empty name")};
    struct stat target = {};
    const bool exists = statPath(path, &target);
    if (exists) {
        if (S_ISDIR(target.st_mode))
            return failed(path, QStringLiteral("it is a folder"));
        for (const QString &input : guard.inputs) {
            struct stat in = {};
            if (!input.isEmpty() && statPath(input, &in) && sameFile(in, target))
                return refused(path, QStringLiteral("it is the same file as the input %1; "
                                                    "write to another file")
                                         .arg(quoted(input)));
        }
        struct stat out = {};
        if (guard.stdout_in_use && ::fstat(STDOUT_FILENO, &out) == 0 && sameFile(out, target) &&
            !S_ISCHR(out.st_mode))
            return refused(path, QStringLiteral("it is the standard output, which also receives "
                                                "the results; write to another file"));
        if (!S_ISREG(target.st_mode) || isDescriptorAlias(path))
            return writeDirectly(path, data);
    } else if (isDescriptorAlias(path)) {
        return writeDirectly(path, data);
    }

    const QFileInfo info(path);
    const QString folder = QDir::toNativeSeparators(info.absolutePath());
    if (!exists && !QFileInfo(info.absolutePath()).isDir())
        return failed(path, QStringLiteral("the folder %1 does not exist").arg(quoted(folder)));
    QSaveFile file(path);
    // A writable file in a read-only folder is written in place (not atomically).
    file.setDirectWriteFallback(true);
    if (file.open(QIODevice::WriteOnly) && file.write(data) == data.size() && file.commit())
        return {};
    if (::access(QFile::encodeName(info.absolutePath()).constData(), W_OK) != 0 &&
        (!exists || ::access(QFile::encodeName(path).constData(), W_OK) != 0))
        return failed(path, QStringLiteral("the folder %1 is not writable (%2)")
                                .arg(quoted(folder), file.errorString()));
    return failed(path, file.errorString());
}

bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error)
{
    const WriteResult result = writeFileSafely(path, data);
    if (!result && error)
        *error = result.error;
    return result.ok;
}

} // namespace scalescope
