#include "cli/cli.h"

#include "analysis/economics.h"
#include "analysis/planner.h"
#include "analysis/scaling.h"
#include "analysis/summary.h"
#include "analysis/sweep.h"
#include "io/catalog_io.h"
#include "io/report_io.h"
#include "io/scenario_io.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
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
    "  scalescope-cli catalog [gpus|links|models] [--json]\n"
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

// Collected output, written to stdout only when the command succeeds.
struct Output {
    QByteArray text;
    void line(const QString &s) { text += s.toUtf8() + '\n'; }
};

struct Failure {
    int code;
    QString message;
};

class Args
{
public:
    explicit Args(QStringList args) : args_(std::move(args)) {}

    bool flag(const QString &name)
    {
        const auto n = args_.removeAll(name);
        return n > 0;
    }
    // Value of --name X; error if given without a value.
    std::optional<QString> value(const QString &name, Failure *failure)
    {
        const auto i = args_.indexOf(name);
        if (i < 0)
            return std::nullopt;
        if (i + 1 >= args_.size()) {
            *failure = {kInvalidInput, name + QStringLiteral(": missing value")};
            return std::nullopt;
        }
        const QString v = args_.at(i + 1);
        args_.remove(i, 2);
        return v;
    }
    QStringList positional() const { return args_; }
    // Options the command does not know are an error, not a file name.
    bool noUnknownOptions(const QString &command, Failure *failure) const
    {
        for (const QString &a : args_) {
            if (a.startsWith(QStringLiteral("--"))) {
                *failure = {kInvalidInput,
                            QStringLiteral("%1: unknown option \"%2\"").arg(command, a)};
                return false;
            }
        }
        return true;
    }

private:
    QStringList args_;
};

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
    out.line(
        QStringLiteral("  verdict             %1").arg(QString::fromStdString(c.verdict.sentence)));
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

