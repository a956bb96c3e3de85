// Scenario files (spec/scenario.md): parsing, defaults, key-path errors, writing.
#include "io/catalog_io.h"
#include "io/json_util.h"
#include "io/scenario_io.h"
#include "plan/plan.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <optional>
#include <utility>

using namespace scalescope;

namespace
{

// A small catalog, independent of the built-in figures.
const char *kTestCatalog = R"({ "scalescope_catalog": 1,
  "gpus": [
    { "id": "gpu-a", "name": "GPU A", "family": "ampere",
      "peak_tflops": { "fp32": 19.5, "tf32": 156, "fp16": 312, "bf16": 312, "fp8": 0 },
      "memory_gb": 80, "memory_bandwidth_gbps": 2039, "tdp_w": 400, "source": "s" },
    { "id": "gpu-h", "name": "GPU H", "family": "hopper",
      "peak_tflops": { "fp32": 67, "tf32": 494, "fp16": 989, "bf16": 989, "fp8": 1979 },
      "memory_gb": 80, "memory_bandwidth_gbps": 3350, "tdp_w": 700, "source": "s" } ],
  "intra_node": [
    { "id": "pcie4", "name": "PCIe 4.0 x16", "kind": "pcie", "bandwidth_gbps": 31.5,
      "latency_us": 3, "switched": true, "source": "s" },
    { "id": "nvlink-t", "name": "NVLink test", "kind": "nvlink-switched", "bandwidth_gbps": 300,
      "latency_us": 2, "switched": true, "nvswitch_gen": 2, "source": "s" } ],
  "inter_node": [
    { "id": "ib-hdr-200", "name": "IB HDR", "kind": "infiniband", "line_rate_gbit": 200,
      "latency_us": 5, "source": "s" },
    { "id": "eth-t", "name": "Ethernet test", "kind": "ethernet", "line_rate_gbit": 100,
      "latency_us": 20, "source": "s" } ],
  "models": [
    { "id": "gpt-test", "name": "GPT test", "source": "s",
      "transformer": { "layers": 24, "hidden": 1024, "heads": 16, "seq_len": 1024,
                       "vocab": 50257 } },
    { "id": "cnn-test", "name": "CNN test", "source": "s", "input_elements": 150528,
      "layers": [ { "name": "conv1", "kind": "conv", "forward_flops": 236027904,
                    "params": 9408, "input_elements": 150528, "output_elements": 802816,
                    "gemm": [12544, 64, 147] },
                  { "name": "fc", "kind": "fc", "forward_flops": 4096000, "params": 2049000,
                    "input_elements": 2048, "output_elements": 1000,
                    "gemm": [1, 1000, 2048] } ] } ] })";

// 8 GPUs, data 4 x tensor 2, 64 samples in micro-batches of 2.
const char *kTrainingScenario = R"({ "scalescope": 1, "name": "base",
  "hardware": { "gpu": "gpu-a", "nodes": 1, "gpus_per_node": 8 },
  "model": { "transformer": { "layers": 24, "hidden": 1024, "heads": 16, "seq_len": 2048,
                              "vocab": 50000 } },
  "training": { "global_batch": 64, "micro_batch": 2 },
  "parallel": { "data": 4, "tensor": 2 } })";

const char *kCollectiveScenario = R"({ "scalescope": 1,
  "hardware": { "gpu": "gpu-a", "gpus_per_node": 8, "intra_node": "nvlink-t" },
  "collective": { "op": "all_reduce", "bytes": 1048576 } })";

// Everything inline and every effect.
const char *kInlineScenario = R"({ "scalescope": 1, "name": "inline everything",
  "hardware": {
    "gpu": { "name": "Lab GPU", "family": "hopper",
             "peak_tflops": { "fp32": 60.5, "tf32": 0, "fp16": 800.25, "bf16": 800.25, "fp8": 1600 },
             "memory_gb": 94, "memory_bandwidth_gbps": 3900, "tdp_w": 650, "sm_count": 132,
             "l2_mb": 50, "launch_overhead_us": 4.5, "source": "lab measurement" },
    "nodes": 2, "gpus_per_node": 4,
    "intra_node": { "name": "Bridge", "bandwidth_gbps": 56.25, "latency_us": 1.5,
                    "switched": false },
    "inter_node": { "name": "RoCE fabric", "line_rate_gbit": 400, "latency_us": 7.25 },
    "nics_per_node": 2 },
  "model": { "custom": { "params": 1.3e9, "forward_flops_per_sample": 2.6e12,
                         "activation_bytes_per_sample": 3.3e8, "layers": 24 } },
  "training": { "global_batch": 96, "micro_batch": 3, "precision": "fp8",
                "optimizer": "sgd", "recompute": "selective" },
  "parallel": { "data": 2, "tensor": 2, "pipeline": 2, "zero": 0, "schedule": "gpipe",
                "overlap": false, "bucket_mb": 12.5, "sequence_parallel": true,
                "update": "async" },
  "effects": { "seed": 42, "jitter": 0.05,
               "stragglers": [ { "gpu": 3, "slowdown": 1.3 }, { "gpu": 7, "slowdown": 2 } ],
               "thermal": { "throttle_above_c": 80, "clock_drop": 0.2, "warmup_s": 30 },
               "data_loader": { "workers_per_gpu": 4, "samples_per_s_per_worker": 250.5 } } })";

QJsonObject objectOf(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

/// Sets the member at a dotted key path (creating objects on the way); an undefined
/// value removes it.
QJsonObject patched(QJsonObject object, QStringView path, const QJsonValue &value)
{
    const qsizetype dot = path.indexOf(u'.');
    const QString key = path.left(dot < 0 ? path.size() : dot).toString();
    if (dot >= 0)
        object.insert(key, patched(object.value(key).toObject(), path.mid(dot + 1), value));
    else if (value.isUndefined())
        object.remove(key);
    else
        object.insert(key, value);
    return object;
}

using Patches = std::initializer_list<std::pair<const char *, QJsonValue>>;

QByteArray with(const char *base, Patches patches)
{
    QJsonObject object = objectOf(base);
    for (const auto &[path, value] : patches)
        object = patched(object, QString::fromUtf8(path), value);
    return QJsonDocument(object).toJson();
}

QByteArray training(Patches patches)
{
    return with(kTrainingScenario, patches);
}
QByteArray collective(Patches patches)
{
    return with(kCollectiveScenario, patches);
}

const QJsonValue kRemove = QJsonValue(QJsonValue::Undefined);

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString sharedScenarioDir()
{
    return QStringLiteral(SCALESCOPE_SHARED_DIR "/validation/scenarios");
}

QString testDataDir()
{
    return QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/io/data");
}

const char *errorText(const Result<Scenario> &result)
{
    static std::string text;
    text = result.ok() ? std::string("parsed") : result.error().toString();
    return text.c_str();
}

// Field-by-field comparison (the specs have no operator==).
void compareGpu(const GpuSpec &a, const GpuSpec &b)
{
    QCOMPARE(a.id, b.id);
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.family, b.family);
    for (int p = 0; p < kPrecisionCount; ++p)
        QCOMPARE(a.peak_tflops[p], b.peak_tflops[p]);
    QCOMPARE(a.memory_gb, b.memory_gb);
    QCOMPARE(a.memory_bandwidth_gbps, b.memory_bandwidth_gbps);
    QCOMPARE(a.tdp_w, b.tdp_w);
    QCOMPARE(a.sm_count, b.sm_count);
    QCOMPARE(a.l2_mb, b.l2_mb);
    QCOMPARE(a.launch_overhead_us, b.launch_overhead_us);
    QCOMPARE(a.source, b.source);
}

void compareHardware(const HardwareSpec &a, const HardwareSpec &b)
{
    compareGpu(a.gpu, b.gpu);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(a.nodes, b.nodes);
    QCOMPARE(a.gpus_per_node, b.gpus_per_node);
    QCOMPARE(a.intra.id, b.intra.id);
    QCOMPARE(a.intra.name, b.intra.name);
    QCOMPARE(a.intra.kind, b.intra.kind);
    QCOMPARE(a.intra.bandwidth_gbps, b.intra.bandwidth_gbps);
    QCOMPARE(a.intra.latency_us, b.intra.latency_us);
    QCOMPARE(a.intra.switched, b.intra.switched);
    QCOMPARE(a.intra.nvswitch_gen, b.intra.nvswitch_gen);
    QCOMPARE(a.intra.source, b.intra.source);
    QCOMPARE(a.inter.id, b.inter.id);
    QCOMPARE(a.inter.name, b.inter.name);
    QCOMPARE(a.inter.kind, b.inter.kind);
    QCOMPARE(a.inter.line_rate_gbit, b.inter.line_rate_gbit);
    QCOMPARE(a.inter.latency_us, b.inter.latency_us);
    QCOMPARE(a.inter.source, b.inter.source);
    QCOMPARE(a.nics_per_node, b.nics_per_node);
    QCOMPARE(a.pcie_topology, b.pcie_topology);
    QCOMPARE(a.host_memory_gbps, b.host_memory_gbps);
    QCOMPARE(a.intra.host_memory_gbps, b.intra.host_memory_gbps);
    QCOMPARE(a.calibration_path, b.calibration_path);
}

