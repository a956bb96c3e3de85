// The per-GPU timeline: a flat, index-based structure of arrays (DESIGN.md section 3).
#pragma once

#include "sim/labels.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace scalescope
{

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

/// A stretch of the step's critical path on one row (sim/critical_path.h): the task that
/// sets the step there, drawn over the row's segments.
struct CriticalSpan {
    int row = 0; // gpu * kStreamCount + stream
    double start_s = 0, end_s = 0;
};

/// Large arrays of segments: 2 MiB aligned and, on Linux, backed by transparent huge pages
/// where the system allows (madvise), so that filling 100 MB takes 50 page faults instead of
/// 25,000. Freed arrays are kept for the next timeline (at most kLargeArrayCacheBytes in
/// all): a window recomputing on every edit then writes into memory it already has instead
/// of the kernel zeroing fresh pages each time.
inline constexpr size_t kLargeArrayBytes = size_t{4} << 20;
inline constexpr size_t kLargeArrayCacheBytes = size_t{512} << 20;
void *allocateLargeArray(size_t bytes);
/// The advice allocateLargeArray gives, for any buffer just allocated and not yet touched:
/// the whole 2 MiB pages inside [p, p + bytes) as transparent huge pages (Linux only;
/// advice, which the kernel may ignore).
void adviseHugePages(void *p, size_t bytes);
void freeLargeArray(void *p, size_t bytes);

/// Allocates without value-initialising: the engine writes every element of a timeline's
/// arrays exactly once, so zero-filling them first would write them twice.
template <typename T> struct DefaultInitAllocator {
    using value_type = T;
    DefaultInitAllocator() noexcept = default;
    template <typename U> DefaultInitAllocator(const DefaultInitAllocator<U> &) noexcept {}
    T *allocate(size_t n)
    {
        if (n * sizeof(T) >= kLargeArrayBytes)
            return static_cast<T *>(allocateLargeArray(n * sizeof(T)));
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T *p, size_t n) noexcept
    {
        if (n * sizeof(T) >= kLargeArrayBytes)
            freeLargeArray(p, n * sizeof(T));
        else
            std::allocator<T>().deallocate(p, n);
    }
    template <typename U> void construct(U *p) noexcept { ::new (static_cast<void *>(p)) U; }
    template <typename U, typename... A> void construct(U *p, A &&...a)
    {
        ::new (static_cast<void *>(p)) U(std::forward<A>(a)...);
    }
    template <typename U> bool operator==(const DefaultInitAllocator<U> &) const noexcept
    {
        return true;
    }
};
template <typename T> using SegmentArray = std::vector<T, DefaultInitAllocator<T>>;

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
    /// When step `k` (0-based, below iterations()) starts: where the producer knew it (the
    /// engine: the end of the step before on its slowest GPU; a measured trace: its step
    /// windows), else an even split of the drawn span.
    double stepStart(int k) const
    {
        if (static_cast<size_t>(k) < step_starts_.size())
            return step_starts_[static_cast<size_t>(k)];
        return iterations_ > 0 ? k * end_time_ / iterations_ : 0.0;
    }
    /// The step (0-based) time `t` falls in.
    int stepAt(double t) const
    {
        int k = 0;
        while (k + 1 < iterations_ && stepStart(k + 1) <= t)
            ++k;
        return k;
    }

    double start(size_t i) const { return start_[i]; }
    double duration(size_t i) const { return duration_[i]; }
    double end(size_t i) const { return start_[i] + duration_[i]; }
    SegmentKind kind(size_t i) const { return static_cast<SegmentKind>(kind_[i]); }
    int32_t microBatch(size_t i) const { return micro_batch_[i]; }
    /// Bytes a communication segment moves (the collective's buffer, nccl-tests' size, or
    /// the pipeline message); 0 for other segments and merged ones.
    float bytes(size_t i) const { return bytes_[i]; }
    /// The English text of a segment's label (labelText of its record, or the text given).
    const std::string &label(size_t i) const { return labels_[label_[i]]; }
    uint32_t labelId(size_t i) const { return label_[i]; }
    /// The label of a segment as a record (what the GUI translates).
    const SegmentLabel &labelRecord(size_t i) const { return label_records_[label_[i]]; }
    /// Labels by id: how many, their English texts and their records.
    size_t labelCount() const { return labels_.size(); }
    const std::string &labelTextOf(uint32_t id) const { return labels_[id]; }
    const SegmentLabel &labelRecordOf(uint32_t id) const { return label_records_[id]; }

    /// Segment index range [first, last) of a row.
    size_t rowBegin(int row) const { return row_offset_[static_cast<size_t>(row)]; }
    size_t rowEnd(int row) const { return row_offset_[static_cast<size_t>(row) + 1]; }
    /// First segment of `row` that ends after `t` (binary search).
    size_t firstEndingAfter(int row, double t) const;
    /// The critical path of the simulated steps, on the rows of each task's first GPU, in
    /// time order (sim/critical_path.h); of a measured timeline, each rank's from the trace's
    /// dependencies (analysis/measured_critical_path.h). Empty when none was found.
    const std::vector<CriticalSpan> &criticalPath() const { return critical_; }
    /// Bytes used per segment (all arrays together).
    static constexpr size_t bytesPerSegment()
    {
        return sizeof(double) + sizeof(float) + sizeof(uint8_t) + sizeof(uint32_t) +
               sizeof(int32_t) + sizeof(float);
    }

private:
    friend class TimelineBuilder;
    /// Calls f on each per-segment array (sizing and copying treat them all alike).
    template <typename F> void forEachArray(F &&f)
    {
        f(start_);
        f(duration_);
        f(kind_);
        f(label_);
        f(micro_batch_);
        f(bytes_);
    }
    int gpus_ = 0;
    int gpus_per_node_ = 1;
    int iterations_ = 1;
    double end_time_ = 0;
    std::vector<double> step_starts_; // empty: an even split (stepStart)
    std::vector<CriticalSpan> critical_;
    SegmentArray<double> start_;
    SegmentArray<float> duration_;
    SegmentArray<uint8_t> kind_;
    SegmentArray<uint32_t> label_;
    SegmentArray<int32_t> micro_batch_;
    SegmentArray<float> bytes_;
    std::vector<size_t> row_offset_;
    std::vector<std::string> labels_;         // by label id
    std::vector<SegmentLabel> label_records_; // by label id
};

