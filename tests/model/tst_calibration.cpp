// A calibration profile replaces the catalog's figures (spec/profile.md, issue 4).
#include "testutil.h"

#include "analysis/calibration_compare.h"
#include "io/profile_io.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>

using namespace scalescope;
using namespace scalescope::test;

namespace
{

const QString kProfiles = QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/io/data/profiles");

Scenario withProfile(const char *json, const QString &profile)
{
    const QByteArray text = QString::fromUtf8(json).arg(QDir(kProfiles).filePath(profile)).toUtf8();
    Result<Scenario> s = parseScenario(text, builtinCatalog());
    if (!s)
        qFatal("%s", s.error().toString().c_str());
    return s.value();
}

// Two H100 nodes training Llama 2 7B under the 2-node H100 profile (%1: its path).
const char *const kH100Job = R"({ "scalescope": 1,
      "hardware": { "gpu": "h100-sxm5-80gb", "nodes": 2, "gpus_per_node": 8,
                    "intra_node": "nvlink4", "inter_node": "ib-ndr-400", "nics_per_node": 8,
                    "calibration": "%1" },
      "model": "llama2-7b", "training": { "global_batch": 64, "micro_batch": 2 } })";

} // namespace

class TestCalibration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void measuredCollectiveReproduced_data();
    void measuredCollectiveReproduced();
    void measuredGemmReplacesModel();
    void calibratedStepUsesProfile();
    void profileOverridesTheStacksHostTime();
    void winogradMfuAtMostOneAtPeakGemms();
    void smallGemmProfileIsNotExtendedFlat();
    void comparisonAgainstDatasheet();
    void gpuNamesReadOneWay_data();
    void gpuNamesReadOneWay();
    void everyCatalogGpuReadsAsItself();
    void oneDigitModelProfileRefused_data();
    void oneDigitModelProfileRefused();
};

void TestCalibration::measuredCollectiveReproduced_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("index"); // which measured point of that op/size group
    const Result<CalibrationProfile> p =
        loadProfileFile(kProfiles + QStringLiteral("/h100-2node-8gpu.json"));
    QVERIFY(p.ok());
    for (size_t i = 0; i < p.value().collectives.size(); ++i) {
        const ProfileCollective &c = p.value().collectives[i];
        QTest::addRow("%s-%dgpu-%.0fB", c.op.c_str(), c.gpus, c.bytes)
            << QString::fromStdString(c.op) << c.nodes << int(i);
    }
}

void TestCalibration::measuredCollectiveReproduced()
{
    // Issue 4: a calibrated collective-only scenario reproduces the profile's measured bus
    // bandwidth at that size within 5%.
    QFETCH(QString, op);
    QFETCH(int, nodes);
    QFETCH(int, index);
    const CalibrationProfile p =
        loadProfileFile(kProfiles + QStringLiteral("/h100-2node-8gpu.json")).value();
    const ProfileCollective &c = p.collectives[static_cast<size_t>(index)];
    const QByteArray json = QStringLiteral(R"({ "scalescope": 1,
      "hardware": { "gpu": "h100-sxm5-80gb", "nodes": %1, "gpus_per_node": %2,
                    "intra_node": "nvlink4", "inter_node": "ib-ndr-400", "nics_per_node": 8,
                    "calibration": "%3" },
      "collective": { "op": "%4", "bytes": %5 } })")
                                .arg(nodes)
                                .arg(c.gpus / nodes)
                                .arg(kProfiles + QStringLiteral("/h100-2node-8gpu.json"))
                                .arg(op)
                                .arg(c.bytes, 0, 'f', 0)
                                .toUtf8();
    const Scenario s = scenarioFrom(json.constData());
    QVERIFY(s.hardware.calibration);
    const CollectiveSummary r = simulateCollective(s);
    QVERIFY2(
        std::abs(r.cost.time_s / c.time_s - 1.0) < 0.05,
        qPrintable(QStringLiteral("model %1 s, measured %2 s").arg(r.cost.time_s).arg(c.time_s)));
    if (c.busbw_gbps > 1.0)
        QVERIFY(std::abs(r.cost.busbw_gbps / c.busbw_gbps - 1.0) < 0.05);
    // Between two measured sizes the time is interpolated, so it stays between them.
    Scenario mid = s;
    mid.collective->bytes = c.bytes * 1.5;
    const double t = simulateCollective(mid).cost.time_s;
    QVERIFY(t >= r.cost.time_s * (1 - 1e-12));
}

