// What the files of MainWindow share (main_window.cpp, main_window_ui.cpp, _results,
// _presentation, _files): their includes, sizes and number formatting. Private to app/gui.
#pragma once

#include "main_window.h"

#include "recent_files.h"

#include "autosave.h"
#include "calibration_page.h"
#include "charts/breakdown_view.h"
#include "charts/cost_view.h"
#include "charts/delta_view.h"
#include "charts/measured_run_view.h"
#include "charts/export.h"
#include "charts/memory_view.h"
#include "charts/scaling_view.h"
#include "controls/control_panel.h"
#include "document.h"
#include "io/catalog_io.h"
#include "io/file_io.h"
#include "io/profile_io.h"
#include "io/report_io.h"
#include "io/scenario_io.h"
#include "model_text.h"
#include "options.h"
#include "palette.h"
#include "plan_dialog.h"
#include "presentation.h"
#include "recompute.h"
#include "timeline/timeline_format.h"
#include "timeline/timeline_widget.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedLayout>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextLayout>
#include <QTextOption>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QWindow>

#include <algorithm>
#include <cmath>
#include <functional>

namespace scalescope::window_detail
{

inline constexpr int kMaxRecentFiles = 8;
// The size of a first start (no saved geometry) where the screen has room for it.
inline constexpr QSize kDefaultWindowSize(1500, 940);
// Below this window width the Claims gallery is tabbed behind the Scenario dock: beside
// the Scenario dock (about 280 px) and the gallery (about 250 px) the views need about
// 900 px (three charts of kMinChartWidth and the Scaling tab's controls). At 1280 px, the
// projector's width, the gallery beside them squeezed the Scenario dock to 100 px: its
// labels were cut and no field was visible.
inline constexpr int kGalleryBesideWidth = 1440;
// Room left for the window frame, which is unknown before the window is first shown.
inline constexpr QSize kFrameAllowance(16, 48);

inline QString formatRate(double per_second)
{
    if (per_second >= 1e6)
        return QStringLiteral("%1 M").arg(per_second / 1e6, 0, 'f', 2);
    if (per_second >= 1e3)
        return QStringLiteral("%1 k").arg(per_second / 1e3, 0, 'f', 1);
    return QString::number(per_second, 'f', 1);
}

/// The status bar's bottleneck sentence: wrapped onto as many lines as its width needs, the
/// status bar growing to hold them (issue 26: at 1280 px the sentence was cut).
class WrappedStatusLabel final : public QLabel
{
public:
    WrappedStatusLabel() { setWordWrap(true); }
    /// A plain sentence: in full where four lines hold it, else its fourth line ends in an
    /// ellipsis (the tooltip has all of it) rather than a fifth line cut through by the
    /// window's edge.
    void setSentence(const QString &plain)
    {
        sentence_ = plain;
        setToolTip(plain);
        showSentence();
    }
    /// Rich text (an error's key path in bold, in red), shown as it is; `plain` is its
    /// tooltip (four lines may not hold a long message either).
    void setRichText(const QString &html, const QString &plain)
    {
        sentence_.clear();
        setToolTip(plain);
        setText(html);
    }
    /// At most four lines (the tooltip has all of it): a status bar squeezed to a sliver
    /// of width must not make the window taller than the screen. The height only grows
    /// while the window keeps its width: a shorter sentence, or figures beside it that take
    /// a few pixels more or less, do not change the status bar's height, so that a new
    /// result does not lay the whole window out again (every chart resized).
    int heightForWidth(int width) const override
    {
        // Four lines as the sentence's own glyphs set them (Chinese falls back to a CJK font
        // whose lines are taller than the label font's).
        const int line = fontMetrics().lineSpacing();
        const int cap = std::max(kMaxLines * line + 2, shown_height_ + 2);
        const int needed = std::clamp(QLabel::heightForWidth(std::max(1, width)), line, cap);
        const int window_width = window() != nullptr ? window()->width() : width;
        if (window_width != kept_window_width_) {
            kept_window_width_ = window_width;
            kept_height_ = needed;
        }
        kept_height_ = std::max(kept_height_, needed);
        return kept_height_;
    }
    QSize minimumSizeHint() const override { return QSize(0, heightForWidth(width())); }
    QSize sizeHint() const override
    {
        return QSize(QLabel::sizeHint().width(), minimumSizeHint().height());
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        if (event->oldSize().width() != width()) {
            showSentence();
            if (heightForWidth(width()) != height())
                updateGeometry();
        }
    }

private:
    static constexpr int kMaxLines = 4;
    /// Lays the sentence out at the label's width as the label wraps it (at word
    /// boundaries; CJK text between characters) and cuts it after the fourth line.
    void showSentence()
    {
        if (sentence_.isEmpty())
            return;
        QString shown = sentence_;
        // A few pixels short of the width: the label's document lays text out with its own
        // margin, and a line that only just fits here must not wrap there.
        const int w = contentsRect().width() - 2 * margin() - 4;
        if (w > 0) {
            QTextLayout layout(sentence_, font());
            QTextOption option;
            option.setWrapMode(QTextOption::WordWrap);
            layout.setTextOption(option);
            layout.beginLayout();
            int lines = 0, last_start = 0;
            qreal height = 0;
            bool more = false;
            for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
                line.setLineWidth(w);
                if (++lines == kMaxLines)
                    last_start = line.textStart();
                if (lines > kMaxLines) {
                    more = true;
                    break;
                }
                height += line.height();
            }
            layout.endLayout();
            shown_height_ = static_cast<int>(std::ceil(height));
            if (more)
                shown = sentence_.left(last_start) +
                        fontMetrics().elidedText(sentence_.mid(last_start), Qt::ElideRight, w);
        }
        const QString html = shown.toHtmlEscaped();
        if (text() != html)
            setText(html);
    }
    QString sentence_;     // the plain sentence shown (empty: rich text set as it is)
    int shown_height_ = 0; // the height of its lines as shown (at most kMaxLines)
    mutable int kept_window_width_ = -1;
    mutable int kept_height_ = 0;
};

/// A translucent veil over the views while they show the last valid result (issue 26),
/// stacked over them by a QStackedLayout (StackAll); cheaper than a graphics effect that
/// renders every chart again, and no layout row: showing it lays nothing out again.
class StaleVeil final : public QWidget
{
public:
    StaleVeil() : note_(new QLabel(this))
    {
        setObjectName(QStringLiteral("stalePictureVeil"));
        setAttribute(Qt::WA_TransparentForMouseEvents);
        note_->setObjectName(QStringLiteral("stalePictureNote"));
        note_->setTextFormat(Qt::PlainText);
        note_->setWordWrap(true);
        note_->setAutoFillBackground(true);
        note_->setMargin(6);
        note_->setStyleSheet(
            QStringLiteral("QLabel { color: #b00020; font-weight: bold; background: white; }"));
    }
    /// Shows the veil with `reason` at its top.
    void showOver(const QString &reason)
    {
        note_->setText(reason);
        placeNote();
        raise();
        show();
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QWidget::resizeEvent(event);
        placeNote();
    }
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        painter.fillRect(rect(), QColor(0xf0, 0xf0, 0xf0, 170));
    }

private:
    void placeNote()
    {
        const int w = std::max(1, width() - 16);
        note_->setGeometry(8, 8, w, note_->heightForWidth(w));
    }
    QLabel *note_;
};

/// "1 GPU", "8 GPUs".
inline QString gpuCountText(int gpus)
{
    return gpus == 1 ? MainWindow::tr("1 GPU") : MainWindow::tr("%1 GPUs").arg(gpus);
}

} // namespace scalescope::window_detail
