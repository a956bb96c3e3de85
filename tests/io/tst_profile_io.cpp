// Calibration profiles (spec/profile.md): parsing, key-path errors, writing, and profiles
// referenced from scenarios.
#include "io/catalog_io.h"
#include "io/profile_io.h"
#include "io/scenario_io.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <utility>
#include <variant>
#include <vector>

using namespace scalescope;

namespace
{

QString profileDir()
{
    return QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/io/data/profiles");
}

QString profileFile(const char *name)
{
    return profileDir() + QLatin1Char('/') + QLatin1String(name);
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

const char *errorText(const Result<CalibrationProfile> &result)
{
    static std::string text;
    text = result.ok() ? std::string("parsed") : result.error().toString();
    return text.c_str();
}

// ---------------------------------------------------------------------------------------
// Patching documents at key paths such as "gpus[0].gemm_tflops.bf16[2].tflops".

using Step = std::variant<QString, qsizetype>;

std::vector<Step> stepsOf(const QString &path)
{
    std::vector<Step> steps;
    static const QRegularExpression kToken(QStringLiteral("([^.\\[\\]]+)|\\[(\\d+)\\]"));
    auto it = kToken.globalMatch(path);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        if (match.hasCaptured(1))
            steps.emplace_back(match.captured(1));
        else
            steps.emplace_back(match.captured(2).toLongLong());
    }
    return steps;
}

/// Sets the value at `steps` (creating objects on the way); an undefined value removes it.
QJsonValue patched(QJsonValue node, const std::vector<Step> &steps, size_t at,
                   const QJsonValue &value)
{
    if (at == steps.size())
        return value;
    if (const QString *key = std::get_if<QString>(&steps[at])) {
        QJsonObject object = node.toObject();
        if (at + 1 == steps.size() && value.isUndefined())
            object.remove(*key);
        else
            object.insert(*key, patched(object.value(*key), steps, at + 1, value));
        return object;
    }
    const qsizetype index = std::get<qsizetype>(steps[at]);
    QJsonArray array = node.toArray();
    if (at + 1 == steps.size() && value.isUndefined())
        array.removeAt(index);
    else
        array.replace(index, patched(array.at(index), steps, at + 1, value));
    return array;
}

using Patches = std::initializer_list<std::pair<const char *, QJsonValue>>;

QByteArray with(const QByteArray &base, Patches patches)
{
    QJsonValue root = QJsonDocument::fromJson(base).object();
    for (const auto &[path, value] : patches)
        root = patched(root, stepsOf(QString::fromUtf8(path)), 0, value);
    return QJsonDocument(root.toObject()).toJson(QJsonDocument::Compact);
}

const QJsonValue kRemove = QJsonValue(QJsonValue::Undefined);

QByteArray h200(Patches patches = {})
{
    static const QByteArray base = readFile(profileFile("h200-1gpu.json"));
    return with(base, patches);
}

QByteArray cluster(Patches patches = {})
{
    static const QByteArray base = readFile(profileFile("h100-2node-8gpu.json"));
    return with(base, patches);
}

// ---------------------------------------------------------------------------------------
// Field-by-field comparison, exact for numbers (the writer must not round).

#define COMPARE_EXACT(actual, expected)                                                            \
    do {                                                                                           \
        if (!((actual) == (expected)))                                                             \
            QFAIL(qPrintable(QStringLiteral("%1: %2 != %3")                                        \
                                 .arg(QStringLiteral(#actual))                                     \
                                 .arg(double(actual), 0, 'g', 17)                                  \
                                 .arg(double(expected), 0, 'g', 17)));                             \
    } while (false)

void compareGpus(const ProfileGpu &a, const ProfileGpu &b)
{
    QCOMPARE(a.index, b.index);
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.uuid, b.uuid);
    QCOMPARE(a.pci_bus_id, b.pci_bus_id);
    QCOMPARE(a.compute_capability, b.compute_capability);
    QCOMPARE(a.sm_count, b.sm_count);
    COMPARE_EXACT(a.memory_bytes, b.memory_bytes);
    for (size_t p = 0; p < a.gemm_tflops.size(); ++p) {
        QCOMPARE(a.gemm_tflops[p].size(), b.gemm_tflops[p].size());
        for (size_t i = 0; i < a.gemm_tflops[p].size(); ++i) {
            const ProfileGemmPoint &x = a.gemm_tflops[p][i], &y = b.gemm_tflops[p][i];
            COMPARE_EXACT(x.m, y.m);
            COMPARE_EXACT(x.n, y.n);
            COMPARE_EXACT(x.k, y.k);
            COMPARE_EXACT(x.tflops, y.tflops);
        }
    }
    COMPARE_EXACT(a.memory_bandwidth_gbps, b.memory_bandwidth_gbps);
    COMPARE_EXACT(a.h2d_pinned_gbps, b.h2d_pinned_gbps);
    COMPARE_EXACT(a.h2d_pageable_gbps, b.h2d_pageable_gbps);
    COMPARE_EXACT(a.d2h_pinned_gbps, b.d2h_pinned_gbps);
    COMPARE_EXACT(a.d2h_pageable_gbps, b.d2h_pageable_gbps);
    COMPARE_EXACT(a.launch_overhead_us, b.launch_overhead_us);
    COMPARE_EXACT(a.host_launch_us, b.host_launch_us);
    COMPARE_EXACT(a.sync_round_trip_us, b.sync_round_trip_us);
    COMPARE_EXACT(a.thermal_duration_s, b.thermal_duration_s);
    QCOMPARE(a.thermal_samples.size(), b.thermal_samples.size());
    for (size_t i = 0; i < a.thermal_samples.size(); ++i) {
        const ProfileThermalSample &x = a.thermal_samples[i], &y = b.thermal_samples[i];
        COMPARE_EXACT(x.t_s, y.t_s);
        COMPARE_EXACT(x.sm_clock_mhz, y.sm_clock_mhz);
        COMPARE_EXACT(x.temperature_c, y.temperature_c);
        COMPARE_EXACT(x.power_w, y.power_w);
        QCOMPARE(x.throttle, y.throttle);
    }
}

void compareNotes(const std::vector<ProfileNote> &a, const std::vector<ProfileNote> &b)
{
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].test, b[i].test);
        QCOMPARE(a[i].text, b[i].text);
    }
}

