#include "sim/simulator.h"

#include "plan/numerics.h"
#include "sim/engine.h"
#include "sim/parallel.h"
#include "sim/schedule.h"
#include "step/stages.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <numbers>
#include <string>
#include <unordered_map>

namespace scalescope
{

namespace
{
ComputeModel computeFor(const Scenario &s, const Plan &p)
{
    ComputeModel c(s.hardware.gpu, p.precision, s.hardware.calibration.get());
    // Thermal effect in steady state: a training run lasts far longer than warmup_s, so
    // every GPU has heated past throttle_above_c and runs its SM clock clock_drop lower
    // (NVML throttle reason "hw_thermal_slowdown"/"sw_thermal_slowdown"). GPUs that differ
    // (cooling per GPU, or the heating during the simulated steps) are slowed per GPU in the
    // engine instead.
    const ThermalSpec &th = s.effects.thermal;
    if (th.enabled && !th.varies(p.gpus) && th.throttledAt(0, 0))
        c.applyClockDrop(th.clock_drop);
    if (s.effects.virtual_gpu.enabled)
        c.applyTimeShare(s.effects.virtual_gpu.fraction);
    return c;
}
} // namespace

HardwareSpec effectiveHardware(const Scenario &s)
{
    HardwareSpec hw = s.hardware;
    const VirtualGpuSpec &v = s.effects.virtual_gpu;
    if (v.enabled && v.host_routed && hw.gpus_per_node > 1) {
        // Virtual GPUs have no peer-to-peer access: NCCL falls back to its SHM transport
        // through host memory (NVIDIA vGPU user guide, "peer-to-peer CUDA transfers" need
        // full-GPU profiles; NCCL docs NCCL_P2P_DISABLE), over a PCIe 4.0 x16 uplink at most
        // (32 GB/s per direction, PCI-SIG).
        hw.gpu.pcie_p2p = false;
        hw.intra.kind = LinkKind::PCIe;
        hw.intra.switched = false;
        hw.intra.nvswitch_gen = 0;
        hw.intra.bandwidth_gbps = std::min(hw.intra.bandwidth_gbps, 32.0);
        hw.intra.name += " (routed through host memory)";
    }
    return hw;
}

namespace
{
double effectiveMemoryBytes(const Scenario &s)
{
    // A vGPU profile gets its share of the frame buffer (NVIDIA vGPU user guide).
    const VirtualGpuSpec &v = s.effects.virtual_gpu;
    return s.hardware.gpu.memoryBytes() * (v.enabled ? v.fraction : 1.0);
}
} // namespace

SimContext::SimContext(const Scenario &s, const Plan &p)
    : scenario(s), plan(p), compute(computeFor(s, p)), comm(effectiveHardware(s)),
      workload(buildWorkloadCost(s.model, p, compute, s.training.flash_attention)),
      memory_capacity_bytes(effectiveMemoryBytes(s))
{
}

SimContext::SimContext(const Scenario &s, const Plan &p, WorkloadCost w)
    : scenario(s), plan(p), compute(computeFor(s, p)), comm(effectiveHardware(s)),
      workload(std::move(w)), memory_capacity_bytes(effectiveMemoryBytes(s))
{
}

ComputeModel computeModelFor(const Scenario &s, const Plan &p)
{
    return computeFor(s, p);
}

namespace
{

// SplitMix64 (Steele et al. 2014): a counter-based hash, so a task's random duration
// depends only on (seed, GPU, task) and can be recomputed instead of stored.
uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

double unit01(uint64_t h)
{
    return static_cast<double>((h >> 11) + 1) * 0x1.0p-53;
}

// Log-normal factor with mean 1 and relative standard deviation `sigma` (task durations are
// positive and right-skewed; Box-Muller for the normal draw).
struct LogNormal {
    explicit LogNormal(double sigma)
        : sigma(sigma), s2(std::log1p(sigma * sigma)), root_s2(std::sqrt(s2)), half_s2(0.5 * s2)
    {
    }
    double operator()(uint64_t seed, uint32_t gpu, uint32_t task) const
    {
        if (sigma <= 0)
            return 1.0;
        const uint64_t h = splitmix(seed ^ splitmix((static_cast<uint64_t>(gpu) << 32) | task));
        const double u1 = unit01(h), u2 = unit01(splitmix(h));
        const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
        return std::exp(root_s2 * z - half_s2);
    }
    double sigma, s2, root_s2, half_s2;
};

struct VStage {
    double fwd = 0, bwd = 0, tp_fwd = 0, tp_bwd = 0, params = 0;
    double tp_fwd_bytes = 0, tp_bwd_bytes = 0;
    std::vector<Piece> pieces; // forward order
};

enum Label : uint32_t {
    kLForward,
    kLBackward,
    kLRecomputeBackward,
    kLTpForward,
    kLTpBackward,
    kLSendActivations,
    kLSendGradients,
    kLGradAllReduce,
    kLGradReduceScatter,
    kLParamAllGather,
    kLZero3AllGather,
    kLOptimizer,
    kLLoad,
    kLWaitData,
    kLBubble,
    kLWaitTp,
    kLExposedDp,
    kLIdle,
    kLWaitReplica,
    kLSendBlocking,
    kLReceive,
    kLReceiveTransfer,
    kLForwardHot,
    kLBackwardHot,
    kLRecomputeBackwardHot,
    kLOptimizerHot,
    kLabelCount
};

const char *labelText(uint32_t l)
{
    switch (l) {
    case kLForward:
        return "forward";
    case kLBackward:
        return "backward";
    case kLRecomputeBackward:
        return "recompute + backward";
    case kLTpForward:
        return "tensor-parallel all-reduce (forward)";
    case kLTpBackward:
        return "tensor-parallel all-reduce (backward)";
    case kLSendActivations:
        return "send activations to next stage";
    case kLSendGradients:
        return "send gradients to previous stage";
    case kLGradAllReduce:
        return "gradient all-reduce (bucket)";
    case kLGradReduceScatter:
        return "gradient reduce-scatter (ZeRO)";
    case kLParamAllGather:
        return "parameter all-gather (ZeRO)";
    case kLZero3AllGather:
        return "parameter all-gather before use (ZeRO-3)";
    case kLOptimizer:
        return "optimizer step";
    case kLLoad:
        return "data loader";
    case kLWaitData:
        return "waiting for the data loader";
    case kLBubble:
        return "pipeline bubble: waiting for another stage";
    case kLWaitTp:
        return "waiting for the slowest GPU of the tensor-parallel group";
    case kLExposedDp:
        return "waiting for data-parallel communication (exposed)";
    case kLIdle:
        return "idle until the slowest GPU finishes the step";
    case kLWaitReplica:
        return "waiting for the slowest data-parallel replica";
    case kLSendBlocking:
        return "pipeline send in progress (blocking exchange)";
    case kLReceive:
        return "receiving from the neighbouring pipeline stage";
    case kLReceiveTransfer:
        return "receive from the neighbouring stage";
    case kLForwardHot:
        return "forward (thermal throttling: clocks reduced)";
    case kLBackwardHot:
        return "backward (thermal throttling: clocks reduced)";
    case kLRecomputeBackwardHot:
        return "recompute + backward (thermal throttling: clocks reduced)";
    case kLOptimizerHot:
        return "optimizer step (thermal throttling: clocks reduced)";
    default:
        return "";
    }
}

class Simulation
{
public:
    Simulation(const SimContext &ctx, const SimOptions &opt)
        : ctx_(ctx), plan_(ctx.plan), opt_(opt), graph_(1), dp_cost_(ctx.comm, ctx.plan.dataGroup())
    {
        const EffectsSpec &fx = ctx.scenario.effects;
        per_rank_ = fx.perRank(plan_.gpus);
        thermal_varies_ = fx.thermal.enabled && fx.thermal.varies(plan_.gpus);
        replicas_ = per_rank_ ? plan_.data : 1;
        units_ = replicas_ * plan_.pipeline;
        vstages_ = plan_.virtualStageCount();
        // Loaders and asynchronous updates carry state from step to step: run two
        // warm-up steps first so the measured ones are in steady state.
        warmup_ = (fx.data_loader.enabled || plan_.update == UpdateMode::Async) ? 2 : 0;
        iterations_ = std::max(1, opt.iterations) + warmup_;
        threads_ = engineThreads(opt.threads);
        graph_ = TaskGraph(units_);
        slowdown_.assign(static_cast<size_t>(plan_.gpus), 1.0);
        for (const StragglerSpec &st : fx.stragglers)
            if (st.gpu >= 0 && st.gpu < plan_.gpus)
                slowdown_[static_cast<size_t>(st.gpu)] *= st.slowdown;
        if (fx.data_loader.enabled) {
            loader_time_ = static_cast<double>(plan_.micro_batch) / loaderRate(fx.data_loader);
            // PyTorch DataLoader keeps prefetch_factor (default 2) batches per worker in
            // flight; with 0 workers the main process loads one batch at a time.
            loader_depth_ = loaderDepth(fx.data_loader);
        }
        buildStages();
    }

