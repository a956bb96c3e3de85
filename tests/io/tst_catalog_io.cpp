// Catalog documents (resources/catalogs/README.md): parsing, errors, the built-in catalog.
#include "analysis/step_evaluation.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <array>

using namespace scalescope;

namespace
{

const QString kFile = QStringLiteral("test.json");

QByteArray gpuDocument(const QByteArray &entryExtra = {})
{
    return R"({ "scalescope_catalog": 1, "gpus": [
        { "id": "gpu-a", "name": "Test GPU A", "family": "ampere",
          "peak_tflops": { "fp32": 19.5, "tf32": 156, "fp16": 312, "bf16": 312, "fp8": 0 },
          "memory_gb": 80, "memory_bandwidth_gbps": 2039, "tdp_w": 400,
          "sm_count": 108, "l2_mb": 40, "source": "datasheet" )" +
           entryExtra + R"( } ] })";
}

const char *kLinksDocument = R"({ "scalescope_catalog": 1,
    "intra_node": [ { "id": "nv", "name": "NVLink test", "kind": "nvlink-switched",
                      "bandwidth_gbps": 300, "latency_us": 2.0, "switched": true,
                      "nvswitch_gen": 2, "source": "s" },
                    { "id": "pc", "name": "PCIe test", "kind": "pcie",
                      "bandwidth_gbps": 31.5, "latency_us": 3, "switched": true, "source": "s" } ],
    "inter_node": [ { "id": "ib", "name": "IB test", "kind": "infiniband",
                      "line_rate_gbit": 200, "latency_us": 5.0, "source": "s" },
                    { "id": "eth", "name": "Eth test", "kind": "ethernet",
                      "line_rate_gbit": 100, "latency_us": 20, "source": "s" } ] })";

const char *kModelsDocument = R"({ "scalescope_catalog": 1, "models": [
    { "id": "gpt-test", "name": "GPT test", "source": "paper",
      "transformer": { "layers": 96, "hidden": 12288, "heads": 96, "seq_len": 2048,
                       "vocab": 50257, "ffn_hidden": 49152, "kv_heads": 96,
                       "gated_mlp": false, "tied_embeddings": true } },
    { "id": "cnn-test", "name": "CNN test", "source": "paper", "input_elements": 150528,
      "layers": [ { "name": "conv1", "kind": "conv", "forward_flops": 236027904,
                    "params": 9408, "input_elements": 150528, "output_elements": 802816,
                    "gemm": [12544, 64, 147] },
                  { "name": "relu", "kind": "activation", "forward_flops": 802816,
                    "params": 0, "input_elements": 802816, "output_elements": 802816 } ] } ] })";

// The built-in catalog's sections as scalescope-cli catalog --json lists them.
constexpr std::array<const char *, 5> kListedSections = {"gpus", "intra_node", "inter_node",
                                                         "models", "frameworks"};

QJsonObject listingDocument()
{
    QJsonObject document{{QStringLiteral("scalescope_catalog"), 1}};
    for (const char *section : kListedSections)
        document.insert(QLatin1String(section), catalogListing(builtinCatalog(), section));
    return document;
}

/// The step time of a scenario, or its error: an entry pasted inline must give the same.
QString stepOf(const QByteArray &json)
{
    const Result<Scenario> s = parseScenario(json, builtinCatalog());
    if (!s)
        return QStringLiteral("error: ") + QString::fromStdString(s.error().toString());
    const auto ctx = makeContext(s.value());
    if (!ctx)
        return QStringLiteral("no plan: ") + QString::fromStdString(ctx.error().toString());
    const Result<StepEvaluation> step = evaluateStep(*ctx.value(), SimOptions{});
    if (!step)
        return QStringLiteral("failed: ") + QString::fromStdString(step.error().toString());
    return QString::number(step.value().summary.step_time_s, 'g', 17);
}

} // namespace

