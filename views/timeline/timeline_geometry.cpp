#include "timeline/timeline_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalescope
{

void TimelineGeometry::clear()
{
    for (auto &rects : rects_by_kind)
        rects.clear(); // keeps capacity: the next build reuses it
    labels.clear();
    segments_visited = 0;
}

size_t TimelineGeometry::rectCount() const
{
    size_t n = 0;
    for (const auto &rects : rects_by_kind)
        n += static_cast<size_t>(rects.size());
    return n;
}

size_t TimelineGeometry::bytes() const
{
    size_t n = sizeof(*this) + labels.capacity() * sizeof(TimelineLabelItem);
    for (const auto &rects : rects_by_kind)
        n += static_cast<size_t>(rects.capacity()) * sizeof(QRect);
    return n;
}

size_t firstEndingAfterIn(const Timeline &timeline, size_t begin, size_t end, double t)
{
    size_t lo = begin, hi = end;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (timeline.end(mid) <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

namespace
{

/// Walks the visible segments of one row. Sub-pixel segments go to
/// on_small(column, kind, covered_px); wider ones to on_wide(segment, x_start, x_end).
/// Within one pixel column at most kExactPerPixel segments are visited one by one; the
/// rest of the column is estimated from evenly spaced samples after a binary search.
/// Returns the number of segments looked at.
template <class OnSmall, class OnWide>
size_t walkRow(const Timeline &tl, int row, const TimelineViewport &vp, int exact_per_pixel,
               OnSmall &&on_small, OnWide &&on_wide)
{
    const int kExact = exact_per_pixel;
    const double pps = vp.pixelsPerSecond();
    const double t0 = vp.start_s, t1 = vp.end_s;
    const int last_col = vp.width_px - 1;
    size_t i = tl.firstEndingAfter(row, t0);
    const size_t e = tl.rowEnd(row);
    size_t visited = 0;
    int column = std::numeric_limits<int>::min();
    int in_column = 0;
    while (i < e) {
        const double s = tl.start(i);
        if (s >= t1)
            break;
        const double en = s + tl.duration(i);
        const double xs = (s - t0) * pps, xe = (en - t0) * pps;
        ++visited;
        if (xe - xs >= 1.0) {
            on_wide(i, xs, xe);
            column = std::numeric_limits<int>::min();
            ++i;
            continue;
        }
        const int col = std::clamp(static_cast<int>(std::floor(xs)), 0, last_col);
        if (col != column) {
            column = col;
            in_column = 0;
        }
        on_small(col, static_cast<int>(tl.kind(i)), (std::min(en, t1) - std::max(s, t0)) * pps);
        ++i;
        if (++in_column < kExact)
            continue;
        // Dense column: every segment in [i, j) ends inside this column.
        const double column_end_s = t0 + (col + 1) / pps;
        const size_t j = firstEndingAfterIn(tl, i, e, column_end_s);
        const size_t n = j - i;
        if (n == 0)
            continue;
        const size_t samples = std::min<size_t>(n, static_cast<size_t>(kExact));
        const double weight = static_cast<double>(n) / static_cast<double>(samples);
        for (size_t m = 0; m < samples; ++m) {
            const size_t k = i + m * n / samples;
            on_small(col, static_cast<int>(tl.kind(k)), tl.duration(k) * pps * weight);
        }
        visited += samples;
        i = j;
    }
    return visited;
}

int rowPadding(int height_px)
{
    return height_px >= 6 ? 1 : 0;
}

/// The last stacked piece of each kind, extended while the next column repeats it (same
/// top, same height): a steady mix draws as horizontal bands of a few long rectangles.
struct StackRuns {
    std::array<qsizetype, kSegmentKindCount> index{};
    std::array<int, kSegmentKindCount> right{}, top{}, height{};
    StackRuns() { reset(); }
    void reset() { index.fill(-1); }
};

/// One pixel column whose segments are narrower than the pixel: each kind gets a share of
/// the row's height in proportion to the time it covers there, stacked in kind order
/// (cumulative rounding, so the pieces fill the row exactly). A kind that holds a fifth of
/// every column (an all-to-all between compute kernels far shorter than a pixel) stays a
/// fifth of the row, where the dominant kind alone would paint it out of every column.
template <class T>
void appendStackedColumn(int col, const T *acc, int y_px, int height_px, StackRuns &runs,
                         TimelineGeometry &out)
{
    double total = 0;
    for (int k = 0; k < kSegmentKindCount; ++k)
        total += static_cast<double>(acc[k]);
    if (!(total > 0))
        return;
    double covered = 0;
    int y0 = 0;
    for (int k = 0; k < kSegmentKindCount; ++k) {
        if (!(acc[k] > 0))
            continue;
        covered += static_cast<double>(acc[k]);
        const int y1 = static_cast<int>(std::lround(covered / total * height_px));
        if (y1 <= y0)
            continue;
        const auto ks = static_cast<size_t>(k);
        auto &rects = out.rects_by_kind[ks];
        const int h = y1 - y0;
        if (runs.index[ks] >= 0 && runs.right[ks] == col && runs.top[ks] == y0 &&
            runs.height[ks] == h) {
            rects[runs.index[ks]].setRight(col);
        } else {
            rects.append(QRect(col, y_px + y0, 1, h));
            runs.index[ks] = rects.size() - 1;
            runs.top[ks] = y0;
            runs.height[ks] = h;
        }
        runs.right[ks] = col + 1;
        y0 = y1;
    }
}

} // namespace

void TimelineGeometryBuilder::build(const Timeline &timeline, const TimelineRowLayout &layout,
                                    const TimelineViewport &viewport, TimelineGeometry &out)
{
    out.clear();
    if (viewport.width_px <= 0 || viewport.height_px <= 0 || !(viewport.end_s > viewport.start_s))
        return;
    const auto [first, last] =
        layout.rowsIntersecting(viewport.scroll_y_px, viewport.scroll_y_px + viewport.height_px);
    for (size_t r = first; r < last; ++r) {
        const TimelineRowInfo &row = layout.row(r);
        const int pad = rowPadding(row.height_px);
        const int y_px = row.y_px - viewport.scroll_y_px + pad;
        const int h_px = row.height_px - 2 * pad;
        if (row.type == TimelineRowInfo::Type::Stream)
            buildStreamRow(timeline, row.timeline_row, y_px, h_px, viewport, out);
        else if (row.collapsed)
            buildSummaryRow(timeline, layout, row.node, y_px, h_px, viewport, out);
    }
}

TimelineGeometry TimelineGeometryBuilder::build(const Timeline &timeline,
                                                const TimelineRowLayout &layout,
                                                const TimelineViewport &viewport)
{
    TimelineGeometry g;
    build(timeline, layout, viewport, g);
    return g;
}

void TimelineGeometryBuilder::buildStreamRow(const Timeline &timeline, int timeline_row, int y_px,
                                             int height_px, const TimelineViewport &viewport,
                                             TimelineGeometry &out)
{
    const int width = viewport.width_px;
    // The pixel column being merged, and the last stacked pieces (to extend runs).
    int pending_col = -1;
    std::array<double, kSegmentKindCount> acc{};
    StackRuns runs;

    const auto flush = [&] {
        if (pending_col < 0)
            return;
        appendStackedColumn(pending_col, acc.data(), y_px, height_px, runs, out);
        acc.fill(0);
        pending_col = -1;
    };
    const auto on_small = [&](int col, int kind, double covered_px) {
        if (col != pending_col) {
            flush();
            pending_col = col;
        }
        acc[static_cast<size_t>(kind)] += covered_px;
    };
    const auto on_wide = [&](size_t segment, double xs, double xe) {
        flush();
        const int x0 = std::max(0, static_cast<int>(std::lround(std::max(xs, -1.0))));
        const int x1 = std::min(width, static_cast<int>(std::lround(std::min(xe, width + 1.0))));
        int w = std::max(1, x1 - x0);
        if (w >= 4 && xe <= width)
            --w; // a one-pixel gap shows where adjacent segments of one kind meet
        out.rects_by_kind[static_cast<size_t>(timeline.kind(segment))].append(
            QRect(x0, y_px, w, height_px));
        if (w >= label_min_width_px_)
            out.labels.push_back({QRect(x0, y_px, w, height_px), segment});
        runs.reset();
    };
    out.segments_visited +=
        walkRow(timeline, timeline_row, viewport, kExactPerPixel, on_small, on_wide);
    flush();
}

void TimelineGeometryBuilder::accumulateRow(const Timeline &timeline, int timeline_row,
                                            const TimelineViewport &viewport, TimelineGeometry &out)
{
    const int width = viewport.width_px;
    float *coverage = coverage_.data();
    const auto on_small = [&](int col, int kind, double covered_px) {
        coverage[col * kSegmentKindCount + kind] += static_cast<float>(covered_px);
    };
    const auto on_wide = [&](size_t segment, double xs, double xe) {
        const int kind = static_cast<int>(timeline.kind(segment));
        const int c0 = std::max(0, static_cast<int>(std::floor(xs)));
        const int c1 = std::min(width - 1, static_cast<int>(std::ceil(xe)) - 1);
        for (int c = c0; c <= c1; ++c) {
            const double covered = std::min(xe, c + 1.0) - std::max(xs, static_cast<double>(c));
            coverage[c * kSegmentKindCount + kind] += static_cast<float>(covered);
        }
    };
    out.segments_visited +=
        walkRow(timeline, timeline_row, viewport, kExactPerPixelSummary, on_small, on_wide);
}

void TimelineGeometryBuilder::buildSummaryRow(const Timeline &timeline,
                                              const TimelineRowLayout &layout, int node, int y_px,
                                              int height_px, const TimelineViewport &viewport,
                                              TimelineGeometry &out)
{
    const int width = viewport.width_px;
    coverage_.assign(static_cast<size_t>(width) * kSegmentKindCount, 0.0f);
    const auto [gpu_begin, gpu_end] = layout.gpuRange(node);
    // A node's summary is what its GPUs' compute streams do: compute, and every idle gap
    // there named by its cause (exposed communication, bubble, waiting, data loading).
    // Collectives and pipeline sends overlap it and would hide where the GPUs stall; they
    // also quadruple the work of a collapsed view.
    for (int gpu = gpu_begin; gpu < gpu_end; ++gpu)
        accumulateRow(timeline, gpu * kStreamCount + static_cast<int>(Stream::Compute), viewport,
                      out);

    StackRuns runs;
    for (int c = 0; c < width; ++c)
        appendStackedColumn(c, coverage_.data() + static_cast<size_t>(c) * kSegmentKindCount, y_px,
                            height_px, runs, out);
}

bool TimelineGeometryCache::isValidFor(const Timeline &timeline, const TimelineRowLayout &layout,
                                       const TimelineViewport &viewport) const
{
    return valid_ && timeline_ == &timeline && layout_generation_ == layout.generation() &&
           viewport_ == viewport && label_min_width_px_ == builder_.labelMinWidthPx();
}

const TimelineGeometry &TimelineGeometryCache::geometry(const Timeline &timeline,
                                                        const TimelineRowLayout &layout,
                                                        const TimelineViewport &viewport)
{
    if (!isValidFor(timeline, layout, viewport)) {
        builder_.build(timeline, layout, viewport, geometry_);
        valid_ = true;
        timeline_ = &timeline;
        layout_generation_ = layout.generation();
        viewport_ = viewport;
        label_min_width_px_ = builder_.labelMinWidthPx();
        ++rebuild_count_;
    }
    return geometry_;
}

TimelineHit hitTest(const Timeline &timeline, const TimelineRowLayout &layout,
                    const TimelineViewport &viewport, QPoint plot_pos, int tolerance_px)
{
    TimelineHit hit;
    const double pps = viewport.pixelsPerSecond();
    if (pps <= 0 || plot_pos.x() < 0 || plot_pos.x() >= viewport.width_px || plot_pos.y() < 0 ||
        plot_pos.y() >= viewport.height_px)
        return hit;
    hit.time_s = viewport.start_s + (plot_pos.x() + 0.5) / pps;
    hit.layout_row = layout.rowIndexAt(plot_pos.y() + viewport.scroll_y_px);
    if (hit.layout_row < 0)
        return hit;
    const TimelineRowInfo &row = layout.row(static_cast<size_t>(hit.layout_row));
    if (row.type != TimelineRowInfo::Type::Stream)
        return hit;
    // Segments of a row do not overlap: the one containing t, or the nearest neighbour.
    const double tolerance_s = tolerance_px / pps;
    const double t = hit.time_s;
    const size_t begin = timeline.rowBegin(row.timeline_row);
    const size_t end = timeline.rowEnd(row.timeline_row);
    const size_t j = timeline.firstEndingAfter(row.timeline_row, t);
    double best_distance = tolerance_s;
    if (j < end) {
        const double distance = std::max(0.0, timeline.start(j) - t);
        if (distance <= best_distance) {
            best_distance = distance;
            hit.segment = static_cast<int64_t>(j);
        }
    }
    if (j > begin && best_distance > 0) {
        const double distance = t - timeline.end(j - 1);
        if (distance < best_distance)
            hit.segment = static_cast<int64_t>(j - 1);
    }
    return hit;
}

} // namespace scalescope