    SimResult run();
    size_t estimateTasks() const;

private:
    void buildStages();
    std::vector<int> membersOf(uint32_t unit) const;
    const std::vector<int> &members(uint32_t unit) const { return members_[unit]; }
    void labelGroups();
    void buildUnit(int replica, int stage);
    void linkPipeline();
    void groupCollectives();
    size_t tableIndex(int replica, int it, int vs, int64_t mb) const
    {
        return ((static_cast<size_t>(replica) * iterations_ + it) * vstages_ + vs) *
                   plan_.micro_batches +
               static_cast<size_t>(mb);
    }
    TaskId addTask(uint32_t unit, Stream s, SegmentKind k, double d, uint32_t label, int32_t mb,
                   int it, bool jitter = false, double bytes = 0);

    void drawFactors();
    // The rows every member GPU of `unit` shares: emit(stream, start, duration, kind, label,
    // mb, task), where task names jittered work whose length differs per member (expand()
    // splits it into the member's own time and waiting for the slowest member).
    template <typename Emit> void walk(uint32_t unit, Emit &&emit) const;
    struct Item {
        double start, dur;
        uint32_t label;
        int32_t mb;
        TaskId task; // jittered work (varies per member), or kNoTask
        float bytes; // what a communication segment moves
        SegmentKind kind;
    };
    struct UnitRows {
        std::vector<Item> row[kStreamCount];
    };
    void unitRows(uint32_t unit, UnitRows &out) const;
    // One member GPU's segments of a row: out(start, duration, kind, label, mb).
    template <typename Out> void expand(const std::vector<Item> &row, int gpu, Out &&out) const;
    struct UnitAccount {
        Breakdown b;
        std::vector<std::pair<uint32_t, double>> waits; // by label (a unit has few)
        void addWait(uint32_t label, double x)
        {
            auto w = std::find_if(waits.begin(), waits.end(),
                                  [label](const auto &p) { return p.first == label; });
            if (w == waits.end())
                waits.emplace_back(label, x);
            else
                w->second += x;
        }
    };
    void accountUnit(uint32_t unit, const UnitRows &rows, UnitAccount &acc) const;
    bool buildTimeline(SimResult &result);
    bool cancelled(SimResult &result) const
    {
        if (!opt_.cancel || !opt_.cancel->load(std::memory_order_relaxed))
            return false;
        result.cancelled = true;
        result.error = "cancelled";
        return true;
    }
    std::vector<UnitRows> unit_rows_; // while the timeline is built
    double memberDuration(const Task &t, TaskId id, int gpu) const;
    /// Duration factor of throttled clocks on `gpu` during iteration `it` (1 = cool).
    double thermalFactor(int gpu, int it) const;
    bool hot(int gpu, int it) const;
    uint32_t waitLabelFor(TaskId collective) const;

    const SimContext &ctx_;
    const Plan &plan_;
    SimOptions opt_;
    bool per_rank_ = false;
    int replicas_ = 1, units_ = 1, vstages_ = 1, iterations_ = 1;
    int warmup_ = 0;
    TaskGraph graph_;
    GroupCostCache dp_cost_; // data-parallel collectives (same group for every unit)
    std::vector<VStage> vs_;
    std::vector<double> slowdown_;
    double loader_time_ = 0;
    int loader_depth_ = 0;
    bool thermal_varies_ = false;
    double step_estimate_s_ = 0; // compute of one step, for the thermal clock

