// Memory per GPU: parameters, gradients, optimizer states (per ZeRO stage), activations.
// (Bytes per parameter live in plan/numerics.h, the stage layout in layers/stage_layout.h.)
#pragma once

#include "plan/numerics.h"
#include "plan/plan.h"
#include "layers/layer_cost.h"
#include "layers/stage_layout.h"

#include <cmath>

namespace scalescope
{

/// How close to the capacity a verdict is within the model's own error: its peak memory
/// per GPU is off by 6.4% on average (worst 15.5%) against the 12 peaks that frameworks
/// printed for published runs (shared/validation/recent, docs/model.md, memory), so a need
/// within 10% of the capacity, either side, may go either way on the real machine.
inline constexpr double kMemoryVerdictMargin = 0.10;

struct MemoryBreakdown {
    double parameters = 0;
    double gradients = 0;
    double optimizer_states = 0;
    double activations = 0;
    /// What the caching allocator holds beyond the tensors (fragmentation), part of the
    /// peak the framework prints (max reserved) and of what must fit; included in
    /// `activations`, whose churn causes it. Near the capacity only the part that cannot
    /// be released (memoryPerGpu: the allocator frees cached blocks before it fails).
    double allocator_reserve = 0;
    /// The capacity cut the reserve short: the tensors fit, and the allocator's cache fills
    /// the card's rest (a peak equal to the capacity is this, not a coincidence).
    bool reserve_limited = false;
    /// What the tensors take: the total without the allocator's reserve.
    double tensors() const { return total - allocator_reserve; }
    double total = 0;
    double capacity = 0;
    /// Of parameters + gradients + optimizer states, what the routed experts hold (an MoE
    /// model's expert weights and their states, sharded over the expert-data group).
    double expert_states = 0;
    /// Activations that wait in pinned host memory between forward and backward (activation
    /// offloading, training.activation_offload_layers): not part of `total`.
    double host_offload = 0;
    int stage = 0; // the most loaded pipeline stage
    bool fits() const { return total <= capacity; }
    /// What must fit: the total, or the tensors alone where the allocator's cache fills the
    /// rest of the card (it gives that back before it would fail).
    double need() const { return reserve_limited ? tensors() : total; }
    /// The need over the capacity, as a share of it: > 0 over, < 0 to spare.
    double overCapacityShare() const { return capacity > 0 ? need() / capacity - 1.0 : 0.0; }
    /// The verdict (fits or not) is closer to the line than the model's memory error.
    bool verdictWithinError() const
    {
        return capacity > 0 && std::abs(overCapacityShare()) < kMemoryVerdictMargin;
    }
    /// Over the capacity by less than the model's memory error: it may still run ("may not
    /// fit", never "does not fit", wherever a verdict is shown).
    bool mayNotFit() const { return !fits() && verdictWithinError(); }
};

MemoryBreakdown memoryPerGpu(const Plan &plan, const WorkloadCost &w, double capacity_bytes);

} // namespace scalescope
