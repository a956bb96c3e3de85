// Deriving one step of a plan (step_description.h): what the engine and the closed form read.
#include "sim/step_description.h"

#include "plan/numerics.h"
#include "sim/simulator.h"
#include "layers/stage_layout.h"

#include <algorithm>
#include <cmath>

namespace scalescope
{

StepDescription describeStep(const SimContext &ctx)
{
    const Plan &P = ctx.plan;
    const EffectsSpec &fx = ctx.scenario.effects;
    StepDescription d;
    d.pipeline = P.pipeline;
    d.virtual_stages = P.virtual_stages;
    d.layout = pipelineLayout(P.schedule, P.pipeline, P.virtual_stages, P.micro_batches);
    // Replicas exchange gradients: of the dense weights over data x context, of the routed
    // experts over their expert-data group (which tensor ranks join when experts are not
    // split by tensor parallelism).
    const bool moe = ctx.scenario.model.kind == ModelSpec::Kind::Transformer &&
                     ctx.scenario.model.transformer.moe.enabled();
    d.data_parallel = P.gradRanks() > 1 || (moe && P.expertDataRanks() > 1);
    // ZeRO shards gradients: reduce-scatter instead of all-reduce (Rajbhandari et al. SC20,
    // Sec. 5.2); DDP and ZeRO-1 reduce once per step after the last micro-batch, ZeRO-2/3
    // every micro-batch (DeepSpeed's partitioned gradients are reduced as they are made).
    d.grad_op = P.zero >= 1 ? CollectiveOp::ReduceScatter : CollectiveOp::AllReduce;
    d.reduce_every_micro_batch = P.zero >= 2;
    d.bucketed = P.bucket_bytes > 0;
    d.overlap = P.overlap;
    d.zero3 = P.zero >= 3 && d.data_parallel;
    d.zero3_prefetch = P.zero3_prefetch;
    d.param_gather = d.data_parallel && (P.zero == 1 || P.zero == 2);
    d.sync = P.update == UpdateMode::Sync;

    GroupCostCache dp_cost(ctx.comm, P.dataGroup());
    // Routed experts reduce and gather over their own data group (the GPUs holding the same
    // experts: Megatron-Core's expert-data-parallel group), the rest over the data group.
    GroupCostCache edp_cost(ctx.comm, P.expertDataGroup());
    const bool expert_dp = P.expertDataRanks() > 1;
    const auto collective = [&](CollectiveOp op, double bytes, double expert_bytes = 0) {
        const double dense = bytes - expert_bytes;
        double time = P.gradRanks() > 1 && dense > 0 ? dp_cost.time(op, dense) : 0.0;
        if (expert_bytes > 0 && expert_dp)
            time += edp_cost.time(op, expert_bytes);
        return StepCollective{op, bytes, time};
    };
    const double grad_bytes = P.grad_bytes_per_param;
    const double weight_bytes = weightBytesPerParam(P.precision);

    // The SMs the data-parallel collectives hold while they run beside compute: NCCL's
    // channels over the node's NVLink, or its few over PCIe and host memory.
    const bool nvlink = ctx.comm.intraNvlink() && !ctx.comm.hostStaged();
    const double dp_sm = ctx.compute.communicationSmShare(
        nvlink ? ComputeModel::kNvlinkCommunicationBlocks : ComputeModel::kPcieCommunicationBlocks);
    const int V = P.virtualStageCount();
    const PipelineLayout &layout = d.layout;
    TensorParallelCost tp(ctx.comm, P);
    d.pass_costs = PassCosts{0, 0, 0};
    d.chunks.resize(static_cast<size_t>(V));
    for (int v = 0; v < V; ++v) {
        StepChunk &chunk = d.chunks[static_cast<size_t>(v)];
        const LayerRange layers =
            virtualStageLayers(ctx.workload, layout.parts(), layout.partOf(v));
        for (const Piece &p : packPieces(ctx, layers, tp)) {
            StepPiece piece;
            static_cast<Piece &>(piece) = p;
            piece.grad =
                collective(d.grad_op, p.params * grad_bytes, p.expert_params * grad_bytes);
            if (d.zero3) {
                // A stack that fetches per module or per parameter issues that many
                // all-gathers for the piece (FrameworkSpec::Zero3Gather), each paying the
                // ring's latency over the data group: n collectives of the mean size.
                using G = FrameworkSpec::Zero3Gather;
                const double n =
                    std::max(1.0, P.stack.zero3_gather == G::Module      ? p.param_modules
                                  : P.stack.zero3_gather == G::Parameter ? p.param_tensors
                                                                         : 1.0);
                piece.gather = collective(CollectiveOp::AllGather, p.params * weight_bytes / n,
                                          p.expert_params * weight_bytes / n);
                piece.gather.bytes *= n;
                piece.gather.time_s *= n;
            }
            // Collectives that run beside compute hold some of its SMs meanwhile
            // (ComputeModel::communicationSmShare): the compute they overlap runs that much
            // slower for as long as they last. FSDP's prefetched gathers overlap the pieces'
            // forward and backward every micro-batch; overlapped gradient reductions the
            // backward, once per step unless ZeRO-2/3 reduces every micro-batch (spread here
            // over the step's micro-batches).
            if (d.zero3 && d.zero3_prefetch) {
                piece.fwd += dp_sm * std::min(piece.gather.time_s, p.fwd);
                piece.bwd += dp_sm * std::min(piece.gather.time_s, p.bwd);
            }
            if (d.overlap) {
                const double per_mb =
                    d.reduce_every_micro_batch ? 1.0 : 1.0 / static_cast<double>(P.micro_batches);
                piece.bwd += dp_sm * std::min(piece.grad.time_s, p.bwd) * per_mb;
            }
            chunk.pieces.push_back(piece);
            chunk.total += piece; // with the contention above
        }
        const Piece &t = chunk.total;
        d.pass_costs.forward += (t.fwd + t.extraFwd()) / V;
        d.pass_costs.input_grad += (t.bwd - t.wgrad + t.extraBwd()) / V;
        d.pass_costs.weight_grad += t.wgrad / V;
    }

    // Interleaved chunks on one pipeline stage (pipeline = 1) hand activations to the same
    // GPU: nothing is sent.
    d.send_bytes = ctx.workload.p2p_bytes;
    d.send_s = P.pipeline > 1 ? ctx.comm.p2pTime(d.send_bytes, P.pipelineCrossesNodes()) : 0.0;
    const double m = static_cast<double>(P.micro_batches);
    d.stages.resize(static_cast<size_t>(P.pipeline));
    for (int s = 0; s < P.pipeline; ++s) {
        StepStage &st = d.stages[static_cast<size_t>(s)];
        Piece &sum = st.per_micro_batch;
        double busy = 0; // compute and tensor-parallel time per micro-batch
        double sends = 0; // blocking pipeline sends per micro-batch of the step
        for (int c = 0; c < P.virtual_stages; ++c) {
            const int v = layout.virtualStage(s, c);
            const Piece &t = d.chunks[static_cast<size_t>(v)].total;
            const double share = layout.share(v);
            busy += share * (t.fwd + t.bwd + t.extraFwd() + t.extraBwd());
            sum.add(t, share);
            // Every chunk's forward and backward end with a send the stage waits for
            // (Megatron-LM p2p_communication.py), except where its micro-batches leave or
            // enter the pipeline and at the V's turn, which stays on the GPU.
            const bool last = v == layout.lastOf(layout.lastMicroBatch(v));
            const bool first = v == layout.firstOf(layout.firstMicroBatch(v));
            sends += share * ((!last && layout.sendsAfter(v) ? 1 : 0) +
                              (!first && layout.sendsAfter(v - 1) ? 1 : 0));
        }
        // The optimizer reads and writes each parameter's states once (memory-bound); ZeRO
        // updates only this GPU's 1/data shard (SC20 Sec. 5.1).
        const double local_params =
            P.zero >= 1 ? (sum.params - sum.expert_params) / P.gradRanks() +
                              sum.expert_params / P.expertDataRanks()
                        : sum.params;
        st.optimizer_s = ctx.compute.memoryTime(local_params *
                                                optimizerTrafficPerParam(P.optimizer, P.precision));
        if (d.param_gather)
            st.param_gather = collective(CollectiveOp::AllGather, sum.params * weight_bytes,
                                         sum.expert_params * weight_bytes);
        if (P.pipeline > 1)
            st.sends_per_micro_batch = static_cast<int>(std::lround(sends));
        d.tp_hidden_s += m * sum.tp_hidden / P.pipeline;
        d.ep_hidden_s += m * sum.ep_hidden / P.pipeline;
        d.cp_hidden_s += m * sum.cp_hidden / P.pipeline;
        d.step_compute_s = std::max(d.step_compute_s, busy * m);
    }

    // Effects.
    if (fx.data_loader.enabled) {
        d.loader_s = static_cast<double>(P.micro_batch) /
                     loaderRate(fx.data_loader, ctx.scenario.hardware, ctx.scenario.model);
        // PyTorch DataLoader keeps prefetch_factor (default 2) batches per worker in
        // flight; with 0 workers the main process loads one batch at a time.
        d.loader_depth = loaderDepth(fx.data_loader);
    }
    if (!fx.stragglers.empty())
        d.slowdown.assign(static_cast<size_t>(P.gpus), 1.0);
    for (const StragglerSpec &st : fx.stragglers)
        if (st.gpu >= 0 && st.gpu < P.gpus) {
            double &f = d.slowdown[static_cast<size_t>(st.gpu)];
            f *= st.slowdown;
            d.max_slowdown = std::max(d.max_slowdown, f);
        }
    if (fx.thermal.enabled) {
        d.thermal_varies = fx.thermal.varies(P.gpus);
        // Throttled SM clocks stretch compute by 1 / (1 - clock_drop).
        d.thermal_stretch = 1.0 / (1.0 - fx.thermal.clock_drop);
    }
    d.jitter = fx.jitter;
    d.seed = fx.seed;
    d.warmup_steps = (fx.data_loader.enabled || !d.sync) ? kWarmupSteps : 0;
    return d;
}

} // namespace scalescope
