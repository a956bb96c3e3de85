#include "cli/cli.h"

#include "cli/command.h"

#include "analysis/economics.h"
#include "analysis/evaluate.h"
#include "analysis/planner.h"
#include "analysis/scaling.h"
#include "analysis/summary.h"
#include "analysis/sweep.h"
#include "io/catalog_io.h"
#include "io/file_io.h"
#include "io/report_io.h"
#include "io/scenario_io.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

namespace scalescope::cli
{

namespace
{

const char *kUsage =
    "Usage:\n"
    "  scalescope-cli simulate [FILE] [--json] [--trace OUT.json] [--iterations N] [--layers]\n"
    "  scalescope-cli sweep FILE --gpus 1,2,4,8,... [--scaling strong|weak] [--csv|--json]\n"
    "  scalescope-cli plan FILE --gpus N [--top K] [--json]\n"
    "  scalescope-cli validate FILE\n"
    "  scalescope-cli catalog [gpus|links|models|frameworks] [--json]\n"
    "  scalescope-cli bench FILE [--repeat N] [--json]\n"
    "  scalescope-cli --version | --help\n"
    "\n"
    "simulate without FILE runs the built-in default scenario.\n"
    "Exit codes: 0 success, 2 invalid input, 1 other failure.\n";

constexpr int kMaxIterations = 64;
constexpr size_t kMaxTraceSegments = 1'000'000;
// Where notes go (stderr of run()).
std::FILE *err_ = stderr;
constexpr int kMaxRepeat = 100000;
constexpr int kMaxSweepPoints = 64;

std::optional<int> parseCount(const QString &option, const QString &text, int lo, int hi,
                              Failure *failure)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < lo || v > hi) {
        *failure = {kInvalidInput,
                    QStringLiteral("%1: value \"%2\" is not allowed; expected a whole "
                                   "number from %3 to %4")
                        .arg(option, text)
                        .arg(lo)
                        .arg(hi)};
        return std::nullopt;
    }
    return v;
}

std::optional<Scenario> loadScenario(const QString &path, Failure *failure)
{
    Result<Scenario> s = path.isEmpty()
                             ? parseScenario(
                                   [] {
                                       QFile f(QStringLiteral(":/scenarios/default.json"));
                                       f.open(QIODevice::ReadOnly);
                                       return f.readAll();
                                   }(),
                                   builtinCatalog())
                             : loadScenarioFile(path, builtinCatalog());
    if (!s) {
        *failure = {kInvalidInput, QString::fromStdString(s.error().toString())};
        return std::nullopt;
    }
    if (const Result<bool> ok = checkCollective(s.value()); !ok) {
        *failure = {kInvalidInput, QString::fromStdString(ok.error().toString())};
        return std::nullopt;
    }
    return std::move(s).value();
}

std::shared_ptr<const SimContext> contextOf(const Scenario &s, Failure *failure)
{
    Result<std::shared_ptr<const SimContext>> ctx = makeContext(s);
    if (!ctx) {
        *failure = {kInvalidInput, QString::fromStdString(ctx.error().toString())};
        return nullptr;
    }
    return ctx.value();
}

QString fmt(double v, int prec = 3)
{
    return QString::number(v, 'g', prec);
}
QString fixed(double v, int decimals)
{
    return QString::number(v, 'f', decimals);
}

QString humanTime(double s)
{
    if (s >= 1.0)
        return fixed(s, 3) + QStringLiteral(" s");
    if (s >= 1e-3)
        return fixed(s * 1e3, 2) + QStringLiteral(" ms");
    return fixed(s * 1e6, 1) + QStringLiteral(" us");
}