void TestCalibration::measuredGemmReplacesModel()
{
    const CalibrationProfile p =
        loadProfileFile(kProfiles + QStringLiteral("/h100-2node-8gpu.json")).value();
    const GpuSpec h100 = *builtinCatalog().findGpu("h100-sxm5-80gb");
    const ComputeModel model(h100, Precision::BF16);
    const ComputeModel measured(h100, Precision::BF16, &p);
    QVERIFY(!model.calibrated());
    QVERIFY(measured.calibrated());
    for (const ProfileGemmPoint &g :
         p.gpus.front().gemm_tflops[static_cast<size_t>(Precision::BF16)]) {
        const double achieved = 2.0 * g.m * g.n * g.k / measured.gemmTime(g.m, g.n, g.k) / 1e12;
        // At a measured shape the model runs at the measured throughput (unless a roofline
        // or the launch floor binds).
        QVERIFY2(std::abs(achieved / g.tflops - 1.0) < 0.01 || achieved < g.tflops,
                 qPrintable(QStringLiteral("%1^3: %2 vs %3").arg(g.m).arg(achieved).arg(g.tflops)));
    }
    // The measured copy bandwidth replaces the datasheet's; framework kernels keep fewer
    // bytes in flight than the probe's copy kernel, so the per-SM bound (Little's law,
    // compute.cpp) applies to both: the same bound as the datasheet model where it binds.
    const double copy = p.gpus.front().memory_bandwidth_gbps * 1e9 * 0.93;
    const double bound = h100.sm_count * 2048.0 * 8.0 / 1e-6; // SMs x threads x 8 B / 1 us
    QVERIFY(std::abs(measured.achievedBandwidth() / std::min(copy, bound) - 1) < 1e-9);
}

void TestCalibration::calibratedStepUsesProfile()
{
    // A training step on calibrated hardware differs from the datasheet one and follows
    // the measured GEMM throughput: scaling every measured point scales compute time.
    const Scenario calibrated = withProfile(kH100Job, QStringLiteral("h100-2node-8gpu.json"));
    Scenario datasheet = calibrated;
    datasheet.hardware.calibration.reset();
    const double a = simulateSummary(calibrated).step_time_s;
    const double b = simulateSummary(datasheet).step_time_s;
    QVERIFY(a > 0 && b > 0 && a != b);

    CalibrationProfile slower = *calibrated.hardware.calibration;
    for (ProfileGemmPoint &g :
         slower.gpus.front().gemm_tflops[static_cast<size_t>(Precision::BF16)])
        g.tflops *= 0.5;
    Scenario half = calibrated;
    half.hardware.calibration = std::make_shared<const CalibrationProfile>(slower);
    const Summary h = simulateSummary(half);
    const Summary f = simulateSummary(calibrated);
    QVERIFY(h.breakdown.compute > 1.3 * f.breakdown.compute);
}

