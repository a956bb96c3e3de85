// checkScenario: the control panel's immediate explanations of impossible combinations.
#include "analysis/summary.h"
#include "controls/control_checks.h"
#include "io/catalog_io.h"
#include "io/profile_io.h"
#include "io/scenario_io.h"

#include <QTest>

#include <functional>

using scalescope::ControlIssue;
using scalescope::Scenario;

/// Turns the valid base scenario into the case under test.
using Mutation = std::function<void(Scenario &)>;
Q_DECLARE_METATYPE(Mutation)

namespace
{

// Llama 2 7B (32 heads, 32 layers) on 2 nodes x 4 A100: valid as it stands.
Scenario baseScenario()
{
    const QByteArray json = R"({ "scalescope": 1,
      "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 2, "gpus_per_node": 4,
                    "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 4 },
      "model": "llama2-7b",
      "training": { "global_batch": 64, "micro_batch": 1, "precision": "bf16" } })";
    auto parsed = scalescope::parseScenario(json, scalescope::builtinCatalog());
    if (!parsed.ok())
        qFatal("base scenario: %s", parsed.error().toString().c_str());
    return parsed.value();
}

/// Whether `path` is `key` or a key or item below it ("effects.stragglers[0].gpu" is under
/// "effects.stragglers"), as the panel places messages.
bool underKey(const QString &path, const QString &key)
{
    return path == key || path.startsWith(key + QLatin1Char('.')) ||
           path.startsWith(key + QLatin1Char('['));
}

QString describe(const QList<ControlIssue> &issues)
{
    QStringList lines;
    for (const ControlIssue &issue : issues)
        lines << issue.key_path + QStringLiteral(": ") + issue.message;
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestControlChecks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validScenarioHasNoIssues();
    void combinations_data();
    void combinations();
    void frameworkPlans();
    void impossibleHardware();
    void precisionAndStragglers();
    void newEffectsValidHaveNoIssues_data();
    void newEffectsValidHaveNoIssues();
    void newEffects_data();
    void newEffects();
};

void TestControlChecks::validScenarioHasNoIssues()
{
    const Scenario s = baseScenario();
    QVERIFY2(scalescope::checkScenario(s).isEmpty(),
             qPrintable(describe(scalescope::checkScenario(s))));
    QVERIFY(scalescope::makeContext(s).ok());

    Scenario automatic = s;
    automatic.parallel.data = 0; // auto fills the cluster
    automatic.training.micro_batch = 0;
    QVERIFY(scalescope::checkScenario(automatic).isEmpty());
    QVERIFY(scalescope::makeContext(automatic).ok());
}

