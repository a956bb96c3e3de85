// A calibration profile (spec/profile.md) fitted from measured traces (spec/cli.md "trace",
// --profile): what the traces record, and nothing they do not.
#pragma once

#include "analysis/measured_trace.h"
#include "hardware/calibration.h"

#include <string>
#include <vector>

namespace scalescope
{

struct TraceProfileOptions {
    /// GPUs per node of the job (from --scenario), to count the nodes a collective spans;
    /// 0: unknown (every collective is written as one node, and noted so).
    int gpus_per_node = 0;
    std::string created; // ISO 8601, the profile's "created"
    std::string hostname = "unknown (measured trace)";
};

/// Which figures came from the traces, and how many samples each rests on.
struct TraceProfileFit {
    CalibrationProfile profile;
    size_t collective_samples = 0;  // NCCL kernels with recorded sizes that were used
    size_t gemm_samples = 0;        // GEMM operators with recorded shapes and timed kernels
    size_t launch_samples = 0;      // cudaLaunchKernel durations
    bool nodes_known = false;       // gpus_per_node was given
    std::vector<std::string> notes; // what could not be fitted, and why
};

/// Fits:
/// - collectives: one entry per (op, GPUs, bytes) from NCCL kernels whose args record the
///   collective, its element count, dtype and group size; time = the median kernel
///   duration; algbw and busbw with nccl-tests' definitions;
/// - gpus[0].gemm_tflops: per (precision, m, n, k), the median achieved TFLOP/s (2 m n k over
///   the GPU time of the kernels the operator launched), where shapes were recorded;
/// - gpus[0].host_launch_us: the median duration of cudaLaunchKernel (the host's time to
///   issue one launch).
TraceProfileFit fitTraceProfile(const std::vector<const KinetoTrace *> &traces,
                                const TraceProfileOptions &options);

} // namespace scalescope
