#include "analysis/sweep.h"

#include "analysis/step_evaluation.h"
#include "plan/rules.h"

#include <algorithm>
#include <string>

namespace scalescope
{

Result<Scenario> scaledScenario(const Scenario &base, int gpus, Scaling scaling, int node_gpus)
{
    Scenario s = base;
    const int per_node = node_gpus > 0 ? node_gpus : base.hardware.gpus_per_node;
    const int mp = base.parallel.tensor * base.parallel.pipeline * base.parallel.context;
    auto reject = [&](const std::string &why) {
        return InputError{kRequestedGpusPath, std::to_string(gpus) + " GPUs: " + why};
    };
    // How the count is laid out on nodes is the sweep's; whether the plan fits it is the
    // rule table's (plan/rules.h).
    if (gpus < 1)
        return reject("at least 1 GPU is needed");
    if (gpus < per_node) {
        s.hardware.nodes = 1;
        s.hardware.gpus_per_node = gpus;
    } else if (gpus % per_node != 0) {
        return reject("not a multiple of gpus_per_node = " + std::to_string(per_node));
    } else {
        s.hardware.nodes = gpus / per_node;
        s.hardware.gpus_per_node = per_node;
    }
    const int base_data =
        base.parallel.data > 0 ? base.parallel.data : base.hardware.gpuCount() / mp;
    s.parallel.data = 0; // derived from the count, as the rule table checks it
    s.training.micro_batch = s.training.micro_batch > 0 ? s.training.micro_batch
                                                        : base.training.global_batch / base_data;
    if (scaling == Scaling::Weak && mp > 0 && gpus % mp == 0)
        s.training.global_batch = base.training.global_batch / base_data * (gpus / mp);
    s.effects.restrictTo(gpus);
    if (const std::optional<InputError> error = ruleError(s))
        return reject(error->toString());
    s.parallel.data = gpus / mp;
    return s;
}

Result<std::vector<SweepRow>> sweep(const Scenario &base, const std::vector<int> &gpu_counts,
                                    Scaling scaling, int node_gpus, double reference_s,
                                    const SimOptions &options,
                                    SimContext::CalmReference calm_reference,
                                    const SweepPolicy &policy)
{
    SimOptions point = options;
    point.build_timeline = false;
    point.iterations = 1;
    // Strong scaling keeps the job, so every count has the same one-GPU reference (unless
    // per-GPU cooling or heating over time make the reference depend on the count, or
    // jitter: each count's reference does its work with its own draws, analysis/summary.h):
    // computed once.
    const ThermalSpec &th = base.effects.thermal;
    const bool same_reference_job =
        scaling == Scaling::Strong && !(th.enabled && (!th.gpus.empty() || th.start_s));
    const bool shared_reference = same_reference_job && base.effects.jitter <= 0;
    double reference = shared_reference ? reference_s : -1;
    // A jittered job's counts each stretch the same calm one-GPU run by their own draws
    // (analysis/summary.h): that run is simulated once.
    const bool shared_calm = same_reference_job && base.effects.jitter > 0;
    SimContext::CalmReference calm = shared_calm ? calm_reference : SimContext::CalmReference{};
    std::vector<SweepRow> rows;
    rows.reserve(gpu_counts.size());
    for (int n : gpu_counts) {
        if (options.cancel && options.cancel->load())
            return InputError{"", kCancelledMessage};
        const auto known = std::find_if(policy.known.begin(), policy.known.end(),
                                        [n](const SweepRow &row) { return row.gpus == n; });
        if (known != policy.known.end()) {
            rows.push_back(*known);
            continue;
        }
        Result<Scenario> s = scaledScenario(base, n, scaling, node_gpus);
        if (!s && policy.skip_unreachable)
            continue;
        if (!s)
            return s.error();
        Result<std::shared_ptr<const SimContext>> made = makeContext(s.value(), reference, calm);
        if (!made && policy.skip_unreachable)
            continue;
        if (!made)
            return InputError{kRequestedGpusPath,
                              std::to_string(n) + " GPUs: " + made.error().toString()};
        const std::shared_ptr<const SimContext> &ctx = made.value();
        // One policy (analysis/step_evaluation.h): beyond the engine's size the closed form
        // answers; an engine failure is an error.
        Result<StepEvaluation> e = evaluateStep(*ctx, point);
        if (!e && isCancelled(e.error()))
            return e.error();
        if (!e) // the engine's failure, not the count's: no key path
            return InputError{"", std::to_string(n) + " GPUs: " + e.error().message};
        rows.push_back({n, e.value().summary, e.value().closed_form});
        if (shared_calm && calm.step_s < 0)
            calm = e.value().summary.single_gpu_calm; // computed by this point, if it needed it
        if (shared_reference && n > 1)
            reference = e.value().summary.single_gpu_step_s;
    }
    return rows;
}

} // namespace scalescope