void compareModel(const ModelSpec &a, const ModelSpec &b)
{
    QCOMPARE(a.kind, b.kind);
    QCOMPARE(a.id, b.id);
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.source, b.source);
    QCOMPARE(a.input_elements_per_sample, b.input_elements_per_sample);
    const TransformerSpec &t = a.transformer, &u = b.transformer;
    QCOMPARE(t.layers, u.layers);
    QCOMPARE(t.hidden, u.hidden);
    QCOMPARE(t.heads, u.heads);
    QCOMPARE(t.seq_len, u.seq_len);
    QCOMPARE(t.vocab, u.vocab);
    QCOMPARE(t.ffn_hidden, u.ffn_hidden);
    QCOMPARE(t.kv_heads, u.kv_heads);
    QCOMPARE(t.gated_mlp, u.gated_mlp);
    QCOMPARE(t.tied_embeddings, u.tied_embeddings);
    QCOMPARE(a.custom.params, b.custom.params);
    QCOMPARE(a.custom.forward_flops_per_sample, b.custom.forward_flops_per_sample);
    QCOMPARE(a.custom.activation_bytes_per_sample, b.custom.activation_bytes_per_sample);
    QCOMPARE(a.custom.layers, b.custom.layers);
    QCOMPARE(a.table.size(), b.table.size());
    for (size_t i = 0; i < a.table.size(); ++i) {
        const LayerSpec &l = a.table[i], &m = b.table[i];
        QCOMPARE(l.name, m.name);
        QCOMPARE(l.kind, m.kind);
        QCOMPARE(l.forward_flops, m.forward_flops);
        QCOMPARE(l.params, m.params);
        QCOMPARE(l.input_elements, m.input_elements);
        QCOMPARE(l.output_elements, m.output_elements);
        QCOMPARE(l.gemm_m, m.gemm_m);
        QCOMPARE(l.gemm_n, m.gemm_n);
        QCOMPARE(l.gemm_k, m.gemm_k);
    }
}

void comparePlan(const Scenario &a, const Scenario &b)
{
    QCOMPARE(a.training.global_batch, b.training.global_batch);
    QCOMPARE(a.training.micro_batch, b.training.micro_batch);
    QCOMPARE(a.training.precision, b.training.precision);
    QCOMPARE(a.training.optimizer, b.training.optimizer);
    QCOMPARE(a.training.recompute, b.training.recompute);
    const ParallelSpec &p = a.parallel, &q = b.parallel;
    QCOMPARE(p.data, q.data);
    QCOMPARE(p.tensor, q.tensor);
    QCOMPARE(p.pipeline, q.pipeline);
    QCOMPARE(p.zero, q.zero);
    QCOMPARE(p.schedule, q.schedule);
    QCOMPARE(p.virtual_stages, q.virtual_stages);
    QCOMPARE(p.overlap, q.overlap);
    QCOMPARE(p.bucket_mb, q.bucket_mb);
    QCOMPARE(p.sequence_parallel, q.sequence_parallel);
    QCOMPARE(p.update, q.update);
    QCOMPARE(a.collective.has_value(), b.collective.has_value());
    if (a.collective) {
        QCOMPARE(a.collective->op, b.collective->op);
        QCOMPARE(a.collective->bytes, b.collective->bytes);
        QCOMPARE(a.collective->algorithm, b.collective->algorithm);
    }
}

void compareEffects(const EffectsSpec &a, const EffectsSpec &b)
{
    QCOMPARE(a.seed, b.seed);
    QCOMPARE(a.jitter, b.jitter);
    QCOMPARE(a.stragglers.size(), b.stragglers.size());
    for (size_t i = 0; i < a.stragglers.size(); ++i) {
        QCOMPARE(a.stragglers[i].gpu, b.stragglers[i].gpu);
        QCOMPARE(a.stragglers[i].slowdown, b.stragglers[i].slowdown);
    }
    QCOMPARE(a.thermal.enabled, b.thermal.enabled);
    QCOMPARE(a.thermal.throttle_above_c, b.thermal.throttle_above_c);
    QCOMPARE(a.thermal.clock_drop, b.thermal.clock_drop);
    QCOMPARE(a.thermal.warmup_s, b.thermal.warmup_s);
    QCOMPARE(a.data_loader.enabled, b.data_loader.enabled);
    QCOMPARE(a.data_loader.workers_per_gpu, b.data_loader.workers_per_gpu);
    QCOMPARE(a.data_loader.samples_per_s_per_worker, b.data_loader.samples_per_s_per_worker);
}

void compareScenarios(const Scenario &a, const Scenario &b)
{
    QCOMPARE(a.name, b.name);
    compareHardware(a.hardware, b.hardware);
    if (QTest::currentTestFailed())
        return;
    compareModel(a.model, b.model);
    if (QTest::currentTestFailed())
        return;
    comparePlan(a, b);
    if (QTest::currentTestFailed())
        return;
    compareEffects(a.effects, b.effects);
}

} // namespace

class TestScenarioIo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void draftKeepsRuleBreaks();
    void collectiveNames();
    void defaults();
    void specExample();
    void resolvedDegrees_data();
    void resolvedDegrees();
    void inlineEverything();
    void inlineLinkKind_data();
    void inlineLinkKind();
    void inlineTransformer();
    void catalogModels();
    void collectiveScenario();
    void thermalDefaults();
    void xKeysIgnored();
    void topLevelXKeysKeptOnSave();
    void errors_data();
    void errors();
    void calibrationPath();
    void calibrationOfAnotherGpuRefused();
    void tinyPhysicalValuesRefused_data();
    void tinyPhysicalValuesRefused();
    void loadErrors();
    void saveAndLoad();
    void writerOutput();
    void roundTrip_data();
    void roundTrip();
    void validationScenarios_data();
    void validationScenarios();

private:
    Result<Scenario> parse(const QByteArray &json) const { return parseScenario(json, catalog_); }
    Scenario parseOk(const QByteArray &json) const;

    Catalog catalog_;
    std::optional<Catalog> builtin_;
    QString builtinError_;
};

Scenario TestScenarioIo::parseOk(const QByteArray &json) const
{
    Result<Scenario> result = parse(json);
    if (!result.ok())
        qWarning("%s", result.error().toString().c_str());
    return result.ok() ? std::move(result).value() : Scenario{};
}

void TestScenarioIo::initTestCase()
{
    const Result<bool> parsed = parseCatalogInto(catalog_, kTestCatalog, QStringLiteral("test"));
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().toString().c_str());
    // Not builtinCatalog(): a broken resource would abort the whole test program.
    Result<Catalog> builtin = loadBuiltinCatalog();
    if (builtin.ok()) {
        // The test catalog's own GPUs and links, with the real software stacks.
        catalog_.frameworks = builtin.value().frameworks;
        builtin_ = std::move(builtin).value();
    } else
        builtinError_ = QString::fromStdString(builtin.error().toString());
}

void TestScenarioIo::draftKeepsRuleBreaks()
{
    // Work in progress (an autosave) may break a rule across keys: parseScenario refuses it,
    // parseScenarioDraft returns it as written with the rule's finding; per-key errors still
    // refuse both.
    const QByteArray json = R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb",
      "nodes": 1, "gpus_per_node": 8 }, "model": "gpt2-124m",
      "training": { "global_batch": 64 }, "parallel": { "tensor": 3 } })";
    const Result<Scenario> strict = parseScenario(json, builtinCatalog());
    QVERIFY(!strict);
    QCOMPARE(strict.error().path, std::string("parallel.tensor"));
    const Result<ScenarioDraft> draft = parseScenarioDraft(json, builtinCatalog());
    QVERIFY2(draft, draft ? "" : draft.error().toString().c_str());
    QCOMPARE(draft.value().scenario.parallel.tensor, 3);
    const std::optional<RuleFinding> first = firstError(draft.value().findings);
    QVERIFY(first);
    QCOMPARE(first->path, strict.error().path);
    QCOMPARE(ruleError(draft.value().scenario)->message, strict.error().message);
    QByteArray bad = json;
    bad.replace("\"tensor\": 3", "\"tensor\": 0");
    QVERIFY(!parseScenarioDraft(bad, builtinCatalog()));
    // A valid file: the same scenario both ways, no errors.
    QByteArray good = json;
    good.replace("\"tensor\": 3", "\"tensor\": 2");
    const Result<ScenarioDraft> fine = parseScenarioDraft(good, builtinCatalog());
    QVERIFY(fine && !firstError(fine.value().findings));
    QVERIFY(fine.value().scenario == parseScenario(good, builtinCatalog()).value());
}

void TestScenarioIo::collectiveNames()
{
    QCOMPARE(collectiveOpName(CollectiveOp::AllReduce), "all_reduce");
    QCOMPARE(collectiveOpName(CollectiveOp::ReduceScatter), "reduce_scatter");
    QCOMPARE(collectiveOpName(CollectiveOp::AllToAll), "all_to_all");
    QCOMPARE(collectiveAlgoName(CollectiveAlgo::NVLS), "nvls");
    QCOMPARE(collectiveAlgoName(CollectiveAlgo::Hierarchical), "hierarchical");
}

