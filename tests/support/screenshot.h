// Screenshots written by GUI tests (docs/screenshots): only where the environment variable
// SCALESCOPE_SCREENSHOT_DIR names a folder, so that a plain test run writes nothing. A state
// that only an action in the window reaches (an invalid edit, a pinned run, a probe run) is
// pictured by the test that reaches and checks it.
#pragma once

#include <QCoreApplication>
#include <QLocale>
#include <QSize>
#include <QString>
#include <QTest>
#include <QTranslator>
#include <QWidget>

namespace screenshot
{

/// The folder to write to; empty where screenshots are not asked for.
inline QString folder()
{
    return qEnvironmentVariable("SCALESCOPE_SCREENSHOT_DIR");
}
inline bool wanted()
{
    return !folder().isEmpty();
}

/// Lets layouts, deferred resizes and repaints run, as the event loop would before a frame.
inline void settle(int rounds = 5)
{
    for (int i = 0; i < rounds; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(20);
    }
}

/// Resizes `widget` to `size` and saves it as NAME-WxH-LANGUAGE.png in the folder. Returns
/// true where nothing was asked for or the file was written.
inline bool save(QWidget &widget, const QString &name, QSize size,
                 const QString &language = QStringLiteral("en"))
{
    if (!wanted())
        return true;
    widget.resize(size);
    settle();
    const QString path = QStringLiteral("%1/%2-%3x%4-%5.png")
                             .arg(folder(), name)
                             .arg(size.width())
                             .arg(size.height())
                             .arg(language);
    return widget.grab().save(path);
}

/// At 1280 x 720 and 1920 x 1080, in the language the widget shows.
inline bool saveBothSizes(QWidget &widget, const QString &name,
                          const QString &language = QStringLiteral("en"))
{
    return save(widget, name, QSize(1280, 720), language) &&
           save(widget, name, QSize(1920, 1080), language);
}

/// The Chinese translation (and locale) while it lives, for widgets built after it; English
/// back afterwards. `qm` is ":/i18n/scalescope_zh_CN.qm" where the test links the app's
/// resources, else the compiled file in the build folder.
class Chinese
{
public:
    explicit Chinese(const QString &qm) : previous_locale_(QLocale())
    {
        loaded_ = translator_.load(qm);
        if (loaded_)
            QCoreApplication::installTranslator(&translator_);
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    }
    ~Chinese()
    {
        QCoreApplication::removeTranslator(&translator_);
        QLocale::setDefault(previous_locale_);
    }
    Chinese(const Chinese &) = delete;
    Chinese &operator=(const Chinese &) = delete;
    bool loaded() const { return loaded_; }

private:
    QLocale previous_locale_;
    QTranslator translator_;
    bool loaded_ = false;
};

} // namespace screenshot
