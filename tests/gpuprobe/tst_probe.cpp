// The probe's runner on a fake backend: what it measures and writes, and what it does when
// a call fails or a result is wrong (issue 4).
#include "fake_backend.h"
#include "probe.h"
#include "probe_test_util.h"

#include "io/profile_io.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace scalescope;
using namespace scalescope::gpuprobe;

using scalescope::gpuprobe::test::figures;
using scalescope::gpuprobe::test::mentions;

namespace
{

/// Records the listener's calls and checks the progress stream as it goes.
class Recorder final : public ProbeListener
{
public:
    void progress(int d, int t, const std::string &test, const std::string &) override
    {
        if (d < done || (total >= 0 && t != total))
            monotonic = false;
        done = d;
        total = t;
        tests.insert(test);
    }
    void skipped(const std::string &test, const std::string &) override { skips.insert(test); }
    void error(const std::string &test, const std::string &) override { errors.insert(test); }

    int done = 0, total = -1;
    bool monotonic = true;
    std::set<std::string> tests, skips, errors;
};

/// Small, fast sizes for fake runs.
ProbeOptions smallOptions()
{
    ProbeOptions o;
    o.quick = true;
    o.memory_array_bytes = 4 << 20;
    o.transfer_bytes = 1 << 20;
    o.p2p_bytes = 1 << 20;
    o.collective_max_bytes = 1 << 20;
    o.gemm_sizes = {256, 4096};
    o.thermal_s = 0.2;
    o.thermal_sample_s = 0.05;
    return o;
}

ProbeResult run(FakeBackend &backend, const ProbeOptions &o, Recorder *recorder = nullptr)
{
    Cluster one;
    return runProbe(backend, one, o, recorder);
}

CalibrationProfile reread(const ProbeResult &r)
{
    const Result<CalibrationProfile> p = parseProfile(writeProbeProfile(r));
    if (!p)
        qFatal("probe profile does not parse: %s", p.error().toString().c_str());
    return p.value();
}

} // namespace

class TestProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oneGpuMeasuresEverythingLocal();
    void profileRoundTrips();
    void severalGpus();
    void noGpu();
    void badDeviceList();
    void missingLibrariesAreSkipped();
    void oldGpuSkipsPrecisions();
    void thermalSoak();
    void wrongResultsAreNotWritten_data();
    void wrongResultsAreNotWritten();
    void everyCallFailsInTurn();
    void throttleReasonNames();
};

void TestProbe::oneGpuMeasuresEverythingLocal()
{
    FakeBackend fake;
    Recorder rec;
    const ProbeResult r = run(fake, smallOptions(), &rec);
    QVERIFY(r.no_gpu_reason.empty());
    const CalibrationProfile &p = r.profile;
    QCOMPARE(p.gpus.size(), size_t(1));
    QVERIFY2(p.errors.empty(), p.errors.empty() ? "" : p.errors[0].text.c_str());
    const ProfileGpu &g = p.gpus[0];
    for (int prec = 0; prec < kPrecisionCount; ++prec)
        QCOMPARE(g.gemm_tflops[static_cast<size_t>(prec)].size(), size_t(2));
    // The fake's timing model: bandwidths and launch cost come back as configured.
    const FakeBackend::Config c;
    QVERIFY(std::abs(g.memory_bandwidth_gbps / c.memory_gbps - 1) < 0.01);
    QVERIFY(std::abs(g.h2d_pinned_gbps / c.pinned_gbps - 1) < 0.01);
    QVERIFY(std::abs(g.d2h_pageable_gbps / c.pageable_gbps - 1) < 0.01);
    QVERIFY(std::abs(g.launch_overhead_us / c.launch_us - 1) < 0.01);
    // Host-side costs are on the CPU's clock (the fake's calls cost what they cost here).
    QVERIFY(g.host_launch_us > 0 && g.host_launch_us < 1e4);
    QVERIFY(g.sync_round_trip_us > 0 && g.sync_round_trip_us < 1e4);
    // Larger GEMMs run closer to the peak.
    const auto &bf16 = g.gemm_tflops[static_cast<size_t>(Precision::BF16)];
    QVERIFY(bf16[1].tflops > bf16[0].tflops);
    QVERIFY(bf16[1].tflops < c.gemm_peak_tflops[3]);
    // One GPU: peer-to-peer and NCCL are skipped with a reason.
    QVERIFY(rec.skips.count("p2p") && rec.skips.count("nccl"));
    QVERIFY(mentions(p.skipped, "one GPU only"));
    QVERIFY(rec.monotonic);
    QCOMPARE(rec.done, rec.total);
    QVERIFY(rec.total > 0);
    QCOMPARE(fake.liveObjects(), size_t(0));
    QCOMPARE(QString::fromStdString(p.driver), QStringLiteral("580.159")); // from NVML
}

