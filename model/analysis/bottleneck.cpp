// The bottleneck record of a summary and its English sentence (summary.h): the largest
// loss of the step's breakdown, the link its traffic crosses, and the thermal, slice and
// memory notes.
#include "analysis/format.h"
#include "analysis/summary.h"

#include <algorithm>
#include <string>

namespace scalescope
{

namespace
{

std::string percent(double x)
{
    return bottleneckPercent(x) + "%";
}

std::string gibibytes(double bytes)
{
    return bottleneckGiB(bytes) + " GiB";
}

/// The time of the step's collectives of one kind on `comm`: the data-parallel ones (every
/// piece's gradient reduction and ZeRO-3 gather over the data group) or the tensor-parallel
/// all-reduces of every piece (over the tensor group), per micro-batch.
double collectivesTime(const SimContext &ctx, const CommModel &comm, bool data_parallel)
{
    const GroupShape group = data_parallel ? ctx.plan.dataGroup() : ctx.plan.tensorGroup();
    double t = 0;
    for (const StepChunk &chunk : ctx.step.chunks)
        for (const StepPiece &p : chunk.pieces) {
            if (data_parallel) {
                if (p.grad.bytes > 0)
                    t += comm.cost(p.grad.op, p.grad.bytes, group).time_s;
                if (p.gather.bytes > 0)
                    t += comm.cost(p.gather.op, p.gather.bytes, group).time_s;
            } else {
                for (double bytes : {p.tp_fwd_bytes, p.tp_bwd_bytes})
                    if (bytes > 0)
                        t += comm.cost(CollectiveOp::AllReduce, bytes, group).time_s;
            }
        }
    return t;
}

/// Of the two hops a collective across nodes crosses (the GPUs' link inside the node, the
/// NICs between nodes), whether the network is the one that limits it: the collectives
/// recomputed with each hop ten times faster in turn, the hop whose speed-up saves more
/// names the bottleneck (a what-if gain per resource, as critical-path analysis asks of a
/// measured step: HolisticTraceAnalysis, "critical path analysis"). A link whose speed does
/// not change the step is never blamed (claim 1 over InfiniBand HDR, NDR or XDR: the PCIe
/// hop inside the node sets the pace).
bool networkLimits(const SimContext &ctx, bool data_parallel)
{
    const HardwareSpec hw = effectiveHardware(ctx.scenario);
    HardwareSpec fast_intra = hw, fast_inter = hw;
    fast_intra.intra.bandwidth_gbps *= 10;
    fast_intra.intra.host_memory_gbps *= 10;
    fast_intra.host_memory_gbps *= 10;
    fast_inter.inter.line_rate_gbit *= 10;
    const double intra_faster = collectivesTime(ctx, CommModel(fast_intra), data_parallel);
    const double inter_faster = collectivesTime(ctx, CommModel(fast_inter), data_parallel);
    return inter_faster <= intra_faster;
}

constexpr const char *kHostStagedNote =
    " The GPUs have no peer-to-peer access: every transfer is staged through host memory.";

} // namespace

std::string bottleneckPercent(double fraction)
{
    return fixedText(fraction * 100.0, 0);
}

std::string bottleneckMfuPercent(double fraction)
{
    return fixedText(fraction * 100.0, 1);
}

std::string bottleneckGiB(double bytes)
{
    return fixedText(bytes / kBytesPerGiB, 1);
}

double remedyStepChange(const Bottleneck::OutOfMemory &m)
{
    return m.step_time_s > 0 ? m.remedy_step_time_s / m.step_time_s - 1 : 0.0;
}

int remedyCostSign(double delta)
{
    // Under half a percent the two steps read the same (bottleneckPercent rounds to whole
    // percent).
    return std::abs(delta) < 0.005 ? 0 : (delta > 0 ? 1 : -1);
}

std::string bottleneckNumber(double x)
{
    return generalText(x, 2);
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
    const double dp_exposed = std::max(0.0, b.communication_exposed - b.tp_comm - b.pp_exposed -
                                                b.ep_comm - b.cp_comm);
    const Part parts[] = {{dp_exposed / step, 0},
                          {b.tp_comm / step, 1},
                          {b.pipeline_bubble / step, 2},
                          {(b.wait - b.expert_wait) / step, 3},
                          {b.data_loading / step, 4},
                          {b.pp_exposed / step, 5},
                          {b.ep_comm / step, 6},
                          {b.cp_comm / step, 7},
                          {b.expert_wait / step, 8}};
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
        // Small kernels: the GPU runs ahead of the host only while kernels outlast the
        // issue time (Daydream, ATC'20, Sec. 2); where the host's issuing is most of the
        // compute time, the step is the framework's, not the GPU's (a low MFU that no
        // faster GPU would raise).
        const WorkloadCost &w = ctx.workload;
        const double host_share = w.compute_per_micro_batch_s > 0
                                      ? w.host_excess_per_micro_batch_s / w.compute_per_micro_batch_s
                                      : 0.0;
        if (host_share >= 0.5) {
            r.kind = BottleneckKind::HostBound;
            r.host_share = host_share;
            // The mean over the operations issued: an MoE layer's routing path issues at
            // its own cost (Plan::Host::moe_op_s).
            double ops = 0, moe_ops = 0;
            for (const LayerCost &l : w.layers) {
                ops += l.kernels_fwd;
                moe_ops += l.moe_kernels_fwd;
            }
            r.host_op_us = ops + moe_ops > 0
                               ? (ops * ctx.plan.host.op_s + moe_ops * ctx.plan.host.moe_op_s) /
                                     (ops + moe_ops) * 1e6
                               : ctx.plan.host.op_s * 1e6;
            r.stack = ctx.plan.stack.name;
        }
    } else {
        static constexpr BottleneckKind kKinds[] = {
            BottleneckKind::DpExchange,      BottleneckKind::TpAllReduce,
            BottleneckKind::PipelineBubble,  BottleneckKind::Synchronisation,
            BottleneckKind::DataLoader,      BottleneckKind::PipelineSends,
            BottleneckKind::ExpertAllToAll,  BottleneckKind::ContextExchange,
            BottleneckKind::ExpertImbalance};
        r.kind = kKinds[worst->which];
        switch (r.kind) {
        case BottleneckKind::DpExchange: {
            // Across nodes, the hop whose speed limits the exchange (networkLimits).
            const bool network = multi_node && networkLimits(ctx, true);
            r.link = network ? hw.inter.name : hw.intra.name;
            r.host_staged = !network && ctx.comm.hostStaged();
            break;
        }
        case BottleneckKind::TpAllReduce: {
            // The link the tensor group's traffic crosses (rank placement, plan.h); once the
            // group spans nodes, the hop whose speed limits it.
            const bool network = ctx.plan.tensorGroup().nodes > 1 && networkLimits(ctx, false);
            r.link = network ? hw.inter.name : hw.intra.name;
            r.host_staged = !network && ctx.comm.hostStaged();
            break;
        }
        case BottleneckKind::ExpertAllToAll:
            // The expert group's tokens leave the NVLink domain once it spans several.
            r.experts_in_domain = ctx.plan.expertGroup().nodes <= 1;
            r.link = r.experts_in_domain ? hw.intra.name : hw.inter.name;
            r.expert_overlap = ctx.plan.expert_overlap;
            // DeepEP's per-node dispatch saves the copies that cross the network (one RDMA
            // transfer per token and node, comm/collective.cpp expertAllToAllTime); inside
            // one NVLink domain it moves the same bytes, so it is no remedy there.
            r.per_node_dispatch =
                ctx.plan.dispatcher != ExpertDispatcher::AllToAll || r.experts_in_domain;
            break;
        case BottleneckKind::ContextExchange:
            r.link = ctx.plan.contextGroup().nodes > 1 ? hw.inter.name : hw.intra.name;
            break;
        case BottleneckKind::PipelineBubble:
            r.micro_batches = ctx.plan.micro_batches;
            r.stages = ctx.plan.pipeline;
            break;
        case BottleneckKind::Synchronisation:
            if (s.main_wait && s.main_wait->kind == LabelKind::WaitForGpu)
                r.main_wait = s.main_wait;
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
    if (!s.memory.fits()) {
        r.out_of_memory = Bottleneck::OutOfMemory{s.memory.total, s.memory.capacity};
        r.out_of_memory->within_error = s.memory.verdictWithinError();
    }
    return r;
}

std::string bottleneckText(const Bottleneck &r)
{
    std::string sentence;
    switch (r.kind) {
    case BottleneckKind::NothingToSimulate:
        return "Nothing to simulate.";
    case BottleneckKind::ComputeBound: {
        static const char *const kLoss[] = {"data-parallel exchange",
                                            "tensor-parallel all-reduces",
                                            "pipeline bubble",
                                            "waiting for the slowest GPU",
                                            "data loading",
                                            "pipeline sends",
                                            "expert all-to-all",
                                            "context-parallel exchange",
                                            "waiting for the busiest expert"};
        sentence = "Compute-bound: the GPUs compute " + percent(r.compute_share) +
                   " of the step at " + bottleneckMfuPercent(r.mfu) + "% MFU";
        if (r.largest_loss)
            sentence += std::string("; the largest loss is ") +
                        kLoss[static_cast<int>(*r.largest_loss)] + " (" + percent(r.share) + ")";
        sentence += ".";
        break;
    }
    case BottleneckKind::HostBound:
        sentence = "Host-bound: " + r.stack + " issues each operation in " +
                   bottleneckNumber(r.host_op_us) + " us, longer than the GPU runs it: " +
                   percent(r.host_share) + " of the compute time is the host's, at " +
                   bottleneckMfuPercent(r.mfu) + "% MFU; larger micro-batches, fused kernels or CUDA graphs hide it.";
        break;
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
    case BottleneckKind::ExpertAllToAll: {
        // Only the remedies the run does not use yet.
        std::vector<std::string> remedies;
        if (!r.expert_overlap)
            remedies.push_back("overlap with another micro-batch");
        if (!r.per_node_dispatch)
            remedies.push_back("DeepEP's per-node dispatch");
        if (!r.experts_in_domain)
            remedies.push_back("experts inside the NVLink domain");
        std::string advice = "faster links between the experts' GPUs shorten it";
        if (remedies.size() == 1)
            advice = remedies[0] + " hides it";
        else if (remedies.size() == 2)
            advice = remedies[0] + " or " + remedies[1] + " hide it";
        else if (remedies.size() == 3)
            advice = remedies[0] + ", " + remedies[1] + " or " + remedies[2] + " hide it";
        sentence = "Expert all-to-all (token dispatch and combine) over " + r.link +
                   " is exposed for " + percent(r.share) + " of the step; " + advice + ".";
        break;
    }
    case BottleneckKind::ContextExchange:
        sentence = "Context-parallel key/value exchange over " + r.link + " is exposed for " +
                   percent(r.share) +
                   " of the step; longer sequences per GPU or a context group inside the node "
                   "hide it behind attention.";
        break;
    case BottleneckKind::ExpertImbalance:
        sentence = "Routing imbalance: GPUs wait " + percent(r.share) +
                   " of the step for the busiest expert; balanced routing (auxiliary loss or "
                   "bias) or a capacity factor shortens it.";
        break;
    }
    if (r.host_staged) // DpExchange, TpAllReduce inside a node
        sentence += kHostStagedNote;
    if (r.thermal)
        sentence += " " +
                    (r.thermal->throttled_gpus == r.thermal->gpus
                         ? std::string("The GPUs run")
                         : std::to_string(r.thermal->throttled_gpus) + " of " +
                               std::to_string(r.thermal->gpus) + " GPUs run") +
                    " hot (above " + std::to_string(r.thermal->throttle_above_c) +
                    " °C) and throttle their clocks by " + percent(r.thermal->clock_drop) + ".";
    if (r.virtual_gpu)
        sentence += " Each GPU is a " + percent(r.virtual_gpu->fraction) +
                    " slice of a physical GPU: the job gets " +
                    bottleneckNumber(r.virtual_gpu->full_gpu_equivalents) +
                    "x the compute of one whole GPU.";
    if (r.out_of_memory) {
        const Bottleneck::OutOfMemory &m = *r.out_of_memory;
        sentence += (m.within_error ? " It may not fit: " : " It does not fit: ") +
                    gibibytes(m.total_bytes) + " per GPU against " + gibibytes(m.capacity_bytes);
        if (m.within_error)
            sentence += ", within the model's " + percent(kMemoryVerdictMargin) + " memory error";
        using Remedy = Bottleneck::OutOfMemory::Remedy;
        if (m.remedy != Remedy::None) {
            std::string change;
            switch (m.remedy) {
            case Remedy::SelectiveRecompute:
                change = "selective recompute";
                break;
            case Remedy::UpProjections:
                change = "recomputing MLA's up-projections (recompute_modules mla_up_proj)";
                break;
            case Remedy::FullRecompute:
                change = "full recompute";
                break;
            case Remedy::ZeroStage:
                change = "ZeRO stage " + std::to_string(m.remedy_value);
                break;
            case Remedy::MicroBatch:
                change = "micro-batch " + std::to_string(m.remedy_value);
                break;
            case Remedy::None:
                break;
            }
            const double delta = remedyStepChange(m);
            const std::string cost = remedyCostSign(delta) == 0
                                         ? "at the same step time"
                                         : "with a step " + bottleneckPercent(std::abs(delta)) +
                                               (delta > 0 ? "% longer" : "% shorter");
            sentence +=
                "; " + change + " would fit it in " + gibibytes(m.remedy_need_bytes) + ", " + cost;
        }
        sentence += ".";
    }
    return sentence;
}

} // namespace scalescope
