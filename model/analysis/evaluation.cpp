#include "analysis/evaluation.h"

#include "analysis/memory_remedy.h"

#include <algorithm>

namespace scalescope
{

std::vector<int> defaultSweepCounts(const Scenario &scenario)
{
    // Up to twice the scenario's count, whatever its size: points beyond the engine budget
    // come from the closed form (EvaluationRequest::sweep_max_tasks) and are marked so.
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

Result<ScenarioEvaluation>
evaluateScenario(const Scenario &scenario, const EvaluationRequest &request,
                 const std::function<void(EvaluationStage, const ScenarioEvaluation &)> &on_stage)
{
    const auto cancelled = [&] { return request.cancel && request.cancel->load(); };
    const auto cancelError = [] { return InputError{"", kCancelledMessage}; };
    if (scenario.isCollective())
        return InputError{"collective", "a collective-only scenario has no training step"};
    Result<std::shared_ptr<const SimContext>> ctx = makeContext(scenario);
    if (!ctx)
        return ctx.error();
    ScenarioEvaluation e;
    e.context = ctx.value();
    SimOptions options = request.step;
    options.cancel = request.cancel;
    if (on_stage && request.estimate_first_tasks > 0 &&
        estimatedTasks(*e.context, options) >= request.estimate_first_tasks) {
        ScenarioEvaluation first = e;
        first.step.summary = analyticSummary(*e.context);
        first.reference = oneGpuReference(*e.context);
        if (scenario.cost) // every stage carries its cost (the window's Cost tab reads it)
            first.cost = costReport(scenario, first.step.summary,
                                    costBaseline(first.reference, first.step.summary));
        on_stage(EvaluationStage::Estimate, first);
    }
    // The step under one policy (analysis/step_evaluation.h): beyond the engine's size the closed
    // form answers and says so; an engine failure is an error, never other numbers.
    Result<StepEvaluation> step = evaluateStep(*e.context, options);
    if (cancelled())
        return cancelError();
    if (!step)
        return step.error();
    e.step = std::move(step).value();
    // Where it does not fit: the one change that makes it fit at the least cost.
    addMemoryRemedy(*e.context, e.step.summary);
    if (e.step.sim.timeline) {
        e.timeline = std::make_shared<const Timeline>(std::move(*e.step.sim.timeline));
        e.step.sim.timeline.reset();
    }
    SimOptions point;
    point.max_tasks = request.sweep_max_tasks;
    point.cancel = request.cancel;
    // The window draws the step at once; where one GPU is on paper the reference is pending
    // (no figure a later stage takes back) until the fewest that fit are evaluated.
    if (request.sweep && on_stage) {
        ScenarioEvaluation early = e;
        early.reference = oneGpuReference(*e.context);
        if (scenario.cost) // every stage carries its cost (the window's Cost tab reads it)
            early.cost = costReport(scenario, early.step.summary,
                                    costBaseline(early.reference, early.step.summary));
        on_stage(EvaluationStage::Step, early);
    }
    if (request.what_if) {
        const bool closed_form_only =
            request.what_if_engine_max_tasks > 0 &&
            estimatedTasks(*e.context, options) > request.what_if_engine_max_tasks;
        Result<std::vector<WhatIfGain>> gains =
            whatIfFree(*e.context, e.step, options, closed_form_only);
        if (cancelled())
            return cancelError();
        if (!gains)
            return gains.error();
        e.what_if = std::move(gains).value();
        nameLinkByGain(e.step.summary.bottleneck, e.what_if, *e.context);
    }
    // The one speed-up reference of this evaluation: among the default chart's counts, so
    // that the window (which sweeps) and the CLI (which may not) count from the same N0;
    // reached as the sweep reaches its counts (strong scaling on the scenario's nodes unless
    // the window's chart asks otherwise), so that the sweep's row at N0 is its figure.
    std::optional<SweepRow> reference_row;
    ReferenceSearch search;
    search.counts = defaultSweepCounts(scenario);
    search.point = point;
    // The engine's limit of the scenario's own step, not the chart's per-point one (the
    // window's is lower): N0 < N, and the window and the CLI get the same figure.
    search.point.max_tasks = request.step.max_tasks;
    if (request.sweep) {
        search.scaling = request.scaling;
        search.node_gpus = request.sweep_node_gpus;
    }
    Result<SpeedupReference> reference = findSpeedupReference(
        *e.context, e.step.summary, e.step.closed_form, search, &reference_row);
    if (cancelled())
        return cancelError();
    if (!reference)
        return reference.error();
    e.reference = reference.value();
    if (scenario.cost) // once, against the evaluation's reference
        e.cost = costReport(scenario, e.step.summary, costBaseline(e.reference, e.step.summary));
    if (!request.sweep)
        return e;

    const std::vector<int> counts =
        request.sweep_gpus.empty() ? defaultSweepCounts(scenario) : request.sweep_gpus;
    // The one sweep loop (analysis/sweep.h). The scenario itself was just evaluated: its
    // point is that figure, not a second simulation of the same plan; the reference's point,
    // reached as the sweep reaches its counts, is that row. A jittered job's counts share its
    // calm one-GPU run (each stretches it by its own draws).
    SweepPolicy policy;
    policy.known.push_back({scenario.hardware.gpuCount(), e.step.summary, e.step.closed_form});
    if (reference_row)
        policy.known.push_back(*reference_row);
    policy.skip_unreachable = request.skip_unreachable_counts;
    Result<std::vector<SweepRow>> rows =
        sweep(scenario, counts, request.scaling, request.sweep_node_gpus,
              e.step.summary.single_gpu_step_s, point, e.step.summary.single_gpu_calm, policy);
    if (cancelled())
        return cancelError();
    if (!rows)
        return rows.error();
    e.sweep = std::move(rows).value();
    std::vector<int> fit_gpus;
    std::vector<double> fit_speedup;
    for (const SweepRow &row : e.sweep) {
        fit_gpus.push_back(row.gpus);
        // Weak scaling: speed-up of throughput, i.e. the scaled speed-up of Gustafson.
        fit_speedup.push_back(row.summary.speedup);
    }
    if (request.scaling == Scaling::Strong) {
        e.amdahl = fitAmdahl(fit_gpus, fit_speedup);
        // The verdict names the count of the sweep that pays best (economics.h).
        if (e.cost)
            weighSweep(*e.cost, scenario, e.sweep, costBaseline(e.reference, e.step.summary));
    }
    e.attribution = attributeSpeedupLoss(e.sweep);
    return e;
}

} // namespace scalescope
