// "What if this were free" (analysis/what_if.h, issue 28 item 4): the causes a scenario has,
// gains known by hand (an exposed exchange, a starved loader, a straggler), the link whose
// speed moves the step ranked first and named by the bottleneck sentence.
#include "testutil.h"

#include "analysis/evaluation.h"
#include "analysis/what_if.h"

#include <algorithm>

using namespace scalescope;
using namespace scalescope::test;

class TestWhatIf : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void causesPresent_data();
    void causesPresent();
    void freeLinkGainsTheExposedExchange_data();
    void freeLinkGainsTheExposedExchange();
    void freeLoaderGainsTheStarvation();
    void freeStragglerGainsItsSlowness();
    void hostGainsItsExcessOnly();
    void linkThatMovesTheStepComesFirst_data();
    void linkThatMovesTheStepComesFirst();
    void nameLinkByGain();
};

namespace
{

std::vector<WhatIfGain> gainsOf(const Scenario &s, Bottleneck *bottleneck = nullptr)
{
    EvaluationRequest request;
    request.what_if = true;
    const Result<ScenarioEvaluation> e = evaluateScenario(s, request);
    if (!e)
        qFatal("evaluation failed: %s", e.error().toString().c_str());
    if (bottleneck)
        *bottleneck = e.value().step.summary.bottleneck;
    return e.value().what_if;
}

const WhatIfGain *find(const std::vector<WhatIfGain> &gains, WhatIfCause cause)
{
    const auto it = std::find_if(gains.begin(), gains.end(),
                                 [cause](const WhatIfGain &g) { return g.cause == cause; });
    return it == gains.end() ? nullptr : &*it;
}

} // namespace

void TestWhatIf::causesPresent_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QStringList>("causes"); // in WhatIfCause order
    QTest::addRow("one GPU") << QStringLiteral("one-gpu")
                             << QStringList{QStringLiteral("host_overhead")};
    QTest::addRow("one node") << QStringLiteral("claim14-small-model")
                              << QStringList{QStringLiteral("intra_node_link"),
                                             QStringLiteral("host_overhead")};
    QTest::addRow("two nodes") << QStringLiteral("default")
                               << QStringList{QStringLiteral("intra_node_link"),
                                              QStringLiteral("inter_node_network"),
                                              QStringLiteral("host_overhead")};
    QTest::addRow("pipeline") << QStringLiteral("claim09-b-few-micro-batches")
                              << QStringList{QStringLiteral("intra_node_link"),
                                             QStringLiteral("pipeline_bubble"),
                                             QStringLiteral("host_overhead")};
    QTest::addRow("straggler") << QStringLiteral("claim05-a-sync-straggler")
                               << QStringList{QStringLiteral("intra_node_link"),
                                              QStringLiteral("host_overhead"),
                                              QStringLiteral("slowest_gpu")};
    QTest::addRow("loader") << QStringLiteral("claim12-a-starved-loader")
                            << QStringList{QStringLiteral("intra_node_link"),
                                           QStringLiteral("host_overhead"),
                                           QStringLiteral("data_loader")};
    QTest::addRow("experts") << QStringLiteral("claim17-moe-all-to-all")
                             << QStringList{QStringLiteral("intra_node_link"),
                                            QStringLiteral("inter_node_network"),
                                            QStringLiteral("host_overhead"),
                                            QStringLiteral("expert_imbalance")};
}

void TestWhatIf::causesPresent()
{
    QFETCH(QString, scenario);
    QFETCH(QStringList, causes);
    const Scenario s =
        scenario == QLatin1String("one-gpu")
            ? scenarioFrom(R"({"scalescope": 1, "name": "one GPU",
                 "hardware": {"gpu": "rtx-4090-24gb", "nodes": 1, "gpus_per_node": 1},
                 "model": "gpt2-124m",
                 "training": {"global_batch": 8, "micro_batch": 4, "precision": "bf16",
                              "optimizer": "adam"}})")
            : galleryScenario(qPrintable(scenario));
    const auto ctx = contextFrom(s);
    const Summary summary = simulateSummary(s);
    QStringList got;
    for (WhatIfCause c : whatIfCauses(*ctx, summary))
        got << QLatin1String(whatIfCauseId(c));
    QCOMPARE(got, causes);
    // The evaluation lists the same causes, largest gain first.
    const std::vector<WhatIfGain> gains = gainsOf(s);
    QCOMPARE(gains.size(), static_cast<size_t>(causes.size()));
    for (size_t i = 1; i < gains.size(); ++i)
        QVERIFY(gains[i - 1].gain_s >= gains[i].gain_s);
    for (const WhatIfGain &g : gains)
        QVERIFY(std::abs(std::max(0.0, summary.step_time_s - g.step_time_s) - g.gain_s) <=
                1e-12 * summary.step_time_s);
}