void TestProbe::profileRoundTrips()
{
    FakeBackend::Config config;
    config.gpus = 2;
    FakeBackend fake(config);
    ProbeOptions o = smallOptions();
    o.tests.push_back(TestId::Thermal);
    const ProbeResult r = run(fake, o);
    const CalibrationProfile back = reread(r);
    const CalibrationProfile &p = r.profile;
    QCOMPARE(back.gpus.size(), p.gpus.size());
    QCOMPARE(back.p2p.size(), p.p2p.size());
    QCOMPARE(back.collectives.size(), p.collectives.size());
    QCOMPARE(back.skipped.size(), p.skipped.size());
    QCOMPARE(back.errors.size(), p.errors.size());
    for (size_t i = 0; i < p.gpus.size(); ++i) {
        QCOMPARE(back.gpus[i].pci_bus_id, p.gpus[i].pci_bus_id);
        QCOMPARE(back.gpus[i].memory_bandwidth_gbps, p.gpus[i].memory_bandwidth_gbps);
        QCOMPARE(back.gpus[i].thermal_samples.size(), p.gpus[i].thermal_samples.size());
        for (int prec = 0; prec < kPrecisionCount; ++prec)
            QCOMPARE(back.gpus[i].gemm_tflops[static_cast<size_t>(prec)].size(),
                     p.gpus[i].gemm_tflops[static_cast<size_t>(prec)].size());
    }
    QCOMPARE(back.collectives.back().busbw_gbps, p.collectives.back().busbw_gbps);
    // The method and convention travel with the figures.
    const QByteArray text = writeProbeProfile(r);
    QVERIFY(text.contains("\"x-gpuprobe\""));
    QVERIFY(text.contains("bytes read plus bytes written"));
}

void TestProbe::severalGpus()
{
    FakeBackend::Config config;
    config.gpus = 4;
    FakeBackend fake(config);
    ProbeOptions o = smallOptions();
    o.tests = {TestId::P2P, TestId::Nccl};
    o.p2p_bytes = 64 << 20;
    o.collective_max_bytes = 64 << 20;
    const ProbeResult r = run(fake, o);
    const CalibrationProfile &p = r.profile;
    QVERIFY(p.errors.empty());
    QCOMPARE(p.p2p.size(), size_t(12)); // every ordered pair
    QCOMPARE(r.details.p2p_peer_access_off.size(), size_t(12));
    for (const ProfileP2P &e : p.p2p) {
        QVERIFY(e.access);
        QVERIFY(e.bandwidth_gbps > 200 && e.bandwidth_gbps < config.peer_gbps);
        QVERIFY(e.latency_us > config.peer_latency_us * 0.9);
    }
    for (const ProbeDetails::PeerOff &e : r.details.p2p_peer_access_off)
        QVERIFY(e.bandwidth_gbps < config.staged_gbps && e.bandwidth_gbps > 10);
    // 8 B to 64 MiB by 8 (quick), three operations.
    std::set<std::string> ops;
    for (const ProfileCollective &c : p.collectives) {
        ops.insert(c.op);
        QCOMPARE(c.gpus, 4);
        QCOMPARE(c.nodes, 1);
        QVERIFY(std::abs(c.algbw_gbps - c.bytes / c.time_s / 1e9) < 1e-9 * c.algbw_gbps + 1e-12);
    }
    QCOMPARE(ops.size(), size_t(3));
    const ProfileCollective &big = p.collectives[p.collectives.size() / 3 - 1];
    QCOMPARE(big.op, std::string("all_reduce"));
    QCOMPARE(big.bytes, double(64 << 20));
    QVERIFY(std::abs(big.busbw_gbps / big.algbw_gbps - 1.5) < 1e-12); // 2(n-1)/n
    QVERIFY(big.busbw_gbps > 0.9 * config.nccl_bus_gbps);
    QCOMPARE(QString::fromStdString(p.nccl), QStringLiteral("2.27.3"));
}

