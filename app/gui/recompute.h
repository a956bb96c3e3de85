// The worker: recomputes a scenario off the GUI thread. Requests coalesce (the newest
// waiting request replaces older waiting ones) and every result carries its generation so
// that the window shows only the newest; the GUI never blocks on the model.
#pragma once

#include "analysis/sweep.h"
#include "plan/scenario.h"
#include "result.h"

#include <QObject>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace scalescope
{

struct RecomputeRequest {
    uint64_t generation = 0;
    Scenario scenario;
    int iterations = 1; // steps drawn on the timeline (1..4)
    Scaling scaling = Scaling::Strong;
    int sweep_node_gpus = 0;     // the sweep grows by nodes of this many GPUs (0: the scenario's)
    std::vector<int> sweep_gpus; // empty: defaultSweepCounts (analysis/evaluation.h)
};

/// Computes one request synchronously (also used by --screenshot and tests).
/// Beyond this many segments the GUI's timeline is simplified (SimOptions::max_segments).
inline constexpr size_t kGuiMaxTimelineSegments = 2'000'000;

ResultPtr computeResult(const RecomputeRequest &request);

/// Sweep points whose task graph is larger than this are answered by the closed form in the
/// window (and marked so): about 0.1 s of engine time each on two cores.
inline constexpr size_t kGuiSweepMaxTasks = 1'000'000;
/// Scenarios whose engine run is larger than this (tasks; about 5 ms) show the closed-form
/// summary first, marked as an estimate, while the engine runs.
inline constexpr size_t kGuiStagedTasks = 50'000;
/// The step-time spread (P50/P90/P99 over up to kGuiSpreadSteps steps) is computed where
/// those steps' task graph stays within this many tasks (a few tens of milliseconds of the
/// engine); larger runs show the one step (scalescope-cli simulate --json gives theirs).
inline constexpr size_t kGuiSpreadMaxTasks = 400'000;
inline constexpr int kGuiSpreadSteps = 30;
/// "What if this were free" re-simulates each cause with the engine up to this many tasks
/// (a few milliseconds each); larger runs take each cause's step from the closed form.
inline constexpr size_t kGuiWhatIfEngineTasks = 200'000;

/// computeResult in stages: `partial` gets the closed-form summary (large scenarios only)
/// and then the engine's result with its timeline, before the sweep; the complete result is
/// returned. Returns nullptr as soon as `cancel` is set (a newer request is waiting).
ResultPtr computeResultStaged(const RecomputeRequest &request,
                              const std::function<void(ResultPtr)> &partial,
                              const std::atomic<bool> *cancel);

class Recomputer : public QObject
{
    Q_OBJECT
public:
    explicit Recomputer(QObject *parent = nullptr);
    ~Recomputer() override;

    /// Queues a recompute; returns its generation. A request still waiting is replaced.
    uint64_t request(RecomputeRequest request);
    uint64_t latestGeneration() const;
    /// True while a request is being computed or waiting.
    bool busy() const;

Q_SIGNALS:
    /// Emitted from the worker thread (queued to receivers in the GUI thread), once per
    /// stage of a request (ScenarioResult::stage), the complete one last.
    void resultReady(scalescope::ResultPtr result);

private:
    void run();

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<RecomputeRequest> pending_;
    uint64_t next_generation_ = 0;
    bool computing_ = false;
    bool stop_ = false;
    std::atomic<bool> cancel_{false}; // the request being computed is superseded
    std::thread thread_;
};

} // namespace scalescope
