// Reading size-limited files and writing files safely, shared by every format and program.
#pragma once

#include "plan/error.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace scalescope
{

/// Reads `path` whole, refusing folders and files larger than `limit` bytes; `what` names
/// the kind of file in messages ("scenario file").
Result<QByteArray> readFileLimited(const QString &path, qint64 limit, const char *what);

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
    QString error; // "cannot write "x": ..." when !ok
    explicit operator bool() const { return ok; }
};

/// Writes `data` to `path`, the one place where files are written:
/// - a new or regular file is replaced atomically (QSaveFile: a crash never leaves a
///   half-written file); when its folder is not writable but the file is, the file is
///   written in place, otherwise the message names the folder;
/// - a target that is not a regular file (a FIFO, a character device such as /dev/null, a
///   socket) or a descriptor alias (/dev/stdout, /dev/fd/N, /proc/self/fd/N) is opened and
///   written directly, never renamed over;
/// - one of `guard.inputs` and (with guard.stdout_in_use) standard output are refused; a
///   folder or a missing folder fails.
WriteResult writeFileSafely(const QString &path, const QByteArray &data,
                            const WriteGuard &guard = {});

/// writeFileSafely() without inputs. Returns false and sets `error` on failure.
bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error);

} // namespace scalescope
