#include "cli/cli.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("scalescope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCALESCOPE_VERSION));
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    return scalescope::cli::run(args, stdout, stderr);
}
