// scalescope-cli validate FILE: parses and checks a scenario; "ok" with its GPU count.
#include "cli/commands.h"

namespace scalescope::cli
{

int cmdValidate(const QStringList &argv, Output &out, Failure *failure)
{
    const QString command = QStringLiteral("validate");
    const auto args = Args::parse(command, argv, {}, failure);
    if (!args)
        return failure->code;
    if (args->help())
        return usage(out);
    const auto scenario = scenarioArgument(*args, command, true, failure);
    if (!scenario)
        return failure->code;
    if (!scenario->isCollective() && !contextOf(*scenario, failure))
        return failure->code;
    printRuleWarnings(*scenario);
    out.line(QStringLiteral("ok: %1 (%2 GPUs)")
                 .arg(QString::fromStdString(scenario->name))
                 .arg(scenario->hardware.gpuCount()));
    return kOk;
}

} // namespace scalescope::cli