void compareProfiles(const CalibrationProfile &a, const CalibrationProfile &b)
{
    QCOMPARE(a.version, b.version);
    QCOMPARE(a.created, b.created);
    QCOMPARE(a.tool, b.tool);
    QCOMPARE(a.hostname, b.hostname);
    QCOMPARE(a.cpu, b.cpu);
    QCOMPARE(a.driver, b.driver);
    QCOMPARE(a.cuda_runtime, b.cuda_runtime);
    QCOMPARE(a.nccl, b.nccl);
    QCOMPARE(a.gpus_per_node, b.gpus_per_node);
    QCOMPARE(a.nodes, b.nodes);
    QCOMPARE(a.gpus.size(), b.gpus.size());
    for (size_t i = 0; i < a.gpus.size(); ++i) {
        compareGpus(a.gpus[i], b.gpus[i]);
        if (QTest::currentTestFailed())
            return;
    }
    QCOMPARE(a.p2p.size(), b.p2p.size());
    for (size_t i = 0; i < a.p2p.size(); ++i) {
        QCOMPARE(a.p2p[i].src, b.p2p[i].src);
        QCOMPARE(a.p2p[i].dst, b.p2p[i].dst);
        QCOMPARE(a.p2p[i].access, b.p2p[i].access);
        COMPARE_EXACT(a.p2p[i].bandwidth_gbps, b.p2p[i].bandwidth_gbps);
        COMPARE_EXACT(a.p2p[i].latency_us, b.p2p[i].latency_us);
    }
    QCOMPARE(a.collectives.size(), b.collectives.size());
    for (size_t i = 0; i < a.collectives.size(); ++i) {
        const ProfileCollective &x = a.collectives[i], &y = b.collectives[i];
        QCOMPARE(x.op, y.op);
        QCOMPARE(x.gpus, y.gpus);
        QCOMPARE(x.nodes, y.nodes);
        COMPARE_EXACT(x.bytes, y.bytes);
        COMPARE_EXACT(x.time_s, y.time_s);
        COMPARE_EXACT(x.algbw_gbps, y.algbw_gbps);
        COMPARE_EXACT(x.busbw_gbps, y.busbw_gbps);
    }
    QCOMPARE(a.framework_host.size(), b.framework_host.size());
    for (size_t i = 0; i < a.framework_host.size(); ++i) {
        QCOMPARE(a.framework_host[i].framework, b.framework_host[i].framework);
        COMPARE_EXACT(a.framework_host[i].op_us, b.framework_host[i].op_us);
    }
    compareNotes(a.skipped, b.skipped);
    compareNotes(a.errors, b.errors);
}

/// Every field set, with numbers that need all 17 digits and strings that need escaping.
CalibrationProfile syntheticProfile()
{
    CalibrationProfile p;
    p.created = "2027-01-02T03:04:05.678Z";
    p.tool = "hand-made \"test\" \\ profile";
    p.hostname = "nœud-α";
    p.cpu = "CPU";
    p.driver = "1.2";
    p.cuda_runtime = "3.4";
    p.nccl = "5.6.7";
    p.gpus_per_node = 2;
    p.nodes = 3;

    ProfileGpu full;
    full.index = 1;
    full.name = "GPU\twith tab";
    full.uuid = "GPU-x";
    full.pci_bus_id = "0000:01:00.0";
    full.compute_capability = "10.0";
    full.sm_count = 148;
    full.memory_bytes = double(int64_t(1) << 50);
    for (size_t d = 0; d < full.gemm_tflops.size(); ++d)
        full.gemm_tflops[d] = {{1, 1, 1, 1e-9}, {10000000, 3, 77, 0.1 + 0.2 + double(d)}};
    full.memory_bandwidth_gbps = 1e6;
    full.h2d_pinned_gbps = 0.1 + 0.2;
    full.h2d_pageable_gbps = 1.0 / 3.0;
    full.d2h_pinned_gbps = 2.0 / 3.0;
    full.d2h_pageable_gbps = 1e-300;
    full.launch_overhead_us = 4.000000000000001;
    full.host_launch_us = 2.0 / 7.0;
    full.sync_round_trip_us = 9999.999999999998;
    full.thermal_duration_s = 1e-3;
    full.thermal_samples = {{0, 0, -50, 0, {}},
                            {0.5, 10000, 149.99999999999997, 10000, {"a", "b", "sw_power_cap"}}};
    p.gpus.push_back(full);
    ProfileGpu bare; // only what is required
    bare.index = 0;
    bare.name = "bare";
    p.gpus.push_back(bare);

    p.p2p = {{1, 0, false, 0, 0}, {0, 1, true, 123456.789, 1e-6}};
    p.collectives = {{"all_to_all", 131072, 65536, 1e13, 1e-7, 0, 1e6},
                     {"broadcast", 3, 1, 1, 1e6, 123.456, 0.001}};
    p.framework_host = {{"megatron-deepspeed", 31.000000000000004}, {"pytorch-ddp", 1e-6}};
    p.skipped = {{"p2p", "no \"second\" GPU\n(really)"}};
    p.errors = {{"gemm.fp8", ""}};
    return p;
}

// A small catalog for scenarios that reference profiles.
const char *kTestCatalog = R"({ "scalescope_catalog": 1,
  "gpus": [
    { "id": "gpu-h", "name": "GPU H", "family": "hopper",
      "peak_tflops": { "fp32": 67, "tf32": 494, "fp16": 989, "bf16": 989, "fp8": 1979 },
      "memory_gb": 141, "memory_bandwidth_gbps": 4800, "tdp_w": 700, "source": "s" } ],
  "intra_node": [
    { "id": "pcie4", "name": "PCIe 4.0 x16", "kind": "pcie", "bandwidth_gbps": 31.5,
      "latency_us": 3, "switched": true, "source": "s" } ],
  "inter_node": [
    { "id": "ib-hdr-200", "name": "IB HDR", "kind": "infiniband", "line_rate_gbit": 200,
      "latency_us": 5, "source": "s" } ] })";

QByteArray scenarioWithProfile(const QString &calibration)
{
    return QStringLiteral(R"({ "scalescope": 1,
  "hardware": { "gpu": "gpu-h", "gpus_per_node": 1, "calibration": "%1" },
  "collective": { "op": "all_reduce", "bytes": 1048576 } })")
        .arg(calibration)
        .toUtf8();
}

} // namespace

