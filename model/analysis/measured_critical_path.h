// The critical path of a measured step (issue 28, item 4): the chain of GPU activities, host
// calls and the gaps between them that sets the step's length, found from the dependencies the
// trace records. The public reference is HolisticTraceAnalysis' critical-path analysis (Meta,
// hta/analyzers/critical_path_analysis.py): a graph whose edges are the order of each CUDA
// stream, each kernel's launch (args.correlation), the order of each host thread, and the
// CUDA event synchronisations of `cuda_sync` events; the path is the longest through it.
// Here the same edges are walked back from the activity that ends the step, each node to
// the predecessor that released it last (as sim/critical_path.h does for a predicted step).
// Traces without `cuda_sync` events (PyTorch before 2.4, or the flag off) do not record which
// stream waited for which: a GPU activity that starts later than its stream and its launch
// allow, within kInferredWaitUs of another stream's activity ending, is taken as waiting for
// that one, and such links are counted apart ("inferred"). No Qt.
#pragma once

#include "analysis/measured_run.h"
#include "analysis/measured_trace.h"
#include "sim/timeline.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace scalescope
{

/// What a stretch of the path is.
enum class PathPart : uint8_t {
    Compute = 0,   // a compute kernel
    Communication, // a communication kernel
    Copy,          // a memcpy / memset
    Host,          // host calls and the host's own work between them on one thread
    LaunchGap,     // released but not yet running: between a release and the GPU start
    Untraced       // before the first traced node of the path inside the step
};
inline constexpr int kPathPartCount = 6;
const char *pathPartName(PathPart part); // "compute", ..., "untraced" (the --json keys)

/// Which dependency released a node of the path.
enum class PathLink : uint8_t {
    StreamOrder = 0, // the previous activity of the same CUDA stream
    Launch,          // the host call that launched it (same correlation)
    RecordedWait,    // a `cuda_sync` Stream Wait Event, or a host sync on recorded work
    InferredWait,    // another stream's activity ending just before it started (no cuda_sync)
    HostOrder,       // the previous host call of the same thread
    HostSync         // a synchronising host call released by the GPU work it waited for
};
inline constexpr int kPathLinkCount = 6;
const char *pathLinkName(PathLink link); // "stream_order", ..., "host_sync"

/// Another stream's activity that ended at most this long before a GPU activity started (and
/// after everything its stream and launch waited for) released it, when the trace records no
/// synchronisation: cross-stream event waits resolve on the GPU within microseconds (CUDA
/// Programming Guide, "Events" / cudaStreamWaitEvent; HTA uses the recorded event instead).
inline constexpr double kInferredWaitUs = 20.0;

/// One stretch of the path, in the trace's microseconds.
struct MeasuredPathSegment {
    double start_us = 0, end_us = 0;
    PathPart part = PathPart::Compute;
    CommKind kind = CommKind::None; // for Communication
};

/// The critical path of one step of one rank.
struct MeasuredCriticalPath {
    int64_t step = -1; // the step's number (MeasuredStep::number)
    double start_us = 0, end_us = 0;
    /// Seconds of the path in each part: they add up to the step's length exactly.
    std::array<double, kPathPartCount> seconds{};
    std::array<double, kCommKindCount> communication_by_kind_s{};
    /// How often each dependency released the next node of the path.
    std::array<size_t, kPathLinkCount> links{};
    bool waits_recorded = false;               // the trace has `cuda_sync` events
    std::vector<MeasuredPathSegment> segments; // in time order, adjacent parts merged

    /// A wait between streams on the path was inferred from timing (no `cuda_sync` events).
    bool waitsInferred() const
    {
        return !waits_recorded && links[static_cast<size_t>(PathLink::InferredWait)] > 0;
    }
};

/// The parts of `path` that take at least `min_share` of its step, largest first: the order
/// in which the CLI's sentence and the Measured run tab name them.
std::vector<PathPart> partsBySize(const MeasuredCriticalPath &path, double min_share = 0.0005);

/// The critical path of each step of `rank` (measured from `trace`), in the steps' order.
std::vector<MeasuredCriticalPath> measuredCriticalPaths(const KinetoTrace &trace,
                                                        const MeasuredRank &rank);

/// The path of the step whose length is the median of `paths` (the shorter middle one of an
/// even count): the step the CLI's sentence and the Measured run tab describe. Null if none.
const MeasuredCriticalPath *medianStepPath(const std::vector<MeasuredCriticalPath> &paths);

/// The GPU parts of `paths` (compute, communication; copies have no row) as the measured
/// timeline's critical-path spans of GPU `gpu` (measured_timeline.h: its rows and its time
/// origin, the rank's first step start).
void appendCriticalSpans(const std::vector<MeasuredCriticalPath> &paths, const MeasuredRank &rank,
                         int gpu, std::vector<CriticalSpan> *spans);

} // namespace scalescope