class TestCatalogIo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void hardwareNames();
    void gpus();
    void links();
    void models();
    void allLayoutsInOneCatalog();
    void xKeysIgnored();
    void errors_data();
    void errors();
    void failedDocumentLeavesCatalogUnchanged();
    void builtinCatalogHasSpecIds();
    void builtinCatalogRegionalGpus_data();
    void builtinCatalogRegionalGpus();
    void listingLoadsBackAsTheCatalog();
    void listingGivesEveryKeyOfTheDocuments();
    void listedEntryPastedInlineIsItsId();
};

void TestCatalogIo::hardwareNames()
{
    const std::array families = {GpuFamily::Pascal,      GpuFamily::Volta,  GpuFamily::Ampere,
                                 GpuFamily::AdaLovelace, GpuFamily::Hopper, GpuFamily::Blackwell,
                                 GpuFamily::CDNA3};
    for (GpuFamily f : families)
        QCOMPARE(familyFromName(familyName(f)), f);
    QCOMPARE(familyName(GpuFamily::AdaLovelace), "ada");
    QCOMPARE(familyFromName("turing"), GpuFamily::Unknown);
    QCOMPARE(precisionName(Precision::TF32), "tf32");
    QCOMPARE(activationBytes(Precision::FP32), 4.0);
    QCOMPARE(activationBytes(Precision::TF32), 4.0);
    QCOMPARE(activationBytes(Precision::BF16), 2.0);
    QCOMPARE(activationBytes(Precision::FP8), 2.0);
}

void TestCatalogIo::gpus()
{
    Catalog catalog;
    const Result<bool> result = parseCatalogInto(catalog, gpuDocument(), kFile);
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    QCOMPARE(catalog.gpus.size(), size_t(1));
    const GpuSpec *gpu = catalog.findGpu("gpu-a");
    QVERIFY(gpu);
    QCOMPARE(gpu->name, std::string("Test GPU A"));
    QCOMPARE(gpu->family, GpuFamily::Ampere);
    QCOMPARE(gpu->peak(Precision::FP32), 19.5);
    QCOMPARE(gpu->peak(Precision::TF32), 156.0);
    QCOMPARE(gpu->peak(Precision::BF16), 312.0);
    QCOMPARE(gpu->peak(Precision::FP8), 0.0);
    QCOMPARE(gpu->memory_gb, 80.0);
    QCOMPARE(gpu->memory_bandwidth_gbps, 2039.0);
    QCOMPARE(gpu->tdp_w, 400.0);
    QCOMPARE(gpu->sm_count, 108);
    QCOMPARE(gpu->l2_mb, 40.0);
    QCOMPARE(gpu->source, std::string("datasheet"));
}

void TestCatalogIo::links()
{
    Catalog catalog;
    QVERIFY(parseCatalogInto(catalog, kLinksDocument, kFile).ok());
    const IntraLinkSpec *nv = catalog.findIntra("nv");
    QVERIFY(nv);
    QCOMPARE(nv->kind, LinkKind::NVLinkSwitched);
    QCOMPARE(nv->bandwidth_gbps, 300.0);
    QCOMPARE(nv->latency_us, 2.0);
    QVERIFY(nv->switched);
    QCOMPARE(nv->nvswitch_gen, 2);
    QCOMPARE(catalog.findIntra("pc")->kind, LinkKind::PCIe);
    const InterLinkSpec *ib = catalog.findInter("ib");
    QVERIFY(ib);
    QCOMPARE(ib->kind, LinkKind::InfiniBand);
    QCOMPARE(ib->line_rate_gbit, 200.0);
    QCOMPARE(ib->latency_us, 5.0);
    QCOMPARE(catalog.findInter("eth")->kind, LinkKind::Ethernet);
}