int cmdSimulate(Args &args, Output &out, Failure *failure)
{
    const bool json = args.flag(QStringLiteral("--json"));
    const bool layers = args.flag(QStringLiteral("--layers"));
    const auto trace = args.value(QStringLiteral("--trace"), failure);
    if (failure->code)
        return failure->code;
    int iterations = 1;
    if (const auto it = args.value(QStringLiteral("--iterations"), failure)) {
        const auto n = parseCount(QStringLiteral("--iterations"), *it, 1, kMaxIterations, failure);
        if (!n)
            return failure->code;
        iterations = *n;
    }
    if (failure->code)
        return failure->code;
    if (!args.noUnknownOptions(QStringLiteral("simulate"), failure))
        return failure->code;
    const QStringList pos = args.positional();
    if (pos.size() > 1) {
        *failure = {kInvalidInput,
                    QStringLiteral("simulate: unexpected argument \"%1\"").arg(pos.at(1))};
        return failure->code;
    }
    const auto scenario = loadScenario(pos.value(0), failure);
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
    const SimResult sim = simulate(*ctx, options);
    if (trace && sim.ok && sim.timeline_merge_quantum_s > 0)
        std::fprintf(err_,
                     "scalescope-cli: note: the timeline would hold about %zu segments; the "
                     "trace is simplified to %zu (items closer than %.3g us merged)\n",
                     sim.timeline_full_segments, sim.timeline->size(),
                     sim.timeline_merge_quantum_s * 1e6);
    Summary s;
    if (sim.ok) {
        s = summarize(*ctx, sim);
    } else if (sim.too_large && !trace) {
        // Too many tasks for the event simulation: the closed-form path answers instead.
        std::fprintf(err_, "scalescope-cli: note: %s; showing the analytic estimate\n",
                     sim.error.c_str());
        s = analyticSummary(*ctx);
    } else {
        *failure = {kFailure, QString::fromStdString(sim.error)};
        return failure->code;
    }
    if (trace) {
        QString error;
        if (!writeFileAtomically(
                *trace,
                timelineToChromeTrace(*sim.timeline, QString::fromStdString(scenario->name)),
                &error)) {
            *failure = {kFailure, error};
            return failure->code;
        }
    }
    if (json) {
        QJsonObject o = summaryToJson(s);
        if (scenario->cost)
            o[QStringLiteral("cost")] = costToJson(costReport(*scenario, s));
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

int cmdSweep(Args &args, Output &out, Failure *failure)
{
    const bool csv = args.flag(QStringLiteral("--csv"));
    const bool json = args.flag(QStringLiteral("--json"));
    const auto gpus_text = args.value(QStringLiteral("--gpus"), failure);
    const auto scaling = args.value(QStringLiteral("--scaling"), failure);
    if (failure->code)
        return failure->code;
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
    if (!args.noUnknownOptions(QStringLiteral("sweep"), failure))
        return failure->code;
    const QStringList pos = args.positional();
    if (pos.size() != 1) {
        *failure = {kInvalidInput, QStringLiteral("sweep: expected one scenario FILE")};
        return failure->code;
    }
    const auto counts = parseGpuList(*gpus_text, failure);
    if (!counts)
        return failure->code;
    const auto base = loadScenario(pos.at(0), failure);
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
    auto commShare = [](const Summary &s) {
        return s.step_time_s > 0 ? s.breakdown.communication_exposed / s.step_time_s : 0.0;
    };
    if (json) {
        QJsonArray arr;
        for (const SweepRow &r : rows) {
            QJsonObject o;
            o[QStringLiteral("gpus")] = r.gpus;
            o[QStringLiteral("step_time_s")] = r.summary.step_time_s;
            o[QStringLiteral("samples_per_s")] = r.summary.samples_per_s;
            o[QStringLiteral("speedup")] = r.summary.speedup;
            o[QStringLiteral("scaling_efficiency")] = r.summary.scaling_efficiency;
            o[QStringLiteral("communication_share")] = commShare(r.summary);
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
    } else {
        const QString sep = csv ? QStringLiteral(",") : QStringLiteral("  ");
        out.line(csv ? QStringLiteral("gpus,step_time_s,samples_per_s,speedup,scaling_efficiency,"
                                      "communication_share")
                     : QStringLiteral(
                           "gpus  step_time_s  samples_per_s  speedup  efficiency  comm_share"));
        for (const SweepRow &r : rows) {
            if (csv) {
                out.line(QStringList{QString::number(r.gpus),
                                     QString::number(r.summary.step_time_s, 'g', 9),
                                     QString::number(r.summary.samples_per_s, 'g', 9),
                                     QString::number(r.summary.speedup, 'g', 6),
                                     QString::number(r.summary.scaling_efficiency, 'g', 6),
                                     QString::number(commShare(r.summary), 'g', 6)}
                             .join(sep));
            } else {
                out.line(
                    QStringLiteral("%1  %2  %3  %4  %5  %6")
                        .arg(r.gpus, 4)
                        .arg(fixed(r.summary.step_time_s, 4), 11)
                        .arg(fixed(r.summary.samples_per_s, 1), 13)
                        .arg(fixed(r.summary.speedup, 2), 7)
                        .arg(fixed(r.summary.scaling_efficiency * 100, 1) + QStringLiteral("%"), 10)
                        .arg(fixed(commShare(r.summary) * 100, 1) + QStringLiteral("%"), 10));
            }
        }
    }
    return kOk;
}

int cmdPlan(Args &args, Output &out, Failure *failure)
{
    const bool json = args.flag(QStringLiteral("--json"));
    const auto gpus_text = args.value(QStringLiteral("--gpus"), failure);
    const auto top_text = args.value(QStringLiteral("--top"), failure);
    if (failure->code)
        return failure->code;
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
    if (!args.noUnknownOptions(QStringLiteral("plan"), failure))
        return failure->code;
    const QStringList pos = args.positional();
    if (pos.size() != 1) {
        *failure = {kInvalidInput, QStringLiteral("plan: expected one scenario FILE")};
        return failure->code;
    }
    const auto base = loadScenario(pos.at(0), failure);
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

int cmdValidate(Args &args, Output &out, Failure *failure)
{
    if (!args.noUnknownOptions(QStringLiteral("validate"), failure))
        return failure->code;
    const QStringList pos = args.positional();
    if (pos.size() != 1) {
        *failure = {kInvalidInput, QStringLiteral("validate: expected one scenario FILE")};
        return failure->code;
    }
    const auto scenario = loadScenario(pos.at(0), failure);
    if (!scenario)
        return failure->code;
    if (!scenario->isCollective() && !contextOf(*scenario, failure))
        return failure->code;
    out.line(QStringLiteral("ok: %1 (%2 GPUs)")
                 .arg(QString::fromStdString(scenario->name))
                 .arg(scenario->hardware.gpuCount()));
    return kOk;
}

int cmdCatalog(Args &args, Output &out, Failure *failure)
{
    const bool json = args.flag(QStringLiteral("--json"));
    if (!args.noUnknownOptions(QStringLiteral("catalog"), failure))
        return failure->code;
    const QStringList pos = args.positional();
    const QString what = pos.value(0);
    if (pos.size() > 1 || (!what.isEmpty() && what != QStringLiteral("gpus") &&
                           what != QStringLiteral("links") && what != QStringLiteral("models"))) {
        *failure = {
            kInvalidInput,
            QStringLiteral("catalog: value \"%1\" is not allowed; expected gpus, links or models")
                .arg(pos.join(QLatin1Char(' ')))};
        return failure->code;
    }
    const Catalog &c = builtinCatalog();
    const bool all = what.isEmpty();
    QJsonObject root;
    auto s = [](const std::string &x) { return QString::fromStdString(x); };
    if (all || what == QStringLiteral("gpus")) {
        QJsonArray arr;
        if (!json)
            out.line(QStringLiteral(
                "GPUs (dense peak TFLOP/s fp32/tf32/fp16/bf16/fp8, memory, bandwidth):"));
        for (const GpuSpec &g : c.gpus) {
            QJsonObject o;
            o[QStringLiteral("id")] = s(g.id);
            o[QStringLiteral("name")] = s(g.name);
            QJsonObject peak;
            for (int p = 0; p < kPrecisionCount; ++p)
                peak[QString::fromLatin1(precisionName(static_cast<Precision>(p)))] =
                    g.peak_tflops[static_cast<size_t>(p)];
            o[QStringLiteral("peak_tflops")] = peak;
            o[QStringLiteral("memory_gb")] = g.memory_gb;
            o[QStringLiteral("memory_bandwidth_gbps")] = g.memory_bandwidth_gbps;
            o[QStringLiteral("tdp_w")] = g.tdp_w;
            o[QStringLiteral("source")] = s(g.source);
            arr.append(o);
            if (!json)
                out.line(QStringLiteral("  %1 %2/%3/%4/%5/%6  %7 GB  %8 GB/s  %9 W")
                             .arg(s(g.id), -18)
                             .arg(g.peak(Precision::FP32))
                             .arg(g.peak(Precision::TF32))
                             .arg(g.peak(Precision::FP16))
                             .arg(g.peak(Precision::BF16))
                             .arg(g.peak(Precision::FP8))
                             .arg(g.memory_gb)
                             .arg(g.memory_bandwidth_gbps)
                             .arg(g.tdp_w));
        }
        root[QStringLiteral("gpus")] = arr;
    }
    if (all || what == QStringLiteral("links")) {
        QJsonArray intra, inter;
        if (!json)
            out.line(QStringLiteral("Intra-node links (GB/s per GPU per direction, latency):"));
        for (const IntraLinkSpec &l : c.intra_links) {
            QJsonObject o;
            o[QStringLiteral("id")] = s(l.id);
            o[QStringLiteral("name")] = s(l.name);
            o[QStringLiteral("bandwidth_gbps")] = l.bandwidth_gbps;
            o[QStringLiteral("latency_us")] = l.latency_us;
            o[QStringLiteral("switched")] = l.switched;
            o[QStringLiteral("source")] = s(l.source);
            intra.append(o);
            if (!json)
                out.line(QStringLiteral("  %1 %2 GB/s  %3 us  %4")
                             .arg(s(l.id), -20)
                             .arg(l.bandwidth_gbps)
                             .arg(l.latency_us)
                             .arg(s(l.name)));
        }
        if (!json)
            out.line(QStringLiteral("Inter-node networks (Gb/s per NIC, latency):"));
        for (const InterLinkSpec &l : c.inter_links) {
            QJsonObject o;
            o[QStringLiteral("id")] = s(l.id);
            o[QStringLiteral("name")] = s(l.name);
            o[QStringLiteral("line_rate_gbit")] = l.line_rate_gbit;
            o[QStringLiteral("latency_us")] = l.latency_us;
            o[QStringLiteral("source")] = s(l.source);
            inter.append(o);
            if (!json)
                out.line(QStringLiteral("  %1 %2 Gb/s  %3 us  %4")
                             .arg(s(l.id), -20)
                             .arg(l.line_rate_gbit)
                             .arg(l.latency_us)
                             .arg(s(l.name)));
        }
        root[QStringLiteral("intra_node")] = intra;
        root[QStringLiteral("inter_node")] = inter;
    }
    if (all || what == QStringLiteral("models")) {
        QJsonArray arr;
        if (!json)
            out.line(QStringLiteral("Models:"));
        for (const ModelSpec &m : c.models) {
            QJsonObject o;
            o[QStringLiteral("id")] = s(m.id);
            o[QStringLiteral("name")] = s(m.name);
            o[QStringLiteral("kind")] =
                m.kind == ModelSpec::Kind::Transformer  ? QStringLiteral("transformer")
                : m.kind == ModelSpec::Kind::LayerTable ? QStringLiteral("layers")
                                                        : QStringLiteral("custom");
            o[QStringLiteral("source")] = s(m.source);
            arr.append(o);
            if (!json)
                out.line(QStringLiteral("  %1 %2").arg(s(m.id), -18).arg(s(m.name)));
        }
        root[QStringLiteral("models")] = arr;
    }
    if (json)
        out.text += QJsonDocument(root).toJson(QJsonDocument::Indented);
    return kOk;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

int cmdBench(Args &args, Output &out, Failure *failure)
{
    const bool json = args.flag(QStringLiteral("--json"));
    int repeat = 200;
    if (const auto r = args.value(QStringLiteral("--repeat"), failure)) {
        const auto n = parseCount(QStringLiteral("--repeat"), *r, 1, kMaxRepeat, failure);
        if (!n)
            return failure->code;
        repeat = *n;
    }
    if (failure->code)
        return failure->code;
    if (!args.noUnknownOptions(QStringLiteral("bench"), failure))
        return failure->code;
    const QStringList pos = args.positional();
    if (pos.size() != 1) {
        *failure = {kInvalidInput, QStringLiteral("bench: expected one scenario FILE")};
        return failure->code;
    }
    const auto scenario = loadScenario(pos.at(0), failure);
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
    }
    return kOk;
}

} // namespace

int run(const QStringList &argv, std::FILE *out, std::FILE *err)
{
    if (argv.isEmpty()) {
        std::fputs(kUsage, err);
        return kInvalidInput;
    }
    const QString command = argv.first();
    if (argv.contains(QStringLiteral("--help")) || argv.contains(QStringLiteral("-h"))) {
        std::fputs(kUsage, out);
        return kOk;
    }
    if (command == QStringLiteral("--version")) {
        std::fprintf(out, "scalescope-cli %s (cli version 1)\n", SCALESCOPE_VERSION);
        return kOk;
    }
    err_ = err;
    Args args(argv.mid(1));
    Output output;
    Failure failure{kOk, {}};
    int code = kOk;
    if (command == QStringLiteral("simulate"))
        code = cmdSimulate(args, output, &failure);
    else if (command == QStringLiteral("sweep"))
        code = cmdSweep(args, output, &failure);
    else if (command == QStringLiteral("plan"))
        code = cmdPlan(args, output, &failure);
    else if (command == QStringLiteral("validate"))
        code = cmdValidate(args, output, &failure);
    else if (command == QStringLiteral("catalog"))
        code = cmdCatalog(args, output, &failure);
    else if (command == QStringLiteral("bench"))
        code = cmdBench(args, output, &failure);
    else {
        failure = {kInvalidInput, QStringLiteral("unknown command \"%1\"").arg(command)};
        code = kInvalidInput;
    }
    if (code != kOk || failure.code != kOk) {
        std::fprintf(err, "scalescope-cli: %s\n", failure.message.toUtf8().constData());
        return failure.code != kOk ? failure.code : code;
    }
    std::fwrite(output.text.constData(), 1, static_cast<size_t>(output.text.size()), out);
    return kOk;
}

} // namespace scalescope::cli
