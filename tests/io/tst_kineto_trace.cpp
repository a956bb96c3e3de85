// The streaming Kineto trace reader (model/io/kineto_trace.h) and the measured figures
// (model/analysis/measured_run.h): kernel classes by name, the rank's device, launches,
// gzip by content, progress and cancel, the spec's median and p90 (spec/cli.md "trace").
#include "analysis/measured_run.h"
#include "analysis/measured_timeline.h"
#include "io/kineto_trace.h"

#include <QTest>

#include <zlib.h>

#include <atomic>
#include <cmath>

using namespace scalescope;

namespace
{

QByteArray gzipped(const QByteArray &bytes)
{
    z_stream z{};
    // 15 + 16: a gzip wrapper (zlib manual, deflateInit2).
    if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out(static_cast<qsizetype>(deflateBound(&z, static_cast<uLong>(bytes.size()))),
                   '\0');
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(bytes.constData()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(static_cast<qsizetype>(z.total_out));
    deflateEnd(&z);
    return rc == Z_STREAM_END ? out : QByteArray();
}

QByteArray kernelEvent(const char *name, double ts, double dur, int device, int correlation)
{
    return QStringLiteral("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%1\",\"pid\":%3,\"tid\":7,"
                          "\"ts\":%2,\"dur\":%4,\"args\":{\"device\":%3,\"correlation\":%5,"
                          "\"stream\":7}}")
        .arg(QLatin1String(name))
        .arg(ts)
        .arg(device)
        .arg(dur)
        .arg(correlation)
        .toUtf8();
}

} // namespace

class TestKinetoTrace : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classify_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("cls");
        QTest::addColumn<QString>("kind");
        const int compute = int(ActivityClass::Compute), comm = int(ActivityClass::Communication);
        QTest::newRow("gemm") << "ampere_bf16_s16816gemm" << compute << "";
        QTest::newRow("all-reduce")
            << "ncclKernel_AllReduce_RING_LL_Sum_float" << comm << "AllReduce";
        QTest::newRow("any case") << "NCCLDEVKERNEL_ALLGATHER_RING" << comm << "AllGather";
        QTest::newRow("reduce-scatter")
            << "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL" << comm << "ReduceScatter";
        QTest::newRow("all-to-all") << "ncclKernel_AllToAll" << comm << "AllToAll";
        QTest::newRow("broadcast")
            << "ncclKernel_Broadcast_RING_LL_Sum_int8_t" << comm << "Broadcast";
        QTest::newRow("send-recv")
            << "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t" << comm << "SendRecv";
        QTest::newRow("send") << "ncclDevKernel_Send" << comm << "SendRecv";
        QTest::newRow("recv") << "ncclDevKernel_Recv" << comm << "SendRecv";
        QTest::newRow("other nccl") << "ncclDevKernel_Generic" << comm << "Other";
        // The first kind in the spec's order wins.
        QTest::newRow("first kind") << "nccl_Broadcast_AllReduce" << comm << "AllReduce";
        QTest::newRow("deep_ep intranode")
            << "void deep_ep::intranode::dispatch<8>(int4*)" << comm << "AllToAll";
        QTest::newRow("deep_ep internode")
            << "void deep_ep::internode::combine(void*)" << comm << "AllToAll";
        QTest::newRow("dpsk internode_ll")
            << "dpsk::ep::internode_ll::dispatch" << comm << "AllToAll";
        QTest::newRow("deep_ep layout")
            << "void deep_ep::get_dispatch_layout<256>(long*)" << compute << "";
        QTest::newRow("deep_ep other namespace")
            << "deep_ep::layout::internode::x" << compute << "";
        QTest::newRow("DeepEP case") << "DEEP_EP::intranode::dispatch" << compute << "";
    }
    void classify()
    {
        QFETCH(QString, name);
        QFETCH(int, cls);
        QFETCH(QString, kind);
        const QByteArray n = name.toUtf8();
        const KernelClass k = classifyKernel(n.constData(), static_cast<size_t>(n.size()));
        QCOMPARE(int(k.cls), cls);
        QCOMPARE(QString::fromLatin1(commKindName(k.kind)), kind);
    }

    void devicePropertiesRankAndDevice()
    {
        // Device 1 ran most kernels: device 0's kernel is left out, but properties come later
        // in the file than the events and still name the GPU.
        const QByteArray doc =
            "{\"distributedInfo\":{\"rank\":5,\"world_size\":8},\"traceEvents\":[" +
            kernelEvent("a", 10, 5, 0, 1) + "," + kernelEvent("b", 20, 5, 1, 2) + "," +
            kernelEvent("c", 30, 5, 1, 3) +
            "],\"deviceProperties\":[{\"id\":0,\"name\":\"G0\"},"
            "{\"id\":1,\"name\":\"G1\"}]}";
        const Result<KinetoTrace> t = parseKinetoTrace(doc, QStringLiteral("t.json"));
        QVERIFY2(t, t ? "" : t.error().toString().c_str());
        QCOMPARE(t.value().rank, int64_t{5});
        QCOMPARE(t.value().world_size, int64_t{8});
        QCOMPARE(t.value().device, std::string("1"));
        QCOMPARE(t.value().gpu_name, std::string("G1"));
        QCOMPARE(t.value().kernels, size_t{2});
        QCOMPARE(t.value().kernels_other_devices, size_t{1});
        QCOMPARE(t.value().activities.size(), size_t{2});
    }

    void tieGoesToLowestDevice()
    {
        const QByteArray doc = "{\"traceEvents\":[" + kernelEvent("a", 10, 5, 3, 1) + "," +
                               kernelEvent("b", 20, 5, 2, 2) + "]}";
        const Result<KinetoTrace> t = parseKinetoTrace(doc, QStringLiteral("t.json"));
        QVERIFY(t);
        QCOMPARE(t.value().device, std::string("2"));
        QVERIFY(!t.value().has_gpu_name);
    }

    void lastLaunchPerCorrelation()
    {
        const QByteArray doc =
            "{\"traceEvents\":[" + kernelEvent("a", 10, 5, 0, 9) +
            ",{\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"ph\":\"X\",\"ts\":1,"
            "\"dur\":3,\"tid\":1,\"args\":{\"correlation\":9}},"
            "{\"cat\":\"cuda_driver\",\"name\":\"cuLaunchKernel\",\"ph\":\"X\",\"ts\":2,\"dur\":5,"
            "\"tid\":1,\"args\":{\"correlation\":9}}]}";
        const Result<KinetoTrace> t = parseKinetoTrace(doc, QStringLiteral("t.json"));
        QVERIFY(t);
        QCOMPARE(t.value().launches.size(), size_t{1});
        QCOMPARE(t.value().launches[0].start_us, 2.0);
        QCOMPARE(t.value().launch_host_us.size(), size_t{2});
    }

    void gzipAndProgressAndCancel()
    {
        QByteArray doc = "{\"traceEvents\":[";
        for (int i = 0; i < 40000; ++i)
            doc += (i ? "," : "") + kernelEvent("ampere_sgemm", 10.0 * i, 5, 0, i);
        doc += "]}";
        const QByteArray packed = gzipped(doc);
        QVERIFY(!packed.isEmpty() && packed.size() < doc.size());
        int64_t last = -1, total = 0;
        int calls = 0;
        TraceReadOptions progress;
        progress.progress = [&](int64_t done, int64_t all) {
            QVERIFY(done >= last);
            last = done;
            total = all;
            ++calls;
        };
        const Result<KinetoTrace> plain = parseKinetoTrace(doc, QStringLiteral("t.json"));
        const Result<KinetoTrace> gz = parseKinetoTrace(packed, QStringLiteral("t.json"), progress);
        QVERIFY(plain && gz);
        QCOMPARE(gz.value().kernels, size_t{40000});
        QCOMPARE(gz.value().activities.size(), plain.value().activities.size());
        QVERIFY(calls >= 2);
        QCOMPARE(total, int64_t(packed.size()));
        QCOMPARE(last, int64_t(packed.size()));

        std::atomic<bool> cancel{true};
        TraceReadOptions stop;
        stop.cancel = &cancel;
        const Result<KinetoTrace> cancelled = parseKinetoTrace(doc, QStringLiteral("t.json"), stop);
        QVERIFY(!cancelled);
        QCOMPARE(cancelled.error().path, std::string(kTraceCancelled));
    }

    void numbersAndDurations()
    {
        // ts as an integer and a float, dur missing, negative, a string and NaN: length 0,
        // yet kernels; a ts that is a string makes no activity.
        const QByteArray doc =
            "{\"traceEvents\":["
            "{\"cat\":\"kernel\",\"name\":\"a\",\"ts\":100,\"pid\":0},"
            "{\"cat\":\"kernel\",\"name\":\"b\",\"ts\":100.5,\"dur\":-1,\"pid\":0},"
            "{\"cat\":\"kernel\",\"name\":\"c\",\"ts\":101,\"dur\":\"7\",\"pid\":0},"
            "{\"cat\":\"kernel\",\"name\":\"d\",\"ts\":102,\"dur\":NaN,\"pid\":0},"
            "{\"cat\":\"kernel\",\"name\":\"e\",\"ts\":\"103\",\"dur\":1,\"pid\":0},"
            "{\"cat\":\"kernel\",\"name\":\"f\",\"ts\":104,\"dur\":2,\"pid\":0}]}";
        const Result<KinetoTrace> t = parseKinetoTrace(doc, QStringLiteral("t.json"));
        QVERIFY2(t, t ? "" : t.error().toString().c_str());
        QCOMPARE(t.value().kernels, size_t{5});
        const MeasuredRank r = measureRank(t.value());
        QCOMPARE(r.steps.size(), size_t{1});
        QCOMPARE(r.steps[0].step_time_s, 6e-6); // 100 to 106
        QCOMPARE(r.steps[0].compute_s, 2e-6);
    }

    void timelineRows()
    {
        // No ProfilerStep: one window [0, 22) us. Compute on two streams [0,10) and [5,15) is
        // one segment; AllReduce [12,20) on the collective row, SendRecv [20,22) on the
        // point-to-point row; the copy [1,2) is not drawn (no row for copies).
        const QByteArray doc =
            "{\"traceEvents\":[" + kernelEvent("gemm", 0, 10, 0, 1) + "," +
            kernelEvent("gemm", 5, 10, 0, 2) + "," +
            kernelEvent("ncclKernel_AllReduce_RING", 12, 8, 0, 3) + "," +
            kernelEvent("ncclDevKernel_SendRecv", 20, 2, 0, 4) +
            ",{\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD\",\"ts\":1,\"dur\":1,\"pid\":0}]}";
        const Result<KinetoTrace> t = parseKinetoTrace(doc, QStringLiteral("t.json"));
        QVERIFY(t);
        const std::vector<MeasuredRank> ranks{measureRank(t.value())};
        const Timeline tl =
            measuredTimeline({&t.value()}, ranks, {measuredCriticalPaths(t.value(), ranks[0])});
        QCOMPARE(tl.gpus(), 1);
        const auto only = [&](Stream s, double start_us, double dur_us, SegmentKind kind) {
            const int row = static_cast<int>(s);
            QCOMPARE(tl.rowEnd(row) - tl.rowBegin(row), size_t{1});
            const size_t i = tl.rowBegin(row);
            QVERIFY(std::fabs(tl.start(i) - start_us * 1e-6) < 1e-12);
            QVERIFY(std::fabs(tl.duration(i) - dur_us * 1e-6) < 1e-12);
            QCOMPARE(tl.kind(i), kind);
        };
        only(Stream::Compute, 0, 15, SegmentKind::Compute);
        only(Stream::Collective, 12, 8, SegmentKind::DpComm);
        only(Stream::PointToPoint, 20, 2, SegmentKind::PpComm);
        QCOMPARE(tl.rowEnd(int(Stream::Receive)), tl.rowBegin(int(Stream::Receive)));
        QCOMPARE(tl.label(tl.rowBegin(0)), std::string("compute kernels"));
    }

    void overlappingAnnotations()
    {
        // Annotations 1 [0,100) and 2 [50,80) overlap; 3 is [200,300). Launches at 60 (the
        // latest-starting annotation that holds it: 2), 90 (1), 150 (no step) and 250 (3).
        // Windows in order of first activity: 2 [100,120), 1 [120,300), 3 [300,310).
        QByteArray doc = "{\"traceEvents\":[";
        const auto step = [](int n, double ts, double dur) {
            return QStringLiteral("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":"
                                  "\"ProfilerStep#%1\",\"ts\":%2,\"dur\":%3},")
                .arg(n)
                .arg(ts)
                .arg(dur)
                .toUtf8();
        };
        const auto launch = [](double ts, int c) {
            return QStringLiteral("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":"
                                  "\"cudaLaunchKernel\",\"ts\":%1,\"dur\":1,\"tid\":3,"
                                  "\"args\":{\"correlation\":%2}},")
                .arg(ts)
                .arg(c)
                .toUtf8();
        };
        doc += step(1, 0, 100) + step(2, 50, 30) + step(3, 200, 100);
        doc += launch(60, 1) + launch(90, 2) + launch(150, 3) + launch(250, 4);
        doc += kernelEvent("k1", 100, 10, 0, 1) + "," + kernelEvent("k2", 120, 5, 0, 2) + "," +
               kernelEvent("k3", 160, 5, 0, 3) + "," + kernelEvent("k4", 300, 10, 0, 4) + "]}";
        const Result<KinetoTrace> t = parseKinetoTrace(doc, QStringLiteral("t.json"));
        QVERIFY2(t, t ? "" : t.error().toString().c_str());
        const MeasuredRank r = measureRank(t.value());
        QCOMPARE(r.steps.size(), size_t{3});
        QCOMPARE(r.steps[0].number, int64_t{2});
        QCOMPARE(r.steps[0].start_us, 100.0);
        QCOMPARE(r.steps[0].end_us, 120.0);
        QCOMPARE(r.steps[1].number, int64_t{1});
        QCOMPARE(r.steps[1].end_us, 300.0);
        QCOMPARE(r.steps[2].number, int64_t{3});
        QCOMPARE(r.steps[2].end_us, 310.0);
        QCOMPARE(r.notes.activities_outside_steps, size_t{1});
        // Step 1's window holds k2 and k3 (whichever step launched them): 10 us of compute.
        QVERIFY(std::fabs(r.steps[1].compute_s - 10e-6) < 1e-15);
    }

    void statistics_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("p90");
        // numpy.median / numpy.percentile(x, 90) give these.
        QTest::newRow("one") << QList<double>{3} << 3.0 << 3.0;
        QTest::newRow("two") << QList<double>{1, 2} << 1.5 << 1.9;
        QTest::newRow("three") << QList<double>{5, 1, 3} << 3.0 << 4.6;
        QTest::newRow("four") << QList<double>{4, 1, 3, 2} << 2.5 << 3.7;
        QTest::newRow("eleven") << QList<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10} << 5.0 << 9.0;
    }
    void statistics()
    {
        QFETCH(QList<double>, values);
        QFETCH(double, median);
        QFETCH(double, p90);
        const std::vector<double> v(values.begin(), values.end());
        QCOMPARE(medianOf(v), median);
        QVERIFY(std::fabs(percentileOf(v, 0.9) - p90) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestKinetoTrace)
#include "tst_kineto_trace.moc"