    std::vector<std::vector<int>> members_;  // GPU ranks of each unit
    std::vector<uint32_t> group_wait_label_; // per collective group
    // When each collective would have ended had no other replica been slower (its own
    // dependencies only): splits idle time into exposed communication and waiting.
    std::vector<double> own_end_;
    SegmentArray<float> factor_;     // per task and tensor rank: jitter x straggler factor
    std::vector<double> gpu_factor_; // per iteration and GPU: straggler x thermal factor
    std::vector<uint8_t> hot_;       // per iteration and GPU: clocks throttled
    std::vector<std::pair<TaskId, TaskId>> unit_tasks_; // per unit: its tasks [first, last)
    std::vector<std::pair<double, double>> window_;     // per unit: the measured steps
    int threads_ = 1;
    std::vector<std::vector<TaskId>> stream_tasks_; // per unit * kStreamCount
    std::vector<TaskId> f_first_, f_send_, b_first_, b_send_;
    std::vector<std::vector<TaskId>> dp_collectives_; // per unit, in creation order
    std::vector<std::vector<TaskId>> recv_tasks_;     // per unit: the sends it receives
    std::vector<double> iteration_end_;
    // Extra labels ("waiting for GPU 17") beyond the fixed ones.
    std::vector<std::string> extra_labels_;
};

void Simulation::buildStages()
{
    TensorParallelCost tp(ctx_.comm, plan_);
    vs_.resize(static_cast<size_t>(vstages_));
    for (int v = 0; v < vstages_; ++v) {
        VStage &st = vs_[static_cast<size_t>(v)];
        st.pieces = packPieces(ctx_, virtualStageLayers(ctx_.workload, vstages_, v), tp);
        for (const Piece &p : st.pieces) {
            st.fwd += p.fwd;
            st.bwd += p.bwd;
            st.tp_fwd += p.tp_fwd;
            st.tp_bwd += p.tp_bwd;
            st.tp_fwd_bytes += p.tp_fwd_bytes;
            st.tp_bwd_bytes += p.tp_bwd_bytes;
            st.params += p.params;
        }
    }
    // Time of one step for the thermal model's clock: the slowest stage's compute.
    for (int stage = 0; stage < plan_.pipeline; ++stage) {
        double t = 0;
        for (int c = 0; c < plan_.virtual_stages; ++c) {
            const VStage &st = vs_[static_cast<size_t>(c * plan_.pipeline + stage)];
            t += st.fwd + st.bwd + st.tp_fwd + st.tp_bwd;
        }
        step_estimate_s_ = std::max(step_estimate_s_, t * static_cast<double>(plan_.micro_batches));
    }
}

bool Simulation::hot(int gpu, int it) const
{
    if (!thermal_varies_)
        return false;
    const ThermalSpec &th = ctx_.scenario.effects.thermal;
    // Steps after the warm-up ones are the measured steps; each lasts about one step.
    const double t = th.start_s.value_or(0.0) + (it - warmup_ + 0.5) * step_estimate_s_;
    return th.throttledAt(gpu, t);
}

double Simulation::thermalFactor(int gpu, int it) const
{
    // Throttled SM clocks stretch compute by 1 / (1 - clock_drop).
    return hot(gpu, it) ? 1.0 / (1.0 - ctx_.scenario.effects.thermal.clock_drop) : 1.0;
}

std::vector<int> Simulation::membersOf(uint32_t unit) const
{
    std::vector<int> ranks;
    const int stage = static_cast<int>(unit) % plan_.pipeline;
    const int replica = static_cast<int>(unit) / plan_.pipeline;
    if (per_rank_) {
        for (int k = 0; k < plan_.tensor; ++k)
            ranks.push_back(plan_.rankOf(k, replica, stage));
    } else {
        for (int d = 0; d < plan_.data; ++d)
            for (int k = 0; k < plan_.tensor; ++k)
                ranks.push_back(plan_.rankOf(k, d, stage));
    }
    return ranks;
}

TaskId Simulation::addTask(uint32_t unit, Stream s, SegmentKind k, double d, uint32_t label,
                           int32_t mb, int it, bool jitter, double bytes)
{
    const TaskId id = graph_.add(unit, s, k, d, label, mb, static_cast<uint16_t>(it));
    graph_[id].bytes = static_cast<float>(bytes);
    // Per-GPU factors of jittered work are drawn for every task at once (drawFactors).
    if (jitter)
        graph_[id].jittered = true;
    if (s != Stream::Loader)
        stream_tasks_[unit * kStreamCount + static_cast<size_t>(s)].push_back(id);
    return id;
}

void Simulation::drawFactors()
{
    // Jitter, stragglers and thermal throttling per member GPU: each member's factor is
    // drawn once and kept, and the group runs at the slowest member's pace. The draw is
    // counter-based (seed, GPU, task), so units are drawn in parallel with the same result.
    const EffectsSpec &fx = ctx_.scenario.effects;
    const size_t gpus = static_cast<size_t>(plan_.gpus);
    gpu_factor_.resize(gpus * static_cast<size_t>(iterations_));
    hot_.resize(gpus * static_cast<size_t>(iterations_));
    for (int it = 0; it < iterations_; ++it)
        for (size_t g = 0; g < gpus; ++g) {
            const auto gpu = static_cast<int>(g);
            gpu_factor_[static_cast<size_t>(it) * gpus + g] = slowdown_[g] * thermalFactor(gpu, it);
            hot_[static_cast<size_t>(it) * gpus + g] = hot(gpu, it) ? 1 : 0;
        }
    if (!per_rank_)
        return;
    const size_t T = static_cast<size_t>(plan_.tensor);
    factor_.resize(graph_.size() * T);
    const LogNormal jitter(fx.jitter);
    parallelChunks(static_cast<size_t>(units_), threads_, 16, [&](size_t ub, size_t ue) {
        for (size_t u = ub; u < ue; ++u) {
            const std::vector<int> &m = members_[u];
            for (TaskId id = unit_tasks_[u].first; id < unit_tasks_[u].second; ++id) {
                Task &t = graph_[id];
                if (!t.jittered)
                    continue;
                double worst = 0;
                const double *gf = &gpu_factor_[static_cast<size_t>(t.iteration) * gpus];
                for (int gpu : m) {
                    // Stored as float; the task's duration uses the same rounded factor, so
                    // the slowest member's own time equals the task's (no sliver of waiting,
                    // no overlap with the next segment).
                    const auto f = static_cast<float>(
                        gf[gpu] * jitter(fx.seed, static_cast<uint32_t>(gpu), id));
                    factor_[id * T + static_cast<size_t>(gpu) % T] = f;
                    worst = std::max(worst, static_cast<double>(f));
                }
                t.duration = t.base_duration * worst;
            }
        }
    });
}

double Simulation::memberDuration(const Task &t, TaskId id, int gpu) const
{
    if (!t.jittered || !per_rank_)
        return t.duration;
    const size_t T = static_cast<size_t>(plan_.tensor);
    return t.base_duration * factor_[id * T + static_cast<size_t>(gpu) % T];
}

void Simulation::buildUnit(int replica, int stage)
{
    const auto unit = static_cast<uint32_t>(replica * plan_.pipeline + stage);
    const auto first_task = static_cast<TaskId>(graph_.size());
    const int p = plan_.pipeline;
    const int64_t m = plan_.micro_batches;
    const bool dp = plan_.data > 1;
    const bool zero3 = plan_.zero >= 3 && dp;
    const bool sync = plan_.update == UpdateMode::Sync;
    const double grad_bytes = plan_.grad_bytes_per_param;
    const double weight_bytes = weightBytesPerParam(plan_.precision);
    const bool p2p_inter = plan_.pipelineCrossesNodes();
    // Interleaved chunks on one pipeline stage (pipeline = 1) hand activations to the same
    // GPU: nothing is sent.
    const double p2p_time = p > 1 ? ctx_.comm.p2pTime(ctx_.workload.p2p_bytes, p2p_inter) : 0.0;
    const std::vector<PipelineOp> order =
        pipelineOrder(plan_.schedule, p, stage, m, plan_.virtual_stages);
    auto dpCost = [&](CollectiveOp op, double bytes) {
        return dp ? dp_cost_.time(op, bytes) : 0.0;
    };
    auto dpTask = [&](CollectiveOp op, double bytes, uint32_t label, int32_t mb, int it) {
        const TaskId id = addTask(unit, Stream::Collective, SegmentKind::DpComm, dpCost(op, bytes),
                                  label, mb, it, false, bytes);
        dp_collectives_[unit].push_back(id);
        return id;
    };
    const CollectiveOp grad_op =
        plan_.zero >= 1 ? CollectiveOp::ReduceScatter : CollectiveOp::AllReduce;
    const uint32_t grad_label = plan_.zero >= 1 ? kLGradReduceScatter : kLGradAllReduce;

    double stage_params = 0;
    for (int c = 0; c < plan_.virtual_stages; ++c)
        stage_params += vs_[static_cast<size_t>(c * p + stage)].params;
    const double local_params = stage_params / (plan_.zero >= 1 ? plan_.data : 1);
    const double opt_time = ctx_.compute.memoryTime(
        local_params * optimizerTrafficPerParam(plan_.optimizer, plan_.precision));

    TaskId gate = kNoTask;         // what the next iteration's first forward waits for
    TaskId pending_send = kNoTask; // the last pipeline send: blocks the next compute
    TaskId recent_compute[2] = {kNoTask, kNoTask}; // the last two computes (ZeRO-3 prefetch)
    for (int it = 0; it < iterations_; ++it) {
        std::vector<TaskId> grad_comms;
        std::vector<std::pair<double, int>> deferred; // (grad bytes, mb) when !overlap
        bool first_op = true;
        for (const PipelineOp &op : order) {
            const int v = op.chunk * p + stage;
            const VStage &st = vs_[static_cast<size_t>(v)];
            const int32_t mb = op.micro_batch;
            const size_t idx = tableIndex(replica, it, v, mb);
            TaskId first = kNoTask, last = kNoTask;
            auto compute = [&](double d, uint32_t label) {
                const TaskId id =
                    addTask(unit, Stream::Compute, SegmentKind::Compute, d, label, mb, it, true);
                // Megatron-LM's pipeline exchanges are blocking (p2p_communication.py:
                // batched isend/irecv, then wait): a stage computes on only after its
                // previous send has gone out.
                graph_.depend(id, pending_send);
                pending_send = kNoTask;
                if (first == kNoTask)
                    first = id;
                last = id;
                recent_compute[0] = recent_compute[1];
                recent_compute[1] = id;
                return id;
            };
            auto tp = [&](double d, uint32_t label, double bytes) {
                if (d <= 0)
                    return;
                last = addTask(unit, Stream::Compute, SegmentKind::TpComm, d, label, mb, it, false,
                               bytes);
            };
            auto zero3Gather = [&](const Piece &piece) {
                // With prefetch, one piece ahead: the gather may start once the compute two
                // pieces back has finished (FSDP forward/backward prefetch, Zhao et al.
                // VLDB'23 Sec. 3.3.3). Without (the stack's zero3_prefetch: DeepSpeed
                // ZeRO-3 as SC21's baseline ran it), a piece is fetched when the compute
                // before it is done, so every gather is on the critical path.
                const TaskId ag = dpTask(CollectiveOp::AllGather, piece.params * weight_bytes,
                                         kLZero3AllGather, mb, it);
                graph_.depend(ag, recent_compute[plan_.zero3_prefetch ? 0 : 1]);
                return ag;
            };
            const bool recompute = plan_.recompute != Recompute::None;
            if (op.forward) {
                TaskId load = kNoTask;
                if (v == 0 && loader_time_ > 0) {
                    load = graph_.add(unit, Stream::Loader, SegmentKind::DataLoad, loader_time_,
                                      kLLoad, mb, static_cast<uint16_t>(it));
                    // A loader slot frees when an earlier micro-batch enters the GPU.
                    const int64_t global = it * m + mb;
                    if (global >= loader_depth_) {
                        const int64_t back = global - loader_depth_;
                        graph_.depend(
                            load,
                            f_first_[tableIndex(replica, static_cast<int>(back / m), 0, back % m)]);
                    }
                }
                if (zero3) {
                    for (const Piece &piece : st.pieces) {
                        const TaskId ag = zero3Gather(piece);
                        const TaskId c = compute(piece.fwd, kLForward);
                        graph_.depend(c, ag);
                        tp(piece.tp_fwd, kLTpForward, piece.tp_fwd_bytes);
                    }
                } else {
                    compute(st.fwd, kLForward);
                    tp(st.tp_fwd, kLTpForward, st.tp_fwd_bytes);
                }
                graph_.depend(first, load);
                if (first_op)
                    graph_.depend(first, gate);
                f_first_[idx] = first;
                if (v < vstages_ - 1) {
                    const TaskId send =
                        addTask(unit, Stream::PointToPoint, SegmentKind::PpComm, p2p_time,
                                kLSendActivations, mb, it, false, ctx_.workload.p2p_bytes);
                    graph_.depend(send, last);
                    f_send_[idx] = send;
                    pending_send = send;
                }
            } else {
                const uint32_t label = recompute ? kLRecomputeBackward : kLBackward;
                const bool last_mb = mb == m - 1;
                // DDP and ZeRO-1 reduce gradients once per step (after the last
                // micro-batch); ZeRO-2/3 reduce-scatter every micro-batch (DeepSpeed).
                const bool reduce_now = dp && (plan_.zero >= 2 || last_mb);
                const bool split = zero3 || (reduce_now && plan_.bucket_bytes > 0);
                if (split) {
                    // ZeRO-3 gathers the next piece before reducing this one (FSDP
                    // BACKWARD_PRE prefetch), so gathers never queue behind reductions.
                    TaskId next_ag = kNoTask;
                    if (zero3)
                        next_ag = zero3Gather(st.pieces.back());
                    for (auto piece = st.pieces.rbegin(); piece != st.pieces.rend(); ++piece) {
                        const TaskId ag = next_ag;
                        const TaskId c = compute(piece->bwd, label);
                        graph_.depend(c, ag);
                        tp(piece->tp_bwd, kLTpBackward, piece->tp_bwd_bytes);
                        if (zero3 && piece + 1 != st.pieces.rend())
                            next_ag = zero3Gather(*(piece + 1));
                        if (reduce_now) {
                            if (plan_.overlap) {
                                const TaskId r =
                                    dpTask(grad_op, piece->params * grad_bytes, grad_label, mb, it);
                                graph_.depend(r, last);
                                grad_comms.push_back(r);
                            } else {
                                deferred.emplace_back(piece->params * grad_bytes, mb);
                            }
                        }
                    }
                } else {
                    compute(st.bwd, label);
                    tp(st.tp_bwd, kLTpBackward, st.tp_bwd_bytes);
                    if (reduce_now) {
                        if (plan_.overlap) {
                            const TaskId r =
                                dpTask(grad_op, st.params * grad_bytes, grad_label, mb, it);
                            graph_.depend(r, last);
                            grad_comms.push_back(r);
                        } else {
                            deferred.emplace_back(st.params * grad_bytes, mb);
                        }
                    }
                }
                b_first_[idx] = first;
                if (v > 0) {
                    const TaskId send =
                        addTask(unit, Stream::PointToPoint, SegmentKind::PpComm, p2p_time,
                                kLSendGradients, mb, it, false, ctx_.workload.p2p_bytes);
                    graph_.depend(send, last);
                    b_send_[idx] = send;
                    pending_send = send;
                }
            }
            first_op = false;
        }
        // Without overlap, gradients are reduced after the whole backward pass.
        const TaskId backward_end = stream_tasks_[unit * kStreamCount].back();
        for (const auto &[bytes, mb] : deferred) {
            const TaskId r = dpTask(grad_op, bytes, grad_label, mb, it);
            graph_.depend(r, backward_end);
            grad_comms.push_back(r);
        }
        const TaskId opt = addTask(unit, Stream::Compute, SegmentKind::Optimizer, opt_time,
                                   kLOptimizer, -1, it, true);
        if (sync) // the update needs every replica's gradients (synchronous SGD)
            for (TaskId r : grad_comms)
                graph_.depend(opt, r);
        gate = opt;
        if (dp && (plan_.zero == 1 || plan_.zero == 2)) {
            // Updated parameter shards are gathered before the next forward pass.
            const TaskId ag = dpTask(CollectiveOp::AllGather, stage_params * weight_bytes,
                                     kLParamAllGather, -1, it);
            graph_.depend(ag, opt);
            gate = ag;
        }
    }
    unit_tasks_[unit] = {first_task, static_cast<TaskId>(graph_.size())};
}

void Simulation::linkPipeline()
{
    for (int r = 0; r < replicas_; ++r)
        for (int it = 0; it < iterations_; ++it)
            for (int v = 0; v < vstages_; ++v)
                for (int64_t mb = 0; mb < plan_.micro_batches; ++mb) {
                    const size_t idx = tableIndex(r, it, v, mb);
                    const uint32_t unit = graph_[f_first_[idx]].unit;
                    if (v > 0) {
                        const TaskId send = f_send_[tableIndex(r, it, v - 1, mb)];
                        graph_.depend(f_first_[idx], send);
                        recv_tasks_[unit].push_back(send);
                    }
                    if (v < vstages_ - 1) {
                        const TaskId send = b_send_[tableIndex(r, it, v + 1, mb)];
                        graph_.depend(b_first_[idx], send);
                        recv_tasks_[unit].push_back(send);
                    }
                }
}

void Simulation::groupCollectives()
{
    // Synchronous collectives: the k-th data-parallel collective of stage s is one
    // operation across all replicas and starts when the last of them is ready.
    if (!per_rank_ || replicas_ <= 1)
        return;
    const bool async = plan_.update == UpdateMode::Async;
    std::vector<TaskId> members(static_cast<size_t>(replicas_));
    for (int s = 0; s < plan_.pipeline; ++s) {
        const size_t count = dp_collectives_[static_cast<size_t>(s)].size();
        for (size_t k = 0; k < count; ++k) {
            const Task &t0 = graph_[dp_collectives_[static_cast<size_t>(s)][k]];
            // Asynchronous updates exchange gradients without a barrier.
            if (async && (t0.label == kLGradAllReduce || t0.label == kLGradReduceScatter))
                continue;
            for (int r = 0; r < replicas_; ++r)
                members[static_cast<size_t>(r)] =
                    dp_collectives_[static_cast<size_t>(r * plan_.pipeline + s)][k];
            graph_.group(members);
        }
    }
}

void Simulation::labelGroups()
{
    // "waiting for GPU N": the member of each collective that was ready last.
    std::unordered_map<std::string, uint32_t> index;
    const size_t groups = graph_.groupCount();
    group_wait_label_.assign(groups, kLWaitReplica);
    for (size_t g = 0; g < groups; ++g) {
        const std::vector<TaskId> &m = graph_.groupMembers(static_cast<int32_t>(g));
        TaskId slowest = m.front();
        // The member whose own work (not its stream queue) was ready last.
        for (TaskId id : m)
            if (graph_[id].dep_ready > graph_[slowest].dep_ready)
                slowest = id;
        const int stage = static_cast<int>(graph_[slowest].unit) % plan_.pipeline;
        const int replica = static_cast<int>(graph_[slowest].unit) / plan_.pipeline;
        // The GPU of the slowest replica that made it slow (its slowest tensor rank).
        int gpu = plan_.rankOf(0, replica, stage);
        double worst = 0;
        for (int k = 0; k < plan_.tensor; ++k) {
            const int g = plan_.rankOf(k, replica, stage);
            const double f =
                slowdown_[static_cast<size_t>(g)] * thermalFactor(g, graph_[slowest].iteration);
            if (f > worst + 1e-12) {
                worst = f;
                gpu = g;
            }
        }
        std::string cause;
        if (hot(gpu, graph_[slowest].iteration))
            cause = ", thermal throttling";
        else if (slowdown_[static_cast<size_t>(gpu)] > 1.0)
            cause = ", straggler";
        std::string text = "waiting for GPU " + std::to_string(gpu) +
                           " (slowest data-parallel replica" + cause + ")";
        auto [it, inserted] = index.emplace(std::move(text), 0);
        if (inserted) {
            extra_labels_.push_back(it->first);
            it->second = static_cast<uint32_t>(kLabelCount + extra_labels_.size() - 1);
        }
        group_wait_label_[g] = it->second;
    }
    own_end_.assign(graph_.size(), 0.0);
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u) {
        double clock = 0;
        for (TaskId id : stream_tasks_[u * kStreamCount + 1]) {
            const Task &t = graph_[id];
            clock = std::max(clock, t.dep_ready) + t.duration;
            own_end_[id] = clock;
        }
    }
}

uint32_t Simulation::waitLabelFor(TaskId collective) const
{
    const Task &t = graph_[collective];
    return t.group < 0 ? static_cast<uint32_t>(kLWaitReplica)
                       : group_wait_label_[static_cast<size_t>(t.group)];
}

template <typename Emit> void Simulation::walk(uint32_t unit, Emit &&emit) const
{
    const auto put = [&emit](Stream s, double start, double dur, SegmentKind k, uint32_t label,
                             int32_t mb, double bytes = 0) {
        emit(s, start, dur, k, label, mb, kNoTask, bytes);
    };
    const double end_time = iteration_end_.back();
    // Compute stream: tasks, the gaps between them with their reason, per-GPU jitter.
    const std::vector<TaskId> &cs = stream_tasks_[unit * kStreamCount];
    const std::vector<TaskId> &coll = stream_tasks_[unit * kStreamCount + 1];
    double cursor = 0;
    // Idle time behind a data-parallel collective: as long as the collective would have
    // kept this GPU waiting on its own (had no replica been slower) it is exposed
    // communication; the rest is waiting for the slowest replica, named.
    auto dpGap = [&](double a, double b, TaskId binding, int32_t mb) {
        const Task &bt = graph_[binding];
        const double exposed = std::clamp(own_end_[binding] - a, 0.0, b - a);
        if (exposed > 0)
            put(Stream::Compute, a, exposed, SegmentKind::DpComm, kLExposedDp, mb);
        if (b - a - exposed > 0)
            put(Stream::Compute, a + exposed, b - a - exposed, SegmentKind::Wait,
                bt.group >= 0 ? group_wait_label_[static_cast<size_t>(bt.group)]
                              : static_cast<uint32_t>(kLWaitReplica),
                mb);
    };
    auto gap = [&](double a, double b, TaskId binding, int32_t mb) {
        if (b <= a)
            return;
        if (binding == kNoTask) {
            put(Stream::Compute, a, b - a, SegmentKind::Wait, kLIdle, mb);
            return;
        }
        const Task &bt = graph_[binding];
        if (bt.stream == Stream::Loader) {
            put(Stream::Compute, a, b - a, SegmentKind::DataLoad, kLWaitData, mb);
        } else if (bt.kind == SegmentKind::DpComm) {
            dpGap(a, b, binding, mb);
        } else if (bt.kind == SegmentKind::PpComm && bt.unit == unit) {
            put(Stream::Compute, a, b - a, SegmentKind::PpComm, kLSendBlocking, mb);
        } else if (bt.kind == SegmentKind::PpComm) {
            // Waiting for another stage: while its send is on the wire this stage is
            // receiving (exposed pipeline communication); before that it is the bubble.
            const double transfer = std::clamp(bt.start, a, b);
            if (transfer > a)
                put(Stream::Compute, a, transfer - a, SegmentKind::Bubble, kLBubble, mb);
            put(Stream::Compute, transfer, b - transfer, SegmentKind::PpComm, kLReceive, mb);
        } else if (bt.unit != unit) {
            put(Stream::Compute, a, b - a, SegmentKind::Bubble, kLBubble, mb);
        } else {
            put(Stream::Compute, a, b - a, SegmentKind::Wait, kLIdle, mb);
        }
    };
    for (TaskId id : cs) {
        const Task &t = graph_[id];
        gap(cursor, t.start, t.binding, t.micro_batch);
        emit(Stream::Compute, t.start, t.duration, t.kind, t.label, t.micro_batch,
             t.jittered ? id : kNoTask, t.bytes);
        cursor = t.end();
    }
    if (cursor < end_time) {
        // Tail: exposed communication still running on this unit, then idle.
        double comm_end = cursor;
        if (!coll.empty())
            comm_end = std::clamp(graph_[coll.back()].end(), cursor, end_time);
        if (comm_end > cursor)
            dpGap(cursor, comm_end, coll.back(), -1);
        if (end_time > comm_end)
            put(Stream::Compute, comm_end, end_time - comm_end,
                plan_.pipeline > 1 ? SegmentKind::Bubble : SegmentKind::Wait,
                plan_.pipeline > 1 ? kLBubble : kLIdle, -1);
    }
    for (TaskId id : coll) {
        const Task &t = graph_[id];
        if (t.group >= 0 && t.start > t.ready)
            put(Stream::Collective, t.ready, t.start - t.ready, SegmentKind::Wait, waitLabelFor(id),
                t.micro_batch);
        put(Stream::Collective, t.start, t.duration, t.kind, t.label, t.micro_batch, t.bytes);
    }
    for (TaskId id : stream_tasks_[unit * kStreamCount + 2]) {
        const Task &t = graph_[id];
        put(Stream::PointToPoint, t.start, t.duration, t.kind, t.label, t.micro_batch, t.bytes);
    }
    // What the neighbouring stages send here, overlapping transfers merged (a row's
    // segments never overlap).
    double recv_start = 0, recv_end = -1, recv_bytes = 0;
    int32_t recv_mb = -1;
    for (TaskId id : recv_tasks_[unit]) {
        const Task &t = graph_[id];
        if (t.start <= recv_end) {
            recv_end = std::max(recv_end, t.end());
            recv_bytes += t.bytes;
            continue;
        }
        if (recv_end > recv_start)
            put(Stream::Receive, recv_start, recv_end - recv_start, SegmentKind::PpComm,
                kLReceiveTransfer, recv_mb, recv_bytes);
        recv_start = t.start;
        recv_end = t.end();
        recv_mb = t.micro_batch;
        recv_bytes = t.bytes;
    }
    if (recv_end > recv_start)
        put(Stream::Receive, recv_start, recv_end - recv_start, SegmentKind::PpComm,
            kLReceiveTransfer, recv_mb, recv_bytes);
}

void Simulation::unitRows(uint32_t unit, UnitRows &out) const
{
    // Each task gives at most a gap and itself, a gap at most two segments.
    for (int s = 0; s < kStreamCount; ++s) {
        out.row[s].clear();
        const size_t tasks =
            s == static_cast<int>(Stream::Receive)
                ? recv_tasks_[unit].size()
                : stream_tasks_[unit * kStreamCount + static_cast<size_t>(s)].size();
        out.row[s].reserve(3 * tasks + 2);
    }
    walk(unit, [&out](Stream s, double start, double dur, SegmentKind k, uint32_t label, int32_t mb,
                      TaskId task, double bytes) {
        out.row[static_cast<int>(s)].push_back(
            {start, dur, label, mb, task, static_cast<float>(bytes), k});
    });
}

uint32_t hotLabel(uint32_t label)
{
    switch (label) {
    case kLForward:
        return kLForwardHot;
    case kLBackward:
        return kLBackwardHot;
    case kLRecomputeBackward:
        return kLRecomputeBackwardHot;
    case kLOptimizer:
        return kLOptimizerHot;
    default:
        return label;
    }
}

template <typename Out>
void Simulation::expand(const std::vector<Item> &row, int gpu, Out &&out) const
{
    for (const Item &it : row) {
        if (it.task == kNoTask) {
            out(it.start, it.dur, it.kind, it.label, it.mb, it.bytes);
            continue;
        }
        // Jittered work: this member's own time, then waiting for the slowest member.
        const Task &t = graph_[it.task];
        const double own = memberDuration(t, it.task, gpu);
        const bool is_hot =
            hot_[static_cast<size_t>(t.iteration) * static_cast<size_t>(plan_.gpus) +
                 static_cast<size_t>(gpu)] != 0;
        out(it.start, own, it.kind, is_hot ? hotLabel(it.label) : it.label, it.mb, 0.0);
        if (t.duration > own)
            out(it.start + own, t.duration - own, SegmentKind::Wait, kLWaitTp, it.mb, 0.0);
    }
}

size_t Simulation::estimateTasks() const
{
    size_t pieces = 1;
    for (const VStage &v : vs_)
        pieces = std::max(pieces, v.pieces.size());
    const bool zero3 = plan_.zero >= 3 && plan_.data > 1;
    const double ops = 2.0 * static_cast<double>(plan_.micro_batches) * plan_.virtual_stages;
    const double per_op = 3.0 + (zero3 ? 3.0 * static_cast<double>(pieces) : 0.0);
    const double per_unit =
        ops * per_op + 3.0 * static_cast<double>(pieces) * plan_.virtual_stages + 4.0;
    const double total = per_unit * units_ * iterations_;
    return total > 1e18 ? static_cast<size_t>(1e18) : static_cast<size_t>(total);
}

void Simulation::accountUnit(uint32_t unit, const UnitRows &rows, UnitAccount &acc) const
{
    const double w0 = window_[unit].first, w1 = window_[unit].second;
    Breakdown &b = acc.b;
    // Time of one segment inside the measured window, added (weight > 0) or taken back.
    const auto account = [&](Stream s, double start, double dur, SegmentKind k, uint32_t label,
                             double weight) {
        const double a = std::max(start, w0), e = std::min(start + dur, w1);
        if (e <= a)
            return;
        const double x = (e - a) * weight;
        if (s == Stream::Compute) {
            switch (k) {
            case SegmentKind::Compute:
                b.compute += x;
                break;
            case SegmentKind::Optimizer:
                b.compute += x;
                b.optimizer += x;
                break;
            case SegmentKind::TpComm:
                b.communication_exposed += x;
                b.communication_total += x;
                b.tp_comm += x;
                break;
            case SegmentKind::DpComm:
                b.communication_exposed += x;
                break;
            case SegmentKind::PpComm:
                b.communication_exposed += x;
                b.pp_exposed += x;
                break;
            case SegmentKind::Bubble:
                b.pipeline_bubble += x;
                break;
            case SegmentKind::Wait:
                b.wait += x;
                acc.addWait(label, x);
                break;
            case SegmentKind::DataLoad:
                b.data_loading += x;
                break;
            }
        } else if (k == SegmentKind::DpComm) {
            b.communication_total += x;
            b.dp_comm += x;
        } else if (k == SegmentKind::PpComm) {
            b.communication_total += x;
            b.pp_comm += x;
        }
    };
    // Every member as the unit's shared rows show it (jittered work at the group's pace)...
    const std::vector<int> &members = members_[unit];
    const auto weight = static_cast<double>(members.size());
    for (int s = 0; s < kStreamCount; ++s)
        for (const Item &it : rows.row[s])
            account(static_cast<Stream>(s), it.start, it.dur, it.kind, it.label, weight);
    if (!(per_rank_ && plan_.tensor > 1))
        return;
    // ...then, per member, the part of jittered work it spends waiting for the slowest:
    // taken from the work's kind (compute or optimizer) and added to waiting.
    double moved = 0, moved_optimizer = 0;
    for (int gpu : members)
        for (const Item &it : rows.row[0]) {
            if (it.task == kNoTask)
                continue;
            const Task &t = graph_[it.task];
            const double own = memberDuration(t, it.task, gpu);
            if (!(t.duration > own))
                continue;
            const double a = std::max(it.start + own, w0),
                         e = std::min(it.start + own + (t.duration - own), w1);
            if (e <= a)
                continue;
            moved += e - a;
            if (it.kind == SegmentKind::Optimizer)
                moved_optimizer += e - a;
        }
    if (moved > 0) {
        b.compute -= moved;
        b.optimizer -= moved_optimizer;
        b.wait += moved;
        acc.addWait(kLWaitTp, moved);
    }
}

namespace
{
struct Segment {
    double start, dur;
    SegmentKind kind;
    uint32_t label;
    int32_t mb;
    double bytes;
};

// Level of detail (DESIGN.md section 3, as Perfetto and Tracy merge what is too small to
// see): items on a row that start less than a quantum after the first item of the current
// group join it; a group of one keeps its own kind and label, a larger one takes its
// dominant kind. Items of no duration take part in the grouping, and only segments of some
// duration come out (TimelineBuilder::add).
template <typename Out> class Merger
{
public:
    Merger(double quantum, const uint32_t *merged_label, Out &out)
        : quantum_(quantum), merged_label_(merged_label), out_(out)
    {
    }
    void operator()(double start, double dur, SegmentKind kind, uint32_t label, int32_t mb,
                    double bytes)
    {
        if (quantum_ <= 0) {
            if (dur > 0)
                out_(start, dur, kind, label, mb, bytes);
            return;
        }
        if (count_ > 0 && start < first_.start + quantum_) {
            by_kind_[static_cast<size_t>(kind)] += dur;
            end_ = std::max(end_, start + dur);
            ++count_;
            return;
        }
        flush();
        first_ = {start, dur, kind, label, mb, bytes};
        by_kind_ = {};
        by_kind_[static_cast<size_t>(kind)] += dur;
        end_ = start + dur;
        count_ = 1;
    }
    void flush()
    {
        if (count_ == 1) {
            if (first_.dur > 0)
                out_(first_.start, first_.dur, first_.kind, first_.label, first_.mb, first_.bytes);
        } else if (count_ > 1) {
            const auto dominant = static_cast<size_t>(
                std::max_element(by_kind_.begin(), by_kind_.end()) - by_kind_.begin());
            if (end_ - first_.start > 0)
                out_(first_.start, end_ - first_.start, static_cast<SegmentKind>(dominant),
                     merged_label_[dominant], -1, 0.0);
        }
        count_ = 0;
    }

private:
    double quantum_;
    const uint32_t *merged_label_;
    Out &out_;
    Segment first_{};
    std::array<double, kSegmentKindCount> by_kind_{};
    double end_ = 0;
    size_t count_ = 0;
};
} // namespace

bool Simulation::buildTimeline(SimResult &result)
{
    // Size check before materialising every GPU's rows.
    size_t estimate = 0;
    size_t busy_rows = 0; // rows with at least one task (the compute row always)
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u) {
        size_t per_gpu = 0;
        size_t rows = 1;
        for (int s = 0; s < kStreamCount; ++s) {
            const size_t n = stream_tasks_[u * kStreamCount + static_cast<size_t>(s)].size();
            per_gpu += n;
            rows += s > 0 && n > 0 ? 1 : 0;
        }
        per_gpu += recv_tasks_[u].size();
        rows += recv_tasks_[u].empty() ? 0 : 1;
        estimate += per_gpu * 2 * members_[u].size();
        busy_rows += std::min<size_t>(rows, kStreamCount) * members_[u].size();
    }
    // Beyond max_segments items are merged per time quantum (Merger). Each merged segment
    // then spans at least one quantum, so a row holds at most span / quantum + 1 segments
    // and the whole timeline at most rows x (span / quantum + 1).
    const size_t rows_total = busy_rows;
    const double span = iteration_end_.back();
    double quantum = 0;
    if (estimate > opt_.max_segments) {
        const size_t room = opt_.max_segments > 2 * rows_total ? opt_.max_segments - rows_total : 0;
        if (room == 0 || span <= 0) {
            result.error = "the timeline would hold about " + std::to_string(estimate) +
                           " segments on " + std::to_string(rows_total) +
                           " rows, more than the limit of " + std::to_string(opt_.max_segments) +
                           "; simulate fewer GPUs";
            return false;
        }
        quantum = span * static_cast<double>(rows_total) / static_cast<double>(room);
        result.timeline_merge_quantum_s = quantum;
        result.timeline_full_segments = estimate;
    }
    TimelineBuilder builder(plan_.gpus, plan_.gpus_per_node, iterations_);
    std::array<uint32_t, kSegmentKindCount> merged_label{};
    for (int k = 0; k < kSegmentKindCount; ++k)
        merged_label[static_cast<size_t>(k)] = builder.internLabel(
            std::string("several items merged, mostly ") +
            segmentKindName(static_cast<SegmentKind>(k)) +
            " (timeline simplified: zoomed-out detail beyond the segment limit)");
    std::vector<uint32_t> label_ids;
    for (uint32_t l = 0; l < kLabelCount; ++l)
        label_ids.push_back(builder.internLabel(labelText(l)));
    for (const std::string &text : extra_labels_)
        label_ids.push_back(builder.internLabel(text));

