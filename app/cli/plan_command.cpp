// scalescope-cli plan FILE --gpus N: the best parallel plans for N GPUs (analysis/planner.h).
#include "cli/commands.h"

#include "analysis/planner.h"
#include "io/report_io.h"
#include "io/scenario_io.h"

#include <QElapsedTimer>
#include <QJsonDocument>

namespace scalescope::cli
{

int cmdPlan(const QStringList &argv, Output &out, Failure *failure)
{
    const QString command = QStringLiteral("plan");
    const auto args = Args::parse(command, argv,
                                  {{"--json"},
                                   {"--gpus", OptionSpec::Kind::Number, "N"},
                                   {"--top", OptionSpec::Kind::Number, "K"}},
                                  failure);
    if (!args)
        return failure->code;
    if (args->help())
        return usage(out);
    const bool json = args->flag("--json");
    const auto gpus_text = args->value("--gpus");
    if (!gpus_text) {
        *failure = {kInvalidInput,
                    QStringLiteral("plan: --gpus is required (for example --gpus 64)")};
        return failure->code;
    }
    const auto gpus = parseCount(QStringLiteral("--gpus"), *gpus_text, 1,
                                 static_cast<int>(kMaxGpuCount), failure);
    if (!gpus)
        return failure->code;
    const auto top = countOption(*args, "--top", 1, 1000, 5, failure);
    if (!top)
        return failure->code;
    const auto base = scenarioArgument(*args, command, true, failure);
    if (!base)
        return failure->code;
    if (base->isCollective()) {
        *failure = {kInvalidInput,
                    QStringLiteral("plan: a collective-only scenario has no plan to search")};
        return failure->code;
    }
    PlanSearchOptions options;
    options.gpus = *gpus;
    options.top_k = *top;
    // The figures listed are those `simulate` gives the listed plan (issue 24): the best
    // plans are re-evaluated by the one step policy, as the window's dialog does.
    options.engine_check = true;
    QElapsedTimer timer;
    timer.start();
    const Result<PlanSearchResult> found = searchPlans(*base, options);
    if (!found) {
        *failure = {kInvalidInput, modelErrorText(found.error())};
        return failure->code;
    }
    const PlanSearchResult &r = found.value();
    const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    if (json) {
        QJsonObject o = planSearchToJson(r, *gpus);
        o[QStringLiteral("search_ms")] = ms;
        out.text += QJsonDocument(o).toJson(QJsonDocument::Indented);
        return kOk;
    }
    out.line(QStringLiteral("%1 plans on %2 GPUs: %3 evaluated, %4 do not fit in memory (%5 ms)")
                 .arg(r.considered)
                 .arg(*gpus)
                 .arg(r.evaluated)
                 .arg(r.out_of_memory)
                 .arg(fixed(ms, 1)));
    if (r.best.empty()) {
        // Nothing to apply: an error naming --gpus, not a listing of nothing (issue 29).
        *failure = {kInvalidInput,
                    r.considered == 0
                        ? QStringLiteral("--gpus: no plan: %1 GPUs cannot be split into data x "
                                         "tensor x pipeline degrees that divide the global batch "
                                         "of %2 and the model's layers and heads")
                              .arg(*gpus)
                              .arg(base->training.global_batch)
                        : QStringLiteral("--gpus: no plan on %1 GPUs fits in memory (%2 plans "
                                         "considered, %3 too large); allowed: more GPUs, GPUs "
                                         "with more memory or a smaller global batch")
                              .arg(*gpus)
                              .arg(r.considered)
                              .arg(r.out_of_memory)};
        return failure->code;
    }
    out.line(QStringLiteral("rank  data tensor pipeline zero schedule      mb recompute  "
                            "step_time   memory/GPU   MFU  framework"));
    int rank = 1;
    for (const PlanCandidate &c : r.best) {
        const char *sched = c.parallel.schedule == Schedule::Interleaved ? "interleaved/2"
                            : c.parallel.pipeline > 1                    ? "1f1b"
                                                                         : "-";
        const char *rc = c.recompute == Recompute::None        ? "none"
                         : c.recompute == Recompute::Selective ? "selective"
                                                               : "full";
        out.line(QStringLiteral("%1  %2 %3 %4 %5 %6 %7 %8 %9")
                     .arg(rank++, 4)
                     .arg(c.parallel.data, 4)
                     .arg(c.parallel.tensor, 6)
                     .arg(c.parallel.pipeline, 8)
                     .arg(c.parallel.zero, 4)
                     .arg(QString::fromLatin1(sched), -13)
                     .arg(c.micro_batch, 3)
                     .arg(QString::fromLatin1(rc), -10)
                     .arg(humanTime(c.step_time_s), 10) +
                 QStringLiteral("  %1 GiB  %2%  %3")
                     .arg(fixed(c.memory_bytes / kBytesPerGiB, 1), 8)
                     .arg(fixed(100.0 * c.mfu, 1), 5)
                     .arg(QString::fromStdString(c.stack)) +
                 (c.parallel.context > 1 ? QStringLiteral("  context %1").arg(c.parallel.context)
                                         : QString()) +
                 (c.parallel.expert > 1 ? QStringLiteral("  expert %1").arg(c.parallel.expert)
                                        : QString()) +
                 (c.recompute_modules != 0
                      ? QStringLiteral("  recompute_modules %1")
                            .arg(QString::fromStdString(recomputeModuleList(c.recompute_modules)))
                      : QString()));
    }
    return kOk;
}

} // namespace scalescope::cli
