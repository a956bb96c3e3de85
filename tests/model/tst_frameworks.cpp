// The software stack as a mechanism (issue 12): what each stack overlaps, gathers and
// reduces, and which plans it runs; engine and closed form agree on them.
#include "testutil.h"

#include <cmath>

using namespace scalescope;
using namespace scalescope::test;

class TestFrameworks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void zero3MovesMoreThanDataParallelOnOneStack_data();
    void zero3MovesMoreThanDataParallelOnOneStack();
    void onDemandGathersAreExposed();
    void gathersPerParameterPayTheRingLatency();
    void tensorParallelOverlapHidesCollectives();
    void pipelineSendsBetweenNodesPayTheNetwork();
    void engineAndClosedFormAgreeOnStacks_data();
    void engineAndClosedFormAgreeOnStacks();
    void scenarioKeysOverrideStackDefaults();
    void bottleneckNamesTheLinkCrossed();
    void planOfAnotherStackIsRefusedByThePlan();
    void fsdpShardsAreTheMasterWeights();
};

namespace
{

Scenario gpt2(const char *framework, int zero, int nodes = 1, int micro_batch = 2)
{
    const QByteArray json = QStringLiteral(
                                R"({"scalescope": 1, "hardware": {"gpu": "a100-sxm4-80gb",
      "nodes": %1, "gpus_per_node": 8, "intra_node": "nvlink3", "inter_node": "ib-hdr-200",
      "nics_per_node": 8},
      "model": "gpt2-1.5b",
      "training": {"global_batch": 64, "micro_batch": %4, "precision": "bf16",
                   "framework": "%2"},
      "parallel": {"zero": %3}})")
                                .arg(nodes)
                                .arg(QLatin1String(framework))
                                .arg(zero)
                                .arg(micro_batch)
                                .toUtf8();
    return scenarioFrom(json.constData());
}

} // namespace

void TestFrameworks::zero3MovesMoreThanDataParallelOnOneStack_data()
{
    QTest::addColumn<QString>("framework");
    QTest::newRow("pytorch-fsdp") << QStringLiteral("pytorch-fsdp");
    QTest::newRow("deepspeed") << QStringLiteral("deepspeed");
    QTest::newRow("megatron-deepspeed") << QStringLiteral("megatron-deepspeed");
}

void TestFrameworks::zero3MovesMoreThanDataParallelOnOneStack()
{
    // ZeRO-3 gathers the parameters in forward and backward and reduce-scatters the
    // gradients: 1.5x the all-reduce of plain data parallelism in the same precision
    // (Rajbhandari et al. 2020, ZeRO, Sec. 7.2.2), with one micro-batch per step. With
    // gradient accumulation ZeRO-3 gathers and reduces again for every micro-batch, while
    // data parallelism all-reduces once: 4 micro-batches move 4 x 1.5 = 6x. FSDP gathers a
    // unit in one collective, so its time follows the volume; DeepSpeed gathers per module
    // or per parameter, each collective paying the ring's latency on top (below).
    QFETCH(QString, framework);
    const std::string id = framework.toStdString();
    for (const auto &[micro_batch, expected] : {std::pair{8, 1.5}, std::pair{2, 6.0}}) {
        const Summary ddp = simulateSummary(gpt2(id.c_str(), 0, 1, micro_batch));
        const Summary z3 = simulateSummary(gpt2(id.c_str(), 3, 1, micro_batch));
        const double ratio = z3.breakdown.communication_total / ddp.breakdown.communication_total;
        const QString what = QStringLiteral("micro-batch %1: %2").arg(micro_batch).arg(ratio);
        if (id == "pytorch-fsdp")
            QVERIFY2(std::abs(ratio / expected - 1.0) < 0.05, qPrintable(what));
        else
            QVERIFY2(ratio > expected * 1.05, qPrintable(what));
    }
}