    // Rows of a GPU are identical for every member of a unit unless jittered work differs
    // per member (jitter, stragglers or uneven heat inside a tensor-parallel group).
    const bool member_varies = per_rank_ && plan_.tensor > 1;
    const size_t gpus = static_cast<size_t>(plan_.gpus);
    // Every row of units [ub, ue): f(unit, row, source), where source is the row of the
    // unit's first member that this one repeats (kNoRow: it has segments of its own).
    constexpr size_t kNoRow = static_cast<size_t>(-1);
    const auto forEachRow = [&](size_t ub, size_t ue, auto &&f) {
        for (size_t u = ub; u < ue; ++u) {
            const std::vector<int> &members = members_[u];
            for (size_t m = 0; m < members.size(); ++m)
                for (size_t s = 0; s < kStreamCount; ++s) {
                    const bool same = m > 0 && (!member_varies || s > 0);
                    f(u, static_cast<size_t>(members[m]) * kStreamCount + s,
                      same ? static_cast<size_t>(members[0]) * kStreamCount + s : kNoRow);
                }
        }
    };
    // A row's segments, merged per quantum where the timeline is simplified.
    const auto emitRow = [&](size_t u, size_t row, auto &&out) {
        Merger merge(quantum, merged_label.data(), out);
        expand(unit_rows_[u].row[row % kStreamCount], static_cast<int>(row / kStreamCount),
               [&](double start, double dur, SegmentKind k, uint32_t label, int32_t mb,
                   double bytes) { merge(start, dur, k, label_ids[label], mb, bytes); });
        merge.flush();
    };
    // First pass: how many segments each row gets, so that each is then written once, in
    // place, from any thread.
    std::vector<size_t> row_sizes(gpus * kStreamCount, 0);
    parallelChunks(static_cast<size_t>(units_), threads_, 4, [&](size_t ub, size_t ue) {
        forEachRow(ub, ue, [&](size_t u, size_t row, size_t source) {
            if (source != kNoRow) {
                row_sizes[row] = row_sizes[source];
                return;
            }
            size_t n = 0;
            emitRow(u, row, [&n](double, double, SegmentKind, uint32_t, int32_t, double) { ++n; });
            row_sizes[row] = n;
        });
    });
    if (cancelled(result))
        return false;
    const std::vector<size_t> &offset = builder.allocate(row_sizes);
    row_sizes = {};
    // Second pass: the segments; a row that repeats another is copied.
    std::vector<double> unit_latest(static_cast<size_t>(units_), 0.0);
    parallelChunks(static_cast<size_t>(units_), threads_, 4, [&](size_t ub, size_t ue) {
        forEachRow(ub, ue, [&](size_t u, size_t row, size_t source) {
            if (source != kNoRow) {
                builder.copyRange(offset[source], offset[source + 1], offset[row]);
                return;
            }
            size_t i = offset[row];
            double &latest = unit_latest[u];
            emitRow(u, row,
                    [&](double start, double dur, SegmentKind k, uint32_t label, int32_t mb,
                        double bytes) {
                        builder.set(i++, start, dur, k, label, mb, bytes);
                        latest = std::max(latest, start + dur);
                    });
            assert(i == offset[row + 1]);
        });
    });
    builder.setEndTime(
        unit_latest.empty() ? 0.0 : *std::max_element(unit_latest.begin(), unit_latest.end()));
    result.timeline = builder.finish();
    unit_rows_ = {};
    return true;
}

