#include "io/file_io.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>

#include <cerrno>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <locale.h>
#include <sys/stat.h>
#include <unistd.h>

namespace scalescope
{

QString decodeFileName(const QByteArray &name)
{
    QString out;
    out.reserve(name.size());
    const auto *p = reinterpret_cast<const unsigned char *>(name.constData());
    const qsizetype n = name.size();
    for (qsizetype i = 0; i < n;) {
        const unsigned char b = p[i];
        if (b < 0x80) {
            out.append(QChar(char16_t(b)));
            ++i;
            continue;
        }
        // The length of a well-formed sequence starting with `b`, and its smallest value
        // (overlong forms are not well-formed).
        int length = 0;
        char32_t value = 0, least = 0;
        if (b >= 0xC2 && b <= 0xDF)
            length = 2, value = b & 0x1F, least = 0x80;
        else if (b >= 0xE0 && b <= 0xEF)
            length = 3, value = b & 0x0F, least = 0x800;
        else if (b >= 0xF0 && b <= 0xF4)
            length = 4, value = b & 0x07, least = 0x10000;
        bool ok = length > 0 && i + length <= n;
        for (int k = 1; ok && k < length; ++k) {
            ok = (p[i + k] & 0xC0) == 0x80;
            value = (value << 6) | (p[i + k] & 0x3F);
        }
        ok = ok && value >= least && value <= 0x10FFFF && (value < 0xD800 || value > 0xDFFF);
        if (!ok) {
            out.append(QChar(char16_t(0xDC00 + b)));
            ++i;
            continue;
        }
        if (value >= 0x10000) {
            out.append(QChar(QChar::highSurrogate(value)));
            out.append(QChar(QChar::lowSurrogate(value)));
        } else {
            out.append(QChar(char16_t(value)));
        }
        i += length;
    }
    return out;
}

QByteArray encodeFileName(const QString &name)
{
    QByteArray out;
    out.reserve(name.size());
    const qsizetype n = name.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t u = name.at(i).unicode();
        char32_t value = u;
        if (QChar::isHighSurrogate(u) && i + 1 < n && name.at(i + 1).isLowSurrogate()) {
            value = QChar::surrogateToUcs4(u, name.at(i + 1).unicode());
            ++i;
        } else if (u >= 0xDC80 && u <= 0xDCFF) {
            out.append(char(u - 0xDC00)); // a byte decodeFileName() escaped
            continue;
        } else if (QChar::isSurrogate(u)) {
            value = 0xFFFD;
        }
        if (value < 0x80) {
            out.append(char(value));
        } else if (value < 0x800) {
            out.append(char(0xC0 | (value >> 6)));
            out.append(char(0x80 | (value & 0x3F)));
        } else if (value < 0x10000) {
            out.append(char(0xE0 | (value >> 12)));
            out.append(char(0x80 | ((value >> 6) & 0x3F)));
            out.append(char(0x80 | (value & 0x3F)));
        } else {
            out.append(char(0xF0 | (value >> 18)));
            out.append(char(0x80 | ((value >> 12) & 0x3F)));
            out.append(char(0x80 | ((value >> 6) & 0x3F)));
            out.append(char(0x80 | (value & 0x3F)));
        }
    }
    return out;
}

QString displayFileName(const QString &name)
{
    QString out;
    out.reserve(name.size());
    for (const QChar c : name) {
        if (c.unicode() >= 0xDC80 && c.unicode() <= 0xDCFF)
            out.append(
                QStringLiteral("\\x%1").arg(int(c.unicode() - 0xDC00), 2, 16, QLatin1Char('0')));
        else
            out.append(c);
    }
    return out;
}

QStringList decodeArguments(int argc, char **argv, int first)
{
    QStringList args;
    for (int i = first; i < argc; ++i)
        args.append(decodeFileName(QByteArray(argv[i])));
    return args;
}