void TestScenarioIo::defaults()
{
    const Result<Scenario> result = parse(R"({ "scalescope": 1, "hardware": { "gpu": "gpu-a" },
        "model": "gpt-test", "training": { "global_batch": 8 } })");
    QVERIFY2(result.ok(), errorText(result));
    const Scenario &s = result.value();
    QCOMPARE(s.name, std::string());
    QCOMPARE(s.hardware.gpu.id, std::string("gpu-a"));
    QCOMPARE(s.hardware.nodes, 1);
    QCOMPARE(s.hardware.gpus_per_node, 1);
    QCOMPARE(s.hardware.intra.id, std::string("pcie4"));
    QCOMPARE(s.hardware.inter.id, std::string("ib-hdr-200"));
    QCOMPARE(s.hardware.nics_per_node, 1);
    QVERIFY(s.hardware.calibration_path.empty());
    QCOMPARE(s.model.id, std::string("gpt-test"));
    QCOMPARE(s.training.global_batch, int64_t(8));
    QCOMPARE(s.training.micro_batch, int64_t(8));
    QCOMPARE(s.training.precision, Precision::BF16);
    QCOMPARE(s.training.optimizer, Optimizer::Adam);
    QCOMPARE(s.training.recompute, Recompute::None);
    QCOMPARE(s.parallel.data, 1);
    QCOMPARE(s.parallel.tensor, 1);
    QCOMPARE(s.parallel.pipeline, 1);
    QCOMPARE(s.parallel.zero, 0);
    QCOMPARE(s.parallel.schedule, Schedule::OneFOneB);
    QCOMPARE(s.parallel.virtual_stages, 1);
    // Left to the stack (pytorch-ddp under auto: overlap on, 25 MB buckets).
    QVERIFY(!s.parallel.overlap && !s.parallel.bucket_mb);
    QVERIFY(makePlan(s).value().overlap);
    QCOMPARE(makePlan(s).value().bucket_bytes, 25e6);
    QVERIFY(!s.parallel.sequence_parallel);
    QCOMPARE(s.parallel.update, UpdateMode::Sync);
    QVERIFY(!s.isCollective());
    QCOMPARE(s.effects.seed, uint64_t(1));
    QCOMPARE(s.effects.jitter, 0.0);
    QVERIFY(s.effects.stragglers.empty());
    QVERIFY(!s.effects.thermal.enabled);
    QVERIFY(!s.effects.data_loader.enabled);
    QVERIFY(!s.effects.perRank());
}

void TestScenarioIo::specExample()
{
    // The example of spec/scenario.md with the test catalog's ids.
    const Result<Scenario> result = parse(R"({
      "scalescope": 1,
      "name": "GPT 175B on 1024 A100",
      "hardware": { "gpu": "gpu-a", "nodes": 128, "gpus_per_node": 8,
                    "intra_node": "nvlink-t", "inter_node": "ib-hdr-200", "nics_per_node": 8 },
      "model": { "transformer": { "layers": 96, "hidden": 12288, "heads": 96,
                                  "seq_len": 2048, "vocab": 51200 } },
      "training": { "global_batch": 1536, "micro_batch": 1, "precision": "fp16",
                    "optimizer": "adam", "recompute": "full" },
      "parallel": { "data": 8, "tensor": 8, "pipeline": 16, "zero": 0,
                    "schedule": "interleaved", "virtual_stages": 2,
                    "overlap": true, "bucket_mb": 25, "update": "sync" },
      "effects": { "seed": 1, "jitter": 0.0 } })");
    QVERIFY2(result.ok(), errorText(result));
    const Scenario &s = result.value();
    QCOMPARE(s.name, std::string("GPT 175B on 1024 A100"));
    QCOMPARE(s.hardware.gpuCount(), 1024);
    QCOMPARE(s.hardware.intra.kind, LinkKind::NVLinkSwitched);
    QCOMPARE(s.hardware.nics_per_node, 8);
    QCOMPARE(s.model.kind, ModelSpec::Kind::Transformer);
    QVERIFY(s.model.id.empty());
    QCOMPARE(s.model.name, std::string("custom transformer"));
    QCOMPARE(s.model.transformer.layers, int64_t(96));
    QCOMPARE(s.model.transformer.ffn(), int64_t(4 * 12288));
    QCOMPARE(s.model.transformer.kvHeads(), int64_t(96));
    QCOMPARE(s.training.precision, Precision::FP16);
    QCOMPARE(s.training.recompute, Recompute::Full);
    QCOMPARE(s.parallel.data, 8);
    QCOMPARE(s.parallel.tensor, 8);
    QCOMPARE(s.parallel.pipeline, 16);
    QCOMPARE(s.parallel.schedule, Schedule::Interleaved);
    QCOMPARE(s.parallel.virtual_stages, 2);
}

void TestScenarioIo::resolvedDegrees_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("data");
    QTest::addColumn<qint64>("microBatch");

    QTest::newRow("data omitted") << training({{"parallel.data", kRemove}}) << 4 << qint64(2);
    QTest::newRow("data and micro omitted")
        << training({{"parallel.data", kRemove}, {"training.micro_batch", kRemove}}) << 4
        << qint64(16);
    QTest::newRow("micro omitted")
        << training({{"training.micro_batch", kRemove}}) << 4 << qint64(16);
    QTest::newRow("pipeline, data omitted")
        << training({{"parallel", QJsonObject{{"tensor", 2}, {"pipeline", 2}}}}) << 2 << qint64(2);
    QTest::newRow("no parallel") << training({{"parallel", kRemove}}) << 8 << qint64(2);
}

void TestScenarioIo::resolvedDegrees()
{
    QFETCH(QByteArray, json);
    QFETCH(int, data);
    QFETCH(qint64, microBatch);
    const Result<Scenario> result = parse(json);
    QVERIFY2(result.ok(), errorText(result));
    QCOMPARE(result.value().parallel.data, data);
    QCOMPARE(result.value().training.micro_batch, int64_t(microBatch));
    // The writer keeps the resolved figures.
    const QJsonObject written = QJsonDocument::fromJson(writeScenario(result.value())).object();
    QCOMPARE(written[u"parallel"][u"data"].toInt(), data);
    QCOMPARE(written[u"training"][u"micro_batch"].toInteger(), microBatch);
}

void TestScenarioIo::inlineEverything()
{
    const Result<Scenario> result = parse(kInlineScenario);
    QVERIFY2(result.ok(), errorText(result));
    const Scenario &s = result.value();
    const GpuSpec &gpu = s.hardware.gpu;
    QVERIFY(gpu.id.empty());
    QCOMPARE(gpu.name, std::string("Lab GPU"));
    QCOMPARE(gpu.family, GpuFamily::Hopper);
    QCOMPARE(gpu.peak(Precision::FP32), 60.5);
    QCOMPARE(gpu.peak(Precision::TF32), 0.0);
    QCOMPARE(gpu.peak(Precision::FP16), 800.25);
    QCOMPARE(gpu.peak(Precision::FP8), 1600.0);
    QCOMPARE(gpu.memory_gb, 94.0);
    QCOMPARE(gpu.memory_bandwidth_gbps, 3900.0);
    QCOMPARE(gpu.tdp_w, 650.0);
    QCOMPARE(gpu.sm_count, 132);
    QCOMPARE(gpu.l2_mb, 50.0);
    QCOMPARE(gpu.launch_overhead_us, 4.5);
    QCOMPARE(gpu.source, std::string("lab measurement"));
    QCOMPARE(s.hardware.intra.name, std::string("Bridge"));
    QCOMPARE(s.hardware.intra.kind, LinkKind::NVLinkBridge);
    QCOMPARE(s.hardware.intra.bandwidth_gbps, 56.25);
    QCOMPARE(s.hardware.intra.latency_us, 1.5);
    QVERIFY(!s.hardware.intra.switched);
    // No "kind": the name ("RoCE fabric") does not decide the physics (issue 14).
    QCOMPARE(s.hardware.inter.kind, LinkKind::Custom);
    QCOMPARE(s.hardware.inter.line_rate_gbit, 400.0);
    QCOMPARE(s.hardware.inter.latency_us, 7.25);
    QCOMPARE(s.hardware.nics_per_node, 2);
    QCOMPARE(s.model.kind, ModelSpec::Kind::Custom);
    QCOMPARE(s.model.name, std::string("custom model"));
    QCOMPARE(s.model.custom.params, 1.3e9);
    QCOMPARE(s.model.custom.forward_flops_per_sample, 2.6e12);
    QCOMPARE(s.model.custom.activation_bytes_per_sample, 3.3e8);
    QCOMPARE(s.model.custom.layers, int64_t(24));
    QCOMPARE(s.training.precision, Precision::FP8);
    QCOMPARE(s.training.optimizer, Optimizer::SGD);
    QCOMPARE(s.training.recompute, Recompute::Selective);
    QCOMPARE(s.parallel.zero, 0);
    QCOMPARE(s.parallel.schedule, Schedule::GPipe);
    QCOMPARE(s.parallel.overlap, std::optional<bool>(false));
    QCOMPARE(s.parallel.bucket_mb, std::optional<double>(12.5));
    QVERIFY(s.parallel.sequence_parallel);
    QCOMPARE(s.parallel.update, UpdateMode::Async);
    const EffectsSpec &e = s.effects;
    QCOMPARE(e.seed, uint64_t(42));
    QCOMPARE(e.jitter, 0.05);
    QCOMPARE(e.stragglers.size(), size_t(2));
    QCOMPARE(e.stragglers[1].gpu, 7);
    QCOMPARE(e.stragglers[1].slowdown, 2.0);
    QVERIFY(e.thermal.enabled);
    QCOMPARE(e.thermal.throttle_above_c, 80.0);
    QCOMPARE(e.thermal.clock_drop, 0.2);
    QCOMPARE(e.thermal.warmup_s, 30.0);
    QVERIFY(e.data_loader.enabled);
    QCOMPARE(e.data_loader.workers_per_gpu, 4);
    QCOMPARE(e.data_loader.samples_per_s_per_worker, 250.5);
    QVERIFY(e.perRank());
}

