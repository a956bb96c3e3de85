// scalescope-cli's entry point (cli.h): the usage text, the table of commands, and the
// standard output written only when a command succeeds.
#include "cli/cli.h"

#include "cli/commands.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace scalescope::cli
{

namespace
{

const char *kUsage =
    "Usage:\n"
    "  scalescope-cli simulate [FILE] [--json] [--trace OUT.json] [--iterations N] [--layers]\n"
    "  scalescope-cli sweep FILE --gpus 1,2,4,8,... [--scaling strong|weak] [--csv|--json]\n"
    "  scalescope-cli plan FILE --gpus N [--top K] [--json]\n"
    "  scalescope-cli validate FILE\n"
    "  scalescope-cli catalog [gpus|links|models|frameworks] [--json]\n"
    "  scalescope-cli bench FILE [--repeat N] [--json]\n"
    "  scalescope-cli trace TRACE... [--scenario FILE] [--json] [--profile OUT.json]\n"
    "  scalescope-cli --version | --help\n"
    "\n"
    "simulate without FILE runs the built-in default scenario.\n"
    "trace reads PyTorch profiler (Kineto) traces, plain or .gz, one per rank.\n"
    "Exit codes: 0 success, 2 invalid input, 1 other failure.\n";

// Writes `text` to `out` and checks that it arrived: a full disk or a closed pipe is exit 1
// with a message on `err`, never a silent success.
int writeOut(const QByteArray &text, std::FILE *out, std::FILE *err)
{
    errno = 0;
    const size_t written = std::fwrite(text.constData(), 1, static_cast<size_t>(text.size()), out);
    const bool ok =
        written == static_cast<size_t>(text.size()) && std::fflush(out) == 0 && !std::ferror(out);
    if (ok)
        return kOk;
    const int saved = errno;
    std::fprintf(err, "scalescope-cli: cannot write the standard output: %s\n",
                 saved ? std::strerror(saved) : "write error");
    return kFailure;
}

} // namespace

// Where notes go (stderr of run()).
std::FILE *err_ = stderr;

int usage(Output &out)
{
    out.text += kUsage;
    return kOk;
}

int run(const QStringList &argv, std::FILE *out, std::FILE *err)
{
    if (argv.isEmpty()) {
        std::fputs(kUsage, err);
        return kInvalidInput;
    }
    const QString command = argv.first();
    if (command == QStringLiteral("--help") || command == QStringLiteral("-h"))
        return writeOut(kUsage, out, err);
    if (command == QStringLiteral("--version"))
        return writeOut(
            QByteArrayLiteral("scalescope-cli " SCALESCOPE_VERSION " (cli version 1)\n"), out, err);
    err_ = err;
    const QStringList rest = argv.mid(1);
    Output output;
    Failure failure;
    using Command = int (*)(const QStringList &, Output &, Failure *);
    static const std::pair<const char *, Command> kCommands[] = {
        {"simulate", cmdSimulate}, {"sweep", cmdSweep},     {"plan", cmdPlan},
        {"validate", cmdValidate}, {"catalog", cmdCatalog}, {"bench", cmdBench},
        {"trace", cmdTrace},
    };
    int code = kInvalidInput;
    failure = {kInvalidInput, QStringLiteral("unknown command \"%1\"; allowed: simulate, sweep, "
                                             "plan, validate, catalog, bench, trace, --help, --version")
                                  .arg(command)};
    for (const auto &[name, run_command] : kCommands) {
        if (command == QLatin1String(name)) {
            failure = {};
            code = run_command(rest, output, &failure);
        }
    }
    if (code != kOk || failure.code != kOk) {
        std::fprintf(err, "scalescope-cli: %s\n", printable(failure.message).toUtf8().constData());
        return failure.code != kOk ? failure.code : code;
    }
    return writeOut(output.text, out, err);
}

} // namespace scalescope::cli
