// Row layout of the timeline view: nodes, GPUs and their non-empty streams, in pixels.
// Pure data (no widgets), so that it can be tested and shared by the geometry builder.
#pragma once

#include "sim/timeline.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace scalescope
{

struct TimelineRowInfo {
    enum class Type : uint8_t {
        Node,   ///< node header; when the node is collapsed it also shows the node summary
        Stream, ///< one stream of one GPU (a Timeline row)
    };
    Type type = Type::Stream;
    bool collapsed = false;    ///< Node rows: the node is collapsed
    bool first_of_gpu = false; ///< Stream rows: first row of its GPU (carries the GPU label)
    Stream stream = Stream::Compute;
    int node = 0;
    int gpu = -1;          ///< Stream rows
    int timeline_row = -1; ///< Stream rows: gpu * kStreamCount + stream
    int y_px = 0;          ///< top, in layout coordinates (0 = first row)
    int height_px = 0;
};

class TimelineRowLayout
{
public:
    /// Lays out `timeline` (may be null: empty layout). `collapsed_nodes[n]` collapses node n
    /// (missing entries mean expanded). Each GPU shows its compute stream and the other
    /// streams that have segments.
    void build(const Timeline *timeline, const std::vector<bool> &collapsed_nodes,
               int row_height_px, int node_row_height_px);

    static int nodeCountOf(const Timeline &timeline);

    const std::vector<TimelineRowInfo> &rows() const { return rows_; }
    size_t size() const { return rows_.size(); }
    const TimelineRowInfo &row(size_t index) const { return rows_[index]; }
    int totalHeightPx() const { return total_height_px_; }
    int nodeCount() const { return node_count_; }
    int gpusPerNode() const { return gpus_per_node_; }
    int gpus() const { return gpus_; }
    /// GPUs [first, second) of a node.
    std::pair<int, int> gpuRange(int node) const;
    /// Layout row at layout y, or -1.
    int rowIndexAt(int y_px) const;
    /// Layout rows [first, second) that intersect [y0_px, y1_px).
    std::pair<size_t, size_t> rowsIntersecting(int y0_px, int y1_px) const;
    /// Layout row index of a Timeline row, or -1 when hidden (collapsed or empty stream).
    int layoutRowOfTimelineRow(int timeline_row) const;
    /// Layout row index of a node header, or -1.
    int layoutRowOfNode(int node) const;
    /// Changes on every build; keys the geometry cache.
    uint64_t generation() const { return generation_; }

private:
    std::vector<TimelineRowInfo> rows_;
    std::vector<int> layout_row_of_timeline_row_;
    std::vector<int> layout_row_of_node_;
    int total_height_px_ = 0;
    int node_count_ = 0;
    int gpus_per_node_ = 1;
    int gpus_ = 0;
    uint64_t generation_ = 0;
};

} // namespace scalescope
