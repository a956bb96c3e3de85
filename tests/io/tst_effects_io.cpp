// Scenario keys of issue 5: effects.thermal (over time, per GPU, cooling presets),
// effects.data_loader.prefetch_factor, effects.virtual_gpu, effects.failures and cost.
// Errors name the key path and what is allowed; every key survives a round trip.
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QTest>

using namespace scalescope;

namespace
{
QByteArray scenario(const char *effects, const char *cost = nullptr)
{
    QByteArray s = R"({ "scalescope": 1,
      "hardware": { "gpu": "rtx-4090-24gb", "nodes": 1, "gpus_per_node": 4 },
      "model": "resnet50",
      "training": { "global_batch": 256, "precision": "fp16" })";
    if (effects)
        s += QByteArray(", \"effects\": ") + effects;
    if (cost)
        s += QByteArray(", \"cost\": ") + cost;
    return s + " }";
}
const char *kCost = R"({ "gpu_price_usd": 1800, "cloud_price_per_gpu_hour": 0.7,
                         "training": { "epochs": 90, "samples_per_epoch": 1281167 } })";
} // namespace

class TestEffectsIo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void errors_data();
    void errors();
    void roundTrip();
    void coolingPresets();
};

void TestEffectsIo::errors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("allowed");
    QTest::newRow("ambient too hot")
        << scenario(R"({ "thermal": { "ambient_c": 80 } })") << "effects.thermal.ambient_c"
        << "60";
    QTest::newRow("steady below ambient")
        << scenario(R"({ "thermal": { "ambient_c": 40, "steady_c": 30 } })")
        << "effects.thermal.steady_c"
        << "at least ambient_c";
    QTest::newRow("unknown cooling")
        << scenario(R"({ "thermal": { "cooling": "arctic" } })") << "effects.thermal.cooling"
        << "datacenter, workstation, poor";
    QTest::newRow("cooling and steady")
        << scenario(R"({ "thermal": { "cooling": "poor", "steady_c": 90 } })")
        << "effects.thermal.cooling"
        << "either";
    QTest::newRow("thermal gpu out of range")
        << scenario(R"({ "thermal": { "gpus": [ { "gpu": 4, "steady_c": 90 } ] } })")
        << "effects.thermal.gpus[0].gpu"
        << "3";
    QTest::newRow("thermal gpu twice")
        << scenario(
               R"({ "thermal": { "gpus": [ { "gpu": 1, "steady_c": 90 }, { "gpu": 1, "steady_c": 80 } ] } })")
        << "effects.thermal.gpus[1].gpu"
        << "each GPU once";
    QTest::newRow("thermal gpu unknown key")
        << scenario(R"({ "thermal": { "gpus": [ { "gpu": 1, "fan": 3 } ] } })")
        << "effects.thermal.gpus[0].fan"
        << "";
    QTest::newRow("start negative")
        << scenario(R"({ "thermal": { "start_s": -1 } })") << "effects.thermal.start_s"
        << "";
    QTest::newRow("prefetch 0")
        << scenario(
               R"({ "data_loader": { "workers_per_gpu": 2, "samples_per_s_per_worker": 10, "prefetch_factor": 0 } })")
        << "effects.data_loader.prefetch_factor"
        << "64";
    QTest::newRow("vgpu fraction 0")
        << scenario(R"({ "virtual_gpu": { "fraction": 0 } })") << "effects.virtual_gpu.fraction"
        << "";
    QTest::newRow("vgpu fraction 1.5")
        << scenario(R"({ "virtual_gpu": { "fraction": 1.5 } })") << "effects.virtual_gpu.fraction"
        << "";
    QTest::newRow("vgpu missing fraction")
        << scenario(R"({ "virtual_gpu": {} })") << "effects.virtual_gpu.fraction"
        << "";
    QTest::newRow("mtbf missing") << scenario(R"({ "failures": { "restart_s": 60 } })")
                                  << "effects.failures.mtbf_hours_per_gpu"
                                  << "";
    QTest::newRow("mtbf 0") << scenario(R"({ "failures": { "mtbf_hours_per_gpu": 0 } })")
                            << "effects.failures.mtbf_hours_per_gpu"
                            << "";
    QTest::newRow("write bandwidth 0")
        << scenario(R"({ "failures": { "mtbf_hours_per_gpu": 1000, "checkpoint_write_gbps": 0 } })")
        << "effects.failures.checkpoint_write_gbps"
        << "";
    QTest::newRow("cost without price")
        << scenario(nullptr, R"({ "cloud_price_per_gpu_hour": 1, "training": { "steps": 10 } })")
        << "cost.gpu_price_usd"
        << "";
    QTest::newRow("cost two kinds of work")
        << scenario(
               nullptr,
               R"({ "gpu_price_usd": 1, "cloud_price_per_gpu_hour": 1, "training": { "steps": 10, "epochs": 2, "samples_per_epoch": 5 } })")
        << "cost.training"
        << "exactly one";
    QTest::newRow("cost tokens of a CNN")
        << scenario(
               nullptr,
               R"({ "gpu_price_usd": 1, "cloud_price_per_gpu_hour": 1, "training": { "tokens": 1e9 } })")
        << "cost.training.tokens"
        << "epochs";
    QTest::newRow("cost epochs without samples")
        << scenario(
               nullptr,
               R"({ "gpu_price_usd": 1, "cloud_price_per_gpu_hour": 1, "training": { "epochs": 3 } })")
        << "cost.training.samples_per_epoch"
        << "";
    QTest::newRow("pue below 1")
        << scenario(
               nullptr,
               R"({ "gpu_price_usd": 1, "cloud_price_per_gpu_hour": 1, "pue": 0.9, "training": { "steps": 1 } })")
        << "cost.pue"
        << "";
    QTest::newRow("cost unknown key")
        << scenario(
               nullptr,
               R"({ "gpu_price_usd": 1, "cloud_price_per_gpu_hour": 1, "rent": 2, "training": { "steps": 1 } })")
        << "cost.rent"
        << "";
}

