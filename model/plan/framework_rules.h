// Which software stack runs a plan (training.framework = "auto"), and which plans a named
// stack cannot run. The parser and the control panel both ask these functions; the panel
// renders the finding with tr(), the parser with frameworkMessage().
#pragma once

#include "hardware/framework.h"
#include "plan/error.h"
#include "plan/scenario.h"

#include <optional>
#include <string>

namespace scalescope
{

/// The stack that usually runs this plan (documented in docs/model.md, "Software stacks"):
/// asynchronous data parallelism -> tensorflow (parameter servers); ZeRO-2/3 with pipeline
/// parallelism -> torchtitan (FSDP2 + PP); tensor or pipeline parallelism -> megatron-lm;
/// ZeRO-2/3 alone -> pytorch-fsdp; otherwise pytorch-ddp.
std::string autoFrameworkId(const ParallelSpec &parallel);

/// The catalog id of the stack that runs `training` with `parallel`: the named one, or under
/// "auto" autoFrameworkId().
std::string stackIdFor(const TrainingSpec &training, const ParallelSpec &parallel);

/// Which of the keys a stack defaults the scenario itself set (they are kept).
struct StackKeysGiven {
    bool overlap = false;         // parallel.overlap
    bool bucket_mb = false;       // parallel.bucket_mb
    bool flash_attention = false; // training.flash_attention
};
/// Sets the keys not given to training.stack's defaults: what a file that leaves them out
/// means, and what choosing a stack in the window brings.
void applyStackDefaults(Scenario &scenario, StackKeysGiven given = {});

/// A plan that a named stack cannot run.
struct FrameworkFinding {
    enum class Kind { Tensor, Pipeline, Zero, ZeroWithPipeline, Async };
    Kind kind = Kind::Tensor;
    std::string key; // the plan key: "parallel.tensor", "parallel.zero", ...
    int value = 0;   // the degree or ZeRO stage asked for
    int allowed = 0; // the largest the stack runs (ZeRO stages), else 1
    int pipeline = 1;
    bool operator==(const FrameworkFinding &) const = default;
};

/// Why a named `framework` cannot run `parallel`, or nothing when it can. (Under "auto" the
/// stack is chosen to fit the plan; only asynchronous updates with model parallelism fit no
/// named stack, and auto lets the model show them.)
std::optional<FrameworkFinding> frameworkRejects(const FrameworkSpec &framework,
                                                 const ParallelSpec &parallel);

/// The finding in English, for the parser and the CLI: an InputError at training.framework.
InputError frameworkError(const FrameworkSpec &framework, const FrameworkFinding &finding);

} // namespace scalescope
