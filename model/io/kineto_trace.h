// A streaming reader of PyTorch profiler (Kineto) Chrome-trace files, plain or gzip, one rank
// per file (spec/cli.md, section "trace: a measured run, and the prediction beside it").
//
// The file is read in chunks (zlib inflates a .gz as it goes) and parsed with RapidJSON's SAX
// reader: no document is built, no string is kept per event. What is kept per GPU activity
// is its times, class, stream and correlation (TraceActivity, 32 bytes); per launch its
// correlation, time and thread (24 bytes); the few other records (step annotations, the
// collectives' recorded sizes, GEMM shapes, launch durations) are small.
#pragma once

#include "analysis/measured_trace.h"
#include "plan/error.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>

namespace scalescope
{

struct TraceReadOptions {
    /// Called now and then with the bytes of the file read so far and its size.
    std::function<void(int64_t done, int64_t total)> progress;
    /// Set from any thread to stop reading: the result is then an error whose path is
    /// kTraceCancelled.
    const std::atomic<bool> *cancel = nullptr;
};

/// The InputError::path of a read stopped through TraceReadOptions::cancel.
inline constexpr const char *kTraceCancelled = "cancelled";

/// Reads one trace file. Errors name the file and what is missing (spec/cli.md "trace": an
/// empty file, not JSON, no traceEvents array, no kernel event); InputError::path is empty
/// except after a cancel.
Result<KinetoTrace> readKinetoTrace(const QString &path, const TraceReadOptions &options = {});

/// The same from bytes in memory (tests, fuzzing); `name` stands for the file in messages.
Result<KinetoTrace> parseKinetoTrace(const QByteArray &bytes, const QString &name,
                                     const TraceReadOptions &options = {});

} // namespace scalescope
