// The critical path of a measured step (measured_critical_path.h).
#include "analysis/measured_critical_path.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace scalescope
{

const char *pathPartName(PathPart part)
{
    switch (part) {
    case PathPart::Compute:
        return "compute";
    case PathPart::Communication:
        return "communication";
    case PathPart::Copy:
        return "copies";
    case PathPart::Host:
        return "host";
    case PathPart::LaunchGap:
        return "launch_gaps";
    case PathPart::Untraced:
        return "untraced";
    }
    return "";
}

const char *pathLinkName(PathLink link)
{
    switch (link) {
    case PathLink::StreamOrder:
        return "stream_order";
    case PathLink::Launch:
        return "launch";
    case PathLink::RecordedWait:
        return "recorded_wait";
    case PathLink::InferredWait:
        return "inferred_wait";
    case PathLink::HostOrder:
        return "host_order";
    case PathLink::HostSync:
        return "host_sync";
    }
    return "";
}

namespace
{

constexpr int32_t kNone = -1;
constexpr double kSecondsPerUs = 1e-6;
/// Host and GPU timestamps of one trace come from two clocks that Kineto aligns; a release
/// may appear up to this much after what it released.
constexpr double kClockSkewUs = 2.0;
/// How many activities a search for a releasing activity looks at before giving up (a bound
/// on the work per node, so that a pathological trace stays linear).
constexpr int kSearchLimit = 512;

// The dependencies of one trace, indexed once for all its steps.
class Dependencies
{
public:
    explicit Dependencies(const KinetoTrace &t) : t_(t)
    {
        const std::vector<TraceActivity> &acts = t.activities;
        const size_t n = acts.size();
        // Each stream's order: activities sorted by stream, start, end, file order.
        std::vector<uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            const TraceActivity &x = acts[a], &y = acts[b];
            if (x.stream != y.stream)
                return x.stream < y.stream;
            if (x.start_us != y.start_us)
                return x.start_us < y.start_us;
            return x.end_us < y.end_us;
        });
        prev_on_stream_.assign(n, kNone);
        for (size_t i = 1; i < n; ++i) {
            if (acts[order[i]].stream == acts[order[i - 1]].stream)
                prev_on_stream_[order[i]] = static_cast<int32_t>(order[i - 1]);
        }
        by_end_.resize(n);
        std::iota(by_end_.begin(), by_end_.end(), 0u);
        std::stable_sort(by_end_.begin(), by_end_.end(),
                         [&](uint32_t a, uint32_t b) { return acts[a].end_us < acts[b].end_us; });
        by_start_.resize(n);
        std::iota(by_start_.begin(), by_start_.end(), 0u);
        std::stable_sort(by_start_.begin(), by_start_.end(), [&](uint32_t a, uint32_t b) {
            return acts[a].start_us < acts[b].start_us;
        });

        // Each host thread's order.
        const std::vector<TraceLaunch> &calls = t.launches;
        std::vector<uint32_t> host(calls.size());
        std::iota(host.begin(), host.end(), 0u);
        std::stable_sort(host.begin(), host.end(), [&](uint32_t a, uint32_t b) {
            if (calls[a].thread != calls[b].thread)
                return calls[a].thread < calls[b].thread;
            return calls[a].start_us < calls[b].start_us;
        });
        prev_on_thread_.assign(calls.size(), kNone);
        for (size_t i = 1; i < host.size(); ++i) {
            if (calls[host[i]].thread == calls[host[i - 1]].thread)
                prev_on_thread_[host[i]] = static_cast<int32_t>(host[i - 1]);
        }

        recorded_ = !t.syncs.empty();
        if (recorded_)
            indexRecordedWaits();
        else
            inferHostWaits();
        indexOwnWaits();
    }

    const KinetoTrace &trace() const { return t_; }
    bool recorded() const { return recorded_; }
    int32_t prevOnStream(uint32_t a) const { return prev_on_stream_[a]; }
    int32_t prevOnThread(uint32_t h) const { return prev_on_thread_[h]; }

    /// The host call of the activity's correlation, or kNone.
    int32_t launchOf(uint32_t a) const { return callOf(t_.activities[a].correlation); }

    int32_t callOf(int64_t correlation) const
    {
        if (correlation == kNoCorrelation)
            return kNone;
        const std::vector<TraceLaunch> &calls = t_.launches;
        const auto it =
            std::lower_bound(calls.begin(), calls.end(), correlation,
                             [](const TraceLaunch &l, int64_t c) { return l.correlation < c; });
        return it != calls.end() && it->correlation == correlation
                   ? static_cast<int32_t>(it - calls.begin())
                   : kNone;
    }

    /// The activity that a recorded wait makes `a` wait for, or kNone.
    int32_t recordedProducer(uint32_t a) const
    {
        const auto it = gpu_waits_.find(a);
        return it == gpu_waits_.end() ? kNone : static_cast<int32_t>(it->second);
    }
    /// The activity a synchronising host call waited for (recorded, else inferred), or kNone.
    int32_t hostProducer(uint32_t h) const
    {
        const auto it = host_waits_.find(h);
        return it == host_waits_.end() ? kNone : static_cast<int32_t>(it->second);
    }

    /// Without recorded waits: another stream's activity that ended after `released_us` and
    /// at most kInferredWaitUs before `a` started (the latest such), or kNone.
    int32_t inferredProducer(uint32_t a, double released_us) const
    {
        const std::vector<TraceActivity> &acts = t_.activities;
        const TraceActivity &x = acts[a];
        const double floor = std::max(released_us, x.start_us - kInferredWaitUs);
        auto it = std::upper_bound(by_end_.begin(), by_end_.end(), x.start_us + kClockSkewUs,
                                   [&](double v, uint32_t i) { return v < acts[i].end_us; });
        for (int k = 0; it != by_end_.begin() && k < kSearchLimit; ++k) {
            const uint32_t i = *--it;
            const TraceActivity &y = acts[i];
            if (y.end_us <= floor)
                break;
            if (i != a && y.stream != x.stream && y.start_us < x.start_us)
                return static_cast<int32_t>(i);
        }
        return kNone;
    }

    /// The activity that ends the window [lo, hi]: the latest-ending one that starts inside it.
    int32_t lastIn(double lo, double hi) const
    {
        const std::vector<TraceActivity> &acts = t_.activities;
        auto it = std::upper_bound(by_end_.begin(), by_end_.end(), hi + kClockSkewUs,
                                   [&](double v, uint32_t i) { return v < acts[i].end_us; });
        while (it != by_end_.begin()) {
            const uint32_t i = *--it;
            if (acts[i].end_us <= lo)
                break;
            if (acts[i].start_us >= lo && acts[i].start_us < hi)
                return static_cast<int32_t>(i);
        }
        return kNone;
    }

    /// An activity that starts at `at` (the next step's first), or kNone.
    int32_t startingAt(double at) const
    {
        const std::vector<TraceActivity> &acts = t_.activities;
        const auto it =
            std::lower_bound(by_start_.begin(), by_start_.end(), at,
                             [&](uint32_t i, double v) { return acts[i].start_us < v; });
        return it != by_start_.end() && acts[*it].start_us == at ? static_cast<int32_t>(*it)
                                                                 : kNone;
    }

private:
    // cuda_sync events (measured_trace.h TraceSync), resolved as HolisticTraceAnalysis does:
    // the producer is the last activity its stream had queued before the event record's
    // correlation; a stream wait's consumer is the first activity its stream queued after
    // the wait call's correlation.
    void indexRecordedWaits()
    {
        const std::vector<TraceActivity> &acts = t_.activities;
        std::unordered_map<int32_t, std::vector<std::pair<int64_t, uint32_t>>> by_stream;
        for (uint32_t i = 0; i < acts.size(); ++i) {
            if (acts[i].correlation != kNoCorrelation)
                by_stream[acts[i].stream].push_back({acts[i].correlation, i});
        }
        for (auto &[stream, list] : by_stream)
            std::sort(list.begin(), list.end());
        const auto lastBefore = [&](int32_t stream, int64_t correlation) -> int32_t {
            const auto s = by_stream.find(stream);
            if (s == by_stream.end() || correlation == kNoCorrelation)
                return kNone;
            const auto it = std::lower_bound(s->second.begin(), s->second.end(),
                                             std::make_pair(correlation, uint32_t{0}));
            return it == s->second.begin() ? kNone : static_cast<int32_t>(std::prev(it)->second);
        };
        const auto firstAfter = [&](int32_t stream, int64_t correlation) -> int32_t {
            const auto s = by_stream.find(stream);
            if (s == by_stream.end() || correlation == kNoCorrelation)
                return kNone;
            const auto it =
                std::upper_bound(s->second.begin(), s->second.end(),
                                 std::make_pair(correlation, std::numeric_limits<uint32_t>::max()));
            return it == s->second.end() ? kNone : static_cast<int32_t>(it->second);
        };
        const auto keepLatest = [&](std::unordered_map<uint32_t, uint32_t> &map, uint32_t key,
                                    int32_t producer) {
            if (producer == kNone)
                return;
            const auto [it, added] = map.try_emplace(key, static_cast<uint32_t>(producer));
            if (!added && acts[it->second].end_us < acts[static_cast<uint32_t>(producer)].end_us)
                it->second = static_cast<uint32_t>(producer);
        };
        for (const TraceSync &w : t_.syncs) {
            switch (w.kind) {
            case SyncKind::StreamWaitEvent: {
                const int32_t consumer = firstAfter(w.stream, w.correlation);
                if (consumer != kNone)
                    keepLatest(gpu_waits_, static_cast<uint32_t>(consumer),
                               lastBefore(w.producer_stream, w.record_correlation));
                break;
            }
            case SyncKind::EventSync:
            case SyncKind::StreamSync:
            case SyncKind::ContextSync: {
                const int32_t call = callOf(w.correlation);
                if (call == kNone)
                    break;
                int32_t producer = kNone;
                if (w.kind == SyncKind::EventSync)
                    producer = lastBefore(w.producer_stream, w.record_correlation);
                else if (w.kind == SyncKind::StreamSync)
                    producer = lastBefore(w.stream, w.correlation);
                else
                    producer = latestEndingBefore(static_cast<uint32_t>(call),
                                                  -std::numeric_limits<double>::infinity());
                keepLatest(host_waits_, static_cast<uint32_t>(call), producer);
                break;
            }
            }
        }
    }

    // Without cuda_sync events: a host call that blocks (HostWait) waited for the activity
    // queued before it (a smaller correlation) that ended last while it waited. A poll
    // (cudaEventQuery in a loop) returns "done" on the first call after that activity ended:
    // the activity ended after the thread's previous call did.
    void inferHostWaits()
    {
        const std::vector<TraceLaunch> &calls = t_.launches;
        for (uint32_t h = 0; h < calls.size(); ++h) {
            if (calls[h].wait == HostWait::None)
                continue;
            double floor = calls[h].start_us;
            if (calls[h].wait == HostWait::Poll) {
                const int32_t p = prev_on_thread_[h];
                if (p == kNone)
                    continue;
                const TraceLaunch &prev = calls[static_cast<uint32_t>(p)];
                floor = prev.start_us + prev.dur_us;
            }
            const int32_t producer = latestEndingBefore(h, floor);
            if (producer != kNone)
                host_waits_.emplace(h, static_cast<uint32_t>(producer));
        }
    }

    // A call that returns only after the activity it issued ended waited for it: a cudaMemcpy,
    // or a cudaMemcpyAsync to pageable host memory, which CUDA runs synchronously (CUDA Runtime
    // API, "API synchronization behavior"). Recorded or inferred waits it has stay.
    void indexOwnWaits()
    {
        const std::vector<TraceActivity> &acts = t_.activities;
        const std::vector<TraceLaunch> &calls = t_.launches;
        for (uint32_t a = 0; a < acts.size(); ++a) {
            const int32_t h = callOf(acts[a].correlation);
            if (h == kNone)
                continue;
            const TraceLaunch &call = calls[static_cast<uint32_t>(h)];
            const double end = call.start_us + call.dur_us;
            if (acts[a].end_us > call.start_us && acts[a].end_us <= end + kClockSkewUs)
                host_waits_.emplace(static_cast<uint32_t>(h), a);
        }
    }

    // The latest-ending activity queued before host call h (smaller correlation) that ends
    // by h's end and after `floor_us`.
    int32_t latestEndingBefore(uint32_t h, double floor_us) const
    {
        const TraceLaunch &call = t_.launches[h];
        const double end = call.start_us + call.dur_us;
        const std::vector<TraceActivity> &acts = t_.activities;
        auto it = std::upper_bound(by_end_.begin(), by_end_.end(), end + kClockSkewUs,
                                   [&](double v, uint32_t i) { return v < acts[i].end_us; });
        for (int k = 0; it != by_end_.begin() && k < kSearchLimit; ++k) {
            const uint32_t i = *--it;
            if (acts[i].end_us <= floor_us)
                break;
            if (acts[i].correlation != kNoCorrelation && acts[i].correlation < call.correlation)
                return static_cast<int32_t>(i);
        }
        return kNone;
    }

    const KinetoTrace &t_;
    bool recorded_ = false;
    std::vector<int32_t> prev_on_stream_;
    std::vector<uint32_t> by_end_, by_start_;
    std::vector<int32_t> prev_on_thread_;
    std::unordered_map<uint32_t, uint32_t> gpu_waits_;  // consumer activity -> producer
    std::unordered_map<uint32_t, uint32_t> host_waits_; // host call -> producer activity
};

