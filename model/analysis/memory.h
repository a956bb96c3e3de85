// Memory per GPU: parameters, gradients, optimizer states (per ZeRO stage), activations.
#pragma once

#include "plan/plan.h"
#include "workload/cost.h"

namespace scalescope
{

struct MemoryBreakdown {
    double parameters = 0;
    double gradients = 0;
    double optimizer_states = 0;
    double activations = 0;
    double total = 0;
    double capacity = 0;
    int stage = 0; // the most loaded pipeline stage
    bool fits() const { return total <= capacity; }
};

/// Bytes per parameter of the gradients that are kept and communicated. Transformers follow
/// Megatron-LM/DeepSpeed: fp16 training keeps fp16 gradients, bf16 accumulates and
/// all-reduces them in fp32 (Megatron-LM "--accumulate-allreduce-grads-in-fp32", forced for
/// bf16). Other models follow PyTorch automatic mixed precision (torch.cuda.amp): weights
/// and therefore gradients stay fp32.
double gradientBytesPerParam(Precision p, bool transformer = true);
/// Bytes per parameter of the weights used in forward/backward.
double weightBytesPerParam(Precision p);
/// Memory traffic of the optimizer step per local parameter (bytes read + written).
double optimizerTrafficPerParam(Optimizer o, Precision p);

/// Layer range [begin, end) of virtual stage `vs` (0 .. pipeline*virtual_stages-1):
/// repeated blocks spread as evenly as possible (the first stages take the remainder),
/// the embedding on the first and the head on the last virtual stage.
struct LayerRange {
    int begin = 0, end = 0;
};
LayerRange virtualStageLayers(const WorkloadCost &w, int virtual_stages_total, int vs);

/// Peak number of micro-batch forward passes (per model chunk) whose backward is pending on
/// `stage`: what the schedule keeps in memory.
int64_t peakInFlight(Schedule schedule, int stages, int stage, int64_t micro_batches, int chunks);

MemoryBreakdown memoryPerGpu(const Plan &plan, const WorkloadCost &w, double capacity_bytes);

} // namespace scalescope
