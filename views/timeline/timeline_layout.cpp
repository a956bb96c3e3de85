#include "timeline/timeline_layout.h"

#include <algorithm>

namespace scalescope
{

namespace
{
uint64_t nextGeneration()
{
    static uint64_t counter = 0; // GUI thread only
    return ++counter;
}
} // namespace

int TimelineRowLayout::nodeCountOf(const Timeline &timeline)
{
    const int per_node = std::max(1, timeline.gpusPerNode());
    return (timeline.gpus() + per_node - 1) / per_node;
}

void TimelineRowLayout::build(const Timeline *timeline, const std::vector<bool> &collapsed_nodes,
                              int row_height_px, int node_row_height_px)
{
    rows_.clear();
    layout_row_of_timeline_row_.clear();
    layout_row_of_node_.clear();
    total_height_px_ = 0;
    node_count_ = 0;
    gpus_ = 0;
    gpus_per_node_ = 1;
    generation_ = nextGeneration();
    if (!timeline)
        return;

    gpus_ = timeline->gpus();
    gpus_per_node_ = std::max(1, timeline->gpusPerNode());
    node_count_ = nodeCountOf(*timeline);
    layout_row_of_timeline_row_.assign(static_cast<size_t>(timeline->rows()), -1);
    layout_row_of_node_.assign(static_cast<size_t>(node_count_), -1);
    int y_px = 0;
    for (int node = 0; node < node_count_; ++node) {
        const bool collapsed =
            static_cast<size_t>(node) < collapsed_nodes.size() && collapsed_nodes[node];
        TimelineRowInfo header;
        header.type = TimelineRowInfo::Type::Node;
        header.collapsed = collapsed;
        header.node = node;
        header.y_px = y_px;
        header.height_px = node_row_height_px;
        layout_row_of_node_[static_cast<size_t>(node)] = static_cast<int>(rows_.size());
        rows_.push_back(header);
        y_px += node_row_height_px;
        if (collapsed)
            continue;
        const auto [gpu_begin, gpu_end] = gpuRange(node);
        for (int gpu = gpu_begin; gpu < gpu_end; ++gpu) {
            bool first = true;
            for (int s = 0; s < kStreamCount; ++s) {
                const int timeline_row = gpu * kStreamCount + s;
                const bool has_segments =
                    timeline->rowEnd(timeline_row) > timeline->rowBegin(timeline_row);
                if (s != static_cast<int>(Stream::Compute) && !has_segments)
                    continue;
                TimelineRowInfo info;
                info.type = TimelineRowInfo::Type::Stream;
                info.first_of_gpu = first;
                info.stream = static_cast<Stream>(s);
                info.node = node;
                info.gpu = gpu;
                info.timeline_row = timeline_row;
                info.y_px = y_px;
                info.height_px = row_height_px;
                layout_row_of_timeline_row_[static_cast<size_t>(timeline_row)] =
                    static_cast<int>(rows_.size());
                rows_.push_back(info);
                y_px += row_height_px;
                first = false;
            }
        }
    }
    total_height_px_ = y_px;
}

std::pair<int, int> TimelineRowLayout::gpuRange(int node) const
{
    const int begin = std::min(gpus_, node * gpus_per_node_);
    return {begin, std::min(gpus_, begin + gpus_per_node_)};
}

int TimelineRowLayout::rowIndexAt(int y_px) const
{
    if (y_px < 0 || y_px >= total_height_px_)
        return -1;
    const auto it = std::upper_bound(rows_.begin(), rows_.end(), y_px,
                                     [](int y, const TimelineRowInfo &r) { return y < r.y_px; });
    return static_cast<int>(it - rows_.begin()) - 1;
}

std::pair<size_t, size_t> TimelineRowLayout::rowsIntersecting(int y0_px, int y1_px) const
{
    if (y1_px <= y0_px || rows_.empty())
        return {0, 0};
    // First row whose bottom is below y0, then every row that starts above y1.
    const auto first =
        std::lower_bound(rows_.begin(), rows_.end(), y0_px,
                         [](const TimelineRowInfo &r, int y) { return r.y_px + r.height_px <= y; });
    const auto last = std::lower_bound(first, rows_.end(), y1_px,
                                       [](const TimelineRowInfo &r, int y) { return r.y_px < y; });
    return {static_cast<size_t>(first - rows_.begin()), static_cast<size_t>(last - rows_.begin())};
}

int TimelineRowLayout::layoutRowOfTimelineRow(int timeline_row) const
{
    if (timeline_row < 0 || static_cast<size_t>(timeline_row) >= layout_row_of_timeline_row_.size())
        return -1;
    return layout_row_of_timeline_row_[static_cast<size_t>(timeline_row)];
}

int TimelineRowLayout::layoutRowOfNode(int node) const
{
    if (node < 0 || static_cast<size_t>(node) >= layout_row_of_node_.size())
        return -1;
    return layout_row_of_node_[static_cast<size_t>(node)];
}

} // namespace scalescope
