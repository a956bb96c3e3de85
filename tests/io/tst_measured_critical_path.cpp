// The critical path of a measured step (model/analysis/measured_critical_path.h), issue 28
// item 4: small traces whose paths are known by hand (a GPU-bound stream, a host-bound
// thread, a recorded and an inferred cross-stream wait, a host synchronisation), the reader's
// `cuda_sync` fields, and the shared real traces (each path covers its step exactly).
#include "analysis/measured_critical_path.h"
#include "analysis/measured_run.h"
#include "analysis/measured_timeline.h"
#include "io/kineto_trace.h"

#include <QDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace scalescope;

namespace
{

QString kernel(const char *name, int stream, double ts, double dur, int correlation)
{
    return QStringLiteral("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%1\",\"pid\":0,\"tid\":%2,"
                          "\"ts\":%3,\"dur\":%4,\"args\":{\"device\":0,\"stream\":%2,"
                          "\"correlation\":%5}}")
        .arg(QLatin1String(name))
        .arg(stream)
        .arg(ts)
        .arg(dur)
        .arg(correlation);
}

QString runtime(const char *name, double ts, double dur, int correlation, int thread = 1)
{
    return QStringLiteral("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"%1\",\"pid\":100,"
                          "\"tid\":%5,\"ts\":%2,\"dur\":%3,\"args\":{\"correlation\":%4}}")
        .arg(QLatin1String(name))
        .arg(ts)
        .arg(dur)
        .arg(correlation)
        .arg(thread);
}

QString step(int n, double ts, double dur)
{
    return QStringLiteral("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%1\","
                          "\"pid\":100,\"tid\":1,\"ts\":%2,\"dur\":%3}")
        .arg(n)
        .arg(ts)
        .arg(dur);
}

QString streamWait(int stream, int correlation, int producer_stream, int record_correlation)
{
    return QStringLiteral("{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"Stream Wait Event\","
                          "\"pid\":0,\"tid\":%1,\"ts\":9,\"dur\":0,\"args\":{\"device\":0,"
                          "\"stream\":%1,\"correlation\":%2,\"wait_on_stream\":%3,"
                          "\"wait_on_cuda_event_record_corr_id\":%4}}")
        .arg(stream)
        .arg(correlation)
        .arg(producer_stream)
        .arg(record_correlation);
}

struct Parsed {
    KinetoTrace trace;
    MeasuredRank rank;
    std::vector<MeasuredCriticalPath> paths;
};

Parsed parse(const QStringList &events)
{
    const QByteArray doc =
        QStringLiteral("{\"traceEvents\":[%1]}").arg(events.join(QLatin1Char(','))).toUtf8();
    Result<KinetoTrace> t = parseKinetoTrace(doc, QStringLiteral("t.json"));
    Parsed p;
    if (!t)
        return p;
    p.trace = std::move(t).value();
    p.rank = measureRank(p.trace);
    p.paths = measuredCriticalPaths(p.trace, p.rank);
    return p;
}

double us(const MeasuredCriticalPath &p, PathPart part)
{
    return p.seconds[static_cast<size_t>(part)] * 1e6;
}
size_t links(const MeasuredCriticalPath &p, PathLink link)
{
    return p.links[static_cast<size_t>(link)];
}

// The parts add up to the step, and the segments tile it in time order.
bool tiles(const MeasuredCriticalPath &p)
{
    double sum = 0;
    for (double s : p.seconds)
        sum += s;
    const double span = (p.end_us - p.start_us) * 1e-6;
    if (std::abs(sum - span) > 1e-9 * std::max(1.0, span))
        return false;
    if (p.segments.empty())
        return span == 0;
    if (p.segments.front().start_us != p.start_us || p.segments.back().end_us != p.end_us)
        return false;
    for (size_t i = 1; i < p.segments.size(); ++i) {
        if (p.segments[i].start_us != p.segments[i - 1].end_us)
            return false;
    }
    return true;
}

QString sharedTrace(const char *name)
{
    return QDir(QStringLiteral(SCALESCOPE_SHARED_DIR "/traces")).filePath(QLatin1String(name));
}

} // namespace

