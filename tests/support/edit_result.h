// Hand-made results for tests: the window's results hold the model's evaluation as shared and
// immutable (views/result.h); a test that builds or alters one fills in its own copy.
#pragma once

#include "result.h"

#include <memory>

namespace scalescope::test
{

/// The evaluation of `r`, to fill in: a fresh copy (never the one another result shares).
inline ScenarioEvaluation &editEvaluation(ScenarioResult &r)
{
    auto copy = r.evaluation ? std::make_shared<ScenarioEvaluation>(*r.evaluation)
                             : std::make_shared<ScenarioEvaluation>();
    r.evaluation = copy;
    return *copy;
}

} // namespace scalescope::test