void printSummaryText(Output &out, const Scenario &sc, const Summary &s)
{
    const Breakdown &b = s.breakdown;
    auto share = [&](double x) {
        return fixed(100.0 * x / s.step_time_s, 1) + QStringLiteral("%");
    };
    out.line(QString::fromStdString(sc.name.empty() ? std::string("scenario") : sc.name));
    out.line(QStringLiteral("  GPUs                %1 (%2 x %3 %4)")
                 .arg(s.gpus)
                 .arg(sc.hardware.nodes)
                 .arg(sc.hardware.gpus_per_node)
                 .arg(QString::fromStdString(sc.hardware.gpu.name)));
    out.line(QStringLiteral("  step time           %1").arg(humanTime(s.step_time_s)));
    out.line(QStringLiteral("  throughput          %1 samples/s%2")
                 .arg(fmt(s.samples_per_s, 6))
                 .arg(s.tokens_per_s > 0
                          ? QStringLiteral(", %1 tokens/s").arg(fmt(s.tokens_per_s, 6))
                          : QString()));
    out.line(QStringLiteral("  model TFLOP/s/GPU   %1 (MFU %2%)")
                 .arg(fixed(s.model_tflops_per_gpu, 1))
                 .arg(fixed(100.0 * s.mfu, 1)));
    out.line(QStringLiteral("  speed-up            %1x on %2 GPUs (efficiency %3%)")
                 .arg(fixed(s.speedup, 2))
                 .arg(s.gpus)
                 .arg(fixed(100.0 * s.scaling_efficiency, 1)));
    out.line(
        QStringLiteral("  breakdown           compute %1, exposed communication %2, bubble %3, "
                       "wait %4, data loading %5")
            .arg(share(b.compute), share(b.communication_exposed), share(b.pipeline_bubble),
                 share(b.wait), share(b.data_loading)));
    out.line(QStringLiteral("  communication       %1 in total per GPU (%2 hidden behind compute)")
                 .arg(humanTime(b.communication_total))
                 .arg(humanTime(std::max(0.0, b.communication_total - b.communication_exposed))));
    out.line(QStringLiteral("  memory per GPU      %1 GB of %2 GB (%3)")
                 .arg(fixed(s.memory.total / 1e9, 1), fixed(s.memory.capacity / 1e9, 1),
                      s.memory.fits() ? QStringLiteral("fits") : QStringLiteral("does NOT fit")));
    out.line(QStringLiteral("  bottleneck          %1").arg(QString::fromStdString(s.bottleneck)));
    if (s.max_temperature_c > 0)
        out.line(
            QStringLiteral("  thermal             %1 of %2 GPUs throttled, hottest %3 C, first "
                           "throttle after %4")
                .arg(s.throttled_gpus)
                .arg(s.gpus)
                .arg(fixed(s.max_temperature_c, 0))
                .arg(s.first_throttle_s >= 0 ? humanTime(s.first_throttle_s)
                                             : QStringLiteral("never")));
    if (s.full_gpu_equivalents > 0)
        out.line(QStringLiteral("  virtual GPUs        runs like %1 whole GPUs")
                     .arg(fixed(s.full_gpu_equivalents, 2)));
    if (s.data_supply_samples_per_s > 0)
        out.line(
            QStringLiteral("  data loader         supplies %1 samples/s, GPUs consume %2")
                .arg(fmt(s.data_supply_samples_per_s, 6), fmt(s.data_demand_samples_per_s, 6)));
    if (s.checkpoint_interval_s > 0)
        out.line(QStringLiteral("  failures            goodput %1%, checkpoint every %2")
                     .arg(fixed(100.0 * s.goodput, 1), humanTime(s.checkpoint_interval_s)));
}

// The cost verdict (a record, analysis/economics.h) in English: the decision with the numbers
// it compares, and the rule of thumb beside it with why they differ.
QString gpusText(int gpus)
{
    return gpus >= 8 ? QStringLiteral("8+ GPUs")
                     : (gpus <= 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(gpus));
}

QString venueText(CostVenue venue)
{
    return venue == CostVenue::Own ? QStringLiteral("owning")
                                   : QStringLiteral("renting in the cloud");
}

