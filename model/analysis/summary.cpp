// The closed-form summary, the bottleneck record and the speed-up reference (summary.h).
// About 630 lines on purpose: the closed form's terms and the bottleneck that names the
// largest of them are read together, term by term.
#include "analysis/summary.h"

#include "analysis/format.h"
#include "analysis/reliability.h"
#include "sim/schedule.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalescope
{

namespace
{

std::string percent(double x)
{
    return bottleneckPercent(x) + "%";
}

std::string gigabytes(double bytes)
{
    return bottleneckGigabytes(bytes) + " GB";
}

/// Optimizer step of the whole model on one GPU (part of the single-GPU reference).
double singleGpuOptimizer(const SimContext &ctx)
{
    return ctx.compute.memoryTime(ctx.workload.total_params *
                                  optimizerTrafficPerParam(ctx.plan.optimizer, ctx.plan.precision));
}

void fillEffects(const SimContext &ctx, Summary &s)
{
    const EffectsSpec &fx = ctx.scenario.effects;
    const Plan &p = ctx.plan;
    s.single_gpu_optimizer_s = std::min(singleGpuOptimizer(ctx), s.single_gpu_step_s);
    if (fx.thermal.enabled) {
        const ThermalSpec &th = fx.thermal;
        // The end of the first measured step (steady state without start_s).
        const double t = th.start_s ? *th.start_s + s.step_time_s : 1e30;
        double first = std::numeric_limits<double>::infinity();
        for (int g = 0; g < p.gpus; ++g) {
            const bool hot = th.start_s ? th.throttledAt(g, t) : th.throttledAt(g, 0);
            s.throttled_gpus += hot ? 1 : 0;
            first = std::min(first, th.throttleOnsetS(g));
            s.max_temperature_c = std::max(
                s.max_temperature_c,
                hot ? std::min(th.temperatureC(g, t), th.throttle_above_c) : th.temperatureC(g, t));
        }
        s.first_throttle_s = std::isfinite(first) ? first : -1;
    }
    if (fx.virtual_gpu.enabled)
        // Whole GPUs: the speed-up against one slice, times the slice's share.
        s.full_gpu_equivalents = s.speedup * fx.virtual_gpu.fraction;
    if (fx.data_loader.enabled) {
        s.data_supply_samples_per_s = loaderRate(fx.data_loader) * p.data;
        const double busy = s.step_time_s - s.breakdown.data_loading;
        s.data_demand_samples_per_s = busy > 0 ? static_cast<double>(p.global_batch) / busy : 0;
    }
    if (fx.failures.enabled) {
        const CheckpointPlan cp =
            checkpointPlan(fx.failures, p.gpus, checkpointBytesOf(ctx, s.memory));
        s.goodput = cp.goodput;
        s.checkpoint_interval_s = cp.interval_s;
    }
}

void fillRates(const SimContext &ctx, Summary &s, double reference_s)
{
    const Plan &p = ctx.plan;
    const WorkloadCost &w = ctx.workload;
    s.gpus = p.gpus;
    s.is_transformer = ctx.scenario.model.kind == ModelSpec::Kind::Transformer;
    const double batch = static_cast<double>(p.global_batch);
    s.samples_per_s = batch / s.step_time_s;
    s.tokens_per_s = w.tokens_per_sample > 0 ? s.samples_per_s * w.tokens_per_sample : 0;
    s.model_flops_per_step = w.model_flops_per_sample * batch;
    s.hardware_flops_per_step = (w.model_flops_per_sample + w.recompute_flops_per_sample) * batch;
    s.model_tflops_per_gpu = s.model_flops_per_step / s.step_time_s / p.gpus / 1e12;
    s.hardware_tflops_per_gpu = s.hardware_flops_per_step / s.step_time_s / p.gpus / 1e12;
    const double peak = ctx.compute.peakFlops() / 1e12;
    s.mfu = peak > 0 ? s.model_tflops_per_gpu / peak : 0;
    s.single_gpu_step_s = reference_s;
    s.speedup = s.single_gpu_step_s / s.step_time_s;
    s.scaling_efficiency = s.speedup / p.gpus;
    s.memory = memoryPerGpu(p, w, ctx.memory_capacity_bytes);
    fillEffects(ctx, s);
}

} // namespace

std::string bottleneckPercent(double fraction)
{
    return fixedText(fraction * 100.0, 0);
}

std::string bottleneckGigabytes(double bytes)
{
    return fixedText(bytes / 1e9, 1);
}

std::string bottleneckNumber(double x)
{
    return generalText(x, 2);
}

Result<std::shared_ptr<const SimContext>> makeContext(const Scenario &scenario,
                                                      double single_gpu_step_s)
{
    if (scenario.isCollective())
        return InputError{"collective",
                          "this scenario holds a single collective, not a training step"};
    Result<Plan> plan = makePlan(scenario);
    if (!plan)
        return plan.error();
    auto ctx = std::make_shared<SimContext>(scenario, plan.value());
    ctx->single_gpu_step_s = single_gpu_step_s;
    return std::shared_ptr<const SimContext>(std::move(ctx));
}

namespace
{

/// Per-GPU effects (stragglers, hot spots) make one GPU differ from the others: the
/// reference leaves them out (spec/cli.md, speedup).
bool hasPerGpuEffects(const Scenario &s)
{
    // Stragglers and hot spots (GPUs listed with their own cooling): what the reference
    // leaves out. Jitter, heating over time (start_s) and the common cooling every GPU has
    // stay in it, so a job on one GPU without stragglers or hot spots is its own reference
    // and 1x whatever its draws (before, one jittered or warming GPU came out 1.008x).
    return !s.effects.stragglers.empty() ||
           (s.effects.thermal.enabled && !s.effects.thermal.gpus.empty());
}

/// The speed-up reference of spec/cli.md: the same global batch on one GPU of the same
/// kind with no communication (memory ignored), under the effects every GPU has (jitter,
/// data-loader workers per GPU, thermal cooling, virtual slices) but not the per-GPU ones.
std::shared_ptr<SimContext> referenceContext(const SimContext &ctx)
{
    Scenario one = ctx.scenario;
    one.hardware.nodes = 1;
    one.hardware.gpus_per_node = 1;
    ParallelSpec &p = one.parallel;
    p.data = p.tensor = p.pipeline = p.virtual_stages = 1;
    p.zero = 0;
    p.schedule = Schedule::OneFOneB;
    p.sequence_parallel = false;
    p.update = UpdateMode::Sync;
    one.training.micro_batch = ctx.plan.micro_batch;
    one.effects.stragglers.clear();
    // Cooling every GPU has: the job's own when its GPUs do not differ (all listed alike),
    // else the common one of the GPUs not listed (hot spots left out).
    ThermalSpec &th = one.effects.thermal;
    if (th.enabled && !th.gpus.empty() && !th.varies(ctx.plan.gpus))
        th.steady_c = th.steadyC(0);
    th.gpus.clear();
    Result<Plan> plan = makePlan(one);
    if (!plan)
        return nullptr; // cannot happen for a valid plan: one GPU divides everything
    auto ref = std::make_shared<SimContext>(one, plan.value());
    ref->single_gpu_step_s = 0; // its own speed-up is never read: stops the recursion
    return ref;
}

} // namespace

double singleGpuStepTime(const SimContext &ctx)
{
    if (ctx.single_gpu_step_s >= 0)
        return ctx.single_gpu_step_s;
    const auto ref = referenceContext(ctx);
    return ref ? analyticSummary(*ref).step_time_s : 0.0;
}

double simulatedSingleGpuStepTime(const SimContext &ctx)
{
    if (ctx.single_gpu_step_s >= 0)
        return ctx.single_gpu_step_s;
    const auto ref = referenceContext(ctx);
    if (!ref)
        return 0.0;
    // One GPU has no replicas: O(micro-batches) tasks, cheap beside the job's own graph.
    const SimResult r = simulate(*ref, SimOptions{});
    return r.ok ? r.step_time_s : analyticSummary(*ref).step_time_s;
}

Summary summarize(const SimContext &ctx, const SimResult &sim)
{
    Summary s;
    s.step_time_s = sim.step_time_s;
    s.breakdown = sim.breakdown;
    s.staleness_steps = sim.staleness_steps;
    s.main_wait = sim.main_wait;
    s.main_wait_label = sim.main_wait_label;
    // One GPU is 1x by definition: the job on one GPU is its own reference (it has no
    // per-GPU effects to leave out); otherwise the same evaluator runs the reference.
    const bool own = ctx.plan.gpus == 1 && !hasPerGpuEffects(ctx.scenario);
    fillRates(ctx, s, own ? s.step_time_s : simulatedSingleGpuStepTime(ctx));
    s.bottleneck_record = bottleneckOf(ctx, s);
    s.bottleneck = bottleneckText(s.bottleneck_record);
    return s;
}

Summary analyticSummary(const SimContext &ctx)
{
    const Plan &P = ctx.plan;
    const WorkloadCost &w = ctx.workload;
    const int V = P.virtualStageCount();
    const double m = static_cast<double>(P.micro_batches);
    GroupCostCache dp_cost(ctx.comm, P.dataGroup());
    auto dpOp = [&](CollectiveOp op, double bytes) { return dp_cost.time(op, bytes); };
    TensorParallelCost tpOp(ctx.comm, P);
    const double grad_bytes = P.grad_bytes_per_param;
    const double weight_bytes = weightBytesPerParam(P.precision);
    const bool dp = P.data > 1;
    const CollectiveOp grad_op =
        P.zero >= 1 ? CollectiveOp::ReduceScatter : CollectiveOp::AllReduce;

    // Per stage: compute and TP time per micro-batch, bucket pieces of its backward.
    std::vector<double> stage_compute(static_cast<size_t>(P.pipeline), 0.0);
    std::vector<double> stage_tp(static_cast<size_t>(P.pipeline), 0.0);
    std::vector<double> stage_params(static_cast<size_t>(P.pipeline), 0.0);
    std::vector<double> stage_exposed(static_cast<size_t>(P.pipeline), 0.0);
    std::vector<double> stage_dp_total(static_cast<size_t>(P.pipeline), 0.0);
    for (int s = 0; s < P.pipeline; ++s) {
        std::vector<double> piece_bwd, piece_comm; // the last micro-batch's backward order
        double fwd_mb = 0, bwd_mb = 0, tp_mb = 0, params = 0;
        double ag_first = -1, zero3_comm_mb = 0;
        for (int c = P.virtual_stages - 1; c >= 0; --c) {
            const std::vector<Piece> pieces =
                packPieces(ctx, virtualStageLayers(w, V, c * P.pipeline + s), tpOp);
            double chunk_bwd = 0;
            for (auto piece = pieces.rbegin(); piece != pieces.rend(); ++piece) {
                fwd_mb += piece->fwd;
                bwd_mb += piece->bwd;
                tp_mb += piece->tp_fwd + piece->tp_bwd;
                params += piece->params;
                chunk_bwd += piece->bwd + piece->tp_bwd;
                // Each piece's reduction (and, with ZeRO-3, its gathers).
                piece_bwd.push_back(piece->bwd + piece->tp_bwd);
                piece_comm.push_back(dp ? dpOp(grad_op, piece->params * grad_bytes) : 0);
                if (P.zero >= 3 && dp) {
                    const double ag = dpOp(CollectiveOp::AllGather, piece->params * weight_bytes);
                    zero3_comm_mb += 2 * ag;
                    if (ag_first < 0)
                        ag_first = ag;
                }
            }
            // Interleaved 1F1B finishes chunk c's last backward p - 1 chunk-backwards of
            // other micro-batches before chunk c - 1's (Megatron-LM's schedule order): that
            // time also hides the reductions already queued.
            if (c > 0) {
                piece_bwd.push_back((P.pipeline - 1) * chunk_bwd);
                piece_comm.push_back(0);
            }
        }
        const size_t si = static_cast<size_t>(s);
        stage_compute[si] = fwd_mb + bwd_mb;
        stage_tp[si] = tp_mb;
        stage_params[si] = params;
        double comm_total = 0;
        for (double c : piece_comm)
            comm_total += c;
        double exposed = 0;
        if (dp) {
            if (P.zero >= 3) {
                // Gathers before every piece forward and backward, reduce-scatter after
                // each backward piece, every micro-batch; prefetching hides them behind
                // compute except the first gather.
                const double per_mb = zero3_comm_mb + comm_total;
                if (P.zero3_prefetch)
                    exposed = m * (std::max(0.0, per_mb - (fwd_mb + bwd_mb + tp_mb)) +
                                   std::max(0.0, ag_first));
                else
                    // Fetched on demand (the engine: each gather waits for the compute
                    // before it and queues behind the reductions on the same stream):
                    // every gather and reduction of every micro-batch is exposed.
                    exposed = m * per_mb;
                stage_dp_total[si] = m * per_mb;
            } else {
                // Bucket queue over the last micro-batch's backward (overlap), or all
                // after it (no overlap).
                double bwd_end = 0;
                for (double b : piece_bwd)
                    bwd_end += b;
                double bwd_clock = 0, comm_clock = 0;
                for (size_t k = 0; k < piece_bwd.size(); ++k) {
                    bwd_clock += piece_bwd[k];
                    const double start =
                        P.overlap ? std::max(comm_clock, bwd_clock) : std::max(comm_clock, bwd_end);
                    comm_clock = start + piece_comm[k];
                }
                exposed = std::max(0.0, comm_clock - bwd_end);
                double rounds = 1;
                if (P.zero == 2) {
                    // Reduce-scatter every micro-batch: the queue drains behind compute.
                    rounds = m;
                    const double busy = m * comm_total;
                    const double window = m * (fwd_mb + bwd_mb + tp_mb);
                    // Comm-bound, the reductions run back to back from the first bucket
                    // on: exposed is what they outlast the compute by, of which the last
                    // micro-batch's tail is a part, not an addition (the random invariant
                    // test found the double count making faster GPUs slower).
                    exposed = std::max(exposed, busy - window);
                }
                stage_dp_total[si] = rounds * comm_total;
                if (P.zero == 1 || P.zero == 2) {
                    const double ag = dpOp(CollectiveOp::AllGather, params * weight_bytes);
                    exposed += ag;
                    stage_dp_total[si] += ag;
                }
            }
        }
        stage_exposed[si] = exposed;
    }

    // Pipeline: the slowest stage sets the pace; the other stages' work per micro-batch
    // (divided by the interleaving depth) is the fill/drain bubble (SC21 Sec. 2.2:
    // (p-1)/m of the ideal time, (p-1)/(v m) interleaved).
    const double p2p = P.pipeline > 1 ? ctx.comm.p2pTime(w.p2p_bytes, P.pipelineCrossesNodes()) : 0;
    // Blocking exchanges: every chunk's forward and backward end with a send the stage
    // waits for (Megatron-LM p2p_communication.py), except the first virtual stage's
    // backward and the last one's forward.
    auto sendsPerMicroBatch = [&](int s) {
        if (P.pipeline <= 1)
            return 0.0;
        return 2.0 * P.virtual_stages - (s == 0 ? 1.0 : 0.0) - (s == P.pipeline - 1 ? 1.0 : 0.0);
    };
    // ZeRO-3's gathers are exposed inside every micro-batch of a stage (before each piece's
    // forward and backward), so with a pipeline they lengthen that stage's pace rather than
    // come after the pipeline: each stage runs at compute + its exposed communication per
    // micro-batch (SC21 Sec. 2.2: m times the slowest stage plus fill and drain). Added after
    // the slowest stage's compute instead, a faster GPU could lengthen the step (the random
    // invariant test found it). Without a pipeline both give the same step.
    const bool fold = dp && P.zero >= 3 && P.update == UpdateMode::Sync;
    double slowest = 0, all = 0, sends_avg = 0;
    for (int s = 0; s < P.pipeline; ++s) {
        const double t = stage_compute[static_cast<size_t>(s)] + stage_tp[static_cast<size_t>(s)] +
                         sendsPerMicroBatch(s) * p2p +
                         (fold ? stage_exposed[static_cast<size_t>(s)] / m : 0.0);
        slowest = std::max(slowest, t);
        all += t;
        sends_avg += sendsPerMicroBatch(s) * p2p / P.pipeline;
    }
    // Fill and drain: the other stages' work per micro-batch (sends included) once.
    const double bubble_time = P.pipeline > 1 ? (all - slowest) / P.virtual_stages : 0;
    double max_exposed = 0, max_params = 0;
    for (int s = 0; s < P.pipeline; ++s) {
        max_exposed = std::max(max_exposed, stage_exposed[static_cast<size_t>(s)]);
        max_params = std::max(max_params, stage_params[static_cast<size_t>(s)]);
    }
    const double opt = ctx.compute.memoryTime(max_params / (P.zero >= 1 ? P.data : 1) *
                                              optimizerTrafficPerParam(P.optimizer, P.precision));
    double step =
        m * slowest + bubble_time + opt + (P.update == UpdateMode::Sync && !fold ? max_exposed : 0);

    // Effects: the synchronous step is paced by the slowest GPU.
    const EffectsSpec &fx = ctx.scenario.effects;
    double slow = 1.0;
    for (const StragglerSpec &st : fx.stragglers)
        slow = std::max(slow, st.slowdown);
    if (fx.thermal.enabled && fx.thermal.varies(P.gpus)) {
        // GPUs throttle at different times: the hottest one paces the step.
        const double t = fx.thermal.start_s.value_or(0.0);
        for (int g = 0; g < P.gpus; ++g)
            if (fx.thermal.throttledAt(g, t)) {
                slow = std::max(slow, 1.0 / (1.0 - fx.thermal.clock_drop));
                break;
            }
    }
    if (fx.jitter > 0) {
        // Expected maximum of n normal variables ~ sigma sqrt(2 ln n) (extreme-value
        // asymptotics, David & Nagaraja, Order Statistics, Sec. 10.5): tensor groups
        // synchronise every task, data-parallel replicas once per step over K tasks.
        const double k_tasks = std::max(1.0, 2.0 * m * P.virtual_stages);
        double f = 1.0;
        if (P.tensor > 1)
            f *= 1.0 + fx.jitter * std::sqrt(2.0 * std::log(static_cast<double>(P.tensor)));
        if (P.data > 1)
            f *= 1.0 + fx.jitter / std::sqrt(k_tasks) *
                           std::sqrt(2.0 * std::log(static_cast<double>(P.data)));
        // A straggler already is the slowest member of its groups: jitter on top of it
        // changes little, so the larger of the two sets the pace.
        slow = std::max(slow, f);
    }
    // Only computation stretches with a slow GPU; communication time does not.
    double slowest_compute = 0;
    for (double c : stage_compute)
        slowest_compute = std::max(slowest_compute, c);
    const double compute_part = m * slowest_compute + opt;
    const double wait = P.update == UpdateMode::Sync ? compute_part * (slow - 1.0) : 0.0;
    step += wait;
    double data_wait = 0;
    if (fx.data_loader.enabled) {
        const double need = m * static_cast<double>(P.micro_batch) / loaderRate(fx.data_loader);
        if (need > step) {
            data_wait = need - step;
            step = need;
        }
    }

    Summary s;
    s.step_time_s = step;
    Breakdown &b = s.breakdown;
    double compute_avg = 0, tp_avg = 0, dp_total_avg = 0, exposed_avg = 0;
    for (int st = 0; st < P.pipeline; ++st) {
        compute_avg += m * stage_compute[static_cast<size_t>(st)];
        tp_avg += m * stage_tp[static_cast<size_t>(st)];
        dp_total_avg += stage_dp_total[static_cast<size_t>(st)];
        exposed_avg += stage_exposed[static_cast<size_t>(st)];
    }
    compute_avg /= P.pipeline;
    tp_avg /= P.pipeline;
    dp_total_avg /= P.pipeline;
    exposed_avg /= P.pipeline;
    b.compute = compute_avg + opt;
    b.optimizer = opt;
    b.tp_comm = tp_avg;
    b.dp_comm = dp_total_avg;
    b.pp_comm = P.pipeline > 1 ? 2.0 * m * P.virtual_stages * p2p * (V - 1.0) / V : 0;
    b.communication_total = b.tp_comm + b.dp_comm + b.pp_comm;
    b.pp_exposed = m * sends_avg;
    b.communication_exposed =
        tp_avg + b.pp_exposed + (P.update == UpdateMode::Sync ? exposed_avg : 0);
    b.wait = wait;
    b.data_loading = data_wait;
    b.pipeline_bubble =
        std::max(0.0, step - b.compute - b.communication_exposed - b.wait - b.data_loading);
    if (P.pipeline <= 1) {
        // Without a pipeline the remainder is waiting at the end of the step for the
        // stage with the most exposed communication.
        b.wait += b.pipeline_bubble;
        b.pipeline_bubble = 0;
    }
    if (P.update == UpdateMode::Async && step > 0)
        s.staleness_steps = std::ceil(b.dp_comm / step);
    const bool own = P.gpus == 1 && !hasPerGpuEffects(ctx.scenario);
    fillRates(ctx, s, own ? s.step_time_s : singleGpuStepTime(ctx));
    s.bottleneck_record = bottleneckOf(ctx, s);
    s.bottleneck = bottleneckText(s.bottleneck_record);
    return s;
}

namespace
{
GroupShape wholeCluster(const HardwareSpec &hw)
{
    GroupShape g;
    g.ranks = hw.gpuCount();
    g.ranks_per_node = std::min(hw.gpus_per_node, g.ranks);
    g.nodes = hw.nodes;
    g.concurrent = 1;
    return g;
}
} // namespace

Result<bool> checkCollective(const Scenario &scenario)
{
    if (!scenario.isCollective())
        return true;
    const CommModel comm(scenario.hardware);
    const std::string why = comm.unsupportedReason(
        scenario.collective->op, wholeCluster(scenario.hardware), scenario.collective->algorithm);
    if (!why.empty())
        return InputError{"collective.algorithm",
                          std::string("\"") + collectiveAlgoName(scenario.collective->algorithm) +
                              "\" cannot run here: " + why};
    return true;
}

CollectiveSummary simulateCollective(const Scenario &scenario)
{
    CollectiveSummary c;
    const HardwareSpec &hw = scenario.hardware;
    c.gpus = hw.gpuCount();
    c.op = scenario.collective->op;
    c.bytes = scenario.collective->bytes;
    const GroupShape g = wholeCluster(hw);
    const CommModel comm(hw);
    c.cost = comm.cost(c.op, c.bytes, g, scenario.collective->algorithm);
    return c;
}

Bottleneck bottleneckOf(const SimContext &ctx, const Summary &s)
{
    Bottleneck r;
    const Breakdown &b = s.breakdown;
    const double step = s.step_time_s;
    if (step <= 0)
        return r;
    const HardwareSpec &hw = ctx.scenario.hardware;
    struct Part {
        double share;
        int which;
    };
    const double dp_exposed = std::max(0.0, b.communication_exposed - b.tp_comm - b.pp_exposed);
    const Part parts[] = {{dp_exposed / step, 0},        {b.tp_comm / step, 1},
                          {b.pipeline_bubble / step, 2}, {b.wait / step, 3},
                          {b.data_loading / step, 4},    {b.pp_exposed / step, 5}};
    const Part *worst = &parts[0];
    for (const Part &p : parts)
        if (p.share > worst->share)
            worst = &p;
    const bool multi_node = hw.nodes > 1 && ctx.plan.dataGroup().nodes > 1;
    r.share = worst->share;
    if (worst->share < 0.10) {
        r.kind = BottleneckKind::ComputeBound;
        r.compute_share = b.compute / step;
        r.mfu = s.mfu;
        if (worst->share >= 0.02)
            r.largest_loss = static_cast<StepLoss>(worst->which);
    } else {
        static constexpr BottleneckKind kKinds[] = {
            BottleneckKind::DpExchange,     BottleneckKind::TpAllReduce,
            BottleneckKind::PipelineBubble, BottleneckKind::Synchronisation,
            BottleneckKind::DataLoader,     BottleneckKind::PipelineSends};
        r.kind = kKinds[worst->which];
        switch (r.kind) {
        case BottleneckKind::DpExchange:
            r.link = multi_node ? hw.inter.name : hw.intra.name;
            break;
        case BottleneckKind::TpAllReduce:
            // The link the tensor group's traffic crosses (rank placement, plan.h): the
            // network once the group spans nodes.
            r.link = ctx.plan.tensorGroup().nodes > 1 ? hw.inter.name : hw.intra.name;
            break;
        case BottleneckKind::PipelineBubble:
            r.micro_batches = ctx.plan.micro_batches;
            r.stages = ctx.plan.pipeline;
            break;
        case BottleneckKind::Synchronisation:
            if (s.main_wait_label && s.main_wait_label->kind == LabelKind::WaitForGpu)
                r.main_wait = s.main_wait_label;
            break;
        default:
            break;
        }
    }
    if (ctx.scenario.effects.thermal.enabled && s.throttled_gpus > 0)
        r.thermal =
            Bottleneck::Thermal{s.throttled_gpus, s.gpus,
                                static_cast<int>(ctx.scenario.effects.thermal.throttle_above_c),
                                ctx.scenario.effects.thermal.clock_drop};
    if (ctx.scenario.effects.virtual_gpu.enabled)
        r.virtual_gpu = Bottleneck::VirtualGpu{ctx.scenario.effects.virtual_gpu.fraction,
                                               s.full_gpu_equivalents};
    if (!s.memory.fits())
        r.out_of_memory = Bottleneck::OutOfMemory{s.memory.total, s.memory.capacity};
    return r;
}

std::string bottleneckText(const Bottleneck &r)
{
    std::string sentence;
    switch (r.kind) {
    case BottleneckKind::NothingToSimulate:
        return "Nothing to simulate.";
    case BottleneckKind::ComputeBound: {
        static const char *const kLoss[] = {"data-parallel exchange", "tensor-parallel all-reduces",
                                            "pipeline bubble",        "waiting for the slowest GPU",
                                            "data loading",           "pipeline sends"};
        sentence = "Compute-bound: the GPUs compute " + percent(r.compute_share) +
                   " of the step at " + percent(r.mfu) + " MFU";
        if (r.largest_loss)
            sentence += std::string("; the largest loss is ") +
                        kLoss[static_cast<int>(*r.largest_loss)] + " (" + percent(r.share) + ")";
        sentence += ".";
        break;
    }
    case BottleneckKind::DpExchange:
        sentence = "Data-parallel gradient exchange over " + r.link + " is exposed for " +
                   percent(r.share) +
                   " of the step; larger batches per GPU or faster links hide it.";
        break;
    case BottleneckKind::TpAllReduce:
        sentence = "Tensor-parallel all-reduces over " + r.link + " take " + percent(r.share) +
                   " of the step; they sit on the critical path of every layer.";
        break;
    case BottleneckKind::PipelineBubble:
        sentence = "Pipeline bubble: " + percent(r.share) + " of the step is idle with " +
                   std::to_string(r.micro_batches) + " micro-batches on " +
                   std::to_string(r.stages) +
                   " stages; more micro-batches or interleaving shrink it.";
        break;
    case BottleneckKind::Synchronisation:
        sentence = "Synchronisation: GPUs wait " + percent(r.share) +
                   " of the step for the slowest one (stragglers, jitter)";
        if (r.main_wait)
            sentence += ", mostly " + labelText(*r.main_wait);
        sentence += ".";
        break;
    case BottleneckKind::DataLoader:
        sentence = "The data loader starves the GPUs for " + percent(r.share) +
                   " of the step; add loader workers before adding GPUs.";
        break;
    case BottleneckKind::PipelineSends:
        sentence = "Pipeline sends between stages block the GPUs for " + percent(r.share) +
                   " of the step; fewer stages or faster links between them help.";
        break;
    }
    if (r.thermal)
        sentence += " " +
                    (r.thermal->throttled_gpus == r.thermal->gpus
                         ? std::string("The GPUs run")
                         : std::to_string(r.thermal->throttled_gpus) + " of " +
                               std::to_string(r.thermal->gpus) + " GPUs run") +
                    " hot (above " + std::to_string(r.thermal->throttle_above_c) +
                    " C) and throttle their clocks by " + percent(r.thermal->clock_drop) + ".";
    if (r.virtual_gpu)
        sentence += " Each GPU is a " + percent(r.virtual_gpu->fraction) +
                    " slice of a physical GPU: the job runs like " +
                    bottleneckNumber(r.virtual_gpu->full_gpu_equivalents) + " whole GPUs.";
    if (r.out_of_memory)
        sentence += " It does not fit: " + gigabytes(r.out_of_memory->total_bytes) +
                    " per GPU against " + gigabytes(r.out_of_memory->capacity_bytes) + ".";
    return sentence;
}

std::string bottleneckSentence(const SimContext &ctx, const Summary &s)
{
    return bottleneckText(bottleneckOf(ctx, s));
}

} // namespace scalescope
