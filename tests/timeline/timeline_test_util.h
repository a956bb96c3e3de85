// Small synthetic timelines for the timeline view tests.
#pragma once

#include "sim/timeline.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace scalescope::test
{

struct Seg {
    Seg(int row_, double start_s_, double duration_s_, SegmentKind kind_, std::string label_ = {},
        int micro_batch_ = -1, double bytes_ = 0)
        : row(row_), start_s(start_s_), duration_s(duration_s_), kind(kind_),
          label(std::move(label_)), micro_batch(micro_batch_), bytes(bytes_)
    {
    }
    int row = 0;
    double start_s = 0;
    double duration_s = 0;
    SegmentKind kind = SegmentKind::Compute;
    std::string label;
    int micro_batch = -1;
    double bytes = 0;
};

inline std::shared_ptr<const Timeline> makeTimeline(int gpus, int gpus_per_node, int iterations,
                                                    std::vector<Seg> segments)
{
    std::stable_sort(segments.begin(), segments.end(), [](const Seg &a, const Seg &b) {
        return a.row != b.row ? a.row < b.row : a.start_s < b.start_s;
    });
    TimelineBuilder builder(gpus, gpus_per_node, iterations);
    builder.reserve(segments.size());
    int row = -1;
    for (const Seg &s : segments) {
        if (s.row != row) {
            row = s.row;
            builder.beginRow(row);
        }
        builder.add(s.start_s, s.duration_s, s.kind, builder.internLabel(s.label), s.micro_batch,
                    s.bytes);
    }
    return std::make_shared<const Timeline>(builder.finish());
}

/// Every GPU's compute row full of `per_row` back-to-back segments of `duration_s`.
inline std::shared_ptr<const Timeline> makeComputeTimeline(int gpus, int gpus_per_node, int per_row,
                                                           double duration_s)
{
    std::vector<Seg> segs;
    for (int g = 0; g < gpus; ++g)
        for (int i = 0; i < per_row; ++i)
            segs.push_back({g * kStreamCount, i * duration_s, duration_s, SegmentKind::Compute,
                            "layer", i % 4});
    return makeTimeline(gpus, gpus_per_node, 1, std::move(segs));
}

} // namespace scalescope::test
