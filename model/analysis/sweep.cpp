#include "analysis/sweep.h"

#include "analysis/evaluate.h"

#include <string>

namespace scalescope
{

Result<Scenario> scaledScenario(const Scenario &base, int gpus, Scaling scaling, int node_gpus)
{
    Scenario s = base;
    const int per_node = node_gpus > 0 ? node_gpus : base.hardware.gpus_per_node;
    const int mp = base.parallel.tensor * base.parallel.pipeline;
    auto reject = [&](const std::string &why) {
        return InputError{"--gpus", std::to_string(gpus) + " GPUs: " + why};
    };
    if (gpus < 1)
        return reject("at least 1 GPU is needed");
    if (gpus % mp != 0)
        return reject("not a multiple of tensor*pipeline = " + std::to_string(mp));
    if (gpus < per_node) {
        s.hardware.nodes = 1;
        s.hardware.gpus_per_node = gpus;
    } else if (gpus % per_node != 0) {
        return reject("not a multiple of gpus_per_node = " + std::to_string(per_node));
    } else {
        s.hardware.nodes = gpus / per_node;
        s.hardware.gpus_per_node = per_node;
    }
    const int data = gpus / mp;
    const int base_data =
        base.parallel.data > 0 ? base.parallel.data : base.hardware.gpuCount() / mp;
    s.parallel.data = data;
    if (scaling == Scaling::Weak)
        s.training.global_batch = base.training.global_batch / base_data * data;
    const int64_t mb = s.training.micro_batch > 0 ? s.training.micro_batch
                                                  : base.training.global_batch / base_data;
    s.training.micro_batch = mb;
    if (s.training.global_batch % (mb * data) != 0)
        return reject("global_batch " + std::to_string(s.training.global_batch) +
                      " is not a multiple of micro_batch*data = " + std::to_string(mb) + "*" +
                      std::to_string(data));
    const int64_t m = s.training.global_batch / (mb * data);
    if (s.parallel.schedule == Schedule::Interleaved && s.parallel.virtual_stages > 1 &&
        m % s.parallel.pipeline != 0)
        return reject(std::to_string(m) +
                      " micro-batches per step are not a multiple of pipeline = " +
                      std::to_string(s.parallel.pipeline) + " (interleaved schedule)");
    // Stragglers beyond the smaller cluster are dropped with it.
    std::erase_if(s.effects.stragglers, [&](const StragglerSpec &st) { return st.gpu >= gpus; });
    return s;
}

Result<std::vector<SweepRow>> sweep(const Scenario &base, const std::vector<int> &gpu_counts,
                                    Scaling scaling, int node_gpus, double reference_s,
                                    const SimOptions &options)
{
    SimOptions point = options;
    point.build_timeline = false;
    point.iterations = 1;
    // Strong scaling keeps the job, so every count has the same one-GPU reference (unless
    // per-GPU cooling makes the reference depend on the count): computed once.
    const bool shared_reference =
        scaling == Scaling::Strong &&
        !(base.effects.thermal.enabled && !base.effects.thermal.gpus.empty());
    double reference = shared_reference ? reference_s : -1;
    std::vector<SweepRow> rows;
    rows.reserve(gpu_counts.size());
    for (int n : gpu_counts) {
        Result<Scenario> s = scaledScenario(base, n, scaling, node_gpus);
        if (!s)
            return s.error();
        Result<std::shared_ptr<const SimContext>> made = makeContext(s.value(), reference);
        if (!made)
            return InputError{"--gpus", std::to_string(n) + " GPUs: " + made.error().toString()};
        const std::shared_ptr<const SimContext> &ctx = made.value();
        // One policy (analysis/evaluate.h): beyond the engine's size the closed form
        // answers; an engine failure is an error.
        Result<StepEvaluation> e = evaluateStep(*ctx, point);
        if (!e && isCancelled(e.error()))
            return e.error();
        if (!e)
            return InputError{"--gpus", std::to_string(n) + " GPUs: " + e.error().message};
        rows.push_back({n, e.value().summary, e.value().closed_form});
        if (shared_reference && n > 1)
            reference = e.value().summary.single_gpu_step_s;
    }
    return rows;
}

} // namespace scalescope
