// Pipeline schedules, the task-graph engine and the timeline structure.
#include "testutil.h"

#include "analysis/memory.h"
#include "sim/engine.h"
#include "sim/schedule.h"
#include "sim/timeline.h"

#include <map>
#include <set>

using namespace scalescope;
using namespace scalescope::test;

class TestEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scheduleOrders_data();
    void scheduleOrders();
    void oneFOneBWarmup();
    void engineChain();
    void engineCollectiveWaitsForSlowest();
    void engineDetectsDeadlock();
    void timelineLookup();
    void timelineBytesPerSegment();
    void pipelineBubbleMatchesClosedForm_data();
    void pipelineBubbleMatchesClosedForm();
};

void TestEngine::scheduleOrders_data()
{
    QTest::addColumn<int>("schedule");
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("micro_batches");
    QTest::addColumn<int>("chunks");
    QTest::newRow("gpipe") << int(Schedule::GPipe) << 4 << 8 << 1;
    QTest::newRow("1f1b") << int(Schedule::OneFOneB) << 4 << 8 << 1;
    QTest::newRow("1f1b-few") << int(Schedule::OneFOneB) << 8 << 3 << 1;
    QTest::newRow("interleaved") << int(Schedule::Interleaved) << 4 << 8 << 2;
    QTest::newRow("interleaved-v3") << int(Schedule::Interleaved) << 4 << 12 << 3;
}

void TestEngine::scheduleOrders()
{
    QFETCH(int, schedule);
    QFETCH(int, stages);
    QFETCH(int, micro_batches);
    QFETCH(int, chunks);
    for (int s = 0; s < stages; ++s) {
        const auto order =
            pipelineOrder(static_cast<Schedule>(schedule), stages, s, micro_batches, chunks);
        QCOMPARE(order.size(), size_t(2 * micro_batches * chunks));
        std::set<std::pair<int, int>> forwards, backwards;
        int live = 0, peak = 0;
        for (const PipelineOp &op : order) {
            const auto key = std::make_pair(op.micro_batch, op.chunk);
            QVERIFY(op.micro_batch >= 0 && op.micro_batch < micro_batches);
            QVERIFY(op.chunk >= 0 && op.chunk < chunks);
            if (op.forward()) {
                QVERIFY(forwards.insert(key).second);
            } else {
                QVERIFY(forwards.count(key)); // backward only after its forward
                QVERIFY(backwards.insert(key).second);
            }
            live += op.forward() ? 1 : -1;
            peak = std::max(peak, live);
        }
        QCOMPARE(forwards.size(), size_t(micro_batches * chunks));
        // The memory model's closed form equals the replayed peak.
        QCOMPARE(peakInFlight(static_cast<Schedule>(schedule), stages, s, micro_batches, chunks),
                 double(peak));
        if (schedule == int(Schedule::GPipe))
            QCOMPARE(peak, micro_batches); // GPipe keeps every micro-batch alive
        if (schedule == int(Schedule::OneFOneB))
            QCOMPARE(peak, std::min(stages - s, micro_batches)); // 1F1B bounds it by depth
    }
}

void TestEngine::oneFOneBWarmup()
{
    // PipeDream-Flush (Narayanan et al. 2021, Fig. 4): stage s runs p - s - 1 warm-up
    // forwards, then alternates.
    const auto order = pipelineOrder(Schedule::OneFOneB, 4, 1, 8, 1);
    QVERIFY(order[0].forward() && order[1].forward() && order[2].forward());
    QVERIFY(!order[3].forward());
    QCOMPARE(order[3].micro_batch, 0);
}

void TestEngine::engineChain()
{
    TaskGraph g(2);
    const TaskId a = g.add(0, Stream::Compute, SegmentKind::Compute, 1.0, 0, 0, 0);
    const TaskId b = g.add(0, Stream::Compute, SegmentKind::Compute, 2.0, 0, 1, 0);
    const TaskId c = g.add(1, Stream::Compute, SegmentKind::Compute, 0.5, 0, 0, 0);
    g.depend(c, b); // unit 1 waits for unit 0's second task
    QVERIFY(g.run());
    QCOMPARE(g[a].start, 0.0);
    QCOMPARE(g[b].start, 1.0);
    QCOMPARE(g[c].start, 3.0);
    QCOMPARE(g[c].binding, b);
}

void TestEngine::engineCollectiveWaitsForSlowest()
{
    TaskGraph g(3);
    std::vector<TaskId> members;
    for (uint32_t u = 0; u < 3; ++u) {
        const TaskId work = g.add(u, Stream::Compute, SegmentKind::Compute, 1.0 + u, 0, 0, 0);
        const TaskId coll = g.add(u, Stream::Collective, SegmentKind::DpComm, 0.25, 0, 0, 0);
        g.depend(coll, work);
        members.push_back(coll);
    }
    g.group(members);
    QVERIFY(g.run());
    for (TaskId m : members) {
        QCOMPARE(g[m].start, 3.0); // the slowest member was ready at 3
        QCOMPARE(g[m].end(), 3.25);
    }
    QCOMPARE(g[members[0]].ready, 1.0);
}

