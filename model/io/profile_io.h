// Calibration profiles (spec/profile.md): parsing with key-path errors, and writing.
#pragma once

#include "io/file_io.h"

#include "hardware/calibration.h"
#include "plan/error.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <vector>

namespace scalescope
{

/// Format version this code reads and writes ("scalescope_profile").
inline constexpr int kProfileVersion = 1;
/// Largest profile file accepted (bytes).
inline constexpr qint64 kMaxProfileFileBytes = 64 * 1024 * 1024;
/// Most items accepted in a profile's lists (clear errors instead of exhausting memory).
inline constexpr qsizetype kMaxProfileGpus = 1024;              // "gpus" (indices 0 to 1023)
inline constexpr qsizetype kMaxProfileP2P = 1024 * 1024;        // "p2p"
inline constexpr qsizetype kMaxProfileCollectives = 100000;     // "collectives"
inline constexpr qsizetype kMaxProfileFrameworkHost = 100;      // "framework_host"
inline constexpr qsizetype kMaxProfileNotes = 10000;            // "skipped", "errors"
inline constexpr qsizetype kMaxProfileGemmPoints = 10000;       // per gemm_tflops.<dtype>
inline constexpr qsizetype kMaxProfileThermalSamples = 1000000; // per GPU
inline constexpr qsizetype kMaxProfileThrottleReasons = 64;     // per thermal sample
/// Ranges of a profile's collectives and host (what parseProfile accepts; importers such as
/// the nccl-tests log reader check against them).
inline constexpr int64_t kMaxProfileCollectiveGpus = 131072;
inline constexpr int64_t kMaxProfileNodes = 65536;
inline constexpr int64_t kMaxProfileGpusPerNode = 1024;
inline constexpr int64_t kMaxProfileCollectiveBytes = 10000000000000; // 1e13
inline constexpr double kMaxProfileCollectiveTimeS = 1e6;
inline constexpr double kMaxProfileBandwidthGbps = 1e6;

/// Parses a profile document. Checks types, ranges and names; unknown keys are an error
/// except "x-..." names. Every error names the key path (gpus[0].gemm_tflops.bf16[2].tflops),
/// the value and what is allowed. Parts a probe may skip (GPUs, GEMM, bandwidth, thermal,
/// peer-to-peer, collectives) may be missing.
Result<CalibrationProfile> parseProfile(const QByteArray &json);

/// Reads and parses a profile file (size-limited); sets `path` to the file's absolute path.
Result<CalibrationProfile> loadProfileFile(const QString &path, ReadKinds kinds = ReadKinds::Any);

/// Serialises a profile in the spec's layout (`path` is not written). For every profile
/// parseProfile accepts, parseProfile(writeProfile(p)) gives p back.
QByteArray writeProfile(const CalibrationProfile &profile);

/// Writes atomically (writeFileSafely, io/file_io.h). Returns false and sets `error` on failure.
bool saveProfileFile(const QString &path, const CalibrationProfile &profile, QString *error);

/// How many samples of a measured trace each kind of fitted figure rests on.
struct TraceFitSamples {
    size_t collectives = 0, gemm = 0, launches = 0;
};
/// A profile fitted from measured traces as spec/profile.md writes it, each fitted figure
/// marked "x-source": "trace", with the traces (`trace_names`, as the user named them) and
/// the samples behind it: what `trace --profile` and the window's "Fit the model to this
/// run" write.
QByteArray writeTraceFittedProfile(const CalibrationProfile &profile,
                                   const TraceFitSamples &samples,
                                   const std::vector<QString> &trace_names);

} // namespace scalescope
