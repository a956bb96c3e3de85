#include "analysis/memory_remedy.h"

#include "plan/rules.h"

#include <vector>

namespace scalescope
{

namespace
{

using Remedy = Bottleneck::OutOfMemory::Remedy;

struct Candidate {
    Remedy remedy;
    int64_t value;
    Scenario scenario;
};

std::vector<Candidate> candidates(const SimContext &ctx)
{
    const Scenario &base = ctx.scenario;
    const TrainingSpec &t = base.training;
    std::vector<Candidate> out;
    const auto with = [&](Remedy r, int64_t value, auto change) {
        Candidate c{r, value, base};
        change(c.scenario);
        out.push_back(std::move(c));
    };
    // Recompute trades compute for activation memory (Chen et al. 2016; Korthikanti et al.
    // 2022, Sec. 5): selective first, the stack's own modules.
    if (t.recompute == Recompute::None)
        with(Remedy::SelectiveRecompute, 0, [](Scenario &s) {
            s.training.recompute = Recompute::Selective;
            s.training.recompute_modules = 0;
        });
    // Megatron-Core's up-projection recompute, which NVIDIA's DeepSeek-V3 recipes use
    // (Megatron-Bridge recompute_modules ["mla_up_proj"]): the queries, keys and values of
    // multi-head latent attention rebuilt from their latents.
    const bool mla =
        base.model.kind == ModelSpec::Kind::Transformer && base.model.transformer.mla.enabled();
    // (Under another stack the rule table refuses it below.)
    if (mla && ctx.plan.recompute != Recompute::Full &&
        !hasModule(ctx.plan.recompute_modules, RecomputeModule::MlaUpProj))
        with(Remedy::UpProjections, 0, [&](Scenario &s) {
            s.training.recompute = Recompute::Selective;
            s.training.recompute_modules =
                ctx.plan.recompute_modules | static_cast<unsigned>(RecomputeModule::MlaUpProj);
        });
    if (t.recompute != Recompute::Full)
        with(Remedy::FullRecompute, 0, [](Scenario &s) {
            s.training.recompute = Recompute::Full;
            s.training.recompute_modules = 0;
        });
    // ZeRO shards optimizer states, then gradients, then parameters over the data-parallel
    // group (Rajbhandari et al. SC20, Sec. 5).
    for (int zero = base.parallel.zero + 1; zero <= 3 && ctx.plan.data > 1; ++zero)
        with(Remedy::ZeroStage, zero, [zero](Scenario &s) { s.parallel.zero = zero; });
    // Fewer samples per pass keep fewer activations; the global batch stays (more
    // micro-batches per step).
    for (int64_t micro = ctx.plan.micro_batch / 2; micro >= 1; micro /= 2) {
        if (ctx.plan.micro_batch % micro != 0)
            continue;
        with(Remedy::MicroBatch, micro, [micro](Scenario &s) { s.training.micro_batch = micro; });
    }
    return out;
}

} // namespace

void addMemoryRemedy(const SimContext &ctx, Summary &summary)
{
    std::optional<Bottleneck::OutOfMemory> &oom = summary.bottleneck.out_of_memory;
    if (!oom || summary.memory.fits())
        return;
    // The changes are weighed by the closed form, so their cost is counted against the
    // closed form's step of the plan as it is (the engine's may carry jitter and effects).
    oom->step_time_s = analyticSummary(ctx).step_time_s;
    for (Candidate &c : candidates(ctx)) {
        if (ruleError(c.scenario))
            continue; // a plan the rule table refuses (a stack without that ZeRO stage)
        Result<std::shared_ptr<const SimContext>> changed =
            makeContext(c.scenario, summary.single_gpu_step_s);
        if (!changed)
            continue;
        const Summary s = analyticSummary(*changed.value());
        if (!s.memory.fits())
            continue;
        if (oom->remedy == Remedy::None || s.step_time_s < oom->remedy_step_time_s) {
            oom->remedy = c.remedy;
            oom->remedy_value = c.value;
            oom->remedy_total_bytes = s.memory.total;
            oom->remedy_need_bytes = s.memory.reserve_limited ? s.memory.tensors() : s.memory.total;
            oom->remedy_step_time_s = s.step_time_s;
        }
    }
}

} // namespace scalescope
