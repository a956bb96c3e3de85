// Reading size-limited files and writing files safely, shared by every format and program.
#pragma once

#include "plan/error.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace scalescope
{

/// File names as the system has them (bytes) and as QString, losslessly: valid UTF-8
/// decodes as usual; each byte that is not part of valid UTF-8 decodes to the lone
/// surrogate U+DC00 + byte (as Python's "surrogateescape"), which encodeFileName() turns
/// back into that byte. QFile::decodeName() would turn such a byte into U+FFFD, so that a
/// file "tr\xFF.json" named on the command line became another file. Every path that
/// file_io.h opens goes through encodeFileName().
QString decodeFileName(const QByteArray &name);
QByteArray encodeFileName(const QString &name);

/// `name` for messages: each byte escaped by decodeFileName() as the text \xNN (a lone
/// surrogate cannot be written as UTF-8). The messages of file_io.h quote names so.
QString displayFileName(const QString &name);

/// argv[first..argc) decoded with decodeFileName(): the program's arguments with their
/// bytes kept (QCoreApplication::arguments() loses bytes that are not UTF-8).
QStringList decodeArguments(int argc, char **argv, int first = 1);

/// Which files readFileLimited() opens.
enum class ReadKinds {
    /// Any readable file but a folder, FIFOs and devices too (a pipe is read to the limit).
    Any,
    /// Regular files only, opened without blocking (O_NONBLOCK) and checked on the open
    /// descriptor: for a GUI thread, where a FIFO (or a symlink to one) would hang.
    RegularOnly,
};

/// Reads `path` whole, refusing folders and files larger than `limit` bytes; `what` names
/// the kind of file in messages ("scenario file").
Result<QByteArray> readFileLimited(const QString &path, qint64 limit, const char *what,
                                   ReadKinds kinds = ReadKinds::Any);

/// What writeFileSafely() checks besides the target itself.
struct WriteGuard {
    /// Files the program read: the target must not be one of them (compared by device and
    /// inode, so symlinks and relative paths are caught).
    QStringList inputs;
    /// The program also writes its results to standard output: a target that is the same
    /// file or pipe as standard output is refused (a character device such as /dev/null or
    /// a terminal is allowed).
    bool stdout_in_use = false;
};

/// Outcome of writeFileSafely(). `refused` errors are invalid input (the target is one of
/// the inputs or standard output); the others are failures to write (a folder, a missing
/// or read-only folder, a full disk, permissions).
struct WriteResult {
    bool ok = true;
    bool refused = false;
    QString error;  // "cannot write "x": ..." when !ok
    QString reason; // the reason alone ("File too large"), for messages of their own
    explicit operator bool() const { return ok; }
};

/// Writes `data` to `path`, the one place where files are written:
/// - a new or regular file (or the regular file a symlink points to) is replaced
///   atomically: `data` is written to a temporary file with a short name in the same
///   folder (".scalescope-XXXXXX", so that a 255-byte name can be replaced too), flushed
///   to the disk (fsync) and checked, and only then renamed over the target; a failure (a
///   full disk, a file size limit) removes the temporary file, keeps the old file and
///   reports the system's reason (strerror, in English);
/// - when the folder is not writable but the file is, the file is written in place
///   without truncating it first: room for the new length is allocated (fallocate), the
///   bytes are written over the old ones and the file is cut to the new length only after
///   the whole write succeeded, so that a failure to grow it keeps the old bytes; otherwise
///   the message names the folder;
/// - a target that is not a regular file (a FIFO, a character device such as /dev/null, a
///   socket) or a descriptor alias (/dev/stdout, /dev/fd/N, /proc/self/fd/N) is opened and
///   written directly, never renamed over;
/// - one of `guard.inputs` and (with guard.stdout_in_use) standard output are refused; a
///   folder or a missing folder fails.
WriteResult writeFileSafely(const QString &path, const QByteArray &data,
                            const WriteGuard &guard = {});

/// The refusals of writeFileSafely() alone (an empty name, one of `guard.inputs`, the
/// standard output), for a program to check its output before the work that fills it.
WriteResult checkWriteTarget(const QString &path, const WriteGuard &guard);

/// writeFileSafely() without inputs. Returns false and sets `error` on failure.
bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error);

} // namespace scalescope
