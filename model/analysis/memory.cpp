#include "analysis/memory.h"

#include "sim/schedule.h"

#include <algorithm>

namespace scalescope
{

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

MemoryBreakdown memoryPerGpu(const Plan &plan, const WorkloadCost &w, double capacity_bytes)
{
    MemoryBreakdown best;
    best.capacity = capacity_bytes;
    // ZeRO and FSDP shard over the ranks holding the same weights: the data x context ranks
    // for dense weights (Megatron-Core and torchtitan shard over dp x cp), the expert-data
    // group for routed experts (Megatron-Core's expert data-parallel group).
    const double d = plan.gradRanks();
    const double de = plan.expertDataRanks();
    // The chunks of a stage (sim_graph.cpp reads the same layout): dualpipe's two are two
    // stages' layers, a model copy per direction, so its parameters, their gradients and
    // optimizer states count twice (DeepSeek-V3 report, Sec. 3.2.1 and Table 2: 2x).
    const PipelineLayout layout =
        pipelineLayout(plan.schedule, plan.pipeline, plan.virtual_stages, plan.micro_batches);
    // Stages differ only at the ends (embedding, head) and by uneven splits: check the
    // first, the last and one middle stage.
    std::vector<int> candidates = {0, plan.pipeline - 1};
    if (plan.pipeline > 2)
        candidates.push_back(plan.pipeline / 2);
    for (int stage : candidates) {
        double params = 0, expert = 0, act_per_mb = 0, transient = 0, offloaded = 0;
        for (int c = 0; c < plan.virtual_stages; ++c) {
            const LayerRange r =
                virtualStageLayers(w, layout.parts(), layout.partOf(layout.virtualStage(stage, c)));
            for (int i = r.begin; i < r.end; ++i) {
                const LayerCost &l = w.layers[static_cast<size_t>(i)];
                params += l.params - l.expert_params;
                expert += l.expert_params;
                act_per_mb += l.activation_bytes;
                offloaded += l.offloaded_bytes;
                transient = std::max(transient, l.transient_bytes);
            }
        }
        MemoryBreakdown m;
        m.capacity = capacity_bytes;
        m.stage = stage;
        // ZeRO stage 1 shards optimizer states, 2 also gradients, 3 also parameters
        // (Rajbhandari et al. 2020, Fig. 1: (2 + 2 + K) Psi / Nd per stage).
        // Weights, gradients and optimizer states of `count` parameters sharded over
        // `ranks` from the ZeRO stage that shards each.
        const auto states = [&](double count, double ranks, MemoryBreakdown &out) {
            const auto shard = [&](int from_stage) {
                return plan.zero >= from_stage ? ranks : 1.0;
            };
            const double weight = weightBytesPerParam(plan.precision);
            double optimizer = optimizerBytesPerParam(plan.optimizer, plan.precision);
            double parameters = weight;
            if (plan.stack.fp32_param_shards && plan.zero >= 3 && weight < 4.0) {
                // FSDP's fp32 shards are the master weights: 4 bytes of parameter, the
                // optimizer's moments alone beside them (FrameworkSpec::fp32_param_shards).
                parameters = 4.0;
                optimizer -= 4.0;
            }
            out.parameters += count * parameters / shard(3);
            // Accumulated unsharded in fp32 until the last micro-batch where the stack does so.
            out.gradients +=
                w.unsharded_fp32_grads ? count * 4.0 : count * plan.grad_bytes_per_param / shard(2);
            out.optimizer_states += count * optimizer / shard(1);
        };
        states(params, d, m);
        MemoryBreakdown experts; // the routed experts' share of the states
        states(expert, de, experts);
        m.parameters += experts.parameters;
        m.gradients += experts.gradients;
        m.optimizer_states += experts.optimizer_states;
        m.expert_states = experts.parameters + experts.gradients + experts.optimizer_states;
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
        // Zero-bubble schedules count a forward half freed by its B pass (sim/schedule.h):
        // zb-h1 and zb-v keep 1F1B's peak (Qi et al., ICLR 2024 Sec. 3; Qi et al. 2024),
        // dualpipe p + 1 chunks (DeepSeek-V3 report, Table 2), replayed from its order.
        const double in_flight = peakInFlight(plan.schedule, plan.pipeline, stage,
                                              plan.micro_batches, plan.virtual_stages);
        m.activations = act_per_mb * in_flight / plan.virtual_stages;
        m.host_offload = offloaded * in_flight / plan.virtual_stages;
        // One layer's backward at a time adds its working memory (layers/layer_cost.h,
        // transient_bytes): the peak the framework prints is reached there.
        m.activations += transient;
        const double allocated = m.parameters + m.gradients + m.optimizer_states + m.activations;
        // PyTorch's caching allocator reserves more than the live tensors, and frameworks
        // print the reserved peak, which a run that ran held. Fragmentation comes from the
        // memory-reduction techniques that break the regular lifetimes of a step's tensors:
        // recomputation and pipeline schedules (GMLake, Guo et al., ASPLOS 2024, Sec. 2.3: the
        // caching allocator "degrades quickly" under them, ~15% of reserved memory on average over
        // its LLM runs; STWeaver, Huang et al. 2025, Sec. 2: virtual pipeline and recomputation
        // disrupt tensor lifespans). Without them every iteration frees and allocates the
        // same sizes in the same order and the splitting allocator reuses its blocks
        // (PyTorch "CUDA semantics", memory management): a few per cent. It comes from the
        // tensors allocated and freed every micro-batch (activations and their working
        // memory); weights, gradients and optimizer states are allocated once.
        // (ZeRO-3's gathered parameters, allocated and freed per layer, are two layers'
        // worth: counted above, not as a fragmentation of the activations.)
        const bool irregular = plan.recompute != Recompute::None || plan.pipeline > 1;
        constexpr double kRegular = 0.05;
        const double fragmentation = irregular ? 0.15 : kRegular;
        m.allocator_reserve = m.activations * fragmentation / (1.0 - fragmentation);
        // Under pressure the reserve shrinks: when a cudaMalloc fails the caching allocator
        // frees its cached unused segments and retries before it raises an out-of-memory
        // error (PyTorch c10/cuda/CUDACachingAllocator.cpp, malloc: release_cached_blocks
        // and retry; "CUDA semantics", memory management). What it cannot give back is the
        // free space inside split segments still in use, taken as a regular step's few per
        // cent. So a run fits when its tensors and that much do; the peak it prints is then
        // at most the card's capacity (a run the irregular reserve would push over still ran).
        if (capacity_bytes > 0) {
            const double unavoidable = m.activations * kRegular / (1.0 - kRegular);
            const double room = capacity_bytes - allocated;
            const double limited = std::min(m.allocator_reserve, std::max(unavoidable, room));
            m.reserve_limited = limited < m.allocator_reserve && room >= unavoidable;
            m.allocator_reserve = limited;
        }
        m.activations += m.allocator_reserve; // reported with the activations it serves
        m.total = allocated + m.allocator_reserve;
        if (m.total > best.total)
            best = m;
    }
    return best;
}

} // namespace scalescope
