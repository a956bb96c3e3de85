#include "options.h"

#include "io/file_io.h"
#include <QCommandLineParser>
#include <QCoreApplication>

#include <QRegularExpression>

#include <sys/stat.h>

namespace scalescope
{

QStringList tabNames()
{
    return {QStringLiteral("timeline"), QStringLiteral("scaling"), QStringLiteral("breakdown"),
            QStringLiteral("memory"),   QStringLiteral("cost"),    QStringLiteral("calibration"),
            QStringLiteral("compare"),  QStringLiteral("measured")};
}

bool parseOptions(const QStringList &arguments, AppOptions *options, QString *error, bool *exit_now,
                  QString *message)
{
    *exit_now = false;
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "Options", "ScaleScope: why more GPUs do not make training proportionally faster."));
    const QCommandLineOption help_option = parser.addHelpOption();
    const QCommandLineOption version_option = parser.addVersionOption();
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("Options", "Render the window to a PNG file and exit."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QCoreApplication::translate("Options", "Tab to show: %1.")
                                     .arg(tabNames().join(QStringLiteral(", "))),
                                 QStringLiteral("NAME"));
    const QCommandLineOption lang(
        QStringLiteral("lang"),
        QCoreApplication::translate("Options", "Language: en or zh_CN (default: settings, "
                                               "then the system locale)."),
        QStringLiteral("LANG"));
    const QCommandLineOption size(
        QStringLiteral("size"),
        QCoreApplication::translate("Options", "Window size, e.g. 1600x1000."),
        QStringLiteral("WxH"));
    const QCommandLineOption present(
        QStringLiteral("present"),
        QCoreApplication::translate("Options", "Start in presentation mode (F5)."));
    const QCommandLineOption settings(
        QStringLiteral("settings"),
        QCoreApplication::translate("Options", "Use this settings file (ini) instead of the "
                                               "user's settings."),
        QStringLiteral("FILE"));
    const QCommandLineOption no_restore(
        QStringLiteral("no-restore"),
        QCoreApplication::translate("Options", "Do not offer to restore unsaved work."));
    const QCommandLineOption trace(
        QStringLiteral("trace"),
        QCoreApplication::translate("Options",
                                    "Open a PyTorch profiler trace (.json or .json.gz) as the "
                                    "measured run beside the scenario; repeat it for each rank."),
        QStringLiteral("TRACE"));
    QCommandLineOption test_save_loop(
        QStringLiteral("test-save-loop"),
        QStringLiteral("Test hook: edit, autosave and save FILE in a loop until killed."));
    test_save_loop.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions(
        {screenshot, tab, lang, size, present, settings, no_restore, trace, test_save_loop});
    parser.addPositionalArgument(
        QStringLiteral("FILE"),
        QCoreApplication::translate("Options", "Scenario file to open (spec/scenario.md)."));

    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return false;
    }
    if (parser.isSet(help_option)) {
        *message = parser.helpText();
        *exit_now = true;
        return true;
    }
    if (parser.isSet(version_option)) {
        *message = QCoreApplication::applicationName() + QLatin1Char(' ') +
                   QCoreApplication::applicationVersion() + QLatin1Char('\n');
        *exit_now = true;
        return true;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        *error = QCoreApplication::translate("Options", "FILE: at most one scenario file, got %1")
                     .arg(positional.size());
        return false;
    }
    if (!positional.isEmpty())
        options->file = positional.front();
    options->traces = parser.values(trace);
    if (options->traces.contains(QString())) {
        *error = QCoreApplication::translate("Options", "--trace: a file name is needed");
        return false;
    }
    options->screenshot = parser.value(screenshot);
    if (parser.isSet(screenshot) && options->screenshot.isEmpty()) {
        *error = QCoreApplication::translate("Options", "--screenshot: a file name is needed");
        return false;
    }
    if (parser.isSet(tab)) {
        options->tab = parser.value(tab);
        if (!tabNames().contains(options->tab)) {
            *error = QCoreApplication::translate("Options", "--tab: '%1' is not one of %2")
                         .arg(options->tab, tabNames().join(QStringLiteral(", ")));
            return false;
        }
    }
    if (parser.isSet(lang)) {
        options->language = parser.value(lang);
        if (options->language != QLatin1String("en") &&
            options->language != QLatin1String("zh_CN")) {
            *error = QCoreApplication::translate("Options", "--lang: '%1' is not en or zh_CN")
                         .arg(options->language);
            return false;
        }
    }
    if (parser.isSet(size)) {
        static const QRegularExpression re(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
        const auto m = re.match(parser.value(size));
        const int w = m.hasMatch() ? m.captured(1).toInt() : 0;
        const int h = m.hasMatch() ? m.captured(2).toInt() : 0;
        if (w < 320 || h < 240 || w > 7680 || h > 4320) {
            *error = QCoreApplication::translate(
                         "Options", "--size: '%1' is not WxH with 320-7680 x 240-4320 pixels")
                         .arg(parser.value(size));
            return false;
        }
        options->size = QSize(w, h);
    }
    options->present = parser.isSet(present);
    options->settings_file = parser.value(settings);
    // QSettings writes a new file and renames it over the old one: over /dev/null (as
    // root) or a FIFO that would put a regular file in its place. Only a regular file (or a
    // symlink to one) or a name that does not exist yet.
    struct stat st = {};
    if (!options->settings_file.isEmpty() &&
        ::stat(encodeFileName(options->settings_file).constData(), &st) == 0 &&
        !S_ISREG(st.st_mode)) {
        *error = QCoreApplication::translate("Options", "--settings: '%1' is not a regular file; "
                                                        "allowed: a settings file or a new name")
                     .arg(options->settings_file);
        return false;
    }
    options->no_restore = parser.isSet(no_restore);
    options->test_save_loop = parser.isSet(test_save_loop);
    if (options->test_save_loop && (options->file.isEmpty() || !options->screenshot.isEmpty())) {
        *error = QStringLiteral("--test-save-loop: needs FILE and no --screenshot");
        return false;
    }
    return true;
}

} // namespace scalescope
