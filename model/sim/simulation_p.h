// The Simulation behind simulate() (simulator.h), shared by the sim_*.cpp files; private to sim/.
#pragma once

#include "plan/rules.h"
#include "sim/engine.h"
#include "sim/parallel.h"
#include "sim/schedule.h"
#include "sim/simulator.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace scalescope
{

namespace sim_detail
{

// Label ids: the fixed labels' are their LabelKind values (sim/labels.h); the labels naming a
// GPU (WaitForGpu) follow from kLabelCount on (Simulation::extra_labels_).
constexpr uint32_t kLabelCount = kFixedLabelCount;
constexpr uint32_t labelId(LabelKind k)
{
    return static_cast<uint32_t>(k);
}

/// Whether the data loader's loads take their time, or none (a synchronous step with a
/// data loader measures the GPUs' own pace on the same graph: Simulation::measureWindow).
enum class Loads : uint8_t { AsDrawn, Free };

class Simulation
{
public:
    Simulation(const SimContext &ctx, const SimOptions &opt, Loads loads = Loads::AsDrawn)
        : ctx_(ctx), plan_(ctx.plan), step_(ctx.step), opt_(opt),
          loads_free_(loads == Loads::Free), graph_(1)
    {
        const EffectsSpec &fx = ctx.scenario.effects;
        per_rank_ = fx.perRank(plan_.gpus);
        replicas_ = per_rank_ ? plan_.data : 1;
        units_ = replicas_ * plan_.pipeline;
        vstages_ = plan_.virtualStageCount();
        warmup_ = step_.warmup_steps;
        iterations_ = std::max(1, opt.iterations) + warmup_;
        threads_ = engineThreads(opt.threads);
        graph_.setUnits(units_);
    }

    SimResult run();
    size_t estimateTasks() const;
    /// The first measured step: after the warm-up steps; with several measured steps and no
    /// warm-up, after the first (its start-up is not steady state).
    int firstMeasured() const { return warmup_ > 0 ? warmup_ : (iterations_ > 1 ? 1 : 0); }
    /// A synchronous step with a data loader is measured over all its iterations, from the
    /// start, in bottleneck form (measureWindow): its draws' mean covers them all.
    bool syncLoader() const { return step_.loader_s > 0 && plan_.update != UpdateMode::Async; }
    int firstDrawnForMean() const { return syncLoader() ? 0 : firstMeasured(); }

private:
    /// Builds the task graph and runs the engine; the iteration ends follow (false: refused
    /// for size, cancelled or failed, with the reason in `result`).
    bool buildAndRun(SimResult &result);
    /// The measured steps' window per unit and the step time (sim_window.cpp).
    bool measureWindow(SimResult &result);
    /// The critical path of the measured steps (sim/critical_path.h).
    void criticalPathOf(SimResult &result) const;
    /// The breakdown over the measured window and what GPUs wait for most.
    void account(SimResult &result);
    std::vector<int> membersOf(uint32_t unit) const;
    const std::vector<int> &members(uint32_t unit) const { return members_[unit]; }
    void labelGroups();
    void buildUnit(int replica, int stage);
    /// Replicas 1.. as copies of replica 0 (built from `first_task` and `first_edge` on).
    void replicateFirst(TaskId first_task, size_t first_edge);
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
    // Half a cache line: the kind rides in the label's low byte (label ids stay below 2^24:
    // the fixed ones and a "waiting for GPU N" per GPU and cause, labelGroups).
    struct Item {
        Item(double start_, double dur_, uint32_t label_, int32_t mb_, TaskId task_, float bytes_,
             SegmentKind kind_)
            : start(start_), dur(dur_), label_kind(label_ << 8 | static_cast<uint32_t>(kind_)),
              mb(mb_), task(task_), bytes(bytes_)
        {
        }
        double start, dur;
        uint32_t label_kind;
        int32_t mb;
        TaskId task; // jittered work (varies per member), or kNoTask
        float bytes; // what a communication segment moves
        uint32_t label() const { return label_kind >> 8; }
        SegmentKind kind() const { return static_cast<SegmentKind>(label_kind & 0xffu); }
    };
    static_assert(kLabelCount + 4 * kMaxGpuCount < (int64_t{1} << 24), "label ids fit 24 bits");
    struct UnitRows {
        std::vector<Item> row[kStreamCount];
        // Per row: its items of some duration, the segments a member GPU's row holds when
        // it is not merged and its jittered work is its own (one member, or no per-GPU
        // draws): buildTimeline then sizes it without expanding it again.
        uint32_t timed[kStreamCount] = {};
    };
    void unitRows(uint32_t unit, UnitRows &out) const;
    // One member GPU's segments of a row: out(start, duration, kind, label, mb, bytes).
    // own_is_group: the member's jittered work lasts as long as the group's (drawFactors).
    template <typename Out>
    void expand(const std::vector<Item> &row, int gpu, bool own_is_group, Out &&out) const;
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
    /// The rows' storage of the last timeline built (a process-wide pool of one): the next
    /// simulation refills vectors that are already mapped instead of allocating them again.
    static std::vector<UnitRows> takeRowsStorage();
    static void giveRowsStorage(std::vector<UnitRows> &&rows);
    struct RowsPool;
    static RowsPool &rowsPool();
    double memberDuration(const Task &t, TaskId id, int gpu) const;
    /// Duration factor of throttled clocks on `gpu` during iteration `it` (1 = cool).
    double thermalFactor(int gpu, int it) const;
    bool hot(int gpu, int it) const;
    uint32_t waitLabelFor(TaskId collective) const;

    const SimContext &ctx_;
    const Plan &plan_;
    const StepDescription &step_; // what the graph is built from (sim/step_description.h)
    SimOptions opt_;
    bool loads_free_ = false;
    bool per_rank_ = false;
    int replicas_ = 1, units_ = 1, vstages_ = 1, iterations_ = 1;
    int warmup_ = 0;
    TaskGraph graph_;

    std::vector<std::vector<int>> members_;  // GPU ranks of each unit
    std::vector<uint32_t> group_wait_label_; // per collective group
    // When each collective would have ended had no other replica been slower (its own
    // dependencies only): splits idle time into exposed communication and waiting.
    std::vector<double> own_end_;
    double jitter_mean_ = 0; // drawFactors: the measured compute's mean jitter draw
    SegmentArray<float> factor_;     // per task and tensor rank: jitter x straggler factor
    std::vector<double> gpu_factor_; // per iteration and GPU: straggler x thermal factor
    std::vector<uint8_t> hot_;       // per iteration and GPU: clocks throttled
    std::vector<std::pair<TaskId, TaskId>> unit_tasks_; // per unit: its tasks [first, last)
    std::vector<std::pair<double, double>> window_;     // per unit: the measured steps
    int threads_ = 1;
    std::vector<std::vector<TaskId>> stream_tasks_; // per unit * kStreamCount
    std::vector<TaskId> f_first_, f_send_, b_first_, b_send_;
    /// Per pipeline stage: the schedule's program order (sim/schedule.h).
    std::vector<std::vector<PipelineOp>> orders_;
    /// Per replica, iteration and micro-batch: its load (kNoTask without a loader). The
    /// measured window is bounded by the loads (Simulation::measureWindow).
    std::vector<TaskId> load_;
    double jittered_compute_ = 0; // drawFactors: the measured compute as drawn, all GPUs
    /// Asynchronous replicas: the length of replica r's measured window as its loader sets
    /// it (0 without a loader), and whether the loader alone set it (loaderBound).
    double loadSpan(int replica, int first) const;
    bool loaderBound(int replica, int first) const;
    /// Replica r's loads' own work over all iterations (a synchronous step's bound).
    double loadWork(int replica) const;
    std::vector<std::vector<TaskId>> dp_collectives_; // per unit, in creation order
    std::vector<std::vector<TaskId>> recv_tasks_;     // per unit: the sends it receives
    std::vector<double> iteration_end_;
    TaskId last_task_ = kNoTask; // the task that ends last, the loader's aside
    std::vector<double> unit_end_; // per unit and iteration: its last compute's end
    // Extra labels ("waiting for GPU 17") beyond the fixed ones.
    std::vector<SegmentLabel> extra_labels_;
    /// The record of a label id (fixed or extra).
    SegmentLabel labelRecord(uint32_t id) const
    {
        return id < kLabelCount ? SegmentLabel{static_cast<LabelKind>(id)}
                                : extra_labels_[id - kLabelCount];
    }
};

inline double Simulation::memberDuration(const Task &t, TaskId id, int gpu) const
{
    if (!t.jittered || !per_rank_)
        return t.duration;
    const size_t T = static_cast<size_t>(plan_.tensor);
    return graph_.baseDuration(id) * factor_[id * T + static_cast<size_t>(gpu) % T];
}

} // namespace sim_detail

} // namespace scalescope
