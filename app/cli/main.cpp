#include "cli/cli.h"
#include "io/file_io.h"
#include "sim/simulator.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    scalescope::keepHeapBetweenRuns(); // sweeps and plans evaluate many contexts in turn
    QCoreApplication::setApplicationName(QStringLiteral("scalescope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCALESCOPE_VERSION));
    // The arguments with their bytes kept: QCoreApplication::arguments() turns a byte
    // that is not UTF-8 into U+FFFD, so that `--trace tr<FF>.json` wrote another file.
    // QCoreApplication has already taken its own options out of argv.
    return scalescope::cli::run(scalescope::decodeArguments(argc, argv), stdout, stderr);
}
