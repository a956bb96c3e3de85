// scalescope-cli simulate [FILE]: one scenario's summary (text or --json), its cost, the
// layers of each stage (--layers) and a Chrome trace of its timeline (--trace).
#include "cli/commands.h"

#include "cli/cost_text.h"

#include "analysis/evaluation.h"
#include "analysis/scaling.h"
#include "analysis/step_spread.h"
#include "analysis/summary.h"
#include "io/file_io.h"
#include "io/report_io.h"

#include <QJsonDocument>

#include <algorithm>
#include <cstdio>

namespace scalescope::cli
{

namespace
{

constexpr int kMaxIterations = 64;
constexpr size_t kMaxTraceSegments = 1'000'000;

/// The speed-up lines: the one reference of the evaluation (analysis/speedup_reference.h),
/// worded as the window's status bar words it.
void printSpeedupText(Output &out, const SpeedupReference &ref, const Summary &s)
{
    using Kind = SpeedupFigures::Kind;
    const SpeedupFigures f = speedupFigures(ref, s.gpus, s.speedup);
    const auto againstOne = [&f](const QString &which) {
        return QStringLiteral("%1x on %2 GPUs%3 (efficiency %4%)")
            .arg(fixed(f.vs_one, 2))
            .arg(f.gpus)
            .arg(which, fixed(100.0 * f.efficiency_vs_one, 1));
    };
    const QString against_one = againstOne(QString());
    switch (f.kind) {
    case Kind::OneGpu:
    case Kind::AgainstOne:
        out.line(QStringLiteral("  speed-up            ") + against_one);
        return;
    case Kind::Rebased:
        out.line(QStringLiteral("  speed-up            %1x as fast as %2 GPUs, the fewest that "
                                "fit (ideal %3x, efficiency %4%)")
                     .arg(fixed(f.speedup, 2))
                     .arg(f.from_gpus)
                     .arg(fmt(f.ideal, 6))
                     .arg(fixed(100.0 * f.efficiency, 1)));
        break;
    case Kind::Fewest:
        out.line(QStringLiteral("  speed-up            %1 GPUs are the fewest that fit: no smaller "
                                "run to count from")
                     .arg(f.gpus));
        break;
    case Kind::OnPaper:
        out.line(QStringLiteral("  speed-up            ") +
                 againstOne(QStringLiteral(" against one GPU on paper")));
        break;
    }
    const MemoryBreakdown one = ref.one_gpu_memory.value_or(MemoryBreakdown{});
    QString line =
        QStringLiteral("  speed-up reference  one GPU on paper: it would need %1 GiB of "
                       "its %2 GiB")
            .arg(fixed(one.total / kBytesPerGiB, 1), fixed(one.capacity / kBytesPerGiB, 1));
    if (f.kind != Kind::OnPaper)
        line += QStringLiteral("; against it ") + against_one;
    out.line(line);
}

void printSummaryText(Output &out, const SimContext &ctx, const Summary &s,
                      const SpeedupReference &reference)
{
    const Scenario &sc = ctx.scenario;
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
    if (s.run_kind) {
        // How far to trust the figures above: the model's error on published runs of this
        // kind (analysis/track_record.h).
        const TrackRecord t = trackRecord(*s.run_kind);
        out.line(QStringLiteral("  track record        on %1 published %2, the model's throughput "
                                "was off by %3% on average (median %4%, worst %5%)")
                     .arg(t.runs)
                     .arg(QLatin1String(runKindPlural(*s.run_kind)))
                     .arg(fixed(100.0 * t.mean_error, 1), fixed(100.0 * t.median_error, 1),
                          fixed(100.0 * t.worst_error, 1)));
    }
    printSpeedupText(out, reference, s);
    out.line(
        QStringLiteral("  breakdown           compute %1, exposed communication %2, bubble %3, "
                       "wait %4, data loading %5")
            .arg(share(b.compute), share(b.communication_exposed), share(b.pipeline_bubble),
                 share(b.wait), share(b.data_loading)));
    out.line(QStringLiteral("  communication       %1 in total per GPU (%2 hidden behind compute)")
                 .arg(humanTime(b.communication_total))
                 .arg(humanTime(std::max(0.0, b.communication_total - b.communication_exposed))));
    // At the capacity the tensors fit and the allocator's cache takes what is left
    // (analysis/memory.cpp): say so, or "78.6 GiB of 78.6 GiB" reads as a coincidence.
    // Nearer the capacity than the model's memory error (analysis/memory.h) the verdict says
    // which way the real run may go: over it "may not fit" (as the window says), under it may
    // not fit either; a run that ran never reads as impossible.
    const QString error_margin = fixed(100.0 * kMemoryVerdictMargin, 0);
    const QString off_by = fixed(100.0 * std::abs(s.memory.overCapacityShare()), 1);
    QString fit = s.memory.mayNotFit()
                      ? QStringLiteral("may not fit: %1% over, less than the model's %2% memory "
                                       "error")
                            .arg(off_by, error_margin)
                  : !s.memory.fits() ? QStringLiteral("does NOT fit")
                  : s.memory.reserve_limited
                      ? QStringLiteral("fits: %1 GiB of tensors, the caching "
                                       "allocator holds the rest")
                            .arg(fixed(s.memory.tensors() / kBytesPerGiB, 1))
                      : QStringLiteral("fits");
    if (s.memory.fits() && s.memory.verdictWithinError())
        fit += QStringLiteral(", %1% to spare, less than the model's %2% memory error: it may "
                              "not fit")
                   .arg(off_by, error_margin);
    out.line(QStringLiteral("  memory per GPU      %1 GiB of %2 GiB (%3)")
                 .arg(fixed(s.memory.total / kBytesPerGiB, 1),
                      fixed(s.memory.capacity / kBytesPerGiB, 1), fit));
    if (s.memory.host_offload > 0)
        out.line(QStringLiteral("  offloaded           %1 GiB of activations per GPU wait in host "
                                "memory (training.activation_offload_layers)")
                     .arg(fixed(s.memory.host_offload / kBytesPerGiB, 1)));
    out.line(QStringLiteral("  bottleneck          %1").arg(QString::fromStdString(bottleneckText(s.bottleneck))));
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

// Where one GPU of each pipeline stage spends a micro-batch, layer by layer (an extension:
// `simulate --layers`), for finding the layer that dominates.
void printLayersText(Output &out, const SimContext &ctx)
{
    const WorkloadCost &w = ctx.workload;
    const Plan &p = ctx.plan;
    const int vstages = p.virtualStageCount();
    // The schedule's layout: zb-v's V and dualpipe's two directions (layers/stage_layout.h).
    const PipelineLayout &layout = ctx.step.layout;
    out.line(
        QStringLiteral("  per micro-batch of %1 on one GPU (forward / backward incl. recompute):")
            .arg(p.micro_batch));
    for (int v = 0; v < vstages; ++v) {
        const LayerRange r = virtualStageLayers(w, layout.parts(), layout.partOf(v));
        out.line(QStringLiteral("  stage %1%2:")
                     .arg(layout.stageOf(v))
                     .arg(p.virtual_stages > 1 ? QStringLiteral(" chunk %1").arg(layout.chunkOf(v))
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

} // namespace

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
    const auto iterations = countOption(*args, "--iterations", 1, kMaxIterations, 1, failure);
    if (!iterations)
        return failure->code;
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
    // The model's one evaluation (analysis/evaluation.h): beyond the engine's size the closed
    // form answers (with a note; a trace needs the engine); the scenario's errors are exit 2,
    // an engine failure (no key path) exit 1.
    EvaluationRequest what;
    what.step.iterations = *iterations;
    what.step.build_timeline = trace.has_value();
    // What each cause would gain if free: one simulation per cause, for the JSON only.
    what.what_if = json;
    // A Chrome trace takes about 220 bytes of JSON per segment: beyond this the engine
    // simplifies the timeline (items merged per time quantum) so the file stays loadable.
    what.step.max_segments = kMaxTraceSegments;
    // A scenario with prices is weighed against the counts of the window's scaling sweep, as
    // the window weighs it (analysis/economics.h weighSweep): the same verdict in both.
    if (scenario->cost) {
        what.sweep = true;
        what.skip_unreachable_counts = true;
    }
    const Result<ScenarioEvaluation> evaluated = evaluateScenario(*scenario, what);
    if (!evaluated) {
        *failure = {evaluated.error().path.empty() ? kFailure : kInvalidInput,
                    QString::fromStdString(evaluated.error().toString())};
        return failure->code;
    }
    const ScenarioEvaluation &e = evaluated.value();
    printRuleWarnings(*scenario);
    const SimContext &ctx = *e.context;
    const SimResult &sim = e.step.sim;
    if (e.step.closed_form && trace) {
        *failure = {kFailure, QString::fromStdString(sim.error)};
        return failure->code;
    }
    if (e.step.closed_form)
        std::fprintf(err_, "scalescope-cli: note: %s; showing the analytic estimate\n",
                     printable(QString::fromStdString(sim.error)).toUtf8().constData());
    if (trace && e.timeline && sim.timeline_merge_quantum_s > 0)
        std::fprintf(err_,
                     "scalescope-cli: note: the timeline would hold about %zu segments; the "
                     "trace is simplified to %zu (items closer than %s us merged)\n",
                     sim.timeline_full_segments, e.timeline->size(),
                     fmt(sim.timeline_merge_quantum_s * 1e6).toUtf8().constData());
    const Summary &s = e.step.summary;
    if (trace) {
        // Never over an input, never into the standard output that the results go to.
        WriteGuard guard;
        guard.inputs = QStringList{*file};
        if (!scenario->hardware.calibration_path.empty())
            guard.inputs.append(QString::fromStdString(scenario->hardware.calibration_path));
        guard.stdout_in_use = true;
        const WriteResult written = writeFileSafely(
            *trace, timelineToChromeTrace(*e.timeline, QString::fromStdString(scenario->name)),
            guard);
        if (!written) {
            *failure = {written.refused ? kInvalidInput : kFailure,
                        QStringLiteral("--trace: ") + written.error};
            return failure->code;
        }
    }
    // P50 / P90 / P99 of the step over many simulated steps (issue 28): the model's own
    // distribution where steps differ; the one step otherwise.
    StepSpread spread;
    spread.steps = 1;
    spread.p50_s = spread.p90_s = spread.p99_s = s.step_time_s;
    if (!e.step.closed_form && stepsVary(ctx)) {
        const Result<StepSpread> got = stepSpread(ctx, sim);
        if (got)
            spread = got.value();
        else
            std::fprintf(err_, "scalescope-cli: note: no step-time spread: %s\n",
                         printable(QString::fromStdString(got.error().toString())).toUtf8().constData());
    }
    if (json) {
        QJsonObject o = summaryToJson(s);
        o[QStringLiteral("step_time_p50_s")] = spread.p50_s;
        o[QStringLiteral("step_time_p90_s")] = spread.p90_s;
        o[QStringLiteral("step_time_p99_s")] = spread.p99_s;
        o[QStringLiteral("step_time_spread_steps")] = spread.steps;
        o[QStringLiteral("speedup_reference")] = speedupReferenceToJson(e.reference);
        o[QStringLiteral("from_reference")] =
            speedupFiguresToJson(speedupFigures(e.reference, s.gpus, s.speedup));
        // The chain that sets the step: the engine's (none where the closed form answered).
        if (!e.step.closed_form)
            o[QStringLiteral("critical_path")] = criticalPathToJson(sim.critical_path);
        o[QStringLiteral("what_if")] = whatIfToJson(e.what_if);
        if (e.cost)
            o[QStringLiteral("cost")] = costReportJson(*e.cost);
        out.text += QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else {
        printSummaryText(out, ctx, s, e.reference);
        if (spread.steps > 1)
            out.line(QStringLiteral("  step spread         P50 %1, P90 %2, P99 %3 over %4 simulated steps")
                         .arg(humanTime(spread.p50_s), humanTime(spread.p90_s),
                              humanTime(spread.p99_s))
                         .arg(spread.steps));
        if (e.cost)
            printCostText(out, *e.cost);
    }
    if (layers && !json)
        printLayersText(out, ctx);
    return kOk;
}

} // namespace scalescope::cli