class TestProfileIo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void h200Profile();
    void clusterProfile();
    void noGpuProfile();
    void optionalPartsMissing();
    void xKeysAccepted();
    void errors_data();
    void errors();
    void deepNesting();
    void loadErrors();
    void roundTrip_data();
    void roundTrip();
    void writerLayout();
    void saveAndLoad();
    void scenarioReferencesProfile();
    void scenarioReferencesBrokenProfile();

private:
    Catalog catalog_;
};

void TestProfileIo::initTestCase()
{
    QVERIFY2(QFile::exists(profileFile("h200-1gpu.json")), qPrintable(profileDir()));
    const Result<bool> parsed = parseCatalogInto(catalog_, kTestCatalog, QStringLiteral("test"));
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().toString().c_str());
}

void TestProfileIo::h200Profile()
{
    const QString file = profileFile("h200-1gpu.json");
    const Result<CalibrationProfile> loaded = loadProfileFile(file);
    QVERIFY2(loaded.ok(), errorText(loaded));
    const CalibrationProfile &p = loaded.value();
    QCOMPARE(QString::fromStdString(p.path), QFileInfo(file).absoluteFilePath());
    QCOMPARE(p.version, 1);
    QCOMPARE(p.created, std::string("2026-11-30T10:00:00Z"));
    QCOMPARE(p.tool, std::string("gpuprobe 0.1.0"));
    QCOMPARE(p.hostname, std::string("lab-h200-01"));
    QCOMPARE(p.driver, std::string("580.159"));
    QCOMPARE(p.cuda_runtime, std::string("13.0"));
    QCOMPARE(p.nccl, std::string("2.27.3"));
    QCOMPARE(p.gpus_per_node, 1);
    QCOMPARE(p.nodes, 1);

    QCOMPARE(p.gpus.size(), size_t(1));
    const ProfileGpu &g = p.gpus.front();
    QCOMPARE(g.index, 0);
    QCOMPARE(g.name, std::string("NVIDIA H200"));
    QCOMPARE(g.compute_capability, std::string("9.0"));
    QCOMPARE(g.sm_count, 132);
    COMPARE_EXACT(g.memory_bytes, 150754820096.0);
    // Every dtype, 256^3 .. 16384^3, at the index of its Precision.
    for (int d = 0; d < kPrecisionCount; ++d) {
        const auto &points = g.gemm_tflops[static_cast<size_t>(d)];
        QCOMPARE(points.size(), size_t(8));
        COMPARE_EXACT(points.front().m, 256.0);
        COMPARE_EXACT(points.back().k, 16384.0);
        for (size_t i = 1; i < points.size(); ++i)
            QVERIFY(points[i].m > points[i - 1].m);
    }
    const auto &bf16 = g.gemm_tflops[static_cast<size_t>(Precision::BF16)];
    COMPARE_EXACT(bf16[2].m, 1024.0);
    COMPARE_EXACT(bf16[2].tflops, 181.6);
    COMPARE_EXACT(g.gemm_tflops[static_cast<size_t>(Precision::FP32)][7].tflops, 51.3);
    COMPARE_EXACT(g.gemm_tflops[static_cast<size_t>(Precision::TF32)][7].tflops, 368.2);
    COMPARE_EXACT(g.gemm_tflops[static_cast<size_t>(Precision::FP16)][7].tflops, 731.6);
    COMPARE_EXACT(g.gemm_tflops[static_cast<size_t>(Precision::FP8)][6].tflops, 1381.4);
    COMPARE_EXACT(g.memory_bandwidth_gbps, 4298.6);
    COMPARE_EXACT(g.h2d_pinned_gbps, 55.1);
    COMPARE_EXACT(g.h2d_pageable_gbps, 20.3);
    COMPARE_EXACT(g.d2h_pinned_gbps, 55.4);
    COMPARE_EXACT(g.d2h_pageable_gbps, 18.9);
    COMPARE_EXACT(g.launch_overhead_us, 4.0);
    COMPARE_EXACT(g.thermal_duration_s, 60.0);
    QCOMPARE(g.thermal_samples.size(), size_t(8));
    QVERIFY(g.thermal_samples.front().throttle.empty());
    QCOMPARE(g.thermal_samples.back().throttle, std::vector<std::string>{"sw_power_cap"});
    COMPARE_EXACT(g.thermal_samples.back().t_s, 60.0);

    QVERIFY(p.p2p.empty());
    QCOMPARE(p.collectives.size(), size_t(4));
    for (const ProfileCollective &c : p.collectives) {
        QCOMPARE(c.op, std::string("all_reduce"));
        QCOMPARE(c.gpus, 1);
        QCOMPARE(c.nodes, 1);
        COMPARE_EXACT(c.busbw_gbps, 0.0);
    }
    COMPARE_EXACT(p.collectives.back().bytes, 1073741824.0);
    QCOMPARE(p.skipped.size(), size_t(2));
    QCOMPARE(p.skipped.front().test, std::string("p2p"));
    QCOMPARE(p.skipped.front().text, std::string("one GPU only"));
    QVERIFY(p.errors.empty());
}

void TestProfileIo::clusterProfile()
{
    const Result<CalibrationProfile> loaded = loadProfileFile(profileFile("h100-2node-8gpu.json"));
    QVERIFY2(loaded.ok(), errorText(loaded));
    const CalibrationProfile &p = loaded.value();
    QCOMPARE(p.nodes, 2);
    QCOMPARE(p.gpus_per_node, 8);
    QCOMPARE(p.gpus.size(), size_t(8));
    for (size_t i = 0; i < p.gpus.size(); ++i) {
        QCOMPARE(p.gpus[i].index, int(i));
        QCOMPARE(p.gpus[i].gemm_tflops[static_cast<size_t>(Precision::BF16)].size(), size_t(4));
        QVERIFY(p.gpus[i].gemm_tflops[static_cast<size_t>(Precision::FP8)].empty());
        QVERIFY(p.gpus[i].thermal_samples.empty());
    }
    QCOMPARE(p.p2p.size(), size_t(56));
    for (const ProfileP2P &link : p.p2p) {
        QVERIFY(link.access);
        QVERIFY(link.src != link.dst);
        QVERIFY(link.bandwidth_gbps > 300);
    }
    QCOMPARE(p.collectives.size(), size_t(40));
    double smallest = 1e300, largest = 0;
    int crossNode = 0;
    for (const ProfileCollective &c : p.collectives) {
        smallest = std::min(smallest, c.bytes);
        largest = std::max(largest, c.bytes);
        if (c.nodes == 2) {
            QCOMPARE(c.gpus, 16);
            ++crossNode;
        }
    }
    COMPARE_EXACT(smallest, 8.0);
    COMPARE_EXACT(largest, 1073741824.0);
    QCOMPARE(crossNode, 30);
    QCOMPARE(p.collectives[10].op, std::string("all_reduce"));
    QCOMPARE(p.collectives[20].op, std::string("all_gather"));
    QCOMPARE(p.collectives[30].op, std::string("reduce_scatter"));
    QCOMPARE(p.skipped.size(), size_t(1));
    QCOMPARE(p.errors.size(), size_t(1));
    QCOMPARE(p.errors.front().test, std::string("gemm.fp8"));
    QVERIFY(p.created.find("+01:00") != std::string::npos);
}

