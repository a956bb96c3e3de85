#include "cli/cli.h"

#include <QCoreApplication>

#include <clocale>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    // QCoreApplication sets the C locale from the environment; the CLI's output is for
    // machines and must be the same under every locale ("0.5", never "0,5"), including
    // numbers that the model formats with the printf family.
    std::setlocale(LC_NUMERIC, "C");
    QCoreApplication::setApplicationName(QStringLiteral("scalescope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCALESCOPE_VERSION));
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    return scalescope::cli::run(args, stdout, stderr);
}