void TestFrameworks::gathersPerParameterPayTheRingLatency()
{
    // DeepSpeed's ZeRO-3 of 2021 issued one all-gather per parameter tensor
    // (FrameworkSpec::Zero3Gather::Parameter): GPT-2's 12 per layer (weights and biases of
    // four linears and two LayerNorms). The bytes are those of one gather per layer; each
    // extra collective pays a ring's latency, ranks - 1 hops, so the extra grows with the
    // data-parallel degree (NCCL's all-gather is a ring).
    double extra_at[2] = {0, 0};
    const int nodes[2] = {1, 8};
    for (int k = 0; k < 2; ++k) {
        const auto ctx = contextFrom(gpt2("megatron-deepspeed", 3, nodes[k], 1));
        QCOMPARE(int(ctx->plan.stack.zero3_gather), int(FrameworkSpec::Zero3Gather::Parameter));
        Plan unit_plan = ctx->plan;
        unit_plan.stack.zero3_gather = FrameworkSpec::Zero3Gather::Unit;
        const SimContext unit(ctx->scenario, unit_plan);
        double per_parameter = 0, per_unit = 0, bytes = 0, unit_bytes = 0, tensors = 0;
        for (const StepChunk &c : ctx->step.chunks)
            for (const StepPiece &p : c.pieces) {
                per_parameter += p.gather.time_s;
                bytes += p.gather.bytes;
                tensors += p.param_tensors;
            }
        for (const StepChunk &c : unit.step.chunks)
            for (const StepPiece &p : c.pieces) {
                per_unit += p.gather.time_s;
                unit_bytes += p.gather.bytes;
            }
        QVERIFY(std::abs(bytes / unit_bytes - 1.0) < 1e-9); // the same volume
        QCOMPARE(tensors, 48.0 * 12.0 + 1.0 + 2.0);         // 48 layers, embedding, final norm
        extra_at[k] = per_parameter - per_unit;
        QVERIFY2(extra_at[k] > 0, qPrintable(QString::number(extra_at[k])));
    }
    // 64 ranks over 8 nodes against 8 in one: 63 hops, some over the network, against 7
    // (the launch latency of each call does not grow, and small gathers pick the low-latency
    // protocol).
    QVERIFY2(extra_at[1] > 4.0 * extra_at[0],
             qPrintable(QStringLiteral("%1 vs %2").arg(extra_at[1]).arg(extra_at[0])));
}

void TestFrameworks::onDemandGathersAreExposed()
{
    // DeepSpeed ZeRO-3 as SC21's baseline ran it fetches on demand: its gathers and
    // reductions are all exposed; FSDP prefetches and hides nearly all of them.
    const Summary fetched = simulateSummary(gpt2("megatron-deepspeed", 3, 4));
    const Summary prefetched = simulateSummary(gpt2("pytorch-fsdp", 3, 4));
    QVERIFY(fetched.breakdown.communication_exposed > 0.95 * fetched.breakdown.communication_total);
    QVERIFY(prefetched.breakdown.communication_exposed <
            0.5 * prefetched.breakdown.communication_total);
}

void TestFrameworks::tensorParallelOverlapHidesCollectives()
{
    // Same plan and the same explicit keys: Megatron-Core overlaps the tensor-parallel
    // collectives with the GEMMs (--tp-comm-overlap), Megatron-LM (2021) does not.
    const char *json = R"({"scalescope": 1, "hardware": {"gpu": "h100-sxm5-80gb",
      "gpus_per_node": 8, "intra_node": "nvlink4"},
      "model": {"transformer": {"layers": 8, "hidden": 8192, "heads": 64, "seq_len": 4096,
                                "vocab": 32000}},
      "training": {"global_batch": 8, "micro_batch": 1, "precision": "bf16",
                   "flash_attention": true, "framework": "%1"},
      "parallel": {"tensor": 8, "sequence_parallel": true, "overlap": true,
                   "bucket_mb": 25}})";
    const auto build = [&](const char *f) {
        return scenarioFrom(QString::fromLatin1(json).arg(QLatin1String(f)).toUtf8().constData());
    };
    const auto lm = contextFrom(build("megatron-lm"));
    const auto core = contextFrom(build("megatron-core"));
    QVERIFY(!lm->plan.tp_overlap);
    QVERIFY(core->plan.tp_overlap);
    const Summary a = summarize(*lm, simulate(*lm, {}));
    const Summary b = summarize(*core, simulate(*core, {}));
    QVERIFY2(b.breakdown.communication_exposed < 0.5 * a.breakdown.communication_exposed,
             qPrintable(QStringLiteral("%1 vs %2")
                            .arg(b.breakdown.communication_exposed)
                            .arg(a.breakdown.communication_exposed)));
    QVERIFY(b.step_time_s < a.step_time_s);
}

