// A slide's timeline (presentation.h): GPUs whose rows are identical folded into one, the last
// step's range, and GPU lists as ranges ("0–3, 6").
#include "presentation.h"

#include <QStringList>

#include <algorithm>
#include <bit>
#include <cstring>
#include <unordered_map>

namespace scalescope
{

namespace
{

uint64_t mix(uint64_t h, uint64_t v)
{
    // FNV-1a over the 8 bytes of v.
    for (int i = 0; i < 8; ++i) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t bitsOf(double v)
{
    return std::bit_cast<uint64_t>(v);
}

uint64_t gpuHash(const Timeline &t, int gpu)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int s = 0; s < kStreamCount; ++s) {
        const int row = gpu * kStreamCount + s;
        h = mix(h, t.rowEnd(row) - t.rowBegin(row));
        for (size_t i = t.rowBegin(row); i < t.rowEnd(row); ++i) {
            h = mix(h, bitsOf(t.start(i)));
            h = mix(h, bitsOf(t.duration(i)));
            h = mix(h, (uint64_t(t.kind(i)) << 32) ^ t.labelId(i));
        }
    }
    return h;
}

bool sameRows(const Timeline &t, int a, int b)
{
    for (int s = 0; s < kStreamCount; ++s) {
        const int ra = a * kStreamCount + s, rb = b * kStreamCount + s;
        const size_t n = t.rowEnd(ra) - t.rowBegin(ra);
        if (n != t.rowEnd(rb) - t.rowBegin(rb))
            return false;
        for (size_t k = 0; k < n; ++k) {
            const size_t i = t.rowBegin(ra) + k, j = t.rowBegin(rb) + k;
            if (t.start(i) != t.start(j) || t.duration(i) != t.duration(j) ||
                t.kind(i) != t.kind(j) || t.labelId(i) != t.labelId(j) ||
                t.microBatch(i) != t.microBatch(j))
                return false;
        }
    }
    return true;
}

} // namespace

FoldedTimeline foldIdenticalGpus(const Timeline &timeline)
{
    FoldedTimeline folded;
    const int gpus = timeline.gpus();
    if (gpus <= 1)
        return folded;
    std::vector<int> reps;                                     // first GPU of each group
    std::unordered_map<uint64_t, std::vector<size_t>> by_hash; // hash -> indices into reps
    for (int gpu = 0; gpu < gpus; ++gpu) {
        const uint64_t h = gpuHash(timeline, gpu);
        std::vector<size_t> &bucket = by_hash[h];
        bool found = false;
        for (size_t r : bucket) {
            if (sameRows(timeline, reps[r], gpu)) {
                folded.members[r].push_back(gpu);
                found = true;
                break;
            }
        }
        if (!found) {
            bucket.push_back(reps.size());
            reps.push_back(gpu);
            folded.members.push_back({gpu});
        }
    }
    if (static_cast<int>(reps.size()) == gpus) {
        folded.members.clear();
        return folded;
    }
    const int rows = static_cast<int>(reps.size());
    // One node: the rows stand for GPUs of any node (the note above the timeline says which).
    TimelineBuilder builder(rows, rows, timeline.iterations());
    size_t segments = 0;
    for (int gpu : reps)
        segments += timeline.rowEnd(gpu * kStreamCount + kStreamCount - 1) -
                    timeline.rowBegin(gpu * kStreamCount);
    builder.reserve(segments);
    for (int r = 0; r < rows; ++r) {
        for (int s = 0; s < kStreamCount; ++s) {
            const int from = reps[static_cast<size_t>(r)] * kStreamCount + s;
            builder.beginRow(r * kStreamCount + s);
            for (size_t i = timeline.rowBegin(from); i < timeline.rowEnd(from); ++i)
                builder.add(timeline.start(i), timeline.duration(i), timeline.kind(i),
                            builder.internLabelOf(timeline, i), timeline.microBatch(i),
                            timeline.bytes(i));
        }
    }
    std::vector<double> starts;
    for (int k = 0; k < timeline.iterations(); ++k)
        starts.push_back(timeline.stepStart(k));
    builder.setStepStarts(std::move(starts));
    folded.timeline = std::make_shared<const Timeline>(builder.finish());
    return folded;
}

std::pair<double, double> slideStepRange(const Timeline &timeline, double step_time_s)
{
    const double end = timeline.endTime();
    if (timeline.iterations() <= 1 || !(step_time_s > 0) || timeline.gpus() < 1)
        return {0.0, end};
    // GPU 0's last step: its compute row up to the end of its last busy segment (an
    // asynchronous replica idles at the end of the simulated window until the slowest one
    // finishes; that idle is not part of its step).
    double busy_end = 0;
    const int row = static_cast<int>(Stream::Compute);
    for (size_t i = timeline.rowEnd(row); i-- > timeline.rowBegin(row);) {
        const SegmentKind k = timeline.kind(i);
        if (k != SegmentKind::Wait && k != SegmentKind::Bubble && k != SegmentKind::DataLoad) {
            busy_end = timeline.end(i);
            break;
        }
    }
    if (!(busy_end > 0))
        busy_end = end;
    return {std::max(0.0, busy_end - step_time_s), busy_end};
}

QString gpuRangesText(const std::vector<int> &gpus)
{
    QStringList parts;
    for (size_t i = 0; i < gpus.size();) {
        size_t j = i;
        while (j + 1 < gpus.size() && gpus[j + 1] == gpus[j] + 1)
            ++j;
        if (j - i >= 2) {
            parts << QStringLiteral("%1–%2").arg(gpus[i]).arg(gpus[j]);
        } else {
            for (size_t k = i; k <= j; ++k)
                parts << QString::number(gpus[k]);
        }
        i = j + 1;
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace scalescope
