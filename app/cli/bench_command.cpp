// scalescope-cli bench FILE: times the analytic summary and the event simulation with its
// timeline (medians of repeated runs), and the segments per second.
#include "cli/commands.h"

#include "analysis/summary.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <vector>

namespace scalescope::cli
{

namespace
{

constexpr int kMaxRepeat = 100000;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace

int cmdBench(const QStringList &argv, Output &out, Failure *failure)
{
    const QString command = QStringLiteral("bench");
    const auto args = Args::parse(
        command, argv, {{"--json"}, {"--repeat", OptionSpec::Kind::Number, "N"}}, failure);
    if (!args)
        return failure->code;
    if (args->help())
        return usage(out);
    const bool json = args->flag("--json");
    const auto repeat_given = countOption(*args, "--repeat", 1, kMaxRepeat, 200, failure);
    if (!repeat_given)
        return failure->code;
    const int repeat = *repeat_given;
    const auto scenario = scenarioArgument(*args, command, true, failure);
    if (!scenario)
        return failure->code;
    if (scenario->isCollective()) {
        *failure = {kInvalidInput,
                    QStringLiteral("bench: a collective-only scenario has no step to time")};
        return failure->code;
    }
    if (!contextOf(*scenario, failure))
        return failure->code;
    // Summary: derive the context (workload, communication costs) and the analytic metrics.
    // Timeline: the event simulation with every GPU's timeline materialised.
    std::vector<double> summary_ms, timeline_ms;
    size_t segments = 0;
    volatile double sink = 0;
    const int warmup = std::min(repeat, 3);
    const int timeline_repeat = std::max(1, std::min(repeat, 20));
    for (int i = 0; i < warmup + repeat; ++i) {
        QElapsedTimer t;
        t.start();
        const auto ctx = makeContext(*scenario).value();
        const Summary s = analyticSummary(*ctx);
        sink = sink + s.step_time_s;
        if (i >= warmup)
            summary_ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    const auto ctx = makeContext(*scenario).value();
    SimOptions options;
    options.build_timeline = true;
    for (int i = 0; i < 1 + timeline_repeat; ++i) {
        QElapsedTimer t;
        t.start();
        const SimResult sim = simulate(*ctx, options);
        if (!sim.ok) {
            *failure = {kFailure, QString::fromStdString(sim.error)};
            return failure->code;
        }
        const Summary s = summarize(*ctx, sim);
        sink = sink + s.step_time_s;
        segments = sim.timeline->size();
        if (i >= 1)
            timeline_ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    const double sm = median(summary_ms), tm = median(timeline_ms);
    if (json) {
        QJsonObject o;
        o[QStringLiteral("summary_ms")] = sm;
        o[QStringLiteral("timeline_ms")] = tm;
        o[QStringLiteral("segments")] = static_cast<double>(segments);
        o[QStringLiteral("gpus")] = scenario->hardware.gpuCount();
        o[QStringLiteral("bytes_per_segment")] = static_cast<double>(Timeline::bytesPerSegment());
        o[QStringLiteral("repeat")] = repeat;
        // Throughput of the engine with the timeline (issue 15's measure).
        o[QStringLiteral("segments_per_s")] =
            tm > 0 ? static_cast<double>(segments) / (tm / 1e3) : 0.0;
        out.text += QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else {
        out.line(QStringLiteral("summary_ms   %1 (median of %2)").arg(fixed(sm, 4)).arg(repeat));
        out.line(QStringLiteral("timeline_ms  %1 (median of %2)")
                     .arg(fixed(tm, 3))
                     .arg(timeline_repeat));
        out.line(QStringLiteral("segments     %1 (%2 bytes each)")
                     .arg(segments)
                     .arg(Timeline::bytesPerSegment()));
        out.line(QStringLiteral("gpus         %1").arg(scenario->hardware.gpuCount()));
        out.line(
            QStringLiteral("segments/s   %1 million")
                .arg(fixed(tm > 0 ? static_cast<double>(segments) / (tm / 1e3) / 1e6 : 0.0, 1)));
    }
    return kOk;
}

} // namespace scalescope::cli
