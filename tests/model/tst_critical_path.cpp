// The critical path of a step (sim/critical_path.h, issue 28 item 4): small task graphs whose
// path is known by hand (two streams, a collective group, a dependency across units, a
// start-to-start edge, jittered work), and simulated steps whose path covers the step.
#include "testutil.h"

#include "sim/critical_path.h"

#include <algorithm>

using namespace scalescope;
using namespace scalescope::test;

class TestCriticalPath : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void twoStreams_data();
    void twoStreams();
    void collectiveGroupFollowsTheLatestMember();
    void dependencyAcrossUnitsAndWindow();
    void startToStartEdge();
    void jitteredWorkSplitsSlowestGpu();
    void simulatedPathCoversTheStep_data();
    void simulatedPathCoversTheStep();
    void stragglerOnThePath();
    void timelineDrawsThePathOnTheStragglersRows();
};

namespace
{

double kindSeconds(const CriticalPath &p, SegmentKind k)
{
    return p.seconds_by_kind[static_cast<size_t>(k)];
}

double pathSum(const CriticalPath &p)
{
    double sum = p.slowest_gpu_s + p.idle_s;
    for (double x : p.seconds_by_kind)
        sum += x;
    return sum;
}

bool onPath(const CriticalPath &p, TaskId id)
{
    return std::find(p.tasks.begin(), p.tasks.end(), id) != p.tasks.end();
}

} // namespace

void TestCriticalPath::twoStreams_data()
{
    QTest::addColumn<double>("collective_s");
    // A [0,1] then B [1,3] on the compute stream; C on the collective stream after A; D after
    // B on its stream and after C. A short C leaves B on the path, a long one puts C there.
    QTest::addRow("compute sets the step") << 0.5;
    QTest::addRow("collective sets the step") << 2.5;
}

void TestCriticalPath::twoStreams()
{
    QFETCH(double, collective_s);
    TaskGraph g(1);
    const TaskId a = g.add(0, Stream::Compute, SegmentKind::Compute, 1.0, 0, 0, 0);
    const TaskId b = g.add(0, Stream::Compute, SegmentKind::Compute, 2.0, 0, 0, 0);
    const TaskId c = g.add(0, Stream::Collective, SegmentKind::DpComm, collective_s, 0, 0, 0);
    const TaskId d = g.add(0, Stream::Compute, SegmentKind::Optimizer, 0.25, 0, 0, 0);
    g.depend(c, a);
    g.depend(d, c);
    QVERIFY(g.run());
    const CriticalPath p = criticalPath(g, d, 0.0);
    const double end = std::max(3.0, 1.0 + collective_s) + 0.25;
    QCOMPARE(p.span_s, end);
    QCOMPARE(pathSum(p), end);
    QCOMPARE(kindSeconds(p, SegmentKind::Optimizer), 0.25);
    QCOMPARE(p.idle_s, 0.0);
    if (collective_s < 2.0) { // D <- B <- A
        QCOMPARE(p.tasks, (std::vector<TaskId>{d, b, a}));
        QCOMPARE(kindSeconds(p, SegmentKind::Compute), 3.0);
        QCOMPARE(kindSeconds(p, SegmentKind::DpComm), 0.0);
    } else { // D <- C <- A: the exchange is exposed for 0.5 s beyond B
        QCOMPARE(p.tasks, (std::vector<TaskId>{d, c, a}));
        QCOMPARE(kindSeconds(p, SegmentKind::Compute), 1.0);
        QCOMPARE(kindSeconds(p, SegmentKind::DpComm), 2.5);
    }
}