QStringList missingCostInputs(const CostVerdict &v)
{
    static const char *const names[kCostInputCount] = {
        "the GPU price (gpu_price_usd)", "the cloud price (cloud_price_per_gpu_hour)",
        "the power price (power_price_per_kwh)", "the day rate (day_rate_usd)",
        "the work per run (training)"};
    QStringList list;
    for (int i = 0; i < kCostInputCount; ++i)
        if (v.isMissing(static_cast<CostInput>(i)))
            list.append(QString::fromLatin1(names[i]));
    return list;
}

QString costVerdictText(const CostReport &c)
{
    const CostVerdict &v = c.verdict;
    const QString usage =
        QStringLiteral("%1 h a month against a break-even of %2")
            .arg(fixed(c.usage_hours_per_month, 0),
                 std::isfinite(c.break_even_hours_per_month)
                     ? fixed(c.break_even_hours_per_month, 0) + QStringLiteral(" h")
                     : QStringLiteral("never"));
    switch (v.decision) {
    case CostDecision::NoVerdict:
        return QStringLiteral("No verdict: the cost section lacks ") +
               missingCostInputs(v).join(QStringLiteral(", ")) + QStringLiteral(" (0).");
    case CostDecision::OneGpu:
        return QStringLiteral("One GPU: %1 h per run; %2 is cheaper (%3).")
            .arg(fixed(c.time_to_train_h, 1), venueText(v.venue), usage);
    case CostDecision::MoreGpusPay:
    case CostDecision::MoreGpusDoNotPay:
        break;
    }
    return QStringLiteral("%1 GPUs %2: they save %3 h of waiting a month, worth $%4 at $%5 an "
                          "hour, against $%6 a month more ($%7 of hardware or cloud time, $%8 of "
                          "migration spread over the amortisation period); %9 is cheaper (%10).")
        .arg(QString::number(c.gpus),
             v.decision == CostDecision::MoreGpusPay ? QStringLiteral("pay off")
                                                     : QStringLiteral("do not pay off"),
             fixed(v.waiting_saved_h_per_month, 0), fixed(v.waiting_value_usd_per_month, 0),
             fixed(v.hour_value_usd, 0), fixed(v.extra_cost_usd_per_month, 0),
             fixed(v.hardware_extra_usd_per_month, 0), fixed(v.migration_usd_per_month, 0),
             venueText(v.venue), usage);
}

QString costRuleText(const CostReport &c)
{
    const CostVerdict &v = c.verdict;
    QString text =
        QStringLiteral("the job takes %1 on one GPU, %2: %3, %4")
            .arg(QString::fromLatin1(durationBandName(v.duration)),
                 QString::fromLatin1(usageBandName(v.usage)), gpusText(v.recommended_gpus),
                 v.rule_own ? QStringLiteral("owning (over 200 h a month)")
                            : QStringLiteral("renting (200 h a month or less)"));
    if (v.gap == RuleGap::WaitingValued)
        text += QStringLiteral("; the verdict differs because the rule counts GPU-hours, not the "
                               "waiting the GPUs save");
    else if (v.gap == RuleGap::CostOutweighs)
        text += QStringLiteral("; the verdict differs because the GPUs add more a month than the "
                               "waiting they save is worth");
    if (v.venue_differs)
        text += QStringLiteral("; at these prices owning pays above %1")
                    .arg(std::isfinite(c.break_even_hours_per_month)
                             ? fixed(c.break_even_hours_per_month, 0) + QStringLiteral(" h a month")
                             : QStringLiteral("no usage"));
    return text + QLatin1Char('.');
}