void TestScenarioIo::inlineLinkKind_data()
{
    QTest::addColumn<QJsonObject>("intra");
    QTest::addColumn<QJsonObject>("inter");
    QTest::addColumn<LinkKind>("intraKind");
    QTest::addColumn<LinkKind>("interKind");

    // Without "kind" the physics comes from the declared fields only, never the name
    // (issue 14): unswitched = a two-card bridge; switched = PCIe up to a PCIe x16 link's
    // bandwidth, NVSwitch beyond it or with nvswitch_gen; between nodes a generic network.
    const auto intra = [](const char *name, bool switched, double gbps = 100) {
        return QJsonObject{
            {"name", name}, {"bandwidth_gbps", gbps}, {"latency_us", 2}, {"switched", switched}};
    };
    const auto inter = [](const char *name) {
        return QJsonObject{{"name", name}, {"line_rate_gbit", 100}, {"latency_us", 5}};
    };
    QTest::newRow("switched") << intra("NVLink 4", true) << inter("HDR") << LinkKind::NVLinkSwitched
                              << LinkKind::Custom;
    QTest::newRow("pcie") << intra("Gen4 PCIe x16", true, 31.5) << inter("100G Ethernet")
                          << LinkKind::PCIe << LinkKind::Custom;
    QTest::newRow("pcie named nvlink")
        << intra("NVLink", true, 31.5) << inter("InfiniBand") << LinkKind::PCIe << LinkKind::Custom;
    QTest::newRow("bridge") << intra("bridge", false) << inter("RoCE v2") << LinkKind::NVLinkBridge
                            << LinkKind::Custom;
    QTest::newRow("bridge named pcie") << intra("PCIe", false) << inter("Ethernet 1G")
                                       << LinkKind::NVLinkBridge << LinkKind::Custom;
    QJsonObject pcieSwitched = intra("PCIe switch", true);
    pcieSwitched.insert(QStringLiteral("kind"), QStringLiteral("pcie"));
    QJsonObject custom = inter("Slingshot");
    custom.insert(QStringLiteral("kind"), QStringLiteral("custom"));
    QTest::newRow("explicit kinds") << pcieSwitched << custom << LinkKind::PCIe << LinkKind::Custom;
}

void TestScenarioIo::inlineLinkKind()
{
    QFETCH(QJsonObject, intra);
    QFETCH(QJsonObject, inter);
    QFETCH(LinkKind, intraKind);
    QFETCH(LinkKind, interKind);
    const Result<Scenario> result =
        parse(training({{"hardware.intra_node", intra}, {"hardware.inter_node", inter}}));
    QVERIFY2(result.ok(), errorText(result));
    QCOMPARE(result.value().hardware.intra.kind, intraKind);
    QCOMPARE(result.value().hardware.inter.kind, interKind);
    QVERIFY(result.value().hardware.intra.id.empty());
    // Written back, the kind survives.
    const Result<Scenario> again = parse(writeScenario(result.value()));
    QVERIFY2(again.ok(), errorText(again));
    QCOMPARE(again.value().hardware.intra.kind, intraKind);
    QCOMPARE(again.value().hardware.inter.kind, interKind);
}

void TestScenarioIo::inlineTransformer()
{
    const Scenario s = parseOk(training({{"model.name", "my model"},
                                         {"model.transformer.ffn_hidden", 2816},
                                         {"model.transformer.kv_heads", 4},
                                         {"model.transformer.gated_mlp", true},
                                         {"model.transformer.tied_embeddings", false}}));
    QCOMPARE(s.model.name, std::string("my model"));
    QCOMPARE(s.model.transformer.ffn(), int64_t(2816));
    QCOMPARE(s.model.transformer.kvHeads(), int64_t(4));
    QVERIFY(s.model.transformer.gated_mlp);
    QVERIFY(!s.model.transformer.tied_embeddings);
}

void TestScenarioIo::catalogModels()
{
    const Scenario gpt = parseOk(training({{"model", "gpt-test"}}));
    QCOMPARE(gpt.model.id, std::string("gpt-test"));
    QCOMPARE(gpt.model.transformer.seq_len, int64_t(1024));
    const Scenario cnn = parseOk(training({{"model", "cnn-test"},
                                           {"parallel.tensor", 1},
                                           {"parallel.data", 8},
                                           {"training.micro_batch", 8}}));
    QCOMPARE(cnn.model.kind, ModelSpec::Kind::LayerTable);
    QCOMPARE(cnn.model.table.size(), size_t(2));
}

void TestScenarioIo::collectiveScenario()
{
    const Result<Scenario> result = parse(kCollectiveScenario);
    QVERIFY2(result.ok(), errorText(result));
    const Scenario &s = result.value();
    QVERIFY(s.isCollective());
    QCOMPARE(s.collective->op, CollectiveOp::AllReduce);
    QCOMPARE(s.collective->bytes, 1048576.0);
    QCOMPARE(s.collective->algorithm, CollectiveAlgo::Auto);
    QCOMPARE(s.hardware.gpuCount(), 8);

    const Scenario tree = parseOk(collective({{"collective.op", "all_to_all"},
                                              {"collective.algorithm", "hierarchical"},
                                              {"collective.bytes", 1e13}}));
    QCOMPARE(tree.collective->op, CollectiveOp::AllToAll);
    QCOMPARE(tree.collective->algorithm, CollectiveAlgo::Hierarchical);
    QCOMPARE(tree.collective->bytes, 1e13);
}

void TestScenarioIo::thermalDefaults()
{
    const Scenario s = parseOk(training({{"effects.thermal", QJsonObject()}}));
    QVERIFY(s.effects.thermal.enabled);
    QCOMPARE(s.effects.thermal.throttle_above_c, 84.0);
    QCOMPARE(s.effects.thermal.clock_drop, 0.15);
    QCOMPARE(s.effects.thermal.warmup_s, 60.0);
}

void TestScenarioIo::xKeysIgnored()
{
    const QJsonObject gpu =
        QJsonDocument::fromJson(kInlineScenario).object()[u"hardware"][u"gpu"].toObject();
    const Result<Scenario> result =
        parse(training({{"x-comment", "kept and ignored"},
                        {"hardware.x-rack", QJsonArray{1, 2}},
                        {"hardware.gpu", gpu},
                        {"hardware.gpu.x-note", QJsonObject{{"anything", "goes"}}},
                        {"hardware.gpu.peak_tflops.x-int8", 1000},
                        {"model.transformer.x-arch", "gpt"},
                        {"parallel.x-todo", true},
                        {"effects.x-", 1}}));
    QVERIFY2(result.ok(), errorText(result));
}

void TestScenarioIo::topLevelXKeysKeptOnSave()
{
    // A gallery file's "x-gallery" (or another tool's "x-" key) survives open and save.
    const QJsonObject gallery{{"claim", 3},
                              {"title", QJsonObject{{"en", "T"}, {"zh_CN", "标题"}}},
                              {"sweep", QJsonArray{1, 2, 4}}};
    const Result<Scenario> first =
        parse(training({{"x-gallery", gallery}, {"x-comment", "note \"quoted\""}}));
    QVERIFY2(first.ok(), errorText(first));
    QCOMPARE(first.value().extensions.size(), size_t(2));
    const QByteArray written = writeScenario(first.value());
    const QJsonObject root = QJsonDocument::fromJson(written).object();
    QCOMPARE(root.value(u"x-gallery").toObject(), gallery);
    QCOMPARE(root.value(u"x-comment").toString(), QStringLiteral("note \"quoted\""));
    const Result<Scenario> second = parse(written);
    QVERIFY2(second.ok(), errorText(second));
    QCOMPARE(writeScenario(second.value()), written);
}

