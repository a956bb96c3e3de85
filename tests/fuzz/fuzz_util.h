// Helpers shared by the libFuzzer targets (tests/fuzz/README.md). Built both with clang and
// libFuzzer (build-fuzz) and with the ordinary compiler for the regression replay
// (tests/fuzz_replay), so nothing here depends on libFuzzer.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace scalescope::fuzz
{

/// The input as a QByteArray (a copy: NUL-terminated like data read from a file).
inline QByteArray bytes(const uint8_t *data, size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
}

/// An invariant of the code under test does not hold: a finding, like a crash.
[[noreturn]] inline void finding(const char *what, const std::string &detail = {})
{
    std::fprintf(stderr, "FUZZ FINDING: %s%s%s\n", what, detail.empty() ? "" : ": ",
                 detail.c_str());
    std::fflush(stderr);
    std::abort();
}

/// A small valid calibration profile (spec/profile.md), so that a scenario's
/// "hardware.calibration": "profile.json" resolves inside the fuzzing folder.
inline constexpr const char *kProfileJson = R"({
  "scalescope_profile": 1,
  "created": "2026-11-30T10:00:00Z",
  "tool": "gpuprobe 0.1.0",
  "host": { "hostname": "fuzz", "cpu": "fuzz", "gpus_per_node": 0, "nodes": 1 },
  "gpus": [],
  "skipped": [ { "test": "gpu", "reason": "no CUDA device found" } ]
}
)";

/// A private folder for the process (removed at exit) holding "profile.json" and a
/// "broken.json" that is not a profile. Relative paths in inputs resolve here.
inline const QString &workDir()
{
    // tmpfs where there is one: the autosave target writes and locks a file per input.
    static const QString base = QFileInfo(QStringLiteral("/dev/shm")).isWritable()
                                    ? QStringLiteral("/dev/shm")
                                    : QDir::tempPath();
    static QTemporaryDir dir(base + QStringLiteral("/scalescope-fuzz-XXXXXX"));
    static const bool ready = [] {
        QFile profile(dir.filePath(QStringLiteral("profile.json")));
        QFile broken(dir.filePath(QStringLiteral("broken.json")));
        return dir.isValid() && profile.open(QIODevice::WriteOnly) &&
               profile.write(kProfileJson) > 0 && broken.open(QIODevice::WriteOnly) &&
               broken.write("{\"scalescope_profile\": 2}") > 0;
    }();
    if (!ready)
        finding("cannot create the fuzzing folder");
    static const QString path = dir.path();
    return path;
}

} // namespace scalescope::fuzz