void TestWhatIf::freeLinkGainsTheExposedExchange_data()
{
    QTest::addColumn<bool>("overlap");
    QTest::addRow("exchange after the backward pass") << false;
    QTest::addRow("exchange overlapped with the backward pass") << true;
}

void TestWhatIf::freeLinkGainsTheExposedExchange()
{
    // Eight A100 PCIe in one node, DDP: the only communication is the gradient exchange over
    // PCIe. With the link free, the step loses exactly its exposed communication, less the
    // fixed NCCL latency each all-reduce keeps (6 us per bucket, comm/collective.cpp).
    QFETCH(bool, overlap);
    const QByteArray json =
        QByteArray(R"({"scalescope": 1, "name": "DDP on one node",
        "hardware": {"gpu": "a100-pcie-80gb", "nodes": 1, "gpus_per_node": 8, "intra_node": "pcie4"},
        "model": "gpt2-1.5b",
        "training": {"global_batch": 64, "micro_batch": 4, "precision": "bf16", "optimizer": "adam",
                     "framework": "pytorch-ddp"},
        "parallel": {"overlap": )") +
        (overlap ? "true" : "false") + R"(, "bucket_mb": 25}})";
    const Scenario s = scenarioFrom(json.constData());
    const Summary summary = simulateSummary(s);
    const Breakdown &b = summary.breakdown;
    QVERIFY(b.communication_exposed > 0.01 * summary.step_time_s);
    QCOMPARE(b.tp_comm + b.pp_comm + b.ep_comm + b.cp_comm, 0.0);
    const std::vector<WhatIfGain> gains = gainsOf(s);
    const WhatIfGain *intra = find(gains, WhatIfCause::IntraNodeLink);
    QVERIFY(intra);
    QVERIFY(!find(gains, WhatIfCause::InterNodeNetwork));
    // Buckets of 25 MB over 1.5 B bf16 gradients (3 GB): about 120 all-reduces of 6 us.
    const double residual = 130 * 6e-6;
    // The reductions that overlap the backward hold 2 of the A100's 108 SMs while they run
    // (NCCL over PCIe, ComputeModel::communicationSmShare): a free link also gives back that
    // slowed compute, at most 2/108 of the compute the reductions run beside.
    const double contention =
        overlap ? 2.0 / 108.0 * std::min(b.communication_total, b.compute) : 0.0;
    QVERIFY2(intra->gain_s <= b.communication_exposed + contention + 1e-9 &&
                 intra->gain_s >= b.communication_exposed - residual,
             qPrintable(QStringLiteral("gain %1 s, exposed communication %2 s")
                            .arg(intra->gain_s)
                            .arg(b.communication_exposed)));
    QCOMPARE(gains.front().cause, WhatIfCause::IntraNodeLink);
}

void TestWhatIf::freeLoaderGainsTheStarvation()
{
    // Claim 12a: 6 workers of 300 images/s feed each A100 1,800 images/s; a GPU's 256 images
    // take 256 / 1,800 s to load, longer than it computes them. Free, the step is the GPUs'
    // own: the same scenario without a loader.
    Scenario s = galleryScenario("claim12-a-starved-loader");
    const Summary starved = simulateSummary(s);
    QVERIFY(std::abs(starved.step_time_s - 256.0 / 1800.0) <= 1e-9);
    Scenario unstarved = s;
    unstarved.effects.data_loader.enabled = false;
    const double own = simulateSummary(unstarved).step_time_s;
    QVERIFY(own < starved.step_time_s);
    const std::vector<WhatIfGain> gains = gainsOf(s);
    QCOMPARE(gains.front().cause, WhatIfCause::DataLoader);
    QVERIFY(std::abs(gains.front().step_time_s - own) <= 1e-12 * own);
    QVERIFY(std::abs(gains.front().gain_s - (256.0 / 1800.0 - own)) <= 1e-9);
}

void TestWhatIf::freeStragglerGainsItsSlowness()
{
    // Claim 5a without jitter: GPU 5 is 1.4x slower and every replica waits for it. Free,
    // the step loses 0.4 of the compute the straggler does on the critical path (the path
    // measures it independently: sim/critical_path.h).
    Scenario s = galleryScenario("claim05-a-sync-straggler");
    s.effects.jitter = 0;
    const auto ctx = contextFrom(s);
    const SimResult r = simulate(*ctx, {});
    QVERIFY(r.ok);
    const CriticalPath &p = r.critical_path;
    const double calm = p.seconds_by_kind[static_cast<size_t>(SegmentKind::Compute)] +
                        p.seconds_by_kind[static_cast<size_t>(SegmentKind::Optimizer)];
    const std::vector<WhatIfGain> gains = gainsOf(s);
    const WhatIfGain *slowest = find(gains, WhatIfCause::SlowestGpu);
    QVERIFY(slowest);
    QCOMPARE(gains.front().cause, WhatIfCause::SlowestGpu);
    QVERIFY2(std::abs(slowest->gain_s - 0.4 * calm) <= 1e-7 * r.step_time_s,
             qPrintable(QStringLiteral("gain %1 s, 0.4 x %2 s of calm compute on the path")
                            .arg(slowest->gain_s)
                            .arg(calm)));
}

void TestWhatIf::hostGainsItsExcessOnly()
{
    // Claim 9b's layers run longer than the host issues them: without the host the step is
    // the same to the last bit (what whatIfFree takes without simulating it again).
    const Scenario hidden = galleryScenario("claim09-b-few-micro-batches");
    const auto ctx = contextFrom(hidden);
    QCOMPARE(ctx->workload.host_excess_per_micro_batch_s, 0.0);
    const auto free = contextWithoutCause(*ctx, WhatIfCause::HostOverhead);
    QVERIFY(free);
    QCOMPARE(simulate(*free.value(), {}).step_time_s, simulate(*ctx, {}).step_time_s);
    const WhatIfGain *host = find(gainsOf(hidden), WhatIfCause::HostOverhead);
    QVERIFY(host);
    QCOMPARE(host->gain_s, 0.0);
    // One GPU whose host takes 1 ms per operation: every layer lasts as long as the host
    // issues it. Free, each of the step's micro-batches gains the host's excess over the GPU.
    const Scenario one = scenarioFrom(R"({"scalescope": 1, "name": "one GPU",
        "hardware": {"gpu": "rtx-4090-24gb", "nodes": 1, "gpus_per_node": 1},
        "model": "gpt2-124m",
        "training": {"global_batch": 8, "micro_batch": 4, "precision": "bf16",
                     "optimizer": "adam"}})");
    Plan plan = contextFrom(one)->plan;
    plan.host.op_s = 1e-3;
    const SimContext host_bound(one, plan);
    const double excess = host_bound.workload.host_excess_per_micro_batch_s;
    QVERIFY(excess > 0);
    QCOMPARE(plan.micro_batches, int64_t{2});
    StepEvaluation step;
    step.sim = simulate(host_bound, {});
    QVERIFY(step.sim.ok);
    step.summary.step_time_s = step.sim.step_time_s;
    const Result<std::vector<WhatIfGain>> gains = whatIfFree(host_bound, step, {});
    QVERIFY(gains);
    const WhatIfGain *g = find(gains.value(), WhatIfCause::HostOverhead);
    QVERIFY(g);
    QVERIFY2(std::abs(g->gain_s - 2 * excess) <= 1e-9 * step.sim.step_time_s,
             qPrintable(QStringLiteral("gain %1 s, host excess %2 s per micro-batch")
                            .arg(g->gain_s)
                            .arg(excess)));
}

