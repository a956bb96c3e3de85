// Reads the text output of nccl-tests (all_reduce_perf, all_gather_perf, reduce_scatter_perf,
// broadcast_perf, alltoall_perf) into a profile's collectives, so a cluster's known figures
// can be used without running gpuprobe there. Needs no GPU.
#pragma once

#include "hardware/calibration.h"
#include "plan/error.h"

#include <QByteArray>

#include <string>
#include <vector>

namespace scalescope::gpuprobe
{

/// Largest nccl-tests log accepted (bytes).
inline constexpr qint64 kMaxNcclTestsLogBytes = 64 * 1024 * 1024;
/// Longest host name accepted from a log's device lines.
inline constexpr int kMaxNcclTestsHostChars = 255;

struct NcclTestsLog {
    std::vector<ProfileCollective> collectives;
    /// Rows nccl-tests itself reported wrong (#wrong > 0): not written, listed as errors.
    std::vector<ProfileNote> errors;
    std::string hostname; // of rank 0, when the log lists its devices
    std::vector<std::string> gpu_models; // named in its device lines, in order of appearance
    int gpus = 0;         // largest group in the log
    int nodes = 1;
};

/// Parses one log. It may hold several runs (each starting with nccl-tests' "# nThread"
/// line), with or without the "#" header lines, from old (error column, no root column) and
/// new (#wrong, root) versions, with NCCL_DEBUG lines or a shell transcript around them.
/// The operation comes from the text ("all_gather_perf"), else from `file_name`, else from
/// the rows (size / (count * type size) and the redop column). The out-of-place time is
/// used; algbw and busbw are recomputed from size and time with nccl-tests' definitions.
/// Errors name the file and line. Every log accepted gives collectives inside a profile's
/// ranges (io/profile_io.h: GPUs, nodes, GPUs per node, bytes, time, bandwidth, counts), so
/// profileFromNcclTests of one log always writes a valid profile. Texts larger than
/// kMaxNcclTestsLogBytes are refused.
Result<NcclTestsLog> parseNcclTestsLog(const QByteArray &text, const std::string &file_name);

/// Merges logs into one profile (no GPUs measured; host from the logs).
CalibrationProfile profileFromNcclTests(const std::vector<NcclTestsLog> &logs,
                                        const std::vector<std::string> &file_names,
                                        const std::string &tool);

} // namespace scalescope::gpuprobe