void TestCatalogIo::models()
{
    Catalog catalog;
    QVERIFY(parseCatalogInto(catalog, kModelsDocument, kFile).ok());
    const ModelSpec *gpt = catalog.findModel("gpt-test");
    QVERIFY(gpt);
    QCOMPARE(gpt->kind, ModelSpec::Kind::Transformer);
    QCOMPARE(gpt->name, std::string("GPT test"));
    QCOMPARE(gpt->transformer.layers, int64_t(96));
    QCOMPARE(gpt->transformer.hidden, int64_t(12288));
    QCOMPARE(gpt->transformer.ffn(), int64_t(49152));
    QCOMPARE(gpt->transformer.kvHeads(), int64_t(96));
    QVERIFY(gpt->transformer.tied_embeddings);

    const ModelSpec *cnn = catalog.findModel("cnn-test");
    QVERIFY(cnn);
    QCOMPARE(cnn->kind, ModelSpec::Kind::LayerTable);
    QCOMPARE(cnn->input_elements_per_sample, int64_t(150528));
    QCOMPARE(cnn->table.size(), size_t(2));
    const LayerSpec &conv = cnn->table[0];
    QCOMPARE(conv.kind, LayerSpec::Kind::Conv);
    QCOMPARE(conv.forward_flops, 236027904.0);
    QCOMPARE(conv.params, 9408.0);
    QCOMPARE(conv.output_elements, 802816.0);
    QCOMPARE(conv.gemm_m, 12544.0);
    QCOMPARE(conv.gemm_n, 64.0);
    QCOMPARE(conv.gemm_k, 147.0);
    QCOMPARE(cnn->table[1].kind, LayerSpec::Kind::Activation);
    QCOMPARE(cnn->table[1].gemm_m, 0.0);
}

void TestCatalogIo::allLayoutsInOneCatalog()
{
    Catalog catalog;
    QVERIFY(parseCatalogInto(catalog, gpuDocument(), kFile).ok());
    QVERIFY(parseCatalogInto(catalog, kLinksDocument, kFile).ok());
    QVERIFY(parseCatalogInto(catalog, kModelsDocument, kFile).ok());
    QCOMPARE(catalog.gpus.size(), size_t(1));
    QCOMPARE(catalog.intra_links.size(), size_t(2));
    QCOMPARE(catalog.inter_links.size(), size_t(2));
    QCOMPARE(catalog.models.size(), size_t(2));
}

void TestCatalogIo::xKeysIgnored()
{
    Catalog catalog;
    const QByteArray json = gpuDocument(R"(, "x-note": "ignored", "x-extra": { "any": [1] })");
    const Result<bool> result = parseCatalogInto(catalog, json, kFile);
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
}