void TestWhatIf::linkThatMovesTheStepComesFirst_data()
{
    addClaim1LinkRows({"pcie3", "pcie5"}, {"eth-10g", "eth-100g", "ib-hdr-200", "ib-ndr-400"});
}

void TestWhatIf::linkThatMovesTheStepComesFirst()
{
    // Each link in turn made a hundred times faster (bandwidth only), the step simulated
    // again: the link whose speed-up moves the step more must have the larger what-if gain,
    // and a sentence that names a link names it.
    QFETCH(QString, intra);
    QFETCH(QString, inter);
    QFETCH(QString, gpu);
    const Scenario base = claim1OnLinks(intra, inter, gpu);
    const double step = simulateSummary(base).step_time_s;
    const double intra_move = step - simulateSummary(withFasterLink(base, true, 100)).step_time_s;
    const double inter_move = step - simulateSummary(withFasterLink(base, false, 100)).step_time_s;
    if (std::abs(intra_move - inter_move) < 0.01 * step)
        QSKIP("both links move the step alike");
    const bool network = inter_move > intra_move;
    Bottleneck bottleneck;
    const std::vector<WhatIfGain> gains = gainsOf(base, &bottleneck);
    const WhatIfGain *intra_gain = find(gains, WhatIfCause::IntraNodeLink);
    const WhatIfGain *inter_gain = find(gains, WhatIfCause::InterNodeNetwork);
    QVERIFY(intra_gain && inter_gain);
    QVERIFY2((inter_gain->gain_s > intra_gain->gain_s) == network,
             qPrintable(QStringLiteral("a faster %1 moves the step by %2 ms, a faster %3 by %4 "
                                       "ms; free, they gain %5 and %6 ms")
                            .arg(intra)
                            .arg(intra_move * 1e3)
                            .arg(inter)
                            .arg(inter_move * 1e3)
                            .arg(intra_gain->gain_s * 1e3)
                            .arg(inter_gain->gain_s * 1e3)));
    // The larger link gain ranks before the other.
    const auto rank = [&](const WhatIfGain *g) { return g - gains.data(); };
    QVERIFY(network ? rank(inter_gain) < rank(intra_gain) : rank(intra_gain) < rank(inter_gain));
    if (bottleneck.link.empty())
        return;
    const std::string &expected = network ? base.hardware.inter.name : base.hardware.intra.name;
    QCOMPARE(bottleneck.link, expected);
    QVERIFY(bottleneckText(bottleneck).find(expected) != std::string::npos);
}