void TestProfileIo::noGpuProfile()
{
    const Result<CalibrationProfile> loaded = loadProfileFile(profileFile("no-gpu.json"));
    QVERIFY2(loaded.ok(), errorText(loaded));
    const CalibrationProfile &p = loaded.value();
    QVERIFY(p.gpus.empty());
    QVERIFY(p.p2p.empty());
    QVERIFY(p.collectives.empty());
    QVERIFY(p.errors.empty());
    QCOMPARE(p.skipped.size(), size_t(2));
    QCOMPARE(p.gpus_per_node, 0);
    QVERIFY(p.driver.empty());
    QVERIFY(p.nccl.empty());
}

void TestProfileIo::optionalPartsMissing()
{
    // Only the required keys.
    const QByteArray minimal = R"({ "scalescope_profile": 1, "created": "2026-11-30T10:00:00Z",
        "tool": "t", "host": { "hostname": "h", "gpus_per_node": 1, "nodes": 1 },
        "gpus": [ { "index": 0, "name": "G" } ] })";
    const Result<CalibrationProfile> parsed = parseProfile(minimal);
    QVERIFY2(parsed.ok(), errorText(parsed));
    const ProfileGpu &g = parsed.value().gpus.front();
    for (const auto &points : g.gemm_tflops)
        QVERIFY(points.empty());
    COMPARE_EXACT(g.memory_bandwidth_gbps, 0.0);
    COMPARE_EXACT(g.launch_overhead_us, 0.0);
    QCOMPARE(g.sm_count, 0);

    // Tests a probe may skip, each removed from the full profile.
    for (const char *key : {"gpus[0].gemm_tflops",
                            "gpus[0].gemm_tflops.fp8",
                            "gpus[0].memory_bandwidth_gbps",
                            "gpus[0].h2d_gbps",
                            "gpus[0].d2h_gbps.pageable",
                            "gpus[0].launch_overhead_us",
                            "gpus[0].thermal",
                            "gpus[0].thermal.samples[0].throttle",
                            "gpus[0].uuid",
                            "gpus[0].pci_bus_id",
                            "gpus[0].compute_capability",
                            "gpus[0].sm_count",
                            "gpus[0].memory_bytes",
                            "gpus",
                            "p2p",
                            "collectives",
                            "collectives[0].nodes",
                            "skipped",
                            "errors",
                            "host.cpu",
                            "host.driver",
                            "host.cuda_runtime",
                            "host.nccl"}) {
        const Result<CalibrationProfile> result = parseProfile(h200({{key, kRemove}}));
        QVERIFY2(result.ok(), qPrintable(QString::fromUtf8(key) + ": " + errorText(result)));
    }
    // p2p without a measurement (no access).
    const Result<CalibrationProfile> noAccess =
        parseProfile(cluster({{"p2p[0].access", false},
                              {"p2p[0].bandwidth_gbps", kRemove},
                              {"p2p[0].latency_us", kRemove}}));
    QVERIFY2(noAccess.ok(), errorText(noAccess));
    QVERIFY(!noAccess.value().p2p.front().access);
    COMPARE_EXACT(noAccess.value().p2p.front().bandwidth_gbps, 0.0);
    // A GEMM list that is present but empty (every point failed its check).
    const Result<CalibrationProfile> emptyList =
        parseProfile(h200({{"gpus[0].gemm_tflops.fp8", QJsonArray()}}));
    QVERIFY2(emptyList.ok(), errorText(emptyList));
    QVERIFY(emptyList.value().gpus.front().gemm_tflops[4].empty());
}

void TestProfileIo::xKeysAccepted()
{
    const QJsonValue extra = QJsonObject{{"anything", QJsonArray{1, "two", QJsonObject{}}}};
    const QByteArray json = h200({{"x-top", extra},
                                  {"host.x-rack", "B7"},
                                  {"gpus[0].x-bios", "96.00.99"},
                                  {"gpus[0].gemm_tflops.x-fp4", QJsonArray{1, 2}},
                                  {"gpus[0].gemm_tflops.bf16[0].x-reps", 50},
                                  {"gpus[0].h2d_gbps.x-numa", 0},
                                  {"gpus[0].thermal.x-interval_s", 0.5},
                                  {"gpus[0].thermal.samples[1].x-fan", 80},
                                  {"collectives[0].x-algorithm", "ring"},
                                  {"skipped[0].x-code", 3}});
    const Result<CalibrationProfile> parsed = parseProfile(json);
    QVERIFY2(parsed.ok(), errorText(parsed));
    const Result<CalibrationProfile> plain = parseProfile(h200());
    QVERIFY2(plain.ok(), errorText(plain));
    compareProfiles(parsed.value(), plain.value());
    // The data file carries x- keys of its own.
    QVERIFY(h200().contains("x-probe-notes"));
}

