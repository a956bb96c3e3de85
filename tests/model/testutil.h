// Shared helpers for the model tests: scenarios from JSON text on the built-in catalog.
#pragma once

#include "analysis/summary.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <initializer_list>
#include <memory>

namespace scalescope::test
{

inline Scenario scenarioFrom(const char *json)
{
    Result<Scenario> s = parseScenario(QByteArray(json), builtinCatalog());
    if (!s)
        qFatal("test scenario does not parse: %s", s.error().toString().c_str());
    return s.value();
}

inline std::shared_ptr<const SimContext> contextFrom(const Scenario &s)
{
    Result<std::shared_ptr<const SimContext>> ctx = makeContext(s);
    if (!ctx)
        qFatal("test scenario has no plan: %s", ctx.error().toString().c_str());
    return ctx.value();
}

inline Summary simulateSummary(const Scenario &s, SimOptions options = {})
{
    const auto ctx = contextFrom(s);
    const SimResult r = simulate(*ctx, options);
    if (!r.ok)
        qFatal("simulation failed: %s", r.error.c_str());
    return summarize(*ctx, r);
}

/// A scenario of the claims gallery (resources/scenarios/NAME.json).
inline Scenario galleryScenario(const char *name)
{
    const QString path = QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/") +
                         QLatin1String(name) + QStringLiteral(".json");
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return scenarioFrom(f.readAll().constData());
}

/// Claim 1's scenario (resources/scenarios/claim01-sublinear-speedup.json: GPT-2 1.5B, DDP,
/// two nodes of eight) on other links and GPUs.
inline Scenario claim1OnLinks(const QString &intra, const QString &inter, const QString &gpu)
{
    QJsonObject hw{{QStringLiteral("gpu"), gpu},
                   {QStringLiteral("nodes"), 2},
                   {QStringLiteral("gpus_per_node"), 8},
                   {QStringLiteral("intra_node"), intra},
                   {QStringLiteral("inter_node"), inter},
                   {QStringLiteral("nics_per_node"), 2}};
    QJsonObject doc{{QStringLiteral("scalescope"), 1},
                    {QStringLiteral("name"), QStringLiteral("claim 1 on other links")},
                    {QStringLiteral("hardware"), hw},
                    {QStringLiteral("model"), QStringLiteral("gpt2-1.5b")},
                    {QStringLiteral("training"),
                     QJsonObject{{QStringLiteral("global_batch"), 96},
                                 {QStringLiteral("micro_batch"), 1},
                                 {QStringLiteral("precision"), QStringLiteral("bf16")},
                                 {QStringLiteral("optimizer"), QStringLiteral("adam")},
                                 {QStringLiteral("framework"), QStringLiteral("pytorch-ddp")}}}};
    return scenarioFrom(QJsonDocument(doc).toJson().constData());
}

/// Data rows (intra, inter, gpu) for claim1OnLinks: A100 PCIe over each pair of links, then
/// RTX 4090 over PCIe 4.0 and 25 GbE or InfiniBand NDR.
inline void addClaim1LinkRows(std::initializer_list<const char *> intras,
                              std::initializer_list<const char *> inters)
{
    QTest::addColumn<QString>("intra");
    QTest::addColumn<QString>("inter");
    QTest::addColumn<QString>("gpu");
    for (const char *inter : inters)
        for (const char *intra : intras)
            QTest::addRow("%s/%s", intra, inter)
                << QString::fromLatin1(intra) << QString::fromLatin1(inter)
                << QStringLiteral("a100-pcie-80gb");
    for (const char *inter : {"eth-25g", "ib-ndr-400"})
        QTest::addRow("4090/%s", inter) << QStringLiteral("pcie4") << QString::fromLatin1(inter)
                                        << QStringLiteral("rtx-4090-24gb");
}

/// `s` with one link `factor` times as fast: the node's link (with the host memory that
/// bounds traffic staged through it) or the network's NICs; latencies as they were.
inline Scenario withFasterLink(Scenario s, bool intra, double factor)
{
    if (intra) {
        s.hardware.intra.bandwidth_gbps *= factor;
        s.hardware.intra.host_memory_gbps *= factor;
        s.hardware.host_memory_gbps *= factor;
    } else {
        s.hardware.inter.line_rate_gbit *= factor;
    }
    return s;
}

inline double breakdownSum(const Breakdown &b)
{
    return b.compute + b.communication_exposed + b.pipeline_bubble + b.wait + b.data_loading;
}

} // namespace scalescope::test
