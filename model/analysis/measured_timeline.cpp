// A measured run as a timeline (measured_timeline.h).
#include "analysis/measured_timeline.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace scalescope
{

namespace
{

constexpr double kSecondsPerUs = 1e-6; // Kineto's ts and dur are microseconds

struct Span {
    double lo, hi;
    bool all_to_all = false; // every kernel of the span is an all-to-all
};

// The union of the spans (spec/cli.md "trace": busy time is the union of [ts, ts + dur)); a
// merged span is all-to-all only if every span in it is.
std::vector<Span> unite(std::vector<Span> v)
{
    std::sort(v.begin(), v.end(), [](const Span &a, const Span &b) { return a.lo < b.lo; });
    std::vector<Span> out;
    for (const Span &s : v) {
        if (s.hi <= s.lo)
            continue;
        if (!out.empty() && s.lo <= out.back().hi) {
            out.back().hi = std::max(out.back().hi, s.hi);
            out.back().all_to_all = out.back().all_to_all && s.all_to_all;
        } else {
            out.push_back(s);
        }
    }
    return out;
}

} // namespace

Timeline measuredTimeline(const std::vector<const KinetoTrace *> &traces,
                          const std::vector<MeasuredRank> &ranks,
                          const std::vector<std::vector<MeasuredCriticalPath>> &paths)
{
    assert(traces.size() == ranks.size());
    int iterations = 1;
    for (const MeasuredRank &r : ranks)
        iterations = std::max(iterations, static_cast<int>(r.steps.size()));
    const int gpus = static_cast<int>(traces.size());
    TimelineBuilder builder(gpus, std::max(1, gpus), iterations);
    const std::array<std::string, kStreamCount> texts = {"compute kernels", "collective kernels",
                                                         "send/recv kernels", ""};
    const std::array<SegmentKind, kStreamCount> kinds = {
        SegmentKind::Compute, SegmentKind::DpComm, SegmentKind::PpComm, SegmentKind::DataLoad};
    std::array<uint32_t, kStreamCount> labels{};
    for (int s = 0; s < kStreamCount - 1; ++s)
        labels[static_cast<size_t>(s)] = builder.internLabel(texts[static_cast<size_t>(s)]);
    // Stretches of the collectives row where only all-to-all kernels ran (NCCL AllToAll,
    // DeepEP dispatch and combine) are the expert exchange, drawn as the model draws it.
    const uint32_t all_to_all_label = builder.internLabel(std::string("all-to-all kernels"));

    // The measured steps' starts (the first rank's windows, from its first step).
    std::vector<double> step_starts;
    if (!ranks.empty() && static_cast<int>(ranks.front().steps.size()) == iterations)
        for (const MeasuredStep &step : ranks.front().steps)
            step_starts.push_back((step.start_us - ranks.front().steps.front().start_us) *
                                  kSecondsPerUs);
    builder.setStepStarts(std::move(step_starts));
    for (int g = 0; g < gpus; ++g) {
        const KinetoTrace &t = *traces[static_cast<size_t>(g)];
        const std::vector<MeasuredStep> &steps = ranks[static_cast<size_t>(g)].steps;
        std::array<std::vector<Span>, kStreamCount> rows;
        for (const TraceActivity &a : t.activities) {
            if (a.cls == ActivityClass::Copy)
                continue; // no row for copies (measured_timeline.h)
            int row = static_cast<int>(Stream::Compute);
            if (a.cls == ActivityClass::Communication)
                row = static_cast<int>(a.kind == CommKind::SendRecv ? Stream::PointToPoint
                                                                    : Stream::Collective);
            rows[static_cast<size_t>(row)].push_back(
                {a.start_us, a.end_us, a.kind == CommKind::AllToAll});
        }
        const double origin = steps.empty() ? 0 : steps.front().start_us;
        for (int s = 0; s < kStreamCount; ++s) {
            builder.beginRow(g * kStreamCount + s);
            const std::vector<Span> spans = unite(std::move(rows[static_cast<size_t>(s)]));
            // Each step window's part of the union, labelled with the step's index.
            size_t i = 0;
            for (size_t w = 0; w < steps.size(); ++w) {
                const double lo = steps[w].start_us, hi = steps[w].end_us;
                while (i < spans.size() && spans[i].hi <= lo)
                    ++i;
                for (size_t j = i; j < spans.size() && spans[j].lo < hi; ++j) {
                    const double a = std::max(spans[j].lo, lo), b = std::min(spans[j].hi, hi);
                    const bool expert =
                        s == static_cast<int>(Stream::Collective) && spans[j].all_to_all;
                    builder.add((a - origin) * kSecondsPerUs, (b - a) * kSecondsPerUs,
                                expert ? SegmentKind::EpComm : kinds[static_cast<size_t>(s)],
                                expert ? all_to_all_label : labels[static_cast<size_t>(s)],
                                static_cast<int32_t>(w));
                }
            }
        }
    }
    // Each rank's critical path over its steps (measured_critical_path.h), on its rows.
    std::vector<CriticalSpan> critical;
    for (int g = 0; g < gpus && static_cast<size_t>(g) < paths.size(); ++g)
        appendCriticalSpans(paths[static_cast<size_t>(g)], ranks[static_cast<size_t>(g)], g,
                            &critical);
    builder.setCriticalPath(std::move(critical));
    return builder.finish();
}

} // namespace scalescope
