// Reading size-limited files and writing files atomically, shared by every format.
#pragma once

#include "plan/error.h"

#include <QByteArray>
#include <QString>

namespace scalescope
{

/// Reads `path` whole, refusing folders and files larger than `limit` bytes; `what` names
/// the kind of file in messages ("scenario file").
Result<QByteArray> readFileLimited(const QString &path, qint64 limit, const char *what);

/// Writes `data` to `path` atomically (QSaveFile: a crash never leaves a half-written file).
/// Returns false and sets `error` on failure.
bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error);

} // namespace scalescope