void TestCriticalPath::collectiveGroupFollowsTheLatestMember()
{
    // Three units compute 1, 2 and 3 s, then one all-reduce (0.25 s) together; unit 0 then
    // computes 0.5 s. The group starts when unit 2 is ready: the path runs through unit 2's
    // work, not unit 0's own.
    TaskGraph g(3);
    std::vector<TaskId> work, members;
    for (uint32_t u = 0; u < 3; ++u) {
        work.push_back(g.add(u, Stream::Compute, SegmentKind::Compute, 1.0 + u, 0, 0, 0));
        members.push_back(g.add(u, Stream::Collective, SegmentKind::DpComm, 0.25, 0, 0, 0));
        g.depend(members.back(), work.back());
    }
    g.group(members);
    const TaskId after = g.add(0, Stream::Compute, SegmentKind::Compute, 0.5, 0, 0, 0);
    g.depend(after, members[0]);
    QVERIFY(g.run());
    QCOMPARE(g[after].end(), 3.75); // the step's last task
    const CriticalPath p = criticalPath(g, after, 0.0);
    QCOMPARE(p.tasks.front(), after);
    QVERIFY(onPath(p, work[2]));
    QVERIFY(!onPath(p, work[0]));
    QVERIFY(!onPath(p, work[1]));
    QCOMPARE(p.tasks.size(), size_t{3});
    QCOMPARE(p.span_s, 3.75);
    QCOMPARE(kindSeconds(p, SegmentKind::Compute), 3.5);
    QCOMPARE(kindSeconds(p, SegmentKind::DpComm), 0.25);
}

void TestCriticalPath::dependencyAcrossUnitsAndWindow()
{
    // Unit 0: X [0,1], Y [1,3]; unit 1: Z [0,0.5] then S (a pipeline send, 0.25) after Y,
    // then W [3.25,4.25]. From 2.0 on, the path holds the last second of Y, S and W.
    TaskGraph g(2);
    const TaskId x = g.add(0, Stream::Compute, SegmentKind::Compute, 1.0, 0, 0, 0);
    const TaskId y = g.add(0, Stream::Compute, SegmentKind::Compute, 2.0, 0, 0, 0);
    const TaskId z = g.add(1, Stream::Compute, SegmentKind::Compute, 0.5, 0, 0, 0);
    const TaskId s = g.add(1, Stream::PointToPoint, SegmentKind::PpComm, 0.25, 0, 0, 0);
    const TaskId w = g.add(1, Stream::Compute, SegmentKind::Compute, 1.0, 0, 0, 0);
    g.depend(s, y);
    g.depend(w, s);
    QVERIFY(g.run());
    const CriticalPath whole = criticalPath(g, w, 0.0);
    QCOMPARE(whole.tasks, (std::vector<TaskId>{w, s, y, x}));
    QVERIFY(!onPath(whole, z));
    QCOMPARE(kindSeconds(whole, SegmentKind::Compute), 4.0);
    QCOMPARE(kindSeconds(whole, SegmentKind::PpComm), 0.25);
    const CriticalPath window = criticalPath(g, w, 2.0);
    QCOMPARE(window.tasks, (std::vector<TaskId>{w, s, y}));
    QCOMPARE(window.span_s, 2.25);
    QCOMPARE(kindSeconds(window, SegmentKind::Compute), 2.0);
    QCOMPARE(pathSum(window), 2.25);
}

void TestCriticalPath::startToStartEdge()
{
    // E [0,0.5], then F [0.5,2.5] on the compute stream; L (a load, 3 s) may start once F
    // has started (a start-to-start edge); H after L. The path from H is H, L, F, E, but F
    // holds none of it (L ran beside it from its start): 0.25 + 3 + 0 + 0.5 s.
    TaskGraph g(1);
    const TaskId e = g.add(0, Stream::Compute, SegmentKind::Compute, 0.5, 0, 0, 0);
    const TaskId f = g.add(0, Stream::Compute, SegmentKind::Compute, 2.0, 0, 0, 0);
    const TaskId l = g.add(0, Stream::Loader, SegmentKind::DataLoad, 3.0, 0, 0, 0);
    const TaskId h = g.add(0, Stream::Collective, SegmentKind::DpComm, 0.25, 0, 0, 0);
    g.dependOnStart(l, f);
    g.depend(h, l);
    QVERIFY(g.run());
    QCOMPARE(g[l].start, 0.5);
    const CriticalPath p = criticalPath(g, h, 0.0);
    QCOMPARE(p.tasks, (std::vector<TaskId>{h, l, f, e}));
    QCOMPARE(kindSeconds(p, SegmentKind::DataLoad), 3.0);
    QCOMPARE(kindSeconds(p, SegmentKind::Compute), 0.5); // E only: F ran beside L
    QCOMPARE(kindSeconds(p, SegmentKind::DpComm), 0.25);
    QCOMPARE(p.idle_s, 0.0);
    QCOMPARE(pathSum(p), 3.75);
    // A window that starts after the path's first task: the first task started at from_s.
    const CriticalPath late = criticalPath(g, h, 1.0);
    QCOMPARE(late.span_s, 2.75);
    QCOMPARE(pathSum(late), 2.75);
}

