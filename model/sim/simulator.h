// Builds the per-rank task graph of a training step from a scenario, runs the engine and
// measures the result per GPU.
#pragma once

#include "comm/collective.h"
#include "plan/numerics.h"
#include "plan/plan.h"
#include "plan/scenario.h"
#include "sim/critical_path.h"
#include "sim/step_description.h"
#include "sim/timeline.h"
#include "layers/layer_cost.h"
#include "layers/stage_layout.h"
#include "hardware/kernel_model.h"

#include <atomic>
#include <optional>
#include <string>

namespace scalescope
{

struct Breakdown {
    double compute = 0;
    double communication_exposed = 0;
    double communication_total = 0;
    double pipeline_bubble = 0;
    double wait = 0;
    double data_loading = 0;
    // Finer attribution of communication_total (not part of the sum).
    double tp_comm = 0;
    double dp_comm = 0;
    double pp_comm = 0;
    double pp_exposed = 0; // blocking pipeline sends on the critical path
    double ep_comm = 0;    // expert dispatch and combine on the critical path (exposed)
    double cp_comm = 0;    // context-parallel exchange on the critical path (exposed)
    /// What overlap hid of those three (tensor-parallel chunks beside their GEMMs, the
    /// experts' all-to-all beside another micro-batch, ring steps beside attention): part
    /// of communication_total, on no stream of the timeline.
    double tp_hidden = 0, ep_hidden = 0, cp_hidden = 0;
    double expert_wait = 0; // waiting for the busiest expert (part of wait)
    double optimizer = 0;  // optimizer step on the compute stream (part of compute)
};

struct SimOptions {
    int iterations = 1; // measured steps (warm-up steps are added where state carries over)
    bool build_timeline = false;
    /// Timelines larger than this are simplified: on each row, items closer together than
    /// a time quantum are merged into one segment of their dominant kind, which bounds the
    /// timeline to about this many segments whatever the GPU, micro-batch or step count.
    size_t max_segments = 40'000'000;
    /// Refuse task graphs larger than this (~100 bytes each).
    size_t max_tasks = 20'000'000;
    /// Threads for the independent parts (per-GPU draws, rows, breakdown); 0 = the
    /// machine's cores (at most 8). The result is the same for every count.
    int threads = 0;
    /// Set by another thread to abandon the simulation (the user moved on): checked between
    /// the engine's phases; the result is then not ok and `cancelled`.
    const std::atomic<bool> *cancel = nullptr;
};

struct SimResult {
    bool ok = false;
    bool too_large = false; // refused for size (max_tasks); the analytic path still works
    bool cancelled = false; // SimOptions::cancel was set
    std::string error;
    double step_time_s = 0;
    Breakdown breakdown; // per step, averaged over GPUs
    size_t tasks = 0;
    bool per_rank = false;      // every data-parallel replica simulated (effects present)
    double staleness_steps = 0; // asynchronous updates: how old the applied gradients are
    int warmup_iterations = 0;  // simulated before the measured ones (loaders, async)
    /// With jitter: the mean of this run's jitter draws over the measured steps' compute,
    /// weighted by each task's calm duration (0: no jitter). The one-GPU reference does the
    /// same work with the same draws (summarize()).
    double jitter_mean = 0;
    /// Each measured step's length: from the end of the step before on its slowest GPU to
    /// its own end there (what a profiler's ProfilerStep spans), in step order. Asynchronous
    /// replicas keep their own pace: each unit's steps, unit after unit (their mean is
    /// step_time_s).
    std::vector<double> step_times_s;
    double window_start_s = 0;  // the measured steps on the timeline (GPU 0's)
    double window_end_s = 0;
    /// The chain of tasks that sets the measured steps (sim/critical_path.h), walked back from
    /// the task that ends the last one to the window's start; its times per measured step
    /// (they sum to the window over the steps), its task ids the run's own graph's.
    CriticalPath critical_path;
    /// What GPUs wait for most ("waiting for GPU 3 ..."), when they wait (labelText writes it).
    std::optional<SegmentLabel> main_wait;
    std::optional<Timeline> timeline;
    /// When the timeline was simplified to stay within max_segments: the merge quantum (s)
    /// and how many segments the full timeline would have held. 0 when it is exact.
    double timeline_merge_quantum_s = 0;
    size_t timeline_full_segments = 0;
    /// ...and whether the GPUs of the first data-parallel replica kept every item then.
    bool timeline_first_replica_detailed = false;
};

/// Everything the engine needs, derived once from a scenario.
struct SimContext {
    Scenario scenario;
    Plan plan;
    ComputeModel compute;
    CommModel comm;
    WorkloadCost workload;
    /// Memory per GPU available to this job (a virtual GPU gets its share).
    double memory_capacity_bytes = 0;
    /// Step time of the job on one GPU (speed-up reference); < 0 = not yet known.
    double single_gpu_step_s = -1;
    /// A jittered job's one-GPU reference before its draws (the engine's calm run, which a
    /// sweep's counts share); step_s < 0 = not yet known.
    struct CalmReference {
        double step_s = -1;
        double busy_s = 0;    // the step less the time it waits for the data loader
        double compute_s = 0; // the compute the draws stretch
    } single_gpu_calm;
    /// Seconds the thermal clock advances per simulated step when heating over time
    /// (thermal.start_s); <= 0: this job's own compute per step. The speed-up reference does
    /// N jobs' work per step in the thermal state of the job it is the reference of, so it
    /// takes that job's (analysis/summary.cpp, referenceContext).
    double thermal_step_s = -1;
    /// The step as the engine and the closed form read it (derived from the above).
    StepDescription step;

    SimContext(const Scenario &s, const Plan &p);
    /// With a workload already built for this plan (the planner reuses them).
    SimContext(const Scenario &s, const Plan &p, WorkloadCost w);
};

/// The hardware as the job sees it (a host-routed virtual GPU loses peer-to-peer links).
HardwareSpec effectiveHardware(const Scenario &s);
/// Memory per GPU available to the job (SimContext::memory_capacity_bytes): a virtual GPU
/// gets its share.
double effectiveMemoryBytes(const Scenario &s);
/// The compute model of a scenario's GPU under its effects (steady thermal, time share).
ComputeModel computeModelFor(const Scenario &s, const Plan &p);

SimResult simulate(const SimContext &ctx, const SimOptions &options);
/// About how many tasks simulate() would build (its size check), without building them.
size_t estimatedTasks(const SimContext &ctx, const SimOptions &options);

/// On the main thread only, keeps the heap's pages from one model evaluation for the next
/// (glibc malloc tunables; simulator.cpp). Called by simulate(), and by the CLI and the
/// model benchmark before their first evaluation.
void keepHeapBetweenRuns();

/// The layers of `range` packed in backward order until a bucket is full (PyTorch DDP
/// bucketing, Li et al. VLDB 2020, Sec. 3.2.3; FSDP units likewise); forward order out.
/// Shared by the engine and the analytic path so both see the same buckets.
std::vector<Piece> packPieces(const SimContext &ctx, LayerRange range, TensorParallelCost &tp);

} // namespace scalescope