void TestCalibration::profileOverridesTheStacksHostTime()
{
    // A small model at micro-batch 1 on one GPU: the host issues the step (issue 12). A
    // profile's figure for the scenario's stack replaces the catalog's host.op_us; another
    // stack's figure does not; the measured launch is a floor for any stack.
    const char *const job = R"({ "scalescope": 1,
      "hardware": { "gpu": "h200-sxm-141gb", "calibration": "%1" },
      "model": { "transformer": { "layers": 24, "hidden": 1024, "heads": 16, "seq_len": 1024,
                                  "vocab": 50257 } },
      "training": { "global_batch": 8, "micro_batch": 1, "framework": "megatron-deepspeed" } })";
    const Scenario base = withProfile(job, QStringLiteral("h200-1gpu.json"));
    const Plan plain = makePlan(base).value();
    QCOMPARE(plain.host.op_s, stackOf(base).host_op_us * 1e-6);
    const double catalog_step = simulateSummary(base).step_time_s;

    CalibrationProfile measured = *base.hardware.calibration;
    measured.framework_host = {{"pytorch-ddp", 90.0}};
    Scenario other = base;
    other.hardware.calibration = std::make_shared<const CalibrationProfile>(measured);
    QCOMPARE(makePlan(other).value().host.op_s, plain.host.op_s);

    measured.framework_host.push_back({"megatron-deepspeed", 2 * stackOf(base).host_op_us});
    Scenario own = base;
    own.hardware.calibration = std::make_shared<const CalibrationProfile>(measured);
    QCOMPARE(makePlan(own).value().host.op_s, 2e-6 * stackOf(base).host_op_us);
    const Summary measured_summary = simulateSummary(own);
    const double measured_step = measured_summary.step_time_s;
    QVERIFY2(measured_step > 1.5 * catalog_step,
             qPrintable(QStringLiteral("%1 against %2").arg(measured_step).arg(catalog_step)));
    // The bottleneck says so, with the figure the step used (not "compute-bound at 3% MFU").
    const Bottleneck &b = measured_summary.bottleneck;
    QCOMPARE(b.kind, BottleneckKind::HostBound);
    QCOMPARE(b.host_op_us, 2 * stackOf(base).host_op_us);
    QVERIFY(b.host_share > 0.5 && b.host_share <= 1);
    QVERIFY2(bottleneckText(measured_summary.bottleneck).find("Host-bound: Megatron") == 0,
             bottleneckText(measured_summary.bottleneck).c_str());
    // Micro-batches 32 times larger: the GPU's kernels outlast the issue time again.
    Scenario large = own;
    large.training.micro_batch = 32;
    large.training.global_batch = 256;
    QVERIFY(simulateSummary(large).bottleneck.kind != BottleneckKind::HostBound);

    measured.framework_host.clear();
    measured.gpus.front().host_launch_us = 500;
    Scenario slow_launch = base;
    slow_launch.hardware.calibration = std::make_shared<const CalibrationProfile>(measured);
    QCOMPARE(makePlan(slow_launch).value().host.op_s, 500e-6);
    // The Calibration tab lists the host figures a profile has (and only those).
    measured.gpus.front().sync_round_trip_us = 800;
    bool launch_row = false, trip_row = false;
    for (const FigureComparison &r : compareCalibration({&measured}, nullptr, nullptr)) {
        launch_row |= r.figure == CalibrationFigure::HostLaunch && r.measured == std::vector{500.0};
        trip_row |= r.figure == CalibrationFigure::SyncRoundTrip && r.measured == std::vector{800.0};
    }
    QVERIFY(launch_row && trip_row);
    for (const FigureComparison &r : compareCalibration({base.hardware.calibration.get()}, nullptr,
                                                        nullptr))
        QVERIFY(r.figure != CalibrationFigure::HostLaunch &&
                r.figure != CalibrationFigure::SyncRoundTrip);

    // A scenario refuses a profile that names a stack the catalog does not have.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    measured.gpus.front().host_launch_us = 0;
    measured.framework_host = {{"no-such-stack", 10}};
    const QString file = dir.filePath(QStringLiteral("p.json"));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(writeProfile(measured));
    }
    const QByteArray text = QString::fromUtf8(job).arg(file).toUtf8();
    const Result<Scenario> refused = parseScenario(text, builtinCatalog());
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().path, std::string("hardware.calibration"));
    QVERIFY2(refused.error().message.find("framework_host[0].framework") != std::string::npos &&
                 refused.error().message.find("megatron-deepspeed") != std::string::npos,
             refused.error().message.c_str());
}

