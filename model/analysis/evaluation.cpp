#include "analysis/evaluation.h"

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
        on_stage(EvaluationStage::Estimate, first);
    }
    // The step under one policy (analysis/evaluate.h): beyond the engine's size the closed
    // form answers and says so; an engine failure is an error, never other numbers.
    Result<StepEvaluation> step = evaluateStep(*e.context, options);
    if (cancelled())
        return cancelError();
    if (!step)
        return step.error();
    e.step = std::move(step).value();
    if (e.step.sim.timeline) {
        e.timeline = std::make_shared<const Timeline>(std::move(*e.step.sim.timeline));
        e.step.sim.timeline.reset();
    }
    if (scenario.cost)
        e.cost = costReport(scenario, e.step.summary);
    SimOptions point;
    point.max_tasks = request.sweep_max_tasks;
    point.cancel = request.cancel;
    // The window draws the step at once; where one GPU is on paper the reference is pending
    // (no figure a later stage takes back) until the fewest that fit are evaluated.
    if (request.sweep && on_stage) {
        ScenarioEvaluation early = e;
        early.reference = oneGpuReference(*e.context);
        on_stage(EvaluationStage::Step, early);
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
    if (!request.sweep)
        return e;

    const std::vector<int> counts =
        request.sweep_gpus.empty() ? defaultSweepCounts(scenario) : request.sweep_gpus;
    std::vector<int> fit_gpus;
    std::vector<double> fit_speedup;
    const int own_gpus = scenario.hardware.gpuCount();
    // A jittered job's counts share its calm one-GPU run (each stretches it by its own
    // draws): the scenario's own step has it when the engine answered.
    SimContext::CalmReference calm = e.step.summary.single_gpu_calm;
    for (int n : counts) {
        if (cancelled())
            return cancelError();
        if (n == own_gpus) {
            // The scenario itself was just evaluated: its point is that figure, not a second
            // simulation of the same plan.
            e.sweep.push_back({n, e.step.summary, e.step.closed_form});
        } else if (reference_row && reference_row->gpus == n) {
            // The reference's point, reached as the sweep reaches its counts: that row.
            e.sweep.push_back(*reference_row);
        } else {
            Result<std::vector<SweepRow>> row =
                sweep(scenario, {n}, request.scaling, request.sweep_node_gpus,
                      e.step.summary.single_gpu_step_s, point, calm);
            if (row && !row.value().empty() && calm.step_s < 0)
                calm = row.value().front().summary.single_gpu_calm;
            if (cancelled())
                return cancelError();
            // A count the plan cannot reach is refused with a key path; the engine's own
            // failures have none and are never skipped.
            if (!row && !(request.skip_unreachable_counts && !row.error().path.empty()))
                return row.error();
            if (!row || row.value().empty())
                continue;
            e.sweep.push_back(row.value().front());
        }
        fit_gpus.push_back(n);
        // Weak scaling: speed-up of throughput, i.e. the scaled speed-up of Gustafson.
        fit_speedup.push_back(e.sweep.back().summary.speedup);
    }
    if (request.scaling == Scaling::Strong)
        e.amdahl = fitAmdahl(fit_gpus, fit_speedup);
    e.attribution = attributeSpeedupLoss(e.sweep);
    return e;
}

} // namespace scalescope