QJsonObject costReportJson(const CostReport &report)
{
    CostReport c = report;
    c.verdict.sentence = costVerdictText(c).toStdString();
    QJsonObject o = costToJson(c);
    const CostVerdict &v = c.verdict;
    QJsonObject j = o[QStringLiteral("verdict")].toObject();
    static const char *const decisions[] = {"no_verdict", "one_gpu", "more_gpus_pay",
                                            "more_gpus_do_not_pay"};
    static const char *const gaps[] = {"none", "waiting_valued", "cost_outweighs"};
    static const char *const inputs[kCostInputCount] = {"gpu_price_usd", "cloud_price_per_gpu_hour",
                                                        "power_price_per_kwh", "day_rate_usd",
                                                        "training"};
    j[QStringLiteral("decision")] = QLatin1String(decisions[static_cast<int>(v.decision)]);
    QJsonArray missing;
    for (int i = 0; i < kCostInputCount; ++i)
        if (v.isMissing(static_cast<CostInput>(i)))
            missing.append(QLatin1String(inputs[i]));
    j[QStringLiteral("missing")] = missing;
    j[QStringLiteral("venue")] =
        v.venue == CostVenue::Own ? QStringLiteral("own") : QStringLiteral("rent");
    j[QStringLiteral("one_gpu_venue")] =
        v.one_gpu_venue == CostVenue::Own ? QStringLiteral("own") : QStringLiteral("rent");
    j[QStringLiteral("waiting_saved_h_per_month")] = v.waiting_saved_h_per_month;
    j[QStringLiteral("hour_value_usd")] = v.hour_value_usd;
    j[QStringLiteral("waiting_value_usd_per_month")] = v.waiting_value_usd_per_month;
    j[QStringLiteral("gpus_cost_usd_per_month")] = v.gpus_cost_usd_per_month;
    j[QStringLiteral("one_gpu_cost_usd_per_month")] = v.one_gpu_cost_usd_per_month;
    j[QStringLiteral("hardware_extra_usd_per_month")] = v.hardware_extra_usd_per_month;
    j[QStringLiteral("migration_usd_per_month")] = v.migration_usd_per_month;
    j[QStringLiteral("extra_cost_usd_per_month")] = v.extra_cost_usd_per_month;
    j[QStringLiteral("net_usd_per_month")] = v.net_usd_per_month;
    j[QStringLiteral("rule_own")] = v.rule_own;
    j[QStringLiteral("rule_gap")] = QLatin1String(gaps[static_cast<int>(v.gap)]);
    j[QStringLiteral("venue_differs")] = v.venue_differs;
    j[QStringLiteral("rule_of_thumb")] = QStringLiteral("Rule of thumb: ") + costRuleText(c);
    o[QStringLiteral("verdict")] = j;
    return o;
}

void printCostText(Output &out, const CostReport &c)
{
    out.line(QStringLiteral("  time to train       %1 h on %2 GPUs (%3 h on one GPU)")
                 .arg(fmt(c.time_to_train_h, 4))
                 .arg(c.gpus)
                 .arg(fmt(c.single_gpu_time_h, 4)));
    out.line(QStringLiteral("  energy              %1 kWh per run ($%2), %3 W per GPU at %4% "
                            "utilisation")
                 .arg(fmt(c.energy_kwh_per_run, 4), fixed(c.energy_cost_per_run_usd, 0),
                      fixed(c.power_per_gpu_w, 0), fixed(100.0 * c.utilisation, 0)));
    out.line(QStringLiteral("  own vs rent         $%1 vs $%2 a month; break-even %3 h a month")
                 .arg(fixed(c.own_cost_per_month_usd, 0), fixed(c.rent_cost_per_month_usd, 0),
                      std::isfinite(c.break_even_hours_per_month)
                          ? fixed(c.break_even_hours_per_month, 0)
                          : QStringLiteral("never")));
    out.line(QStringLiteral("  verdict             %1").arg(costVerdictText(c)));
    out.line(QStringLiteral("  rule of thumb       %1").arg(costRuleText(c)));
    for (const std::string &a : c.advice)
        out.line(QStringLiteral("  advice              %1").arg(QString::fromStdString(a)));
}

