#include "sim/timeline.h"

#include <algorithm>
#include <cassert>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace scalescope
{

namespace
{
constexpr size_t kHugePage = size_t{2} << 20;

size_t roundedSize(size_t bytes)
{
    return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

// Freed large arrays, most recent last (allocateLargeArray takes the best fit).
struct LargeArrayCache {
    std::mutex mutex;
    std::vector<std::pair<void *, size_t>> blocks;
    size_t bytes = 0;
    ~LargeArrayCache()
    {
        for (const auto &[p, n] : blocks)
            std::free(p);
    }
};

LargeArrayCache &largeArrayCache()
{
    static LargeArrayCache cache;
    return cache;
}
} // namespace

void *allocateLargeArray(size_t bytes)
{
    const size_t size = roundedSize(bytes);
    {
        LargeArrayCache &c = largeArrayCache();
        const std::lock_guard lock(c.mutex);
        // The smallest cached block that holds it, if it wastes at most half of itself.
        size_t best = c.blocks.size();
        for (size_t i = 0; i < c.blocks.size(); ++i)
            if (c.blocks[i].second >= size && c.blocks[i].second <= 2 * size &&
                (best == c.blocks.size() || c.blocks[i].second < c.blocks[best].second))
                best = i;
        if (best < c.blocks.size()) {
            void *p = c.blocks[best].first;
            c.bytes -= c.blocks[best].second;
            c.blocks.erase(c.blocks.begin() + static_cast<std::ptrdiff_t>(best));
            return p;
        }
    }
    void *p = std::aligned_alloc(kHugePage, size);
    if (!p)
        throw std::bad_alloc();
    adviseHugePages(p, size);
    return p;
}

void adviseHugePages(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Advice only: where huge pages are off or scarce the kernel uses small ones.
    const auto a = reinterpret_cast<uintptr_t>(p);
    const uintptr_t begin = (a + kHugePage - 1) & ~(uintptr_t{kHugePage} - 1);
    const uintptr_t end = (a + bytes) & ~(uintptr_t{kHugePage} - 1);
    if (p != nullptr && end > begin)
        (void)madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

void freeLargeArray(void *p, size_t bytes)
{
    if (!p)
        return;
    const size_t size = roundedSize(bytes);
    LargeArrayCache &c = largeArrayCache();
    const std::lock_guard lock(c.mutex);
    if (size > kLargeArrayCacheBytes) {
        std::free(p);
        return;
    }
    // The oldest blocks go first when the cache would outgrow its limit.
    while (!c.blocks.empty() && c.bytes + size > kLargeArrayCacheBytes) {
        std::free(c.blocks.front().first);
        c.bytes -= c.blocks.front().second;
        c.blocks.erase(c.blocks.begin());
    }
    c.blocks.emplace_back(p, size);
    c.bytes += size;
}

const char *streamName(Stream s)
{
    switch (s) {
    case Stream::Compute:
        return "compute";
    case Stream::Collective:
        return "collectives";
    case Stream::PointToPoint:
        return "p2p send";
    case Stream::Receive:
        return "p2p receive";
    case Stream::Loader:
        return "loader";
    }
    return "?";
}

size_t Timeline::firstEndingAfter(int row, double t) const
{
    size_t lo = rowBegin(row), hi = rowEnd(row);
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (end(mid) <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

TimelineBuilder::TimelineBuilder(int gpus, int gpus_per_node, int iterations)
{
    t_.gpus_ = gpus;
    t_.gpus_per_node_ = gpus_per_node;
    t_.iterations_ = iterations;
    t_.row_offset_.assign(static_cast<size_t>(gpus) * kStreamCount + 1, 0);
}

void TimelineBuilder::reserve(size_t segments)
{
    t_.forEachArray([segments](auto &a) { a.reserve(segments); });
}

void TimelineBuilder::beginRow(int row)
{
    assert(row > current_row_);
    for (int r = current_row_ + 1; r <= row; ++r)
        t_.row_offset_[static_cast<size_t>(r)] = t_.start_.size();
    current_row_ = row;
}

void TimelineBuilder::add(double start, double duration, SegmentKind kind, uint32_t label,
                          int32_t micro_batch, double bytes)
{
    if (duration <= 0)
        return;
    t_.start_.push_back(start);
    t_.duration_.push_back(static_cast<float>(duration));
    t_.kind_.push_back(static_cast<uint8_t>(kind));
    t_.label_.push_back(label);
    t_.micro_batch_.push_back(micro_batch);
    t_.bytes_.push_back(static_cast<float>(bytes));
    t_.end_time_ = std::max(t_.end_time_, start + duration);
}

uint32_t TimelineBuilder::intern(const std::string &text, const SegmentLabel &label)
{
    for (size_t id = 0; id < t_.labels_.size(); ++id)
        if (t_.label_records_[id] == label && t_.labels_[id] == text)
            return static_cast<uint32_t>(id);
    t_.labels_.push_back(text);
    t_.label_records_.push_back(label);
    return static_cast<uint32_t>(t_.labels_.size() - 1);
}

uint32_t TimelineBuilder::internLabel(const SegmentLabel &label)
{
    assert(label.kind != LabelKind::Text);
    return intern(labelText(label), label);
}

uint32_t TimelineBuilder::internLabel(const std::string &text)
{
    return intern(text, SegmentLabel{});
}

uint32_t TimelineBuilder::internLabelOf(const Timeline &from, size_t i)
{
    return intern(from.label(i), from.labelRecord(i));
}

const std::vector<size_t> &TimelineBuilder::allocate(const std::vector<size_t> &row_sizes)
{
    assert(row_sizes.size() + 1 == t_.row_offset_.size());
    size_t total = 0;
    for (size_t r = 0; r < row_sizes.size(); ++r) {
        t_.row_offset_[r] = total;
        total += row_sizes[r];
    }
    t_.row_offset_.back() = total;
    t_.forEachArray([total](auto &a) { a.resize(total); });
    current_row_ = t_.rows();
    return t_.row_offset_;
}

Timeline TimelineBuilder::finish()
{
    for (size_t r = static_cast<size_t>(current_row_ + 1); r < t_.row_offset_.size(); ++r)
        t_.row_offset_[r] = t_.start_.size();
    current_row_ = t_.rows();
    return std::move(t_);
}

} // namespace scalescope
