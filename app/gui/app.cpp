#include "app.h"

#include "controls/control_checks.h"
#include "io/catalog_io.h"
#include "io/data_dir.h"
#include "io/file_io.h"
#include "io/scenario_io.h"
#include "main_window.h"
#include "plain_message.h"

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>

namespace scalescope
{

namespace
{
constexpr int kScreenshotTimeoutMs = 120000;

void printError(const QString &message)
{
    std::fprintf(stderr, "scalescope: %s\n", qPrintable(message));
}
} // namespace

Application::Application(const AppOptions &options, QObject *parent)
    : QObject(parent), options_(options)
{
    qRegisterMetaType<ResultPtr>("scalescope::ResultPtr");
    settings_ = options_.settings_file.isEmpty()
                    ? std::make_unique<QSettings>()
                    : std::make_unique<QSettings>(options_.settings_file, QSettings::IniFormat);
    language_ = chooseLanguage(options_.language, *settings_);
    installTranslators(language_);
    QString error;
    gallery_ = loadBuiltinGallery(&error);
    if (!error.isEmpty())
        printError(tr("the claims gallery could not be loaded: %1").arg(error));
    if (options_.screenshot.isEmpty())
        autosave_ = std::make_unique<AutosaveStore>();
}

Application::~Application()
{
    retired_window_.reset();
    window_.reset();
}

QString Application::chooseLanguage(const QString &option, const QSettings &settings)
{
    if (!option.isEmpty())
        return option;
    const QString saved = settings.value(QStringLiteral("language")).toString();
    if (saved == QLatin1String("en") || saved == QLatin1String("zh_CN"))
        return saved;
    return QLocale::system().language() == QLocale::Chinese ? QStringLiteral("zh_CN")
                                                            : QStringLiteral("en");
}

std::vector<GalleryEntry> Application::loadBuiltinGallery(QString *error)
{
    // The data folder's scenarios/ (installed, or the source's from the build tree)
    // replaces the compiled-in gallery; a damaged file there fails the gallery, named.
    const QString data = dataDirectory();
    const QString dir =
        data.isEmpty() ? QStringLiteral(":/gallery") : data + QStringLiteral("/scenarios");
    Result<std::vector<GalleryEntry>> loaded = loadGallery(dir);
    if (!loaded) {
        InputError e = loaded.error();
        if (!data.isEmpty() && !e.path.empty()) // "claim03.json: ..." -> the full path
            e.path = QDir(dir).filePath(QString::fromStdString(e.path)).toStdString();
        *error = QString::fromStdString(e.toString());
        return {};
    }
    return loaded.value();
}

void Application::installTranslators(const QString &language)
{
    QCoreApplication::removeTranslator(&app_translator_);
    QCoreApplication::removeTranslator(&qt_translator_);
    if (language == QLatin1String("zh_CN")) {
        if (app_translator_.load(QStringLiteral(":/i18n/scalescope_zh_CN.qm")))
            QCoreApplication::installTranslator(&app_translator_);
        else
            printError(tr("the Chinese translation is missing from this build"));
        // Qt's own strings (dialog buttons); absent when qt6-translations-l10n is not installed.
        if (qt_translator_.load(QStringLiteral("qtbase_zh_CN"),
                                QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(&qt_translator_);
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    } else {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }
}

void Application::setLanguage(const QString &language)
{
    if (language == language_)
        return;
    language_ = language;
    settings_->setValue(QStringLiteral("language"), language);
    installTranslators(language);
    if (window_) {
        settings_->setValue(QStringLiteral("window/geometry"), window_->saveGeometry());
        settings_->setValue(QStringLiteral("window/state"), window_->saveState());
        const bool visible = window_->isVisible();
        // The tab and claim shown stay (issue 26: a language switch went back to the first tab).
        const MainWindow::ViewState state = window_->viewState();
        // Rebuild the window around the same document; the old one goes when control
        // returns to the event loop (this is called from one of its menu actions).
        retired_window_ = std::move(window_);
        retired_window_->hide();
        QTimer::singleShot(0, this, [this] { retired_window_.reset(); });
        createWindow();
        window_->restoreViewState(state);
        if (visible)
            window_->show();
    }
}

void Application::createWindow()
{
    WindowContext ctx;
    ctx.document = &document_;
    ctx.recomputer = &recomputer_;
    ctx.settings = settings_.get();
    ctx.autosave = autosave_.get();
    ctx.gallery = &gallery_;
    ctx.language = language_;
    ctx.interactive = options_.screenshot.isEmpty();
    window_ = std::make_unique<MainWindow>(ctx);
    connect(window_.get(), &MainWindow::languageChangeRequested, this,
            [this](const QString &language) {
                // Leave the menu's signal handler before the window is rebuilt.
                QTimer::singleShot(0, this, [this, language] { setLanguage(language); });
            });
}

int Application::start()
{
    // The initial document: the file given, else (screenshots) the first gallery scenario,
    // else the default scenario.
    bool from_gallery = false;
    if (!options_.file.isEmpty()) {
        QString error;
        if (!document_.open(options_.file, &error)) {
            printError(tr("cannot open %1: %2").arg(options_.file, error));
            if (!options_.screenshot.isEmpty())
                return 2;
            open_error_ = tr("%1\n\n%2").arg(options_.file, error);
        }
    }
    if (document_.filePath().isEmpty() && !options_.screenshot.isEmpty() && !gallery_.empty())
        from_gallery = true;
    if (document_.filePath().isEmpty() && !from_gallery) {
        QFile f(QStringLiteral(":/scenarios/default.json"));
        if (f.open(QIODevice::ReadOnly)) {
            Result<Scenario> s = parseScenario(f.readAll(), builtinCatalog());
            if (s)
                document_.reset(s.value(), QString());
        }
    }
    createWindow();
    if (from_gallery)
        window_->loadGalleryEntry(0);
    // --trace: the measured run beside the scenario (File > Open measured trace). An error is
    // said in the window; a screenshot cannot be taken without it.
    if (!options_.traces.isEmpty() && !window_->openMeasuredTraces(options_.traces) &&
        !options_.screenshot.isEmpty())
        return 2;
    if (!options_.screenshot.isEmpty())
        return takeScreenshot();

    // --size too: never larger than the screen the window opens on.
    if (options_.size.isValid()) {
        window_->fitIntoScreen(options_.size);
        window_->arrangeDocksFor(window_->width());
    }
    window_->show();
    if (!options_.tab.isEmpty())
        window_->showTab(options_.tab);
    if (options_.present)
        window_->setPresentationMode(true);
    if (!open_error_.isEmpty()) // said in the window too, not only on stderr
        QTimer::singleShot(0, this, [this] {
            plainMessage(window_.get(), QMessageBox::Warning, tr("Cannot open scenario"),
                         open_error_);
        });
    if (!options_.no_restore)
        QTimer::singleShot(0, this, &Application::offerRecovery);
    return -1;
}

int Application::takeScreenshot()
{
    MainWindow *w = window_.get();
    w->resize(options_.size.isValid() ? options_.size : QSize(1600, 1000));
    w->arrangeDocksFor(w->width());
    if (options_.present)
        w->setPresentationMode(true, false);
    w->show();
    if (!options_.tab.isEmpty())
        w->showTab(options_.tab);

    // Wait for the newest result (the worker computes; this thread waits in an event loop).
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(w, &MainWindow::resultShown, &loop, [&](quint64 generation) {
        if (generation == recomputer_.latestGeneration())
            loop.quit();
    });
    w->requestRecompute();
    timeout.start(kScreenshotTimeoutMs);
    loop.exec();
    if (!w->currentResult() || w->currentResult()->generation != recomputer_.latestGeneration()) {
        printError(tr("the model did not finish within %1 s").arg(kScreenshotTimeoutMs / 1000));
        return 1;
    }
    if (!options_.tab.isEmpty())
        w->showTab(options_.tab);
    // Layouts settle in a chain of posted requests (a wrapped status sentence grows the status
    // bar, which shrinks the views): a few passes, not one.
    for (int pass = 0; pass < 4; ++pass)
        QCoreApplication::processEvents();
    const QImage image = w->grab().toImage();
    QByteArray png;
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG")) {
        printError(tr("cannot write %1: the PNG could not be encoded").arg(options_.screenshot));
        return 1;
    }
    // io/file_io.h: atomic for files, direct for FIFOs and devices (/dev/stdout).
    QString error;
    if (!writeFileAtomically(options_.screenshot, png, &error)) {
        printError(error);
        return 1;
    }
    return 0;
}

void Application::offerRecovery()
{
    if (!autosave_ || !window_)
        return;
    if (options_.test_save_loop) {
        // Test hook (tst_crash_safety, which kills the process at random moments): edit,
        // autosave and save, over and over, through the same calls the window makes. Each
        // turn leaves unsaved work behind (the second edit) for the next start to offer.
        auto *loop = new QTimer(this);
        connect(loop, &QTimer::timeout, this, [this, n = 0]() mutable {
            // Ten turns per timer event: most of the time goes to saving, not to showing
            // the results the edits ask for (they arrive between timer events).
            for (int turn = 0; turn < 10; ++turn) {
                ++n;
                QString error;
                Scenario s = document_.scenario();
                s.name = "save loop " + std::to_string(n);
                document_.edit(s, QStringLiteral("save loop"));
                autosave_->write(document_.serialized(), document_.filePath(), &error);
                if (!window_->saveTo(document_.filePath())) {
                    printError(QStringLiteral("--test-save-loop: cannot save %1")
                                   .arg(document_.filePath()));
                    QCoreApplication::exit(1);
                    return;
                }
                s.name = "save loop " + std::to_string(n) + " unsaved";
                document_.edit(s, QStringLiteral("save loop"));
                autosave_->write(document_.serialized(), document_.filePath(), &error);
                std::printf("saved %d\n", n);
                std::fflush(stdout);
            }
        });
        loop->start(0);
        return; // no recovery offers: the test reads the autosaves itself
    }
    for (const RecoveredWork &work : autosave_->orphans()) {
        // Work the parser refuses for a rule across keys (the window autosaves it, Save does
        // not write it) opens with that rule shown beside its control. What cannot be opened
        // is moved aside unchanged and named, never deleted (where it could not be moved it
        // stays where it is, and is reported again).
        RecoveredScenario opened;
        if (work.error.isEmpty())
            opened = AutosaveStore::openScenario(work, builtinCatalog());
        if (!opened.scenario) {
            QString kept = AutosaveStore::setAside(work);
            if (kept.isEmpty())
                kept = work.autosave_path;
            if (!work.error.isEmpty())
                plainMessage(window_.get(), QMessageBox::Warning, tr("Damaged autosave"),
                             tr("Unsaved work from a previous session was found but "
                                "cannot be used (%1). It was not loaded and is kept as "
                                "%2.")
                                 .arg(work.error, kept));
            else
                plainMessage(
                    window_.get(), QMessageBox::Warning, tr("Unsaved work not opened"),
                    tr("Unsaved work from a previous session cannot be opened: %1. It was not "
                       "loaded, and nothing was deleted: it is kept, unchanged, as %2. Correct "
                       "that value in a text editor, then open the file.")
                        .arg(QString::fromStdString(opened.refusal.toString()), kept));
            continue;
        }
        const Scenario &s = *opened.scenario;
        const QString what =
            work.original_path.isEmpty() ? QString::fromStdString(s.name) : work.original_path;
        QString question =
            tr("ScaleScope did not close normally. Restore the unsaved changes to “%1” from "
               "%2?")
                .arg(what, QLocale().toString(work.saved_at, QLocale::ShortFormat));
        if (opened.refused()) {
            // The rule as the control panel says it (translated), beside the control it names.
            QString rule = QString::fromStdString(opened.refusal.toString());
            for (const ControlIssue &issue : checkScenario(s))
                if (issue.severity == ControlIssue::Severity::Error) {
                    rule = issue.key_path + QStringLiteral(": ") + issue.message;
                    break;
                }
            question += QStringLiteral("\n\n") +
                        tr("Its plan breaks a rule of scenario files (%1). It opens as it was "
                           "left, with the problem shown beside its control; it can be saved "
                           "once that is fixed.")
                            .arg(rule);
        }
        const auto answer =
            plainMessage(window_.get(), QMessageBox::Question, tr("Restore unsaved work?"),
                         question, QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
        if (answer == QMessageBox::Yes) {
            document_.reset(s, work.original_path, true);
            QString error;
            autosave_->write(document_.serialized(), work.original_path, &error);
            AutosaveStore::discard(work);
            return; // one document per window: further orphans are offered next time
        }
        AutosaveStore::discard(work);
    }
}

} // namespace scalescope
