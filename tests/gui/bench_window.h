// The GUI benchmarks' window: the real main window on a scenario, with a wait for the newest
// result that an event loop woken by the window's own signal does (no polling sleeps that
// would add to the figures).
#pragma once

#include "app.h"
#include "document.h"
#include "main_window.h"
#include "recompute.h"

#include <QEventLoop>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>
#include <vector>

namespace scalescope::bench
{

class BenchWindow
{
public:
    explicit BenchWindow(const Scenario &scenario)
        : settings_(dir_.filePath("s.ini"), QSettings::IniFormat)
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<ResultPtr>("scalescope::ResultPtr");
        QString error;
        gallery = Application::loadBuiltinGallery(&error);
        document.reset(scenario, QString());
        WindowContext ctx;
        ctx.document = &document;
        ctx.recomputer = &recomputer;
        ctx.settings = &settings_;
        ctx.gallery = &gallery;
        ctx.language = QStringLiteral("en");
        ctx.interactive = false;
        window = std::make_unique<MainWindow>(ctx);
        window->resize(1600, 1000);
        window->show();
    }

    /// Waits (up to `timeout_ms`) until the newest requested result is on screen.
    bool waitForNewest(int timeout_ms = 60000)
    {
        auto newest = [this] {
            return window->currentResult() &&
                   window->currentResult()->generation == recomputer.latestGeneration();
        };
        if (!newest()) {
            QEventLoop loop;
            QTimer timeout;
            timeout.setSingleShot(true);
            QObject::connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
            QObject::connect(window.get(), &MainWindow::resultShown, &loop, [&](quint64 g) {
                if (g == recomputer.latestGeneration())
                    loop.quit();
            });
            timeout.start(timeout_ms);
            loop.exec();
        }
        return newest();
    }

    std::vector<GalleryEntry> gallery;
    Document document;
    Recomputer recomputer;
    std::unique_ptr<MainWindow> window;

private:
    QTemporaryDir dir_;
    QSettings settings_;
};

} // namespace scalescope::bench
