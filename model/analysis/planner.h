// Plan search: enumerates data/tensor/pipeline degrees, ZeRO stage, micro-batch, schedule
// and recompute for a GPU count, drops plans that do not fit in memory, and ranks the rest
// by predicted step time (analytic path). Safe to run in a worker thread: it reads only its
// arguments, reports progress and stops when the cancel flag is set.
#pragma once

#include "analysis/summary.h"

#include <atomic>
#include <functional>
#include <vector>

namespace scalescope
{

struct PlanCandidate {
    ParallelSpec parallel; // data, tensor, pipeline, zero, schedule, virtual_stages, ...
    int64_t micro_batch = 1;
    Recompute recompute = Recompute::None;
    /// Under selective recompute, the modules it rebuilds (training.recompute_modules): the
    /// scenario's own, or Megatron-Core's `mla_up_proj` added for a multi-head latent
    /// attention model; 0 otherwise.
    unsigned recompute_modules = 0;
    double step_time_s = 0;
    double samples_per_s = 0;
    double mfu = 0;
    double memory_bytes = 0;   // most loaded GPU
    double capacity_bytes = 0; // per GPU
    Bottleneck bottleneck;
    /// The software stack that runs it (stackOf, plan/framework_rules.h): under "auto" the
    /// one that usually runs this plan, as the plan gets it once applied.
    std::string stack;
    /// The figures are the event engine's (PlanSearchOptions::engine_check), as the plan
    /// gets them once applied; false: the closed form's.
    bool simulated = false;
};

struct PlanSearchOptions {
    int gpus = 1;
    int top_k = 10;
    /// Called with the fraction done (0..1) now and then; may be empty.
    std::function<void(double)> progress;
    /// Set from another thread to stop early; may be null.
    const std::atomic<bool> *cancel = nullptr;
    /// Re-evaluates the best plans with the event engine under the one evaluation policy
    /// (analysis/step_evaluation.h) and ranks them by its step time, so that the figures shown are
    /// those a plan gets once applied; a plan over engine_max_tasks keeps the closed form's
    /// figures. Off: the closed form ranks and answers alone (thousands of plans a second).
    bool engine_check = false;
    size_t engine_max_tasks = 1'000'000;
};

struct PlanSearchResult {
    std::vector<PlanCandidate> best; // fastest first, at most top_k
    size_t considered = 0;           // combinations enumerated
    size_t evaluated = 0;            // step times computed (fitting plans)
    size_t out_of_memory = 0;        // dropped for memory
    bool cancelled = false;
};

/// Searches plans for `base` (its hardware, model, global batch and precision; its parallel
/// plan is replaced) on `options.gpus` GPUs (nodes scaled as in a sweep). Errors name
/// `--gpus` when the count does not fit the cluster shape.
Result<PlanSearchResult> searchPlans(const Scenario &base, const PlanSearchOptions &options);

/// The scenario with a candidate's plan applied.
Scenario applyCandidate(const Scenario &base, int gpus, const PlanCandidate &candidate);

} // namespace scalescope
