#include "io/report_io.h"

#include "io/scenario_io.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <charconv>
#include <cmath>
#include <system_error>

namespace scalescope
{

double communicationShare(const Summary &s)
{
    return s.step_time_s > 0 ? s.breakdown.communication_exposed / s.step_time_s : 0.0;
}

QByteArray sweepToCsv(const std::vector<SweepRow> &rows, bool detailed,
                      const SpeedupReference *reference)
{
    const bool rebased = reference && reference->one_gpu_on_paper && reference->rebased();
    // QByteArray::number formats in the C locale whatever the process's locale.
    const auto num = [](double v, int digits) { return QByteArray::number(v, 'g', digits); };
    QByteArray out = "gpus,step_time_s,samples_per_s,speedup,scaling_efficiency,"
                     "communication_share";
    if (detailed)
        out += ",tokens_per_s,mfu,compute_s,communication_exposed_s,communication_total_s,"
               "pipeline_bubble_s,wait_s,data_loading_s,memory_per_gpu_gb,closed_form";
    if (rebased)
        out += ",reference_gpus,speedup_from_reference,efficiency_from_reference";
    out += '\n';
    for (const SweepRow &r : rows) {
        const Summary &s = r.summary;
        QByteArrayList fields = {QByteArray::number(r.gpus),   num(s.step_time_s, 9),
                                 num(s.samples_per_s, 9),      num(s.speedup, 6),
                                 num(s.scaling_efficiency, 6), num(communicationShare(s), 6)};
        if (detailed) {
            const Breakdown &b = s.breakdown;
            fields << num(s.tokens_per_s, 9) << num(s.mfu, 6) << num(b.compute, 9)
                   << num(b.communication_exposed, 9) << num(b.communication_total, 9)
                   << num(b.pipeline_bubble, 9) << num(b.wait, 9) << num(b.data_loading, 9)
                   << num(s.memory.total / 1e9, 6) << QByteArray(r.closed_form ? "1" : "0");
        }
        if (rebased) {
            // Rows below the reference cannot start: no figure from it (empty fields).
            const SpeedupFigures f = speedupFigures(*reference, r.gpus, s.speedup);
            const bool from = f.countedFromReference();
            fields << QByteArray::number(reference->gpus)
                   << (from ? num(f.speedup, 6) : QByteArray())
                   << (from ? num(f.efficiency, 6) : QByteArray());
        }
        out += fields.join(',');
        out += '\n';
    }
    return out;
}

const char *speedupFiguresKindName(SpeedupFigures::Kind kind)
{
    switch (kind) {
    case SpeedupFigures::Kind::OneGpu:
        return "one_gpu";
    case SpeedupFigures::Kind::AgainstOne:
        return "against_one";
    case SpeedupFigures::Kind::Rebased:
        return "rebased";
    case SpeedupFigures::Kind::Fewest:
        return "fewest";
    case SpeedupFigures::Kind::OnPaper:
        return "on_paper";
    }
    return "against_one";
}

QJsonObject speedupReferenceToJson(const SpeedupReference &r)
{
    QJsonObject o;
    o[QStringLiteral("gpus")] = r.gpus;
    o[QStringLiteral("one_gpu_on_paper")] = r.one_gpu_on_paper;
    o[QStringLiteral("speedup")] = r.speedup;
    if (r.rebased())
        o[QStringLiteral("step_time_s")] = r.step_time_s;
    if (r.one_gpu_memory) {
        o[QStringLiteral("one_gpu_memory_bytes")] = r.one_gpu_memory->total;
        o[QStringLiteral("capacity_bytes")] = r.one_gpu_memory->capacity;
    }
    return o;
}

QJsonObject speedupFiguresToJson(const SpeedupFigures &f)
{
    QJsonObject o;
    o[QStringLiteral("kind")] = QString::fromLatin1(speedupFiguresKindName(f.kind));
    o[QStringLiteral("from_gpus")] = f.from_gpus;
    o[QStringLiteral("speedup")] = f.speedup;
    o[QStringLiteral("ideal")] = f.ideal;
    o[QStringLiteral("scaling_efficiency")] = f.efficiency;
    return o;
}

QJsonObject summaryToJson(const Summary &s)
{
    QJsonObject o;
    o[QStringLiteral("gpus")] = s.gpus;
    o[QStringLiteral("step_time_s")] = s.step_time_s;
    o[QStringLiteral("samples_per_s")] = s.samples_per_s;
    o[QStringLiteral("tokens_per_s")] = s.tokens_per_s;
    o[QStringLiteral("model_flops_per_step")] = s.model_flops_per_step;
    o[QStringLiteral("model_tflops_per_gpu")] = s.model_tflops_per_gpu;
    o[QStringLiteral("hardware_tflops_per_gpu")] = s.hardware_tflops_per_gpu;
    o[QStringLiteral("mfu")] = s.mfu;
    o[QStringLiteral("speedup")] = s.speedup;
    o[QStringLiteral("scaling_efficiency")] = s.scaling_efficiency;
    QJsonObject b;
    b[QStringLiteral("compute")] = s.breakdown.compute;
    b[QStringLiteral("communication_exposed")] = s.breakdown.communication_exposed;
    b[QStringLiteral("communication_total")] = s.breakdown.communication_total;
    b[QStringLiteral("pipeline_bubble")] = s.breakdown.pipeline_bubble;
    b[QStringLiteral("wait")] = s.breakdown.wait;
    b[QStringLiteral("data_loading")] = s.breakdown.data_loading;
    o[QStringLiteral("breakdown_s")] = b;
    QJsonObject m;
    m[QStringLiteral("parameters")] = s.memory.parameters;
    m[QStringLiteral("gradients")] = s.memory.gradients;
    m[QStringLiteral("optimizer_states")] = s.memory.optimizer_states;
    m[QStringLiteral("expert_states")] = s.memory.expert_states;
    m[QStringLiteral("activations")] = s.memory.activations;
    m[QStringLiteral("total")] = s.memory.total;
    m[QStringLiteral("capacity")] = s.memory.capacity;
    if (s.memory.host_offload > 0) // extension: activations offloaded to host memory
        m[QStringLiteral("host_offload")] = s.memory.host_offload;
    o[QStringLiteral("memory_per_gpu_bytes")] = m;
    o[QStringLiteral("fits_in_memory")] = s.memory.fits();
    o[QStringLiteral("bottleneck")] = QString::fromStdString(bottleneckText(s.bottleneck));
    // Extensions beyond the contract.
    if (s.run_kind) {
        // The model's error on published runs of this kind (analysis/track_record.h).
        const TrackRecord t = trackRecord(*s.run_kind);
        QJsonObject record;
        record[QStringLiteral("kind")] = QLatin1String(runKindName(*s.run_kind));
        record[QStringLiteral("runs")] = t.runs;
        record[QStringLiteral("mean_error")] = t.mean_error;
        record[QStringLiteral("median_error")] = t.median_error;
        record[QStringLiteral("worst_error")] = t.worst_error;
        o[QStringLiteral("track_record")] = record;
    }
    if (const auto &oom = s.bottleneck.out_of_memory;
        oom && oom->remedy != Bottleneck::OutOfMemory::Remedy::None) {
        // The one change that makes it fit at the least cost (analysis/memory_remedy.h).
        using Remedy = Bottleneck::OutOfMemory::Remedy;
        QJsonObject r;
        r[QStringLiteral("change")] =
            QLatin1String(oom->remedy == Remedy::SelectiveRecompute ? "recompute_selective"
                          : oom->remedy == Remedy::UpProjections    ? "recompute_mla_up_proj"
                          : oom->remedy == Remedy::FullRecompute    ? "recompute_full"
                          : oom->remedy == Remedy::ZeroStage        ? "zero_stage"
                                                                    : "micro_batch");
        if (oom->remedy == Remedy::ZeroStage || oom->remedy == Remedy::MicroBatch)
            r[QStringLiteral("value")] = static_cast<double>(oom->remedy_value);
        r[QStringLiteral("memory_per_gpu_bytes")] = oom->remedy_total_bytes;
        r[QStringLiteral("step_time_s")] = oom->remedy_step_time_s;
        o[QStringLiteral("fits_with")] = r;
    }
    QJsonObject comm;
    // Each kind whole, hidden or not (the critical-path kinds' hidden part is on no stream).
    comm[QStringLiteral("tensor_parallel")] = s.breakdown.tp_comm + s.breakdown.tp_hidden;
    comm[QStringLiteral("data_parallel")] = s.breakdown.dp_comm;
    comm[QStringLiteral("pipeline_p2p")] = s.breakdown.pp_comm;
    comm[QStringLiteral("pipeline_p2p_exposed")] = s.breakdown.pp_exposed;
    comm[QStringLiteral("expert_all_to_all")] = s.breakdown.ep_comm + s.breakdown.ep_hidden;
    comm[QStringLiteral("context_parallel")] = s.breakdown.cp_comm + s.breakdown.cp_hidden;
    // ...and, as for the pipeline's sends, what of them the step waits for.
    comm[QStringLiteral("tensor_parallel_exposed")] = s.breakdown.tp_comm;
    comm[QStringLiteral("expert_all_to_all_exposed")] = s.breakdown.ep_comm;
    comm[QStringLiteral("context_parallel_exposed")] = s.breakdown.cp_comm;
    o[QStringLiteral("expert_imbalance_wait_s")] = s.breakdown.expert_wait;
    o[QStringLiteral("communication_by_kind_s")] = comm;
    o[QStringLiteral("single_gpu_step_time_s")] = s.single_gpu_step_s;
    o[QStringLiteral("hardware_flops_per_step")] = s.hardware_flops_per_step;
    if (s.staleness_steps > 0)
        o[QStringLiteral("staleness_steps")] = s.staleness_steps;
    if (s.max_temperature_c > 0) {
        QJsonObject th;
        th[QStringLiteral("throttled_gpus")] = s.throttled_gpus;
        // null when no GPU ever throttles (never -1, which reads as a time).
        th[QStringLiteral("first_throttle_s")] =
            s.first_throttle_s >= 0 ? QJsonValue(s.first_throttle_s) : QJsonValue();
        th[QStringLiteral("max_temperature_c")] = s.max_temperature_c;
        o[QStringLiteral("thermal")] = th;
    }
    if (s.full_gpu_equivalents > 0)
        o[QStringLiteral("full_gpu_equivalents")] = s.full_gpu_equivalents;
    if (s.data_supply_samples_per_s > 0) {
        QJsonObject dl;
        dl[QStringLiteral("supply_samples_per_s")] = s.data_supply_samples_per_s;
        dl[QStringLiteral("demand_samples_per_s")] = s.data_demand_samples_per_s;
        o[QStringLiteral("data_loader")] = dl;
    }
    if (s.checkpoint_interval_s > 0) {
        QJsonObject f;
        f[QStringLiteral("goodput")] = s.goodput;
        f[QStringLiteral("checkpoint_interval_s")] = s.checkpoint_interval_s;
        o[QStringLiteral("failures")] = f;
    }
    return o;
}

QJsonObject criticalPathToJson(const CriticalPath &path)
{
    QJsonObject o;
    o[QStringLiteral("tasks")] = static_cast<qint64>(path.tasks.size());
    o[QStringLiteral("span_s")] = path.span_s;
    QJsonObject by_kind;
    // Every kind a task of the engine's graph has; the pipeline bubble is idle time beside
    // the path (the path runs through the stage that works), so it is never one of them.
    for (SegmentKind k : {SegmentKind::Compute, SegmentKind::Optimizer, SegmentKind::TpComm,
                          SegmentKind::DpComm, SegmentKind::PpComm, SegmentKind::EpComm,
                          SegmentKind::CpComm, SegmentKind::DataLoad, SegmentKind::Wait})
        by_kind[QLatin1String(segmentKindName(k))] = path.seconds_by_kind[static_cast<size_t>(k)];
    by_kind[QStringLiteral("slowest_gpu")] = path.slowest_gpu_s;
    by_kind[QStringLiteral("idle")] = path.idle_s;
    o[QStringLiteral("seconds_by_kind")] = by_kind;
    return o;
}

QJsonArray whatIfToJson(const std::vector<WhatIfGain> &gains)
{
    QJsonArray a;
    for (const WhatIfGain &g : gains)
        a.append(QJsonObject{{QStringLiteral("cause"), QLatin1String(whatIfCauseId(g.cause))},
                             {QStringLiteral("step_time_s"), g.step_time_s},
                             {QStringLiteral("gain_s"), g.gain_s}});
    return a;
}

QJsonObject costToJson(const CostReport &c)
{
    QJsonObject o;
    // JSON has no infinity: a run that never ends (goodput 0) has null time and costs, as
    // never breaking even is null.
    const auto finiteOrNull = [](double x) { return std::isfinite(x) ? QJsonValue(x) : QJsonValue(); };
    o[QStringLiteral("steps_per_run")] = c.steps_per_run;
    o[QStringLiteral("time_to_train_h")] = finiteOrNull(c.time_to_train_h);
    o[QStringLiteral("reference_gpus")] = c.reference_gpus;
    o[QStringLiteral("reference_time_h")] = c.reference_time_h;
    o[QStringLiteral("gpu_hours_per_run")] = finiteOrNull(c.gpu_hours_per_run);
    o[QStringLiteral("usage_hours_per_month")] = finiteOrNull(c.usage_hours_per_month);
    o[QStringLiteral("utilisation")] = c.utilisation;
    o[QStringLiteral("power_per_gpu_w")] = c.power_per_gpu_w;
    o[QStringLiteral("energy_kwh_per_run")] = finiteOrNull(c.energy_kwh_per_run);
    o[QStringLiteral("energy_cost_per_run_usd")] = finiteOrNull(c.energy_cost_per_run_usd);
    o[QStringLiteral("capital_usd")] = c.capital_usd;
    o[QStringLiteral("own_cost_per_month_usd")] = finiteOrNull(c.own_cost_per_month_usd);
    o[QStringLiteral("rent_cost_per_month_usd")] = finiteOrNull(c.rent_cost_per_month_usd);
    o[QStringLiteral("own_cost_per_run_usd")] = finiteOrNull(c.own_cost_per_run_usd);
    o[QStringLiteral("rent_cost_per_run_usd")] = finiteOrNull(c.rent_cost_per_run_usd);
    // JSON has no infinity: never breaking even is null.
    o[QStringLiteral("break_even_hours_per_month")] = std::isfinite(c.break_even_hours_per_month)
                                                          ? QJsonValue(c.break_even_hours_per_month)
                                                          : QJsonValue();
    o[QStringLiteral("migration_cost_usd")] = c.migration_cost_usd;
    o[QStringLiteral("hours_saved_per_month")] = c.hours_saved_per_month;
    QJsonObject v;
    v[QStringLiteral("duration_band")] = QString::fromLatin1(durationBandName(c.verdict.duration));
    v[QStringLiteral("frequency_band")] = QString::fromLatin1(usageBandName(c.verdict.usage));
    v[QStringLiteral("recommended_gpus")] = c.verdict.recommended_gpus;
    v[QStringLiteral("more_gpus_worth_it")] = c.verdict.more_gpus_worth_it;
    v[QStringLiteral("own")] = c.verdict.own;
    o[QStringLiteral("verdict")] = v;
    if (c.best) {
        QJsonObject b;
        b[QStringLiteral("gpus")] = c.best->gpus;
        b[QStringLiteral("time_to_train_h")] = c.best->time_to_train_h;
        b[QStringLiteral("cost_usd_per_month")] = c.best->cost_usd_per_month;
        b[QStringLiteral("net_usd_per_month")] = c.best->net_usd_per_month;
        b[QStringLiteral("faster_than_scenario")] = c.best->faster_than_scenario;
        b[QStringLiteral("gain_usd_per_month")] = c.best->gain_usd_per_month;
        o[QStringLiteral("best_on_sweep")] = b; // only where a count of the sweep pays better
    }
    QJsonArray advice;
    for (const Advice &a : c.advice)
        advice.append(QString::fromStdString(adviceText(a)));
    o[QStringLiteral("advice")] = advice;
    return o;
}

QJsonObject attributionToJson(const SpeedupAttribution &a)
{
    QJsonObject o;
    for (int i = 0; i < kSpeedupLossCount; ++i)
        o[QString::fromLatin1(speedupLossName(static_cast<SpeedupLoss>(i)))] =
            a.loss_gpus[static_cast<size_t>(i)];
    o[QStringLiteral("total")] = a.total();
    return o;
}

QJsonObject amdahlToJson(const AmdahlFit &fit)
{
    QJsonObject o;
    const char *status = "not_computed";
    switch (fit.status) {
    case AmdahlFitStatus::NotComputed:
        break;
    case AmdahlFitStatus::TooFewPoints:
        status = "too_few_points";
        break;
    case AmdahlFitStatus::PoorFit:
        status = "poor_fit";
        break;
    case AmdahlFitStatus::Accepted:
        status = "accepted";
        break;
    }
    o[QStringLiteral("status")] = QString::fromLatin1(status);
    o[QStringLiteral("points")] = fit.points;
    o[QStringLiteral("r_squared")] = fit.r_squared;
    if (fit.valid) {
        o[QStringLiteral("serial_fraction")] = fit.serial_fraction;
        o[QStringLiteral("ceiling_speedup")] = amdahlCeiling(fit, fit.max_speedup);
    }
    return o;
}

QJsonObject planSearchToJson(const PlanSearchResult &r, int gpus)
{
    QJsonObject o;
    o[QStringLiteral("gpus")] = gpus;
    o[QStringLiteral("considered")] = static_cast<double>(r.considered);
    o[QStringLiteral("evaluated")] = static_cast<double>(r.evaluated);
    o[QStringLiteral("out_of_memory")] = static_cast<double>(r.out_of_memory);
    QJsonArray plans;
    for (const PlanCandidate &c : r.best) {
        QJsonObject p;
        p[QStringLiteral("data")] = c.parallel.data;
        p[QStringLiteral("tensor")] = c.parallel.tensor;
        p[QStringLiteral("pipeline")] = c.parallel.pipeline;
        p[QStringLiteral("zero")] = c.parallel.zero;
        p[QStringLiteral("schedule")] = QString::fromLatin1(scheduleName(c.parallel.schedule));
        p[QStringLiteral("virtual_stages")] = c.parallel.virtual_stages;
        p[QStringLiteral("sequence_parallel")] = c.parallel.sequence_parallel;
        p[QStringLiteral("context")] = c.parallel.context;
        p[QStringLiteral("expert")] = c.parallel.expert;
        p[QStringLiteral("micro_batch")] = static_cast<double>(c.micro_batch);
        p[QStringLiteral("recompute")] =
            QString::fromLatin1(c.recompute == Recompute::None        ? "none"
                                : c.recompute == Recompute::Selective ? "selective"
                                                                      : "full");
        if (c.recompute_modules != 0) // extension: training.recompute_modules
            p[QStringLiteral("recompute_modules")] = recomputeModulesJson(c.recompute_modules);
        p[QStringLiteral("step_time_s")] = c.step_time_s;
        p[QStringLiteral("samples_per_s")] = c.samples_per_s;
        p[QStringLiteral("mfu")] = c.mfu;
        p[QStringLiteral("memory_per_gpu_bytes")] = c.memory_bytes;
        p[QStringLiteral("capacity_bytes")] = c.capacity_bytes;
        p[QStringLiteral("bottleneck")] = QString::fromStdString(bottleneckText(c.bottleneck));
        p[QStringLiteral("framework")] = QString::fromStdString(c.stack);
        p[QStringLiteral("fits_in_memory")] =
            !(c.capacity_bytes > 0 && c.memory_bytes > c.capacity_bytes);
        p[QStringLiteral("simulated")] = c.simulated;
        plans.append(p);
    }
    o[QStringLiteral("plans")] = plans;
    return o;
}

QJsonObject collectiveToJson(const CollectiveSummary &c)
{
    QJsonObject o;
    o[QStringLiteral("gpus")] = c.gpus;
    o[QStringLiteral("op")] = QString::fromLatin1(collectiveOpName(c.op));
    o[QStringLiteral("bytes")] = c.bytes;
    o[QStringLiteral("time_s")] = c.cost.time_s;
    o[QStringLiteral("algbw_gbps")] = c.cost.algbw_gbps;
    o[QStringLiteral("busbw_gbps")] = c.cost.busbw_gbps;
    o[QStringLiteral("algorithm")] = QString::fromLatin1(collectiveAlgoName(c.cost.algorithm));
    return o;
}

namespace
{

void appendEscaped(QByteArray &out, const std::string &s)
{
    for (char ch : s) {
        switch (ch) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        default:
            if (static_cast<unsigned char>(ch) < 0x20) {
                out += "\\u00";
                out += "0123456789abcdef"[(ch >> 4) & 0xf];
                out += "0123456789abcdef"[ch & 0xf];
            } else {
                out += ch;
            }
        }
    }
}

// Three decimals, always with a '.': std::to_chars ignores the C locale (which Qt sets
// from the environment), unlike the printf family ("30211,208" under de_DE).
void appendNumber(QByteArray &out, double v)
{
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
    if (ec != std::errc())
        out += "0.000"; // only for |v| > 1e60 us, which no timeline reaches
    else
        out.append(buf, static_cast<qsizetype>(end - buf));
}

} // namespace

