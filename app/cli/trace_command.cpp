// scalescope-cli trace TRACE... [--scenario FILE] [--json] [--profile OUT.json]: a measured
// run read from PyTorch profiler (Kineto) traces, one per rank, and the model's step beside
// it (spec/cli.md, section "trace: a measured run, and the prediction beside it").
#include "cli/commands.h"

#include "analysis/evaluation.h"
#include "analysis/measured_critical_path.h"
#include "analysis/measured_run.h"
#include "analysis/summary.h"
#include "analysis/trace_profile.h"
#include "io/file_io.h"
#include "io/kineto_trace.h"
#include "io/profile_io.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>

namespace scalescope::cli
{

namespace
{

// The `per_step_s` keys of spec/cli.md "trace", in its order, with each figure's field.
struct FigureKey {
    const char *key;
    double StepFigures::*field;
};
constexpr FigureKey kPerStep[] = {
    {"compute", &StepFigures::compute_s},
    {"communication", &StepFigures::communication_s},
    {"communication_exposed", &StepFigures::communication_exposed_s},
    {"copies", &StepFigures::copies_s},
    {"idle", &StepFigures::idle_s},
};

QString key(const char *k)
{
    return QString::fromLatin1(k);
}

QJsonObject perStepJson(const StepFigures &f)
{
    QJsonObject o;
    for (const FigureKey &k : kPerStep)
        o[key(k.key)] = f.*k.field;
    return o;
}

QJsonObject byKindJson(const StepFigures &f)
{
    QJsonObject o;
    for (int k = 1; k < kCommKindCount; ++k) {
        if (f.kind_present[static_cast<size_t>(k)])
            o[key(commKindName(static_cast<CommKind>(k)))] = f.kind_s[static_cast<size_t>(k)];
    }
    return o;
}

QJsonObject stepTimeJson(double median, double p90, double min, double max)
{
    QJsonObject o;
    o[QStringLiteral("median")] = median;
    o[QStringLiteral("p90")] = p90;
    o[QStringLiteral("min")] = min;
    o[QStringLiteral("max")] = max;
    return o;
}

// The --json object of spec/cli.md "trace".
QJsonObject measuredJson(const MeasuredRun &run)
{
    QJsonObject o;
    o[QStringLiteral("ranks")] = run.ranks;
    o[QStringLiteral("gpu")] =
        run.gpu ? QJsonValue(QString::fromStdString(*run.gpu)) : QJsonValue(QJsonValue::Null);
    o[QStringLiteral("steps")] = run.steps;
    o[QStringLiteral("step_time_s")] =
        stepTimeJson(run.median.step_time_s, run.step_p90_s, run.step_min_s, run.step_max_s);
    o[QStringLiteral("per_step_s")] = perStepJson(run.median);
    o[QStringLiteral("communication_by_kind_s")] = byKindJson(run.median);
    o[QStringLiteral("kernels")] = static_cast<qint64>(run.kernels);
    return o;
}

// "predicted": the model's one step in the same keys (its step time is one value, so its
// median, p90, min and max are that value; the model attributes no copies and no kinds).
QJsonObject predictedJson(const StepFigures &p)
{
    QJsonObject o;
    o[QStringLiteral("step_time_s")] =
        stepTimeJson(p.step_time_s, p.step_time_s, p.step_time_s, p.step_time_s);
    o[QStringLiteral("per_step_s")] = perStepJson(p);
    o[QStringLiteral("communication_by_kind_s")] = QJsonObject();
    return o;
}

QJsonValue ratioValue(const StepComparison &c)
{
    return c.ratio ? QJsonValue(*c.ratio) : QJsonValue(QJsonValue::Null);
}

// "ratio": measured over predicted for each figure (null where the model predicts 0).
QJsonObject ratioJson(const std::vector<StepComparison> &figures)
{
    QJsonObject o, per_step;
    for (const StepComparison &c : figures) {
        if (QLatin1String(c.name) == QLatin1String("step_time_s"))
            o[QStringLiteral("step_time_s")] = ratioValue(c);
        else
            per_step[key(c.name)] = ratioValue(c);
    }
    o[QStringLiteral("per_step_s")] = per_step;
    return o;
}

// "0.0207", "1.5", "1130": three significant digits without an exponent.
QString factor(double v)
{
    return v >= 100 ? fixed(v, 0) : fmt(v, 3);
}

QString figureWords(const char *name)
{
    const QLatin1String n(name);
    if (n == QLatin1String("step_time_s"))
        return QStringLiteral("step time");
    if (n == QLatin1String("communication_exposed"))
        return QStringLiteral("exposed communication");
    return QString::fromLatin1(name);
}

// One rank's critical paths (analysis/measured_critical_path.h), without their segments.
struct RankPaths {
    int64_t rank = 0;
    std::vector<MeasuredCriticalPath> paths;
};

QJsonArray criticalPathJson(const std::vector<RankPaths> &ranks)
{
    QJsonArray out;
    for (const RankPaths &r : ranks) {
        for (const MeasuredCriticalPath &p : r.paths) {
            QJsonObject o;
            o[QStringLiteral("rank")] = static_cast<qint64>(r.rank);
            o[QStringLiteral("step")] = static_cast<qint64>(p.step);
            o[QStringLiteral("span_s")] = (p.end_us - p.start_us) * 1e-6;
            QJsonObject seconds;
            for (int i = 0; i < kPathPartCount; ++i)
                seconds[key(pathPartName(static_cast<PathPart>(i)))] =
                    p.seconds[static_cast<size_t>(i)];
            o[QStringLiteral("seconds")] = seconds;
            QJsonObject kinds;
            for (int k = 1; k < kCommKindCount; ++k) {
                if (p.communication_by_kind_s[static_cast<size_t>(k)] > 0)
                    kinds[key(commKindName(static_cast<CommKind>(k)))] =
                        p.communication_by_kind_s[static_cast<size_t>(k)];
            }
            o[QStringLiteral("communication_by_kind_s")] = kinds;
            QJsonObject links;
            for (int i = 0; i < kPathLinkCount; ++i)
                links[key(pathLinkName(static_cast<PathLink>(i)))] =
                    static_cast<qint64>(p.links[static_cast<size_t>(i)]);
            o[QStringLiteral("links")] = links;
            o[QStringLiteral("waits")] =
                p.waits_recorded ? QStringLiteral("recorded") : QStringLiteral("inferred");
            out.append(o);
        }
    }
    return out;
}

// "critical path, rank 0, step 5 (219.73 ms): host 99.9%, compute 0.1%": the median step's
// parts, largest first, those under 0.05% left out.
void printCriticalPaths(Output &out, const std::vector<RankPaths> &ranks)
{
    bool inferred = false, host_first = false;
    for (const RankPaths &r : ranks) {
        const MeasuredCriticalPath *p = medianStepPath(r.paths);
        if (!p)
            continue;
        const double span = (p->end_us - p->start_us) * 1e-6;
        const std::vector<PathPart> parts = partsBySize(*p);
        QStringList words;
        for (PathPart part : parts)
            words.append(QStringLiteral("%1 %2%").arg(
                QString::fromLatin1(pathPartName(part)).replace(QLatin1Char('_'), QLatin1Char(' ')),
                fixed(100.0 * p->seconds[static_cast<size_t>(part)] / span, 1)));
        out.line(QStringLiteral("critical path, rank %1, step %2 (%3): %4")
                     .arg(r.rank)
                     .arg(p->step)
                     .arg(humanTime(span), words.join(QStringLiteral(", "))));
        host_first = host_first || (!parts.empty() && parts.front() == PathPart::Host);
        inferred = inferred || p->waitsInferred();
    }
    if (host_first)
        out.line(QStringLiteral("  (host: the launching thread in and between its CUDA calls, "
                                "e.g. Python, the framework or the data loader; the GPU waited "
                                "for it)"));
    if (inferred)
        out.line(QStringLiteral("  (waits between streams inferred from timing: the trace records "
                                "no cuda_sync events)"));
}

void printText(Output &out, const MeasuredRun &run, const std::vector<MeasuredRank> &ranks)
{
    QStringList numbers;
    for (const MeasuredRank &r : ranks)
        numbers.append(QString::number(r.rank));
    out.line(QStringLiteral("measured run: %1 rank%2 (%3), %4, %5 step%6, %7 kernels")
                 .arg(run.ranks)
                 .arg(run.ranks == 1 ? QString() : QStringLiteral("s"))
                 .arg(numbers.join(QStringLiteral(", ")))
                 .arg(run.gpu ? QString::fromStdString(*run.gpu)
                              : QStringLiteral("GPU not named in every trace"))
                 .arg(run.steps)
                 .arg(run.steps == 1 ? QString() : QStringLiteral("s"))
                 .arg(run.kernels));
    const StepFigures &m = run.median;
    auto share = [&](double x) {
        return m.step_time_s > 0
                   ? QStringLiteral(" (%1% of the step)").arg(fixed(100.0 * x / m.step_time_s, 1))
                   : QString();
    };
    out.line(QStringLiteral("  step time           %1 median (p90 %2, min %3, max %4)")
                 .arg(humanTime(m.step_time_s), humanTime(run.step_p90_s),
                      humanTime(run.step_min_s), humanTime(run.step_max_s)));
    out.line(QStringLiteral("  compute             %1%2")
                 .arg(humanTime(m.compute_s), share(m.compute_s)));
    out.line(QStringLiteral("  communication       %1, %2 exposed%3")
                 .arg(humanTime(m.communication_s), humanTime(m.communication_exposed_s),
                      share(m.communication_exposed_s)));
    for (int k = 1; k < kCommKindCount; ++k) {
        if (m.kind_present[static_cast<size_t>(k)])
            out.line(QStringLiteral("    %1 %2")
                         .arg(QString::fromLatin1(commKindName(static_cast<CommKind>(k))), -17)
                         .arg(humanTime(m.kind_s[static_cast<size_t>(k)])));
    }
    out.line(QStringLiteral("  copies              %1").arg(humanTime(m.copies_s)));
    out.line(
        QStringLiteral("  idle                %1%2").arg(humanTime(m.idle_s), share(m.idle_s)));
    out.line(QStringLiteral("  (medians over %1 step%2 of all ranks; figures need not add up)")
                 .arg(static_cast<qsizetype>([&] {
                     size_t n = 0;
                     for (const MeasuredRank &r : ranks)
                         n += r.steps.size();
                     return n;
                 }()))
                 .arg(run.steps * run.ranks == 1 ? QString() : QStringLiteral("s")));
}

void printComparison(Output &out, const QString &scenario_name,
                     const std::vector<StepComparison> &figures, double measured_step_s)
{
    out.line(QStringLiteral("predicted by the model (%1):").arg(scenario_name));
    for (const StepComparison &c : figures) {
        out.line(QStringLiteral("  %1 %2 predicted, %3 measured%4")
                     .arg(figureWords(c.name), -22)
                     .arg(humanTime(c.predicted), humanTime(c.measured))
                     .arg(c.ratio
                              ? QStringLiteral(" (measured / predicted %1)").arg(factor(*c.ratio))
                              : QString()));
    }
    const auto worst = largestDisagreement(figures, measured_step_s);
    if (!worst) {
        out.line(QStringLiteral("  no figure to compare"));
        return;
    }
    const QString name = figureWords(worst->name);
    switch (disagreementOf(*worst)) {
    case Disagreement::MeasuredMore:
        out.line(QStringLiteral("The largest disagreement is %1: measured %2, %3 times the "
                                "model's %4.")
                     .arg(name, humanTime(worst->measured), factor(*worst->ratio),
                          humanTime(worst->predicted)));
        break;
    case Disagreement::PredictedMore:
        out.line(QStringLiteral("The largest disagreement is %1: the model predicts %2, %3 "
                                "times the measured %4.")
                     .arg(name, humanTime(worst->predicted), factor(1.0 / *worst->ratio),
                          humanTime(worst->measured)));
        break;
    case Disagreement::MeasuredNone:
        out.line(QStringLiteral("The largest disagreement is %1: the model predicts %2, the run "
                                "measured none.")
                     .arg(name, humanTime(worst->predicted)));
        break;
    case Disagreement::NotPredicted:
        out.line(QStringLiteral("The largest disagreement is %1: measured %2, which the model "
                                "does not predict at all.")
                     .arg(name, humanTime(worst->measured)));
        break;
    }
}

std::vector<QString> traceNames(const QStringList &files)
{
    std::vector<QString> names;
    for (const QString &f : files)
        names.push_back(displayFileName(f));
    return names;
}

} // namespace

int cmdTrace(const QStringList &argv, Output &out, Failure *failure)
{
    const QString command = QStringLiteral("trace");
    const auto args = Args::parse(command, argv,
                                  {{"--json"},
                                   {"--scenario", OptionSpec::Kind::Text, "FILE"},
                                   {"--profile", OptionSpec::Kind::Text, "OUT.json"}},
                                  failure);
    if (!args)
        return failure->code;
    if (args->help())
        return usage(out);
    const QStringList files = args->positional();
    if (files.isEmpty())
        return invalid(failure, QStringLiteral("trace: expected one or more TRACE files (PyTorch "
                                               "profiler traces, .json or .json.gz, one per "
                                               "rank)"));
    for (const QString &f : files) {
        if (f.isEmpty())
            return invalid(failure, QStringLiteral("trace: a TRACE argument is empty; expected "
                                                   "the path of a trace file"));
    }
    const bool json = args->flag("--json");
    const auto scenario_file = args->value("--scenario");
    const auto profile_file = args->value("--profile");

    std::optional<Scenario> scenario;
    if (scenario_file) {
        scenario = loadScenario(*scenario_file, failure);
        if (!scenario)
            return failure->code;
        if (scenario->isCollective())
            return invalid(failure, QStringLiteral("--scenario: %1 is a collective-only "
                                                   "scenario; expected a training scenario")
                                        .arg(displayFileName(*scenario_file)));
    }
    WriteGuard guard;
    guard.inputs = files;
    if (scenario_file)
        guard.inputs.append(*scenario_file);
    guard.stdout_in_use = true;
    if (profile_file) {
        // Refused before the traces are read, not after.
        const WriteResult target = checkWriteTarget(*profile_file, guard);
        if (!target)
            return invalid(failure, QStringLiteral("--profile: ") + target.error);
    }

    std::vector<MeasuredRank> ranks;
    std::vector<KinetoTrace> kept; // for --profile only
    std::vector<RankPaths> paths;
    for (const QString &f : files) {
        Result<KinetoTrace> trace = readKinetoTrace(f);
        if (!trace)
            return invalid(failure, QString::fromStdString(trace.error().toString()));
        ranks.push_back(measureRank(trace.value()));
        // The critical paths while the trace is at hand; their segments are not printed.
        paths.push_back({ranks.back().rank, measuredCriticalPaths(trace.value(), ranks.back())});
        for (MeasuredCriticalPath &p : paths.back().paths)
            std::vector<MeasuredPathSegment>().swap(p.segments);
        if (profile_file)
            kept.push_back(std::move(trace).value());
    }
    const Result<MeasuredRun> combined = combineRanks(ranks);
    if (!combined)
        return invalid(failure, QString::fromStdString(combined.error().toString()));
    const MeasuredRun &run = combined.value();
    for (const MeasuredRank &r : ranks) {
        if (r.notes.whole_trace_is_one_step)
            std::fprintf(err_, "scalescope-cli: note: %s: %s; the whole trace is one step\n",
                         printable(QString::fromStdString(r.path)).toUtf8().constData(),
                         r.notes.annotations ? "no ProfilerStep launched GPU work"
                                             : "no ProfilerStep annotation");
    }

    std::optional<StepFigures> predicted;
    QString scenario_name;
    if (scenario) {
        // The model's one evaluation (analysis/evaluation.h), as `simulate` runs it.
        const Result<ScenarioEvaluation> evaluated =
            evaluateScenario(*scenario, EvaluationRequest{});
        if (!evaluated) {
            *failure = {evaluated.error().path.empty() ? kFailure : kInvalidInput,
                        QString::fromStdString(evaluated.error().toString())};
            return failure->code;
        }
        printRuleWarnings(*scenario);
        // A trace of another GPU than the scenario's compares two machines: said, so that the
        // disagreement is not read as the model's error (hardware/hardware.h).
        if (run.gpu && differentGpuChips(*run.gpu, scenario->hardware.gpu.name))
            std::fprintf(err_,
                         "scalescope-cli: note: the trace ran on %s and the scenario models %s: "
                         "the figures compare different GPUs\n",
                         printable(QString::fromStdString(*run.gpu)).toUtf8().constData(),
                         printable(QString::fromStdString(scenario->hardware.gpu.name))
                             .toUtf8()
                             .constData());
        predicted = predictedFigures(evaluated.value().step.summary);
        scenario_name = scenario->name.empty() ? displayFileName(*scenario_file)
                                               : QString::fromStdString(scenario->name);
    }

    if (profile_file) {
        std::vector<const KinetoTrace *> traces;
        for (const KinetoTrace &t : kept)
            traces.push_back(&t);
        TraceProfileOptions options;
        options.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
        if (scenario)
            options.gpus_per_node = scenario->hardware.gpus_per_node;
        const TraceProfileFit fit = fitTraceProfile(traces, options);
        const WriteResult written = writeFileSafely(
            *profile_file,
            writeTraceFittedProfile(fit.profile,
                                    {fit.collective_samples, fit.gemm_samples, fit.launch_samples},
                                    traceNames(files)),
            guard);
        if (!written) {
            *failure = {written.refused ? kInvalidInput : kFailure,
                        QStringLiteral("--profile: ") + written.error};
            return failure->code;
        }
        for (const std::string &note : fit.notes)
            std::fprintf(err_, "scalescope-cli: note: --profile: %s\n",
                         printable(QString::fromStdString(note)).toUtf8().constData());
    }

    std::vector<StepComparison> figures;
    if (predicted)
        figures = compareFigures(run.median, *predicted);
    if (json) {
        QJsonObject o = measuredJson(run);
        if (predicted) {
            o[QStringLiteral("predicted")] = predictedJson(*predicted);
            o[QStringLiteral("ratio")] = ratioJson(figures);
        }
        o[QStringLiteral("critical_path")] = criticalPathJson(paths);
        out.text += QJsonDocument(o).toJson(QJsonDocument::Indented);
        return kOk;
    }
    printText(out, run, ranks);
    printCriticalPaths(out, paths);
    if (predicted)
        printComparison(out, scenario_name, figures, run.median.step_time_s);
    if (profile_file)
        out.line(QStringLiteral("profile written to %1").arg(displayFileName(*profile_file)));
    return kOk;
}

} // namespace scalescope::cli