SimResult Simulation::run()
{
    SimResult result;
    result.per_rank = per_rank_;
    result.tasks = estimateTasks();
    if (result.tasks > opt_.max_tasks) {
        result.too_large = true;
        result.error = "the event simulation would need about " + std::to_string(result.tasks) +
                       " tasks, more than the limit of " + std::to_string(opt_.max_tasks) +
                       " (fewer micro-batches per step, iterations or simulated GPUs fit)";
        return result;
    }
    const size_t table = static_cast<size_t>(replicas_) * iterations_ * vstages_ *
                         static_cast<size_t>(plan_.micro_batches);
    f_first_.assign(table, kNoTask);
    f_send_.assign(table, kNoTask);
    b_first_.assign(table, kNoTask);
    b_send_.assign(table, kNoTask);
    stream_tasks_.assign(static_cast<size_t>(units_) * kStreamCount, {});
    members_.resize(static_cast<size_t>(units_));
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u)
        members_[u] = membersOf(u);
    dp_collectives_.assign(static_cast<size_t>(units_), {});
    recv_tasks_.assign(static_cast<size_t>(units_), {});
    unit_tasks_.assign(static_cast<size_t>(units_), {});
    graph_.reserve(static_cast<size_t>(units_) * iterations_ *
                   (static_cast<size_t>(plan_.micro_batches * plan_.virtual_stages) * 6 + 64));
    for (int r = 0; r < replicas_; ++r)
        for (int s = 0; s < plan_.pipeline; ++s)
            buildUnit(r, s);
    linkPipeline();
    groupCollectives();
    if (cancelled(result))
        return result;
    drawFactors();
    if (cancelled(result))
        return result;
    if (!graph_.run()) {
        result.error = "internal error: the task graph of this plan deadlocks";
        return result;
    }
    if (cancelled(result))
        return result;
    labelGroups();
    for (std::vector<TaskId> &r : recv_tasks_)
        std::sort(r.begin(), r.end(),
                  [&](TaskId a, TaskId b) { return graph_[a].start < graph_[b].start; });
    result.tasks = graph_.size();

    // Iteration ends, globally and per unit (asynchronous replicas run at their own pace).
    iteration_end_.assign(static_cast<size_t>(iterations_), 0.0);
    std::vector<double> unit_end(static_cast<size_t>(units_) * iterations_, 0.0);
    for (const Task &t : graph_.tasks()) {
        if (t.stream == Stream::Loader)
            continue;
        iteration_end_[t.iteration] = std::max(iteration_end_[t.iteration], t.end());
        if (t.stream == Stream::Compute) {
            double &e = unit_end[t.unit * static_cast<size_t>(iterations_) + t.iteration];
            e = std::max(e, t.end());
        }
    }
    for (int it = 1; it < iterations_; ++it)
        iteration_end_[static_cast<size_t>(it)] = std::max(
            iteration_end_[static_cast<size_t>(it)], iteration_end_[static_cast<size_t>(it) - 1]);
    // Measured window: after the warm-up steps; with several measured steps and no
    // warm-up, after the first (its start-up is not steady state).
    const int first = warmup_ > 0 ? warmup_ : (iterations_ > 1 ? 1 : 0);
    const double steps = iterations_ - first;
    const bool async = plan_.update == UpdateMode::Async;
    auto windowOf = [&](uint32_t u) {
        if (!async) {
            return std::make_pair(first > 0 ? iteration_end_[static_cast<size_t>(first) - 1] : 0.0,
                                  iteration_end_.back());
        }
        const double *e = &unit_end[u * static_cast<size_t>(iterations_)];
        return std::make_pair(first > 0 ? e[first - 1] : 0.0, e[iterations_ - 1]);
    };
    double step_sum = 0;
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u) {
        const auto [a, b] = windowOf(u);
        step_sum += (b - a) * static_cast<double>(members_[u].size());
    }
    result.step_time_s = step_sum / plan_.gpus / steps;
    result.window_start_s = windowOf(0).first;
    result.window_end_s = windowOf(0).second;
    result.warmup_iterations = warmup_;

    window_.resize(static_cast<size_t>(units_));
    for (uint32_t u = 0; u < static_cast<uint32_t>(units_); ++u)
        window_[u] = windowOf(u);

    // Each unit's rows are walked once and shared by its member GPUs (every data-parallel
    // replica when they are identical, the tensor ranks of one replica otherwise); only
    // jittered work differs per member (expand). Units are independent: several threads.
    std::vector<UnitRows> unit_rows(opt_.build_timeline ? static_cast<size_t>(units_) : 0);
    std::vector<UnitAccount> accounts(static_cast<size_t>(units_));
    parallelChunks(static_cast<size_t>(units_), threads_, 4, [&](size_t ub, size_t ue) {
        UnitRows local;
        for (size_t u = ub; u < ue; ++u) {
            UnitRows &r = opt_.build_timeline ? unit_rows[u] : local;
            unitRows(static_cast<uint32_t>(u), r);
            accountUnit(static_cast<uint32_t>(u), r, accounts[u]);
        }
    });
    // Breakdown over the measured window, averaged over GPUs (summed in unit order, so the
    // figures do not depend on the thread count).
    Breakdown sum;
    std::vector<double> wait_by_label(kLabelCount + extra_labels_.size(), 0.0);
    constexpr double Breakdown::*kFields[] = {&Breakdown::compute,
                                              &Breakdown::communication_exposed,
                                              &Breakdown::communication_total,
                                              &Breakdown::pipeline_bubble,
                                              &Breakdown::wait,
                                              &Breakdown::data_loading,
                                              &Breakdown::tp_comm,
                                              &Breakdown::dp_comm,
                                              &Breakdown::pp_comm,
                                              &Breakdown::pp_exposed,
                                              &Breakdown::optimizer};
    for (const UnitAccount &acc : accounts) {
        for (double Breakdown::*f : kFields)
            sum.*f += acc.b.*f;
        for (const auto &[label, x] : acc.waits)
            wait_by_label[label] += x;
    }
    accounts = {};
    const double norm = 1.0 / (plan_.gpus * steps);
    for (double Breakdown::*f : kFields)
        sum.*f *= norm;
    result.breakdown = sum;
    // What GPUs wait for most (names the straggler when there is one).
    const auto most = std::max_element(wait_by_label.begin(), wait_by_label.end());
    if (*most > 0) {
        const auto id = static_cast<uint32_t>(most - wait_by_label.begin());
        result.main_wait = id < kLabelCount ? labelText(id) : extra_labels_[id - kLabelCount];
    }

    if (plan_.update == UpdateMode::Async && result.step_time_s > 0)
        result.staleness_steps = std::ceil(sum.dp_comm / result.step_time_s);

    if (opt_.build_timeline) {
        unit_rows_ = std::move(unit_rows);
        if (cancelled(result) || !buildTimeline(result))
            return result;
    }
    result.ok = true;
    return result;
}

} // namespace

