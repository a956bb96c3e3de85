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
#include <QGraphicsColorizeEffect>
#include <QResizeEvent>
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
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
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
    /// At most four lines (the tooltip has all of it): a status bar squeezed to a sliver
    /// of width must not make the window taller than the screen.
    int heightForWidth(int width) const override
    {
        const int line = fontMetrics().lineSpacing();
        return std::clamp(QLabel::heightForWidth(std::max(1, width)), line, 4 * line + 2);
    }
    QSize minimumSizeHint() const override { return QSize(0, heightForWidth(width())); }
    QSize sizeHint() const override { return QSize(QLabel::sizeHint().width(), minimumSizeHint().height()); }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        if (event->oldSize().width() != width())
            updateGeometry();
    }
};

/// "1 GPU", "8 GPUs".
inline QString gpuCountText(int gpus)
{
    return gpus == 1 ? MainWindow::tr("1 GPU") : MainWindow::tr("%1 GPUs").arg(gpus);
}

} // namespace scalescope::window_detail