void TestProbe::noGpu()
{
    FakeBackend::Config config;
    config.init_failure = "no CUDA device found (cudaErrorNoDevice)";
    FakeBackend fake(config);
    const ProbeResult r = run(fake, smallOptions());
    QVERIFY(r.no_gpu_reason.find("no CUDA device") != std::string::npos);
    const CalibrationProfile back = reread(r);
    QCOMPARE(back.gpus_per_node, 0);
    QVERIFY(back.gpus.empty());
    QVERIFY(mentions(back.skipped, "no CUDA device"));

    FakeBackend::Config none;
    none.gpus = 0;
    FakeBackend empty(none);
    QCOMPARE(run(empty, smallOptions()).no_gpu_reason, std::string("no CUDA device found"));

    FakeBackend::Config unbuilt;
    unbuilt.gpus = 0;
    unbuilt.init_call = "build";
    unbuilt.init_failure = "built without CUDA";
    FakeBackend without_cuda(unbuilt);
    QCOMPARE(run(without_cuda, smallOptions()).no_gpu_reason, std::string("built without CUDA"));
}

void TestProbe::badDeviceList()
{
    FakeBackend::Config config;
    config.gpus = 2;
    FakeBackend fake(config);
    ProbeOptions o = smallOptions();
    o.devices = {1, 2};
    const ProbeResult r = run(fake, o);
    QVERIFY(r.argument_error.find("--devices: GPU 2 does not exist") != std::string::npos);

    FakeBackend second(config);
    o.devices = {1};
    o.tests = {TestId::Launch};
    const ProbeResult one = run(second, o);
    QCOMPARE(one.profile.gpus.size(), size_t(1));
    QCOMPARE(one.profile.gpus[0].index, 1);
}

void TestProbe::missingLibrariesAreSkipped()
{
    FakeBackend::Config config;
    config.gpus = 2;
    config.nccl = false;
    config.nvml = false;
    config.peer_access = false;
    FakeBackend fake(config);
    ProbeOptions o = smallOptions();
    o.tests = {TestId::P2P, TestId::Nccl, TestId::Thermal};
    Recorder rec;
    const ProbeResult r = run(fake, o, &rec);
    const CalibrationProfile p = reread(r);
    QVERIFY(p.errors.empty());
    QVERIFY(mentions(p.skipped, "dlopen(libnccl.so.2)"));
    QVERIFY(mentions(p.skipped, "dlopen(libnvidia-ml.so.1)"));
    QVERIFY(p.collectives.empty());
    QCOMPARE(p.driver, std::string("13.0")); // the CUDA driver API version instead
    // No peer access: the pair is listed, measured through the host.
    QCOMPARE(p.p2p.size(), size_t(2));
    for (const ProfileP2P &e : p.p2p) {
        QVERIFY(!e.access);
        QVERIFY(e.bandwidth_gbps > 0 && e.bandwidth_gbps < config.staged_gbps);
    }
    QCOMPARE(rec.done, rec.total);
}

