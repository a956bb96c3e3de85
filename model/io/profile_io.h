// Calibration profiles (spec/profile.md): parsing with key-path errors, and writing.
#pragma once

#include "hardware/calibration.h"
#include "plan/error.h"

#include <QByteArray>
#include <QString>

namespace scalescope
{

/// Format version this code reads and writes ("scalescope_profile").
inline constexpr int kProfileVersion = 1;
/// Largest profile file accepted (bytes).
inline constexpr qint64 kMaxProfileFileBytes = 64 * 1024 * 1024;

/// Parses a profile document. Checks types, ranges and names; unknown keys are an error
/// except "x-..." names. Every error names the key path (gpus[0].gemm_tflops.bf16[2].tflops),
/// the value and what is allowed. Parts a probe may skip (GPUs, GEMM, bandwidth, thermal,
/// peer-to-peer, collectives) may be missing.
Result<CalibrationProfile> parseProfile(const QByteArray &json);

/// Reads and parses a profile file (size-limited); sets `path` to the file's absolute path.
Result<CalibrationProfile> loadProfileFile(const QString &path);

/// Serialises a profile in the spec's layout (`path` is not written). For every profile
/// parseProfile accepts, parseProfile(writeProfile(p)) gives p back.
QByteArray writeProfile(const CalibrationProfile &profile);

/// Writes atomically (QSaveFile). Returns false and sets `error` on failure.
bool saveProfileFile(const QString &path, const CalibrationProfile &profile, QString *error);

} // namespace scalescope
