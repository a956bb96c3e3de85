// scalescope: the desktop application.
#include "app.h"
#include "io/catalog_io.h"
#include "io/file_io.h"
#include "plain_message.h"

#include <QApplication>
#include <QIcon>
#include <QMessageBox>

#include <cstdio>
#include <cstring>

namespace
{

void nameTheApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("ScaleScope"));
    QCoreApplication::setApplicationName(QStringLiteral("ScaleScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCALESCOPE_VERSION));
}

/// --help and --version print text and need no display: QApplication aborts where none is
/// (an SSH session, CI), so they are answered before one is made.
bool asksForTextOnly(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i)
        for (const char *option : {"-h", "--help", "--help-all", "-?", "-v", "--version"})
            if (std::strcmp(argv[i], option) == 0)
                return true;
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    if (asksForTextOnly(argc, argv)) {
        QCoreApplication core(argc, argv);
        nameTheApplication();
        scalescope::AppOptions options;
        QString error, message;
        bool exit_now = false;
        if (!scalescope::parseOptions(scalescope::decodeArguments(argc, argv, 0), &options,
                                      &error, &exit_now, &message)) {
            std::fprintf(stderr, "scalescope: %s\n", qPrintable(error));
            return 2;
        }
        std::fputs(qPrintable(message), stdout);
        return 0;
    }
    QApplication qapp(argc, argv);
    nameTheApplication();
    // The desktop entry's id (installer/linux): Wayland compositors match windows to it.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.scalescope.ScaleScope"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/scalescope.svg")));

    scalescope::AppOptions options;
    QString error, message;
    bool exit_now = false;
    // argv with its bytes kept (QApplication::arguments() makes a byte that is not UTF-8
    // U+FFFD, so that FILE named another file); QApplication took its own options out.
    if (!scalescope::parseOptions(scalescope::decodeArguments(argc, argv, 0), &options, &error,
                                  &exit_now, &message)) {
        std::fprintf(stderr, "scalescope: %s\n", qPrintable(error));
        return 2;
    }
    if (exit_now) {
        std::fputs(qPrintable(message), stdout);
        return 0;
    }
    // A damaged or missing installed catalog: say which file, before any window opens.
    if (const auto catalog_error = scalescope::builtinCatalogError()) {
        const QString text = QStringLiteral("The catalog cannot be loaded: %1")
                                 .arg(QString::fromStdString(catalog_error->toString()));
        std::fprintf(stderr, "scalescope: %s\n", qPrintable(text));
        if (options.screenshot.isEmpty() &&
            QGuiApplication::platformName() != QLatin1String("offscreen"))
            scalescope::plainMessage(nullptr, QMessageBox::Critical, QStringLiteral("ScaleScope"),
                                     text);
        return 1;
    }
    scalescope::Application app(options);
    const int code = app.start();
    if (code >= 0)
        return code;
    return QApplication::exec();
}
