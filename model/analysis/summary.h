// Metrics of a scenario (spec/cli.md "simulate --json"): from the event simulation, or from
// the fast analytic path used by sweeps and interactive previews.
#pragma once

#include "analysis/memory.h"
#include "analysis/track_record.h"
#include "plan/error.h"
#include "sim/simulator.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace scalescope
{

/// What limits a step most (Bottleneck::kind).
enum class BottleneckKind : uint8_t {
    NothingToSimulate, // no step to measure
    ComputeBound,      // no loss reaches 10% of the step
    DpExchange,        // the data-parallel gradient exchange is exposed
    TpAllReduce,       // tensor-parallel all-reduces on the critical path
    PipelineBubble,    // idle pipeline stages
    Synchronisation,   // waiting for the slowest GPU
    DataLoader,        // the data loader starves the GPUs
    PipelineSends,     // blocking sends between pipeline stages
    HostBound,         // no loss reaches 10%, and the host's issuing sets most of the compute
    ExpertAllToAll,    // expert dispatch and combine on the critical path
    ContextExchange,   // the context-parallel attention exchange on the critical path
    ExpertImbalance,   // waiting for the busiest expert
};

/// The losses of a step beside computing; a compute-bound step names its largest.
enum class StepLoss : uint8_t {
    DpExchange,
    TpAllReduces,
    PipelineBubble,
    SlowestGpu,
    DataLoading,
    PipelineSends,
    ExpertAllToAll,
    ContextExchange,
    ExpertImbalance,
};

/// The bottleneck as a record: its kind, the figures its sentence names, and the sentences
/// that follow it. bottleneckText() writes it in English (the CLI); the GUI in
/// its language (views/model_text.h).
struct Bottleneck {
    BottleneckKind kind = BottleneckKind::NothingToSimulate;
    /// Share of the step of the loss the kind names; ComputeBound: of the largest loss.
    double share = 0;
    double compute_share = 0;             // ComputeBound
    double mfu = 0;                       // ComputeBound, HostBound
    /// HostBound: the share of the compute time that is the host issuing operations, the
    /// stack's host time per operation and its name.
    double host_share = 0;
    double host_op_us = 0;
    std::string stack;
    std::optional<StepLoss> largest_loss; // ComputeBound: named from 2% of the step
    std::string link;                     // DpExchange, TpAllReduce: the link's name
    /// DpExchange, TpAllReduce inside a node: GPUs without peer-to-peer stage the traffic
    /// through host memory (comm/collective.h, hostStagedFlowBandwidth).
    bool host_staged = false;
    /// ExpertAllToAll: the remedies the run already uses, left out of the advice (the
    /// experts' all-to-all overlapped, a per-node dispatcher, the expert group inside one
    /// NVLink domain).
    bool expert_overlap = false, per_node_dispatch = false, experts_in_domain = false;
    int64_t micro_batches = 0;            // PipelineBubble
    int stages = 0;                       // PipelineBubble
    /// Synchronisation: what GPUs wait for most, when it names a GPU (LabelKind::WaitForGpu).
    std::optional<SegmentLabel> main_wait;

    struct Thermal {
        int throttled_gpus = 0; // of `gpus`; all of them: "The GPUs run hot"
        int gpus = 0;
        int throttle_above_c = 0;
        double clock_drop = 0;
    };
    struct VirtualGpu {
        double fraction = 0; // of a physical GPU
        double full_gpu_equivalents = 0;
    };
    struct OutOfMemory {
        double total_bytes = 0; // per GPU
        double capacity_bytes = 0;
        /// Nearer the capacity than the model's memory error (MemoryBreakdown::
        /// verdictWithinError): the sentences say it may not fit, as the memory line does.
        bool within_error = false;
        /// One change of the plan that makes it fit, the fastest of those tried
        /// (analysis/memory_remedy.h); None where none of them does.
        enum class Remedy : uint8_t {
            None,
            SelectiveRecompute, // training.recompute selective
            UpProjections,      // ...with recompute_modules mla_up_proj (Megatron-Core, MLA)
            FullRecompute,      // training.recompute full
            ZeroStage,          // parallel.zero = remedy_value
            MicroBatch,         // training.micro_batch = remedy_value
        };
        Remedy remedy = Remedy::None;
        int64_t remedy_value = 0;
        double remedy_total_bytes = 0; // per GPU with the change (what simulate prints)
        /// What the sentences say it fits in: the total, or where the caching allocator's
        /// reserve gave way near the capacity (MemoryBreakdown::reserve_limited), the tensors.
        double remedy_need_bytes = 0;
        double remedy_step_time_s = 0;
        double step_time_s = 0; // the closed form's without it (what the change is weighed against)
    };
    // Sentences after the main one, in this order.
    std::optional<Thermal> thermal;
    std::optional<VirtualGpu> virtual_gpu;
    std::optional<OutOfMemory> out_of_memory;
};

/// How the bottleneck sentences write their numbers, in English and in the GUI alike (the
/// same under every locale: analysis/format.h).
std::string bottleneckPercent(double fraction); // 0.623 -> "62" (the "%" is the sentence's)
/// How a memory remedy's step compares with the step that does not fit: 0 (the same to the
/// whole percent), 1 longer, -1 shorter; `delta` = remedy / step - 1 (remedyStepChange).
int remedyCostSign(double delta);
/// MFU as the status bar writes it, one decimal: 0.0549 -> "5.5" (not "5" beside "5.5%").
std::string bottleneckMfuPercent(double fraction);
std::string bottleneckGiB(double bytes);        // 95.1 x 2^30 -> "95.1" (" GiB" is the sentence's)
std::string bottleneckNumber(double x);         // two significant digits: 123 -> "1.2e+02"

struct Summary {
    int gpus = 1;
    double step_time_s = 0;
    double samples_per_s = 0;
    double tokens_per_s = 0; // 0 for models without tokens
    double model_flops_per_step = 0;
    double hardware_flops_per_step = 0;
    double model_tflops_per_gpu = 0;
    double hardware_tflops_per_gpu = 0;
    double mfu = 0;
    double speedup = 0;
    double scaling_efficiency = 0;
    double single_gpu_step_s = 0; // the reference of speedup
    /// A jittered engine run: the calm one-GPU run its reference stretched (a sweep's other
    /// counts share it); step_s < 0 otherwise.
    SimContext::CalmReference single_gpu_calm;
    Breakdown breakdown;
    MemoryBreakdown memory;
    Bottleneck bottleneck; // bottleneckText() writes it in English, the GUI in its language
    /// The wait that dominates, when known (event simulation; labelText() writes it).
    std::optional<SegmentLabel> main_wait;
    /// The kind of run, for the model's track record on published runs of that kind
    /// (analysis/track_record.h); none for a custom model.
    std::optional<RunKind> run_kind;
    double staleness_steps = 0;
    bool is_transformer = false;
    // Effects (issue 5); zero or -1 where the effect is absent.
    double single_gpu_optimizer_s = 0;    // optimizer part of single_gpu_step_s
    int throttled_gpus = 0;               // thermal: GPUs throttling in the measured steps
    double first_throttle_s = -1;         // seconds of load until the first GPU throttles
    double max_temperature_c = 0;         // hottest GPU at the end of the measured steps
    double full_gpu_equivalents = 0;      // virtual GPUs: whole physical GPUs this runs like
    double data_supply_samples_per_s = 0; // loaders of all GPUs together
    double data_demand_samples_per_s = 0; // what the GPUs would consume unstarved
    double goodput = 1;                   // failures: useful share of wall time
    double checkpoint_interval_s = 0;     // failures: interval used (optimum unless given)
};

struct CollectiveSummary {
    int gpus = 1;
    CollectiveOp op = CollectiveOp::AllReduce;
    double bytes = 0;
    CollectiveCost cost;
};

/// Validates the plan and derives the simulation context.
/// `single_gpu_step_s`: the speed-up reference when the caller already knows it (a sweep's
/// counts share it); < 0: computed when a summary needs it.
/// `calm`: a jittered job's calm one-GPU reference when the caller has it (SimContext).
Result<std::shared_ptr<const SimContext>> makeContext(const Scenario &scenario,
                                                      double single_gpu_step_s = -1,
                                                      SimContext::CalmReference calm = {});

/// Step time of the speed-up reference (spec/cli.md): the same global batch on one GPU of
/// the same kind, no communication, memory ignored, under the effects every GPU has but not
/// the per-GPU ones (stragglers, hot spots); closed form.
double singleGpuStepTime(const SimContext &ctx);
/// The same reference simulated by the engine (what summarize() compares an engine run with).
/// With jitter its tasks are stretched by `jitter_mean`, the job's own mean draw
/// (SimResult::jitter_mean; 0: the draws' expectation).
/// `calm_used`: the calm run a jittered reference stretched (for others to share).
double simulatedSingleGpuStepTime(const SimContext &ctx, double jitter_mean = 0,
                                  SimContext::CalmReference *calm_used = nullptr);
/// A jittered job's one-GPU reference simulated without its draws (ctx.single_gpu_calm when
/// known); step_s < 0 when the engine cannot run it.
SimContext::CalmReference calmSingleGpuReference(const SimContext &ctx);

/// Metrics from an event simulation.
Summary summarize(const SimContext &ctx, const SimResult &sim);
/// Metrics from closed-form pipeline/overlap formulas (no per-rank effects other than a
/// slowest-GPU factor); agrees with the simulation within a few percent on effect-free
/// scenarios (tested), and costs microseconds.
Summary analyticSummary(const SimContext &ctx);

/// The collective of a collective-only scenario. An algorithm that cannot run there falls
/// back to the ring; checkCollective reports it instead.
CollectiveSummary simulateCollective(const Scenario &scenario);
/// Rejects a requested algorithm that cannot run on this hardware ("collective.algorithm").
Result<bool> checkCollective(const Scenario &scenario);

/// A memory remedy's step over the step that does not fit, minus 1.
double remedyStepChange(const Bottleneck::OutOfMemory &m);

/// What limits this step most, as a record.
Bottleneck bottleneckOf(const SimContext &ctx, const Summary &s);
/// The record in English: one short sentence, then the ones that follow it.
std::string bottleneckText(const Bottleneck &b);

} // namespace scalescope