PathPart partOf(const TraceActivity &a)
{
    switch (a.cls) {
    case ActivityClass::Compute:
        return PathPart::Compute;
    case ActivityClass::Communication:
        return PathPart::Communication;
    case ActivityClass::Copy:
        return PathPart::Copy;
    }
    return PathPart::Compute;
}

// Walks one step back from its end (measured_critical_path.h).
MeasuredCriticalPath walkStep(const Dependencies &deps, const MeasuredStep &step, bool last_step)
{
    const KinetoTrace &t = deps.trace();
    const std::vector<TraceActivity> &acts = t.activities;
    const std::vector<TraceLaunch> &calls = t.launches;
    MeasuredCriticalPath path;
    path.step = step.number;
    path.start_us = step.start_us;
    path.end_us = step.end_us;
    path.waits_recorded = deps.recorded();
    const double ws = step.start_us;
    double at = step.end_us; // the path covers [at, end] so far
    std::vector<MeasuredPathSegment> back;
    // Covers [lo, at] with `part` (clipped to the window) and moves `at` back to lo.
    const auto cover = [&](double lo, PathPart part, CommKind kind) {
        lo = std::max(lo, ws);
        if (lo < at) {
            back.push_back({lo, at, part, kind});
            at = lo;
        }
    };

    // A step other than the last ends where the next one's first activity starts: what
    // released that activity set the step's end. The last ends with its latest activity.
    int32_t gpu = last_step ? kNone : deps.startingAt(step.end_us);
    if (gpu == kNone)
        gpu = deps.lastIn(step.start_us, step.end_us);
    int32_t host = kNone;
    // Every move goes to an earlier node of a stream or thread, or to an activity released
    // earlier: at most one visit per node, with room for the pathological.
    const size_t limit = 2 * (acts.size() + calls.size()) + 8;
    for (size_t steps = 0; (gpu != kNone || host != kNone) && at > ws && steps < limit; ++steps) {
        if (gpu != kNone) {
            const uint32_t a = static_cast<uint32_t>(gpu);
            const TraceActivity &x = acts[a];
            cover(x.start_us, partOf(x), x.kind);
            if (at <= ws)
                break;
            // The dependency that released it last (ties: the stream's own order first).
            double released = -std::numeric_limits<double>::infinity();
            PathLink link = PathLink::StreamOrder;
            int32_t next_gpu = kNone, next_host = kNone;
            if (const int32_t p = deps.prevOnStream(a); p != kNone) {
                released = std::min(acts[static_cast<uint32_t>(p)].end_us, x.start_us);
                next_gpu = p;
            }
            const int32_t w = deps.recorded() ? deps.recordedProducer(a) : kNone;
            if (w != kNone &&
                std::min(acts[static_cast<uint32_t>(w)].end_us, x.start_us) > released) {
                released = std::min(acts[static_cast<uint32_t>(w)].end_us, x.start_us);
                link = PathLink::RecordedWait;
                next_gpu = w;
            }
            if (const int32_t l = deps.launchOf(a); l != kNone) {
                // The launch returns once the work is queued; a call still running when its
                // work started (a synchronous copy) queued it when it began.
                const TraceLaunch &call = calls[static_cast<uint32_t>(l)];
                const double call_end = call.start_us + call.dur_us;
                const double r =
                    std::min(call_end <= x.start_us ? call_end : call.start_us, x.start_us);
                if (r > released) {
                    released = r;
                    link = PathLink::Launch;
                    next_gpu = kNone;
                    next_host = l;
                }
            }
            if (!deps.recorded() && x.start_us - released > kClockSkewUs) {
                if (const int32_t i = deps.inferredProducer(a, released); i != kNone) {
                    released = std::min(acts[static_cast<uint32_t>(i)].end_us, x.start_us);
                    link = PathLink::InferredWait;
                    next_gpu = i;
                    next_host = kNone;
                }
            }
            if (next_gpu == kNone && next_host == kNone)
                break;
            cover(released, PathPart::LaunchGap, CommKind::None);
            ++path.links[static_cast<size_t>(link)];
            gpu = next_gpu;
            host = next_host;
            continue;
        }
        const uint32_t h = static_cast<uint32_t>(host);
        const TraceLaunch &call = calls[h];
        // A synchronising call ends when the GPU work it waited for does: the path goes on
        // through that work.
        // (A poll's wait began when the thread's previous call, the poll before, returned.)
        const int32_t p = deps.prevOnThread(h);
        if (const int32_t g = deps.hostProducer(h); g != kNone) {
            const double done = acts[static_cast<uint32_t>(g)].end_us;
            const double waited_from = call.wait == HostWait::Poll && p != kNone
                                           ? calls[static_cast<uint32_t>(p)].start_us +
                                                 calls[static_cast<uint32_t>(p)].dur_us
                                           : call.start_us;
            if (done > waited_from && done < at + kClockSkewUs) {
                cover(done, PathPart::Host, CommKind::None);
                ++path.links[static_cast<size_t>(PathLink::HostSync)];
                gpu = g;
                host = kNone;
                continue;
            }
        }
        cover(call.start_us, PathPart::Host, CommKind::None);
        if (p == kNone || at <= ws)
            break;
        // The host's own work between the two calls is host time too.
        const TraceLaunch &prev = calls[static_cast<uint32_t>(p)];
        cover(prev.start_us + prev.dur_us, PathPart::Host, CommKind::None);
        ++path.links[static_cast<size_t>(PathLink::HostOrder)];
        host = p;
    }
    cover(ws, PathPart::Untraced, CommKind::None);

    // In time order, adjacent stretches of one part (and kind) merged.
    std::reverse(back.begin(), back.end());
    for (const MeasuredPathSegment &s : back) {
        const double seconds = (s.end_us - s.start_us) * kSecondsPerUs;
        path.seconds[static_cast<size_t>(s.part)] += seconds;
        if (s.part == PathPart::Communication)
            path.communication_by_kind_s[static_cast<size_t>(s.kind)] += seconds;
        if (!path.segments.empty() && path.segments.back().part == s.part &&
            path.segments.back().kind == s.kind && path.segments.back().end_us == s.start_us)
            path.segments.back().end_us = s.end_us;
        else
            path.segments.push_back(s);
    }
    return path;
}

} // namespace

