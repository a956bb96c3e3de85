#include "analysis/planner.h"

#include "analysis/step_evaluation.h"
#include "analysis/sweep.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace scalescope
{

Scenario applyCandidate(const Scenario &base, int gpus, const PlanCandidate &c)
{
    Scenario s = base;
    const int per_node = base.hardware.gpus_per_node;
    if (gpus < per_node) {
        s.hardware.nodes = 1;
        s.hardware.gpus_per_node = gpus;
    } else {
        s.hardware.nodes = gpus / per_node;
    }
    s.parallel = c.parallel;
    s.training.micro_batch = c.micro_batch;
    s.training.recompute = c.recompute;
    // Named modules refine selective recompute only (plan/rules.h,
    // RecomputeModulesNeedSelective).
    s.training.recompute_modules = c.recompute == Recompute::Selective ? c.recompute_modules : 0;
    s.effects.restrictTo(gpus);
    return s;
}

namespace
{
std::vector<int> divisorsOf(int64_t n, int64_t limit)
{
    std::vector<int> out;
    for (int64_t d = 1; d <= std::min(n, limit); ++d)
        if (n % d == 0)
            out.push_back(static_cast<int>(d));
    return out;
}
} // namespace

Result<PlanSearchResult> searchPlans(const Scenario &base, const PlanSearchOptions &o)
{
    PlanSearchResult result;
    const int gpus = o.gpus;
    const int per_node = base.hardware.gpus_per_node;
    if (gpus < 1)
        return InputError{kRequestedGpusPath,
                          std::to_string(gpus) + " GPUs: at least 1 GPU is needed"};
    if (gpus >= per_node && gpus % per_node != 0)
        return InputError{kRequestedGpusPath, std::to_string(gpus) +
                                                  " GPUs: not a multiple of gpus_per_node = " +
                                                  std::to_string(per_node)};
    if (base.isCollective())
        return InputError{"collective", "a collective-only scenario has no plan to search"};
    const int node_gpus = std::min(gpus, per_node);
    const bool transformer = base.model.kind == ModelSpec::Kind::Transformer;
    const int64_t batch = base.training.global_batch;
    const int top_k = std::max(1, o.top_k);

    // Layers and heads bound the pipeline and tensor degrees.
    PlanCandidate probe;
    probe.parallel = ParallelSpec{};
    probe.parallel.data = 1;
    probe.micro_batch = batch;
    const Scenario probe_s = applyCandidate(base, 1, probe);
    Result<Plan> probe_plan = makePlan(probe_s);
    int layers = 1;
    if (probe_plan) {
        const WorkloadCost w = buildWorkloadCost(base.model, probe_plan.value(),
                                                 computeModelFor(probe_s, probe_plan.value()),
                                                 probe_plan.value().flash_attention);
        layers = std::max(1, w.block_count > 0 ? w.block_count : static_cast<int>(w.layers.size()));
    }

    // Tensor parallelism inside a node (Megatron-LM practice), powers of two dividing the
    // heads; other models are not split by tensor parallelism here.
    std::vector<int> tensors;
    for (int t = 1; t <= node_gpus; t *= 2)
        if (node_gpus % t == 0 &&
            (t == 1 || (transformer && base.model.transformer.heads % t == 0)))
            tensors.push_back(t);
    // Context parallelism for long sequences (16K tokens and more: where one sequence's
    // activations outgrow a GPU, Megatron-Core and torchtitan split it), powers of two inside
    // a node whose 2 x degree divides the sequence.
    std::vector<int> contexts = {1};
    const int64_t seq = transformer ? base.model.transformer.seq_len : 0;
    if (seq >= 16384)
        for (int cp = 2; cp <= node_gpus; cp *= 2)
            if (node_gpus % cp == 0 && seq % (2 * cp) == 0)
                contexts.push_back(cp);
    struct Outer {
        int t, p, cp;
    };
    std::vector<Outer> outer;
    for (int t : tensors)
        for (int cp : contexts) {
            if (gpus % (t * cp) != 0)
                continue;
            for (int p : divisorsOf(gpus / (t * cp), layers))
                if (batch % (gpus / (t * cp) / p) == 0)
                    outer.push_back({t, p, cp});
        }
    // Expert degrees for an MoE model: powers of two (and the whole count) dividing the
    // routed experts and folding onto tensor x context x data (Megatron-Core's parallel
    // folding, plan/rules.h).
    const int64_t experts = transformer ? base.model.transformer.moe.experts : 0;
    const auto expertDegrees = [&](int64_t dense_ranks) {
        std::vector<int> out = {1};
        for (int64_t e = 2; e <= std::min<int64_t>(experts, dense_ranks); e *= 2)
            if (experts % e == 0 && dense_ranks % e == 0)
                out.push_back(static_cast<int>(e));
        return out;
    };

    // Recompute: none, selective (with the scenario's modules, if it names any), full; for a
    // multi-head latent attention model also selective with Megatron-Core's up-projection
    // recompute (the DeepSeek-V3 recipes' mla_up_proj), which the rule table refuses under
    // other stacks.
    struct RecomputeChoice {
        Recompute recompute;
        unsigned modules;
    };
    std::vector<RecomputeChoice> recomputes = {{Recompute::None, 0}};
    if (transformer) {
        const unsigned own = base.training.recompute_modules;
        recomputes.push_back({Recompute::Selective, own});
        const unsigned up = static_cast<unsigned>(RecomputeModule::MlaUpProj);
        if (base.model.transformer.mla.enabled() && (own & up) == 0)
            recomputes.push_back({Recompute::Selective, own | up});
    }
    recomputes.push_back({Recompute::Full, 0});

    // Workloads and single-GPU references are shared by plans that differ only in the
    // data degree, ZeRO stage or schedule, and run on the same stack (its host costs and
    // fused attention enter the workload; stackOf resolves it per plan).
    std::map<std::tuple<int, bool, int64_t, int, unsigned, std::string, bool, int, int>,
             WorkloadCost>
        workloads;
    std::map<std::tuple<int64_t, int, unsigned, std::string>, double> single_step;
    std::vector<PlanCandidate> best; // sorted, fastest first
    auto worst = [&] {
        return static_cast<int>(best.size()) < top_k ? 1e300 : best.back().step_time_s;
    };

    for (size_t oi = 0; oi < outer.size(); ++oi) {
        if (o.cancel && o.cancel->load()) {
            result.cancelled = true;
            break;
        }
        if (o.progress)
            o.progress(static_cast<double>(oi) / static_cast<double>(outer.size()));
        const auto [t, p, cp] = outer[oi];
        const int d = gpus / (t * p * cp);
        const std::vector<int> eps = expertDegrees(int64_t(t) * cp * d);
        const int64_t per_replica = batch / d;
        // Micro-batches: powers of two dividing the replica's batch, and the whole of it.
        std::vector<int64_t> mbs;
        for (int64_t mb = 1; mb <= per_replica; mb *= 2)
            if (per_replica % mb == 0)
                mbs.push_back(mb);
        if (mbs.back() != per_replica)
            mbs.push_back(per_replica);
        for (const RecomputeChoice &choice : recomputes) {
            const Recompute rc = choice.recompute;
            for (int64_t mb : mbs) {
                const int64_t m = per_replica / mb;
                struct Sched {
                    Schedule schedule;
                    int v;
                };
                std::vector<Sched> scheds = {{Schedule::OneFOneB, 1}};
                if (p > 1 && m % p == 0 && 2 * p <= layers)
                    scheds.push_back({Schedule::Interleaved, 2});
                for (int zero = 0; zero <= 3; ++zero) {
                    if (zero > 0 && d * cp == 1)
                        continue;
                    for (const Sched &sc : scheds)
                    for (int ep : eps) {
                        if (o.cancel && o.cancel->load()) {
                            result.cancelled = true;
                            break;
                        }
                        ++result.considered;
                        PlanCandidate c;
                        c.parallel = base.parallel;
                        c.parallel.data = d;
                        c.parallel.tensor = t;
                        c.parallel.pipeline = p;
                        c.parallel.zero = zero;
                        c.parallel.schedule = sc.schedule;
                        c.parallel.virtual_stages = sc.v;
                        c.parallel.sequence_parallel = transformer && t > 1;
                        c.parallel.context = cp;
                        c.parallel.expert = ep;
                        c.parallel.expert_tensor = 1;
                        if (zero > 0 && c.parallel.update == UpdateMode::Async)
                            c.parallel.update = UpdateMode::Sync;
                        c.micro_batch = mb;
                        c.recompute = rc;
                        c.recompute_modules = choice.modules;
                        // The rule table (in makePlan) refuses what the plan or a named stack
                        // cannot run; under "auto" some stack runs each of these.
                        const Scenario s = applyCandidate(base, gpus, c);
                        Result<Plan> plan = makePlan(s);
                        if (!plan)
                            continue;
                        const Plan &pl = plan.value();
                        const auto key =
                            std::make_tuple(t, p > 1, mb, static_cast<int>(rc), choice.modules,
                                            pl.stack.id, pl.flash_attention, cp, ep);
                        auto wi = workloads.find(key);
                        if (wi == workloads.end())
                            wi = workloads
                                     .emplace(key,
                                              buildWorkloadCost(s.model, pl,
                                                                computeModelFor(s, pl),
                                                                pl.flash_attention))
                                     .first;
                        const WorkloadCost &w = wi->second;
                        // Memory and the lower bound first: the context (with its step
                        // description) is built only for plans that may enter the top K.
                        const MemoryBreakdown mem =
                            memoryPerGpu(plan.value(), w, effectiveMemoryBytes(s));
                        if (!mem.fits()) {
                            ++result.out_of_memory;
                            continue;
                        }
                        // Lower bound: the compute of one micro-batch spread perfectly over
                        // the stages, m times; skip plans that cannot enter the top K.
                        double per_mb = 0;
                        for (const LayerCost &l : w.layers)
                            per_mb += l.fwd_s + l.bwd_s + l.recompute_s;
                        if (static_cast<double>(m) * per_mb / p >= worst())
                            continue;
                        SimContext ctx(s, plan.value(), w);
                        const auto sk =
                            std::make_tuple(mb, static_cast<int>(rc), choice.modules, pl.stack.id);
                        auto si = single_step.find(sk);
                        if (si == single_step.end())
                            si = single_step.emplace(sk, singleGpuStepTime(ctx)).first;
                        ctx.single_gpu_step_s = si->second;
                        const Summary sum = analyticSummary(ctx);
                        ++result.evaluated;
                        c.step_time_s = sum.step_time_s;
                        c.samples_per_s = sum.samples_per_s;
                        c.mfu = sum.mfu;
                        c.memory_bytes = mem.total;
                        c.capacity_bytes = mem.capacity;
                        c.bottleneck = sum.bottleneck;
                        c.stack = pl.stack.id;
                        if (c.step_time_s >= worst())
                            continue;
                        const auto pos = std::upper_bound(
                            best.begin(), best.end(), c.step_time_s,
                            [](double x, const PlanCandidate &b) { return x < b.step_time_s; });
                        best.insert(pos, std::move(c));
                        if (static_cast<int>(best.size()) > top_k)
                            best.pop_back();
                    }
                }
            }
        }
        if (result.cancelled)
            break;
    }
    if (o.engine_check && !result.cancelled) {
        // The window applies a plan and simulates it: the list shows those figures.
        SimOptions sim;
        sim.max_tasks = o.engine_max_tasks;
        sim.cancel = o.cancel;
        for (PlanCandidate &c : best) {
            if (o.cancel && o.cancel->load()) {
                result.cancelled = true;
                break;
            }
            Result<std::shared_ptr<const SimContext>> ctx =
                makeContext(applyCandidate(base, gpus, c));
            if (!ctx)
                continue;
            Result<StepEvaluation> e = evaluateStep(*ctx.value(), sim);
            if (!e || e.value().closed_form)
                continue; // keeps the closed form's figures (simulated stays false)
            const Summary &sum = e.value().summary;
            c.step_time_s = sum.step_time_s;
            c.samples_per_s = sum.samples_per_s;
            c.mfu = sum.mfu;
            c.memory_bytes = sum.memory.total;
            c.capacity_bytes = sum.memory.capacity;
            c.bottleneck = sum.bottleneck;
            c.stack = ctx.value()->plan.stack.id;
            c.simulated = true;
        }
        // What the applied plan does not fit is never listed (the closed form's memory and
        // the summary's are the same formulas; this holds them to it).
        best.erase(std::remove_if(best.begin(), best.end(),
                                  [](const PlanCandidate &c) {
                                      return c.capacity_bytes > 0 &&
                                             c.memory_bytes > c.capacity_bytes;
                                  }),
                   best.end());
        std::stable_sort(best.begin(), best.end(),
                         [](const PlanCandidate &a, const PlanCandidate &b) {
                             return a.step_time_s < b.step_time_s;
                         });
    }
    if (o.progress && !result.cancelled)
        o.progress(1.0);
    result.best = std::move(best);
    return result;
}

} // namespace scalescope