void TestCriticalPath::jitteredWorkSplitsSlowestGpu()
{
    // A jittered task whose slowest member took 1.5x its calm second: 1 s of compute and
    // 0.5 s of the slowest GPU on the path.
    TaskGraph g(1);
    const TaskId a = g.add(0, Stream::Compute, SegmentKind::Compute, 1.0, 0, 0, 0);
    const TaskId b = g.add(0, Stream::Collective, SegmentKind::DpComm, 0.5, 0, 0, 0);
    g[a].jittered = true;
    g[a].duration = 1.5;
    g.depend(b, a);
    QVERIFY(g.run());
    const CriticalPath p = criticalPath(g, b, 0.0);
    QCOMPARE(kindSeconds(p, SegmentKind::Compute), 1.0);
    QCOMPARE(p.slowest_gpu_s, 0.5);
    QCOMPARE(kindSeconds(p, SegmentKind::DpComm), 0.5);
    QCOMPARE(p.span_s, 2.0);
}

void TestCriticalPath::simulatedPathCoversTheStep_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<int>("kind"); // the SegmentKind with time on the path beside compute
    QTest::addRow("claim 1 (data parallel over two nodes)")
        << QStringLiteral("claim01-sublinear-speedup") << static_cast<int>(SegmentKind::DpComm);
    QTest::addRow("claim 9b (pipeline, few micro-batches)")
        << QStringLiteral("claim09-b-few-micro-batches") << static_cast<int>(SegmentKind::PpComm);
    QTest::addRow("claim 10 (tensor parallel)") << QStringLiteral("claim10-tensor-parallel-2-gpus")
                                                << static_cast<int>(SegmentKind::TpComm);
    QTest::addRow("claim 12a (starved loader)")
        << QStringLiteral("claim12-a-starved-loader") << static_cast<int>(SegmentKind::DataLoad);
    QTest::addRow("claim 17 (experts across nodes)")
        << QStringLiteral("claim17-moe-all-to-all") << static_cast<int>(SegmentKind::EpComm);
}

void TestCriticalPath::simulatedPathCoversTheStep()
{
    QFETCH(QString, scenario);
    QFETCH(int, kind);
    const auto ctx = contextFrom(galleryScenario(qPrintable(scenario)));
    SimOptions o;
    o.iterations = 2;
    const SimResult r = simulate(*ctx, o);
    QVERIFY2(r.ok, r.error.c_str());
    const CriticalPath &p = r.critical_path;
    QVERIFY(!p.tasks.empty());
    // The path spans the measured window: one step on average, every second of it named.
    QVERIFY2(std::abs(p.span_s - r.step_time_s) <= 1e-9 * r.step_time_s,
             qPrintable(QStringLiteral("span %1 s, step %2 s").arg(p.span_s).arg(r.step_time_s)));
    QVERIFY(std::abs(pathSum(p) - p.span_s) <= 1e-9 * p.span_s);
    QVERIFY(kindSeconds(p, SegmentKind::Compute) > 0);
    QVERIFY2(kindSeconds(p, static_cast<SegmentKind>(kind)) > 0,
             segmentKindName(static_cast<SegmentKind>(kind)));
    // The pipeline bubble is idle time beside the path, never on it.
    QCOMPARE(kindSeconds(p, SegmentKind::Bubble), 0.0);
    // No kind holds more than the path.
    for (double x : p.seconds_by_kind)
        QVERIFY(x >= 0 && x <= p.span_s * (1 + 1e-12));
}