void TestCalibration::winogradMfuAtMostOneAtPeakGemms()
{
    // VGG-16 in FP32: cuDNN's Winograd convolutions are 1.7x faster than direct ones
    // (layers/layer_cost.cpp). A profile whose FP32 GEMMs reach the datasheet peak at every size
    // made them faster than the peak allows in direct FLOPs: MFU 1.14 (issue 14).
    const char *const job = R"({ "scalescope": 1,
      "hardware": { "gpu": "h200-sxm-141gb", "calibration": "%1" },
      "model": "vgg16",
      "training": { "global_batch": 128, "precision": "fp32", "optimizer": "sgd",
                    "framework": "pytorch-ddp" } })";
    const Scenario base = withProfile(job, QStringLiteral("h200-1gpu.json"));
    CalibrationProfile peak = *base.hardware.calibration;
    auto &points = peak.gpus.front().gemm_tflops[static_cast<size_t>(Precision::FP32)];
    points.clear();
    const double sheet = base.hardware.gpu.peak(Precision::FP32);
    for (double n : {256.0, 1024.0, 4096.0, 16384.0})
        points.push_back({n, n, n, sheet});
    Scenario s = base;
    s.hardware.calibration = std::make_shared<const CalibrationProfile>(peak);
    const Summary at_peak = simulateSummary(s);
    QVERIFY2(at_peak.mfu <= 1.0 + 1e-9, qPrintable(QString::number(at_peak.mfu, 'g', 12)));
    QVERIFY2(at_peak.mfu > 0.7, qPrintable(QString::number(at_peak.mfu, 'g', 12)));
    QVERIFY(at_peak.hardware_tflops_per_gpu <= sheet * (1 + 1e-9));

    // Below the bound the Winograd gain stays: with GEMMs at half the peak, the direct
    // FLOPs still run faster than half the peak.
    for (ProfileGemmPoint &g : points)
        g.tflops = sheet / 2;
    s.hardware.calibration = std::make_shared<const CalibrationProfile>(peak);
    const Summary half = simulateSummary(s);
    QVERIFY2(half.mfu > 0.5 && half.mfu < at_peak.mfu,
             qPrintable(QString::number(half.mfu, 'g', 12)));
}

void TestCalibration::smallGemmProfileIsNotExtendedFlat()
{
    // A profile that measured only 256^3 and 512^3 GEMMs (launch-bound, 1-3% of the peak)
    // was extended flat to every larger GEMM: an H200 at about 1% MFU (issue 14). At the
    // measured sizes the measurement holds; 8x the largest measured work further on, the
    // datasheet model; a profile reaching large sizes keeps its own figures there.
    const CalibrationProfile full =
        loadProfileFile(kProfiles + QStringLiteral("/h200-1gpu.json")).value();
    CalibrationProfile small = full;
    auto &points = small.gpus.front().gemm_tflops[static_cast<size_t>(Precision::BF16)];
    std::erase_if(points, [](const ProfileGemmPoint &g) { return g.m > 512; });
    QCOMPARE(points.size(), size_t(2));
    const GpuSpec h200 = *builtinCatalog().findGpu("h200-sxm-141gb");
    const ComputeModel sheet(h200, Precision::BF16);
    const ComputeModel measured(h200, Precision::BF16, &small);
    const ComputeModel reaching(h200, Precision::BF16, &full);
    const auto tflops = [](const ComputeModel &c, double n) {
        return 2.0 * n * n * n / c.gemmTime(n, n, n) / 1e12;
    };
    for (const ProfileGemmPoint &g : points)
        QVERIFY(tflops(measured, g.m) <= g.tflops * 1.01);
    const double big = tflops(measured, 8192), model = tflops(sheet, 8192);
    QVERIFY2(big > 0.95 * model && big < 1.05 * model,
             qPrintable(QStringLiteral("8192^3: %1 TFLOP/s against the datasheet model's %2")
                            .arg(big)
                            .arg(model)));
    // A throttled clock slows the extended part as it slows the measurement (the catalog's
    // clock ratio was once divided by the throttled one, which cancelled the drop).
    ComputeModel hot = measured;
    hot.applyClockDrop(0.2);
    QVERIFY2(tflops(hot, 8192) <= 0.8 * big * 1.001,
             qPrintable(QStringLiteral("throttled %1 against %2").arg(tflops(hot, 8192)).arg(big)));
    // In between it rises with the work, from the largest measurement on.
    QVERIFY(tflops(measured, 1024) > points.back().tflops);
    QVERIFY(tflops(measured, 1024) < big);
    double measured_8192 = 0;
    for (const ProfileGemmPoint &g : full.gpus.front().gemm_tflops[size_t(Precision::BF16)])
        if (g.m == 8192)
            measured_8192 = g.tflops;
    QVERIFY(std::abs(tflops(reaching, 8192) / measured_8192 - 1) < 0.01);
}