// Where one GPU of each pipeline stage spends a micro-batch, layer by layer (an extension:
// `simulate --layers`), for finding the layer that dominates.
void printLayersText(Output &out, const SimContext &ctx)
{
    const WorkloadCost &w = ctx.workload;
    const Plan &p = ctx.plan;
    const int vstages = p.virtualStageCount();
    out.line(
        QStringLiteral("  per micro-batch of %1 on one GPU (forward / backward incl. recompute):")
            .arg(p.micro_batch));
    for (int v = 0; v < vstages; ++v) {
        const LayerRange r = virtualStageLayers(w, vstages, v);
        out.line(QStringLiteral("  stage %1%2:")
                     .arg(v % p.pipeline)
                     .arg(p.virtual_stages > 1 ? QStringLiteral(" chunk %1").arg(v / p.pipeline)
                                               : QString()));
        for (int i = r.begin; i < r.end;) {
            // Runs of identical layers (transformer blocks) print once with a count.
            int j = i + 1;
            const LayerCost &l = w.layers[static_cast<size_t>(i)];
            while (j < r.end && std::string(w.layers[static_cast<size_t>(j)].name) == l.name &&
                   w.layers[static_cast<size_t>(j)].fwd_s == l.fwd_s)
                ++j;
            const double flops = l.fwd_flops + l.bwd_flops + l.recompute_flops;
            const double time = l.fwd_s + l.bwd_s + l.recompute_s;
            out.line(QStringLiteral("    %1%2 %3 / %4, %5 TFLOP/s, %6 M params, %7 MB kept")
                         .arg(QString::fromUtf8(l.name), -24)
                         .arg(j - i > 1 ? QStringLiteral(" x%1").arg(j - i) : QString(), -6)
                         .arg(humanTime(l.fwd_s), 10)
                         .arg(humanTime(l.bwd_s + l.recompute_s), 10)
                         .arg(fixed(time > 0 ? flops / time / 1e12 : 0, 1), 6)
                         .arg(QString::number(l.params / 1e6, 'g', 3))
                         .arg(fixed(l.activation_bytes / 1e6, 1)));
            i = j;
        }
    }
}