void TestProfileIo::errors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("contains");

    // The document.
    QTest::newRow("not JSON") << QByteArray("{ \"scalescope_profile\": 1,") << ""
                              << "not valid JSON";
    QTest::newRow("empty") << QByteArray() << ""
                           << "empty";
    QTest::newRow("blank") << QByteArray(" \n ") << ""
                           << "empty";
    QTest::newRow("array") << QByteArray("[]") << ""
                           << "array";
    QTest::newRow("version 2") << h200({{"scalescope_profile", 2}}) << "scalescope_profile"
                               << "2; allowed: 1";
    QTest::newRow("version missing")
        << h200({{"scalescope_profile", kRemove}}) << "scalescope_profile"
        << "missing";
    QTest::newRow("version string") << h200({{"scalescope_profile", "1"}}) << "scalescope_profile"
                                    << "\"1\"";
    QTest::newRow("scenario file") << QByteArray(R"({ "scalescope": 1 })") << "scalescope_profile"
                                   << "missing";

    // Unknown keys.
    QTest::newRow("unknown top key") << h200({{"gpu_list", QJsonArray()}}) << "gpu_list"
                                     << "unknown key";
    QTest::newRow("unknown host key") << h200({{"host.os", "linux"}}) << "host.os"
                                      << "hostname";
    QTest::newRow("unknown gpu key") << h200({{"gpus[0].memory_bw", 1}}) << "gpus[0].memory_bw"
                                     << "memory_bandwidth_gbps";
    QTest::newRow("unknown point key")
        << h200({{"gpus[0].gemm_tflops.bf16[2].flops", 1}}) << "gpus[0].gemm_tflops.bf16[2].flops"
        << "m, n, k, tflops";
    QTest::newRow("unknown thermal key")
        << h200({{"gpus[0].thermal.samples[3].fan", 1}}) << "gpus[0].thermal.samples[3].fan"
        << "unknown key";
    QTest::newRow("unknown copy key")
        << h200({{"gpus[0].h2d_gbps.mapped", 1}}) << "gpus[0].h2d_gbps.mapped"
        << "pinned, pageable";
    QTest::newRow("unknown collective key")
        << h200({{"collectives[1].algo", "ring"}}) << "collectives[1].algo"
        << "unknown key";
    QTest::newRow("unknown p2p key") << cluster({{"p2p[5].hops", 1}}) << "p2p[5].hops"
                                     << "unknown key";
    QTest::newRow("unknown skipped key") << h200({{"skipped[0].why", "x"}}) << "skipped[0].why"
                                         << "test, reason";
    QTest::newRow("error with reason") << cluster({{"errors[0].reason", "x"}}) << "errors[0].reason"
                                       << "test, message";
    QTest::newRow("X- is not x-") << h200({{"X-top", 1}}) << "X-top"
                                  << "unknown key";

    // Dtype keys.
    QTest::newRow("dtype fp64") << h200({{"gpus[0].gemm_tflops.fp64", QJsonArray()}})
                                << "gpus[0].gemm_tflops.fp64"
                                << "fp32, tf32, fp16, bf16, fp8";
    QTest::newRow("dtype BF16") << h200({{"gpus[0].gemm_tflops.BF16", QJsonArray()}})
                                << "gpus[0].gemm_tflops.BF16"
                                << "unknown key";
    QTest::newRow("dtype not a list")
        << h200({{"gpus[0].gemm_tflops.bf16", 700}}) << "gpus[0].gemm_tflops.bf16"
        << "expected an array";

    // GEMM points.
    QTest::newRow("tflops string") << h200({{"gpus[0].gemm_tflops.bf16[2].tflops", "fast"}})
                                   << "gpus[0].gemm_tflops.bf16[2].tflops"
                                   << "expected a number, got \"fast\"";
    QTest::newRow("tflops 0") << h200({{"gpus[0].gemm_tflops.bf16[2].tflops", 0}})
                              << "gpus[0].gemm_tflops.bf16[2].tflops"
                              << "> 0 and <= 100000";
    QTest::newRow("tflops negative") << h200({{"gpus[0].gemm_tflops.fp32[0].tflops", -3}})
                                     << "gpus[0].gemm_tflops.fp32[0].tflops"
                                     << "-3 is out of range";
    QTest::newRow("tflops 2e5") << h200({{"gpus[0].gemm_tflops.fp8[7].tflops", 2e5}})
                                << "gpus[0].gemm_tflops.fp8[7].tflops"
                                << "200000 is out of range";
    QTest::newRow("tflops null") << h200({{"gpus[0].gemm_tflops.tf32[1].tflops", QJsonValue()}})
                                 << "gpus[0].gemm_tflops.tf32[1].tflops"
                                 << "got null";
    QTest::newRow("tflops missing") << h200({{"gpus[0].gemm_tflops.fp16[4].tflops", kRemove}})
                                    << "gpus[0].gemm_tflops.fp16[4].tflops"
                                    << "missing";
    QTest::newRow("m 0") << h200({{"gpus[0].gemm_tflops.bf16[0].m", 0}})
                         << "gpus[0].gemm_tflops.bf16[0].m"
                         << "1 to 10000000";
    QTest::newRow("n 1.5") << h200({{"gpus[0].gemm_tflops.bf16[0].n", 1.5}})
                           << "gpus[0].gemm_tflops.bf16[0].n"
                           << "expected a whole number, got 1.5";
    QTest::newRow("k 2e7") << h200({{"gpus[0].gemm_tflops.bf16[0].k", 2e7}})
                           << "gpus[0].gemm_tflops.bf16[0].k"
                           << "20000000 is out of range";
    QTest::newRow("point not object")
        << h200({{"gpus[0].gemm_tflops.bf16[3]", 7}}) << "gpus[0].gemm_tflops.bf16[3]"
        << "expected an object";

    // GPU fields.
    QTest::newRow("gpus object") << h200({{"gpus", QJsonObject()}}) << "gpus"
                                 << "expected an array";
    QTest::newRow("gpu not object") << h200({{"gpus[0]", "H200"}}) << "gpus[0]"
                                    << "expected an object";
    QTest::newRow("gpu name missing") << h200({{"gpus[0].name", kRemove}}) << "gpus[0].name"
                                      << "missing";
    QTest::newRow("gpu name empty") << h200({{"gpus[0].name", ""}}) << "gpus[0].name"
                                    << "empty";
    QTest::newRow("gpu index missing") << h200({{"gpus[0].index", kRemove}}) << "gpus[0].index"
                                       << "missing";
    QTest::newRow("gpu index -1") << h200({{"gpus[0].index", -1}}) << "gpus[0].index"
                                  << "0 to 1023";
    QTest::newRow("gpu index twice") << cluster({{"gpus[3].index", 1}}) << "gpus[3].index"
                                     << "twice";
    QTest::newRow("compute capability 9")
        << h200({{"gpus[0].compute_capability", "9"}}) << "gpus[0].compute_capability"
        << "major.minor";
    QTest::newRow("compute capability number")
        << h200({{"gpus[0].compute_capability", 9.0}}) << "gpus[0].compute_capability"
        << "expected a string";
    QTest::newRow("sm_count 0") << h200({{"gpus[0].sm_count", 0}}) << "gpus[0].sm_count"
                                << "out of range";
    QTest::newRow("memory_bytes 0") << h200({{"gpus[0].memory_bytes", 0}}) << "gpus[0].memory_bytes"
                                    << "0 is out of range";
    QTest::newRow("memory_bytes 1.5")
        << h200({{"gpus[0].memory_bytes", 1.5}}) << "gpus[0].memory_bytes"
        << "whole number";
    QTest::newRow("bandwidth negative")
        << h200({{"gpus[0].memory_bandwidth_gbps", -1}}) << "gpus[0].memory_bandwidth_gbps"
        << "0 or 1 to 1000000";
    // Issue 29: a tiny measured memory bandwidth made the step time inf.
    QTest::newRow("bandwidth 5e-324")
        << h200({{"gpus[0].memory_bandwidth_gbps", 5e-324}}) << "gpus[0].memory_bandwidth_gbps"
        << "allowed: 0 or 1 to 1000000";
    QTest::newRow("bandwidth 2e6")
        << h200({{"gpus[0].memory_bandwidth_gbps", 2e6}}) << "gpus[0].memory_bandwidth_gbps"
        << "2000000 is out of range";
    QTest::newRow("bandwidth bool")
        << h200({{"gpus[0].memory_bandwidth_gbps", true}}) << "gpus[0].memory_bandwidth_gbps"
        << "got true";
    QTest::newRow("h2d number") << h200({{"gpus[0].h2d_gbps", 55}}) << "gpus[0].h2d_gbps"
                                << "expected an object";
    QTest::newRow("d2h pinned range")
        << h200({{"gpus[0].d2h_gbps.pinned", 1e7}}) << "gpus[0].d2h_gbps.pinned"
        << "out of range";
    QTest::newRow("launch negative")
        << h200({{"gpus[0].launch_overhead_us", -4}}) << "gpus[0].launch_overhead_us"
        << "out of range";

    // Thermal.
    QTest::newRow("thermal duration 0")
        << h200({{"gpus[0].thermal.duration_s", 0}}) << "gpus[0].thermal.duration_s"
        << "> 0";
    QTest::newRow("thermal samples missing")
        << h200({{"gpus[0].thermal.samples", kRemove}}) << "gpus[0].thermal.samples"
        << "missing";
    QTest::newRow("temperature 200") << h200({{"gpus[0].thermal.samples[2].temperature_c", 200}})
                                     << "gpus[0].thermal.samples[2].temperature_c"
                                     << "-50 to 150";
    QTest::newRow("temperature -60") << h200({{"gpus[0].thermal.samples[2].temperature_c", -60}})
                                     << "gpus[0].thermal.samples[2].temperature_c"
                                     << "-60 is out of range";
    QTest::newRow("clock 20000") << h200({{"gpus[0].thermal.samples[0].sm_clock_mhz", 20000}})
                                 << "gpus[0].thermal.samples[0].sm_clock_mhz"
                                 << "0 to 10000";
    QTest::newRow("power -1") << h200({{"gpus[0].thermal.samples[0].power_w", -1}})
                              << "gpus[0].thermal.samples[0].power_w"
                              << "0 to 10000";
    QTest::newRow("t_s negative") << h200({{"gpus[0].thermal.samples[0].t_s", -0.5}})
                                  << "gpus[0].thermal.samples[0].t_s"
                                  << "out of range";
    QTest::newRow("throttle not strings")
        << h200({{"gpus[0].thermal.samples[7].throttle", QJsonArray{1}}})
        << "gpus[0].thermal.samples[7].throttle[0]"
        << "expected a string";
    QTest::newRow("throttle string") << h200({{"gpus[0].thermal.samples[7].throttle", "cap"}})
                                     << "gpus[0].thermal.samples[7].throttle"
                                     << "expected an array";

    // Host and metadata.
    QTest::newRow("host missing") << h200({{"host", kRemove}}) << "host"
                                  << "missing";
    QTest::newRow("hostname missing") << h200({{"host.hostname", kRemove}}) << "host.hostname"
                                      << "missing";
    QTest::newRow("nodes 0") << h200({{"host.nodes", 0}}) << "host.nodes"
                             << "1 to 65536";
    QTest::newRow("gpus_per_node -1") << h200({{"host.gpus_per_node", -1}}) << "host.gpus_per_node"
                                      << "0 to 1024";
    QTest::newRow("driver number") << h200({{"host.driver", 580}}) << "host.driver"
                                   << "expected a string";
    QTest::newRow("created missing") << h200({{"created", kRemove}}) << "created"
                                     << "missing";
    QTest::newRow("created not a date") << h200({{"created", "yesterday"}}) << "created"
                                        << "ISO 8601";
    QTest::newRow("tool empty") << h200({{"tool", ""}}) << "tool"
                                << "empty";

    // Collectives.
    QTest::newRow("op allreduce")
        << h200({{"collectives[0].op", "allreduce"}}) << "collectives[0].op"
        << "\"allreduce\"; allowed: all_reduce, all_gather, reduce_scatter, broadcast, all_to_all";
    QTest::newRow("op number") << h200({{"collectives[0].op", 1}}) << "collectives[0].op"
                               << "expected a string";
    QTest::newRow("collective gpus 0")
        << h200({{"collectives[1].gpus", 0}}) << "collectives[1].gpus"
        << "1 to 131072";
    QTest::newRow("collective nodes 0")
        << cluster({{"collectives[0].nodes", 0}}) << "collectives[0].nodes"
        << "1 to 65536";
    QTest::newRow("collective nodes > gpus")
        << cluster({{"collectives[0].nodes", 9}}) << "collectives[0].nodes"
        << "at most the GPU count 8";
    QTest::newRow("collective bytes 0")
        << h200({{"collectives[0].bytes", 0}}) << "collectives[0].bytes"
        << "0 is out of range";
    QTest::newRow("collective bytes 2.5")
        << h200({{"collectives[0].bytes", 2.5}}) << "collectives[0].bytes"
        << "whole number";
    QTest::newRow("collective time 0")
        << h200({{"collectives[2].time_s", 0}}) << "collectives[2].time_s"
        << "> 0";
    QTest::newRow("collective time missing")
        << h200({{"collectives[2].time_s", kRemove}}) << "collectives[2].time_s"
        << "missing";
    QTest::newRow("algbw negative")
        << cluster({{"collectives[39].algbw_gbps", -1}}) << "collectives[39].algbw_gbps"
        << "0 to 1000000";
    QTest::newRow("busbw 2e6") << cluster({{"collectives[39].busbw_gbps", 2e6}})
                               << "collectives[39].busbw_gbps"
                               << "out of range";

    // Peer-to-peer.
    QTest::newRow("p2p unknown GPU") << cluster({{"p2p[0].dst", 9}}) << "p2p[0].dst"
                                     << "not the index of a GPU";
    QTest::newRow("p2p same GPU") << cluster({{"p2p[0].dst", 0}}) << "p2p[0].dst"
                                  << "same GPU";
    QTest::newRow("p2p access string") << cluster({{"p2p[2].access", "yes"}}) << "p2p[2].access"
                                       << "expected true or false";
    QTest::newRow("p2p bandwidth negative")
        << cluster({{"p2p[2].bandwidth_gbps", -1}}) << "p2p[2].bandwidth_gbps"
        << "out of range";

    // Skipped and errors.
    QTest::newRow("skipped reason missing")
        << h200({{"skipped[1].reason", kRemove}}) << "skipped[1].reason"
        << "missing";
    QTest::newRow("skipped test empty") << h200({{"skipped[0].test", ""}}) << "skipped[0].test"
                                        << "empty";
    // A stack's measured host time.
    QTest::newRow("framework_host id")
        << h200({{"framework_host", QJsonArray{QJsonObject{{"framework", "PyTorch"},
                                                            {"op_us", 10}}}}})
        << "framework_host[0].framework"
        << "not a software stack id";
    QTest::newRow("framework_host auto")
        << h200({{"framework_host", QJsonArray{QJsonObject{{"framework", "auto"},
                                                            {"op_us", 10}}}}})
        << "framework_host[0].framework"
        << "other than auto";
    QTest::newRow("framework_host zero")
        << h200({{"framework_host", QJsonArray{QJsonObject{{"framework", "pytorch-ddp"},
                                                            {"op_us", 0}}}}})
        << "framework_host[0].op_us"
        << "10000";
    QTest::newRow("framework_host twice")
        << h200({{"framework_host",
                  QJsonArray{QJsonObject{{"framework", "pytorch-ddp"}, {"op_us", 10}},
                             QJsonObject{{"framework", "pytorch-ddp"}, {"op_us", 12}}}}})
        << "framework_host[1].framework"
        << "listed twice";
    QTest::newRow("host launch negative")
        << h200({{"gpus[0].host_launch_us", -1}}) << "gpus[0].host_launch_us"
        << "allowed";
    QTest::newRow("error message number")
        << cluster({{"errors[0].message", 5}}) << "errors[0].message"
        << "expected a string";
}

