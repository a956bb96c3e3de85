// The closed-form summary and the speed-up reference (summary.h); the bottleneck record
// that names the largest of its terms is in bottleneck.cpp.
#include "analysis/summary.h"

#include "analysis/format.h"
#include "analysis/reliability.h"
#include "effects/jitter.h"
#include "sim/schedule.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalescope
{

namespace
{

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
        s.data_supply_samples_per_s =
            loaderRate(fx.data_loader, ctx.scenario.hardware, ctx.scenario.model) * p.data;
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

Result<std::shared_ptr<const SimContext>> makeContext(const Scenario &scenario,
                                                      double single_gpu_step_s,
                                                      SimContext::CalmReference calm)
{
    if (scenario.isCollective())
        return InputError{"collective",
                          "this scenario holds a single collective, not a training step"};
    Result<Plan> plan = makePlan(scenario);
    if (!plan)
        return plan.error();
    auto ctx = std::make_shared<SimContext>(scenario, plan.value());
    ctx->single_gpu_step_s = single_gpu_step_s;
    ctx->single_gpu_calm = calm;
    return std::shared_ptr<const SimContext>(std::move(ctx));
}

namespace
{

/// The speed-up reference of spec/cli.md: the same global batch on one GPU of the same
/// kind with no communication (memory ignored), under the effects every GPU has (jitter,
/// data-loader workers per GPU, thermal cooling, virtual slices) but not the per-GPU ones.
/// `calm`: without jitter (simulatedSingleGpuStepTime adds the draws' mean itself).
std::shared_ptr<SimContext> referenceContext(const SimContext &ctx, bool calm = false)
{
    Scenario one = ctx.scenario;
    one.hardware.nodes = 1;
    one.hardware.gpus_per_node = 1;
    ParallelSpec &p = one.parallel;
    p.data = p.tensor = p.pipeline = p.virtual_stages = 1;
    p.context = p.expert = p.expert_tensor = 1; // one GPU holds every expert and token
    p.expert_overlap = false;
    p.zero = 0;
    p.schedule = Schedule::OneFOneB;
    p.sequence_parallel = false;
    p.update = UpdateMode::Sync;
    one.training.micro_batch = ctx.plan.micro_batch;
    // The same software as the job (under "auto", the stack the job's plan runs on, not the
    // one a one-GPU plan would pick): the speed-up measures the parallelism, not a change of
    // stack.
    one.training.framework = ctx.plan.stack.id;
    one.effects.stragglers.clear();
    if (calm)
        one.effects.jitter = 0;
    // Hot spots left out: the coolest cooling among the job's GPUs (ThermalSpec::
    // referenceSteadyC). Before, a job whose GPUs were all listed, or that heated from
    // start_s, took the common cooling of GPUs it did not have: one GPU listed cooler came
    // out 1.13x against itself.
    ThermalSpec &th = one.effects.thermal;
    if (th.enabled && !th.gpus.empty())
        th.steady_c = th.referenceSteadyC(ctx.plan.gpus);
    th.gpus.clear();
    Result<Plan> plan = makePlan(one);
    if (!plan)
        return nullptr; // cannot happen for a valid plan: one GPU divides everything
    // The job's experts each see the tokens of its expert group (ep x etp GPUs' tokens over
    // t x cp GPUs that share a sequence; addRoutedExperts); a GPU with all the memory it
    // needs runs its experts on as many, not on one micro-batch's 1/EP: else a small GEMM's
    // low efficiency made the paper GPU slow and the job's efficiency exceed 100% (DeepSeek-V3
    // on 256 GB200: 194%).
    Plan one_plan = plan.value();
    const Plan &job = ctx.plan;
    one_plan.expert_token_groups =
        std::max(1.0, double(job.expert) * job.expert_tensor / (double(job.tensor) * job.context));
    auto ref = std::make_shared<SimContext>(one, one_plan);
    ref->single_gpu_step_s = 0; // its own speed-up is never read: stops the recursion
    // Heating over time: the reference does the job's N steps of work in each of its steps,
    // in the thermal state the job's GPUs are in during the job's steps (the engine's clock
    // advances by the job's step), not N times further into the run, where it throttled
    // while the job did not.
    if (th.enabled && th.start_s)
        ref->thermal_step_s =
            ctx.thermal_step_s > 0 ? ctx.thermal_step_s : ctx.step.step_compute_s;
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

SimContext::CalmReference calmSingleGpuReference(const SimContext &ctx)
{
    if (ctx.single_gpu_calm.step_s >= 0)
        return ctx.single_gpu_calm;
    SimContext::CalmReference calm;
    const auto ref = referenceContext(ctx, true);
    if (!ref)
        return calm;
    const SimResult r = simulate(*ref, SimOptions{});
    if (r.ok) {
        calm.step_s = r.step_time_s;
        calm.busy_s = r.step_time_s - r.breakdown.data_loading;
        calm.compute_s = r.breakdown.compute;
    }
    return calm;
}

double simulatedSingleGpuStepTime(const SimContext &ctx, double jitter_mean,
                                  SimContext::CalmReference *calm_used)
{
    if (ctx.single_gpu_step_s >= 0)
        return ctx.single_gpu_step_s;
    const double sigma = ctx.scenario.effects.jitter;
    if (sigma > 0) {
        // A reference is not a fresh random draw (one GPU's own draws came out up to 6%
        // faster than the job's, so efficiency exceeded 1). One GPU waits for no one and
        // does all the job's work: its step is its calm step with every task stretched by
        // the mean draw (linearity of expectation; effects/jitter.h), less what loading the
        // calm GPU waits for already hides. The mean is the job's own over its measured
        // compute when the engine drew it (the same tasks with the same draws, so that the
        // job's efficiency is at most 1), else the draws' expectation.
        const double mean = jitter_mean > 0 ? jitter_mean : jitterMeanFactor(sigma);
        const SimContext::CalmReference calm = calmSingleGpuReference(ctx);
        if (calm_used)
            *calm_used = calm;
        if (calm.step_s >= 0)
            return std::max(calm.step_s, calm.busy_s + (mean - 1.0) * calm.compute_s);
        const auto jittered = referenceContext(ctx); // its closed form adds the mean itself
        return jittered ? analyticSummary(*jittered).step_time_s : 0.0;
    }
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
    s.run_kind = runKind(ctx.scenario);
    // One GPU is 1x by definition (spec/cli.md): the job on one GPU is its own reference,
    // with what that GPU itself does (a straggler or hot spot too: it made one slow GPU
    // 0.909x of itself); otherwise the same evaluator runs the reference.
    const bool own = ctx.plan.gpus == 1;
    fillRates(ctx, s,
              own ? s.step_time_s
                  : simulatedSingleGpuStepTime(ctx, sim.jitter_mean, &s.single_gpu_calm));
    s.bottleneck = bottleneckOf(ctx, s);
    return s;
}

Summary analyticSummary(const SimContext &ctx)
{
    // The closed form evaluates the same step description as the engine's graph builder
    // (sim/step_description.h): the same pieces, collectives, sends and effect factors.
    const Plan &P = ctx.plan;
    const StepDescription &D = ctx.step;
    const double m = static_cast<double>(P.micro_batches);
    const bool dp = D.data_parallel;

    // Per stage: compute and TP time per micro-batch, bucket pieces of its backward.
    std::vector<double> stage_compute(static_cast<size_t>(P.pipeline), 0.0);
    // Per micro-batch, everything on a stage's critical path besides compute (tensor-parallel
    // collectives, expert all-to-alls and waits, context exchange), and its parts.
    std::vector<double> stage_tp(static_cast<size_t>(P.pipeline), 0.0);
    std::vector<Piece> stage_parts(static_cast<size_t>(P.pipeline));
    std::vector<double> stage_exposed(static_cast<size_t>(P.pipeline), 0.0);
    std::vector<double> stage_dp_total(static_cast<size_t>(P.pipeline), 0.0);
    std::vector<double> stage_busy(static_cast<size_t>(P.pipeline), 0.0); // ZeRO-2 reductions
    for (int s = 0; s < P.pipeline; ++s) {
        const StepStage &stage = D.stages[static_cast<size_t>(s)];
        std::vector<double> piece_bwd, piece_comm; // the last micro-batch's backward order
        double ag_first = -1, zero3_comm_mb = 0;
        const bool split = splitsBackward(P.schedule) && P.pipeline > 1;
        for (int c = P.virtual_stages - 1; c >= 0; --c) {
            const StepChunk &chunk = D.chunks[static_cast<size_t>(D.layout.virtualStage(s, c))];
            for (auto piece = chunk.pieces.rbegin(); piece != chunk.pieces.rend(); ++piece) {
                // Each piece's reduction (and, with ZeRO-3, its gathers). Zero-bubble
                // schedules end the step with W passes: a reduction follows its piece's W
                // (sim_graph.cpp), so only the W passes still to come hide it.
                piece_bwd.push_back(split ? piece->wgrad : piece->bwd + piece->extraBwd());
                piece_comm.push_back(piece->grad.time_s);
                if (D.zero3) {
                    zero3_comm_mb += 2 * piece->gather.time_s;
                    if (ag_first < 0)
                        ag_first = piece->gather.time_s;
                }
            }
            // Interleaved 1F1B finishes chunk c's last backward p - 1 chunk-backwards of
            // other micro-batches before chunk c - 1's (Megatron-LM's schedule order): that
            // time also hides the reductions already queued.
            if (c > 0 && P.schedule == Schedule::Interleaved) {
                piece_bwd.push_back((P.pipeline - 1) * (chunk.total.bwd + chunk.total.extraBwd()));
                piece_comm.push_back(0);
            }
        }
        const Piece &per_mb = stage.per_micro_batch;
        const double fwd_mb = per_mb.fwd, bwd_mb = per_mb.bwd;
        const double tp_mb = per_mb.extraFwd() + per_mb.extraBwd();
        const size_t si = static_cast<size_t>(s);
        stage_compute[si] = fwd_mb + bwd_mb;
        stage_tp[si] = tp_mb;
        stage_parts[si] = per_mb;
        double comm_total = 0;
        for (double c : piece_comm)
            comm_total += c;
        double exposed = 0;
        if (dp) {
            if (D.zero3) {
                // Gathers before every piece forward and backward, reduce-scatter after
                // each backward piece, every micro-batch; prefetching hides them behind
                // compute except the first gather.
                const double per_mb_comm = zero3_comm_mb + comm_total;
                if (D.zero3_prefetch)
                    exposed = m * (std::max(0.0, per_mb_comm - (fwd_mb + bwd_mb + tp_mb)) +
                                   std::max(0.0, ag_first));
                else
                    // Fetched on demand (the engine: each gather waits for the compute
                    // before it and queues behind the reductions on the same stream):
                    // every gather and reduction of every micro-batch is exposed.
                    exposed = m * per_mb_comm;
                stage_dp_total[si] = m * per_mb_comm;
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
                        D.overlap ? std::max(comm_clock, bwd_clock) : std::max(comm_clock, bwd_end);
                    comm_clock = start + piece_comm[k];
                }
                exposed = std::max(0.0, comm_clock - bwd_end);
                double rounds = 1;
                if (D.reduce_every_micro_batch) {
                    // Reduce-scatter every micro-batch (ZeRO-2). The collective stream is
                    // one work-conserving server fed during the step's compute window, so
                    // it ends after the later of two lower bounds on a single server's
                    // finish time: the last micro-batch's own queue tail (above), and all
                    // its work less the window it overlaps (busy - window). The tail is a
                    // part of the excess, not an addition (the random invariant test found
                    // the double count making faster GPUs slower).
                    // The window is settled below, at the pipeline's pace.
                    rounds = m;
                    stage_busy[si] = m * comm_total;
                }
                stage_dp_total[si] = rounds * comm_total;
                if (D.param_gather) {
                    exposed += stage.param_gather.time_s;
                    stage_dp_total[si] += stage.param_gather.time_s;
                }
            }
        }
        stage_exposed[si] = exposed;
    }

    // Pipeline: the slowest stage sets the pace; the other stages' work per micro-batch
    // (divided by the interleaving depth) is the fill/drain bubble (SC21 Sec. 2.2:
    // (p-1)/m of the ideal time, (p-1)/(v m) interleaved).
    const double p2p = D.send_s;
    // ZeRO-3's gathers are exposed inside every micro-batch of a stage (before each piece's
    // forward and backward), so with a pipeline they lengthen that stage's pace rather than
    // come after the pipeline: each stage runs at compute + its exposed communication per
    // micro-batch (SC21 Sec. 2.2: m times the slowest stage plus fill and drain). Added after
    // the slowest stage's compute instead, a faster GPU could lengthen the step (the random
    // invariant test found it). Without a pipeline both give the same step.
    const bool fold = D.zero3 && D.sync;
    double slowest = 0, all = 0, sends_avg = 0;
    double ramp_all = 0, ramp_slowest = 0; // zero-bubble schedules: per stage, see below
    std::vector<double> stage_t(static_cast<size_t>(P.pipeline)), hop(stage_t.size());
    for (int s = 0; s < P.pipeline; ++s) {
        const double t = stage_compute[static_cast<size_t>(s)] + stage_tp[static_cast<size_t>(s)] +
                         D.stages[static_cast<size_t>(s)].sends_per_micro_batch * p2p +
                         (fold ? stage_exposed[static_cast<size_t>(s)] / m : 0.0);
        // With the backward split, each hop of the pipeline's fill costs a forward and only
        // what its B pass outlasts the W passes held back for the drain: Qi et al., ICLR
        // 2024, Sec. 3, ZB-H1 (p-1)(F+B-W) against 1F1B's (p-1)(F+B+W) (B the input
        // gradient), never less than the forward ramp (p-1)F, which is all that remains
        // where W >= B (the same order, tst_engine). ZB-V runs it at chunk size: no
        // bubble inside a stage's span when F = B = W (Qi et al. 2024, "Pipeline
        // Parallelism with Controllable Memory", V-ZB), its last stage starting p-1
        // chunk forwards late. DualPipe fills from both ends, half the depth: DeepSeek-V3
        // report, Table 2, (p/2-1)(F&B+B-3W); its published order run with each
        // overlapped pair as forward then backward measures ZB1P's term at that depth,
        // (p/2-1)(F+B-2W) in the table's notation (B whole), which this takes, below the
        // table's bound.
        const Piece &x = stage_parts[static_cast<size_t>(s)];
        const double chunk = P.schedule == Schedule::ZbV ? P.virtual_stages : 1.0;
        // ZeRO-3's exposed gathers come before each forward and B piece (folded above).
        const double gathers = fold ? stage_exposed[static_cast<size_t>(s)] / m : 0.0;
        const double ramp = (x.fwd + x.extraFwd() + gathers) / chunk + p2p +
                            std::max(0.0, (x.bwd - x.wgrad + x.extraBwd() - x.wgrad) / chunk + p2p);
        if (t > slowest)
            ramp_slowest = ramp;
        ramp_all += ramp;
        stage_t[static_cast<size_t>(s)] = t;
        hop[static_cast<size_t>(s)] = ramp;
        slowest = std::max(slowest, t);
        all += t;
        sends_avg += D.stages[static_cast<size_t>(s)].sends_per_micro_batch * p2p / P.pipeline;
    }
    // Fill and drain: the other stages' work per micro-batch (sends included) once.
    double bubble_time = P.pipeline > 1 ? (all - slowest) / P.virtual_stages : 0;
    if (P.pipeline > 1 && splitsBackward(P.schedule))
        bubble_time = ramp_all - ramp_slowest;
    if (P.pipeline > 1 && P.schedule == Schedule::DualPipe) {
        // Both ends start at once; a rank starts after the hops from the nearer end, and
        // the rank whose work and start add up to most sets the step (uniform ranks: the
        // middle ones, p/2 - 1 hops).
        double end = 0;
        for (int r = 0; r < P.pipeline; ++r) {
            double before = 0, after = 0;
            for (int q = 0; q < P.pipeline; ++q)
                (q < r ? before : after) += q == r ? 0.0 : hop[static_cast<size_t>(q)];
            end = std::max(end, m * stage_t[static_cast<size_t>(r)] + std::min(before, after));
        }
        bubble_time = end - m * slowest;
    }
    // ZeRO-2's per-micro-batch reductions overlap the stage's m micro-batch slots, which
    // run at the slowest stage's pace (1F1B steady state, SC21 Sec. 2.2), not at the
    // stage's own compute: a stage that waits for a slower one keeps reducing meanwhile.
    // With its own compute as the window, a faster GPU that sped up this stage more than
    // the slowest one lengthened the step (the random invariant test found it).
    for (int s = 0; s < P.pipeline; ++s)
        if (stage_busy[static_cast<size_t>(s)] > 0)
            stage_exposed[static_cast<size_t>(s)] =
                std::max(stage_exposed[static_cast<size_t>(s)],
                         stage_busy[static_cast<size_t>(s)] - m * slowest +
                             (D.param_gather ? D.stages[static_cast<size_t>(s)].param_gather.time_s
                                             : 0.0));
    // The optimizer of the stage with the most parameters (SC20 Sec. 5.1: its shard).
    double max_exposed = 0, opt = 0;
    for (int s = 0; s < P.pipeline; ++s) {
        max_exposed = std::max(max_exposed, stage_exposed[static_cast<size_t>(s)]);
        opt = std::max(opt, D.stages[static_cast<size_t>(s)].optimizer_s);
    }
    double step = m * slowest + bubble_time + opt + (D.sync && !fold ? max_exposed : 0);

    // Effects: the synchronous step is paced by the slowest GPU.
    const EffectsSpec &fx = ctx.scenario.effects;
    double slow = D.max_slowdown;
    if (D.thermal_varies) {
        // GPUs throttle at different times: the hottest one paces the step.
        const double t = fx.thermal.start_s.value_or(0.0);
        for (int g = 0; g < P.gpus; ++g)
            if (fx.thermal.throttledAt(g, t)) {
                slow = std::max(slow, D.thermal_stretch);
                break;
            }
    }
    // A jittered task is never faster than the hardware (effects/jitter.h): every GPU's
    // compute stretches by the draw's mean, stragglers and throttled GPUs' too.
    const double mean_jitter = jitterMeanFactor(D.jitter);
    slow *= mean_jitter;
    if (D.jitter > 0) {
        // Expected maximum of n normal variables ~ sigma sqrt(2 ln n) (extreme-value
        // asymptotics, David & Nagaraja, Order Statistics, Sec. 10.5): tensor groups
        // synchronise every task, data-parallel replicas once per step over K tasks (the
        // mean of K draws, whose spread is sigma / sqrt K).
        const double k_tasks = std::max(1.0, 2.0 * m * P.virtual_stages);
        double f = mean_jitter;
        if (P.stageWidth() > 1)
            f = std::max(f, 1.0 + D.jitter * std::sqrt(2.0 * std::log(static_cast<double>(
                                                 P.stageWidth()))));
        if (P.data > 1)
            f *= 1.0 + D.jitter / std::sqrt(k_tasks) *
                           std::sqrt(2.0 * std::log(static_cast<double>(P.data))) / mean_jitter;
        // A straggler already is the slowest member of its groups: jitter on top of it
        // changes little, so the larger of the two sets the pace.
        slow = std::max(slow, f);
    }
    // Only computation stretches with a slow GPU; communication time does not.
    double slowest_compute = 0;
    for (double c : stage_compute)
        slowest_compute = std::max(slowest_compute, c);
    const double compute_part = m * slowest_compute + opt;
    double wait = 0, own_pace = 0;
    if (D.sync) {
        own_pace = compute_part * (mean_jitter - 1.0);
        wait = compute_part * (slow - mean_jitter);
    } else {
        // Asynchronous replicas keep their own pace (no barrier between them), and the
        // step is averaged over GPUs as the engine measures it. Within a replica the
        // slowest GPU (straggler x throttling) paces every stage and tensor rank: its own
        // stretch is compute, the others' is waiting for it; tensor groups still meet at
        // every task under jitter (the expected maximum above).
        double own_sum = 0, pace_sum = 0;
        const int per_replica = P.stageWidth() * P.pipeline;
        const bool differ = D.max_slowdown > 1 || D.thermal_varies;
        const double t = fx.thermal.start_s.value_or(0.0);
        const auto factor = [&](int g) {
            const bool hot = D.thermal_varies && fx.thermal.throttledAt(g, t);
            return D.slowdownOf(g) * (hot ? D.thermal_stretch : 1.0);
        };
        for (int r = 0; differ && r < P.data; ++r) {
            double replica = 1;
            for (int st = 0; st < P.pipeline; ++st)
                for (int k = 0; k < P.stageWidth(); ++k) {
                    const double f = factor(P.rankOf(k, r, st));
                    own_sum += f;
                    replica = std::max(replica, f);
                }
            pace_sum += replica * per_replica;
        }
        const double own = (differ ? own_sum / P.gpus : 1.0) * mean_jitter;
        double pace = (differ ? pace_sum / P.gpus : 1.0) * mean_jitter;
        if (D.jitter > 0 && P.stageWidth() > 1)
            pace = std::max(pace, 1.0 + D.jitter * std::sqrt(2.0 * std::log(static_cast<double>(
                                                       P.stageWidth()))));
        own_pace = compute_part * (own - 1.0);
        wait = compute_part * std::max(0.0, pace - own);
    }
    step += wait + own_pace;
    double data_wait = 0;
    if (D.loader_s > 0) {
        const double need = m * D.loader_s;
        if (need > step) {
            data_wait = need - step;
            step = need;
        }
    }

    Summary s;
    s.step_time_s = step;
    s.run_kind = runKind(ctx.scenario);
    Breakdown &b = s.breakdown;
    double compute_avg = 0, tp_avg = 0, dp_total_avg = 0, exposed_avg = 0;
    double ep_avg = 0, cp_avg = 0, expert_wait_avg = 0;
    for (int st = 0; st < P.pipeline; ++st) {
        compute_avg += m * stage_compute[static_cast<size_t>(st)];
        const Piece &parts = stage_parts[static_cast<size_t>(st)];
        tp_avg += m * (parts.tp_fwd + parts.tp_bwd);
        ep_avg += m * (parts.ep_fwd + parts.ep_bwd);
        cp_avg += m * (parts.cp_fwd + parts.cp_bwd);
        expert_wait_avg += m * (parts.wait_fwd + parts.wait_bwd);
        dp_total_avg += stage_dp_total[static_cast<size_t>(st)];
        exposed_avg += stage_exposed[static_cast<size_t>(st)];
    }
    compute_avg /= P.pipeline;
    tp_avg /= P.pipeline;
    ep_avg /= P.pipeline;
    cp_avg /= P.pipeline;
    expert_wait_avg /= P.pipeline;
    dp_total_avg /= P.pipeline;
    exposed_avg /= P.pipeline;
    b.compute = compute_avg + opt + own_pace;
    b.optimizer = opt;
    b.tp_comm = tp_avg;
    b.dp_comm = dp_total_avg;
    // Every pipeline send blocks its stage (Megatron-LM p2p_communication.py), so the sends'
    // time per GPU, 2 (V - 1) per micro-batch over the p stages, is all exposed.
    b.pp_exposed = m * sends_avg;
    b.pp_comm = b.pp_exposed;
    b.ep_comm = ep_avg;
    b.cp_comm = cp_avg;
    b.tp_hidden = D.tp_hidden_s; // what overlap hid (sim/step_description.h)
    b.ep_hidden = D.ep_hidden_s;
    b.cp_hidden = D.cp_hidden_s;
    b.communication_total = b.tp_comm + b.dp_comm + b.pp_comm + ep_avg + cp_avg + b.tp_hidden +
                            b.ep_hidden + b.cp_hidden;
    b.communication_exposed =
        tp_avg + ep_avg + cp_avg + b.pp_exposed + (D.sync ? exposed_avg : 0);
    b.wait = wait + expert_wait_avg;
    b.expert_wait = expert_wait_avg;
    b.data_loading = data_wait;
    b.pipeline_bubble =
        std::max(0.0, step - b.compute - b.communication_exposed - b.wait - b.data_loading);
    if (P.pipeline <= 1) {
        // Without a pipeline the remainder is waiting at the end of the step for the
        // stage with the most exposed communication.
        b.wait += b.pipeline_bubble;
        b.pipeline_bubble = 0;
    }
    if (!D.sync && step > 0)
        s.staleness_steps = std::ceil(b.dp_comm / step);
    const bool own = P.gpus == 1;
    fillRates(ctx, s, own ? s.step_time_s : singleGpuStepTime(ctx));
    s.bottleneck = bottleneckOf(ctx, s);
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
    const HardwareSpec hw = scenario.hardware.communicationView();
    const CommModel comm(hw);
    const std::string why =
        comm.unsupportedReason(scenario.collective->op, wholeCluster(hw), scenario.collective->algorithm);
    if (!why.empty())
        return InputError{"collective.algorithm",
                          std::string("\"") + collectiveAlgoName(scenario.collective->algorithm) +
                              "\" cannot run here: " + why};
    return true;
}

CollectiveSummary simulateCollective(const Scenario &scenario)
{
    CollectiveSummary c;
    const HardwareSpec hw = scenario.hardware.communicationView(); // NVLink domain = node
    c.gpus = hw.gpuCount();
    c.op = scenario.collective->op;
    c.bytes = scenario.collective->bytes;
    const GroupShape g = wholeCluster(hw);
    const CommModel comm(hw);
    c.cost = comm.cost(c.op, c.bytes, g, scenario.collective->algorithm);
    return c;
}

} // namespace scalescope