int cmdSimulate(const QStringList &argv, Output &out, Failure *failure)
{
    const QString command = QStringLiteral("simulate");
    const auto args = Args::parse(command, argv,
                                  {{"--json"},
                                   {"--layers"},
                                   {"--trace", OptionSpec::Kind::Text, "OUT.json"},
                                   {"--iterations", OptionSpec::Kind::Number, "N"}},
                                  failure);
    if (!args)
        return failure->code;
    if (args->help())
        return usage(out);
    const bool json = args->flag("--json");
    const bool layers = args->flag("--layers");
    const auto trace = args->value("--trace");
    int iterations = 1;
    if (const auto it = args->value("--iterations")) {
        const auto n = parseCount(QStringLiteral("--iterations"), *it, 1, kMaxIterations, failure);
        if (!n)
            return failure->code;
        iterations = *n;
    }
    const auto file = args->scenarioFile(command, false, failure);
    if (!file)
        return failure->code;
    const auto scenario = loadScenario(*file, failure);
    if (!scenario)
        return failure->code;
    if (scenario->isCollective()) {
        const CollectiveSummary c = simulateCollective(*scenario);
        if (json) {
            out.text += QJsonDocument(collectiveToJson(c)).toJson(QJsonDocument::Indented);
        } else {
            out.line(
                QStringLiteral("%1 of %2 bytes on %3 GPUs: %4, algbw %5 GB/s, busbw %6 GB/s (%7)")
                    .arg(QString::fromLatin1(collectiveOpName(c.op)))
                    .arg(c.bytes, 0, 'f', 0)
                    .arg(c.gpus)
                    .arg(humanTime(c.cost.time_s), fixed(c.cost.algbw_gbps, 1),
                         fixed(c.cost.busbw_gbps, 1),
                         QString::fromLatin1(collectiveAlgoName(c.cost.algorithm))));
        }
        if (trace) {
            *failure = {kInvalidInput,
                        QStringLiteral("--trace: a collective-only scenario has no timeline")};
            return failure->code;
        }
        return kOk;
    }
    const auto ctx = contextOf(*scenario, failure);
    if (!ctx)
        return failure->code;
    SimOptions options;
    options.iterations = iterations;
    options.build_timeline = trace.has_value();
    // A Chrome trace takes about 220 bytes of JSON per segment: beyond this the engine
    // simplifies the timeline (items merged per time quantum) so the file stays loadable.
    options.max_segments = kMaxTraceSegments;
    // One policy (analysis/evaluate.h): beyond the engine's size the closed form answers
    // (with a note; a trace needs the engine), an engine failure is exit 1.
    const Result<StepEvaluation> step = evaluateStep(*ctx, options);
    if (!step) {
        *failure = {kFailure, QString::fromStdString(step.error().message)};
        return failure->code;
    }
    const SimResult &sim = step.value().sim;
    if (step.value().closed_form && trace) {
        *failure = {kFailure, QString::fromStdString(sim.error)};
        return failure->code;
    }
    if (step.value().closed_form)
        std::fprintf(err_, "scalescope-cli: note: %s; showing the analytic estimate\n",
                     sim.error.c_str());
    if (trace && sim.ok && sim.timeline_merge_quantum_s > 0)
        std::fprintf(err_,
                     "scalescope-cli: note: the timeline would hold about %zu segments; the "
                     "trace is simplified to %zu (items closer than %s us merged)\n",
                     sim.timeline_full_segments, sim.timeline->size(),
                     fmt(sim.timeline_merge_quantum_s * 1e6).toUtf8().constData());
    const Summary &s = step.value().summary;
    if (trace) {
        // Never over an input, never into the standard output that the results go to.
        WriteGuard guard;
        guard.inputs = QStringList{*file};
        if (!scenario->hardware.calibration_path.empty())
            guard.inputs.append(QString::fromStdString(scenario->hardware.calibration_path));
        guard.stdout_in_use = true;
        const WriteResult written = writeFileSafely(
            *trace, timelineToChromeTrace(*sim.timeline, QString::fromStdString(scenario->name)),
            guard);
        if (!written) {
            *failure = {written.refused ? kInvalidInput : kFailure,
                        QStringLiteral("--trace: ") + written.error};
            return failure->code;
        }
    }
    if (json) {
        QJsonObject o = summaryToJson(s);
        if (scenario->cost)
            o[QStringLiteral("cost")] = costReportJson(costReport(*scenario, s));
        out.text += QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else {
        printSummaryText(out, *scenario, s);
        if (scenario->cost)
            printCostText(out, costReport(*scenario, s));
    }
    if (layers && !json)
        printLayersText(out, *ctx);
    return kOk;
}

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
        *failure = {kInvalidInput, QString::fromStdString(swept.error().toString())};
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
    const auto top_text = args->value("--top");
    if (!gpus_text) {
        *failure = {kInvalidInput,
                    QStringLiteral("plan: --gpus is required (for example --gpus 64)")};
        return failure->code;
    }
    const auto gpus = parseCount(QStringLiteral("--gpus"), *gpus_text, 1,
                                 static_cast<int>(kMaxGpuCount), failure);
    if (!gpus)
        return failure->code;
    int top = 5;
    if (top_text) {
        const auto k = parseCount(QStringLiteral("--top"), *top_text, 1, 1000, failure);
        if (!k)
            return failure->code;
        top = *k;
    }
    const auto file = args->scenarioFile(command, true, failure);
    if (!file)
        return failure->code;
    const auto base = loadScenario(*file, failure);
    if (!base)
        return failure->code;
    if (base->isCollective()) {
        *failure = {kInvalidInput,
                    QStringLiteral("plan: a collective-only scenario has no plan to search")};
        return failure->code;
    }
    PlanSearchOptions options;
    options.gpus = *gpus;
    options.top_k = top;
    QElapsedTimer timer;
    timer.start();
    const Result<PlanSearchResult> found = searchPlans(*base, options);
    if (!found) {
        *failure = {kInvalidInput, QString::fromStdString(found.error().toString())};
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
        out.line(r.considered == 0
                     ? QStringLiteral("no plan: %1 GPUs cannot be split into data x tensor x "
                                      "pipeline degrees that divide the global batch of %2 "
                                      "and the model's layers and heads")
                           .arg(*gpus)
                           .arg(base->training.global_batch)
                     : QStringLiteral("no plan fits in memory"));
        return kOk;
    }
    out.line(QStringLiteral("rank  data tensor pipeline zero schedule      mb recompute  "
                            "step_time   memory/GPU   MFU"));
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
                 QStringLiteral("  %1 GB  %2%")
                     .arg(fixed(c.memory_bytes / 1e9, 1), 8)
                     .arg(fixed(100.0 * c.mfu, 1), 5));
    }
    return kOk;
}