void TestCatalogIo::errors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("contains");

    const auto gpuWith = [](const char *from, const char *to) {
        return gpuDocument().replace(from, to);
    };
    QTest::newRow("not JSON") << QByteArray("{ \"gpus\": [") << "test.json: gpus[0]"
                              << "offset";
    QTest::newRow("top-level array") << QByteArray("[]") << "test.json"
                                     << "array";
    QTest::newRow("version") << gpuWith("\"scalescope_catalog\": 1", "\"scalescope_catalog\": 2")
                             << "test.json: scalescope_catalog"
                             << "2";
    QTest::newRow("no version") << QByteArray(R"({ "gpus": [] })")
                                << "test.json: scalescope_catalog"
                                << "missing";
    QTest::newRow("unknown top key") << gpuWith("\"gpus\"", "\"gpu\"") << "test.json: gpu"
                                     << "allowed keys";
    QTest::newRow("unknown entry key")
        << gpuWith("\"tdp_w\"", "\"tdp\"") << "test.json: gpus[0].tdp"
        << "unknown key";
    QTest::newRow("missing source")
        << gpuWith("\"source\"", "\"x-source\"") << "test.json: gpus[0].source"
        << "missing";
    // Issue 29: a tiny positive figure is no device (the inline reader is this one).
    QTest::newRow("tiny fp8 peak")
        << gpuWith("\"fp8\": 0", "\"fp8\": 5e-324") << "test.json: gpus[0].peak_tflops.fp8"
        << "allowed: 0 or 0.001 to";
    QTest::newRow("tiny memory bandwidth")
        << gpuWith("2039", "1e-300") << "test.json: gpus[0].memory_bandwidth_gbps"
        << "allowed: 1 to";
    {
        // A framework's ZeRO-3 gather granularity is one of three words, named when wrong.
        QFile f(QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/catalogs/frameworks.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray frameworks = f.readAll();
        QVERIFY(frameworks.contains("\"zero3_gather\": \"module\""));
        frameworks.replace("\"zero3_gather\": \"module\"", "\"zero3_gather\": \"layer\"");
        QTest::newRow("zero3 gather")
            << frameworks << "test.json: frameworks[2].overlap.zero3_gather"
            << "allowed: \"unit\", \"module\" or \"parameter\"";
    }
    QTest::newRow("unknown family")
        << gpuWith("\"ampere\"", "\"turing\"") << "test.json: gpus[0].family"
        << "\"turing\"";
    QTest::newRow("negative peak")
        << gpuWith("\"fp16\": 312", "\"fp16\": -1") << "test.json: gpus[0].peak_tflops.fp16"
        << "-1";
    QTest::newRow("zero fp32") << gpuWith("\"fp32\": 19.5", "\"fp32\": 0")
                               << "test.json: gpus[0].peak_tflops.fp32"
                               << "0";
    QTest::newRow("sm_count not whole") << gpuWith("108", "108.5") << "test.json: gpus[0].sm_count"
                                        << "108.5";
    QTest::newRow("empty id") << gpuWith("\"gpu-a\"", "\"\"") << "test.json: gpus[0].id"
                              << "empty";
    QTest::newRow("entry not object")
        << QByteArray(R"({ "scalescope_catalog": 1, "gpus": [3] })") << "test.json: gpus[0]"
        << "3";
    QTest::newRow("duplicate id") << QByteArray(R"({ "scalescope_catalog": 1, "intra_node": [
            { "id": "a", "name": "A", "kind": "pcie", "bandwidth_gbps": 1, "latency_us": 1, "source": "s" },
            { "id": "a", "name": "B", "kind": "pcie", "bandwidth_gbps": 1, "latency_us": 1, "source": "s" } ] })")
                                  << "test.json: intra_node[1].id"
                                  << "\"a\"";
    QTest::newRow("intra kind for inter")
        << QByteArray(kLinksDocument).replace("\"infiniband\"", "\"pcie\"")
        << "test.json: inter_node[0].kind"
        << "\"pcie\"";
    QTest::newRow("conv without gemm")
        << QByteArray(kModelsDocument).replace("\"gemm\"", "\"x-gemm\"")
        << "test.json: models[1].layers[0].gemm"
        << "missing";
    QTest::newRow("gemm too short")
        << QByteArray(kModelsDocument).replace("[12544, 64, 147]", "[12544, 64]")
        << "test.json: models[1].layers[0].gemm"
        << "2";
    QTest::newRow("gemm element")
        << QByteArray(kModelsDocument).replace("[12544, 64, 147]", "[12544, \"64\", 147]")
        << "test.json: models[1].layers[0].gemm[1]"
        << "\"64\"";
    QTest::newRow("layer kind") << QByteArray(kModelsDocument).replace("\"activation\"", "\"relu\"")
                                << "test.json: models[1].layers[1].kind"
                                << "\"relu\"";
    QTest::newRow("two model bodies")
        << QByteArray(kModelsDocument)
               .replace("\"input_elements\": 150528,", "\"custom\": {\"params\": 1, "
                                                       "\"forward_flops_per_sample\": 1},")
        << "test.json: models[1]"
        << "exactly one";
    QTest::newRow("heads do not divide hidden")
        << QByteArray(kModelsDocument).replace("\"heads\": 96", "\"heads\": 100")
        << "test.json: models[0].transformer.heads"
        << "100";
}

void TestCatalogIo::errors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    QFETCH(QString, contains);
    Catalog catalog;
    const Result<bool> result = parseCatalogInto(catalog, json, kFile);
    QVERIFY(!result.ok());
    const QString message = QString::fromStdString(result.error().message);
    QCOMPARE(QString::fromStdString(result.error().path), path);
    QVERIFY2(message.contains(contains), qPrintable(message));
}