void TestControlChecks::combinations_data()
{
    QTest::addColumn<int>("gpusPerNode");
    QTest::addColumn<int>("data");
    QTest::addColumn<int>("tensor");
    QTest::addColumn<int>("pipeline");
    QTest::addColumn<int>("globalBatch");
    QTest::addColumn<int>("microBatch");
    QTest::addColumn<int>("schedule");
    QTest::addColumn<int>("virtualStages");
    QTest::addColumn<int>("zero");
    QTest::addColumn<bool>("sequenceParallel");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("error"); // false: a warning

    const int f1b = int(scalescope::Schedule::OneFOneB);
    const int interleaved = int(scalescope::Schedule::Interleaved);
    // 2 nodes x gpusPerNode GPUs throughout.
    QTest::newRow("degrees do not multiply to the GPU count")
        << 4 << 2 << 2 << 4 << 64 << 1 << f1b << 1 << 0 << false << "parallel"
        << "data × tensor × pipeline = 2 × 2 × 4 = 16, but the cluster has 8 GPUs" << true;
    QTest::newRow("auto data degree not whole")
        << 6 << 0 << 8 << 1 << 64 << 1 << f1b << 1 << 0 << false << "parallel.tensor"
        << "tensor = 8 does not divide the 12 GPUs, so the data degree (auto)" << true;
    QTest::newRow("auto data degree not whole with a pipeline")
        << 6 << 0 << 2 << 4 << 64 << 1 << f1b << 1 << 0 << false << "parallel.pipeline"
        << "tensor × pipeline = 2 × 4 = 8 does not divide the 12 GPUs" << true;
    QTest::newRow("tensor crosses nodes")
        << 4 << 0 << 8 << 1 << 64 << 1 << f1b << 1 << 0 << false << "parallel.tensor"
        << "tensor = 8 is more than the 4 GPUs per node" << false;
    QTest::newRow("tensor does not divide heads")
        << 6 << 0 << 3 << 1 << 64 << 1 << f1b << 1 << 0 << false << "parallel.tensor"
        << "tensor = 3 does not divide the model's 32 attention heads" << true;
    QTest::newRow("micro-batch does not divide per-replica batch")
        << 4 << 0 << 1 << 1 << 64 << 3 << f1b << 1 << 0 << false << "training.micro_batch"
        << "micro-batch 3 does not divide the per-replica batch 64 / 8 = 8" << true;
    QTest::newRow("micro-batch larger than per-replica batch")
        << 4 << 0 << 1 << 1 << 64 << 16 << f1b << 1 << 0 << false << "training.micro_batch"
        << "micro-batch 16 does not divide the per-replica batch 64 / 8 = 8" << true;
    QTest::newRow("global batch not divisible by data")
        << 4 << 0 << 1 << 1 << 60 << 0 << f1b << 1 << 0 << false << "training.global_batch"
        << "global batch 60 does not split evenly over 8 data-parallel replicas" << true;
    QTest::newRow("interleaved with one virtual stage")
        << 4 << 0 << 1 << 2 << 64 << 1 << interleaved << 1 << 0 << false
        << "parallel.virtual_stages"
        << "interleaved schedule with 1 virtual stage is plain 1F1B" << false;
    QTest::newRow("virtual stages without interleaving")
        << 4 << 0 << 1 << 2 << 64 << 1 << f1b << 2 << 0 << false << "parallel.virtual_stages"
        << "2 virtual stages need the interleaved schedule" << true;
    QTest::newRow("more stages than layers")
        << 4 << 0 << 1 << 8 << 64 << 1 << interleaved << 8 << 0 << false << "parallel.pipeline"
        << "pipeline × virtual stages = 8 × 8 = 64 stages, but the model has 32 layers" << true;
    QTest::newRow("interleaved micro-batches not a multiple of pipeline")
        << 4 << 0 << 1 << 8 << 12 << 1 << interleaved << 2 << 0 << false
        << "parallel.virtual_stages"
        << "the 12 micro-batches per step to be a multiple of " << true;
    QTest::newRow("sequence parallel without tensor")
        << 4 << 0 << 1 << 1 << 64 << 1 << f1b << 1 << 0 << true << "parallel.sequence_parallel"
        << "with tensor = 1 it has no effect" << false;
}

void TestControlChecks::impossibleHardware()
{
    // An RTX 4090 with NVLink 4 + NVSwitch cannot be bought: said beside the link control
    // (a warning: the model still shows what such a machine would do).
    const scalescope::Catalog &catalog = scalescope::builtinCatalog();
    Scenario s = baseScenario();
    s.hardware.gpu = *catalog.findGpu("rtx-4090-24gb");
    s.hardware.intra = *catalog.findIntra("nvlink4");
    const auto hardwareIssues = [](const Scenario &x) {
        QList<ControlIssue> out;
        for (const ControlIssue &i : scalescope::checkScenario(x))
            if (i.key_path == QStringLiteral("hardware.intra_node"))
                out << i;
        return out;
    };
    QList<ControlIssue> found = hardwareIssues(s);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().severity, ControlIssue::Severity::Warning);
    QVERIFY2(found.first().message.contains(QStringLiteral("no NVLink")),
             qPrintable(found.first().message));
    // The same card over PCIe, and an A100 on NVSwitch, are real machines.
    s.hardware.intra = *catalog.findIntra("pcie4");
    QVERIFY(hardwareIssues(s).isEmpty());
    s.hardware.gpu = *catalog.findGpu("a100-sxm4-80gb");
    s.hardware.intra = *catalog.findIntra("nvlink3");
    QVERIFY(hardwareIssues(s).isEmpty());
    // An MI300X on NVLink is not either.
    s.hardware.gpu = *catalog.findGpu("mi300x-192gb");
    QCOMPARE(hardwareIssues(s).size(), 1);
    // A profile of another GPU is an error beside the GPU control (the file would be refused).
    const auto profile = scalescope::loadProfileFile(
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/io/data/profiles/h200-1gpu.json"));
    QVERIFY(profile.ok());
    s.hardware.intra = *catalog.findIntra("pcie4");
    s.hardware.gpu = *catalog.findGpu("rtx-4090-24gb");
    s.hardware.calibration =
        std::make_shared<const scalescope::CalibrationProfile>(profile.value());
    const QList<ControlIssue> all = scalescope::checkScenario(s);
    QVERIFY(std::any_of(all.begin(), all.end(), [](const ControlIssue &i) {
        return i.key_path == QStringLiteral("hardware.calibration") &&
               i.severity == ControlIssue::Severity::Error &&
               i.message.contains(QStringLiteral("NVIDIA H200"));
    }));
    s.hardware.gpu = *catalog.findGpu("h200-sxm-141gb");
    const QList<ControlIssue> none = scalescope::checkScenario(s);
    QVERIFY(std::none_of(none.begin(), none.end(), [](const ControlIssue &i) {
        return i.key_path == QStringLiteral("hardware.calibration");
    }));
    // Issue 26: collectives measured on one node of 8 GPUs, applied to two nodes of 4, stand
    // for another cluster's links: a warning names both shapes (an 8 x A100 NVLink profile
    // on 2 x 4 RTX 4090 over 25 GbE "raised" the bus bandwidth 58x, silently).
    scalescope::CalibrationProfile eight = profile.value();
    eight.nodes = 1;
    eight.gpus_per_node = 8;
    eight.collectives.push_back({"all_reduce", 8, 1, 1e9, 4e-3, 250, 437.5});
    s.hardware.calibration = std::make_shared<const scalescope::CalibrationProfile>(eight);
    s.hardware.nodes = 2;
    s.hardware.gpus_per_node = 4;
    const QList<ControlIssue> other = scalescope::checkScenario(s);
    QVERIFY(std::any_of(other.begin(), other.end(), [](const ControlIssue &i) {
        return i.key_path == QStringLiteral("hardware.calibration") &&
               i.severity == ControlIssue::Severity::Warning &&
               i.message.contains(QStringLiteral("1 × 8")) &&
               i.message.contains(QStringLiteral("2 × 4"));
    }));
    s.hardware.nodes = 1;
    s.hardware.gpus_per_node = 8;
    const QList<ControlIssue> same = scalescope::checkScenario(s);
    QVERIFY(std::none_of(same.begin(), same.end(), [](const ControlIssue &i) {
        return i.key_path == QStringLiteral("hardware.calibration");
    }));
}