void TestCriticalPath::stragglerOnThePath()
{
    // Claim 5a without jitter: GPU 5 runs 1.4x slower. The path runs through its work, and
    // the slowest GPU's share of the path is 0.4 of the calm compute there.
    Scenario s = galleryScenario("claim05-a-sync-straggler");
    s.effects.jitter = 0;
    QCOMPARE(s.effects.stragglers.size(), size_t{1});
    const double slowdown = s.effects.stragglers.front().slowdown;
    const auto ctx = contextFrom(s);
    const SimResult r = simulate(*ctx, {});
    QVERIFY(r.ok);
    const CriticalPath &p = r.critical_path;
    // Compute and optimizer tasks are the jittered ones (sim_graph.cpp); on the path they
    // are the straggler's, each 1.4x its calm length.
    const double jittered_calm =
        kindSeconds(p, SegmentKind::Compute) + kindSeconds(p, SegmentKind::Optimizer);
    QVERIFY(p.slowest_gpu_s > 0);
    // (the engine keeps factors as floats: 1.4f is 1.4 to within 2e-8)
    QVERIFY2(std::abs(p.slowest_gpu_s - (slowdown - 1) * jittered_calm) <= 1e-7 * r.step_time_s,
             qPrintable(QStringLiteral("slowest GPU %1 s, calm compute %2 s")
                            .arg(p.slowest_gpu_s)
                            .arg(jittered_calm)));
}

void TestCriticalPath::timelineDrawsThePathOnTheStragglersRows()
{
    // Issue 28, item 4: the timeline carries the path for the window to draw. Claim 5a with
    // its straggler: the compute on the path is GPU 5's (the healthy GPUs wait for it), the
    // spans are in time order inside the drawn step and sum to the path's task time.
    const Scenario s = galleryScenario("claim05-a-sync-straggler");
    const int straggler = s.effects.stragglers.front().gpu;
    const auto ctx = contextFrom(s);
    SimOptions o;
    o.build_timeline = true;
    const SimResult r = simulate(*ctx, o);
    QVERIFY(r.ok && r.timeline);
    const std::vector<CriticalSpan> &spans = r.timeline->criticalPath();
    QVERIFY(!spans.empty());
    double compute_on_straggler = 0, compute_elsewhere = 0, covered = 0;
    for (size_t i = 0; i < spans.size(); ++i) {
        const CriticalSpan &sp = spans[i];
        QVERIFY(sp.row >= 0 && sp.row < r.timeline->rows());
        QVERIFY(sp.end_s > sp.start_s);
        QVERIFY(sp.start_s >= -1e-12 && sp.end_s <= r.timeline->endTime() + 1e-9);
        if (i > 0)
            QVERIFY(sp.start_s >= spans[i - 1].start_s);
        covered += sp.end_s - sp.start_s;
        if (sp.row % kStreamCount == static_cast<int>(Stream::Compute))
            (sp.row / kStreamCount == straggler ? compute_on_straggler : compute_elsewhere) +=
                sp.end_s - sp.start_s;
    }
    QVERIFY2(compute_on_straggler > 10 * compute_elsewhere,
             qPrintable(QStringLiteral("GPU %1: %2 s, others %3 s")
                            .arg(straggler)
                            .arg(compute_on_straggler)
                            .arg(compute_elsewhere)));
    QVERIFY(covered <= r.critical_path.span_s * 1.000001 + 1e-12);
    QVERIFY(covered >= 0.5 * r.critical_path.span_s);
}

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_critical_path.moc"