void TestCatalogIo::failedDocumentLeavesCatalogUnchanged()
{
    Catalog catalog;
    QVERIFY(parseCatalogInto(catalog, kLinksDocument, kFile).ok());
    // The first entry is fine, the second is broken: nothing of the document is kept.
    const QByteArray broken = R"({ "scalescope_catalog": 1, "inter_node": [
        { "id": "new", "name": "N", "kind": "roce", "line_rate_gbit": 1, "latency_us": 1, "source": "s" },
        { "id": "bad", "name": "B", "kind": "roce", "line_rate_gbit": 0, "latency_us": 1, "source": "s" } ] })";
    QVERIFY(!parseCatalogInto(catalog, broken, kFile).ok());
    QCOMPARE(catalog.inter_links.size(), size_t(2));
    QVERIFY(!catalog.findInter("new"));
}

void TestCatalogIo::builtinCatalogHasSpecIds()
{
    const Result<Catalog> loaded = loadBuiltinCatalog();
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
    const Catalog &catalog = loaded.value();

    // spec/scenario.md: ids that must exist.
    for (const char *id :
         {"p100-pcie-16gb", "v100-sxm2-16gb", "v100-sxm2-32gb", "a100-sxm4-40gb", "a100-sxm4-80gb",
          "a100-pcie-80gb", "h100-sxm5-80gb", "h100-pcie-80gb", "h200-sxm-141gb", "b200-sxm-180gb",
          "l40s-48gb", "rtx-3090-24gb", "rtx-4090-24gb", "rtx-4060ti-16gb", "mi300x-192gb"}) {
        const GpuSpec *gpu = catalog.findGpu(id);
        QVERIFY2(gpu, id);
        QVERIFY2(gpu->family != GpuFamily::Unknown, id);
        QVERIFY2(!gpu->source.empty(), id);
    }
    for (const char *id : {"pcie3", "pcie4", "pcie5", "nvlink-bridge-3090", "nvlink2", "nvlink3",
                           "nvlink4", "nvlink5"})
        QVERIFY2(catalog.findIntra(id), id);
    for (const char *id : {"eth-10g", "eth-25g", "eth-100g", "roce-100g", "roce-200g", "roce-400g",
                           "ib-edr-100", "ib-hdr-200", "ib-ndr-400"})
        QVERIFY2(catalog.findInter(id), id);
    for (const char *id : {"bert-large", "gpt2-1.5b", "llama2-7b", "llama2-70b", "gpt3-175b"}) {
        const ModelSpec *model = catalog.findModel(id);
        QVERIFY2(model, id);
        QCOMPARE(model->kind, ModelSpec::Kind::Transformer);
    }
    for (const char *id : {"resnet50", "resnet101", "vgg16", "inception-v3"}) {
        const ModelSpec *model = catalog.findModel(id);
        QVERIFY2(model, id);
        QCOMPARE(model->kind, ModelSpec::Kind::LayerTable);
        QVERIFY2(!model->table.empty(), id);
    }

    // The cached catalog is the same, loaded once.
    const Catalog &cached = builtinCatalog();
    QCOMPARE(&cached, &builtinCatalog());
    QCOMPARE(cached.gpus.size(), catalog.gpus.size());
    QCOMPARE(cached.models.size(), catalog.models.size());
}

// Issue 12, item 5: the GPUs Chinese and hobbyist readers train on (export variants and
// GeForce cards); GeForce cards have no PCIe peer-to-peer.
void TestCatalogIo::builtinCatalogRegionalGpus_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("geforce");
    QTest::addColumn<bool>("fp8"); // Ampere has no FP8 tensor cores (peak 0)
    QTest::newRow("A800") << "a800-sxm4-80gb" << false << false;
    QTest::newRow("H800") << "h800-sxm5-80gb" << false << true;
    QTest::newRow("H20") << "h20-96gb" << false << true;
    QTest::newRow("L20") << "l20-48gb" << false << true;
    QTest::newRow("RTX 4090 D") << "rtx-4090d-24gb" << true << true;
    QTest::newRow("RTX 5090") << "rtx-5090-32gb" << true << true;
    // The GeForce cards already there must say the same.
    QTest::newRow("RTX 3090") << "rtx-3090-24gb" << true << false;
    QTest::newRow("RTX 4060 Ti") << "rtx-4060ti-16gb" << true << true;
    QTest::newRow("RTX 4090") << "rtx-4090-24gb" << true << true;
}

