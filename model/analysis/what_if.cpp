#include "analysis/what_if.h"

#include <algorithm>
#include <memory>

namespace scalescope
{

namespace
{

/// How much faster a "free" link is: a million times the bandwidth and no latency leaves
/// only NCCL's fixed launch latency per collective (comm/collective.cpp, kBaseLatency), so
/// the gain is the link's whole cost to within a millionth of its transfer time.
constexpr double kFreeLinkSpeedUp = 1e6;

/// A calibration profile without what was measured over the links (collectives, peer-to-peer
/// copies): with a link free those figures no longer hold. Its GPU and host figures stay.
SharedProfile withoutLinkMeasurements(const SharedProfile &profile)
{
    if (!profile)
        return profile;
    auto copy = std::make_shared<CalibrationProfile>(*profile);
    copy->collectives.clear();
    copy->p2p.clear();
    return SharedProfile(std::shared_ptr<const CalibrationProfile>(std::move(copy)));
}

bool linkFree(WhatIfCause cause)
{
    return cause == WhatIfCause::IntraNodeLink || cause == WhatIfCause::InterNodeNetwork;
}

Result<double> stepTimeOf(const SimContext &ctx, bool closed_form, const SimOptions &options)
{
    if (closed_form)
        return analyticSummary(ctx).step_time_s;
    SimOptions o = options;
    o.build_timeline = false;
    const SimResult r = simulate(ctx, o);
    if (r.ok)
        return r.step_time_s;
    if (r.too_large) // the cause's scenario is larger than the engine takes (more warm-up)
        return analyticSummary(ctx).step_time_s;
    if (r.cancelled)
        return InputError{"", kCancelledMessage};
    return InputError{"", "the simulation failed: " + r.error};
}

} // namespace

const char *whatIfCauseId(WhatIfCause cause)
{
    switch (cause) {
    case WhatIfCause::IntraNodeLink:
        return "intra_node_link";
    case WhatIfCause::InterNodeNetwork:
        return "inter_node_network";
    case WhatIfCause::PipelineBubble:
        return "pipeline_bubble";
    case WhatIfCause::HostOverhead:
        return "host_overhead";
    case WhatIfCause::SlowestGpu:
        return "slowest_gpu";
    case WhatIfCause::ExpertImbalance:
        return "expert_imbalance";
    case WhatIfCause::DataLoader:
        return "data_loader";
    }
    return "?";
}

std::vector<WhatIfCause> whatIfCauses(const SimContext &ctx, const Summary &summary)
{
    std::vector<WhatIfCause> causes;
    const Plan &p = ctx.plan;
    const HardwareSpec hw = effectiveHardware(ctx.scenario); // an NVLink domain as one node
    const EffectsSpec &fx = ctx.scenario.effects;
    // Rank placement fills a node before the next (plan.h): a job of more GPUs than a node
    // holds crosses the network, and one of several GPUs uses the node's link.
    if (p.gpus > 1 && hw.gpus_per_node > 1)
        causes.push_back(WhatIfCause::IntraNodeLink);
    if (hw.nodes > 1 && p.gpus > hw.gpus_per_node)
        causes.push_back(WhatIfCause::InterNodeNetwork);
    if (p.pipeline > 1 && summary.breakdown.pipeline_bubble > 0)
        causes.push_back(WhatIfCause::PipelineBubble);
    if ((p.host.op_s > 0 || p.host.moe_op_s > 0) && !p.host.cuda_graphs)
        causes.push_back(WhatIfCause::HostOverhead);
    if (fx.jitter > 0 || !fx.stragglers.empty() || fx.thermal.enabled)
        causes.push_back(WhatIfCause::SlowestGpu);
    if (fx.expert_imbalance > 1 && ctx.scenario.model.transformer.moe.enabled())
        causes.push_back(WhatIfCause::ExpertImbalance);
    if (fx.data_loader.enabled)
        causes.push_back(WhatIfCause::DataLoader);
    return causes;
}

Result<std::shared_ptr<const SimContext>> contextWithoutCause(const SimContext &ctx,
                                                              WhatIfCause cause)
{
    Scenario s = ctx.scenario;
    HardwareSpec &hw = s.hardware;
    EffectsSpec &fx = s.effects;
    switch (cause) {
    case WhatIfCause::IntraNodeLink:
        hw.intra.bandwidth_gbps *= kFreeLinkSpeedUp;
        hw.intra.host_memory_gbps *= kFreeLinkSpeedUp; // GPUs without peer-to-peer
        hw.host_memory_gbps *= kFreeLinkSpeedUp;
        hw.intra.latency_us = 0;
        break;
    case WhatIfCause::InterNodeNetwork:
        hw.inter.line_rate_gbit *= kFreeLinkSpeedUp;
        hw.inter.latency_us = 0;
        break;
    case WhatIfCause::PipelineBubble:
        return InputError{"", "no scenario has a pipeline without a bubble"};
    case WhatIfCause::HostOverhead:
        break; // the plan's host time, below
    case WhatIfCause::SlowestGpu:
        fx.jitter = 0;
        fx.stragglers.clear();
        fx.thermal.enabled = false;
        break;
    case WhatIfCause::ExpertImbalance:
        fx.expert_imbalance = 1;
        break;
    case WhatIfCause::DataLoader:
        fx.data_loader.enabled = false;
        break;
    }
    if (linkFree(cause))
        hw.calibration = withoutLinkMeasurements(hw.calibration);
    Result<Plan> plan = makePlan(s);
    if (!plan)
        return plan.error();
    Plan p = plan.value();
    if (cause == WhatIfCause::HostOverhead) {
        p.host.op_s = 0; // Daydream (ATC'20, Sec. 4): what-if by removing the host's issue time
        p.host.moe_op_s = 0;
    }
    auto free = std::make_shared<SimContext>(s, p);
    free->single_gpu_step_s = ctx.single_gpu_step_s;
    free->single_gpu_calm = ctx.single_gpu_calm;
    return std::shared_ptr<const SimContext>(std::move(free));
}

Result<std::vector<WhatIfGain>> whatIfFree(const SimContext &ctx, const StepEvaluation &step,
                                           const SimOptions &options, bool closed_form_only)
{
    const double step_s = step.summary.step_time_s;
    std::vector<WhatIfGain> gains;
    for (WhatIfCause cause : whatIfCauses(ctx, step.summary)) {
        WhatIfGain g;
        g.cause = cause;
        if (cause == WhatIfCause::PipelineBubble) {
            // A perfectly balanced pipeline without a bubble keeps every stage busy the
            // whole step: the step less its idle stage time (the bubble of Narayanan et al.,
            // SC'21, Sec. 2.2, averaged over the GPUs as the breakdown measures it).
            g.step_time_s = step_s - step.summary.breakdown.pipeline_bubble;
        } else if (cause == WhatIfCause::HostOverhead &&
                   ctx.workload.host_excess_per_micro_batch_s <= 0) {
            // The host issues every layer faster than the GPU runs it: its time enters no
            // task's length (layers/layer_cost.cpp, the max-plus of the two streams), so the
            // step without it is this step, not worth another simulation.
            g.step_time_s = step_s;
        } else {
            Result<std::shared_ptr<const SimContext>> free = contextWithoutCause(ctx, cause);
            if (!free)
                return free.error();
            Result<double> t =
                stepTimeOf(*free.value(), step.closed_form || closed_form_only, options);
            if (!t)
                return t.error();
            g.step_time_s = t.value();
        }
        // Removing a cost never makes a step longer; the engine's measured window can come
        // out a hair longer (sim_window.cpp): no gain then, never a negative one.
        g.gain_s = std::max(0.0, step_s - g.step_time_s);
        gains.push_back(g);
    }
    std::stable_sort(gains.begin(), gains.end(),
                     [](const WhatIfGain &a, const WhatIfGain &b) { return a.gain_s > b.gain_s; });
    return gains;
}

void nameLinkByGain(Bottleneck &b, const std::vector<WhatIfGain> &gains, const SimContext &ctx)
{
    const Plan &p = ctx.plan;
    const HardwareSpec &hw = ctx.scenario.hardware;
    bool spans_nodes = false;
    switch (b.kind) {
    case BottleneckKind::DpExchange:
        spans_nodes = hw.nodes > 1 && p.dataGroup().nodes > 1;
        break;
    case BottleneckKind::TpAllReduce:
        spans_nodes = p.tensorGroup().nodes > 1;
        break;
    case BottleneckKind::ExpertAllToAll:
        spans_nodes = p.expertGroup().nodes > 1;
        break;
    case BottleneckKind::ContextExchange:
        spans_nodes = p.contextGroup().nodes > 1;
        break;
    default:
        return;
    }
    if (!spans_nodes)
        return; // the group's traffic crosses the node's link only
    const auto gainOf = [&](WhatIfCause c) -> const WhatIfGain * {
        const auto it = std::find_if(gains.begin(), gains.end(),
                                     [c](const WhatIfGain &g) { return g.cause == c; });
        return it == gains.end() ? nullptr : &*it;
    };
    const WhatIfGain *intra = gainOf(WhatIfCause::IntraNodeLink);
    const WhatIfGain *inter = gainOf(WhatIfCause::InterNodeNetwork);
    if (!intra || !inter || intra->gain_s == inter->gain_s)
        return;
    const bool network = inter->gain_s > intra->gain_s;
    b.link = network ? hw.inter.name : hw.intra.name;
    // Staged through host memory: a note on the node's link only (bottleneck.cpp).
    const bool staged_kind =
        b.kind == BottleneckKind::DpExchange || b.kind == BottleneckKind::TpAllReduce;
    b.host_staged = staged_kind && !network && ctx.comm.hostStaged();
}

} // namespace scalescope
