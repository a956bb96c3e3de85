// What would make a plan that does not fit fit: one change at a time (recompute, ZeRO stage,
// micro-batch), each evaluated by the closed form, the fastest that fits kept.
#pragma once

#include "analysis/summary.h"

namespace scalescope
{

/// Fills `summary.bottleneck.out_of_memory`'s remedy where the scenario of `ctx` does not fit:
/// of selective recompute, Megatron-Core's recompute of MLA's up-projections, full recompute,
/// each higher ZeRO stage and each halving of the micro-batch (every one a plan the rule
/// table accepts, the rest of the scenario unchanged), the one whose step is shortest among
/// those that fit. Nothing where the scenario fits or none of them does.
void addMemoryRemedy(const SimContext &ctx, Summary &summary);

} // namespace scalescope
