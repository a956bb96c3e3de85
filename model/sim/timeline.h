// The per-GPU timeline: a flat, index-based structure of arrays (DESIGN.md section 3).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scalescope
{

enum class SegmentKind : uint8_t {
    Compute,
    TpComm,
    DpComm,
    PpComm,
    Bubble,
    Wait,
    DataLoad,
    Optimizer,
};
inline constexpr int kSegmentKindCount = 8;
const char *segmentKindName(SegmentKind k);
/// Chrome-trace category of a kind: compute | communication | wait | bubble | data.
const char *segmentCategory(SegmentKind k);

/// Timeline rows of a GPU: its compute stream, collectives, pipeline sends and pipeline
/// receives. Loader is the host-side data loader: an engine stream, not a row.
enum class Stream : uint8_t {
    Compute = 0,
    Collective = 1,
    PointToPoint = 2,
    Receive = 3,
    Loader = 4
};
inline constexpr int kStreamCount = 4;
inline constexpr int kEngineStreamCount = 5;
const char *streamName(Stream s);

/// Segments grouped by row (row = gpu * kStreamCount + stream), sorted by start within a
/// row; segments of one row never overlap, so ends are sorted too.
class Timeline
{
public:
    int gpus() const { return gpus_; }
    int gpusPerNode() const { return gpus_per_node_; }
    int rows() const { return gpus_ * kStreamCount; }
    size_t size() const { return start_.size(); }
    double endTime() const { return end_time_; }
    int iterations() const { return iterations_; }

    double start(size_t i) const { return start_[i]; }
    double duration(size_t i) const { return duration_[i]; }
    double end(size_t i) const { return start_[i] + duration_[i]; }
    SegmentKind kind(size_t i) const { return static_cast<SegmentKind>(kind_[i]); }
    int32_t microBatch(size_t i) const { return micro_batch_[i]; }
    const std::string &label(size_t i) const { return labels_[label_[i]]; }
    uint32_t labelId(size_t i) const { return label_[i]; }

    /// Segment index range [first, last) of a row.
    size_t rowBegin(int row) const { return row_offset_[static_cast<size_t>(row)]; }
    size_t rowEnd(int row) const { return row_offset_[static_cast<size_t>(row) + 1]; }
    /// First segment of `row` that ends after `t` (binary search).
    size_t firstEndingAfter(int row, double t) const;
    /// Bytes used per segment (all arrays together).
    static constexpr size_t bytesPerSegment()
    {
        return sizeof(double) + sizeof(float) + sizeof(uint8_t) + sizeof(uint32_t) +
               sizeof(int32_t);
    }

private:
    friend class TimelineBuilder;
    int gpus_ = 0;
    int gpus_per_node_ = 1;
    int iterations_ = 1;
    double end_time_ = 0;
    std::vector<double> start_;
    std::vector<float> duration_;
    std::vector<uint8_t> kind_;
    std::vector<uint32_t> label_;
    std::vector<int32_t> micro_batch_;
    std::vector<size_t> row_offset_;
    std::vector<std::string> labels_;
};

/// Appends segments row by row (rows in increasing order, segments in start order).
class TimelineBuilder
{
public:
    TimelineBuilder(int gpus, int gpus_per_node, int iterations);
    void reserve(size_t segments);
    /// Starts row `row`; rows must be started in increasing order.
    void beginRow(int row);
    void add(double start, double duration, SegmentKind kind, uint32_t label, int32_t micro_batch);
    uint32_t internLabel(const std::string &text);
    Timeline finish();

private:
    Timeline t_;
    int current_row_ = -1;
    std::vector<std::pair<std::string, uint32_t>> label_index_;
};

} // namespace scalescope
