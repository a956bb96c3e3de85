#include "analysis/memory.h"

#include "sim/schedule.h"

#include <algorithm>

namespace scalescope
{

double gradientBytesPerParam(Precision p, bool transformer)
{
    return transformer && p == Precision::FP16 ? 2.0 : 4.0;
}

double optimizerTrafficPerParam(Optimizer o, Precision p)
{
    // Fused Adam/SGD read and write every state once: Adam in mixed precision reads the
    // fp32 weight, gradient, m and v and writes weight, m, v and the half-precision copy
    // (NVIDIA Apex FusedAdam; Megatron-LM's distributed optimizer likewise).
    const bool mixed = weightBytesPerParam(p) < 4.0;
    if (o == Optimizer::Adam)
        return mixed ? 30.0 : 28.0;
    return mixed ? 22.0 : 20.0;
}

double weightBytesPerParam(Precision p)
{
    return (p == Precision::FP32 || p == Precision::TF32) ? 4.0 : 2.0;
}

namespace
{

// Optimizer state bytes per parameter (Rajbhandari et al. 2020, ZeRO, Sec. 3.1: K = 12 for
// mixed-precision Adam: fp32 master weights, momentum and variance). SGD with momentum keeps
// momentum (+ fp32 master weights in mixed precision).
double optimizerBytesPerParam(Optimizer o, Precision p)
{
    const bool mixed = weightBytesPerParam(p) < 4.0;
    if (o == Optimizer::Adam)
        return mixed ? 12.0 : 8.0;
    return mixed ? 8.0 : 4.0;
}

} // namespace

int64_t peakInFlight(Schedule schedule, int stages, int stage, int64_t micro_batches, int chunks)
{
    // Forward passes whose backward is still pending, per chunk: the schedules' warm-up
    // depth plus the one in flight during the steady phase (sim/schedule.cpp; tested
    // against a replay of the order).
    if (stages <= 1 && chunks <= 1)
        return 1;
    const int64_t total = micro_batches * chunks;
    if (schedule == Schedule::GPipe && chunks <= 1)
        return micro_batches;
    if (chunks <= 1)
        return std::min<int64_t>(stages - stage, micro_batches);
    const int64_t warmup =
        static_cast<int64_t>(stages - stage - 1) * 2 + static_cast<int64_t>(chunks - 1) * stages;
    return std::min(total, warmup + 1);
}

namespace
{

} // namespace

LayerRange virtualStageLayers(const WorkloadCost &w, int vstages, int vs)
{
    const int blocks = w.block_count;
    const int base = blocks / vstages;
    const int extra = blocks % vstages;
    LayerRange r;
    r.begin = w.first_block + vs * base + std::min(vs, extra);
    r.end = r.begin + base + (vs < extra ? 1 : 0);
    if (vs == 0)
        r.begin = 0;
    if (vs == vstages - 1)
        r.end = static_cast<int>(w.layers.size());
    return r;
}

MemoryBreakdown memoryPerGpu(const Plan &plan, const WorkloadCost &w, double capacity_bytes)
{
    MemoryBreakdown best;
    best.capacity = capacity_bytes;
    const int vstages = plan.virtualStageCount();
    const double d = plan.data;
    // Stages differ only at the ends (embedding, head) and by uneven splits: check the
    // first, the last and one middle stage.
    std::vector<int> candidates = {0, plan.pipeline - 1};
    if (plan.pipeline > 2)
        candidates.push_back(plan.pipeline / 2);
    for (int stage : candidates) {
        double params = 0, act_per_mb = 0;
        for (int c = 0; c < plan.virtual_stages; ++c) {
            const LayerRange r = virtualStageLayers(w, vstages, c * plan.pipeline + stage);
            for (int i = r.begin; i < r.end; ++i) {
                params += w.layers[static_cast<size_t>(i)].params;
                act_per_mb += w.layers[static_cast<size_t>(i)].activation_bytes;
            }
        }
        MemoryBreakdown m;
        m.capacity = capacity_bytes;
        m.stage = stage;
        // ZeRO stage 1 shards optimizer states, 2 also gradients, 3 also parameters
        // (Rajbhandari et al. 2020, Fig. 1: (2 + 2 + K) Psi / Nd per stage).
        m.parameters = params * weightBytesPerParam(plan.precision) / (plan.zero >= 3 ? d : 1.0);
        m.gradients = params * plan.grad_bytes_per_param / (plan.zero >= 2 ? d : 1.0);
        m.optimizer_states = params * optimizerBytesPerParam(plan.optimizer, plan.precision) /
                             (plan.zero >= 1 ? d : 1.0);
        if (plan.zero >= 3) {
            // Gathered full parameters of the layers being computed (the prefetch window).
            double largest = 0;
            for (const LayerCost &l : w.layers)
                largest = std::max(largest, l.params);
            m.parameters += 2.0 * largest * weightBytesPerParam(plan.precision);
        }
        // In-flight micro-batches hold their activations (each chunk holds 1/v of the
        // stage's layers, so the chunk-level peak is divided by v: Korthikanti et al. 2022,
        // Sec. 4.2.3 on interleaving).
        const int64_t in_flight = peakInFlight(plan.schedule, plan.pipeline, stage,
                                               plan.micro_batches, plan.virtual_stages);
        m.activations = act_per_mb * static_cast<double>(in_flight) / plan.virtual_stages;
        m.total = m.parameters + m.gradients + m.optimizer_states + m.activations;
        if (m.total > best.total)
            best = m;
    }
    return best;
}

} // namespace scalescope