void TestProbe::oldGpuSkipsPrecisions()
{
    FakeBackend::Config config;
    config.cc_major = 7;
    config.cc_minor = 5;
    FakeBackend fake(config);
    ProbeOptions o = smallOptions();
    o.tests = {TestId::Gemm};
    Recorder rec;
    const CalibrationProfile p = run(fake, o, &rec).profile;
    const ProfileGpu &g = p.gpus[0];
    QCOMPARE(g.gemm_tflops[static_cast<size_t>(Precision::FP32)].size(), size_t(2));
    QCOMPARE(g.gemm_tflops[static_cast<size_t>(Precision::FP16)].size(), size_t(2));
    QVERIFY(g.gemm_tflops[static_cast<size_t>(Precision::BF16)].empty());
    QVERIFY(g.gemm_tflops[static_cast<size_t>(Precision::FP8)].empty());
    QVERIFY(rec.skips.count("gemm.bf16") && rec.skips.count("gemm.tf32") &&
            rec.skips.count("gemm.fp8"));
    QCOMPARE(rec.done, rec.total);
}

void TestProbe::thermalSoak()
{
    FakeBackend::Config config;
    config.gpus = 2;
    FakeBackend fake(config);
    ProbeOptions o = smallOptions();
    o.tests = {TestId::Thermal};
    Recorder rec;
    const CalibrationProfile p = reread(run(fake, o, &rec));
    QVERIFY(p.errors.empty());
    for (const ProfileGpu &g : p.gpus) {
        QCOMPARE(g.thermal_samples.size(), size_t(4));
        QVERIFY(g.thermal_duration_s >= 0.15);
        for (size_t i = 1; i < g.thermal_samples.size(); ++i)
            QVERIFY(g.thermal_samples[i].t_s > g.thermal_samples[i - 1].t_s);
        QVERIFY(g.thermal_samples.front().sm_clock_mhz > 1000);
        QCOMPARE(g.thermal_samples.front().power_w, 610.0);
    }
    // The fake reports the power cap from the third reading on.
    QCOMPARE(p.gpus[1].thermal_samples.back().throttle, std::vector<std::string>{"sw_power_cap"});
    QCOMPARE(rec.done, rec.total);
}

void TestProbe::wrongResultsAreNotWritten_data()
{
    QTest::addColumn<QString>("check");
    QTest::addColumn<QString>("test");
    QTest::newRow("copies") << "verifyRandom"
                            << "memory";
    QTest::newRow("triad") << "verifyTriad"
                           << "memory";
    QTest::newRow("gemm") << "gemmCheck"
                          << "gemm.bf16";
    QTest::newRow("collectives") << "verifyCollective"
                                 << "nccl.all_reduce";
    QTest::newRow("launches") << "emptyKernel"
                              << "launch";
    QTest::newRow("download") << "hostCopy"
                              << "d2h";
}

void TestProbe::wrongResultsAreNotWritten()
{
    QFETCH(QString, check);
    QFETCH(QString, test);
    FakeBackend::Config config;
    config.gpus = 2;
    FakeBackend fake(config);
    fake.corrupt(check.toStdString());
    ProbeOptions o = smallOptions();
    o.tests.push_back(TestId::Thermal);
    const ProbeResult r = run(fake, o);
    const CalibrationProfile p = reread(r);
    const bool listed = std::any_of(p.errors.begin(), p.errors.end(), [&](const ProfileNote &n) {
        return n.test == test.toStdString() && n.text.find("figure") != std::string::npos;
    });
    QVERIFY2(listed, qPrintable(QStringLiteral("no error for %1").arg(test)));
    const ProfileGpu &g = p.gpus[0];
    if (check == QLatin1String("verifyRandom")) {
        QCOMPARE(g.memory_bandwidth_gbps, 0.0);
        QCOMPARE(g.h2d_pinned_gbps, 0.0); // uploads are checked the same way
        QVERIFY(p.p2p.size() == 2 && p.p2p[0].bandwidth_gbps == 0);
    } else if (check == QLatin1String("verifyTriad")) {
        QCOMPARE(g.memory_bandwidth_gbps, 0.0);
    } else if (check == QLatin1String("gemmCheck")) {
        for (const auto &points : g.gemm_tflops)
            QVERIFY(points.empty());
        QVERIFY(g.thermal_samples.empty()); // the load computed wrong results
    } else if (check == QLatin1String("verifyCollective")) {
        QVERIFY(p.collectives.empty());
    } else if (check == QLatin1String("emptyKernel")) {
        QCOMPARE(g.launch_overhead_us, 0.0);
    } else {
        QCOMPARE(g.d2h_pinned_gbps, 0.0);
        QVERIFY(g.h2d_pinned_gbps > 0);
    }
    QCOMPARE(fake.liveObjects(), size_t(0));
}

