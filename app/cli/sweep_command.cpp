// scalescope-cli sweep FILE --gpus LIST: the scenario on each GPU count, strong or weak
// scaling, as a table, --csv or --json.
#include "cli/commands.h"

#include "analysis/scaling.h"
#include "analysis/sweep.h"
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
    const Result<std::vector<SweepRow>> swept =
        sweep(*base, *counts, weak ? Scaling::Weak : Scaling::Strong);
    if (!swept) {
        *failure = {kInvalidInput, modelErrorText(swept.error())};
        return failure->code;
    }
    const std::vector<SweepRow> &rows = swept.value();
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
                attributionToJson(attributeSpeedupLoss(r.gpus, r.summary));
            arr.append(o);
        }
        QJsonObject root;
        root[QStringLiteral("scaling")] = weak ? QStringLiteral("weak") : QStringLiteral("strong");
        root[QStringLiteral("rows")] = arr;
        out.text += QJsonDocument(root).toJson(QJsonDocument::Indented);
    } else if (csv) {
        out.text += sweepToCsv(rows, false);
    } else {
        out.line(
            QStringLiteral("gpus  step_time_s  samples_per_s  speedup  efficiency  comm_share"));
        for (const SweepRow &r : rows)
            out.line(
                QStringLiteral("%1  %2  %3  %4  %5  %6")
                    .arg(r.gpus, 4)
                    .arg(fixed(r.summary.step_time_s, 4), 11)
                    .arg(fixed(r.summary.samples_per_s, 1), 13)
                    .arg(fixed(r.summary.speedup, 2), 7)
                    .arg(fixed(r.summary.scaling_efficiency * 100, 1) + QStringLiteral("%"), 10)
                    .arg(fixed(communicationShare(r.summary) * 100, 1) + QStringLiteral("%"), 10));
    }
    return kOk;
}

} // namespace scalescope::cli