void TestScenarioIo::errors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("contains");

    // The whole document.
    QTest::newRow("not JSON") << QByteArray("{ \"scalescope\": 1,") << ""
                              << "offset";
    QTest::newRow("empty") << QByteArray() << ""
                           << "empty";
    QTest::newRow("blank") << QByteArray(" \n ") << ""
                           << "offset";
    QTest::newRow("top-level array") << QByteArray("[1, 2]") << ""
                                     << "array";
    QTest::newRow("top-level number") << QByteArray("3") << ""
                                      << "JSON";
    QTest::newRow("trailing garbage") << QByteArray(kTrainingScenario) + " x"
                                      << ""
                                      << "offset";
    QTest::newRow("deeply nested") << QByteArray(100000, '[') << ""
                                   << "nested";
    QTest::newRow("deeply nested object")
        << QByteArray("{\"scalescope\": 1, \"x-deep\": ") + QByteArray(5000, '[') << ""
        << "nested";
    QTest::newRow("NaN") << QByteArray(
                                R"({"scalescope": 1, "hardware": {"gpu": "gpu-a", "nodes": NaN}})")
                         << "hardware.nodes"
                         << "got NaN";
    QTest::newRow("Infinity") << QByteArray(R"({"scalescope": 1, "effects": {"jitter": Infinity}})")
                              << "effects.jitter"
                              << "got Infinity";
    QTest::newRow("-Infinity") << QByteArray(
                                      R"({"scalescope": 1, "effects": {"jitter": -Infinity}})")
                               << "effects.jitter"
                               << "got -Infinity";
    QTest::newRow("1e400")
        << QByteArray(R"({"scalescope": 1, "hardware": {"gpu": "gpu-a", "nodes": 1e400}})")
        << "hardware.nodes"
        << "got 1e400";
    QTest::newRow("version") << training({{"scalescope", 2}}) << "scalescope"
                             << "2";
    QTest::newRow("no version") << training({{"scalescope", kRemove}}) << "scalescope"
                                << "missing";
    QTest::newRow("version string") << training({{"scalescope", "1"}}) << "scalescope"
                                    << "\"1\"";

    // Unknown keys, anywhere.
    QTest::newRow("unknown top key") << training({{"hardwre", 1}}) << "hardwre"
                                     << "unknown key";
    QTest::newRow("unknown parallel key")
        << training({{"parallel.pipline", 2}}) << "parallel.pipline"
        << "unknown key; allowed keys: data, tensor, pipeline";
    QTest::newRow("unknown transformer key")
        << training({{"model.transformer.layrs", 2}}) << "model.transformer.layrs"
        << "layers";
    QTest::newRow("unknown inline gpu key")
        << training(
               {{"hardware.gpu",
                 QJsonDocument::fromJson(kInlineScenario).object()[u"hardware"][u"gpu"].toObject()},
                {"hardware.gpu.peak_tflops.fp64", 9}})
        << "hardware.gpu.peak_tflops.fp64"
        << "fp32, tf32, fp16, bf16, fp8";
    QTest::newRow("unknown straggler key")
        << training({{"effects.stragglers",
                      QJsonArray{QJsonObject{{"gpu", 0}, {"slowdown", 2}, {"speed", 1}}}}})
        << "effects.stragglers[0].speed"
        << "unknown key";
    QTest::newRow("id key in inline gpu")
        << training(
               {{"hardware.gpu",
                 QJsonDocument::fromJson(kInlineScenario).object()[u"hardware"][u"gpu"].toObject()},
                {"hardware.gpu.id", "gpu-a"}})
        << "hardware.gpu.id"
        << "unknown key";

    // Types.
    QTest::newRow("nodes string") << training({{"hardware.nodes", "four"}}) << "hardware.nodes"
                                  << "expected a whole number, got \"four\"";
    QTest::newRow("nodes null") << training({{"hardware.nodes", QJsonValue::Null}})
                                << "hardware.nodes"
                                << "null";
    QTest::newRow("hardware number") << training({{"hardware", 3}}) << "hardware"
                                     << "3";
    QTest::newRow("gpu number") << training({{"hardware.gpu", 3}}) << "hardware.gpu"
                                << "3";
    QTest::newRow("overlap string") << training({{"parallel.overlap", "yes"}}) << "parallel.overlap"
                                    << "\"yes\"";
    QTest::newRow("precision number")
        << training({{"training.precision", 16}}) << "training.precision"
        << "16";
    QTest::newRow("recompute bool")
        << training({{"training.recompute", true}}) << "training.recompute"
        << "true";
    QTest::newRow("parallel array") << training({{"parallel", QJsonArray{1}}}) << "parallel"
                                    << "an array";
    QTest::newRow("name number") << training({{"name", 3}}) << "name"
                                 << "3";
    QTest::newRow("stragglers string")
        << training({{"effects.stragglers", "x"}}) << "effects.stragglers"
        << "\"x\"";
    QTest::newRow("inter link rate string")
        << training({{"hardware.inter_node",
                      QJsonObject{{"name", "n"}, {"line_rate_gbit", "fast"}, {"latency_us", 1}}}})
        << "hardware.inter_node.line_rate_gbit"
        << "\"fast\"";

    // Enumerations.
    QTest::newRow("precision") << training({{"training.precision", "bf17"}}) << "training.precision"
                               << "\"bf17\"; allowed: fp32, tf32, fp16, bf16, fp8";
    QTest::newRow("optimizer") << training({{"training.optimizer", "lamb"}}) << "training.optimizer"
                               << "\"lamb\"";
    QTest::newRow("schedule") << training({{"parallel.schedule", "zb"}}) << "parallel.schedule"
                              << "\"zb\"";
    QTest::newRow("update") << training({{"parallel.update", "lazy"}}) << "parallel.update"
                            << "\"lazy\"";
    QTest::newRow("family")
        << training(
               {{"hardware.gpu",
                 QJsonDocument::fromJson(kInlineScenario).object()[u"hardware"][u"gpu"].toObject()},
                {"hardware.gpu.family", "turing"}})
        << "hardware.gpu.family"
        << "\"turing\"";
    QTest::newRow("intra kind") << training(
                                       {{"hardware.intra_node", QJsonObject{{"name", "n"},
                                                                            {"bandwidth_gbps", 1},
                                                                            {"latency_us", 1},
                                                                            {"kind", "roce"}}}})
                                << "hardware.intra_node.kind"
                                << "\"roce\"";

    // Ranges, wholeness.
    QTest::newRow("nodes 0") << training({{"hardware.nodes", 0}}) << "hardware.nodes"
                             << "0 is out of range; allowed: 1 to 65536";
    QTest::newRow("nodes 1e300") << training({{"hardware.nodes", 1e300}}) << "hardware.nodes"
                                 << "1e+300";
    QTest::newRow("nodes -1e300") << training({{"hardware.nodes", -1e300}}) << "hardware.nodes"
                                  << "-1e+300";
    QTest::newRow("gpus_per_node 2.5")
        << training({{"hardware.gpus_per_node", 2.5}}) << "hardware.gpus_per_node"
        << "2.5";
    QTest::newRow("gpus_per_node 65")
        << training({{"hardware.gpus_per_node", 65}}) << "hardware.gpus_per_node"
        << "65";
    QTest::newRow("nics 0") << training({{"hardware.nics_per_node", 0}}) << "hardware.nics_per_node"
                            << "0";
    // Issue 25's keys: the power cap is a share of the GPU's TDP (gpu-a: 400 W), an NVLink
    // domain whole nodes, a pipeline needs an image model.
    QTest::newRow("power_limit_w above TDP")
        << training({{"hardware.power_limit_w", 450}}) << "hardware.power_limit_w"
        << "450";
    QTest::newRow("power_limit_w below 30% of TDP")
        << training({{"hardware.power_limit_w", 100}}) << "hardware.power_limit_w"
        << "allowed: 120 to 400";
    QTest::newRow("nvlink_domain not whole nodes")
        << training({{"hardware.nvlink_domain", 6}}) << "hardware.nvlink_domain"
        << "multiple of gpus_per_node = 8";
    QTest::newRow("cpu_cores 0") << training({{"hardware.cpu_cores", 0}}) << "hardware.cpu_cores"
                                 << "0";
    QTest::newRow("compile not a bool")
        << training({{"training.compile", "yes"}}) << "training.compile"
        << "yes";
    QTest::newRow("memory_format unknown")
        << training({{"training.memory_format", "nchwc"}}) << "training.memory_format"
        << "allowed: nhwc, nchw";
    QTest::newRow("fp8_recipe unknown")
        << training({{"training.precision", "fp8"}, {"training.fp8_recipe", "blockwise"}})
        << "training.fp8_recipe"
        << "allowed: delayed, current, tensorwise, rowwise";
    QTest::newRow("fp8_recipe without fp8")
        << training({{"training.fp8_recipe", "current"}}) << "training.fp8_recipe"
        << "applies to precision fp8 only";
    QTest::newRow("fp8_recipe with mxfp8")
        << training({{"training.precision", "mxfp8"}, {"training.fp8_recipe", "current"}})
        << "training.fp8_recipe"
        << "precision is mxfp8";
    QTest::newRow("tp_overlap not a bool")
        << training({{"parallel.tp_overlap", 1}}) << "parallel.tp_overlap"
        << "1";
    QTest::newRow("pipeline unknown")
        << training({{"model", "cnn-test"},
                     {"effects.data_loader", QJsonObject{{"workers_per_gpu", 4},
                                                         {"pipeline", "opencv"}}}})
        << "effects.data_loader.pipeline" << "pil-simd";
    QTest::newRow("pipeline and a rate")
        << training({{"model", "cnn-test"},
                     {"effects.data_loader",
                      QJsonObject{{"workers_per_gpu", 4}, {"pipeline", "pil"},
                                  {"samples_per_s_per_worker", 100}}}})
        << "effects.data_loader.samples_per_s_per_worker" << "pipeline";
    QTest::newRow("pipeline without an image input")
        << training({{"effects.data_loader",
                      QJsonObject{{"workers_per_gpu", 4}, {"pipeline", "dali-gpu"}}}})
        << "effects.data_loader.pipeline" << "image";
    QTest::newRow("too many GPUs") << training({{"hardware.nodes", 65536}}) << "hardware.nodes"
                                   << "524288";
    QTest::newRow("global_batch 0")
        << training({{"training.global_batch", 0}}) << "training.global_batch"
        << "0";
    QTest::newRow("global_batch 1e10")
        << training({{"training.global_batch", 1e10}}) << "training.global_batch"
        << "10000000000";
    QTest::newRow("micro above global")
        << training({{"training.micro_batch", 65}}) << "training.micro_batch"
        << "65";
    QTest::newRow("data above gpus") << training({{"parallel.data", 9}}) << "parallel.data"
                                     << "9";
    QTest::newRow("zero 4") << training({{"parallel.zero", 4}}) << "parallel.zero"
                            << "4";
    QTest::newRow("bucket -1") << training({{"parallel.bucket_mb", -1}}) << "parallel.bucket_mb"
                               << "-1";
    QTest::newRow("virtual_stages 0")
        << training({{"parallel.virtual_stages", 0}}) << "parallel.virtual_stages"
        << "0";
    QTest::newRow("seq_len negative")
        << training({{"model.transformer.seq_len", -5}}) << "model.transformer.seq_len"
        << "-5";
    QTest::newRow("seed 1.5") << training({{"effects.seed", 1.5}}) << "effects.seed"
                              << "1.5";
    QTest::newRow("seed above 2^53")
        << QByteArray(kTrainingScenario)
               .replace("\"name\": \"base\",", "\"effects\": {\"seed\": 9007199254740993},")
        << "effects.seed"
        << "9007199254740993";
    QTest::newRow("jitter 1.5") << training({{"effects.jitter", 1.5}}) << "effects.jitter"
                                << "1.5";
    QTest::newRow("straggler gpu 8")
        << training({{"effects.stragglers", QJsonArray{QJsonObject{{"gpu", 0}, {"slowdown", 2}},
                                                       QJsonObject{{"gpu", 8}, {"slowdown", 2}}}}})
        << "effects.stragglers[1].gpu"
        << "8";
    QTest::newRow("straggler twice")
        << training({{"effects.stragglers", QJsonArray{QJsonObject{{"gpu", 5}, {"slowdown", 2}},
                                                       QJsonObject{{"gpu", 5}, {"slowdown", 3}}}}})
        << "effects.stragglers[1].gpu"
        << "5";
    QTest::newRow("straggler slowdown")
        << training(
               {{"effects.stragglers", QJsonArray{QJsonObject{{"gpu", 0}, {"slowdown", 0.5}}}}})
        << "effects.stragglers[0].slowdown"
        << "0.5";
    QTest::newRow("clock_drop") << training({{"effects.thermal.clock_drop", 0.95}})
                                << "effects.thermal.clock_drop"
                                << "0.95";
    QTest::newRow("loader workers missing")
        << training({{"effects.data_loader", QJsonObject{{"samples_per_s_per_worker", 100}}}})
        << "effects.data_loader.workers_per_gpu"
        << "missing";
    QTest::newRow("inline gpu peak negative")
        << training(
               {{"hardware.gpu",
                 QJsonDocument::fromJson(kInlineScenario).object()[u"hardware"][u"gpu"].toObject()},
                {"hardware.gpu.peak_tflops.fp16", -1}})
        << "hardware.gpu.peak_tflops.fp16"
        << "-1";
    QTest::newRow("inline gpu memory missing")
        << training(
               {{"hardware.gpu",
                 QJsonDocument::fromJson(kInlineScenario).object()[u"hardware"][u"gpu"].toObject()},
                {"hardware.gpu.memory_gb", kRemove}})
        << "hardware.gpu.memory_gb"
        << "missing";
    QTest::newRow("inline link bandwidth 0")
        << training({{"hardware.intra_node",
                      QJsonObject{{"name", "n"}, {"bandwidth_gbps", 0}, {"latency_us", 1}}}})
        << "hardware.intra_node.bandwidth_gbps"
        << "0";
    QTest::newRow("custom params 0")
        << training(
               {{"model", QJsonObject{{"custom", QJsonObject{{"params", 0},
                                                             {"forward_flops_per_sample", 1}}}}}})
        << "model.custom.params"
        << "0";

    // Required keys.
    QTest::newRow("no hardware") << training({{"hardware", kRemove}}) << "hardware"
                                 << "missing";
    QTest::newRow("no gpu") << training({{"hardware.gpu", kRemove}}) << "hardware.gpu"
                            << "missing";
    QTest::newRow("no model") << training({{"model", kRemove}}) << "model"
                              << "missing";
    QTest::newRow("no training") << training({{"training", kRemove}}) << "training"
                                 << "missing";
    QTest::newRow("no global_batch")
        << training({{"training.global_batch", kRemove}}) << "training.global_batch"
        << "missing";

    // Catalog ids.
    QTest::newRow("unknown gpu") << training({{"hardware.gpu", "a100"}}) << "hardware.gpu"
                                 << "\"a100\"; allowed: a catalog id (gpu-a, gpu-h)";
    QTest::newRow("unknown intra")
        << training({{"hardware.intra_node", "nvlink9"}}) << "hardware.intra_node"
        << "\"nvlink9\"";
    QTest::newRow("unknown inter")
        << training({{"hardware.inter_node", "ib-xyz"}}) << "hardware.inter_node"
        << "\"ib-xyz\"";
    QTest::newRow("unknown model") << training({{"model", "gpt-9"}}) << "model"
                                   << "\"gpt-9\"";

    // Models.
    QTest::newRow("heads do not divide hidden")
        << training({{"model.transformer.heads", 1000}}) << "model.transformer.heads"
        << "1000";
    QTest::newRow("kv_heads do not divide heads")
        << training({{"model.transformer.kv_heads", 3}}) << "model.transformer.kv_heads"
        << "3";
    QTest::newRow("head unknown") << training({{"model.transformer.head", "classes"}})
                                  << "model.transformer.head"
                                  << "allowed: lm, span";
    QTest::newRow("two model bodies")
        << training({{"model.custom", QJsonObject{{"params", 1}, {"forward_flops_per_sample", 1}}}})
        << "model"
        << "exactly one";
    QTest::newRow("empty model") << training({{"model", QJsonObject()}}) << "model"
                                 << "exactly one";

    // Cross-field rules.
    QTest::newRow("degrees do not multiply")
        << training({{"parallel", QJsonObject{{"data", 8}, {"tensor", 1}, {"pipeline", 3}}}})
        << "parallel"
        << "data*tensor*pipeline = 8*1*3 = 24 must equal the GPU count nodes*gpus_per_node = 8";
    QTest::newRow("degrees too few") << training({{"parallel.data", 3}}) << "parallel"
                                     << "3*2*1 = 6";
    QTest::newRow("tensor does not divide gpus")
        << training({{"parallel", QJsonObject{{"tensor", 3}}}}) << "parallel.tensor"
        << "3";
    QTest::newRow("pipeline does not divide gpus")
        << training({{"parallel", QJsonObject{{"tensor", 2}, {"pipeline", 3}}}})
        << "parallel.pipeline"
        << "2*3 = 6";
    QTest::newRow("micro_batch does not divide")
        << training({{"training.micro_batch", 3}}) << "training.micro_batch"
        << "3*4 = 12";
    QTest::newRow("global_batch not divisible by data")
        << training({{"training.micro_batch", kRemove}, {"training.global_batch", 66}})
        << "training.global_batch"
        << "66";
    QTest::newRow("tensor does not divide heads")
        << training({{"model.transformer.hidden", 1536},
                     {"model.transformer.heads", 12},
                     {"parallel", QJsonObject{{"tensor", 8}}}})
        << "parallel.tensor"
        << "12";
    QTest::newRow("more stages than layers")
        << training({{"model.transformer.layers", 4}, {"parallel", QJsonObject{{"pipeline", 8}}}})
        << "parallel.pipeline"
        << "8*1 = 8";
    QTest::newRow("more chunks than layers")
        << training(
               {{"model.transformer.layers", 6},
                {"parallel",
                 QJsonObject{{"pipeline", 4}, {"schedule", "interleaved"}, {"virtual_stages", 2}}},
                {"training.micro_batch", 4}})
        << "parallel.pipeline"
        << "4*2 = 8";
    QTest::newRow("zero 2 with pipeline under deepspeed")
        << training({{"parallel", QJsonObject{{"tensor", 1}, {"pipeline", 2}, {"zero", 2}}},
                     {"training.framework", "deepspeed"}})
        << "training.framework"
        << "parallel.zero";
    QTest::newRow("tensor under pytorch-ddp") << training({{"parallel", QJsonObject{{"tensor", 2}}},
                                                           {"training.framework", "pytorch-ddp"}})
                                              << "training.framework"
                                              << "parallel.tensor";
    QTest::newRow("unknown framework")
        << training({{"training.framework", "jax"}}) << "training.framework"
        << "megatron-core";
    QTest::newRow("virtual stages without interleaving")
        << training({{"parallel.virtual_stages", 2}}) << "parallel.virtual_stages"
        << "\"1f1b\"";
    QTest::newRow("interleaved micro-batches")
        << training({{"parallel", QJsonObject{{"data", 4},
                                              {"pipeline", 2},
                                              {"schedule", "interleaved"},
                                              {"virtual_stages", 2}}},
                     {"training.global_batch", 12},
                     {"training.micro_batch", 1}})
        << "parallel.virtual_stages"
        << "12/(1*4) = 3";
    QTest::newRow("async with sharded optimizer")
        << training({{"parallel", QJsonObject{{"zero", 1}, {"update", "async"}}}})
        << "parallel.update"
        << "zero = 1";
    QTest::newRow("straggler beyond the cluster")
        << training({{"effects", QJsonObject{{"stragglers", QJsonArray{QJsonObject{
                                                                {"gpu", 8}, {"slowdown", 2}}}}}}})
        << "effects.stragglers[0].gpu"
        << "allowed: 0 to 7";
    QTest::newRow("precision unsupported")
        << training({{"training.precision", "fp8"}}) << "training.precision"
        << "fp8";

    // Collective-only scenarios.
    QTest::newRow("collective with model")
        << training({{"collective", QJsonObject{{"op", "all_reduce"}, {"bytes", 1}}}}) << "model"
        << "\"collective\"";
    QTest::newRow("collective with training")
        << collective({{"training", QJsonObject{{"global_batch", 1}}}}) << "training"
        << "\"collective\"";
    QTest::newRow("collective op")
        << collective({{"collective.op", "allreduce"}}) << "collective.op"
        << "\"allreduce\"";
    QTest::newRow("collective bytes 0")
        << collective({{"collective.bytes", 0}}) << "collective.bytes"
        << "0";
    QTest::newRow("collective bytes 1.5")
        << collective({{"collective.bytes", 1.5}}) << "collective.bytes"
        << "1.5";
    QTest::newRow("collective bytes 1e14")
        << collective({{"collective.bytes", 1e14}}) << "collective.bytes"
        << "100000000000000";
    QTest::newRow("collective algorithm")
        << collective({{"collective.algorithm", "butterfly"}}) << "collective.algorithm"
        << "\"butterfly\"";

    QTest::newRow("calibration missing")
        << training({{"hardware.calibration", "no-such-profile.json"}}) << "hardware.calibration"
        << "no-such-profile.json";
    QTest::newRow("pcie topology")
        << training({{"hardware.pcie_topology", "nvlink"}}) << "hardware.pcie_topology"
        << "allowed: switch, root_ports";
    QTest::newRow("host memory negative")
        << training({{"hardware.host_memory_gbps", -1}}) << "hardware.host_memory_gbps"
        << "5000";
    QTest::newRow("host memory huge")
        << training({{"hardware.host_memory_gbps", 1e6}}) << "hardware.host_memory_gbps"
        << "5000";
}

