// The application: owns the document, the worker, settings, translations and the window.
// Switching the language rebuilds the window around the same document and undo history.
#pragma once

#include "autosave.h"
#include "document.h"
#include "io/gallery_io.h"
#include "options.h"
#include "recompute.h"

#include <QObject>
#include <QSettings>
#include <QTranslator>

#include <memory>
#include <vector>

namespace scalescope
{

class MainWindow;

class Application : public QObject
{
    Q_OBJECT
public:
    explicit Application(const AppOptions &options, QObject *parent = nullptr);
    ~Application() override;

    /// Opens the window (or, with --screenshot, renders it and returns the exit code).
    /// Returns -1 when the event loop should run.
    int start();
    MainWindow *window() const { return window_.get(); }
    Document *document() { return &document_; }
    QSettings *settings() { return settings_.get(); }
    QString language() const { return language_; }
    const std::vector<GalleryEntry> &gallery() const { return gallery_; }
    /// Installs the translators of `language` ("en" or "zh_CN") and rebuilds the window.
    void setLanguage(const QString &language);

    /// Loads the claims gallery from the compiled-in resources.
    static std::vector<GalleryEntry> loadBuiltinGallery(QString *error);
    /// The language to use: --lang, then the saved setting, then the system locale.
    static QString chooseLanguage(const QString &option, const QSettings &settings);

private:
    void installTranslators(const QString &language);
    void createWindow();
    int takeScreenshot();
    void offerRecovery();

    AppOptions options_;
    std::unique_ptr<QSettings> settings_;
    Document document_;
    Recomputer recomputer_;
    std::unique_ptr<AutosaveStore> autosave_;
    std::vector<GalleryEntry> gallery_;
    QString language_;
    QString open_error_; // the FILE argument could not be opened
    QTranslator app_translator_;
    QTranslator qt_translator_;
    std::unique_ptr<MainWindow> window_;
    // The window replaced by a language switch: it is still on the call stack of its own
    // menu action, so it is destroyed from the event loop, but always before the document,
    // the recomputer and the settings it points to (a plain deleteLater() outlived them).
    std::unique_ptr<MainWindow> retired_window_;
};

} // namespace scalescope
