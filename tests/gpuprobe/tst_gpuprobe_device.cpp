// gpuprobe on the real GPU (label gpu): skipped with the reason where there is none.
#include "cli.h"
#include "dynamic_libs.h"
#include "probe.h"

#include "io/profile_io.h"

#include <QRegularExpression>
#include <QTest>

using namespace scalescope;
using namespace scalescope::gpuprobe;

namespace
{

/// The reason there is no usable GPU here, or "" when there is one.
std::string noGpuReason()
{
    const std::unique_ptr<Backend> backend = makeCudaBackend();
    RuntimeInfo info;
    const CallStatus s = backend->init(&info);
    if (!s.ok())
        return s.call + ": " + s.message;
    return info.device_count > 0 ? std::string() : std::string("no CUDA device found");
}

} // namespace

class TestGpuprobeDevice : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void quickProbeOnGpu0();
    void ncclLibraryLoads();

private:
    std::string no_gpu_;
};

void TestGpuprobeDevice::initTestCase()
{
    no_gpu_ = noGpuReason();
}

void TestGpuprobeDevice::quickProbeOnGpu0()
{
    if (!no_gpu_.empty())
        QSKIP(qPrintable(QStringLiteral("no usable GPU: %1").arg(QString::fromStdString(no_gpu_))));
    const std::unique_ptr<Backend> backend = makeCudaBackend();
    ProbeOptions o;
    o.quick = true;
    o.devices = {0};
    o.tests = {TestId::Gemm, TestId::Memory, TestId::Transfer, TestId::Launch};
    o.gemm_sizes = {1024, 4096};
    Cluster one;
    const ProbeResult r = runProbe(*backend, one, o, nullptr);
    QVERIFY(r.no_gpu_reason.empty());
    QVERIFY2(r.profile.errors.empty(),
             r.profile.errors.empty() ? "" : r.profile.errors[0].text.c_str());
    const ProfileGpu &g = r.profile.gpus.at(0);
    QVERIFY(!g.gemm_tflops[static_cast<size_t>(Precision::FP32)].empty());
    QVERIFY(g.memory_bandwidth_gbps > 50);
    QVERIFY(g.h2d_pinned_gbps > 1 && g.d2h_pinned_gbps > 1);
    QVERIFY(g.launch_overhead_us > 0.1 && g.launch_overhead_us < 100);
    // cudaLaunchKernel returns in a few microseconds; a synchronize round trip costs more.
    QVERIFY(g.host_launch_us > 0.1 && g.host_launch_us < 100);
    QVERIFY(g.sync_round_trip_us > g.host_launch_us && g.sync_round_trip_us < 1000);
    QVERIFY(parseProfile(writeProbeProfile(r)).ok());
}

void TestGpuprobeDevice::ncclLibraryLoads()
{
    // dlopen + ncclGetVersion need no GPU, only the library.
    NcclLibrary nccl;
    std::string version;
    const CallStatus s = nccl.load(&version);
    if (!s.ok())
        QSKIP(qPrintable(QString::fromStdString("NCCL not installed: " + s.message)));
    QVERIFY2(QRegularExpression(QStringLiteral("^2\\.\\d+\\.\\d+$"))
                 .match(QString::fromStdString(version))
                 .hasMatch(),
             version.c_str());
}

QTEST_GUILESS_MAIN(TestGpuprobeDevice)
#include "tst_gpuprobe_device.moc"