void TestControlChecks::frameworkPlans()
{
    // ZeRO-2 with pipeline parallelism: DeepSpeed's pipeline engine cannot run it, torchtitan
    // (FSDP2 + PP) can, and "auto" picks torchtitan. The panel and the parser agree.
    Scenario s = baseScenario();
    s.hardware.gpus_per_node = 4;
    s.parallel.data = 0;
    s.parallel.tensor = 1;
    s.parallel.pipeline = 2;
    s.parallel.zero = 2;
    s.training.global_batch = 64;
    s.training.micro_batch = 1;
    const auto check = [](Scenario scenario, const char *framework) {
        scenario.training.framework = framework;
        const QList<ControlIssue> issues = scalescope::checkScenario(scenario);
        const bool panel = std::any_of(issues.begin(), issues.end(), [](const ControlIssue &i) {
            return i.key_path == QStringLiteral("training.framework") &&
                   i.severity == ControlIssue::Severity::Error;
        });
        const auto parsed = scalescope::parseScenario(scalescope::writeScenario(scenario),
                                                      scalescope::builtinCatalog());
        // 0: the file opens; 1: refused at training.framework; 2: refused at another key.
        const int file = parsed.ok() ? 0 : parsed.error().path == "training.framework" ? 1 : 2;
        return std::make_pair(panel, file);
    };
    QCOMPARE(check(s, "deepspeed"), std::make_pair(true, 1));
    QCOMPARE(check(s, "torchtitan"), std::make_pair(false, 0));
    QCOMPARE(check(s, "auto"), std::make_pair(false, 0));
    QCOMPARE(QString::fromStdString(scalescope::stackOf(s).id), QStringLiteral("torchtitan"));
    // Tensor parallelism under PyTorch DDP is refused beside the Software control.
    s.parallel.zero = 0;
    s.parallel.pipeline = 1;
    s.parallel.tensor = 2;
    QCOMPARE(check(s, "pytorch-ddp"), std::make_pair(true, 1));
    QCOMPARE(check(s, "megatron-lm"), std::make_pair(false, 0));
}