int cmdValidate(const QStringList &argv, Output &out, Failure *failure)
{
    const QString command = QStringLiteral("validate");
    const auto args = Args::parse(command, argv, {}, failure);
    if (!args)
        return failure->code;
    if (args->help())
        return usage(out);
    const auto file = args->scenarioFile(command, true, failure);
    if (!file)
        return failure->code;
    const auto scenario = loadScenario(*file, failure);
    if (!scenario)
        return failure->code;
    if (!scenario->isCollective() && !contextOf(*scenario, failure))
        return failure->code;
    out.line(QStringLiteral("ok: %1 (%2 GPUs)")
                 .arg(QString::fromStdString(scenario->name))
                 .arg(scenario->hardware.gpuCount()));
    return kOk;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

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
    int repeat = 200;
    if (const auto r = args->value("--repeat")) {
        const auto n = parseCount(QStringLiteral("--repeat"), *r, 1, kMaxRepeat, failure);
        if (!n)
            return failure->code;
        repeat = *n;
    }
    const auto file = args->scenarioFile(command, true, failure);
    if (!file)
        return failure->code;
    const auto scenario = loadScenario(*file, failure);
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

} // namespace

int usage(Output &out)
{
    out.text += kUsage;
    return kOk;
}

namespace
{

// Writes `text` to `out` and checks that it arrived: a full disk or a closed pipe is exit 1
// with a message on `err`, never a silent success.
int writeOut(const QByteArray &text, std::FILE *out, std::FILE *err)
{
    errno = 0;
    const size_t written = std::fwrite(text.constData(), 1, static_cast<size_t>(text.size()), out);
    const bool ok =
        written == static_cast<size_t>(text.size()) && std::fflush(out) == 0 && !std::ferror(out);
    if (ok)
        return kOk;
    const int saved = errno;
    std::fprintf(err, "scalescope-cli: cannot write the standard output: %s\n",
                 saved ? std::strerror(saved) : "write error");
    return kFailure;
}

} // namespace

int run(const QStringList &argv, std::FILE *out, std::FILE *err)
{
    if (argv.isEmpty()) {
        std::fputs(kUsage, err);
        return kInvalidInput;
    }
    const QString command = argv.first();
    if (command == QStringLiteral("--help") || command == QStringLiteral("-h"))
        return writeOut(kUsage, out, err);
    if (command == QStringLiteral("--version"))
        return writeOut(
            QByteArrayLiteral("scalescope-cli " SCALESCOPE_VERSION " (cli version 1)\n"), out, err);
    err_ = err;
    const QStringList rest = argv.mid(1);
    Output output;
    Failure failure;
    using Command = int (*)(const QStringList &, Output &, Failure *);
    static const std::pair<const char *, Command> kCommands[] = {
        {"simulate", cmdSimulate}, {"sweep", cmdSweep},     {"plan", cmdPlan},
        {"validate", cmdValidate}, {"catalog", cmdCatalog}, {"bench", cmdBench},
    };
    int code = kInvalidInput;
    failure = {kInvalidInput, QStringLiteral("unknown command \"%1\"; allowed: simulate, sweep, "
                                             "plan, validate, catalog, bench, --help, --version")
                                  .arg(command)};
    for (const auto &[name, run_command] : kCommands) {
        if (command == QLatin1String(name)) {
            failure = {};
            code = run_command(rest, output, &failure);
        }
    }
    if (code != kOk || failure.code != kOk) {
        std::fprintf(err, "scalescope-cli: %s\n", failure.message.toUtf8().constData());
        return failure.code != kOk ? failure.code : code;
    }
    return writeOut(output.text, out, err);
}

} // namespace scalescope::cli