void TestCatalogIo::builtinCatalogRegionalGpus()
{
    QFETCH(QString, id);
    QFETCH(bool, geforce);
    QFETCH(bool, fp8);
    const Catalog &catalog = builtinCatalog();
    const GpuSpec *gpu = catalog.findGpu(id.toStdString());
    QVERIFY2(gpu, qPrintable(id));
    QVERIFY(gpu->family != GpuFamily::Unknown);
    QVERIFY(!gpu->source.empty());
    for (Precision p : {Precision::FP32, Precision::TF32, Precision::FP16, Precision::BF16})
        QVERIFY2(gpu->peak(p) > 0, precisionName(p));
    // Tensor math is at least the FP32 rate, and FP8 (where supported) at least FP16.
    QVERIFY(gpu->peak(Precision::TF32) >= gpu->peak(Precision::FP32));
    QVERIFY(gpu->peak(Precision::FP16) >= gpu->peak(Precision::TF32));
    QCOMPARE(gpu->peak(Precision::BF16), gpu->peak(Precision::FP16));
    if (fp8)
        QVERIFY(gpu->peak(Precision::FP8) >= gpu->peak(Precision::FP16));
    else
        QCOMPARE(gpu->peak(Precision::FP8), 0.0);
    QVERIFY(gpu->memory_gb > 0);
    QVERIFY(gpu->memory_bandwidth_gbps > 0);
    QVERIFY(gpu->tdp_w > 0);
    QVERIFY(gpu->sm_count > 0);
    QCOMPARE(gpu->pcie_p2p, !geforce);
    if (geforce) {
        // The accumulate mode the fp16/bf16/fp8 peaks assume must be written down.
        const QString source = QString::fromStdString(gpu->source);
        QVERIFY2(source.contains(QRegularExpression(QStringLiteral("FP32[ -]accumulate"),
                                                    QRegularExpression::CaseInsensitiveOption)),
                 gpu->source.c_str());
    }
}

void TestCatalogIo::listingLoadsBackAsTheCatalog()
{
    // Issue 29: the listing left out kind, nvswitch_gen, host_memory_gbps, family, pcie_p2p,
    // sm_count, ...: read as a catalog document it must give every entry back, field for
    // field (catalogListing writes with the inline writers' Keys::Every).
    const QByteArray text = QJsonDocument(listingDocument()).toJson();
    Catalog listed;
    const Result<bool> parsed = parseCatalogInto(listed, text, QStringLiteral("listing"));
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().toString().c_str());
    const Catalog &c = builtinCatalog();
    QCOMPARE(listed.gpus.size(), c.gpus.size());
    for (size_t i = 0; i < c.gpus.size(); ++i)
        QVERIFY2(listed.gpus[i] == c.gpus[i], c.gpus[i].id.c_str());
    QVERIFY(listed.intra_links == c.intra_links);
    QVERIFY(listed.inter_links == c.inter_links);
    QCOMPARE(listed.models.size(), c.models.size());
    for (size_t i = 0; i < c.models.size(); ++i)
        QVERIFY2(listed.models[i] == c.models[i], c.models[i].id.c_str());
    QCOMPARE(listed.frameworks.size(), c.frameworks.size());
    for (size_t i = 0; i < c.frameworks.size(); ++i)
        QVERIFY2(listed.frameworks[i] == c.frameworks[i], c.frameworks[i].id.c_str());
}