void TestScenarioIo::errors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    QFETCH(QString, contains);
    const Result<Scenario> result = parse(json);
    QVERIFY2(!result.ok(), "parsed, but should have failed");
    const QString message = QString::fromStdString(result.error().message);
    QCOMPARE(QString::fromStdString(result.error().path), path);
    QVERIFY2(message.contains(contains), qPrintable(message));
}

void TestScenarioIo::calibrationOfAnotherGpuRefused()
{
    // An H200 profile applied to an RTX 4060 Ti would triple its MFU: refused, naming both
    // GPUs; on an H200 scenario it applies.
    if (!builtin_)
        QSKIP("the built-in catalog did not load");
    const QString profile =
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/io/data/profiles/h200-1gpu.json");
    const auto scenario = [&](const char *gpu) {
        return QStringLiteral(R"({"scalescope": 1, "hardware": {"gpu": "%1", "calibration": "%2"},
          "model": "gpt2-1.5b", "training": {"global_batch": 8}})")
            .arg(QLatin1String(gpu), profile)
            .toUtf8();
    };
    const Result<Scenario> wrong = parseScenario(scenario("rtx-4060ti-16gb"), *builtin_);
    QVERIFY(!wrong.ok());
    QCOMPARE(QString::fromStdString(wrong.error().path), QStringLiteral("hardware.calibration"));
    QVERIFY2(wrong.error().message.find("NVIDIA H200") != std::string::npos &&
                 wrong.error().message.find("4060") != std::string::npos,
             wrong.error().message.c_str());
    const Result<Scenario> right = parseScenario(scenario("h200-sxm-141gb"), *builtin_);
    QVERIFY2(right.ok(), errorText(right));
    QVERIFY(right.value().hardware.calibration != nullptr);
}

