// "What if this were free": for each cause of lost time in a step (each link, the pipeline
// bubble, the host, the slowest GPU, the busiest expert, the data loader), the step time if
// that cause cost nothing, and the gain against the step as it is: a ceiling on what fixing
// it can buy. Critical-path analysis of a measured step (HolisticTraceAnalysis,
// "critical_path_analysis") says what lies on the path; a cause off it gains nothing. Here
// the scenario is simulated again with the cause removed, so work that moves onto the path
// when the cause goes counts too (Daydream, ATC'20, what-if analysis on a task graph). Computed only where asked (EvaluationRequest::what_if): it costs
// one more simulation per cause.
#pragma once

#include "analysis/step_evaluation.h"
#include "analysis/summary.h"
#include "plan/error.h"

#include <cstdint>
#include <vector>

namespace scalescope
{

enum class WhatIfCause : uint8_t {
    IntraNodeLink,    // the GPUs' link inside a node (or NVLink domain)
    InterNodeNetwork, // the NICs and network between nodes
    PipelineBubble,   // idle pipeline stages
    HostOverhead,     // the host issuing operations (framework and launch time)
    SlowestGpu,       // jitter, stragglers and thermal throttling
    ExpertImbalance,  // the busiest expert over the mean
    DataLoader,       // the input pipeline
};
inline constexpr int kWhatIfCauseCount = 7;

/// The stable id of a cause in machine output ("intra_node_link", "inter_node_network",
/// "pipeline_bubble", "host_overhead", "slowest_gpu", "expert_imbalance", "data_loader").
const char *whatIfCauseId(WhatIfCause cause);

struct WhatIfGain {
    WhatIfCause cause = WhatIfCause::IntraNodeLink;
    double step_time_s = 0; // the step with the cause free
    double gain_s = 0;      // the step as it is less step_time_s, at least 0
};

/// The causes this scenario has (a link its plan's traffic crosses, a pipeline with a
/// bubble, a host that issues work, the effects it enables), in WhatIfCause order.
std::vector<WhatIfCause> whatIfCauses(const SimContext &ctx, const Summary &summary);

/// The scenario of `ctx` with `cause` removed: a link's bandwidth a million times larger and
/// its latency zero (the measured collectives of a calibration profile dropped, they were
/// measured over the real links), no host time per operation, no jitter, stragglers or
/// throttling, balanced routing, data always at hand. Not for PipelineBubble (no scenario
/// has a pipeline without a bubble: whatIfFree takes the bubble off the step instead).
Result<std::shared_ptr<const SimContext>> contextWithoutCause(const SimContext &ctx,
                                                              WhatIfCause cause);

/// Every cause of whatIfCauses with its step and gain, largest gain first (ties in cause
/// order). `step` is the step as evaluated under `options` (its summary and whether the
/// closed form answered: the what-ifs are answered the same way). Errors: the engine's, or
/// kCancelledMessage when options.cancel is set. `closed_form_only`: each cause's step from
/// the closed form even where the engine gave the step (the window, for runs whose engine
/// would take long).
Result<std::vector<WhatIfGain>> whatIfFree(const SimContext &ctx, const StepEvaluation &step,
                                           const SimOptions &options,
                                           bool closed_form_only = false);

/// Where `b` names a link for traffic whose group spans nodes (exposed data-parallel,
/// tensor-parallel, expert or context communication) and both the node's link and the
/// network have a what-if gain, names the one whose being free gains more, so the sentence
/// never blames a link whose speed does not move the step. A tie keeps the summary's name.
void nameLinkByGain(Bottleneck &b, const std::vector<WhatIfGain> &gains, const SimContext &ctx);

} // namespace scalescope