std::vector<Piece> packPieces(const SimContext &ctx, LayerRange range, TensorParallelCost &tp)
{
    const WorkloadCost &w = ctx.workload;
    const double bucket = ctx.plan.bucket_bytes;
    const double grad_bytes = ctx.plan.grad_bytes_per_param;
    std::vector<Piece> reversed;
    Piece cur;
    for (int i = range.end - 1; i >= range.begin; --i) {
        const LayerCost &l = w.layers[static_cast<size_t>(i)];
        // Compute is already the max of the host and GPU streams (workload/cost.cpp). The
        // tensor-parallel collectives stay on the critical path even while the host is the
        // bottleneck: a collective starts only once every rank's host has issued it, and
        // the work queued behind it waits (hiding them inside the issue time scored worse
        // on the vtrain measurements: 9.4% against 8.8% MAPE).
        cur.fwd += l.fwd_s;
        cur.bwd += l.bwd_s + l.recompute_s;
        double tp_fwd = l.tp_fwd_ops * tp(l.tp_bytes);
        double tp_bwd = (l.tp_bwd_ops + l.tp_recompute_ops) * tp(l.tp_bytes);
        if (ctx.plan.tp_overlap) {
            // Collectives decomposed into `tensor` chunks pipelined with the GEMMs that
            // produce or consume them (Wang et al., ASPLOS'23, Sec. 3; Transformer Engine
            // userbuffers, Megatron-Core --tp-comm-overlap): the first chunk stays exposed,
            // the rest only where it outlasts the compute beside it.
            const double k = (ctx.plan.tensor - 1.0) / ctx.plan.tensor;
            const auto exposed = [k](double comm, double compute) {
                return comm * (1.0 - k) + std::max(0.0, k * (comm - compute));
            };
            tp_fwd = exposed(tp_fwd, l.fwd_s);
            tp_bwd = exposed(tp_bwd, l.bwd_s + l.recompute_s);
        }
        cur.tp_fwd += tp_fwd;
        cur.tp_bwd += tp_bwd;
        cur.tp_fwd_bytes += l.tp_fwd_ops * l.tp_bytes;
        cur.tp_bwd_bytes += (l.tp_bwd_ops + l.tp_recompute_ops) * l.tp_bytes;
        cur.params += l.params;
        if (bucket > 0 && cur.params * grad_bytes >= bucket) {
            reversed.push_back(cur);
            cur = Piece{};
        }
    }
    if (cur.fwd > 0 || cur.bwd > 0 || cur.params > 0 || reversed.empty())
        reversed.push_back(cur);
    return {reversed.rbegin(), reversed.rend()};
}

SimResult simulate(const SimContext &ctx, const SimOptions &options)
{
    Simulation sim(ctx, options);
    return sim.run();
}

size_t estimatedTasks(const SimContext &ctx, const SimOptions &options)
{
    return Simulation(ctx, options).estimateTasks();
}

} // namespace scalescope
