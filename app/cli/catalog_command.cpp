// scalescope-cli catalog [SECTION] [--json]: the built-in catalog, one section or all.
// A new section is one function and one row of kSections.
#include "cli/command.h"

#include "io/catalog_io.h"
#include "layers/layer_cost.h"

#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>

namespace scalescope::cli
{

namespace
{

QString s(const std::string &x)
{
    return QString::fromStdString(x);
}

// Each section adds its arrays to `root` (JSON: every key the catalog loader reads,
// catalogListing) or its lines to `out` (text).
using SectionWriter = void (*)(const Catalog &c, bool json, Output &out, QJsonObject &root);

void writeGpus(const Catalog &c, bool json, Output &out, QJsonObject &root)
{
    if (json) {
        root[QStringLiteral("gpus")] = catalogListing(c, "gpus");
        return;
    }
    out.line(
        QStringLiteral("GPUs (dense peak TFLOP/s fp32/tf32/fp16/bf16/fp8, memory, bandwidth):"));
    for (const GpuSpec &g : c.gpus)
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

void writeLinks(const Catalog &c, bool json, Output &out, QJsonObject &root)
{
    if (json) {
        root[QStringLiteral("intra_node")] = catalogListing(c, "intra_node");
        root[QStringLiteral("inter_node")] = catalogListing(c, "inter_node");
        return;
    }
    out.line(QStringLiteral("Intra-node links (GB/s per GPU per direction, latency):"));
    for (const IntraLinkSpec &l : c.intra_links)
        out.line(QStringLiteral("  %1 %2 GB/s  %3 us  %4")
                     .arg(s(l.id), -20)
                     .arg(l.bandwidth_gbps)
                     .arg(l.latency_us)
                     .arg(s(l.name)));
    out.line(QStringLiteral("Inter-node networks (Gb/s per NIC, latency):"));
    for (const InterLinkSpec &l : c.inter_links)
        out.line(QStringLiteral("  %1 %2 Gb/s  %3 us  %4")
                     .arg(s(l.id), -20)
                     .arg(l.line_rate_gbit)
                     .arg(l.latency_us)
                     .arg(s(l.name)));
}

/// Total parameters, and those one token passes through (an MoE model's active ones).
std::pair<double, double> modelParams(const ModelSpec &m)
{
    switch (m.kind) {
    case ModelSpec::Kind::Transformer:
        return {transformerParams(m.transformer), transformerActiveParams(m.transformer)};
    case ModelSpec::Kind::LayerTable: {
        double p = 0;
        for (const LayerSpec &l : m.table)
            p += l.params;
        return {p, p};
    }
    case ModelSpec::Kind::Custom:
        break;
    }
    return {m.custom.params, m.custom.params};
}

void writeModels(const Catalog &c, bool json, Output &out, QJsonObject &root)
{
    if (json) {
        // The entries as the loader reads them back; their sizes beside them (an MoE
        // model's active parameters are derived, not catalog keys).
        root[QStringLiteral("models")] = catalogListing(c, "models");
        QJsonArray sizes;
        for (const ModelSpec &m : c.models) {
            const auto [total, active] = modelParams(m);
            QJsonObject size;
            size[QStringLiteral("id")] = s(m.id);
            size[QStringLiteral("params_total")] = total;
            size[QStringLiteral("params_active")] = active;
            sizes.append(size);
        }
        root[QStringLiteral("model_parameters")] = sizes;
        return;
    }
    out.line(QStringLiteral("Models (parameters: total, active per token):"));
    for (const ModelSpec &m : c.models) {
        const auto [total, active] = modelParams(m);
        const auto billions = [](double p) {
            return QString::number(p / 1e9, 'f', p < 1e10 ? 2 : 1) + QStringLiteral("B");
        };
        out.line(QStringLiteral("  %1 %2 %3  %4")
                     .arg(s(m.id), -18)
                     .arg(billions(total), 8)
                     .arg(billions(active), 8)
                     .arg(s(m.name)));
    }
}

void writeFrameworks(const Catalog &c, bool json, Output &out, QJsonObject &root)
{
    if (json) {
        root[QStringLiteral("frameworks")] = catalogListing(c, "frameworks");
        return;
    }
    out.line(QStringLiteral("Software stacks (training.framework; \"auto\" picks one from "
                            "the plan): host us/op, ops per block, plans"));
    for (const FrameworkSpec &f : c.frameworks) {
        QStringList plans{QStringLiteral("data")};
        if (f.max_zero == 1)
            plans << QStringLiteral("ZeRO 1");
        else if (f.max_zero > 1)
            plans << QStringLiteral("ZeRO 1-%1").arg(f.max_zero);
        if (f.tensor_parallel)
            plans << QStringLiteral("tensor");
        if (f.pipeline_parallel)
            plans << QStringLiteral("pipeline (ZeRO <= %1)").arg(f.max_zero_with_pipeline);
        if (f.async_update)
            plans << QStringLiteral("async");
        // An MoE layer's routing path where the stack issues it at its own cost.
        const QString moe = f.host_moe_op_us >= 0 && f.host_moe_op_us != f.host_op_us
                                ? QStringLiteral(" (MoE path %1 us)").arg(f.host_moe_op_us)
                                : QString();
        out.line(QStringLiteral("  %1 %2 us%3  %4 ops  %5  %6")
                     .arg(s(f.id), -19)
                     .arg(f.host_op_us)
                     .arg(moe)
                     .arg(f.block_ops_forward)
                     .arg(plans.join(QStringLiteral(", ")))
                     .arg(s(f.name)));
    }
}

struct Section {
    const char *name; // the SECTION argument
    SectionWriter write;
};

// In the order `catalog` without SECTION prints them.
const Section kSections[] = {
    {"gpus", writeGpus},
    {"links", writeLinks},
    {"models", writeModels},
    {"frameworks", writeFrameworks},
};

} // namespace

int cmdCatalog(const QStringList &argv, Output &out, Failure *failure)
{
    const QString command = QStringLiteral("catalog");
    const auto args = Args::parse(command, argv, {{"--json"}}, failure);
    if (!args)
        return failure->code;
    if (args->help())
        return usage(out);
    const bool json = args->flag("--json");
    const QStringList &pos = args->positional();
    QStringList names;
    for (const Section &section : kSections)
        names.append(QString::fromLatin1(section.name));
    const QString allowed = QStringLiteral("allowed: ") + names.join(QStringLiteral(", "));
    if (pos.size() > 1)
        return invalid(failure, QStringLiteral("catalog: unexpected argument \"%1\"; expected "
                                               "at most one SECTION; %2")
                                    .arg(pos.at(1), allowed));
    const bool all = pos.isEmpty();
    if (!all && !names.contains(pos.first()))
        return invalid(
            failure,
            QStringLiteral("catalog: SECTION \"%1\" is not allowed; %2").arg(pos.first(), allowed));
    const Catalog &c = builtinCatalog();
    QJsonObject root;
    for (const Section &section : kSections) {
        if (all || pos.first() == QLatin1String(section.name))
            section.write(c, json, out, root);
    }
    if (json)
        out.text += QJsonDocument(root).toJson(QJsonDocument::Indented);
    return kOk;
}

} // namespace scalescope::cli