namespace
{

// The system's reason for `code` in English, whatever the locale (strerror follows
// LC_MESSAGES, which QCoreApplication sets from the environment).
QString osError(int code)
{
    static const locale_t c_locale = ::newlocale(LC_ALL_MASK, "C", locale_t(nullptr));
    return QString::fromUtf8(c_locale ? ::strerror_l(code, c_locale) : std::strerror(code));
}

const char *kindOf(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

} // namespace

Result<QByteArray> readFileLimited(const QString &path, qint64 limit, const char *what,
                                   ReadKinds kinds)
{
    const std::string quoted = "\"" + displayFileName(path).toStdString() + "\"";
    if (path.isEmpty())
        return InputError{"", std::string("cannot read the ") + what + ": the file name is empty"};
    QFile file;
    qint64 size = -1; // -1: not known (a pipe)
    if (path.startsWith(QLatin1Char(':'))) {
        // A Qt resource (the built-in gallery and scenarios): read by QFile.
        file.setFileName(path);
        if (!file.open(QIODevice::ReadOnly))
            return InputError{"",
                              "cannot read " + quoted + ": " + file.errorString().toStdString()};
        size = file.size();
    } else {
        // Regular files only: open without blocking (a FIFO without a writer would block the
        // open, one with a silent writer the read) and look at what was opened.
        const int flags = O_RDONLY | O_CLOEXEC | (kinds == ReadKinds::RegularOnly ? O_NONBLOCK : 0);
        int fd = -1;
        do
            fd = ::open(encodeFileName(path).constData(), flags);
        while (fd < 0 && errno == EINTR);
        if (fd < 0)
            return InputError{"", "cannot read " + quoted + ": " + osError(errno).toStdString()};
        struct stat st = {};
        if (::fstat(fd, &st) != 0) {
            const int code = errno;
            ::close(fd);
            return InputError{"", "cannot read " + quoted + ": " + osError(code).toStdString()};
        }
        if (S_ISDIR(st.st_mode) || (kinds == ReadKinds::RegularOnly && !S_ISREG(st.st_mode))) {
            ::close(fd);
            return InputError{"", "cannot read " + quoted + ": " +
                                      (S_ISDIR(st.st_mode)
                                           ? std::string("it is a folder")
                                           : std::string("it is ") + kindOf(st.st_mode) +
                                                 "; allowed: a regular file")};
        }
        if (kinds == ReadKinds::RegularOnly)
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
            ::close(fd);
            return InputError{"",
                              "cannot read " + quoted + ": " + file.errorString().toStdString()};
        }
        if (S_ISREG(st.st_mode))
            size = st.st_size;
    }
    const std::string too_large = "cannot read " + quoted + ": larger than the limit of " +
                                  std::to_string(limit) + " bytes for a " + what;
    if (size > limit)
        return InputError{"", too_large + " (" + std::to_string(size) + " bytes)"};
    // Read one byte past the limit: files that do not report their size (pipes) stop there.
    QByteArray data = file.read(limit + 1);
    if (file.error() != QFileDevice::NoError)
        return InputError{"", "cannot read " + quoted + ": " + file.errorString().toStdString()};
    if (data.size() > limit)
        return InputError{"", too_large};
    return data;
}