void TestWhatIf::nameLinkByGain()
{
    // Claim 1: the data group spans both nodes, so either hop can be named.
    const auto ctx = contextFrom(galleryScenario("claim01-sublinear-speedup"));
    const HardwareSpec &hw = ctx->scenario.hardware;
    Bottleneck b;
    b.kind = BottleneckKind::DpExchange;
    b.link = hw.intra.name;
    std::vector<WhatIfGain> gains = {{WhatIfCause::InterNodeNetwork, 1.0, 0.4},
                                     {WhatIfCause::IntraNodeLink, 1.3, 0.1}};
    scalescope::nameLinkByGain(b, gains, *ctx);
    QCOMPARE(b.link, hw.inter.name);
    std::swap(gains[0].gain_s, gains[1].gain_s);
    scalescope::nameLinkByGain(b, gains, *ctx);
    QCOMPARE(b.link, hw.intra.name);
    // A tie keeps the name.
    gains[0].gain_s = gains[1].gain_s;
    scalescope::nameLinkByGain(b, gains, *ctx);
    QCOMPARE(b.link, hw.intra.name);
    // Claim 10: the tensor group sits inside one node; its sentence keeps the node's link
    // whatever the network would gain.
    const auto tp = contextFrom(galleryScenario("claim10-tensor-parallel-2-gpus"));
    Bottleneck t;
    t.kind = BottleneckKind::TpAllReduce;
    t.link = tp->scenario.hardware.intra.name;
    scalescope::nameLinkByGain(t, {{WhatIfCause::InterNodeNetwork, 1.0, 0.4},
                                   {WhatIfCause::IntraNodeLink, 1.3, 0.1}},
                               *tp);
    QCOMPARE(t.link, tp->scenario.hardware.intra.name);
    // A kind without a link is left alone.
    Bottleneck bubble;
    bubble.kind = BottleneckKind::PipelineBubble;
    scalescope::nameLinkByGain(bubble, gains, *ctx);
    QVERIFY(bubble.link.empty());
}

QTEST_GUILESS_MAIN(TestWhatIf)
#include "tst_what_if.moc"