void TestControlChecks::combinations()
{
    QFETCH(int, gpusPerNode);
    QFETCH(int, data);
    QFETCH(int, tensor);
    QFETCH(int, pipeline);
    QFETCH(int, globalBatch);
    QFETCH(int, microBatch);
    QFETCH(int, schedule);
    QFETCH(int, virtualStages);
    QFETCH(int, zero);
    QFETCH(bool, sequenceParallel);
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(bool, error);

    Scenario s = baseScenario();
    s.hardware.gpus_per_node = gpusPerNode;
    s.parallel.data = data;
    s.parallel.tensor = tensor;
    s.parallel.pipeline = pipeline;
    s.training.global_batch = globalBatch;
    s.training.micro_batch = microBatch;
    s.parallel.schedule = scalescope::Schedule(schedule);
    s.parallel.virtual_stages = virtualStages;
    s.parallel.zero = zero;
    s.parallel.sequence_parallel = sequenceParallel;

    const QList<ControlIssue> issues = scalescope::checkScenario(s);
    const auto it = std::find_if(issues.begin(), issues.end(), [&](const ControlIssue &issue) {
        return underKey(issue.key_path, key) && issue.message.contains(text);
    });
    QVERIFY2(
        it != issues.end(),
        qPrintable(QStringLiteral("expected %1: %2\ngot:\n%3").arg(key, text, describe(issues))));
    QCOMPARE(it->severity == ControlIssue::Severity::Error, error);
    // Every local error is one the scenario file would be rejected for, and a warning is not.
    const bool fileRejects =
        !scalescope::parseScenario(scalescope::writeScenario(s), scalescope::builtinCatalog()).ok();
    QCOMPARE(fileRejects, error);
}

void TestControlChecks::precisionAndStragglers()
{
    Scenario s = baseScenario();
    s.training.precision = scalescope::Precision::FP8; // A100 has no FP8
    s.effects.stragglers.push_back({8, 2.0});          // GPUs are 0-7
    const QList<ControlIssue> issues = scalescope::checkScenario(s);
    QCOMPARE(issues.size(), 2);
    QCOMPARE(issues[0].key_path, QStringLiteral("training.precision"));
    QVERIFY(issues[0].message.contains(QStringLiteral("FP8 is not supported by the NVIDIA A100")));
    QCOMPARE(issues[1].key_path, QStringLiteral("effects.stragglers[0].gpu"));
    QVERIFY(issues[1].message.contains(QStringLiteral("GPU 8 does not exist")));
    QVERIFY(issues[1].message.contains(QStringLiteral("0-7")));

    s.training.precision = scalescope::Precision::BF16;
    s.effects.stragglers = {{7, 2.0}};
    QVERIFY(scalescope::checkScenario(s).isEmpty());
}

namespace
{

// Thermal over time on the 8 GPUs of the base scenario, valid as it stands.
void hotSpots(Scenario &s)
{
    auto &th = s.effects.thermal;
    th.enabled = true;
    th.ambient_c = 25;
    th.steady_c = scalescope::kCoolingDatacenterC;
    th.gpus = {{3, 95}, {7, 90}};
    th.start_s = 0;
}

void failures(Scenario &s)
{
    auto &f = s.effects.failures;
    f.enabled = true;
    f.mtbf_hours_per_gpu = 50000;
    f.checkpoint_bytes = 100e9; // 100 GB at 5 GB/s: 20 s per checkpoint
    f.checkpoint_write_gbps = 5;
    f.restart_s = 600;
    f.checkpoint_interval_s = 0;
}

} // namespace

void TestControlChecks::newEffectsValidHaveNoIssues_data()
{
    QTest::addColumn<Mutation>("mutate");
    QTest::newRow("thermal hot spots warming up") << Mutation(hotSpots);
    QTest::newRow("thermal, no cooling given")
        << Mutation([](Scenario &s) { s.effects.thermal.enabled = true; });
    QTest::newRow("poor cooling, one GPU at the ambient") << Mutation([](Scenario &s) {
        s.effects.thermal.enabled = true;
        s.effects.thermal.steady_c = scalescope::kCoolingPoorC;
        s.effects.thermal.gpus = {{0, 30}}; // exactly the ambient: allowed
    });
    QTest::newRow("loader prefetch 64") << Mutation([](Scenario &s) {
        s.effects.data_loader = {true, 8, 100, 64};
    });
    QTest::newRow("quarter GPU slices") << Mutation([](Scenario &s) {
        s.effects.virtual_gpu = {true, 0.25, true};
    });
    QTest::newRow("failures, optimal interval") << Mutation(failures);
    QTest::newRow("failures, hourly checkpoints of the model states") << Mutation([](Scenario &s) {
        failures(s);
        s.effects.failures.checkpoint_bytes = 0;
        s.effects.failures.checkpoint_interval_s = 3600;
    });
}