namespace
{

bool statPath(const QString &path, struct stat *st)
{
    return ::stat(encodeFileName(path).constData(), st) == 0;
}

bool sameFile(const struct stat &a, const struct stat &b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

QString quoted(const QString &path)
{
    return QLatin1Char('"') + displayFileName(path) + QLatin1Char('"');
}

WriteResult refused(const QString &path, const QString &why)
{
    return {false, true, QStringLiteral("cannot write %1: %2").arg(quoted(path), why), why};
}

WriteResult failed(const QString &path, const QString &why)
{
    return {false, false, QStringLiteral("cannot write %1: %2").arg(quoted(path), why), why};
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

int openRetrying(const char *path, int flags, mode_t mode = 0)
{
    int fd = -1;
    do
        fd = ::open(path, flags, mode);
    while (fd < 0 && errno == EINTR);
    return fd;
}

// Writes all of `data` at the descriptor's position (offset < 0) or at `offset`; 0 or the
// errno of the failure.
int writeAll(int fd, const QByteArray &data, off_t offset = -1)
{
    const char *p = data.constData();
    qsizetype left = data.size();
    while (left > 0) {
        const ssize_t n =
            offset < 0 ? ::write(fd, p, size_t(left)) : ::pwrite(fd, p, size_t(left), offset);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (n == 0)
            return EIO;
        p += n;
        left -= n;
        if (offset >= 0)
            offset += n;
    }
    return 0;
}

// Closes `fd`; 0 or the errno of a failure (NFS reports some write errors here).
int closeChecked(int fd)
{
    return ::close(fd) == 0 || errno == EINTR ? 0 : errno;
}

// fsync, where the file supports it.
int syncChecked(int fd)
{
    return ::fsync(fd) == 0 || errno == EINVAL || errno == EROFS ? 0 : errno;
}

// Opens the target itself and writes into it (no temporary file, no rename), never
// truncating it first: a regular file gets room for the new length (fallocate), is
// written over and cut to the new length only after the whole write succeeded, so that a
// failure to grow it keeps the old bytes. 0 or the errno of the failure.
int writeInPlace(const QByteArray &native, const QByteArray &data)
{
    const int fd = openRetrying(native.constData(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    struct stat st = {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        // A FIFO, a device, a socket: written as a stream.
        const int error = writeAll(fd, data);
        const int close_error = closeChecked(fd);
        return error ? error : close_error;
    }
    const off_t old_size = st.st_size;
    int error = 0;
    if (data.size() > old_size && ::fallocate(fd, 0, 0, off_t(data.size())) != 0 &&
        errno != EOPNOTSUPP && errno != ENOSYS) {
        error = errno;
        // Some file systems grow the file before they fail: give it its old length back.
        struct stat now = {};
        if (::fstat(fd, &now) == 0 && now.st_size != old_size)
            (void)!::ftruncate(fd, old_size);
    }
    if (!error)
        error = writeAll(fd, data, 0);
    if (!error && ::ftruncate(fd, off_t(data.size())) != 0)
        error = errno;
    if (!error)
        error = syncChecked(fd);
    const int close_error = closeChecked(fd);
    return error ? error : close_error;
}

WriteResult writeDirectly(const QString &path, const QByteArray &data)
{
    if (const int error = writeInPlace(encodeFileName(path), data))
        return failed(path, osError(error));
    return {};
}

// A temporary file in `folder` with a short random name (a target of up to NAME_MAX bytes
// keeps its folder's limits), created with mode 0666 less the umask like a new file.
int createTemporary(const QByteArray &folder, QByteArray *name)
{
    static const char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int attempt = 0; attempt < 100; ++attempt) {
        QByteArray candidate = folder + "/.scalescope-";
        for (int k = 0; k < 6; ++k)
            candidate.append(
                kLetters[QRandomGenerator::global()->bounded(int(sizeof kLetters) - 1)]);
        const int fd =
            openRetrying(candidate.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *name = candidate;
            return fd;
        }
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

// Writes `data` to a temporary file beside `native` and renames it over `native`; 0 or the
// errno of the failure (the temporary file removed, `native` untouched). `mode`: the
// permissions to give the file (those of the file replaced), or -1 for a new file.
int replaceAtomically(const QByteArray &folder, const QByteArray &native, const QByteArray &data,
                      int mode, bool *temporary_failed)
{
    QByteArray temporary;
    const int fd = createTemporary(folder, &temporary);
    if (fd < 0) {
        *temporary_failed = true;
        return errno;
    }
    int error = 0;
    if (mode >= 0 && ::fchmod(fd, mode_t(mode)) != 0)
        error = errno;
    if (!error)
        error = writeAll(fd, data);
    if (!error)
        error = syncChecked(fd);
    const int close_error = closeChecked(fd);
    if (!error)
        error = close_error;
    if (!error && ::rename(temporary.constData(), native.constData()) != 0)
        error = errno;
    if (error)
        ::unlink(temporary.constData());
    return error;
}

} // namespace

WriteResult checkWriteTarget(const QString &path, const WriteGuard &guard)
{
    if (path.isEmpty())
        return {false, true, QStringLiteral("cannot write a file with an empty name"),
                QStringLiteral("the file name is empty")};
    struct stat target = {};
    if (statPath(path, &target)) {
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
    }
    return {};
}

WriteResult writeFileSafely(const QString &path, const QByteArray &data, const WriteGuard &guard)
{
    if (const WriteResult checked = checkWriteTarget(path, guard); !checked)
        return checked;
    struct stat target = {};
    const bool exists = statPath(path, &target);
    if (exists) {
        if (S_ISDIR(target.st_mode))
            return failed(path, QStringLiteral("it is a folder"));
        if (!S_ISREG(target.st_mode) || isDescriptorAlias(path))
            return writeDirectly(path, data);
    } else if (isDescriptorAlias(path)) {
        return writeDirectly(path, data);
    }

    // The file a symlink points to is replaced, not the symlink.
    QByteArray native = encodeFileName(path);
    if (exists) {
        if (char *resolved = ::realpath(native.constData(), nullptr)) {
            native = resolved;
            std::free(resolved);
        }
    }
    const qsizetype slash = native.lastIndexOf('/');
    const QByteArray folder = slash < 0    ? QByteArray(".")
                              : slash == 0 ? QByteArray("/")
                                           : native.left(slash);
    const QString shown_folder = QDir::toNativeSeparators(
        exists ? QDir(decodeFileName(folder)).absolutePath() : QFileInfo(path).absolutePath());
    struct stat folder_stat = {};
    if (!exists && (::stat(folder.constData(), &folder_stat) != 0 || !S_ISDIR(folder_stat.st_mode)))
        return failed(path,
                      QStringLiteral("the folder %1 does not exist").arg(quoted(shown_folder)));
    bool temporary_failed = false;
    const int error = replaceAtomically(
        folder, native, data, exists ? int(target.st_mode & 07777) : -1, &temporary_failed);
    if (!error)
        return {};
    if (!temporary_failed)
        return failed(path, osError(error));
    // The folder takes no new file: a writable file is written in place (not atomically).
    if (exists && (error == EACCES || error == EPERM || error == EROFS) &&
        ::access(native.constData(), W_OK) == 0) {
        if (const int in_place = writeInPlace(native, data))
            return failed(path, osError(in_place));
        return {};
    }
    if (error == EACCES || error == EPERM || error == EROFS)
        return failed(path, QStringLiteral("the folder %1 is not writable (%2)")
                                .arg(quoted(shown_folder), osError(error)));
    return failed(path, osError(error));
}

bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error)
{
    const WriteResult result = writeFileSafely(path, data);
    if (!result && error)
        *error = result.error;
    return result.ok;
}

} // namespace scalescope