std::vector<MeasuredCriticalPath> measuredCriticalPaths(const KinetoTrace &trace,
                                                        const MeasuredRank &rank)
{
    std::vector<MeasuredCriticalPath> out;
    if (rank.steps.empty() || trace.activities.empty())
        return out;
    const Dependencies deps(trace);
    out.reserve(rank.steps.size());
    for (size_t i = 0; i < rank.steps.size(); ++i)
        out.push_back(walkStep(deps, rank.steps[i], i + 1 == rank.steps.size()));
    return out;
}

std::vector<PathPart> partsBySize(const MeasuredCriticalPath &path, double min_share)
{
    const double span = (path.end_us - path.start_us) * kSecondsPerUs;
    std::vector<PathPart> parts;
    for (int i = 0; i < kPathPartCount; ++i)
        if (span > 0 && path.seconds[static_cast<size_t>(i)] >= min_share * span)
            parts.push_back(static_cast<PathPart>(i));
    std::stable_sort(parts.begin(), parts.end(), [&](PathPart a, PathPart b) {
        return path.seconds[static_cast<size_t>(a)] > path.seconds[static_cast<size_t>(b)];
    });
    return parts;
}

const MeasuredCriticalPath *medianStepPath(const std::vector<MeasuredCriticalPath> &paths)
{
    if (paths.empty())
        return nullptr;
    std::vector<const MeasuredCriticalPath *> order;
    for (const MeasuredCriticalPath &p : paths)
        order.push_back(&p);
    std::stable_sort(order.begin(), order.end(),
                     [](const MeasuredCriticalPath *a, const MeasuredCriticalPath *b) {
                         return a->end_us - a->start_us < b->end_us - b->start_us;
                     });
    return order[(order.size() - 1) / 2];
}

void appendCriticalSpans(const std::vector<MeasuredCriticalPath> &paths, const MeasuredRank &rank,
                         int gpu, std::vector<CriticalSpan> *spans)
{
    // measured_timeline.h: times from the rank's first step start; rows per GPU.
    const double origin = rank.steps.empty() ? 0 : rank.steps.front().start_us;
    for (const MeasuredCriticalPath &p : paths) {
        for (const MeasuredPathSegment &s : p.segments) {
            Stream row = Stream::Compute;
            if (s.part == PathPart::Communication)
                row = s.kind == CommKind::SendRecv ? Stream::PointToPoint : Stream::Collective;
            else if (s.part != PathPart::Compute)
                continue; // copies, host and gaps have no row of their own
            spans->push_back({gpu * kStreamCount + static_cast<int>(row),
                              (s.start_us - origin) * kSecondsPerUs,
                              (s.end_us - origin) * kSecondsPerUs});
        }
    }
}

} // namespace scalescope
