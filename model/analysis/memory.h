// Memory per GPU: parameters, gradients, optimizer states (per ZeRO stage), activations.
// (Bytes per parameter live in plan/numerics.h, the stage layout in layers/stage_layout.h.)
#pragma once

#include "plan/numerics.h"
#include "plan/plan.h"
#include "layers/layer_cost.h"
#include "layers/stage_layout.h"

namespace scalescope
{

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
};

MemoryBreakdown memoryPerGpu(const Plan &plan, const WorkloadCost &w, double capacity_bytes);

} // namespace scalescope