void TestCalibration::comparisonAgainstDatasheet()
{
    // The Calibration tab's table: each measured figure beside the datasheet of the GPU it
    // was measured on; the collectives beside the model's own prediction from the scenario's
    // datasheet links on the largest shape measured; nothing neither side has.
    const CalibrationProfile p =
        loadProfileFile(kProfiles + QStringLiteral("/h100-2node-8gpu.json")).value();
    const GpuSpec *sheet =
        builtinCatalog().matchGpuName(p.gpus.front().name, p.gpus.front().memory_bytes);
    QVERIFY(sheet);
    QCOMPARE(QString::fromStdString(sheet->id), QStringLiteral("h100-sxm5-80gb"));
    const Scenario s = withProfile(kH100Job, QStringLiteral("h100-2node-8gpu.json"));
    const std::vector<FigureComparison> rows = compareCalibration({&p}, sheet, &s.hardware);
    const auto find = [&](CalibrationFigure f, auto &&pred) -> const FigureComparison * {
        for (const FigureComparison &r : rows)
            if (r.figure == f && pred(r))
                return &r;
        return nullptr;
    };
    const FigureComparison *bf16 = find(CalibrationFigure::GemmPeak, [](auto &r) {
        return r.precision == Precision::BF16;
    });
    QVERIFY(bf16);
    QCOMPARE(bf16->datasheet, sheet->peak(Precision::BF16));
    double best = 0;
    for (const ProfileGemmPoint &g : p.gpus.front().gemm_tflops[size_t(Precision::BF16)])
        best = std::max(best, g.tflops);
    QCOMPARE(bf16->measured, std::vector<double>{best});
    for (const FigureComparison &r : rows)
        QVERIFY(r.datasheet > 0 || r.measured.front() > 0);

    const ProfileCollective *largest = nullptr;
    for (const ProfileCollective &c : p.collectives)
        if (c.op == "all_reduce" && c.gpus > 1 && (!largest || c.bytes > largest->bytes))
            largest = &c;
    QVERIFY(largest);
    const FigureComparison *ar = find(CalibrationFigure::CollectiveBusBandwidth, [](auto &r) {
        return r.op == CollectiveOp::AllReduce;
    });
    QVERIFY(ar && ar->predicted_for);
    QCOMPARE(ar->predicted_for->gpus, largest->gpus);
    QCOMPARE(ar->predicted_for->bytes, largest->bytes);
    HardwareSpec datasheet = s.hardware;
    datasheet.calibration.reset();
    GroupShape g;
    g.ranks = largest->gpus;
    g.nodes = std::max(1, largest->nodes);
    g.ranks_per_node = std::max(1, largest->gpus / g.nodes);
    QCOMPARE(ar->datasheet,
             CommModel(datasheet).cost(CollectiveOp::AllReduce, largest->bytes, g).busbw_gbps);
    // Without the scenario's links there is no prediction to show.
    for (const FigureComparison &r : compareCalibration({&p}, sheet, nullptr))
        QVERIFY(!r.predicted_for && (r.figure != CalibrationFigure::CollectiveBusBandwidth ||
                                     r.datasheet == 0));
    // GPUs measured: the most ranks of any collective (2 nodes x 8 here), beyond the
    // profile's own GPU entries.
    int ranks = 0;
    for (const ProfileCollective &c : p.collectives)
        ranks = std::max(ranks, c.gpus);
    QCOMPARE(ranks, 16);
    QCOMPARE(profileGpuCount(p), std::max<int>(int(p.gpus.size()), ranks));
}

