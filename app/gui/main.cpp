// scalescope: the desktop application.
#include "app.h"

#include <QApplication>
#include <QIcon>

#include <cstdio>

int main(int argc, char *argv[])
{
    QApplication qapp(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ScaleScope"));
    QApplication::setApplicationName(QStringLiteral("ScaleScope"));
    QApplication::setApplicationVersion(QStringLiteral(SCALESCOPE_VERSION));

    scalescope::AppOptions options;
    QString error, message;
    bool exit_now = false;
    if (!scalescope::parseOptions(QApplication::arguments(), &options, &error, &exit_now,
                                  &message)) {
        std::fprintf(stderr, "scalescope: %s\n", qPrintable(error));
        return 2;
    }
    if (exit_now) {
        std::fputs(qPrintable(message), stdout);
        return 0;
    }
    scalescope::Application app(options);
    const int code = app.start();
    if (code >= 0)
        return code;
    return QApplication::exec();
}
