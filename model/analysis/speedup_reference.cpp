#include "analysis/speedup_reference.h"

#include "analysis/step_evaluation.h"
#include "analysis/scaling.h"

#include <algorithm>

namespace scalescope
{

SpeedupFigures speedupFigures(const SpeedupReference &ref, int gpus, double speedup_vs_one)
{
    using Kind = SpeedupFigures::Kind;
    SpeedupFigures f;
    f.gpus = std::max(1, gpus);
    f.vs_one = speedup_vs_one;
    f.efficiency_vs_one = speedup_vs_one / f.gpus;
    f.one_gpu_on_paper = ref.one_gpu_on_paper;
    f.speedup = speedup_vs_one;
    f.ideal = f.gpus;
    f.efficiency = f.efficiency_vs_one;
    if (f.gpus == 1) {
        f.kind = Kind::OneGpu;
    } else if (!ref.one_gpu_on_paper) {
        f.kind = Kind::AgainstOne;
    } else if (ref.rebased() && ref.gpus < f.gpus) {
        f.kind = Kind::Rebased;
        f.from_gpus = ref.gpus;
        f.speedup = ref.faster(speedup_vs_one);
        f.ideal = ref.ideal(f.gpus);
        f.efficiency = ref.efficiencyOf(speedup_vs_one, f.gpus);
    } else if (ref.rebased() && ref.gpus == f.gpus) {
        f.kind = Kind::Fewest;
        f.from_gpus = ref.gpus;
        f.speedup = f.ideal = f.efficiency = 1; // counted from itself

    } else {
        f.kind = Kind::OnPaper;
    }
    return f;
}

SpeedupReference oneGpuReference(const SimContext &ctx)
{
    SpeedupReference r;
    if (ctx.plan.gpus <= 1)
        return r;
    r.one_gpu_memory = singleGpuReferenceMemory(ctx);
    r.one_gpu_on_paper = exceedsCapacity(*r.one_gpu_memory);
    r.pending = r.one_gpu_on_paper;
    return r;
}

Result<SpeedupReference> findSpeedupReference(const SimContext &ctx, const Summary &own,
                                              bool own_closed_form, const ReferenceSearch &search,
                                              std::optional<SweepRow> *evaluated)
{
    // One GPU is its own reference (spec/cli.md); else whether one GPU holds the model.
    SpeedupReference r = oneGpuReference(ctx);
    r.pending = false;
    const int own_gpus = ctx.plan.gpus;
    if (!r.one_gpu_on_paper)
        return r;
    std::vector<int> counts;
    for (int n : search.counts)
        if (n > 1 && n < own_gpus)
            counts.push_back(n);
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    for (int n : counts) {
        if (search.point.cancel && search.point.cancel->load())
            return InputError{"", kCancelledMessage};
        // Memory first (closed form, microseconds): the engine runs only for the count
        // that is the answer.
        Result<Scenario> scaled =
            scaledScenario(ctx.scenario, n, search.scaling, search.node_gpus);
        if (!scaled)
            continue; // a count the plan cannot reach
        Result<std::shared_ptr<const SimContext>> c = makeContext(scaled.value());
        if (!c)
            continue;
        const SimContext &at = *c.value();
        if (exceedsCapacity(memoryPerGpu(at.plan, at.workload, at.memory_capacity_bytes)))
            continue;
        // The point as the sweep evaluates it (the same reference sharing), so that the
        // chart's row at N0 and the reference are one figure.
        Result<std::vector<SweepRow>> row =
            sweep(ctx.scenario, {n}, search.scaling, search.node_gpus, own.single_gpu_step_s,
                  search.point, own.single_gpu_calm);
        if (!row)
            return row.error();
        if (row.value().empty())
            continue;
        const SweepRow &found = row.value().front();
        r.gpus = n;
        r.speedup = found.summary.speedup;
        r.step_time_s = found.summary.step_time_s;
        r.closed_form = found.closed_form;
        if (evaluated)
            *evaluated = found;
        return r;
    }
    if (!exceedsCapacity(own.memory) && own.speedup > 0) {
        r.gpus = own_gpus; // the job itself is the fewest that fit
        r.speedup = own.speedup;
        r.step_time_s = own.step_time_s;
        r.closed_form = own_closed_form;
    }
    return r;
}

} // namespace scalescope
