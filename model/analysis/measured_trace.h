// A measured run as read from a profiler trace, reduced to what the spec's figures need
// (spec/cli.md, section "trace: a measured run, and the prediction beside it"): the data that
// io/kineto_trace.h fills and measured_run.h and trace_profile.h read. No Qt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace scalescope
{

/// What a GPU activity is (spec/cli.md "trace": kernels are compute or communication by
/// name; `gpu_memcpy` / `gpu_memset` are copies).
enum class ActivityClass : uint8_t { Compute = 0, Communication = 1, Copy = 2 };

/// A communication kernel's kind (spec/cli.md "trace": the first of AllReduce, AllGather,
/// ReduceScatter, AllToAll, Broadcast its name contains, else SendRecv, else Other; DeepEP
/// kernels are AllToAll). None for compute kernels and copies.
enum class CommKind : uint8_t {
    None = 0,
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
    Broadcast,
    SendRecv,
    Other
};
inline constexpr int kCommKindCount = 8;
/// "AllReduce", ... (the keys of `communication_by_kind_s`); "" for None.
const char *commKindName(CommKind kind);

/// A kernel's class and kind from its name alone (spec/cli.md "trace").
struct KernelClass {
    ActivityClass cls = ActivityClass::Compute;
    CommKind kind = CommKind::None;
};
KernelClass classifyKernel(const char *name, size_t length);

/// No `args.correlation` on the event.
inline constexpr int64_t kNoCorrelation = INT64_MIN;

/// One GPU activity on the rank's device: [start_us, end_us) in the trace's microseconds
/// (32 bytes: a trace keeps one per kernel and copy).
struct TraceActivity {
    double start_us = 0;
    double end_us = 0; // start_us + dur; dur missing, not a number or negative: 0
    int64_t correlation = kNoCorrelation;
    int32_t stream = 0; // args.stream, else tid (a number), else 0: the row it ran on
    ActivityClass cls = ActivityClass::Compute;
    CommKind kind = CommKind::None;
    bool kernel = false; // a `kernel` event (copies are not)
};
static_assert(sizeof(TraceActivity) == 32, "a trace keeps one TraceActivity per GPU activity");

/// A host call that blocks until the GPU has done work: the thread waits in it (CUDA Runtime
/// API, "Device Management" / "Stream Management" / "Event Management": cudaDeviceSynchronize,
/// cudaStreamSynchronize, cudaEventSynchronize; a synchronous cudaMemcpy returns once the copy
/// is done; the driver API's cuCtx/cuStream/cuEventSynchronize likewise).
/// Poll: cudaEventQuery / cudaStreamQuery, called in a loop until the work is done (the last
/// call of the loop returns once it is).
enum class HostWait : uint8_t { None = 0, Device, Stream, Event, Memcpy, Poll };
HostWait hostWaitOf(const char *name, size_t length);

/// A `cuda_runtime` / `cuda_driver` event with args.correlation: where the host launched
/// the activity of the same correlation, or (a host call of no activity) where it called the
/// runtime, on which thread and for how long.
struct TraceLaunch {
    int64_t correlation = 0;
    double start_us = 0;
    int32_t thread = 0; // interned tid of the launching thread
    float dur_us = 0;   // the call's dur (0 when missing or negative)
    HostWait wait = HostWait::None;
};

/// A recorded synchronisation (`"cat": "cuda_sync"`, written by Kineto when the profiler runs
/// with `_ExperimentalConfig(enable_cuda_sync_events=True)`; CUPTI's
/// CUpti_ActivitySynchronization): "Stream Wait Event" makes `stream` wait for what
/// `wait_on_stream` had queued when the event was recorded (the cudaEventRecord of correlation
/// `record_correlation`); "Event Sync", "Stream Sync" and "Context Sync" make the host call
/// of `correlation` wait. HolisticTraceAnalysis' critical-path analysis reads the same fields.
enum class SyncKind : uint8_t { StreamWaitEvent = 0, EventSync, StreamSync, ContextSync };
struct TraceSync {
    double ts_us = 0;
    int64_t correlation = kNoCorrelation;        // the waiting host call (args.correlation)
    int64_t record_correlation = kNoCorrelation; // args.wait_on_cuda_event_record_corr_id
    int32_t stream = -1;          // the waiting stream (args.stream, else tid); -1: none
    int32_t producer_stream = -1; // args.wait_on_stream; -1: not recorded
    SyncKind kind = SyncKind::StreamWaitEvent;
};

/// A `ProfilerStep#N` annotation (`ph: X`, cat `user_annotation` or `cpu_op`).
struct TraceStepMark {
    int64_t number = 0;
    double start_us = 0;
    double end_us = 0;
};

/// An NCCL kernel whose args record the collective (PyTorch 2.1+ writes "Collective name",
/// "In msg nelems", "Out msg nelems", "Group size" and "dtype" on the kernel event).
struct TraceCollectiveRecord {
    uint32_t activity = 0;  // index into KinetoTrace::activities
    std::string collective; // "allreduce", "allgather", "reduce_scatter", ...
    double in_elements = 0;
    double out_elements = 0;
    int group_size = 0;
    int element_bytes = 0; // from dtype; 0 when unknown
};

/// A GEMM operator (`cpu_op` aten::mm / addmm / bmm / baddbmm) whose shapes were recorded
/// (`record_shapes=True`: args "Input Dims" and "Input type").
struct TraceGemmRecord {
    double start_us = 0, end_us = 0;
    int32_t thread = 0;         // interned tid
    double m = 0, n = 0, k = 0; // batch folded into m (same FLOPs, 2 m n k)
    std::string precision;      // "fp32", "bf16", "fp16"
};

/// One rank's file, reduced to what the spec's figures and the profile fit need.
struct KinetoTrace {
    std::string path;         // the file, as messages name it
    int64_t rank = 0;         // distributedInfo.rank (0 without it)
    int64_t world_size = 0;   // distributedInfo.world_size (0 without it)
    std::string nccl_version; // distributedInfo.nccl_version
    std::string device;       // the rank's device as the file writes it ("0")
    bool has_gpu_name = false;
    std::string gpu_name;                  // deviceProperties[id == device].name
    size_t kernels = 0;                    // `kernel` events on the rank's device
    size_t kernels_other_devices = 0;      // left out (spec: activities of other devices)
    std::vector<TraceActivity> activities; // on the rank's device, in file order
    std::vector<TraceLaunch> launches;     // sorted by correlation, one per correlation
    std::vector<TraceSync> syncs;          // `cuda_sync` events on the rank's device
    std::vector<TraceStepMark> steps;      // in file order
    std::vector<TraceCollectiveRecord> collectives;
    std::vector<TraceGemmRecord> gemms;
    std::vector<float> launch_host_us; // durations of cudaLaunchKernel / cuLaunchKernel
    uint64_t events = 0;               // objects in traceEvents
};

} // namespace scalescope