void TestFrameworks::pipelineSendsBetweenNodesPayTheNetwork()
{
    // 2 nodes x 4 GPUs, pipeline 8: stages 4 and 5 sit on different nodes (rank placement:
    // tensor innermost, then data, then pipeline), so a 1 Mb/s network is slower than NDR.
    const char *json = R"({"scalescope": 1, "hardware": {"gpu": "a100-sxm4-80gb",
      "nodes": 2, "gpus_per_node": 4, "intra_node": "nvlink3", "inter_node": %1},
      "model": "gpt2-1.5b", "training": {"global_batch": 16, "micro_batch": 1},
      "parallel": {"pipeline": 8}})";
    const auto with = [&](const char *network) {
        return simulateSummary(scenarioFrom(
            QString::fromLatin1(json).arg(QLatin1String(network)).toUtf8().constData()));
    };
    const Summary fast = with(R"("ib-ndr-400")");
    const Summary slow = with(R"({"name": "1 Mb/s", "line_rate_gbit": 0.001, "latency_us": 100})");
    QVERIFY(contextFrom(scenarioFrom(QString::fromLatin1(json)
                                         .arg(QLatin1String(R"("ib-ndr-400")"))
                                         .toUtf8()
                                         .constData()))
                ->plan.pipelineCrossesNodes());
    QVERIFY2(slow.step_time_s > 2.0 * fast.step_time_s,
             qPrintable(QStringLiteral("%1 vs %2").arg(slow.step_time_s).arg(fast.step_time_s)));
}

void TestFrameworks::engineAndClosedFormAgreeOnStacks_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<int>("zero");
    QTest::newRow("fsdp zero3") << QStringLiteral("pytorch-fsdp") << 3;
    QTest::newRow("megatron-deepspeed zero3") << QStringLiteral("megatron-deepspeed") << 3;
    QTest::newRow("megatron-deepspeed ddp") << QStringLiteral("megatron-deepspeed") << 0;
    QTest::newRow("deepspeed zero1") << QStringLiteral("deepspeed") << 1;
}

void TestFrameworks::engineAndClosedFormAgreeOnStacks()
{
    // The closed form reads the same step description: within 5% on the step and on the
    // exposed communication (of the step).
    QFETCH(QString, framework);
    QFETCH(int, zero);
    const auto ctx = contextFrom(gpt2(framework.toStdString().c_str(), zero, 2));
    const Summary engine = summarize(*ctx, simulate(*ctx, {}));
    const Summary closed = analyticSummary(*ctx);
    QVERIFY2(
        std::abs(closed.step_time_s / engine.step_time_s - 1.0) < 0.05,
        qPrintable(QStringLiteral("%1 vs %2").arg(closed.step_time_s).arg(engine.step_time_s)));
    QVERIFY(std::abs(closed.breakdown.communication_exposed -
                     engine.breakdown.communication_exposed) < 0.05 * engine.step_time_s);
}

void TestFrameworks::scenarioKeysOverrideStackDefaults()
{
    // Megatron-DeepSpeed defaults to one all-reduce after the backward pass (bucket 0, no
    // overlap); a key in the file wins over the stack.
    const Scenario silent = gpt2("megatron-deepspeed", 0);
    QVERIFY(!silent.parallel.bucket_mb && !silent.parallel.overlap); // left to the stack
    const Plan silentPlan = makePlan(silent).value();
    QCOMPARE(silentPlan.bucket_bytes, 0.0);
    QVERIFY(!silentPlan.overlap);
    const Scenario explicitKeys = scenarioFrom(R"({"scalescope": 1,
      "hardware": {"gpu": "a100-sxm4-80gb", "gpus_per_node": 8, "intra_node": "nvlink3"},
      "model": "gpt2-1.5b",
      "training": {"global_batch": 64, "framework": "megatron-core", "flash_attention": false},
      "parallel": {"overlap": false, "bucket_mb": 10}})");
    QCOMPARE(explicitKeys.parallel.overlap, std::optional<bool>(false));
    QCOMPARE(explicitKeys.parallel.bucket_mb, std::optional<double>(10.0));
    QCOMPARE(explicitKeys.training.flash_attention, std::optional<bool>(false));
    QVERIFY(stackOf(explicitKeys).fused_attention); // the stack's default, overridden
    const Plan explicitPlan = makePlan(explicitKeys).value();
    QVERIFY(!explicitPlan.overlap && !explicitPlan.flash_attention);
    QCOMPARE(explicitPlan.bucket_bytes, 10e6);
    // Saving keeps the override: the file reopens with the same keys.
    const Result<Scenario> reopened = parseScenario(writeScenario(explicitKeys), builtinCatalog());
    QVERIFY(reopened.ok());
    QCOMPARE(reopened.value().training.flash_attention, std::optional<bool>(false));
    QCOMPARE(reopened.value().training.framework, std::string("megatron-core"));
}

