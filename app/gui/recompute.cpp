#include "recompute.h"

#include "analysis/evaluation.h"

#include <QElapsedTimer>

#include <algorithm>

namespace scalescope
{

ResultPtr computeResult(const RecomputeRequest &request)
{
    return computeResultStaged(request, {}, nullptr);
}

ResultPtr computeResultStaged(const RecomputeRequest &request,
                              const std::function<void(ResultPtr)> &partial,
                              const std::atomic<bool> *cancel)
{
    QElapsedTimer timer;
    timer.start();
    auto result = std::make_shared<ScenarioResult>();
    result->generation = request.generation;
    result->scenario = request.scenario;
    result->iterations = request.iterations;
    result->scaling = request.scaling;
    result->sweep_node_gpus = request.sweep_node_gpus;

    if (request.scenario.isCollective()) {
        result->error_path = QStringLiteral("collective");
        result->error = QObject::tr("A collective-only scenario has no training step to draw; "
                                    "use scalescope-cli simulate for its bandwidth.");
        return result;
    }
    // The model's one evaluation (analysis/evaluation.h) with the window's limits.
    EvaluationRequest what;
    what.step.iterations = std::clamp(request.iterations, 1, 4);
    what.step.build_timeline = true;
    // About 50 MB of timeline (25 B per segment) and a paint of a few frames at most;
    // larger timelines are simplified by the engine (items merged per time quantum).
    what.step.max_segments = kGuiMaxTimelineSegments;
    what.sweep = true;
    what.sweep_gpus = request.sweep_gpus;
    what.scaling = request.scaling;
    what.sweep_node_gpus = request.sweep_node_gpus;
    what.sweep_max_tasks = kGuiSweepMaxTasks;
    what.skip_unreachable_counts = true; // left out of the chart
    what.what_if = true;
    what.what_if_engine_max_tasks = kGuiWhatIfEngineTasks; // the Breakdown tab's "What if this were
                                                           // free" (after the step stage)
    what.estimate_first_tasks = partial ? kGuiStagedTasks : 0;
    what.cancel = cancel;

    // Stage 1, for runs the engine needs more than a frame for: the closed form's figures at
    // once, marked as an estimate until the engine's replace them. Stage 2: the engine's
    // figures and timeline, before the sweep. Each stage is a snapshot of the evaluation.
    const auto on_stage = [&](EvaluationStage stage, const ScenarioEvaluation &e) {
        auto r = std::make_shared<ScenarioResult>(*result);
        r->evaluation = std::make_shared<const ScenarioEvaluation>(e);
        r->stage =
            stage == EvaluationStage::Estimate ? ResultStage::Summary : ResultStage::Timeline;
        r->compute_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        partial(r);
    };
    Result<ScenarioEvaluation> evaluated = evaluateScenario(
        request.scenario, what,
        partial ? std::function<void(EvaluationStage, const ScenarioEvaluation &)>(on_stage)
                : nullptr);
    if (!evaluated && isCancelled(evaluated.error()))
        return nullptr;
    if (!evaluated) {
        result->error_path = QString::fromStdString(evaluated.error().path);
        result->error = QString::fromStdString(evaluated.error().message);
        return result;
    }
    result->evaluation = std::make_shared<const ScenarioEvaluation>(std::move(evaluated.value()));
    // The spread of the step over many steps where they vary (jitter, a loader, throttling
    // over time, asynchronous replicas) and fit the budget; steps that do not vary are one
    // step (stepSpread answers from the step itself, steps == 1).
    const ScenarioEvaluation &e = *result->evaluation;
    if (e.context && !e.step.closed_form && e.step.sim.ok) {
        const Result<StepSpread> spread =
            stepSpread(*e.context, e.step.sim, kGuiSpreadSteps, kGuiSpreadMaxTasks, cancel);
        if (cancel && cancel->load())
            return nullptr;
        if (spread)
            result->spread = spread.value();
    }
    result->compute_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    return result;
}

Recomputer::Recomputer(QObject *parent) : QObject(parent)
{
    thread_ = std::thread([this] { run(); });
}

Recomputer::~Recomputer()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        pending_.reset();
        cancel_.store(true);
    }
    wake_.notify_all();
    thread_.join();
}

uint64_t Recomputer::request(RecomputeRequest request)
{
    uint64_t generation;
    {
        std::lock_guard lock(mutex_);
        generation = ++next_generation_;
        request.generation = generation;
        pending_ = std::move(request);
        if (computing_) // the one being computed is abandoned at its next check
            cancel_.store(true);
    }
    wake_.notify_one();
    return generation;
}

uint64_t Recomputer::latestGeneration() const
{
    std::lock_guard lock(mutex_);
    return next_generation_;
}

bool Recomputer::busy() const
{
    std::lock_guard lock(mutex_);
    return computing_ || pending_.has_value();
}

void Recomputer::run()
{
    for (;;) {
        RecomputeRequest request;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stop_ || pending_.has_value(); });
            if (stop_)
                return;
            request = std::move(*pending_);
            pending_.reset();
            computing_ = true;
            cancel_.store(false);
        }
        ResultPtr result = computeResultStaged(
            request,
            [this](ResultPtr stage) {
                if (!cancel_.load())
                    Q_EMIT resultReady(std::move(stage));
            },
            &cancel_);
        {
            std::lock_guard lock(mutex_);
            computing_ = false;
            if (stop_)
                return;
        }
        // nullptr: abandoned for a newer request; one that finished as a newer request came
        // is dropped too (the newer one follows).
        if (result && !cancel_.load())
            Q_EMIT resultReady(result);
    }
}

} // namespace scalescope