void TestProfileIo::errors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    QFETCH(QString, contains);
    const Result<CalibrationProfile> result = parseProfile(json);
    QVERIFY2(!result.ok(), "parsed, but should have failed");
    const QString message = QString::fromStdString(result.error().message);
    QCOMPARE(QString::fromStdString(result.error().path), path);
    QVERIFY2(message.contains(contains), qPrintable(message));
}

void TestProfileIo::deepNesting()
{
    // Deep nesting anywhere (here under an x- key) is refused by the JSON reader, not by a
    // stack overflow in ours.
    const int depth = 100000;
    const QByteArray json = R"({ "scalescope_profile": 1, "x-deep": )" + QByteArray(depth, '[') +
                            QByteArray(depth, ']') + "}";
    const Result<CalibrationProfile> result = parseProfile(json);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().path, std::string());
    QVERIFY2(QString::fromStdString(result.error().message).contains("not valid JSON"),
             errorText(result));
    // Moderately nested x- values are fine.
    const Result<CalibrationProfile> moderate = parseProfile(
        h200({{"x-nested", QJsonArray{QJsonArray{QJsonArray{QJsonObject{{"a", 1}}}}}}}));
    QVERIFY2(moderate.ok(), errorText(moderate));
}

void TestProfileIo::loadErrors()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    const QString missing = dir.filePath(QStringLiteral("missing.json"));
    Result<CalibrationProfile> result = loadProfileFile(missing);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().path, std::string());
    QVERIFY2(QString::fromStdString(result.error().message).contains(missing), errorText(result));

    result = loadProfileFile(dir.path());
    QVERIFY(!result.ok());
    QVERIFY2(QString::fromStdString(result.error().message).contains("folder"), errorText(result));

    const QString large = dir.filePath(QStringLiteral("large.json"));
    {
        QFile file(large);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(kMaxProfileFileBytes + 1));
    }
    result = loadProfileFile(large);
    QVERIFY(!result.ok());
    QVERIFY2(QString::fromStdString(result.error().message).contains("limit"), errorText(result));

    // Errors inside the file keep their key path.
    const QString bad = profileFile("broken-bandwidth.json");
    result = loadProfileFile(bad);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().path, std::string("gpus[0].memory_bandwidth_gbps"));
}

