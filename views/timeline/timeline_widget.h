// The Gantt timeline: one custom-painted widget (DESIGN.md section 3). Rows are GPUs
// grouped by collapsible nodes; the wheel zooms around the cursor, dragging pans.
#pragma once

#include "analysis/memory.h"
#include "sim/timeline.h"
#include "timeline/timeline_geometry.h"
#include "timeline/timeline_layout.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QScrollBar;

namespace scalescope
{

class TimelineWidget : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget *parent = nullptr);
    ~TimelineWidget() override;

    /// Shows `timeline` (null: the empty state). Keeps the visible time range when the
    /// new timeline spans about the same time (within 20 %), else fits it.
    void setTimeline(std::shared_ptr<const Timeline> timeline);
    std::shared_ptr<const Timeline> timeline() const { return timeline_; }
    /// Why there is no timeline (shown in the empty state).
    void setEmptyReason(const QString &reason);
    /// The time span shared with another timeline (A/B compare): fitting and panning cover
    /// at least [0, extent_s] even where this timeline ends earlier. 0 = own extent only.
    void setSharedExtent(double extent_s);

    /// The memory per GPU of the run shown (the result's Summary::memory). When it exceeds
    /// a known capacity, a red banner above the rows says the run does not fit and cannot
    /// start (painted, so exports carry it too); otherwise, or with a default-constructed
    /// breakdown, no banner. `remedy`: the change that would make it fit, already worded
    /// ("full recompute would fit it in 71.0 GiB, with a step 33% longer"; empty: none).
    void setMemory(const MemoryBreakdown &memory, const QString &remedy = {});
    bool isMemoryBannerShown() const;
    /// The banner's text in the current language (empty when none is shown).
    QString memoryBannerText() const;

    /// Drawn in the top-left corner, e.g. "A: pinned".
    void setTitle(const QString &title);
    QString title() const { return title_; }

    std::pair<double, double> timeRange() const { return {start_s_, end_s_}; }

    int nodeCount() const { return layout_.nodeCount(); }
    bool isNodeCollapsed(int node) const;
    void setNodeCollapsed(int node, bool collapsed);
    void setAllNodesCollapsed(bool collapsed);
    const TimelineRowLayout &rowLayout() const { return layout_; }

    /// The segment area, in widget coordinates.
    QRect plotRect() const;
    /// Widget position of time `time_s` in the middle of layout row `layout_row` (must be
    /// scrolled into view).
    QPoint positionOf(double time_s, int layout_row) const;
    /// Widget position of a node's header label.
    QPoint nodeHeaderPosition(int node) const;
    /// Segment under a widget position, or -1.
    qint64 segmentAt(QPoint pos) const;
    /// The tooltip shown at a widget position (empty: none).
    QString toolTipTextAt(QPoint pos) const;
    void scrollToLayoutRow(int layout_row);
    int scrollOffsetPx() const;

    /// Paints the whole content (axis, header column, rows, legend, title) into `target`,
    /// for QImage or QSvgGenerator. Scroll position and time range are the widget's.
    void render(QPainter *painter, const QRect &target);
    using QWidget::render;
    /// Writes a PNG of the widget content atomically (writeFileSafely, io/file_io.h).
    bool exportPng(const QString &path, QString *error = nullptr);
    /// Writes an SVG of the widget content atomically (writeFileSafely, io/file_io.h).
    bool exportSvg(const QString &path, QString *error = nullptr);

    /// Geometry cache, for tests and benchmarks.
    int geometryRebuildCount() const { return cache_.rebuildCount(); }
    void clearGeometryCache() { cache_.invalidate(); }
    const TimelineGeometry &cachedGeometry() const { return cache_.current(); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void setTimeRange(double start_s, double end_s);
    void fitToView();
    /// Multiplies the visible span by `factor` (< 1 zooms in), keeping `anchor_s` in place.
    void zoomAround(double anchor_s, double factor);

Q_SIGNALS:
    void timeRangeChanged(double start_s, double end_s);
    /// Segment under the mouse, -1 when none.
    void segmentHovered(qint64 segment);
    /// Segment clicked, -1 when the click hit none.
    void segmentSelected(qint64 segment);
    void nodeCollapsedChanged(int node, bool collapsed);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    struct Areas {
        QRect banner, corner, axis, header, plot, legend;
    };
    struct LegendItem {
        SegmentKind kind;
        QRect rect;
        bool critical = false; // the critical path's bar, not a kind
    };
    static QString criticalPathName();

    Areas areasFor(QSize size, int scroll_bar_width) const;
    std::vector<LegendItem> legendItems(const QRect &legend_area) const;
    int legendHeight(int width) const;
    int bannerHeight(int width) const;
    void paintBanner(QPainter &painter, const QRect &area);
    int headerWidth() const;
    int rowHeight() const;
    TimelineViewport viewportFor(const QRect &plot) const;
    void paintContent(QPainter &painter, QSize size, bool use_cache);
    void paintRows(QPainter &painter, const Areas &areas, const TimelineViewport &viewport,
                   const TimelineGeometry &geometry);
    void paintHeader(QPainter &painter, const Areas &areas, const TimelineViewport &viewport);
    void paintAxis(QPainter &painter, const Areas &areas, const TimelineViewport &viewport);
    void paintLegend(QPainter &painter, const Areas &areas);
    void paintOverlay(QPainter &painter, const TimelineViewport &viewport, qint64 segment,
                      bool selected);
    QString segmentToolTip(size_t segment) const;
    QString streamLabel(Stream stream) const;
    void relayout();
    void updateScrollBar();
    void setHovered(qint64 segment);
    void toggleNode(int node);
    double extentS() const;

    std::shared_ptr<const Timeline> timeline_;
    QString empty_reason_;
    QString title_;
    MemoryBreakdown memory_;
    QString memory_remedy_;
    double shared_extent_s_ = 0;
    double start_s_ = 0;
    double end_s_ = 1;
    std::vector<bool> collapsed_;
    TimelineRowLayout layout_;
    TimelineGeometryCache cache_;
    QScrollBar *scroll_bar_ = nullptr;
    qint64 hovered_ = -1;
    qint64 selected_ = -1;
    // Dragging
    bool pressed_ = false;
    bool dragged_ = false;
    QPoint press_pos_;
    double press_start_s_ = 0;
    double press_end_s_ = 0;
    int press_scroll_px_ = 0;
};

} // namespace scalescope
