// One evaluation policy for every caller (GUI, CLI, sweep): the event engine answers; a task
// graph beyond the engine's limit is answered by the closed form, and says so; a failure of
// the engine (a deadlock in the schedule, an internal error) is an error the user sees,
// never replaced by other numbers. (The planner ranks thousands of plans with the closed
// form by design: analysis/planner.h.)
#pragma once

#include "analysis/summary.h"
#include "plan/error.h"
#include "sim/simulator.h"

#include <string>

namespace scalescope
{

struct StepEvaluation {
    Summary summary;
    SimResult sim;            // the engine's result (timeline, ...); empty with closed_form
    bool closed_form = false; // the engine's graph was over its limit: the closed form answered
    std::string note;         // why the closed form answered (the engine's words)
};

/// The message of an evaluation abandoned through SimOptions::cancel.
inline constexpr const char *kCancelledMessage = "cancelled";
inline bool isCancelled(const InputError &e)
{
    return e.path.empty() && e.message == kCancelledMessage;
}

/// Simulates one step of `ctx` under `options` with the policy above. An engine failure is
/// an InputError with an empty key path and the engine's message.
Result<StepEvaluation> evaluateStep(const SimContext &ctx, const SimOptions &options);

} // namespace scalescope