void TestProfileIo::roundTrip_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("h200") << h200();
    QTest::newRow("cluster") << cluster();
    QTest::newRow("no gpu") << readFile(profileFile("no-gpu.json"));
    QTest::newRow("synthetic") << writeProfile(syntheticProfile());
}

void TestProfileIo::roundTrip()
{
    QFETCH(QByteArray, json);
    const Result<CalibrationProfile> first = parseProfile(json);
    QVERIFY2(first.ok(), errorText(first));
    const QByteArray written = writeProfile(first.value());
    const Result<CalibrationProfile> second = parseProfile(written);
    QVERIFY2(second.ok(), errorText(second));
    compareProfiles(second.value(), first.value());
    if (QTest::currentTestFailed())
        return;
    // Writing is stable.
    QCOMPARE(writeProfile(second.value()), written);
}

void TestProfileIo::writerLayout()
{
    const CalibrationProfile synthetic = syntheticProfile();
    const Result<CalibrationProfile> parsed = parseProfile(writeProfile(synthetic));
    QVERIFY2(parsed.ok(), errorText(parsed));
    compareProfiles(parsed.value(), synthetic);
    if (QTest::currentTestFailed())
        return;

    const Result<CalibrationProfile> h = parseProfile(h200());
    QVERIFY2(h.ok(), errorText(h));
    const QByteArray text = writeProfile(h.value());
    // The spec's order and names, version first.
    QVERIFY(text.startsWith("{\n    \"scalescope_profile\": 1,\n    \"created\""));
    const QJsonObject root = QJsonDocument::fromJson(text).object();
    QCOMPARE(root.keys(), (QStringList{"collectives", "created", "errors", "gpus", "host", "p2p",
                                       "scalescope_profile", "skipped", "tool"}));
    const QJsonObject gpu = root.value("gpus").toArray().at(0).toObject();
    QCOMPARE(gpu.value("gemm_tflops").toObject().keys(),
             (QStringList{"bf16", "fp16", "fp32", "fp8", "tf32"}));
    QCOMPARE(gpu.value("h2d_gbps").toObject().value("pinned").toDouble(), 55.1);
    QCOMPARE(gpu.value("thermal").toObject().value("samples").toArray().size(), 8);
    // Whole numbers are written as integers.
    QVERIFY(text.contains("\"memory_bytes\": 150754820096"));
    QVERIFY(text.contains("\"bytes\": 1073741824"));
    QVERIFY(text.contains("\"m\": 16384"));
    // Where the profile came from is not part of the file.
    QVERIFY(!text.contains("\"path\""));
    // Unmeasured figures are left out rather than written as 0.
    CalibrationProfile bare = h.value();
    bare.gpus.front().memory_bandwidth_gbps = 0;
    bare.gpus.front().thermal_duration_s = 0;
    bare.gpus.front().thermal_samples.clear();
    const QByteArray bareText = writeProfile(bare);
    QVERIFY(!bareText.contains("memory_bandwidth_gbps"));
    QVERIFY(!bareText.contains("thermal"));
}

