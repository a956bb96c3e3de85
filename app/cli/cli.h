// scalescope-cli (spec/cli.md): command-line parsing and the commands.
#pragma once

#include <QStringList>

#include <cstdio>

namespace scalescope::cli
{

/// Exit codes of spec/cli.md.
enum ExitCode { kOk = 0, kFailure = 1, kInvalidInput = 2 };

/// Runs the program with `args` (without the program name); writes results to `out` and
/// messages to `err`. Nothing is written to `out` when the result is an error.
int run(const QStringList &args, std::FILE *out, std::FILE *err);

} // namespace scalescope::cli
