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
/// parallelism -> torchtitan (FSDP2 + PP); context or expert parallelism -> megatron-core
/// (torchtitan with ZeRO-2/3); tensor or pipeline parallelism -> megatron-lm;
/// ZeRO-2/3 alone -> pytorch-fsdp; otherwise pytorch-ddp.
std::string autoFrameworkId(const ParallelSpec &parallel);

/// The catalog id of the stack that runs `training` with `parallel`: the named one, or under
/// "auto" autoFrameworkId().
std::string stackIdFor(const TrainingSpec &training, const ParallelSpec &parallel);

/// The one resolution of the software stack (DESIGN.md: one stack resolution per plan,
/// nothing derived cached in the input): the catalog entry stackIdFor() names in
/// scenario.stacks; a table without it (a test catalog, or an id the parser refused) gives
/// the model's generic stack under that id. makePlan(), the control panel and the planner
/// all ask it, so the same plan gets the same stack from every caller.
FrameworkSpec stackOf(const Scenario &scenario);

/// The keys a stack defaults (unset in the scenario: the stack's value), as makePlan and the
/// window read them.
bool overlapOf(const Scenario &scenario, const FrameworkSpec &stack);
double bucketMbOf(const Scenario &scenario, const FrameworkSpec &stack);
bool flashAttentionOf(const Scenario &scenario, const FrameworkSpec &stack);

/// A plan that a named stack cannot run.
struct FrameworkFinding {
    enum class Kind { Tensor, Pipeline, Zero, ZeroWithPipeline, Async, Context, Expert };
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
