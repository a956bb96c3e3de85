// One training step of a plan, as both evaluators read it (issue 11): the engine's graph
// builder (sim_graph.cpp) turns it into tasks, the closed form (analysis/summary.cpp) sums
// it. Everything a plan and its effects decide about the step is derived here once: the
// pieces of each stage, the data-parallel collectives with their sizes and times, the
// pipeline sends, the optimizer's share and the effect factors.
#pragma once

#include "comm/collective.h"
#include "layers/stage_layout.h"
#include "plan/collective_op.h"
#include "sim/schedule.h"

#include <cstdint>
#include <vector>

namespace scalescope
{

struct SimContext;

/// A gradient bucket (DDP) or sharding unit (FSDP): consecutive layers whose gradients
/// fill `bucket_mb`, with their compute and tensor-parallel time per micro-batch.
struct Piece {
    double fwd = 0, bwd = 0; // compute (bwd includes recompute)
    double wgrad = 0;        // the weight-gradient GEMMs within bwd (zero-bubble schedules)
    double tp_fwd = 0, tp_bwd = 0;
    double tp_fwd_bytes = 0, tp_bwd_bytes = 0; // what those all-reduces move (their buffers)
    double params = 0;
    double expert_params = 0; // the routed experts' share of params (sharded over expert data)
    /// The modules holding params and their parameter tensors (LayerCost::param_modules):
    /// how many all-gathers ZeRO-3 issues for the piece when it fetches per module or per
    /// parameter (FrameworkSpec::Zero3Gather).
    double param_modules = 0, param_tensors = 0;
    // Expert dispatch and combine (exposed time and bytes), waiting for the busiest expert,
    // and the context-parallel attention exchange (exposed), per micro-batch.
    double ep_fwd = 0, ep_bwd = 0;
    double ep_fwd_bytes = 0, ep_bwd_bytes = 0;
    double wait_fwd = 0, wait_bwd = 0;
    double cp_fwd = 0, cp_bwd = 0;
    double cp_fwd_bytes = 0, cp_bwd_bytes = 0;
    // What overlap hid of the tensor-parallel, expert and context exchanges above, per
    // micro-batch (forward and backward together): counted as communication, not timed.
    double tp_hidden = 0, ep_hidden = 0, cp_hidden = 0;

    /// Everything on the stage's critical path besides compute, forward and backward.
    double extraFwd() const { return tp_fwd + ep_fwd + wait_fwd + cp_fwd; }
    double extraBwd() const { return tp_bwd + ep_bwd + wait_bwd + cp_bwd; }

    /// Adds `o`'s times, bytes and parameters (a chunk's or a stage's sum of pieces).
    Piece &operator+=(const Piece &o) { return add(o, 1.0); }
    /// Adds `o`'s times and bytes per micro-batch times `share`, the part of the step's
    /// micro-batches that pass it (dualpipe: each direction's chunk half), and its
    /// parameters whole.
    Piece &add(const Piece &o, double share)
    {
        fwd += share * o.fwd;
        bwd += share * o.bwd;
        wgrad += share * o.wgrad;
        tp_fwd += share * o.tp_fwd;
        tp_bwd += share * o.tp_bwd;
        tp_fwd_bytes += share * o.tp_fwd_bytes;
        tp_bwd_bytes += share * o.tp_bwd_bytes;
        params += o.params;
        expert_params += o.expert_params;
        param_modules += o.param_modules;
        param_tensors += o.param_tensors;
        ep_fwd += share * o.ep_fwd;
        ep_bwd += share * o.ep_bwd;
        ep_fwd_bytes += share * o.ep_fwd_bytes;
        ep_bwd_bytes += share * o.ep_bwd_bytes;
        wait_fwd += share * o.wait_fwd;
        wait_bwd += share * o.wait_bwd;
        cp_fwd += share * o.cp_fwd;
        cp_bwd += share * o.cp_bwd;
        cp_fwd_bytes += share * o.cp_fwd_bytes;
        cp_bwd_bytes += share * o.cp_bwd_bytes;
        tp_hidden += share * o.tp_hidden;
        ep_hidden += share * o.ep_hidden;
        cp_hidden += share * o.cp_hidden;
        return *this;
    }
};

/// A data-parallel collective of the step over the plan's data group.
struct StepCollective {
    CollectiveOp op = CollectiveOp::AllReduce;
    double bytes = 0;
    double time_s = 0; // 0 without a data-parallel group
};

/// A piece with the data-parallel collectives it takes part in.
struct StepPiece : Piece {
    StepCollective grad;   // the reduction of its gradients (all-reduce, or reduce-scatter)
    StepCollective gather; // ZeRO-3: its parameters, gathered before its forward and backward
};

/// One virtual stage (model chunk) of a pipeline stage.
struct StepChunk {
    std::vector<StepPiece> pieces; // forward order
    Piece total;                   // the pieces summed, per micro-batch
};

/// One pipeline stage: its chunks summed, its optimizer step and what follows it.
struct StepStage {
    Piece per_micro_batch;         // all its chunks, per micro-batch of the step
    double optimizer_s = 0;        // the update of its parameters (its shard under ZeRO)
    StepCollective param_gather;   // ZeRO-1/2: updated shards gathered after the update
    int sends_per_micro_batch = 0; // blocking pipeline sends (forward and backward)
};

struct StepDescription {
    int pipeline = 1, virtual_stages = 1;
    /// Which GPU each virtual stage is on and which micro-batches pass it.
    PipelineLayout layout;
    std::vector<StepChunk> chunks; // per virtual stage; chunk c of stage s is
                                   // layout.virtualStage(s, c)
    std::vector<StepStage> stages;
    /// Forward, input- and weight-gradient time of the mean chunk per micro-batch (critical
    /// path included): what zb-v's order is list-scheduled with.
    PassCosts pass_costs;

