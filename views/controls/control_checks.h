// Local checks of a scenario for the control panel: impossible or doubtful combinations,
// explained beside the control that owns them (never silently corrected).
#pragma once

#include "plan/scenario.h"

#include <QList>
#include <QString>

namespace scalescope
{

struct ControlIssue {
    enum class Severity { Warning, Error };
    QString key_path; // the scenario key the issue belongs to ("parallel", "training.micro_batch")
    QString message;  // translated, names the values involved
    Severity severity = Severity::Error;
};

/// Checks what the panel can see at once, without building a plan: the degrees against the GPU
/// count, batch divisibility, schedule and stage rules, precision support, effects indices.
/// The model's own validation (makeContext) stays the authority; this is immediate feedback.
QList<ControlIssue> checkScenario(const Scenario &scenario);

/// Layers of a model as the pipeline splits them (transformer layers, table rows, custom).
int64_t modelLayers(const ModelSpec &model);

} // namespace scalescope