void TestProbe::everyCallFailsInTurn()
{
    // Every run below fails one call (CUDA, cuBLAS, NCCL or NVML) of a complete run on two
    // GPUs: the run records it with the call's name, goes on, frees what it allocated, and
    // writes a valid profile.
    FakeBackend::Config config;
    config.gpus = 2;
    ProbeOptions o = smallOptions();
    o.tests.assign(std::begin(kAllTests), std::end(kAllTests));
    o.gemm_sizes = {256};
    o.transfer_bytes = 64 << 10;
    o.repetitions = 1;
    o.warmup = 1;
    o.min_batch_s = 0;
    o.launch_kernels = 2;
    o.p2p_small_copies = 2;
    o.collective_max_bytes = 64;
    o.thermal_s = 0.002;
    o.thermal_sample_s = 0.001;

    FakeBackend clean(config);
    const ProbeResult reference = run(clean, o);
    QVERIFY(reference.profile.errors.empty());
    const std::vector<std::string> calls = clean.calls();
    const size_t clean_figures = figures(reference.profile);
    QVERIFY(calls.size() > 100);
    qInfo("%zu calls in the reference run", calls.size());
    std::set<std::string> names(calls.begin(), calls.end());
    for (const char *expected :
         {"cudaGetDeviceCount", "cudaMalloc", "cudaMemcpyAsync", "cublasLtMatmul",
          "cudaMemcpyPeerAsync", "cudaDeviceEnablePeerAccess", "ncclCommInitAll", "ncclAllReduce",
          "nvmlDeviceGetClockInfo", "nvmlDeviceGetCurrentClocksEventReasons"})
        QVERIFY2(names.count(expected), expected);

    for (size_t k = 0; k < calls.size(); ++k) {
        FakeBackend fake(config);
        fake.failCall(static_cast<int>(k));
        Recorder rec;
        const ProbeResult r = run(fake, o, &rec);
        const std::string &call = calls[k];
        const CalibrationProfile p = reread(r);
        QCOMPARE(fake.liveObjects(), size_t(0));
        if (k == 0) {
            QVERIFY(r.no_gpu_reason.find(call) != std::string::npos);
            continue;
        }
        QVERIFY2(mentions(p.errors, call) || mentions(p.skipped, call),
                 qPrintable(QStringLiteral("call %1 (%2) failed unrecorded")
                                .arg(k)
                                .arg(QString::fromStdString(call))));
        QVERIFY(mentions(p.errors, "injected failure") || mentions(p.skipped, "injected failure"));
        QVERIFY(rec.monotonic);
        QCOMPARE(rec.done, rec.total);
        // It went on: at most the figures of the failing measurement (and the GPU it broke)
        // are missing.
        QVERIFY2(figures(p) > 0 && figures(p) + clean_figures / 2 + 4 >= clean_figures,
                 qPrintable(QStringLiteral("call %1 (%2): %3 of %4 figures")
                                .arg(k)
                                .arg(QString::fromStdString(call))
                                .arg(figures(p))
                                .arg(clean_figures)));
    }
}

void TestProbe::throttleReasonNames()
{
    QCOMPARE(scalescope::gpuprobe::throttleReasonNames(0), std::vector<std::string>{});
    QCOMPARE(scalescope::gpuprobe::throttleReasonNames(0x4 | 0x40),
             (std::vector<std::string>{"sw_power_cap", "hw_thermal_slowdown"}));
    QCOMPARE(scalescope::gpuprobe::throttleReasonNames(0x1000),
             std::vector<std::string>{"other_0x1000"});
}

QTEST_GUILESS_MAIN(TestProbe)
#include "tst_probe.moc"
