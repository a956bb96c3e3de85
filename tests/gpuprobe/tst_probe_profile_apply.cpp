// A profile written by gpuprobe, applied to the model through a scenario's
// hardware.calibration (issue 4): the model reproduces what the probe measured.
#include "fake_backend.h"
#include "probe.h"

#include "analysis/summary.h"
#include "io/catalog_io.h"
#include "io/file_io.h"
#include "io/profile_io.h"
#include "io/scenario_io.h"
#include "hardware/kernel_model.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace scalescope;
using namespace scalescope::gpuprobe;

class TestProbeProfileApply : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void collectiveScenarioReproducesBusBandwidth_data();
    void collectiveScenarioReproducesBusBandwidth();
    void gemmFiguresReplaceTheModel();

private:
    QTemporaryDir dir_;
    QString path_;
    CalibrationProfile profile_;
};

void TestProbeProfileApply::initTestCase()
{
    // Eight fake GPUs with NVLink-like collectives: 15 us latency, 300 GB/s bus bandwidth.
    FakeBackend::Config config;
    config.gpus = 8;
    FakeBackend fake(config);
    ProbeOptions o;
    o.tests = {TestId::Gemm, TestId::Nccl};
    o.gemm_sizes = {1024, 4096, 8192};
    o.collective_max_bytes = size_t(1) << 30;
    Cluster one;
    const ProbeResult r = runProbe(fake, one, o, nullptr);
    QVERIFY(r.profile.errors.empty());
    QVERIFY(dir_.isValid());
    path_ = dir_.filePath(QStringLiteral("probe profile.json"));
    QString error;
    QVERIFY2(writeFileAtomically(path_, writeProbeProfile(r), &error), qPrintable(error));
    const Result<CalibrationProfile> loaded = loadProfileFile(path_);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
    profile_ = loaded.value();
    QVERIFY(profile_.collectives.size() >=
            3 * 26); // 8 B to 1 GiB; all_gather and reduce_scatter start at 8 x 4 B
}

void TestProbeProfileApply::collectiveScenarioReproducesBusBandwidth_data()
{
    QTest::addColumn<int>("index");
    for (size_t i = 0; i < profile_.collectives.size(); ++i) {
        const ProfileCollective &c = profile_.collectives[i];
        QTest::addRow("%s-%.0fB", c.op.c_str(), c.bytes) << int(i);
    }
}

void TestProbeProfileApply::collectiveScenarioReproducesBusBandwidth()
{
    QFETCH(int, index);
    const ProfileCollective &c = profile_.collectives[static_cast<size_t>(index)];
    // The profile sits in another folder than the scenario: a relative path is resolved
    // against the scenario's folder, so write the scenario file next to it.
    const QByteArray json = QStringLiteral(R"({ "scalescope": 1,
      "hardware": { "gpu": "h100-sxm5-80gb", "nodes": 1, "gpus_per_node": 8,
                    "intra_node": "nvlink4", "calibration": "probe profile.json" },
      "collective": { "op": "%1", "bytes": %2 } })")
                                .arg(QString::fromStdString(c.op))
                                .arg(c.bytes, 0, 'f', 0)
                                .toUtf8();
    const QString scenario_path = dir_.filePath(QStringLiteral("scenario.json"));
    QString error;
    QVERIFY(writeFileAtomically(scenario_path, json, &error));
    const Result<Scenario> s = loadScenarioFile(scenario_path, builtinCatalog());
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
    QVERIFY(s.value().hardware.calibration);
    const CollectiveSummary model = simulateCollective(s.value());
    QVERIFY2(
        std::abs(model.cost.time_s / c.time_s - 1) < 0.05,
        qPrintable(QStringLiteral("model %1 s, probe %2 s").arg(model.cost.time_s).arg(c.time_s)));
    if (c.busbw_gbps > 1.0)
        QVERIFY2(std::abs(model.cost.busbw_gbps / c.busbw_gbps - 1) < 0.05,
                 qPrintable(QStringLiteral("model %1 GB/s, probe %2 GB/s")
                                .arg(model.cost.busbw_gbps)
                                .arg(c.busbw_gbps)));
}

void TestProbeProfileApply::gemmFiguresReplaceTheModel()
{
    const GpuSpec h100 = *builtinCatalog().findGpu("h100-sxm5-80gb");
    const ComputeModel measured(h100, Precision::BF16, &profile_);
    QVERIFY(measured.calibrated());
    const auto &points = profile_.gpus.front().gemm_tflops[static_cast<size_t>(Precision::BF16)];
    QCOMPARE(points.size(), size_t(3));
    const ProfileGemmPoint &big = points.back();
    const double achieved =
        2.0 * big.m * big.n * big.k / measured.gemmTime(big.m, big.n, big.k) / 1e12;
    QVERIFY2(
        std::abs(achieved / big.tflops - 1) < 0.05,
        qPrintable(QStringLiteral("model %1, probe %2 TFLOP/s").arg(achieved).arg(big.tflops)));
}

QTEST_GUILESS_MAIN(TestProbeProfileApply)
#include "tst_probe_profile_apply.moc"
