// Geometry of the visible part of a timeline: per-colour rectangle lists, bounded by
// rows x pixels, never by the number of segments (DESIGN.md section 3). Pure: no widget.
#pragma once

#include "sim/timeline.h"
#include "timeline/timeline_layout.h"

#include <QPoint>
#include <QRect>
#include <QVector>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace scalescope
{

/// What is visible: a time range over `width_px` plot pixels, and a vertical window of
/// the row layout starting at layout y `scroll_y_px`.
struct TimelineViewport {
    double start_s = 0;
    double end_s = 1;
    int width_px = 0;
    int scroll_y_px = 0;
    int height_px = 0;
    bool operator==(const TimelineViewport &other) const = default;
    double pixelsPerSecond() const { return end_s > start_s ? width_px / (end_s - start_s) : 0; }
};

/// A segment wide enough to carry a text label.
struct TimelineLabelItem {
    QRect rect;
    size_t segment = 0;
};

/// Plot-local rectangles (x from 0 = viewport start, y from 0 = viewport top).
struct TimelineGeometry {
    std::array<QVector<QRect>, kSegmentKindCount> rects_by_kind;
    std::vector<TimelineLabelItem> labels;
    size_t segments_visited = 0; ///< work done by the build (for tests and benchmarks)

    void clear();
    size_t rectCount() const;
    /// Heap bytes held (capacity), the cost of the cache.
    size_t bytes() const;
};

/// Builds TimelineGeometry. Per row, segments narrower than a pixel are merged per pixel
/// column, each kind stacked over a share of the row's height equal to its share of the
/// covered time (kind order, top down); consecutive columns with the same pieces become one
/// rectangle per kind; segments a pixel wide or more stay separate.
/// A pixel column with more than kExactPerPixel segments (kExactPerPixelSummary in summary rows) is
/// estimated from kExactPerPixel evenly spaced samples found by binary search, so the work per row
/// is bounded by its pixel width. Collapsed node rows stack, per pixel, the kinds of all the node's
/// compute streams together in the same way.
class TimelineGeometryBuilder
{
public:
    static constexpr int kExactPerPixel = 8;
    /// Summary rows merge many rows: sampling errors average out, so sample sooner.
    static constexpr int kExactPerPixelSummary = 3;
    /// Segments at least this wide get a label item.
    void setLabelMinWidthPx(int px) { label_min_width_px_ = px; }
    int labelMinWidthPx() const { return label_min_width_px_; }

    void build(const Timeline &timeline, const TimelineRowLayout &layout,
               const TimelineViewport &viewport, TimelineGeometry &out);
    TimelineGeometry build(const Timeline &timeline, const TimelineRowLayout &layout,
                           const TimelineViewport &viewport);

private:
    void buildStreamRow(const Timeline &timeline, int timeline_row, int y_px, int height_px,
                        const TimelineViewport &viewport, TimelineGeometry &out);
    void buildSummaryRow(const Timeline &timeline, const TimelineRowLayout &layout, int node,
                         int y_px, int height_px, const TimelineViewport &viewport,
                         TimelineGeometry &out);
    void accumulateRow(const Timeline &timeline, int timeline_row, const TimelineViewport &viewport,
                       TimelineGeometry &out);

    int label_min_width_px_ = 48;
    std::vector<float> coverage_; // summary rows: width_px x kSegmentKindCount
};

/// Keeps the last geometry until the timeline, the layout (collapse state, fonts), the
/// viewport (range, size, scroll) or the label width changes.
class TimelineGeometryCache
{
public:
    const TimelineGeometry &geometry(const Timeline &timeline, const TimelineRowLayout &layout,
                                     const TimelineViewport &viewport);
    bool isValidFor(const Timeline &timeline, const TimelineRowLayout &layout,
                    const TimelineViewport &viewport) const;
    void invalidate() { valid_ = false; }
    int rebuildCount() const { return rebuild_count_; }
    const TimelineGeometry &current() const { return geometry_; }
    TimelineGeometryBuilder &builder() { return builder_; }

private:
    TimelineGeometryBuilder builder_;
    TimelineGeometry geometry_;
    bool valid_ = false;
    const Timeline *timeline_ = nullptr;
    uint64_t layout_generation_ = 0;
    int label_min_width_px_ = 0;
    TimelineViewport viewport_;
    int rebuild_count_ = 0;
};

/// What is under a plot-local point.
struct TimelineHit {
    int layout_row = -1;  ///< -1: no row
    int64_t segment = -1; ///< -1: no segment (gap, node row)
    double time_s = 0;
};

/// Finds the segment under `plot_pos` (plot-local pixels); a segment within `tolerance_px`
/// counts, so that sub-pixel segments can be hovered. The nearest one wins.
TimelineHit hitTest(const Timeline &timeline, const TimelineRowLayout &layout,
                    const TimelineViewport &viewport, QPoint plot_pos, int tolerance_px = 2);

/// First segment index in [begin, end) of one row that ends after t (binary search).
size_t firstEndingAfterIn(const Timeline &timeline, size_t begin, size_t end, double t);

} // namespace scalescope