QByteArray timelineToChromeTrace(const Timeline &t, const QString &title)
{
    // Written by hand (streaming) rather than through QJsonDocument: a trace can hold
    // millions of events.
    QByteArray out;
    out.reserve(static_cast<qsizetype>(t.size() * 120 + 4096));
    out += "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"title\":\"";
    appendEscaped(out, title.toStdString());
    out += "\"},\"traceEvents\":[\n";
    bool first = true;
    auto sep = [&] {
        if (!first)
            out += ",\n";
        first = false;
    };
    const int per_node = std::max(1, t.gpusPerNode());
    const int nodes = (t.gpus() + per_node - 1) / per_node;
    for (int n = 0; n < nodes; ++n) {
        sep();
        out += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + QByteArray::number(n) +
               ",\"args\":{\"name\":\"node " + QByteArray::number(n) + "\"}}";
    }
    for (int row = 0; row < t.rows(); ++row) {
        const int gpu = row / kStreamCount;
        const auto stream = static_cast<Stream>(row % kStreamCount);
        const QByteArray pid = QByteArray::number(gpu / per_node);
        const QByteArray tid = QByteArray::number(row);
        sep();
        out += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid + ",\"tid\":" + tid +
               ",\"args\":{\"name\":\"GPU " + QByteArray::number(gpu) + " " + streamName(stream) +
               "\"}}";
        sep();
        out += "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" + pid + ",\"tid\":" + tid +
               ",\"args\":{\"sort_index\":" + tid + "}}";
        for (size_t i = t.rowBegin(row); i < t.rowEnd(row); ++i) {
            sep();
            out += "{\"ph\":\"X\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"name\":\"";
            appendEscaped(out, t.label(i));
            out += "\",\"cat\":\"";
            out += segmentCategory(t.kind(i));
            out += "\",\"ts\":";
            appendNumber(out, t.start(i) * 1e6);
            out += ",\"dur\":";
            appendNumber(out, t.duration(i) * 1e6);
            out += ",\"args\":{\"kind\":\"";
            out += segmentKindName(t.kind(i));
            out += "\"";
            if (t.microBatch(i) >= 0)
                out += ",\"micro_batch\":" + QByteArray::number(t.microBatch(i));
            out += "}}";
        }
    }
    out += "\n]}\n";
    return out;
}

} // namespace scalescope
