#include "analysis/step_evaluation.h"

namespace scalescope
{

Result<StepEvaluation> evaluateStep(const SimContext &ctx, const SimOptions &options)
{
    StepEvaluation e;
    e.sim = simulate(ctx, options);
    if (e.sim.ok) {
        e.summary = summarize(ctx, e.sim);
        return e;
    }
    if (e.sim.too_large) {
        e.closed_form = true;
        e.note = e.sim.error;
        e.summary = analyticSummary(ctx);
        return e;
    }
    if (e.sim.cancelled)
        return InputError{"", kCancelledMessage};
    return InputError{"", "the simulation failed: " + e.sim.error};
}

} // namespace scalescope
