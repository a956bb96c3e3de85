// Message boxes that show their text as plain text. Their text quotes file content
// (scenario and profile names, error messages, file names), which QMessageBox's static
// functions would render as rich text where it looks like HTML (Qt::AutoText): a scenario
// named "<img src=...>" must be shown, not rendered (issue 29).
#pragma once

#include <QMessageBox>

namespace scalescope
{

/// QMessageBox::warning() / question() / critical() with Qt::PlainText; the button pressed.
inline QMessageBox::StandardButton
plainMessage(QWidget *parent, QMessageBox::Icon icon, const QString &title, const QString &text,
             QMessageBox::StandardButtons buttons = QMessageBox::Ok,
             QMessageBox::StandardButton default_button = QMessageBox::NoButton)
{
    QMessageBox box(icon, title, text, buttons, parent);
    box.setTextFormat(Qt::PlainText);
    if (default_button != QMessageBox::NoButton)
        box.setDefaultButton(default_button);
    return static_cast<QMessageBox::StandardButton>(box.exec());
}

} // namespace scalescope