void TestCatalogIo::listingGivesEveryKeyOfTheDocuments()
{
    // Every key an entry of the catalog documents states (nested ones too) is in the
    // listing; only the citations inside a framework's groups ("plans.source") are not
    // kept by the loader.
    const QJsonObject listing = listingDocument();
    for (const char *file :
         {"gpus.json", "links.json", "models.json", "cnn_models.json", "frameworks.json"}) {
        QFile f(QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/catalogs/") + QLatin1String(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject document = QJsonDocument::fromJson(f.readAll()).object();
        for (const char *section : kListedSections) {
            const QJsonArray listed = listing.value(QLatin1String(section)).toArray();
            for (const QJsonValue &entry : document.value(QLatin1String(section)).toArray()) {
                const QJsonObject raw = entry.toObject();
                const QString id = raw.value(QStringLiteral("id")).toString();
                QJsonObject mine;
                for (const QJsonValue &l : listed)
                    if (l.toObject().value(QStringLiteral("id")).toString() == id)
                        mine = l.toObject();
                QVERIFY2(!mine.isEmpty(), qPrintable(id));
                for (auto it = raw.begin(); it != raw.end(); ++it) {
                    if (it.key().startsWith(QLatin1String("x-")))
                        continue;
                    QVERIFY2(mine.contains(it.key()), qPrintable(id + QLatin1Char('.') + it.key()));
                    if (!it.value().isObject())
                        continue;
                    const QJsonObject nested = mine.value(it.key()).toObject();
                    for (const QString &k : it.value().toObject().keys())
                        QVERIFY2(
                            k == QLatin1String("source") || k.startsWith(QLatin1String("x-")) ||
                                nested.contains(k),
                            qPrintable(id + QLatin1Char('.') + it.key() + QLatin1Char('.') + k));
                }
            }
        }
    }
}

void TestCatalogIo::listedEntryPastedInlineIsItsId()
{
    // A listed entry pasted inline into a scenario, id aside, gives the step its id gives
    // (a pasted eth-25g became RDMA and ran 37% faster): every GPU, link and model.
    const QJsonObject listing = listingDocument();
    const QString base = QStringLiteral(
        R"({"scalescope": 1, "hardware": {"gpu": %1, "nodes": 2, "gpus_per_node": 4,
            "intra_node": %2, "inter_node": %3, "nics_per_node": 1},
            "model": %4, "training": {"global_batch": 16, "micro_batch": 1, "precision": "fp16"}})");
    const auto quoted = [](const char *id) {
        return QStringLiteral("\"%1\"").arg(QLatin1String(id));
    };
    const std::array<std::pair<const char *, const char *>, 4> roles = {
        std::pair{"gpus", "h100-sxm5-80gb"}, std::pair{"intra_node", "nvlink4"},
        std::pair{"inter_node", "eth-25g"}, std::pair{"models", "gpt2-1.5b"}};
    int compared = 0;
    for (size_t slot = 0; slot < roles.size(); ++slot) {
        for (const QJsonValue &v : listing.value(QLatin1String(roles[slot].first)).toArray()) {
            QJsonObject entry = v.toObject();
            const QString id = entry.take(QStringLiteral("id")).toString();
            QStringList byId, inlined;
            for (size_t k = 0; k < roles.size(); ++k) {
                byId << (k == slot ? QStringLiteral("\"%1\"").arg(id) : quoted(roles[k].second));
                inlined << (k == slot ? QString::fromUtf8(
                                            QJsonDocument(entry).toJson(QJsonDocument::Compact))
                                      : quoted(roles[k].second));
            }
            const auto scenario = [&](const QStringList &a) {
                return base.arg(a[0], a[1], a[2], a[3]).toUtf8();
            };
            const QString step = stepOf(scenario(byId));
            QCOMPARE(stepOf(scenario(inlined)), step);
            compared += step.toDouble() > 0; // a step, not the same error twice
        }
    }
    QVERIFY(compared > 50);
}

QTEST_GUILESS_MAIN(TestCatalogIo)
#include "tst_catalog_io.moc"