void TestEffectsIo::errors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    QFETCH(QString, allowed);
    const Result<Scenario> s = parseScenario(json, builtinCatalog());
    QVERIFY(!s.ok());
    QCOMPARE(QString::fromStdString(s.error().path), path);
    QVERIFY2(QString::fromStdString(s.error().message).contains(allowed),
             s.error().message.c_str());
}

void TestEffectsIo::roundTrip()
{
    const QByteArray json =
        scenario(R"({ "thermal": { "throttle_above_c": 83, "ambient_c": 25, "steady_c": 80,
                                   "gpus": [ { "gpu": 2, "steady_c": 95 } ], "start_s": 30 },
                      "data_loader": { "workers_per_gpu": 4, "samples_per_s_per_worker": 300,
                                       "prefetch_factor": 4 },
                      "virtual_gpu": { "fraction": 0.5, "host_routed": false },
                      "failures": { "mtbf_hours_per_gpu": 40000, "checkpoint_bytes": 1e10,
                                    "checkpoint_write_gbps": 3, "restart_s": 120 } })",
                 kCost);
    const Result<Scenario> a = parseScenario(json, builtinCatalog());
    QVERIFY2(a.ok(), a.ok() ? "" : a.error().toString().c_str());
    const QByteArray written = writeScenario(a.value());
    const Result<Scenario> b = parseScenario(written, builtinCatalog());
    QVERIFY2(b.ok(), b.ok() ? "" : b.error().toString().c_str());
    QCOMPARE(writeScenario(b.value()), written);
    const EffectsSpec &e = b.value().effects;
    QCOMPARE(e.thermal.ambient_c, 25.0);
    QCOMPARE(*e.thermal.steady_c, 80.0);
    QCOMPARE(e.thermal.gpus.size(), size_t(1));
    QCOMPARE(e.thermal.gpus[0].steady_c, 95.0);
    QCOMPARE(*e.thermal.start_s, 30.0);
    QCOMPARE(e.data_loader.prefetch_factor, 4);
    QCOMPARE(e.virtual_gpu.fraction, 0.5);
    QVERIFY(!e.virtual_gpu.host_routed);
    QCOMPARE(e.failures.mtbf_hours_per_gpu, 40000.0);
    QCOMPARE(e.failures.checkpoint_bytes, 1e10);
    QVERIFY(b.value().cost.has_value());
    QCOMPARE(b.value().cost->epochs, 90.0);
    QCOMPARE(b.value().cost->gpu_price_usd, 1800.0);
    QCOMPARE(b.value().cost->pue, CostSpec().pue);
}

void TestEffectsIo::coolingPresets()
{
    for (const auto &[name, value] :
         {std::pair{"datacenter", kCoolingDatacenterC},
          std::pair{"workstation", kCoolingWorkstationC}, std::pair{"poor", kCoolingPoorC}}) {
        const QByteArray json =
            scenario((QByteArray(R"({ "thermal": { "cooling": ")") + name + "\" } }").constData());
        const Result<Scenario> s = parseScenario(json, builtinCatalog());
        QVERIFY(s.ok());
        QCOMPARE(s.value().effects.thermal.steadyC(0), value);
    }
    QVERIFY(kCoolingPoorC > 84 && kCoolingWorkstationC < 84);
}

QTEST_GUILESS_MAIN(TestEffectsIo)
#include "tst_effects_io.moc"