void TestScenarioIo::tinyPhysicalValuesRefused_data()
{
    // Every physical quantity a scenario or an inline catalog entry states, and the smallest
    // figure a real device has (issue 29: 5e-324 Gb/s gave "step time inf s" and "nan%").
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("bound");
    QTest::addColumn<bool>("zero_allowed"); // 0 means "not stated" or "no support"
    const auto row = [](const char *key, double bound, bool zero) {
        QTest::newRow(key) << QString::fromLatin1(key) << bound << zero;
    };
    row("hardware.gpu.peak_tflops.fp32", 1e-3, false);
    row("hardware.gpu.peak_tflops.tf32", 1e-3, true);
    row("hardware.gpu.peak_tflops.fp16", 1e-3, true);
    row("hardware.gpu.peak_tflops.bf16", 1e-3, true);
    row("hardware.gpu.peak_tflops.fp8", 1e-3, true);
    row("hardware.gpu.memory_gb", 0.1, false);
    row("hardware.gpu.memory_bandwidth_gbps", 1, false);
    row("hardware.gpu.tdp_w", 1, false);
    row("hardware.gpu.l2_mb", 0.01, true);
    row("hardware.gpu.launch_overhead_us", 0.01, true);
    row("hardware.intra_node.bandwidth_gbps", 0.1, false);
    row("hardware.intra_node.latency_us", 0.01, true);
    row("hardware.intra_node.host_memory_gbps", 0.1, true);
    row("hardware.inter_node.line_rate_gbit", 1e-3, false);
    row("hardware.inter_node.latency_us", 0.01, true);
    row("hardware.host_memory_gbps", 0.1, true);
    row("effects.data_loader.samples_per_s_per_worker", 1e-3, false);
    row("effects.virtual_gpu.fraction", 0.01, false);
    row("effects.failures.mtbf_hours_per_gpu", 0.01, false);
    row("effects.failures.checkpoint_write_gbps", 1e-3, false);
    row("effects.failures.checkpoint_interval_s", 1, true);
    row("cost.amortisation_years", 0.01, false);
    row("cost.runs_per_month", 1e-3, false);
}

void TestScenarioIo::tinyPhysicalValuesRefused()
{
    QFETCH(QString, key);
    QFETCH(double, bound);
    QFETCH(bool, zero_allowed);
    const auto scenario = [&](double value) {
        const QByteArray base =
            with(kInlineScenario,
                 {{"training.precision", QStringLiteral("fp32")}, // every other peak may be 0
                  {"hardware.host_memory_gbps", 100},
                  {"hardware.intra_node.host_memory_gbps", 100},
                  {"effects.virtual_gpu.fraction", 0.5},
                  {"effects.failures.mtbf_hours_per_gpu", 50000},
                  {"cost", QJsonObject{{QStringLiteral("gpu_price_usd"), 2000},
                                       {QStringLiteral("cloud_price_per_gpu_hour"), 2},
                                       {QStringLiteral("training"),
                                        QJsonObject{{QStringLiteral("steps"), 1000}}}}}});
        QJsonObject o = QJsonDocument::fromJson(base).object();
        return QJsonDocument(patched(o, key, value)).toJson();
    };
    for (double tiny : {5e-324, 1e-300, bound / 2}) {
        const Result<Scenario> r = parse(scenario(tiny));
        QVERIFY2(!r.ok(), qPrintable(QString::number(tiny)));
        QCOMPARE(QString::fromStdString(r.error().path), key);
        const std::string allowed =
            (zero_allowed ? "allowed: 0 or " : "allowed: ") + json::formatNumber(bound) + " to ";
        QVERIFY2(r.error().message.find(allowed) != std::string::npos, r.error().message.c_str());
    }
    const Result<Scenario> at = parse(scenario(bound));
    QVERIFY2(at.ok(), errorText(at));
    QCOMPARE(parse(scenario(0)).ok(), zero_allowed);
}

void TestScenarioIo::calibrationPath()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("profiles")));
    const QString profile = dir.filePath(QStringLiteral("profiles/h200.json"));
    QFile file(profile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // The smallest valid profile (spec/profile.md); tst_profile_io tests profiles themselves.
    file.write(R"({ "scalescope_profile": 1, "created": "2026-11-30T10:00:00Z", "tool": "t",
                    "host": { "hostname": "h", "gpus_per_node": 1, "nodes": 1 } })");
    file.close();

    // Relative to baseDir.
    const QByteArray relative = training({{"hardware.calibration", "profiles/h200.json"}});
    const Result<Scenario> parsed = parseScenario(relative, catalog_, dir.path());
    QVERIFY2(parsed.ok(), errorText(parsed));
    QCOMPARE(QString::fromStdString(parsed.value().hardware.calibration_path), profile);
    // Without baseDir, the relative path does not resolve.
    QVERIFY(!parse(relative).ok());
    // Absolute paths stay as they are.
    const Scenario absolute = parseOk(training({{"hardware.calibration", profile}}));
    QCOMPARE(QString::fromStdString(absolute.hardware.calibration_path), profile);
    // Files resolve relative paths against their own folder.
    const QString scenarioPath = dir.filePath(QStringLiteral("s.json"));
    QFile scenario(scenarioPath);
    QVERIFY(scenario.open(QIODevice::WriteOnly));
    scenario.write(relative);
    scenario.close();
    const Result<Scenario> loaded = loadScenarioFile(scenarioPath, catalog_);
    QVERIFY2(loaded.ok(), errorText(loaded));
    QCOMPARE(QString::fromStdString(loaded.value().hardware.calibration_path), profile);
    // A folder is not a profile.
    QVERIFY(!parseScenario(training({{"hardware.calibration", "profiles"}}), catalog_, dir.path())
                 .ok());
}