/// Appends segments row by row (rows in increasing order, segments in start order).
class TimelineBuilder
{
public:
    TimelineBuilder(int gpus, int gpus_per_node, int iterations);
    void reserve(size_t segments);
    /// Starts row `row`; rows must be started in increasing order.
    void beginRow(int row);
    void add(double start, double duration, SegmentKind kind, uint32_t label, int32_t micro_batch,
             double bytes = 0);
    /// The id of a label (the same for the same label): a record, whose English text the
    /// timeline keeps beside it; a text only (a Text record); or segment `i`'s of `from`.
    uint32_t internLabel(const SegmentLabel &label);
    uint32_t internLabel(const std::string &text);
    uint32_t internLabelOf(const Timeline &from, size_t i);
    Timeline finish();

    /// Writing in place instead of appending (the engine, from several threads): sizes every
    /// row at once from `row_sizes` (one per row, in row order), uninitialised; then each
    /// index below the total is written once with set(), from any thread; then finish().
    /// Returns the index of each row's first segment (rows + 1 entries).
    const std::vector<size_t> &allocate(const std::vector<size_t> &row_sizes);
    void set(size_t i, double start, double duration, SegmentKind kind, uint32_t label,
             int32_t micro_batch, double bytes)
    {
        t_.bytes_[i] = static_cast<float>(bytes);
        t_.start_[i] = start;
        t_.duration_[i] = static_cast<float>(duration);
        t_.kind_[i] = static_cast<uint8_t>(kind);
        t_.label_[i] = label;
        t_.micro_batch_[i] = micro_batch;
    }
    /// Copies segments [begin, end) to `to` (rows that repeat another row).
    void copyRange(size_t begin, size_t end, size_t to)
    {
        t_.forEachArray([=](auto &a) {
            const auto b = a.begin();
            std::copy(b + static_cast<std::ptrdiff_t>(begin), b + static_cast<std::ptrdiff_t>(end),
                      b + static_cast<std::ptrdiff_t>(to));
        });
    }
    /// With allocate(): the latest end of any segment written.
    void setEndTime(double t) { t_.end_time_ = t; }
    /// Where each step starts (one per iteration, ascending; Timeline::stepStart).
    void setStepStarts(std::vector<double> starts) { t_.step_starts_ = std::move(starts); }
    void setCriticalPath(std::vector<CriticalSpan> spans) { t_.critical_ = std::move(spans); }

private:
    Timeline t_;
    int current_row_ = -1;
    uint32_t intern(const std::string &text, const SegmentLabel &label);
};

} // namespace scalescope
