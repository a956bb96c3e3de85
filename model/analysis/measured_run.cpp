// A measured run's figures (measured_run.h). Every definition below is spec/cli.md, section
// "trace: a measured run, and the prediction beside it", unless a comment says otherwise.
#include "analysis/measured_run.h"

#include "analysis/summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace scalescope
{

namespace
{

constexpr double kSecondsPerUs = 1e-6; // Kineto's ts and dur are microseconds

struct Interval {
    double lo, hi;
};
using Union = std::vector<Interval>; // disjoint, sorted

// The union of [lo, hi) intervals: sorted, empty ones dropped, overlapping or touching ones
// merged.
Union merge(Union v)
{
    std::sort(v.begin(), v.end(), [](const Interval &a, const Interval &b) { return a.lo < b.lo; });
    Union out;
    for (const Interval &i : v) {
        if (i.hi <= i.lo)
            continue;
        if (!out.empty() && i.lo <= out.back().hi)
            out.back().hi = std::max(out.back().hi, i.hi);
        else
            out.push_back(i);
    }
    return out;
}

// a minus b (both disjoint and sorted).
Union subtract(const Union &a, const Union &b)
{
    Union out;
    size_t j = 0;
    for (const Interval &i : a) {
        double cur = i.lo;
        while (j < b.size() && b[j].hi <= cur)
            ++j;
        for (size_t k = j; k < b.size() && b[k].lo < i.hi; ++k) {
            if (b[k].lo > cur)
                out.push_back({cur, b[k].lo});
            cur = std::max(cur, b[k].hi);
        }
        if (cur < i.hi)
            out.push_back({cur, i.hi});
    }
    return out;
}

// Length of the union inside [lo, hi).
double measure(const Union &u, double lo, double hi)
{
    if (hi <= lo || u.empty())
        return 0;
    // First interval that ends after lo (ends are sorted too: the intervals are disjoint).
    auto it = std::upper_bound(u.begin(), u.end(), lo,
                               [](double t, const Interval &i) { return t < i.hi; });
    double s = 0;
    for (; it != u.end() && it->lo < hi; ++it)
        s += std::max(0.0, std::min(it->hi, hi) - std::max(it->lo, lo));
    return s;
}

} // namespace

double medianOf(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    // The median of an even count is the mean of the two middle values.
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double percentileOf(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    // numpy.percentile's default ("linear", Hyndman and Fan type 7): h = q (n - 1),
    // x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
    const double h = q * static_cast<double>(v.size() - 1);
    const size_t i = static_cast<size_t>(std::floor(h));
    const size_t j = std::min(i + 1, v.size() - 1);
    return v[i] + (h - static_cast<double>(i)) * (v[j] - v[i]);
}

MeasuredRank measureRank(const KinetoTrace &t)
{
    MeasuredRank r;
    r.path = t.path;
    r.rank = t.rank;
    r.device = t.device;
    if (t.has_gpu_name)
        r.gpu = t.gpu_name;
    r.kernels = t.kernels;
    const std::vector<TraceActivity> &acts = t.activities;

    // Steps in time order (a stable sort, as the annotations' file order breaks ties).
    std::vector<TraceStepMark> marks = t.steps;
    std::stable_sort(
        marks.begin(), marks.end(),
        [](const TraceStepMark &a, const TraceStepMark &b) { return a.start_us < b.start_us; });
    r.notes.annotations = marks.size();
    std::vector<double> starts(marks.size()), latest_end(marks.size());
    for (size_t i = 0; i < marks.size(); ++i) {
        starts[i] = marks[i].start_us;
        latest_end[i] = i ? std::max(latest_end[i - 1], marks[i].end_us) : marks[i].end_us;
    }

    // An activity is launched inside a step when its launch (the cuda_runtime or cuda_driver
    // event of the same correlation) starts in [ts, ts + dur) of the annotation, on any
    // thread; should annotations overlap, the latest-starting one that holds it.
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::vector<double> first(marks.size(), kInf), last(marks.size(), -kInf);
    std::vector<size_t> launched(marks.size(), 0);
    for (const TraceActivity &a : acts) {
        if (a.correlation == kNoCorrelation) {
            ++r.notes.activities_without_launch;
            continue;
        }
        const auto l =
            std::lower_bound(t.launches.begin(), t.launches.end(), a.correlation,
                             [](const TraceLaunch &x, int64_t c) { return x.correlation < c; });
        if (l == t.launches.end() || l->correlation != a.correlation) {
            ++r.notes.activities_without_launch;
            continue;
        }
        const double at = l->start_us;
        ptrdiff_t i = std::upper_bound(starts.begin(), starts.end(), at) - starts.begin() - 1;
        // Walk back to the latest-starting annotation that holds `at`; none before index i
        // can once the latest end up to i is <= at (so a launch between steps costs O(1)).
        while (i >= 0 && !(marks[static_cast<size_t>(i)].start_us <= at &&
                           at < marks[static_cast<size_t>(i)].end_us)) {
            if (latest_end[static_cast<size_t>(i)] <= at) {
                i = -1;
                break;
            }
            --i;
        }
        if (i < 0) {
            ++r.notes.activities_outside_steps;
            continue;
        }
        const size_t s = static_cast<size_t>(i);
        first[s] = std::min(first[s], a.start_us);
        last[s] = std::max(last[s], a.end_us);
        ++launched[s];
    }

    // Windows: a step with no activity launched inside it is left out. A step runs from its
    // first activity's ts to the next step's first; the last ends at the latest ts + dur of
    // its own activities. Without such steps the trace is one step, from the first
    // activity's ts to the latest ts + dur.
    struct Window {
        int64_t number;
        double lo, hi;
    };
    std::vector<size_t> kept;
    for (size_t i = 0; i < marks.size(); ++i) {
        if (launched[i] > 0)
            kept.push_back(i);
    }
    r.notes.annotations_without_gpu_work = marks.size() - kept.size();
    std::stable_sort(kept.begin(), kept.end(),
                     [&](size_t a, size_t b) { return first[a] < first[b]; });
    std::vector<Window> windows;
    if (kept.empty()) {
        r.notes.whole_trace_is_one_step = true;
        double lo = kInf, hi = -kInf;
        for (const TraceActivity &a : acts) {
            lo = std::min(lo, a.start_us);
            hi = std::max(hi, a.end_us);
        }
        if (!acts.empty())
            windows.push_back({-1, lo, hi});
    } else {
        for (size_t k = 0; k < kept.size(); ++k) {
            const size_t s = kept[k];
            const double hi = k + 1 < kept.size() ? first[kept[k + 1]] : last[s];
            windows.push_back({marks[s].number, first[s], hi});
        }
    }

    // Busy time is the union of [ts, ts + dur): compute and communication kernels, copies,
    // all activities, and each kind; exposed communication is communication minus compute.
    Union comp, comm, copies, busy;
    std::array<Union, kCommKindCount> by_kind;
    std::array<std::vector<double>, kCommKindCount> kind_starts;
    for (const TraceActivity &a : acts) {
        const Interval i{a.start_us, a.end_us};
        busy.push_back(i);
        switch (a.cls) {
        case ActivityClass::Compute:
            comp.push_back(i);
            break;
        case ActivityClass::Communication:
            comm.push_back(i);
            by_kind[static_cast<size_t>(a.kind)].push_back(i);
            kind_starts[static_cast<size_t>(a.kind)].push_back(a.start_us);
            break;
        case ActivityClass::Copy:
            copies.push_back(i);
            break;
        }
    }
    comp = merge(std::move(comp));
    comm = merge(std::move(comm));
    copies = merge(std::move(copies));
    busy = merge(std::move(busy));
    const Union exposed = subtract(comm, comp);
    for (size_t k = 0; k < kCommKindCount; ++k) {
        by_kind[k] = merge(std::move(by_kind[k]));
        std::sort(kind_starts[k].begin(), kind_starts[k].end());
    }

    for (const Window &w : windows) {
        MeasuredStep s;
        s.number = w.number;
        s.start_us = w.lo;
        s.end_us = w.hi;
        // Each step's figures are measured inside its window, whichever step launched them.
        s.step_time_s = (w.hi - w.lo) * kSecondsPerUs;
        s.compute_s = measure(comp, w.lo, w.hi) * kSecondsPerUs;
        s.communication_s = measure(comm, w.lo, w.hi) * kSecondsPerUs;
        s.communication_exposed_s = measure(exposed, w.lo, w.hi) * kSecondsPerUs;
        s.copies_s = measure(copies, w.lo, w.hi) * kSecondsPerUs;
        // Idle: the part of the window when no kernel or copy runs.
        s.idle_s = ((w.hi - w.lo) - measure(busy, w.lo, w.hi)) * kSecondsPerUs;
        for (size_t k = 0; k < kCommKindCount; ++k) {
            // A kind is present in a step when one of its kernels starts inside the window.
            const auto it = std::lower_bound(kind_starts[k].begin(), kind_starts[k].end(), w.lo);
            s.kind_present[k] = it != kind_starts[k].end() && *it < w.hi;
            if (s.kind_present[k])
                s.kind_s[k] = measure(by_kind[k], w.lo, w.hi) * kSecondsPerUs;
        }
        r.steps.push_back(s);
    }
    return r;
}

Result<MeasuredRun> combineRanks(const std::vector<MeasuredRank> &ranks)
{
    // Each file's rank is distributedInfo.rank; two files with the same rank are an error.
    std::map<int64_t, const MeasuredRank *> seen;
    for (const MeasuredRank &r : ranks) {
        const auto [it, fresh] = seen.emplace(r.rank, &r);
        if (!fresh)
            return InputError{std::string(), r.path + ": names rank " + std::to_string(r.rank) +
                                                 " like " + it->second->path +
                                                 "; each file must be a different rank of one job"};
    }
    MeasuredRun run;
    run.ranks = static_cast<int>(ranks.size());
    // gpu: the name every rank's device has, when all have one and all are equal.
    bool same_gpu = !ranks.empty();
    for (const MeasuredRank &r : ranks) {
        same_gpu = same_gpu && r.gpu && (!run.gpu || *run.gpu == *r.gpu);
        if (same_gpu)
            run.gpu = r.gpu;
    }
    if (!same_gpu)
        run.gpu.reset();
    // Statistics over all steps of all ranks together, each (rank, step) one value.
    std::vector<double> step, compute, comm, exposed, copies, idle;
    std::array<std::vector<double>, kCommKindCount> kinds;
    std::array<bool, kCommKindCount> present{};
    for (const MeasuredRank &r : ranks) {
        run.steps = std::max(run.steps, static_cast<int>(r.steps.size()));
        run.kernels += r.kernels;
        for (const MeasuredStep &s : r.steps) {
            step.push_back(s.step_time_s);
            compute.push_back(s.compute_s);
            comm.push_back(s.communication_s);
            exposed.push_back(s.communication_exposed_s);
            copies.push_back(s.copies_s);
            idle.push_back(s.idle_s);
            for (size_t k = 0; k < kCommKindCount; ++k) {
                present[k] = present[k] || s.kind_present[k];
                // A step without that kind counts 0.
                kinds[k].push_back(s.kind_present[k] ? s.kind_s[k] : 0.0);
            }
        }
    }
    if (!step.empty()) {
        run.step_min_s = *std::min_element(step.begin(), step.end());
        run.step_max_s = *std::max_element(step.begin(), step.end());
    }
    run.step_p90_s = percentileOf(step, 0.9);
    run.median.step_time_s = medianOf(std::move(step));
    run.median.compute_s = medianOf(std::move(compute));
    run.median.communication_s = medianOf(std::move(comm));
    run.median.communication_exposed_s = medianOf(std::move(exposed));
    run.median.copies_s = medianOf(std::move(copies));
    run.median.idle_s = medianOf(std::move(idle));
    for (size_t k = 0; k < kCommKindCount; ++k) {
        run.median.kind_present[k] = present[k];
        run.median.kind_s[k] = present[k] ? medianOf(std::move(kinds[k])) : 0.0;
    }
    return run;
}

StepFigures predictedFigures(const Summary &s)
{
    // spec/cli.md "trace" (--scenario): the model's step in the measured terms; its idle
    // is what the breakdown counts as no work on the GPU (spec/cli.md "simulate --json",
    // breakdown_s: bubble, wait and data loading).
    const Breakdown &b = s.breakdown;
    StepFigures f;
    f.step_time_s = s.step_time_s;
    f.compute_s = b.compute;
    f.communication_s = b.communication_total;
    f.communication_exposed_s = b.communication_exposed;
    f.copies_s = 0;
    f.idle_s = b.pipeline_bubble + b.wait + b.data_loading;
    return f;
}

std::vector<StepComparison> compareFigures(const StepFigures &m, const StepFigures &p)
{
    const auto one = [](const char *name, double measured, double predicted) {
        StepComparison c;
        c.name = name;
        c.measured = measured;
        c.predicted = predicted;
        if (predicted > 0)
            c.ratio = measured / predicted;
        return c;
    };
    return {one("step_time_s", m.step_time_s, p.step_time_s),
            one("compute", m.compute_s, p.compute_s),
            one("communication", m.communication_s, p.communication_s),
            one("communication_exposed", m.communication_exposed_s, p.communication_exposed_s),
            one("copies", m.copies_s, p.copies_s),
            one("idle", m.idle_s, p.idle_s)};
}

std::optional<StepComparison> largestDisagreement(const std::vector<StepComparison> &figures,
                                                  double measured_step_s)
{
    std::optional<StepComparison> worst;
    double worst_gap = -1;
    for (const StepComparison &f : figures) {
        // A figure the model leaves at 0 compares only when the run spends a visible share
        // of its step on it (1%); its gap is then taken as that of a 100x ratio.
        double gap;
        if (f.ratio && *f.ratio > 0)
            gap = std::fabs(std::log(*f.ratio));
        else if (f.predicted <= 0 && f.measured > 0.01 * measured_step_s)
            gap = std::log(100.0);
        else
            continue;
        if (gap > worst_gap) {
            worst_gap = gap;
            worst = f;
        }
    }
    return worst;
}

Disagreement disagreementOf(const StepComparison &c)
{
    if (!c.ratio)
        return Disagreement::NotPredicted;
    if (*c.ratio >= 1)
        return Disagreement::MeasuredMore;
    return *c.ratio > 0 ? Disagreement::PredictedMore : Disagreement::MeasuredNone;
}

} // namespace scalescope
