// scalescope-cli sweep FILE --gpus LIST: the scenario on each GPU count, strong or weak
// scaling, as a table, --csv or --json.
#include "cli/commands.h"

#include "analysis/evaluation.h"
#include "analysis/format.h"
#include "io/report_io.h"
#include "io/scenario_io.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <vector>

namespace scalescope::cli
{

namespace
{

constexpr int kMaxSweepPoints = 64;

std::optional<std::vector<int>> parseGpuList(const QString &text, Failure *failure)
{
    std::vector<int> counts;
    for (const QString &part : text.split(QLatin1Char(','))) {
        const auto n = parseCount(QStringLiteral("--gpus"), part.trimmed(), 1,
                                  static_cast<int>(kMaxGpuCount), failure);
        if (!n)
            return std::nullopt;
        counts.push_back(*n);
    }
    if (counts.empty() || counts.size() > static_cast<size_t>(kMaxSweepPoints)) {
        *failure = {kInvalidInput,
                    QStringLiteral("--gpus: expected 1 to %1 GPU counts").arg(kMaxSweepPoints)};
        return std::nullopt;
    }
    return counts;
}

// The fit in words, as the Scaling tab says it (views/charts/scaling_view.cpp amdahlText).
QString amdahlText(const AmdahlFit &fit)
{
    switch (fit.status) {
    case AmdahlFitStatus::NotComputed:
        return {};
    case AmdahlFitStatus::TooFewPoints:
        return QStringLiteral("no Amdahl fit: it needs at least %1 counts above one GPU, this "
                              "sweep has %2")
            .arg(kAmdahlMinPoints)
            .arg(fit.points);
    case AmdahlFitStatus::PoorFit:
        return QStringLiteral("no Amdahl fit: Amdahl's law does not describe this curve "
                              "(R^2 = %1 over %2 points, below %3)")
            .arg(fixed(fit.r_squared, decimalsApart(fit.r_squared, kAmdahlMinRSquared, 2)))
            .arg(fit.points)
            .arg(fixed(kAmdahlMinRSquared, 2));
    case AmdahlFitStatus::Accepted:
        break;
    }
    QString text = QStringLiteral("Amdahl fit: serial fraction %1% (R^2 = %2 over %3 points)")
                       .arg(fixed(100 * fit.serial_fraction, 2), fixed(fit.r_squared, 3))
                       .arg(fit.points);
    const double ceiling = amdahlCeiling(fit, fit.max_speedup);
    if (ceiling > 0)
        text += QStringLiteral("; with this batch no GPU count gets past %1x (1/s)")
                    .arg(fixed(ceiling, 1));
    else if (fit.serial_fraction > 0)
        text += QStringLiteral("; the speed-up already passes 1/s, so no ceiling");
    return text;
}

} // namespace

int cmdSweep(const QStringList &argv, Output &out, Failure *failure)
{
    const QString command = QStringLiteral("sweep");
    const auto args = Args::parse(command, argv,
                                  {{"--csv"},
                                   {"--json"},
                                   {"--gpus", OptionSpec::Kind::Number, "GPU counts like 1,2,4,8"},
                                   {"--scaling", OptionSpec::Kind::Text, "strong or weak"}},
                                  failure);
    if (!args)
        return failure->code;
    if (args->help())
        return usage(out);
    const bool csv = args->flag("--csv");
    const bool json = args->flag("--json");
    const auto gpus_text = args->value("--gpus");
    const auto scaling = args->value("--scaling");
    if (!gpus_text) {
        *failure = {kInvalidInput,
                    QStringLiteral("sweep: --gpus is required (for example --gpus 1,2,4,8)")};
        return failure->code;
    }
    if (csv && json) {
        *failure = {kInvalidInput, QStringLiteral("sweep: choose one of --csv and --json")};
        return failure->code;
    }
    bool weak = false;
    if (scaling) {
        if (*scaling == QStringLiteral("weak"))
            weak = true;
        else if (*scaling != QStringLiteral("strong")) {
            *failure = {kInvalidInput, QStringLiteral("--scaling: value \"%1\" is not allowed; "
                                                      "expected strong or weak")
                                           .arg(*scaling)};
            return failure->code;
        }
    }
    const auto file = args->scenarioFile(command, true, failure);
    if (!file)
        return failure->code;
    const auto counts = parseGpuList(*gpus_text, failure);
    if (!counts)
        return failure->code;
    const auto base = loadScenario(*file, failure);
    if (!base)
        return failure->code;
    if (base->isCollective()) {
        *failure = {kInvalidInput,
                    QStringLiteral("sweep: a collective-only scenario cannot be swept")};
        return failure->code;
    }
    // The model's one evaluation (analysis/evaluation.h): the scenario, then each count
    // (its own count is the scenario's figure), the Amdahl fit over them (strong scaling).
    EvaluationRequest what;
    what.sweep = true;
    what.sweep_gpus = *counts;
    what.scaling = weak ? Scaling::Weak : Scaling::Strong;
    const Result<ScenarioEvaluation> evaluated = evaluateScenario(*base, what);
    if (!evaluated) {
        *failure = {evaluated.error().path.empty() ? kFailure : kInvalidInput,
                    modelErrorText(evaluated.error())};
        return failure->code;
    }
    const ScenarioEvaluation &e = evaluated.value();
    const std::vector<SweepRow> &rows = e.sweep;
    // One GPU cannot hold the model: the figures from the fewest that fit follow each row,
    // as the window's table shows them (analysis/speedup_reference.h).
    const bool rebased = e.reference.one_gpu_on_paper && e.reference.rebased();
    if (json) {
        QJsonArray arr;
        for (const SweepRow &r : rows) {
            QJsonObject o;
            o[QStringLiteral("gpus")] = r.gpus;
            o[QStringLiteral("step_time_s")] = r.summary.step_time_s;
            o[QStringLiteral("samples_per_s")] = r.summary.samples_per_s;
            o[QStringLiteral("speedup")] = r.summary.speedup;
            o[QStringLiteral("scaling_efficiency")] = r.summary.scaling_efficiency;
            o[QStringLiteral("communication_share")] = communicationShare(r.summary);
            o[QStringLiteral("breakdown_s")] =
                summaryToJson(r.summary)[QStringLiteral("breakdown_s")];
            o[QStringLiteral("attribution")] =
                attributionToJson(e.attribution[static_cast<size_t>(&r - rows.data())]);
            o[QStringLiteral("from_reference")] =
                speedupFiguresToJson(speedupFigures(e.reference, r.gpus, r.summary.speedup));
            arr.append(o);
        }
        QJsonObject root;
        root[QStringLiteral("speedup_reference")] = speedupReferenceToJson(e.reference);
        root[QStringLiteral("scaling")] = weak ? QStringLiteral("weak") : QStringLiteral("strong");
        root[QStringLiteral("rows")] = arr;
        if (!weak)
            root[QStringLiteral("amdahl")] = amdahlToJson(e.amdahl);
        out.text += QJsonDocument(root).toJson(QJsonDocument::Indented);
    } else if (csv) {
        out.text += sweepToCsv(rows, false, &e.reference);
    } else {
        if (rebased)
            out.line(QStringLiteral("speed-up and efficiency against one GPU on paper; 'from %1' "
                                    "counts from %1 GPUs, the fewest that fit")
                         .arg(e.reference.gpus));
        out.line(QStringLiteral("gpus  step_time_s  samples_per_s  speedup  efficiency  comm_share") +
                 (rebased ? QStringLiteral("  from %1  efficiency").arg(e.reference.gpus, -4)
                          : QString()));
        for (const SweepRow &r : rows) {
            QString from;
            if (rebased) {
                const SpeedupFigures f = speedupFigures(e.reference, r.gpus, r.summary.speedup);
                const bool counted = f.countedFromReference();
                from = QStringLiteral("  %1  %2")
                           .arg(counted ? fixed(f.speedup, 2) + QStringLiteral("x")
                                        : QStringLiteral("-"),
                                8)
                           .arg(counted ? fixed(f.efficiency * 100, 1) + QStringLiteral("%")
                                        : QStringLiteral("-"),
                                10);
            }
            out.line(
                QStringLiteral("%1  %2  %3  %4  %5  %6")
                    .arg(r.gpus, 4)
                    .arg(fixed(r.summary.step_time_s, 4), 11)
                    .arg(fixed(r.summary.samples_per_s, 1), 13)
                    .arg(fixed(r.summary.speedup, 2), 7)
                    .arg(fixed(r.summary.scaling_efficiency * 100, 1) + QStringLiteral("%"), 10)
                    .arg(fixed(communicationShare(r.summary) * 100, 1) + QStringLiteral("%"), 10) +
                from);
        }
        if (!weak)
            out.line(amdahlText(e.amdahl));
    }
    return kOk;
}

} // namespace scalescope::cli
