// The rule table's findings (plan/rules.h) for the control panel: impossible or doubtful
// combinations, explained in the reader's language beside the control that owns them (never
// silently corrected). The panel decides nothing itself.
#pragma once

#include "plan/rules.h"
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
    RuleFinding finding; // the record it renders
};

/// Every finding of checkRules(scenario), translated: the panel shows an error exactly when
/// the scenario's file would be refused.
QList<ControlIssue> checkScenario(const Scenario &scenario);

} // namespace scalescope