class TestMeasuredCriticalPath : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Kernels queued ahead of a busy stream: the stream's order sets the step; the gaps
    // between kernels are launch gaps; the host is off the path.
    void gpuBoundStreamIsThePath()
    {
        const Parsed p =
            parse({step(1, 0, 20), runtime("cudaLaunchKernel", 0, 5, 1),
                   runtime("cudaLaunchKernel", 6, 5, 2), runtime("cudaLaunchKernel", 12, 5, 3),
                   kernel("gemm_a", 7, 10, 100, 1), kernel("gemm_b", 7, 112, 100, 2),
                   kernel("gemm_c", 7, 215, 100, 3)});
        QCOMPARE(p.paths.size(), size_t{1});
        const MeasuredCriticalPath &c = p.paths[0];
        QVERIFY(tiles(c));
        QCOMPARE(c.start_us, 10.0);
        QCOMPARE(c.end_us, 315.0);
        QCOMPARE(us(c, PathPart::Compute), 300.0);
        QCOMPARE(us(c, PathPart::LaunchGap), 5.0);
        QCOMPARE(us(c, PathPart::Host), 0.0);
        QCOMPARE(links(c, PathLink::StreamOrder), size_t{2});
        QVERIFY(!c.waits_recorded);
    }

    // Kernels shorter than the host's pace: each waits for its launch, and the host's own work
    // between launches is on the path.
    void hostBoundThreadIsThePath()
    {
        const Parsed p =
            parse({step(1, 0, 210), runtime("cudaLaunchKernel", 0, 5, 1),
                   runtime("cudaLaunchKernel", 100, 5, 2), runtime("cudaLaunchKernel", 200, 5, 3),
                   kernel("gemm_a", 7, 8, 10, 1), kernel("gemm_b", 7, 108, 10, 2),
                   kernel("gemm_c", 7, 208, 10, 3)});
        QCOMPARE(p.paths.size(), size_t{1});
        const MeasuredCriticalPath &c = p.paths[0];
        QVERIFY(tiles(c));
        QCOMPARE(c.start_us, 8.0);
        QCOMPARE(c.end_us, 218.0);
        QCOMPARE(us(c, PathPart::Compute), 10.0);  // only the last kernel
        QCOMPARE(us(c, PathPart::LaunchGap), 3.0); // 205 -> 208
        QCOMPARE(us(c, PathPart::Host), 197.0);    // 8 -> 205 on the thread
        QCOMPARE(links(c, PathLink::Launch), size_t{1});
        QCOMPARE(links(c, PathLink::HostOrder), size_t{2});
    }

    // A collective on its own stream waits for the compute stream through a recorded event
    // (cuda_sync): the path runs from the compute kernel into the collective.
    void recordedWaitLinksTwoStreams()
    {
        const QStringList events = {step(1, 0, 20),
                                    runtime("cudaLaunchKernel", 0, 5, 1),
                                    runtime("cudaEventRecord", 6, 1, 2),
                                    runtime("cudaStreamWaitEvent", 8, 1, 3),
                                    runtime("cudaLaunchKernel", 10, 5, 4),
                                    kernel("gemm_a", 7, 10, 100, 1),
                                    kernel("ncclKernel_AllReduce_RING_LL_Sum_bf16", 20, 112, 50, 4),
                                    streamWait(20, 3, 7, 2)};
        const Parsed p = parse(events);
        QCOMPARE(p.trace.syncs.size(), size_t{1});
        const TraceSync &w = p.trace.syncs[0];
        QCOMPARE(int(w.kind), int(SyncKind::StreamWaitEvent));
        QCOMPARE(w.stream, 20);
        QCOMPARE(w.producer_stream, 7);
        QCOMPARE(w.correlation, int64_t{3});
        QCOMPARE(w.record_correlation, int64_t{2});
        QCOMPARE(p.paths.size(), size_t{1});
        const MeasuredCriticalPath &c = p.paths[0];
        QVERIFY(tiles(c));
        QVERIFY(c.waits_recorded);
        QCOMPARE(links(c, PathLink::RecordedWait), size_t{1});
        QCOMPARE(links(c, PathLink::InferredWait), size_t{0});
        QCOMPARE(us(c, PathPart::Compute), 100.0);
        QCOMPARE(us(c, PathPart::Communication), 50.0);
        QCOMPARE(c.communication_by_kind_s[static_cast<size_t>(CommKind::AllReduce)] * 1e6, 50.0);
        QCOMPARE(us(c, PathPart::LaunchGap), 2.0);

        // The same run without cuda_sync events: the wait is inferred from timing.
        QStringList unrecorded = events;
        unrecorded.removeLast();
        const Parsed q = parse(unrecorded);
        const MeasuredCriticalPath &d = q.paths.at(0);
        QVERIFY(tiles(d));
        QVERIFY(!d.waits_recorded);
        QCOMPARE(links(d, PathLink::InferredWait), size_t{1});
        QCOMPARE(us(d, PathPart::Compute), 100.0);
        QCOMPARE(us(d, PathPart::Communication), 50.0);

        // A stream that starts long after everything it could wait for ended is not
        // inferred to wait (kInferredWaitUs): its gap stays a launch gap.
        QStringList late = unrecorded;
        late[6] = kernel("ncclKernel_AllReduce_RING_LL_Sum_bf16", 20, 200, 50, 4);
        const Parsed r = parse(late);
        const MeasuredCriticalPath &e = r.paths.at(0);
        QVERIFY(tiles(e));
        QCOMPARE(links(e, PathLink::InferredWait), size_t{0});
        QCOMPARE(links(e, PathLink::Launch), size_t{1});
    }

    // The host waits in cudaStreamSynchronize for a long kernel, then launches the next: the
    // path runs through the kernel, the sync's return and the host's launch.
    void hostSyncWaitsForTheGpu()
    {
        const Parsed p = parse({step(1, 0, 530), runtime("cudaLaunchKernel", 0, 5, 1),
                                runtime("cudaStreamSynchronize", 10, 505, 2),
                                runtime("cudaLaunchKernel", 520, 5, 3),
                                kernel("gemm_a", 7, 10, 500, 1), kernel("gemm_b", 7, 527, 10, 3)});
        QCOMPARE(p.trace.launches.size(), size_t{3});
        QCOMPARE(int(p.trace.launches[1].wait), int(HostWait::Stream));
        QCOMPARE(double(p.trace.launches[1].dur_us), 505.0);
        const MeasuredCriticalPath &c = p.paths.at(0);
        QVERIFY(tiles(c));
        QCOMPARE(us(c, PathPart::Compute), 510.0); // gemm_a and gemm_b
        QCOMPARE(us(c, PathPart::Host), 15.0);     // 510 -> 525: sync return, launch
        QCOMPARE(us(c, PathPart::LaunchGap), 2.0);
        QCOMPARE(links(c, PathLink::HostSync), size_t{1});
    }

    // The shared real traces: every step's path tiles the step; the measured timeline carries
    // the paths on its rows.
    void sharedTracesTileTheirSteps_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *f :
             {"a100-2rank-cnn-rank0.json.gz", "a100-128rank-rank0.json.gz",
              "a100-128rank-rank1.json.gz", "deepseek-v3-dualpipe-h800-rank0.json.gz"})
            QTest::newRow(f) << sharedTrace(f);
    }
    void sharedTracesTileTheirSteps()
    {
        QFETCH(QString, file);
        if (!QFileInfo::exists(file))
            QSKIP("the shared traces are not beside this checkout");
        Result<KinetoTrace> t = readKinetoTrace(file);
        QVERIFY(t.ok());
        const MeasuredRank rank = measureRank(t.value());
        const std::vector<MeasuredCriticalPath> paths = measuredCriticalPaths(t.value(), rank);
        QCOMPARE(paths.size(), rank.steps.size());
        for (const MeasuredCriticalPath &c : paths) {
            QString line = QStringLiteral("step %1 %2 us:").arg(c.step).arg(c.end_us - c.start_us);
            for (int i = 0; i < kPathPartCount; ++i)
                line += QStringLiteral(" %1 %2")
                            .arg(QLatin1String(pathPartName(PathPart(i))))
                            .arg(c.seconds[size_t(i)] * 1e6, 0, 'f', 0);
            line += QStringLiteral(" |");
            for (int i = 0; i < kPathLinkCount; ++i)
                line += QStringLiteral(" %1 %2")
                            .arg(QLatin1String(pathLinkName(PathLink(i))))
                            .arg(c.links[size_t(i)]);
            qInfo("%s", qPrintable(line));
            QVERIFY(tiles(c));
            // The path is on a kernel only where one runs: its other parts cover at least the
            // step's idle time, and its compute (communication) at most the step's.
            const auto it = std::find_if(rank.steps.begin(), rank.steps.end(),
                                         [&](const MeasuredStep &m) { return m.number == c.step; });
            QVERIFY(it != rank.steps.end());
            const double off_gpu = us(c, PathPart::Host) + us(c, PathPart::LaunchGap) +
                                   us(c, PathPart::Untraced) + us(c, PathPart::Copy);
            QVERIFY2(off_gpu >= it->idle_s * 1e6 - 1e-3, qPrintable(line));
            QVERIFY(us(c, PathPart::Compute) <= it->compute_s * 1e6 + 1e-3);
            QVERIFY(us(c, PathPart::Communication) <= it->communication_s * 1e6 + 1e-3);
        }
        // DeepSeek-V3's DualPipe chunk keeps its GPU busy (0.4% idle): its path runs on
        // kernels, not on the host that polls for them.
        if (file.contains(QLatin1String("deepseek"))) {
            const MeasuredCriticalPath &c = paths.front();
            QVERIFY(us(c, PathPart::Compute) + us(c, PathPart::Communication) >
                    0.8 * (c.end_us - c.start_us));
        }
        const Timeline timeline = measuredTimeline({&t.value()}, {rank}, {paths});
        QVERIFY(!timeline.criticalPath().empty());
        for (const CriticalSpan &s : timeline.criticalPath()) {
            QVERIFY(s.row >= 0 && s.row < kStreamCount);
            QVERIFY(s.end_s >= s.start_s);
            QVERIFY(s.start_s >= -1e-9);
        }
    }
};

QTEST_GUILESS_MAIN(TestMeasuredCriticalPath)
#include "tst_measured_critical_path.moc"