void TestCalibration::gpuNamesReadOneWay_data()
{
    // NVML's names (nvmlDeviceGetName) and rocm-smi's, the chip each names and the catalog
    // entry it matches.
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("memory_gb");
    QTest::addColumn<QString>("chip");
    QTest::addColumn<QString>("id");
    const auto row = [](const char *name, double gb, const char *chip, const char *id) {
        QTest::newRow(name) << QString::fromLatin1(name) << gb << QString::fromLatin1(chip)
                            << QString::fromLatin1(id);
    };
    row("NVIDIA H100 80GB HBM3", 80, "h100", "h100-sxm5-80gb");
    row("NVIDIA H100 PCIe", 80, "h100", "h100-pcie-80gb");
    row("NVIDIA H100 NVL", 94, "h100", "h100-nvl-94gb");
    row("NVIDIA A100-SXM4-80GB", 80, "a100", "a100-sxm4-80gb");
    row("NVIDIA A100-SXM4-40GB", 40, "a100", "a100-sxm4-40gb");
    row("NVIDIA A100-PCIE-40GB", 40, "a100", "a100-pcie-40gb");
    row("NVIDIA GeForce RTX 4090", 24, "4090", "rtx-4090-24gb");
    row("NVIDIA GeForce RTX 4090 D", 24, "4090d", "rtx-4090d-24gb");
    row("NVIDIA GeForce RTX 4060 Ti", 16, "4060ti", "rtx-4060ti-16gb");
    row("NVIDIA GeForce RTX 3090", 24, "3090", "rtx-3090-24gb");
    row("NVIDIA GeForce RTX 5090", 32, "5090", "rtx-5090-32gb");
    row("NVIDIA L4", 24, "l4", "l4-24gb");
    row("Tesla T4", 16, "t4", "");
    row("Tesla V100-SXM2-16GB", 16, "v100", "v100-sxm2-16gb");
    row("Tesla V100-PCIE-32GB", 32, "v100", "v100-pcie-32gb");
    row("Tesla P100-PCIE-16GB", 16, "p100", "p100-pcie-16gb");
    row("NVIDIA RTX A6000", 48, "a6000", "rtx-a6000-48gb");
    row("NVIDIA RTX 6000 Ada Generation", 48, "6000ada", "rtx-6000-ada-48gb");
    row("Quadro RTX 6000", 24, "6000", "");
    row("NVIDIA A10", 24, "a10", "a10-24gb");
    row("NVIDIA A40", 48, "a40", "a40-48gb");
    row("NVIDIA L40S", 48, "l40s", "l40s-48gb");
    row("NVIDIA L20", 48, "l20", "l20-48gb");
    row("NVIDIA H200", 141, "h200", "h200-sxm-141gb");
    row("NVIDIA H20", 96, "h20", "h20-96gb");
    row("NVIDIA GH200 480GB", 96, "gh200", "gh200-96gb");
    row("NVIDIA B200", 180, "b200", "b200-sxm-180gb");
    row("NVIDIA B300 SXM6 AC", 275, "b300", "b300-sxm-288gb");
    row("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", 96, "6000blackwell",
        "rtx-pro-6000-96gb");
    row("NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", 96, "6000blackwell",
        "rtx-pro-6000-96gb");
    row("AMD Instinct MI300X", 192, "mi300x", "mi300x-192gb");
    row("AMD Instinct MI325X", 256, "mi325x", "mi325x-256gb");
    // A lab GPU's name names no model: no profile is refused for it.
    row("lab gpu 1", 80, "", "");
    row("Lab GPU v2", 80, "", "");
}