void TestFrameworks::bottleneckNamesTheLinkCrossed()
{
    // Tensor parallelism over 16 GPUs on two nodes joined by 25 GbE: the all-reduces cross
    // the network, and the sentence names it, not the NVLink inside the nodes.
    const Scenario s = scenarioFrom(R"({"scalescope": 1,
      "hardware": {"gpu": "a100-sxm4-80gb", "nodes": 2, "gpus_per_node": 8,
                   "intra_node": "nvlink3", "inter_node": "eth-25g"},
      "model": {"transformer": {"layers": 8, "hidden": 4096, "heads": 32, "seq_len": 2048,
                                "vocab": 50304}},
      "training": {"global_batch": 16, "micro_batch": 1},
      "parallel": {"tensor": 16}})");
    const Summary m = simulateSummary(s);
    const std::string network = s.hardware.inter.name;
    QVERIFY2(bottleneckText(m.bottleneck).find("Tensor-parallel") != std::string::npos, bottleneckText(m.bottleneck).c_str());
    QVERIFY2(bottleneckText(m.bottleneck).find(network) != std::string::npos, bottleneckText(m.bottleneck).c_str());
    QVERIFY2(bottleneckText(m.bottleneck).find(s.hardware.intra.name) == std::string::npos, bottleneckText(m.bottleneck).c_str());
    QVERIFY2(bottleneckText(m.bottleneck).find("host memory") == std::string::npos, bottleneckText(m.bottleneck).c_str());

    // Eight GeForce cards behind one PCIe switch: the exchange is staged through host
    // memory, and the sentence says so; across the network it would not.
    const Scenario geforce = scenarioFrom(R"({"scalescope": 1,
      "hardware": {"gpu": "rtx-4090-24gb", "gpus_per_node": 8, "intra_node": "pcie4"},
      "model": "gpt2-1.5b",
      "training": {"global_batch": 64, "micro_batch": 4, "recompute": "full"},
      "parallel": {"zero": 1}})");
    const Summary g = simulateSummary(geforce);
    QVERIFY2(bottleneckText(g.bottleneck).find("Data-parallel gradient exchange over PCIe 4.0 x16") == 0,
             bottleneckText(g.bottleneck).c_str());
    QVERIFY2(bottleneckText(g.bottleneck).find("staged through host memory") != std::string::npos,
             bottleneckText(g.bottleneck).c_str());
}

void TestFrameworks::planOfAnotherStackIsRefusedByThePlan()
{
    // A scenario edited in the window (not parsed) to pipeline 2 under PyTorch DDP: the plan
    // refuses it at training.framework, as the parser would, so the window never shows
    // figures for a scenario its file format refuses. (Tensor 2 would be refused first for
    // GPT-2's 25 heads.)
    Scenario s = gpt2("pytorch-ddp", 0);
    s.parallel.pipeline = 2;
    s.parallel.data = 4;
    const auto ctx = makeContext(s);
    QVERIFY(!ctx.ok());
    QCOMPARE(ctx.error().path, std::string("training.framework"));
    QVERIFY(!parseScenario(writeScenario(s), builtinCatalog()).ok());
    s.training.framework = "auto"; // the stack follows the plan: nothing to look up again
    QVERIFY(makeContext(s).ok());
    QCOMPARE(makeContext(s).value()->plan.stack.id, std::string("megatron-lm"));
}

void TestFrameworks::fsdpShardsAreTheMasterWeights()
{
    // Full sharding keeps, per parameter and GPU, FSDP's fp32 shard (the optimizer steps it
    // in place) and Adam's two moments: (4 + 8) / d bytes; DeepSpeed's ZeRO-3 a 16-bit shard
    // beside an fp32 master copy and the moments: (2 + 12) / d. Gradients and the gathered
    // units are the same on both. ZeRO-2 keeps 16-bit weights whole on both stacks.
    const Summary fsdp = simulateSummary(gpt2("pytorch-fsdp", 3));
    const Summary ds = simulateSummary(gpt2("deepspeed", 3));
    QCOMPARE(fsdp.memory.optimizer_states / ds.memory.optimizer_states, 8.0 / 12.0);
    const double fsdp_states = fsdp.memory.parameters + fsdp.memory.optimizer_states;
    const double ds_states = ds.memory.parameters + ds.memory.optimizer_states;
    // The difference is 2 bytes of each parameter's eighth: 1.5B parameters, ~0.39 GB.
    const double params = ds.memory.optimizer_states * 8.0 / 12.0;
    QVERIFY2(std::abs((ds_states - fsdp_states) / (2.0 / 8.0 * params) - 1.0) < 1e-9,
             qPrintable(QStringLiteral("%1 vs %2").arg(ds_states).arg(fsdp_states)));
    QVERIFY(ds_states - fsdp_states > 0.3e9);
    const Summary fsdp2 = simulateSummary(gpt2("pytorch-fsdp", 2));
    const Summary ds2 = simulateSummary(gpt2("deepspeed", 2));
    QCOMPARE(fsdp2.memory.parameters + fsdp2.memory.optimizer_states,
             ds2.memory.parameters + ds2.memory.optimizer_states);
}

QTEST_GUILESS_MAIN(TestFrameworks)
#include "tst_frameworks.moc"
