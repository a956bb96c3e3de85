#include "recompute.h"

#include "analysis/evaluate.h"

#include <QElapsedTimer>

#include <algorithm>

namespace scalescope
{

std::vector<int> defaultSweepCounts(const Scenario &scenario)
{
    // Up to twice the scenario's count, whatever its size: points beyond the window's engine
    // budget come from the closed form (kGuiSweepMaxTasks) and are marked so.
    const int gpus = scenario.hardware.gpuCount();
    const int top = std::max(16, static_cast<int>(std::min<int64_t>(2 * int64_t{gpus}, 1 << 20)));
    std::vector<int> counts;
    for (int n = 1; n <= top; n *= 2)
        counts.push_back(n);
    if (std::find(counts.begin(), counts.end(), gpus) == counts.end())
        counts.push_back(gpus);
    std::sort(counts.begin(), counts.end());
    while (counts.size() > 12) // keep the scenario's own count and the largest ones
        counts.erase(counts.begin() + (counts[1] == gpus ? 2 : 1));
    return counts;
}

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
    const auto cancelled = [cancel] { return cancel && cancel->load(); };
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
    Result<std::shared_ptr<const SimContext>> ctx = makeContext(request.scenario);
    if (!ctx) {
        result->error_path = QString::fromStdString(ctx.error().path);
        result->error = QString::fromStdString(ctx.error().message);
        return result;
    }
    result->context = ctx.value();
    SimOptions options;
    options.iterations = std::clamp(request.iterations, 1, 4);
    options.build_timeline = true;
    // About 50 MB of timeline (25 B per segment) and a paint of a few frames at most;
    // larger timelines are simplified by the engine (items merged per time quantum).
    options.max_segments = kGuiMaxTimelineSegments;
    options.cancel = cancel;
    // Stage 1, for runs the engine needs more than a frame for: the closed form's figures
    // at once, marked as an estimate until the engine's replace them.
    const bool staged = partial && estimatedTasks(*ctx.value(), options) >= kGuiStagedTasks;
    if (staged) {
        auto first = std::make_shared<ScenarioResult>(*result);
        first->stage = ResultStage::Summary;
        first->summary = analyticSummary(*ctx.value());
        first->compute_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        partial(first);
    }
    // One policy (analysis/evaluate.h): beyond the engine's size the closed form answers
    // and the window says so; an engine failure is shown, never other numbers.
    Result<StepEvaluation> step = evaluateStep(*ctx.value(), options);
    if (cancelled())
        return nullptr;
    if (!step) {
        result->error_path = QString::fromStdString(step.error().path);
        result->error = QString::fromStdString(step.error().message);
        return result;
    }
    StepEvaluation &e = step.value();
    result->summary = e.summary;
    result->closed_form = e.closed_form;
    result->closed_form_note = QString::fromStdString(e.note);
    if (!e.closed_form) {
        if (e.sim.timeline)
            result->timeline = std::make_shared<const Timeline>(std::move(*e.sim.timeline));
        result->timeline_merge_quantum_s = e.sim.timeline_merge_quantum_s;
        result->timeline_full_segments = e.sim.timeline_full_segments;
        result->warmup_steps = e.sim.warmup_iterations;
    }
    if (request.scenario.cost)
        result->cost = costReport(request.scenario, result->summary);
    // Stage 2: the engine's figures and timeline, before the sweep.
    if (partial) {
        auto second = std::make_shared<ScenarioResult>(*result);
        second->stage = ResultStage::Timeline;
        second->compute_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        partial(second);
    }

    const std::vector<int> counts =
        request.sweep_gpus.empty() ? defaultSweepCounts(request.scenario) : request.sweep_gpus;
    std::vector<int> fit_gpus;
    std::vector<double> fit_speedup;
    const int own_gpus = request.scenario.hardware.gpuCount();
    // Sweep points beyond the window's engine budget come from the closed form (marked).
    SimOptions point;
    point.max_tasks = kGuiSweepMaxTasks;
    point.cancel = cancel;
    for (int n : counts) {
        if (cancelled())
            return nullptr;
        if (n == own_gpus) {
            // The scenario itself was just simulated: its point is the figure the status
            // bar shows, not a second simulation of the same plan.
            result->sweep.push_back({n, result->summary, result->closed_form});
            fit_gpus.push_back(n);
            fit_speedup.push_back(result->summary.speedup);
            continue;
        }
        // Counts the plan cannot reach (not a multiple of tensor x pipeline, batch not
        // divisible) are left out of the chart rather than failing the whole sweep.
        Result<std::vector<SweepRow>> row =
            sweep(request.scenario, {n}, request.scaling, request.sweep_node_gpus,
                  result->summary.single_gpu_step_s, point);
        if (cancelled())
            return nullptr;
        if (!row || row.value().empty())
            continue;
        result->sweep.push_back(row.value().front());
        fit_gpus.push_back(n);
        const Summary &s = row.value().front().summary;
        // Weak scaling: speed-up of throughput, i.e. the scaled speed-up of Gustafson.
        fit_speedup.push_back(s.speedup);
    }
    if (request.scaling == Scaling::Strong)
        result->amdahl = fitAmdahl(fit_gpus, fit_speedup);
    result->attribution = attributeSpeedupLoss(result->sweep);
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