void TestCalibration::gpuNamesReadOneWay()
{
    // The chip that decides whether a profile is another GPU's (gpuChip) and the catalog
    // match that switches the scenario to it (Catalog::matchGpuName) read a name one way
    // (readGpuName), one-digit models ("NVIDIA L4", "Tesla T4") included.
    QFETCH(QString, name);
    QFETCH(double, memory_gb);
    QFETCH(QString, chip);
    QFETCH(QString, id);
    QCOMPARE(QString::fromStdString(gpuChip(name.toStdString())), chip);
    const GpuSpec *m = builtinCatalog().matchGpuName(name.toStdString(), memory_gb * 1e9);
    QCOMPARE(m ? QString::fromStdString(m->id) : QString(), id);
}

void TestCalibration::everyCatalogGpuReadsAsItself()
{
    // Every catalog GPU names a chip, its own name matches it and no other entry, and a
    // profile measured on any GPU of another chip is refused on it (the mismatch path).
    const Catalog &catalog = builtinCatalog();
    for (const GpuSpec &g : catalog.gpus) {
        QVERIFY2(!gpuChip(g.name).empty(), g.name.c_str());
        QCOMPARE(catalog.matchGpuName(g.name, g.memoryBytes()), &g);
        for (const GpuSpec &other : catalog.gpus) {
            CalibrationProfile p;
            p.gpus.emplace_back();
            p.gpus.front().name = other.name;
            p.gpus.front().memory_bytes = other.memoryBytes();
            HardwareSpec hw;
            hw.gpu = g;
            hw.calibration = std::make_shared<const CalibrationProfile>(p);
            const bool same = gpuChip(other.name) == gpuChip(g.name);
            QVERIFY2(calibrationGpuMismatch(hw).empty() == same,
                     (other.name + " on " + g.name).c_str());
        }
    }
}

void TestCalibration::oneDigitModelProfileRefused_data()
{
    QTest::addColumn<QString>("measured");
    QTest::newRow("L4") << QStringLiteral("NVIDIA L4");
    QTest::newRow("T4") << QStringLiteral("Tesla T4");
    QTest::newRow("A2") << QStringLiteral("NVIDIA A2");
}

void TestCalibration::oneDigitModelProfileRefused()
{
    // An L4 profile made an H100 step ten times slower, silently: the chip reader took two
    // to four digits only. Refused now, naming both GPUs, as any other GPU's profile.
    QFETCH(QString, measured);
    QFile source(kProfiles + QStringLiteral("/h100-2node-8gpu.json"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QByteArray text = source.readAll();
    QVERIFY(text.contains("\"NVIDIA H100 80GB HBM3\""));
    text.replace("\"NVIDIA H100 80GB HBM3\"", "\"" + measured.toUtf8() + "\"");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile profile(dir.filePath(QStringLiteral("profile.json")));
    QVERIFY(profile.open(QIODevice::WriteOnly));
    profile.write(text);
    profile.close();
    const QByteArray scenario = QString::fromUtf8(kH100Job).arg(profile.fileName()).toUtf8();
    const Result<Scenario> s = parseScenario(scenario, builtinCatalog());
    QVERIFY(!s.ok());
    QCOMPARE(QString::fromStdString(s.error().path), QStringLiteral("hardware.calibration"));
    QVERIFY2(QString::fromStdString(s.error().message).contains(measured),
             s.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
