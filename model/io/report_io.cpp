#include "io/report_io.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace scalescope
{

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
    m[QStringLiteral("activations")] = s.memory.activations;
    m[QStringLiteral("total")] = s.memory.total;
    m[QStringLiteral("capacity")] = s.memory.capacity;
    o[QStringLiteral("memory_per_gpu_bytes")] = m;
    o[QStringLiteral("fits_in_memory")] = s.memory.fits();
    o[QStringLiteral("bottleneck")] = QString::fromStdString(s.bottleneck);
    // Extensions beyond the contract.
    QJsonObject comm;
    comm[QStringLiteral("tensor_parallel")] = s.breakdown.tp_comm;
    comm[QStringLiteral("data_parallel")] = s.breakdown.dp_comm;
    comm[QStringLiteral("pipeline_p2p")] = s.breakdown.pp_comm;
    comm[QStringLiteral("pipeline_p2p_exposed")] = s.breakdown.pp_exposed;
    o[QStringLiteral("communication_by_kind_s")] = comm;
    o[QStringLiteral("single_gpu_step_time_s")] = s.single_gpu_step_s;
    o[QStringLiteral("hardware_flops_per_step")] = s.hardware_flops_per_step;
    if (s.staleness_steps > 0)
        o[QStringLiteral("staleness_steps")] = s.staleness_steps;
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
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", ch);
                out += buf;
            } else {
                out += ch;
            }
        }
    }
}

void appendNumber(QByteArray &out, double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    out += buf;
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