void TestEngine::engineDetectsDeadlock()
{
    TaskGraph g(1);
    const TaskId a = g.add(0, Stream::Compute, SegmentKind::Compute, 1.0, 0, 0, 0);
    const TaskId b = g.add(0, Stream::Compute, SegmentKind::Compute, 1.0, 0, 0, 0);
    g.depend(a, b); // a runs before b on its stream but waits for b: a cycle
    QVERIFY(!g.run());
}

void TestEngine::timelineLookup()
{
    TimelineBuilder b(2, 2, 1);
    const uint32_t l = b.internLabel("x");
    QCOMPARE(b.internLabel("x"), l);
    b.beginRow(0);
    for (int i = 0; i < 100; ++i)
        b.add(i * 1.0, 0.5, SegmentKind::Compute, l, i);
    b.beginRow(kStreamCount);
    b.add(0.0, 2.0, SegmentKind::Wait, l, -1);
    const Timeline t = b.finish();
    QCOMPARE(t.rows(), 2 * kStreamCount);
    QCOMPARE(t.rowEnd(0) - t.rowBegin(0), size_t(100));
    QCOMPARE(t.rowBegin(1), t.rowEnd(1));              // empty rows in between
    QCOMPARE(t.firstEndingAfter(0, 10.2), size_t(10)); // segment 10 ends at 10.5
    QCOMPARE(t.firstEndingAfter(0, 10.5), size_t(11));
    QCOMPARE(t.firstEndingAfter(0, 1e9), t.rowEnd(0));
    QCOMPARE(t.firstEndingAfter(kStreamCount, 1.0), t.rowBegin(kStreamCount));
    QCOMPARE(t.endTime(), 99.5);
}

void TestEngine::timelineBytesPerSegment()
{
    // DESIGN.md budget: at most 32 bytes per timeline segment.
    QVERIFY(Timeline::bytesPerSegment() <= 32);
}

void TestEngine::pipelineBubbleMatchesClosedForm_data()
{
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<int>("virtual_stages");
    QTest::addColumn<int>("micro_batches");
    QTest::newRow("gpipe m8") << "gpipe" << 1 << 8;
    QTest::newRow("1f1b m8") << "1f1b" << 1 << 8;
    QTest::newRow("1f1b m32") << "1f1b" << 1 << 32;
    QTest::newRow("interleaved v2 m8") << "interleaved" << 2 << 8;
    QTest::newRow("interleaved v4 m16") << "interleaved" << 4 << 16;
}

void TestEngine::pipelineBubbleMatchesClosedForm()
{
    // SC21 Sec. 2.2: with uniform stages the step is (m + (p-1)/v) (t_f + t_b); the bubble
    // is (p-1)/(v m) of the ideal time. A uniform custom model with tiny activations keeps
    // the point-to-point sends negligible.
    QFETCH(QString, schedule);
    QFETCH(int, virtual_stages);
    QFETCH(int, micro_batches);
    const QByteArray json = QStringLiteral(R"({ "scalescope": 1,
      "hardware": { "gpu": "a100-sxm4-80gb", "gpus_per_node": 4, "intra_node": "nvlink3" },
      "model": { "custom": { "params": 4e9, "forward_flops_per_sample": 4e13,
                             "activation_bytes_per_sample": 1e3, "layers": 32 } },
      "training": { "global_batch": %1, "micro_batch": 1, "optimizer": "sgd" },
      "parallel": { "pipeline": 4, "schedule": "%2", "virtual_stages": %3 } })")
                                .arg(micro_batches)
                                .arg(schedule)
                                .arg(virtual_stages)
                                .toUtf8();
    const Scenario s = scenarioFrom(json.constData());
    const auto ctx = contextFrom(s);
    double per_mb = 0;
    for (const LayerCost &l : ctx->workload.layers)
        per_mb += l.fwd_s + l.bwd_s;
    per_mb /= 4; // one stage
    const SimResult r = simulate(*ctx, SimOptions{});
    QVERIFY(r.ok);
    const double p = 4, m = micro_batches, v = virtual_stages;
    const double ideal = m * per_mb;
    const double expected = (m + (p - 1) / v) * per_mb;
    // Optimizer step and sends add a little.
    QVERIFY2(r.step_time_s >= expected * 0.999 && r.step_time_s < expected * 1.03,
             qPrintable(QStringLiteral("step %1 expected %2").arg(r.step_time_s).arg(expected)));
    const double bubble_share = r.breakdown.pipeline_bubble / ideal;
    QVERIFY2(std::abs(bubble_share - (p - 1) / (v * m)) < 0.02,
             qPrintable(QStringLiteral("bubble %1 of ideal, expected %2")
                            .arg(bubble_share)
                            .arg((p - 1) / (v * m))));
}

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