    // Data-parallel exchange.
    bool data_parallel = false; // more than one replica
    CollectiveOp grad_op = CollectiveOp::AllReduce;
    bool reduce_every_micro_batch = false; // ZeRO-2/3 (DeepSpeed); else once per step
    bool bucketed = false;                 // gradients reduced per bucket (pieces)
    bool overlap = true;                   // reductions start during the backward pass
    bool zero3 = false;                    // parameters gathered per piece (and data > 1)
    bool zero3_prefetch = true;            // one piece ahead of the compute that needs it
    bool param_gather = false;             // ZeRO-1/2 with data > 1
    bool sync = true;                      // synchronous updates

    // Pipeline sends: one micro-batch's activations (forward) or their gradients (backward).
    double send_s = 0, send_bytes = 0;

    /// What overlap hid of the tensor-parallel, expert and context exchanges (Piece's
    /// tp/ep/cp_hidden) per GPU and step, averaged over the stages: counted as communication
    /// by the engine and the closed form alike, on no stream.
    double tp_hidden_s = 0, ep_hidden_s = 0, cp_hidden_s = 0;

    // Effects.
    double loader_s = 0;  // one micro-batch from one GPU's loader; 0 = no loader effect
    int loader_depth = 0; // micro-batches the loader keeps ready ahead of the GPU
    /// Per GPU: the straggler factor on its compute; empty without stragglers (all 1), so
    /// a plan search or sweep over large clusters builds no per-GPU array.
    std::vector<double> slowdown;
    double max_slowdown = 1;
    double slowdownOf(int gpu) const
    {
        return slowdown.empty() ? 1.0 : slowdown[static_cast<size_t>(gpu)];
    }
    bool thermal_varies = false; // GPUs throttle at different times (else steady, in compute)
    double thermal_stretch = 1;  // compute on a throttled GPU: 1 / (1 - clock_drop)
    double jitter = 0;           // relative standard deviation of each compute task
    uint64_t seed = 1;
    /// Steps simulated before the measured ones (state carried from step to step).
    int warmup_steps = 0;
    /// The slowest stage's compute and tensor-parallel time over one step (thermal clock).
    double step_compute_s = 0;
};

/// Steps the engine runs before measuring when a step hands state to the next one (the
/// loader's prefetch queue, asynchronous updates). Both start empty in step 0 and are in
/// steady state after it: the loader is one serial producer at most loader_depth
/// micro-batches ahead of the GPU (it fills or stays empty within the first step), and
/// asynchronous compute never waits for the gradient exchange. The second step is a
/// margin; tst_engine (warmupReachesSteadyState) checks that more warm-up steps move the
/// measured step by less than 0.1%.
inline constexpr int kWarmupSteps = 2;

/// Derives the step of `ctx`'s plan (called once, by SimContext).
StepDescription describeStep(const SimContext &ctx);

} // namespace scalescope
