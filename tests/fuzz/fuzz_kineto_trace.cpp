// libFuzzer target: PyTorch profiler (Kineto) traces, plain or gzip (model/io/kineto_trace,
// spec/cli.md "trace"). A "not a trace" error is expected; an accepted trace must measure
// into figures the spec's definitions allow: every busy figure within its step's window,
// idle = window - busy >= 0, the exposed part of communication at most communication.
#include "fuzz_util.h"

#include "analysis/measured_critical_path.h"
#include "analysis/measured_run.h"
#include "io/kineto_trace.h"

#include <algorithm>
#include <cmath>

using namespace scalescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Result<KinetoTrace> parsed =
        parseKinetoTrace(fuzz::bytes(data, size), QStringLiteral("fuzz.json"));
    if (!parsed) {
        if (parsed.error().message.rfind("fuzz.json: ", 0) != 0)
            fuzz::finding("an error that does not name the file", parsed.error().message);
        return 0;
    }
    const KinetoTrace &t = parsed.value();
    if (t.kernels == 0)
        fuzz::finding("an accepted trace without kernels");
    const MeasuredRank r = measureRank(t);
    for (const MeasuredStep &s : r.steps) {
        const double window = s.step_time_s;
        if (!std::isfinite(window) || !std::isfinite(s.start_us) || !std::isfinite(s.end_us))
            continue; // times near the double's range (1e308 + 1e308): no figure to check
        // Rounding of microseconds to seconds: a relative slack.
        const double slack =
            1e-9 * std::max(1.0, std::fabs(window)) + 1e-9 * std::fabs(s.end_us) * 1e-6;
        if (!(window >= 0))
            fuzz::finding("a step window of negative length");
        for (double busy : {s.compute_s, s.communication_s, s.copies_s})
            if (!(busy >= 0 && busy <= window + slack))
                fuzz::finding("a busy figure outside its window");
        if (!(s.communication_exposed_s <= s.communication_s + slack))
            fuzz::finding("more exposed communication than communication");
        if (!(s.idle_s >= -slack && s.idle_s <= window + slack))
            fuzz::finding("idle outside [0, window]");
    }
    // The critical path of each step (analysis/measured_critical_path.h): one per step, its
    // segments in time order inside the step, its parts adding up to the step.
    const std::vector<MeasuredCriticalPath> paths = measuredCriticalPaths(t, r);
    if (paths.size() != r.steps.size())
        fuzz::finding("not one critical path per step");
    for (const MeasuredCriticalPath &p : paths) {
        const double span = (p.end_us - p.start_us) * 1e-6;
        if (!std::isfinite(span) || !std::isfinite(p.start_us) || !std::isfinite(p.end_us))
            continue;
        double sum = 0;
        for (double x : p.seconds)
            sum += x;
        if (!(std::fabs(sum - span) <=
              1e-9 * std::max(1.0, std::fabs(span)) + 1e-12 * std::fabs(p.end_us)))
            fuzz::finding("critical path parts that do not add up to the step");
        double at = p.start_us;
        for (const MeasuredPathSegment &seg : p.segments) {
            if (!(seg.start_us >= at && seg.end_us >= seg.start_us && seg.end_us <= p.end_us))
                fuzz::finding("a critical path segment out of order or outside its step");
            at = seg.end_us;
        }
    }
    std::vector<MeasuredRank> ranks{r};
    if (!combineRanks(ranks))
        fuzz::finding("one rank does not combine");
    return 0;
}
