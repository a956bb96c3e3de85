// The scalescope-cli commands, one file each (simulate_command.cpp, sweep_command.cpp, ...),
// and the helpers several of them share (command_support.cpp); internal to app/cli.
#pragma once

#include "cli/command.h"

#include "plan/error.h"
#include "plan/scenario.h"

#include <QString>
#include <QStringList>

#include <cstdio>
#include <memory>
#include <optional>

namespace scalescope
{
struct SimContext;
}

namespace scalescope::cli
{

/// Where notes go (stderr of run()).
extern std::FILE *err_;

/// `option`'s value `text` as a whole number from `lo` to `hi`; std::nullopt with `failure`
/// set (exit 2) otherwise.
std::optional<int> parseCount(const QString &option, const QString &text, int lo, int hi,
                              Failure *failure);
/// The scenario in `path` (the built-in default when empty), parsed and checked.
std::optional<Scenario> loadScenario(const QString &path, Failure *failure);
/// The command's FILE argument (Args::scenarioFile), loaded with loadScenario().
std::optional<Scenario> scenarioArgument(const Args &args, const QString &command, bool required,
                                         Failure *failure);
/// `option`'s value as a count from `lo` to `hi` (parseCount), or `fallback` where the
/// option is not given.
std::optional<int> countOption(const Args &args, const char *option, int lo, int hi, int fallback,
                               Failure *failure);
/// A model error as the CLI says it: the requested-GPU-count path (analysis/sweep.h) named
/// as the --gpus option.
QString modelErrorText(const InputError &error);
/// The scenario's simulation context; nullptr with `failure` set (exit 2) where it cannot
/// be made.
/// Prints the rule table's warnings about `s` (plan/rules.h: a combination that runs but does
/// little, or hardware that cannot exist) on stderr, "scalescope-cli: warning: PATH: ...".
void printRuleWarnings(const Scenario &s);
std::shared_ptr<const SimContext> contextOf(const Scenario &s, Failure *failure);

QString fmt(double v, int prec = 3);
QString fixed(double v, int decimals);
/// "1.500 s", "12.34 ms", "56.7 us".
QString humanTime(double s);

/// `simulate [FILE] [--json] [--trace OUT.json] [--iterations N] [--layers]`
/// (simulate_command.cpp).
int cmdSimulate(const QStringList &argv, Output &out, Failure *failure);
/// `sweep FILE --gpus 1,2,4,8,... [--scaling strong|weak] [--csv|--json]` (sweep_command.cpp).
int cmdSweep(const QStringList &argv, Output &out, Failure *failure);
/// `plan FILE --gpus N [--top K] [--json]` (plan_command.cpp).
int cmdPlan(const QStringList &argv, Output &out, Failure *failure);
/// `validate FILE` (validate_command.cpp).
int cmdValidate(const QStringList &argv, Output &out, Failure *failure);
/// `bench FILE [--repeat N] [--json]` (bench_command.cpp).
int cmdBench(const QStringList &argv, Output &out, Failure *failure);
/// `trace TRACE... [--scenario FILE] [--json] [--profile OUT.json]` (trace_command.cpp).
int cmdTrace(const QStringList &argv, Output &out, Failure *failure);

} // namespace scalescope::cli