void TestScenarioIo::loadErrors()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    const QString missing = dir.filePath(QStringLiteral("missing.json"));
    Result<Scenario> result = loadScenarioFile(missing, catalog_);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().path, std::string());
    QVERIFY2(QString::fromStdString(result.error().message).contains(missing), errorText(result));

    result = loadScenarioFile(dir.path(), catalog_);
    QVERIFY(!result.ok());
    QVERIFY2(QString::fromStdString(result.error().message).contains(dir.path()),
             errorText(result));

    const QString large = dir.filePath(QStringLiteral("large.json"));
    QFile file(large);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize(kMaxScenarioFileBytes + 1));
    file.close();
    result = loadScenarioFile(large, catalog_);
    QVERIFY(!result.ok());
    QVERIFY2(QString::fromStdString(result.error().message)
                 .contains(QString::number(kMaxScenarioFileBytes)),
             errorText(result));

    // Parse errors of a file keep their key path.
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile badFile(bad);
    QVERIFY(badFile.open(QIODevice::WriteOnly));
    badFile.write(training({{"parallel.pipline", 2}}));
    badFile.close();
    result = loadScenarioFile(bad, catalog_);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().path, std::string("parallel.pipline"));
}

void TestScenarioIo::saveAndLoad()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Scenario original = parseOk(kInlineScenario);
    const QString path = dir.filePath(QStringLiteral("saved.json"));
    QString error;
    QVERIFY2(saveScenarioFile(path, original, &error), qPrintable(error));
    const Result<Scenario> loaded = loadScenarioFile(path, catalog_);
    QVERIFY2(loaded.ok(), errorText(loaded));
    compareScenarios(loaded.value(), original);

    const QString unwritable = dir.filePath(QStringLiteral("no/such/folder/s.json"));
    QVERIFY(!saveScenarioFile(unwritable, original, &error));
    QVERIFY2(error.contains(unwritable), qPrintable(error));
    QVERIFY(!saveScenarioFile(unwritable, original, nullptr));
}

void TestScenarioIo::writerOutput()
{
    const QByteArray written = writeScenario(parseOk(kTrainingScenario));
    // Keys in the order of the spec, starting with the format version.
    QVERIFY2(written.startsWith("{\n    \"scalescope\": 1,\n    \"name\": \"base\",\n    "
                                "\"hardware\": {\n        \"gpu\": \"gpu-a\","),
             written.constData());
    QVERIFY(written.indexOf("\"hardware\"") < written.indexOf("\"model\""));
    QVERIFY(written.indexOf("\"model\"") < written.indexOf("\"training\""));
    QVERIFY(written.indexOf("\"training\"") < written.indexOf("\"parallel\""));
    QVERIFY(written.indexOf("\"layers\"") < written.indexOf("\"hidden\""));
    // No effects when there are none, and no host keys at their defaults.
    QVERIFY(!written.contains("\"effects\""));
    QVERIFY(!written.contains("\"pcie_topology\""));
    QVERIFY(!written.contains("\"host_memory_gbps\""));
    const QJsonObject host =
        QJsonDocument::fromJson(
            writeScenario(parseOk(training({{"hardware.pcie_topology", "root_ports"},
                                            {"hardware.host_memory_gbps", 460.8}}))))
            .object()[u"hardware"]
            .toObject();
    QCOMPARE(host[u"pcie_topology"].toString(), QStringLiteral("root_ports"));
    QCOMPARE(host[u"host_memory_gbps"].toDouble(), 460.8);

    // Only the effects that differ from the defaults.
    const QByteArray jittered = writeScenario(parseOk(training({{"effects.jitter", 0.1}})));
    const QJsonObject effects = QJsonDocument::fromJson(jittered).object()[u"effects"].toObject();
    QCOMPARE(effects.keys(), QStringList{QStringLiteral("jitter")});

    // Catalog entries by id, inline ones in full.
    const QJsonObject inlined =
        QJsonDocument::fromJson(writeScenario(parseOk(kInlineScenario))).object();
    QVERIFY(inlined[u"hardware"][u"gpu"].isObject());
    QVERIFY(inlined[u"model"][u"custom"].isObject());
    const QJsonObject collective =
        QJsonDocument::fromJson(writeScenario(parseOk(kCollectiveScenario))).object();
    QCOMPARE(collective[u"hardware"][u"intra_node"].toString(), QStringLiteral("nvlink-t"));
    QVERIFY(!collective.contains(u"model"));
    QVERIFY(!collective.contains(u"training"));
    QVERIFY(!collective.contains(u"parallel"));
}

void TestScenarioIo::roundTrip_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("builtin");

    QTest::newRow("training") << QByteArray(kTrainingScenario) << false;
    QTest::newRow("defaults") << QByteArray(R"({ "scalescope": 1, "hardware": { "gpu": "gpu-h" },
        "model": "gpt-test", "training": { "global_batch": 8 } })")
                              << false;
    QTest::newRow("inline") << QByteArray(kInlineScenario) << false;
    QTest::newRow("collective") << QByteArray(kCollectiveScenario) << false;
    QTest::newRow("layer table") << training({{"model", "cnn-test"}}) << false;
    QTest::newRow("inline transformer") << training({{"model.name", "mine"},
                                                     {"model.transformer.kv_heads", 4},
                                                     {"model.transformer.gated_mlp", true},
                                                     {"model.transformer.tied_embeddings", false},
                                                     {"effects.seed", 0},
                                                     {"effects.thermal", QJsonObject()}})
                                        << false;
    QTest::newRow("span head") << training({{"model.name", "bert squad"},
                                            {"model.transformer.causal", false},
                                            {"model.transformer.head", "span"}})
                               << false;
    QTest::newRow("host behind no-P2P GPUs") << training({{"hardware.pcie_topology", "root_ports"},
                                                          {"hardware.host_memory_gbps", 460.8}})
                                              << false;
    QTest::newRow("issue 25 keys")
        << training({{"hardware.power_limit_w", 300},
                     {"hardware.cpu_cores", 96},
                     {"training.compile", true},
                     {"parallel.tp_overlap", true}})
        << false;
    QTest::newRow("channels first")
        << training({{"model", "cnn-test"}, {"training.memory_format", "nchw"}}) << false;
    QTest::newRow("fp8 current scaling") << training({{"hardware.gpu", "gpu-h"},
                                                      {"training.precision", "fp8"},
                                                      {"training.fp8_recipe", "current"}})
                                         << false;
    QTest::newRow("loader pipeline")
        << training({{"model", "cnn-test"},
                     {"effects.data_loader",
                      QJsonObject{{"workers_per_gpu", 6}, {"pipeline", "dali-cpu"}}}})
        << false;
    QTest::newRow("awkward numbers") << training({{"effects.jitter", 1.0 / 3.0},
                                                  {"parallel.bucket_mb", 0.1 + 0.2},
                                                  {"effects.seed", 9007199254740992.0}})
                                     << false;

    const QDir data(testDataDir());
    for (const QString &name : data.entryList({QStringLiteral("*.json")}, QDir::Files))
        QTest::newRow(qPrintable(QStringLiteral("tests/io/data/") + name))
            << readFile(data.filePath(name)) << true;
    const QDir shared(sharedScenarioDir());
    for (const QString &name : shared.entryList({QStringLiteral("*.json")}, QDir::Files))
        QTest::newRow(qPrintable(name)) << readFile(shared.filePath(name)) << true;
}

void TestScenarioIo::roundTrip()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, builtin);
    if (builtin)
        QVERIFY2(builtin_, qPrintable(builtinError_));
    const Catalog &catalog = builtin ? *builtin_ : catalog_;
    const Result<Scenario> first = parseScenario(json, catalog);
    QVERIFY2(first.ok(), errorText(first));
    const QByteArray written = writeScenario(first.value());
    const Result<Scenario> second = parseScenario(written, catalog);
    QVERIFY2(second.ok(), qPrintable(QString::fromUtf8(errorText(second)) + QLatin1Char('\n') +
                                     QString::fromUtf8(written)));
    compareScenarios(second.value(), first.value());
    // Writing is stable.
    QCOMPARE(writeScenario(second.value()), written);
}

void TestScenarioIo::validationScenarios_data()
{
    QTest::addColumn<QString>("path");
    const QDir shared(sharedScenarioDir());
    const QStringList names = shared.entryList({QStringLiteral("*.json")}, QDir::Files);
    QVERIFY2(!names.isEmpty(), qPrintable(sharedScenarioDir()));
    for (const QString &name : names)
        QTest::newRow(qPrintable(name)) << shared.filePath(name);
}

void TestScenarioIo::validationScenarios()
{
    QFETCH(QString, path);
    QVERIFY2(builtin_, qPrintable(builtinError_));
    const Result<Scenario> result = loadScenarioFile(path, *builtin_);
    QVERIFY2(result.ok(), errorText(result));
    const Scenario &s = result.value();
    if (!s.isCollective()) {
        QCOMPARE(int64_t(s.parallel.data) * s.parallel.tensor * s.parallel.pipeline,
                 int64_t(s.hardware.gpuCount()));
        QCOMPARE(s.training.global_batch % (s.training.micro_batch * s.parallel.data), int64_t(0));
    }
}

QTEST_GUILESS_MAIN(TestScenarioIo)
#include "tst_scenario_io.moc"