void TestControlChecks::newEffectsValidHaveNoIssues()
{
    QFETCH(Mutation, mutate);
    Scenario s = baseScenario();
    mutate(s);
    const QList<ControlIssue> issues = scalescope::checkScenario(s);
    QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
    QVERIFY(
        scalescope::parseScenario(scalescope::writeScenario(s), scalescope::builtinCatalog()).ok());
}

void TestControlChecks::newEffects_data()
{
    QTest::addColumn<Mutation>("mutate");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("error"); // false: a warning

    QTest::newRow("hot spot beyond the GPU count")
        << Mutation([](Scenario &s) {
               hotSpots(s);
               s.effects.thermal.gpus.push_back({8, 95});
           })
        << "effects.thermal.gpus"
        << "GPU 8 with its own cooling does not exist: the GPUs are numbered 0-7" << true;
    QTest::newRow("hot spots after the cluster shrank")
        << Mutation([](Scenario &s) {
               hotSpots(s);
               s.hardware.nodes = 1; // GPUs 0-3: GPU 7 is gone
           })
        << "effects.thermal.gpus"
        << "GPU 7 with its own cooling does not exist: the GPUs are numbered 0-3" << true;
    QTest::newRow("hot spot listed twice") << Mutation([](Scenario &s) {
        hotSpots(s);
        s.effects.thermal.gpus.push_back({3, 99});
    }) << "effects.thermal.gpus"
                                           << "GPU 3 is listed twice" << true;
    QTest::newRow("hot spot cooler than the air")
        << Mutation([](Scenario &s) {
               hotSpots(s);
               s.effects.thermal.gpus[0].steady_c = 20;
           })
        << "effects.thermal.gpus"
        << "GPU 3's steady state 20 °C is below the ambient 25 °C" << true;
    QTest::newRow("steady state below ambient") << Mutation([](Scenario &s) {
        hotSpots(s);
        s.effects.thermal.ambient_c = 60;
        s.effects.thermal.steady_c = 50;
        s.effects.thermal.gpus.clear();
    }) << "effects.thermal.steady_c"
                                                << "steady state 50 °C is below the ambient 60 °C"
                                                << true;
    QTest::newRow("nothing reaches the threshold")
        << Mutation([](Scenario &s) {
               hotSpots(s);
               s.effects.thermal.gpus = {{1, 80}};
           })
        << "effects.thermal.throttle_above_c"
        << "no GPU gets hotter than 80 °C, the throttling threshold is 84 °C" << false;
    QTest::newRow("checkpoint interval shorter than its write")
        << Mutation([](Scenario &s) {
               failures(s);
               s.effects.failures.checkpoint_interval_s = 10;
           })
        << "effects.failures.checkpoint_interval_s"
        << "a checkpoint every 10 s, but writing one takes 20 s (100 GB at 5 GB/s)" << false;
    QTest::newRow("checkpoint interval longer than the MTBF")
        << Mutation([](Scenario &s) {
               failures(s);
               s.effects.failures.mtbf_hours_per_gpu = 8; // one of 8 GPUs fails every hour
               s.effects.failures.checkpoint_interval_s = 7200;
           })
        << "effects.failures.checkpoint_interval_s"
        << "with 8 GPUs one fails every 3600 s on average" << false;
    QTest::newRow("failures faster than restarts")
        << Mutation([](Scenario &s) {
               failures(s);
               s.effects.failures.mtbf_hours_per_gpu = 1; // 450 s for the job
           })
        << "effects.failures.mtbf_hours_per_gpu"
        << "one fails every 450 s on average, before a restart and a checkpoint (620 s)" << false;
}

void TestControlChecks::newEffects()
{
    QFETCH(Mutation, mutate);
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(bool, error);

    Scenario s = baseScenario();
    mutate(s);
    const QList<ControlIssue> issues = scalescope::checkScenario(s);
    const auto it = std::find_if(issues.begin(), issues.end(), [&](const ControlIssue &issue) {
        return underKey(issue.key_path, key) && issue.message.contains(text);
    });
    QVERIFY2(
        it != issues.end(),
        qPrintable(QStringLiteral("expected %1: %2\ngot:\n%3").arg(key, text, describe(issues))));
    QCOMPARE(it->severity == ControlIssue::Severity::Error, error);
    // As above: a local error is one the scenario file is rejected for, a warning is not.
    const bool fileRejects =
        !scalescope::parseScenario(scalescope::writeScenario(s), scalescope::builtinCatalog()).ok();
    QCOMPARE(fileRejects, error);
}

QTEST_GUILESS_MAIN(TestControlChecks)
#include "tst_control_checks.moc"