void TestProfileIo::saveAndLoad()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const CalibrationProfile synthetic = syntheticProfile();
    const QString path = dir.filePath(QStringLiteral("saved.json"));
    QString error;
    QVERIFY2(saveProfileFile(path, synthetic, &error), qPrintable(error));
    const Result<CalibrationProfile> loaded = loadProfileFile(path);
    QVERIFY2(loaded.ok(), errorText(loaded));
    compareProfiles(loaded.value(), synthetic);
    QCOMPARE(QString::fromStdString(loaded.value().path), QFileInfo(path).absoluteFilePath());

    const QString unwritable = dir.filePath(QStringLiteral("no/such/folder/p.json"));
    QVERIFY(!saveProfileFile(unwritable, synthetic, &error));
    QVERIFY2(error.contains(unwritable), qPrintable(error));
}

void TestProfileIo::scenarioReferencesProfile()
{
    // Relative to the folder given as the scenario's base.
    const Result<Scenario> parsed =
        parseScenario(scenarioWithProfile(QStringLiteral("profiles/h200-1gpu.json")), catalog_,
                      QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/io/data"));
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().toString().c_str());
    const HardwareSpec &hw = parsed.value().hardware;
    QVERIFY(hw.calibration != nullptr);
    QCOMPARE(hw.calibration->gpus.size(), size_t(1));
    QCOMPARE(hw.calibration->path, hw.calibration_path);
    COMPARE_EXACT(hw.calibration->gpus.front().memory_bandwidth_gbps, 4298.6);

    // A scenario file beside its profile; writing it keeps only the path.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("cal")));
    QVERIFY(QFile::copy(profileFile("h100-2node-8gpu.json"),
                        dir.filePath(QStringLiteral("cal/cluster.json"))));
    const QString scenarioPath = dir.filePath(QStringLiteral("s.json"));
    {
        QFile file(scenarioPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(scenarioWithProfile(QStringLiteral("cal/cluster.json")));
    }
    const Result<Scenario> loaded = loadScenarioFile(scenarioPath, catalog_);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
    QVERIFY(loaded.value().hardware.calibration != nullptr);
    QCOMPARE(loaded.value().hardware.calibration->collectives.size(), size_t(40));
    const QByteArray written = writeScenario(loaded.value());
    QVERIFY2(written.contains(dir.filePath(QStringLiteral("cal/cluster.json")).toUtf8()),
             written.constData());
    QVERIFY(!written.contains("gemm_tflops"));
    QVERIFY(!written.contains("collectives"));

    // Without a profile there is no calibration.
    const Result<Scenario> plain = parseScenario(
        R"({ "scalescope": 1, "hardware": { "gpu": "gpu-h" },
             "collective": { "op": "all_reduce", "bytes": 8 } })",
        catalog_);
    QVERIFY(plain.ok());
    QVERIFY(plain.value().hardware.calibration == nullptr);
}

void TestProfileIo::scenarioReferencesBrokenProfile()
{
    const QString base = QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/io/data");
    const Result<Scenario> parsed = parseScenario(
        scenarioWithProfile(QStringLiteral("profiles/broken-bandwidth.json")), catalog_, base);
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.error().path, std::string("hardware.calibration"));
    const QString message = QString::fromStdString(parsed.error().message);
    QVERIFY2(message.startsWith(profileFile("broken-bandwidth.json") +
                                QStringLiteral(": gpus[0].memory_bandwidth_gbps: 2000000 is out "
                                               "of range; allowed: 0 or 1 to 1000000")),
             qPrintable(message));

    // A file that is not JSON at all.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString empty = dir.filePath(QStringLiteral("empty.json"));
    {
        QFile file(empty);
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    const Result<Scenario> emptyProfile =
        parseScenario(scenarioWithProfile(QStringLiteral("empty.json")), catalog_, dir.path());
    QVERIFY(!emptyProfile.ok());
    QCOMPARE(emptyProfile.error().path, std::string("hardware.calibration"));
    const QString emptyMessage = QString::fromStdString(emptyProfile.error().message);
    QVERIFY2(emptyMessage.startsWith(empty + QStringLiteral(": not valid JSON")),
             qPrintable(emptyMessage));
}

QTEST_GUILESS_MAIN(TestProfileIo)
#include "tst_profile_io.moc"
