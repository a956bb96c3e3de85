// Invariants of the simulation: sums, monotonicity, symmetry, determinism, effects.
#include "testutil.h"

#include <QFile>

#include <cmath>

using namespace scalescope;
using namespace scalescope::test;

namespace
{

// A spread of plans: DP, ZeRO, TP (+SP), PP schedules, 3D, CNN, custom, effects.
const char *kScenarios[][2] = {
    {"dp-gpt", R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 2,
      "gpus_per_node": 8, "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 4 },
      "model": "gpt2-1.5b", "training": { "global_batch": 64, "micro_batch": 2 },
      "parallel": { "bucket_mb": 25 } })"},
    {"zero1", R"({ "scalescope": 1, "hardware": { "gpu": "h100-sxm5-80gb", "nodes": 2,
      "gpus_per_node": 8, "intra_node": "nvlink4", "inter_node": "ib-ndr-400", "nics_per_node": 8 },
      "model": "llama2-7b", "training": { "global_batch": 64, "micro_batch": 1, "recompute": "selective" },
      "parallel": { "zero": 1 } })"},
    {"zero2", R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb", "gpus_per_node": 8,
      "intra_node": "nvlink3" }, "model": "llama2-7b",
      "training": { "global_batch": 32, "micro_batch": 2 }, "parallel": { "zero": 2 } })"},
    {"fsdp", R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 2,
      "gpus_per_node": 8, "intra_node": "nvlink3", "inter_node": "roce-200g", "nics_per_node": 4 },
      "model": "llama2-13b", "training": { "global_batch": 32, "micro_batch": 1, "recompute": "full" },
      "parallel": { "zero": 3 } })"},
    {"tp-sp", R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb", "gpus_per_node": 8,
      "intra_node": "nvlink3" }, "model": "gpt3-13b",
      "training": { "global_batch": 8, "micro_batch": 1, "recompute": "selective" },
      "parallel": { "tensor": 8, "sequence_parallel": true } })"},
    {"gpipe", R"({ "scalescope": 1, "hardware": { "gpu": "v100-sxm2-32gb", "gpus_per_node": 8,
      "intra_node": "nvlink2" }, "model": "bert-large",
      "training": { "global_batch": 64, "micro_batch": 4, "precision": "fp16" },
      "parallel": { "data": 2, "pipeline": 4, "schedule": "gpipe" } })"},
    {"3d-interleaved", R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 4,
      "gpus_per_node": 8, "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 8 },
      "model": "gpt3-175b", "training": { "global_batch": 64, "micro_batch": 1, "recompute": "full" },
      "parallel": { "data": 1, "tensor": 8, "pipeline": 4, "schedule": "interleaved",
                    "virtual_stages": 3 } })"},
    {"resnet-pcie", R"({ "scalescope": 1, "hardware": { "gpu": "rtx-4090-24gb", "gpus_per_node": 4,
      "intra_node": "pcie4" }, "model": "resnet50",
      "training": { "global_batch": 512, "micro_batch": 128, "precision": "fp16", "optimizer": "sgd" } })"},
    {"no-overlap", R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-40gb", "nodes": 4,
      "gpus_per_node": 8, "intra_node": "nvlink3", "inter_node": "eth-100g" },
      "model": "vgg16", "training": { "global_batch": 1024, "micro_batch": 32, "precision": "tf32",
      "optimizer": "sgd" }, "parallel": { "overlap": false, "bucket_mb": 0 } })"},
    {"jitter-stragglers", R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 2,
      "gpus_per_node": 8, "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 8 },
      "model": "gpt3-2.7b", "training": { "global_batch": 32, "micro_batch": 1 },
      "parallel": { "data": 4, "tensor": 2, "pipeline": 2 },
      "effects": { "seed": 3, "jitter": 0.1, "stragglers": [ { "gpu": 5, "slowdown": 1.5 } ] } })"},
    {"data-loader", R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb", "gpus_per_node": 4,
      "intra_node": "nvlink3" }, "model": "resnet50",
      "training": { "global_batch": 1024, "micro_batch": 128, "optimizer": "sgd" },
      "effects": { "data_loader": { "workers_per_gpu": 4, "samples_per_s_per_worker": 150 } } })"},
};

Scenario named(const char *name)
{
    for (const auto &row : kScenarios)
        if (std::string(row[0]) == name)
            return scenarioFrom(row[1]);
    qFatal("no scenario %s", name);
}

double step(const Scenario &s)
{
    return simulateSummary(s).step_time_s;
}

// ResNet-50 on one RTX A6000 at batch `batch` (Lambda's benchmark), fp16, no recompute.
Scenario a6000Resnet50(int batch)
{
    QString text = QStringLiteral(R"({ "scalescope": 1, "hardware": { "gpu": "rtx-a6000-48gb",
      "gpus_per_node": 1, "intra_node": "pcie4" }, "model": "resnet50",
      "training": { "global_batch": BATCH, "micro_batch": BATCH, "precision": "fp16",
                    "optimizer": "sgd", "recompute": "none", "framework": "pytorch-ddp" } })");
    text.replace(QStringLiteral("BATCH"), QString::number(batch));
    return scenarioFrom(text.toUtf8().constData());
}

} // namespace

class TestInvariants : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void breakdownSumsToStep_data();
    void breakdownSumsToStep();
    void analyticAgreesWithEngine_data();
    void analyticAgreesWithEngine();
    void moreBandwidthNeverSlower_data();
    void moreBandwidthNeverSlower();
    void biggerModelNeverFaster_data();
    void biggerModelNeverFaster();
    void identicalReplicasIdenticalRows();
    void perRankPathMatchesSymmetricPath();
    void seedDeterminism();
    void jitterMakesGpusWait();
    void stragglerSlowsEveryone();
    void asyncRemovesTheBarrier();
    void asyncNeedsPlainDataParallel();
    void dataLoaderStarves();
    void slowPipelineLinksBlock();
    void zero2PipelineFasterGpuNeverSlower();
    void overlapHidesCommunication();
    void sequenceParallelSavesMemory();
    void allocatorReserveFollowsTheTechniques();
    void allocatorReserveGivesWayNearCapacity();
    void zeroShrinksMemoryAddsNoCompute();
    void iterationsAreSteady();
    void warmupReachesSteadyState_data();
    void warmupReachesSteadyState();
    void asyncThermalClosedForm();
    void jitterNeverBeatsTheHardware();
    void timelineCoversEveryGpu();
    void timelineSimplifiedBeyondTheLimit();
    void simplifiedTimelineKeepsTheFirstReplicaInDetail();
    void speedupReference();
};

void TestInvariants::breakdownSumsToStep_data()
{
    QTest::addColumn<QString>("name");
    for (const auto &row : kScenarios)
        QTest::newRow(row[0]) << QString::fromLatin1(row[0]);
}

void TestInvariants::breakdownSumsToStep()
{
    QFETCH(QString, name);
    const Scenario s = named(name.toLatin1().constData());
    const auto ctx = contextFrom(s);
    for (int iterations : {1, 3}) {
        SimOptions o;
        o.iterations = iterations;
        const Summary e = summarize(*ctx, simulate(*ctx, o));
        QVERIFY(e.step_time_s > 0);
        QVERIFY2(std::abs(breakdownSum(e.breakdown) / e.step_time_s - 1.0) < 1e-6,
                 qPrintable(QStringLiteral("sum %1 step %2")
                                .arg(breakdownSum(e.breakdown))
                                .arg(e.step_time_s)));
        // Tensor-parallel communication is exposed and part of the total.
        QVERIFY(e.breakdown.communication_total + 1e-12 >= e.breakdown.tp_comm);
        for (double x : {e.breakdown.compute, e.breakdown.communication_exposed,
                         e.breakdown.communication_total, e.breakdown.pipeline_bubble,
                         e.breakdown.wait, e.breakdown.data_loading})
            QVERIFY(x >= 0 && std::isfinite(x));
    }
    const Summary a = analyticSummary(*ctx);
    QVERIFY(std::abs(breakdownSum(a.breakdown) / a.step_time_s - 1.0) < 1e-6);
}

void TestInvariants::analyticAgreesWithEngine_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("tolerance");
    QTest::newRow("dp-gpt") << "dp-gpt" << 0.02;
    QTest::newRow("zero1") << "zero1" << 0.02;
    QTest::newRow("zero2") << "zero2" << 0.05;
    QTest::newRow("fsdp") << "fsdp" << 0.05;
    QTest::newRow("tp-sp") << "tp-sp" << 0.02;
    QTest::newRow("gpipe") << "gpipe" << 0.03;
    QTest::newRow("3d-interleaved") << "3d-interleaved" << 0.03;
    QTest::newRow("resnet-pcie") << "resnet-pcie" << 0.02;
    QTest::newRow("no-overlap") << "no-overlap" << 0.02;
    QTest::newRow("data-loader") << "data-loader" << 0.02;
    QTest::newRow("jitter-stragglers") << "jitter-stragglers" << 0.10;
}

void TestInvariants::analyticAgreesWithEngine()
{
    // The fast path (sweeps, previews) must tell the same story as the event simulation.
    QFETCH(QString, name);
    QFETCH(double, tolerance);
    const Scenario s = named(name.toLatin1().constData());
    const auto ctx = contextFrom(s);
    SimOptions steady;
    steady.iterations = 3;
    const double engine = summarize(*ctx, simulate(*ctx, steady)).step_time_s;
    const double analytic = analyticSummary(*ctx).step_time_s;
    QVERIFY2(std::abs(analytic / engine - 1.0) < tolerance,
             qPrintable(QStringLiteral("engine %1 analytic %2").arg(engine).arg(analytic)));
}

void TestInvariants::moreBandwidthNeverSlower_data()
{
    breakdownSumsToStep_data();
}

void TestInvariants::moreBandwidthNeverSlower()
{
    QFETCH(QString, name);
    Scenario s = named(name.toLatin1().constData());
    double previous = step(s);
    for (int i = 0; i < 3; ++i) {
        s.hardware.intra.bandwidth_gbps *= 2;
        s.hardware.inter.line_rate_gbit *= 2;
        const double now = step(s);
        QVERIFY2(now <= previous * (1 + 1e-9),
                 qPrintable(QStringLiteral("%1 > %2").arg(now).arg(previous)));
        previous = now;
    }
}

void TestInvariants::biggerModelNeverFaster_data()
{
    breakdownSumsToStep_data();
}

void TestInvariants::biggerModelNeverFaster()
{
    QFETCH(QString, name);
    Scenario s = named(name.toLatin1().constData());
    const double before = step(s);
    switch (s.model.kind) {
    case ModelSpec::Kind::Transformer:
        s.model.transformer.layers += s.parallel.pipeline * s.parallel.virtual_stages;
        break;
    case ModelSpec::Kind::LayerTable:
        for (LayerSpec &l : s.model.table) {
            l.forward_flops *= 1.5;
            l.gemm_n *= 1.5;
            l.params *= 1.5;
            l.output_elements *= 1.5;
        }
        break;
    case ModelSpec::Kind::Custom:
        s.model.custom.forward_flops_per_sample *= 1.5;
        break;
    }
    QVERIFY(step(s) >= before * (1 - 1e-9));
}

void TestInvariants::identicalReplicasIdenticalRows()
{
    // Without effects every data-parallel replica and tensor rank of a stage is identical.
    const Scenario s = named("gpipe");
    SimOptions o;
    o.build_timeline = true;
    const SimResult r = simulate(*contextFrom(s), o);
    QVERIFY(r.ok && r.timeline);
    const Timeline &t = *r.timeline;
    const Plan plan = makePlan(s).value();
    for (int gpu = 0; gpu < t.gpus(); ++gpu) {
        const int stage = gpu / (plan.tensor * plan.data);
        const int reference = plan.rankOf(0, 0, stage);
        for (int stream = 0; stream < kStreamCount; ++stream) {
            const int a = gpu * kStreamCount + stream, b = reference * kStreamCount + stream;
            QCOMPARE(t.rowEnd(a) - t.rowBegin(a), t.rowEnd(b) - t.rowBegin(b));
            for (size_t i = 0; i < t.rowEnd(a) - t.rowBegin(a); ++i) {
                QCOMPARE(t.start(t.rowBegin(a) + i), t.start(t.rowBegin(b) + i));
                QCOMPARE(t.duration(t.rowBegin(a) + i), t.duration(t.rowBegin(b) + i));
                QCOMPARE(t.kind(t.rowBegin(a) + i), t.kind(t.rowBegin(b) + i));
            }
        }
    }
}

void TestInvariants::perRankPathMatchesSymmetricPath()
{
    // A straggler list of slowdown 1.0 forces the per-rank path without changing anything.
    Scenario s = named("3d-interleaved");
    const double symmetric = step(s);
    s.effects.stragglers.push_back({0, 1.0});
    QVERIFY(s.effects.perRank());
    const double per_rank = step(s);
    QVERIFY(std::abs(per_rank / symmetric - 1.0) < 1e-9);
}

void TestInvariants::seedDeterminism()
{
    const Scenario s = named("jitter-stragglers");
    SimOptions o;
    o.build_timeline = true;
    const auto ctx = contextFrom(s);
    const SimResult a = simulate(*ctx, o), b = simulate(*ctx, o);
    QCOMPARE(a.step_time_s, b.step_time_s);
    QCOMPARE(a.timeline->size(), b.timeline->size());
    for (size_t i = 0; i < a.timeline->size(); ++i)
        QCOMPARE(a.timeline->start(i), b.timeline->start(i));
    Scenario other = s;
    other.effects.seed = 4;
    QVERIFY(step(other) != a.step_time_s);
}

void TestInvariants::jitterMakesGpusWait()
{
    Scenario s = named("dp-gpt");
    const Summary calm = simulateSummary(s);
    QCOMPARE(calm.breakdown.wait, 0.0);
    s.effects.jitter = 0.1;
    const Summary noisy = simulateSummary(s);
    QVERIFY(noisy.breakdown.wait > 0);
    QVERIFY(noisy.step_time_s > calm.step_time_s);
}

void TestInvariants::stragglerSlowsEveryone()
{
    // Synchronous updates: one GPU at 1.5x makes the whole step ~1.5x slower in compute.
    Scenario s = named("dp-gpt");
    const Summary base = simulateSummary(s);
    s.effects.stragglers.push_back({3, 1.5});
    const Summary slow = simulateSummary(s);
    QVERIFY(slow.step_time_s > base.breakdown.compute * 1.45);
    QVERIFY(slow.breakdown.wait > 0.2 * base.breakdown.compute);
    QVERIFY(bottleneckText(slow.bottleneck).find("slowest") != std::string::npos);
    QVERIFY2(bottleneckText(slow.bottleneck).find("GPU 3") != std::string::npos, bottleneckText(slow.bottleneck).c_str());
}

void TestInvariants::asyncRemovesTheBarrier()
{
    Scenario s = named("dp-gpt");
    s.effects.stragglers.push_back({3, 1.5});
    const Summary sync = simulateSummary(s);
    s.parallel.update = UpdateMode::Async;
    const Summary async = simulateSummary(s);
    QVERIFY(async.breakdown.wait < 0.1 * sync.breakdown.wait);
    QVERIFY(async.step_time_s < sync.step_time_s);
    QVERIFY(async.staleness_steps >= 1);
}

void TestInvariants::asyncNeedsPlainDataParallel()
{
    Scenario s = named("zero1");
    s.parallel.update = UpdateMode::Async;
    const Result<Plan> plan = makePlan(s);
    QVERIFY(!plan.ok());
    QCOMPARE(plan.error().path, std::string("parallel.update"));
}

void TestInvariants::slowPipelineLinksBlock()
{
    // Pipeline stages on four PCs over 10 GbE: every send of activations blocks its stage
    // (Megatron-LM's exchanges are synchronous), and the bottleneck says so.
    const Scenario s = scenarioFrom(R"({ "scalescope": 1,
      "hardware": { "gpu": "rtx-4090-24gb", "nodes": 4, "gpus_per_node": 1,
                    "inter_node": "eth-10g" },
      "model": "gpt2-124m", "training": { "global_batch": 128, "micro_batch": 4 },
      "parallel": { "pipeline": 4 } })");
    // 32 micro-batches keep the bubble (with the last stage's loss over 50,257 logits per
    // token making it the slowest) below the sends.
    const Summary r = simulateSummary(s);
    QVERIFY(r.breakdown.pp_exposed > 0.2 * r.step_time_s);
    QVERIFY2(bottleneckText(r.bottleneck).find("Pipeline sends") != std::string::npos, bottleneckText(r.bottleneck).c_str());
    const Summary a = analyticSummary(*contextFrom(s));
    QVERIFY2(
        std::abs(a.step_time_s / r.step_time_s - 1.0) < 0.1,
        qPrintable(QStringLiteral("analytic %1 engine %2").arg(a.step_time_s).arg(r.step_time_s)));
    // Sends and receives both occupy the links: the total is at least what is exposed.
    QVERIFY(r.breakdown.communication_total >= r.breakdown.communication_exposed);
}

void TestInvariants::zero2PipelineFasterGpuNeverSlower()
{
    // ZeRO-2 reduce-scatters every micro-batch; on a pipeline its stream overlaps the
    // stage's micro-batch slots, which run at the slowest stage's pace. With the stage's
    // own compute as the window, a GPU twice as fast lengthened the closed form's step by
    // 1.7% here: it sped up stage 0 (the vocabulary) more than the host-bound slowest one
    // and exposed more reduction (the random invariant test, seed 12, with a hot GPU).
    const char *const json = R"({ "scalescope": 1,
      "hardware": { "gpu": "mi325x-256gb", "nodes": 10, "gpus_per_node": 7,
                    "intra_node": "nvlink-bridge-a100", "inter_node": "roce-25g",
                    "nics_per_node": 4 },
      "model": { "transformer": { "layers": 11, "hidden": 256, "heads": 2, "seq_len": 256,
                                  "vocab": 16909 } },
      "training": { "global_batch": 280, "micro_batch": 2, "optimizer": "sgd",
                    "precision": "fp32", "recompute": "full" },
      "parallel": { "pipeline": 7, "schedule": "1f1b", "zero": 2 } })";
    const Scenario s = scenarioFrom(json);
    Scenario fast = s;
    for (double &p : fast.hardware.gpu.peak_tflops)
        p *= 2;
    fast.hardware.gpu.memory_bandwidth_gbps *= 2;
    const Summary a = analyticSummary(*contextFrom(s));
    const Summary f = analyticSummary(*contextFrom(fast));
    QVERIFY2(f.step_time_s <= a.step_time_s * (1 + 1e-9),
             qPrintable(QStringLiteral("2x GPU %1 > %2").arg(f.step_time_s, 0, 'g', 9)
                            .arg(a.step_time_s, 0, 'g', 9)));
    // The engine, which schedules the same reductions, agrees within the usual 5%.
    const Summary e = simulateSummary(s);
    QVERIFY2(std::abs(a.step_time_s / e.step_time_s - 1.0) < 0.05,
             qPrintable(QStringLiteral("analytic %1 engine %2").arg(a.step_time_s)
                            .arg(e.step_time_s)));
}

void TestInvariants::dataLoaderStarves()
{
    // 4 workers x 150 samples/s = 600 samples/s per GPU; each GPU consumes 256 per step.
    const Scenario s = named("data-loader");
    SimOptions o;
    o.iterations = 4;
    const Summary r = simulateSummary(s, o);
    QVERIFY(r.breakdown.data_loading > 0.3 * r.step_time_s);
    QVERIFY(std::abs(r.step_time_s / (256.0 / 600.0) - 1.0) < 0.05);
    QVERIFY(bottleneckText(r.bottleneck).find("data loader") != std::string::npos);
}

void TestInvariants::overlapHidesCommunication()
{
    Scenario s = named("no-overlap");
    const Summary off = simulateSummary(s);
    s.parallel.overlap = true;
    s.parallel.bucket_mb = 25.0;
    const Summary on = simulateSummary(s);
    QVERIFY(on.breakdown.communication_exposed < off.breakdown.communication_exposed);
    QVERIFY(on.step_time_s < off.step_time_s);
    QVERIFY(std::abs(on.breakdown.communication_total / off.breakdown.communication_total - 1.0) <
            0.2);
}

void TestInvariants::sequenceParallelSavesMemory()
{
    Scenario s = named("tp-sp");
    const Summary with = simulateSummary(s);
    s.parallel.sequence_parallel = false;
    const Summary without = simulateSummary(s);
    QVERIFY(with.memory.activations < without.memory.activations);
}

void TestInvariants::allocatorReserveFollowsTheTechniques()
{
    // Issue 25: ResNet-50 at batch 928 ran on a 48 GB RTX A6000 (Lambda's benchmark) and was
    // called out of memory: the caching allocator's reserve was taken as 15% of the
    // activations for every run, where only recomputation and pipeline schedules break the
    // regular reuse of a step's blocks (GMLake, Sec. 2.3). Plain data parallelism keeps a few
    // per cent; recomputing keeps the 15%.
    Scenario s = a6000Resnet50(928);
    const Summary plain = simulateSummary(s);
    QVERIFY2(plain.memory.fits(), qPrintable(QString::number(plain.memory.total / 1e9)));
    const double live = plain.memory.activations - plain.memory.allocator_reserve;
    QVERIFY(std::abs(plain.memory.allocator_reserve / (live + plain.memory.allocator_reserve) -
                     0.05) < 1e-9);
    s.training.recompute = Recompute::Full;
    const Summary recomputed = simulateSummary(s);
    const double live_r = recomputed.memory.activations - recomputed.memory.allocator_reserve;
    QVERIFY(std::abs(recomputed.memory.allocator_reserve /
                         (live_r + recomputed.memory.allocator_reserve) -
                     0.15) < 1e-9);
}

void TestInvariants::allocatorReserveGivesWayNearCapacity()
{
    // Issue 25: runs that ran were called out of memory by the reserve alone (NeMo's
    // Nemotron-4 340B on 128 H100: 80.5 GiB of 78.6, 4 GiB of it the reserve). Before failing,
    // PyTorch's allocator frees its cached blocks and retries; only a regular step's 5% of
    // fragmentation stays. With room the reserve is the techniques' 15%.
    Scenario s = a6000Resnet50(928);
    s.training.recompute = Recompute::Full;
    const auto ctx = contextFrom(s);
    const MemoryBreakdown roomy = memoryPerGpu(ctx->plan, ctx->workload, 1e15);
    const double live = roomy.activations - roomy.allocator_reserve;
    const double allocated = roomy.total - roomy.allocator_reserve;
    QVERIFY(std::abs(roomy.allocator_reserve / (live + roomy.allocator_reserve) - 0.15) < 1e-9);
    const double unavoidable = live * 0.05 / 0.95;
    // Between the two: it fits, and the peak it would print is the whole card.
    const double between = allocated + 0.5 * (unavoidable + roomy.allocator_reserve);
    const MemoryBreakdown tight = memoryPerGpu(ctx->plan, ctx->workload, between);
    QVERIFY(tight.fits());
    QVERIFY(tight.reserve_limited);
    QVERIFY(!roomy.reserve_limited);
    QVERIFY(std::abs(tight.total / between - 1) < 1e-12);
    QVERIFY(tight.allocator_reserve < roomy.allocator_reserve);
    // Below the unavoidable part: it does not fit, and it needs its tensors and that part.
    const MemoryBreakdown small =
        memoryPerGpu(ctx->plan, ctx->workload, allocated + 0.5 * unavoidable);
    QVERIFY(!small.fits());
    QVERIFY(!small.reserve_limited);
    QVERIFY(std::abs(small.total / (allocated + unavoidable) - 1) < 1e-12);
}

void TestInvariants::zeroShrinksMemoryAddsNoCompute()
{
    // Claim 8: sharding fixes memory, not compute.
    Scenario s = named("zero2");
    double previous_memory = 1e300;
    for (int zero = 0; zero <= 3; ++zero) {
        s.parallel.zero = zero;
        const Summary r = simulateSummary(s);
        QVERIFY(r.memory.total < previous_memory);
        previous_memory = r.memory.total;
        QVERIFY(r.breakdown.communication_total > 0);
    }
}

void TestInvariants::iterationsAreSteady()
{
    const Scenario s = named("3d-interleaved");
    SimOptions one, three;
    three.iterations = 3;
    const auto ctx = contextFrom(s);
    const double a = simulate(*ctx, one).step_time_s;
    const double b = simulate(*ctx, three).step_time_s;
    QVERIFY(std::abs(b / a - 1.0) < 0.02);
}

void TestInvariants::warmupReachesSteadyState_data()
{
    QTest::addColumn<QByteArray>("json");
    const QByteArray head = R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb",
      "gpus_per_node": 4, "intra_node": "nvlink3" }, )";
    QTest::newRow("loader-starved") << head + R"("model": "resnet50",
      "training": { "global_batch": 1024, "micro_batch": 128, "optimizer": "sgd" },
      "effects": { "data_loader": { "workers_per_gpu": 4, "samples_per_s_per_worker": 150 } } })";
    QTest::newRow("loader-ahead") << head + R"("model": "resnet50",
      "training": { "global_batch": 1024, "micro_batch": 64, "optimizer": "sgd" },
      "effects": { "data_loader": { "workers_per_gpu": 8, "samples_per_s_per_worker": 2000,
        "prefetch_factor": 4 } } })";
    QTest::newRow("loader-one-deep-zero3") << head + R"("model": "gpt2-124m",
      "training": { "global_batch": 32, "micro_batch": 2, "precision": "bf16" },
      "parallel": { "zero": 3 },
      "effects": { "data_loader": { "workers_per_gpu": 0, "samples_per_s_per_worker": 40 } } })";
    QTest::newRow("async-straggler") << head + R"("model": "bert-large",
      "training": { "global_batch": 128, "micro_batch": 8 }, "parallel": { "update": "async" },
      "effects": { "stragglers": [{ "gpu": 1, "slowdown": 1.5 }] } })";
}

void TestInvariants::warmupReachesSteadyState()
{
    // The engine measures after kWarmupSteps steps (sim/step_description.h): by then the
    // loader queue and asynchronous replicas are in steady state, so the first measured
    // step equals the mean of the next six.
    QFETCH(QByteArray, json);
    const auto ctx = contextFrom(scenarioFrom(json.constData()));
    QCOMPARE(ctx->step.warmup_steps, kWarmupSteps);
    SimOptions one, six;
    six.iterations = 6;
    const SimResult a = simulate(*ctx, one), b = simulate(*ctx, six);
    QVERIFY(a.ok && b.ok);
    QCOMPARE(a.warmup_iterations, kWarmupSteps);
    QVERIFY2(std::abs(b.step_time_s / a.step_time_s - 1.0) < 1e-3,
             qPrintable(QStringLiteral("first measured %1 s, mean of six %2 s")
                            .arg(a.step_time_s)
                            .arg(b.step_time_s)));
}

void TestInvariants::asyncThermalClosedForm()
{
    // Asynchronous replicas with one hot GPU: the closed form stretches that replica (its own
    // compute, its partners' waiting) as the engine does, and never beats the reference.
    const Scenario s = scenarioFrom(R"({ "scalescope": 1, "hardware": { "gpu": "rtx-4090-24gb",
      "gpus_per_node": 4, "intra_node": "pcie4" }, "model": "gpt2-124m",
      "training": { "global_batch": 64, "micro_batch": 8, "precision": "bf16" },
      "parallel": { "update": "async" },
      "effects": { "thermal": { "clock_drop": 0.3, "cooling": "workstation",
        "gpus": [{ "gpu": 2, "steady_c": 95 }] } } })");
    const auto ctx = contextFrom(s);
    SimOptions steady;
    steady.iterations = 3;
    const Summary e = summarize(*ctx, simulate(*ctx, steady));
    const Summary a = analyticSummary(*ctx);
    QVERIFY2(a.scaling_efficiency <= 1.0, qPrintable(QString::number(a.scaling_efficiency)));
    QVERIFY2(std::abs(a.step_time_s / e.step_time_s - 1.0) < 0.03,
             qPrintable(
                 QStringLiteral("engine %1 closed form %2").arg(e.step_time_s).arg(a.step_time_s)));
    QVERIFY2(std::abs(a.breakdown.compute - e.breakdown.compute) < 0.03 * e.step_time_s,
             qPrintable(QStringLiteral("compute: engine %1 closed form %2")
                            .arg(e.breakdown.compute)
                            .arg(a.breakdown.compute)));
}

void TestInvariants::jitterNeverBeatsTheHardware()
{
    // Issue 14: at jitter 1.0 one GPU reached MFU 1.41 (draws below 1 ran tasks faster than
    // the hardware). Draws are delays now: every evaluator is at most as fast as without
    // jitter, and the closed form's mean stretch is the draws' mean.
    const char *json = R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb",
      "gpus_per_node": 1 }, "model": "gpt2-124m",
      "training": { "global_batch": 16, "micro_batch": 2, "precision": "bf16" },
      "effects": { "jitter": %1, "seed": 3 } })";
    const auto at = [&](double jitter) {
        return scenarioFrom(QString::fromLatin1(json).arg(jitter).toLatin1().constData());
    };
    const Summary calm = simulateSummary(at(0));
    SimOptions many;
    many.iterations = 20;
    for (double jitter : {0.1, 0.5, 1.0}) {
        const Summary e = simulateSummary(at(jitter), many);
        const Summary a = analyticSummary(*contextFrom(at(jitter)));
        QVERIFY2(e.mfu <= calm.mfu * (1 + 1e-12), qPrintable(QString::number(e.mfu)));
        QVERIFY(a.mfu <= calm.mfu * (1 + 1e-12));
        // 20 steps of 16 tasks and more: the mean of the draws within a few percent.
        QVERIFY2(std::abs(a.step_time_s / e.step_time_s - 1) < 0.05 * (1 + jitter),
                 qPrintable(QStringLiteral("jitter %1: engine %2 closed form %3")
                                .arg(jitter)
                                .arg(e.step_time_s)
                                .arg(a.step_time_s)));
        QVERIFY(std::abs(a.speedup - 1) < 1e-12);
    }
}

void TestInvariants::timelineCoversEveryGpu()
{
    const Scenario s = named("jitter-stragglers");
    SimOptions o;
    o.build_timeline = true;
    o.iterations = 2;
    const SimResult r = simulate(*contextFrom(s), o);
    QVERIFY(r.ok);
    const Timeline &t = *r.timeline;
    QCOMPARE(t.gpus(), 16);
    QCOMPARE(t.iterations(), 2);
    for (int gpu = 0; gpu < t.gpus(); ++gpu) {
        const int row = gpu * kStreamCount;
        QVERIFY(t.rowEnd(row) > t.rowBegin(row));
        // Compute rows are contiguous from 0 to the end: busy or a named gap.
        double cursor = 0;
        for (size_t i = t.rowBegin(row); i < t.rowEnd(row); ++i) {
            QVERIFY(std::abs(t.start(i) - cursor) < 1e-6 * std::max(1.0, cursor));
            cursor = t.end(i);
        }
        QVERIFY(std::abs(cursor - t.endTime()) < 1e-6 * t.endTime());
    }
}

void TestInvariants::timelineSimplifiedBeyondTheLimit()
{
    // The same step with and without a segment limit: the simplified timeline stays within
    // the limit, keeps every row sorted and non-overlapping, covers every item of the exact
    // one on the same row, and ends at the same time.
    const Scenario s = named("3d-interleaved");
    SimOptions o;
    o.build_timeline = true;
    o.iterations = 2;
    const auto ctx = contextFrom(s);
    const SimResult exact = simulate(*ctx, o);
    QVERIFY(exact.ok);
    QCOMPARE(exact.timeline_merge_quantum_s, 0.0);
    const Timeline &e = *exact.timeline;
    for (const size_t limit : {e.size() / 3, e.size() / 20}) {
        o.max_segments = limit;
        const SimResult r = simulate(*ctx, o);
        QVERIFY2(r.ok, r.error.c_str());
        const Timeline &t = *r.timeline;
        QVERIFY2(t.size() <= limit, qPrintable(QString("%1 > %2").arg(t.size()).arg(limit)));
        QVERIFY(t.size() < e.size());
        QVERIFY(r.timeline_merge_quantum_s > 0);
        QVERIFY(r.timeline_full_segments >= e.size());
        QCOMPARE(r.step_time_s, exact.step_time_s);
        QVERIFY(std::abs(t.endTime() - e.endTime()) <= 1e-9 * e.endTime());
        bool merged_seen = false;
        // Durations are stored as float: ends are exact to a few parts in 10^7.
        const double eps = 1e-6 * e.endTime();
        for (int row = 0; row < t.rows(); ++row) {
            for (size_t i = t.rowBegin(row); i + 1 < t.rowEnd(row); ++i)
                QVERIFY(t.end(i) <= t.start(i + 1) + eps);
            for (size_t i = t.rowBegin(row); i < t.rowEnd(row); ++i)
                merged_seen = merged_seen || t.label(i).rfind("several items merged", 0) == 0;
            // Every exact item lies inside one simplified item of its row.
            size_t k = t.rowBegin(row);
            for (size_t i = e.rowBegin(row); i < e.rowEnd(row); ++i) {
                while (k < t.rowEnd(row) && t.end(k) < e.end(i) - eps)
                    ++k;
                QVERIFY(k < t.rowEnd(row));
                QVERIFY(t.start(k) <= e.start(i) + eps);
            }
        }
        QVERIFY(merged_seen);
    }
}

void TestInvariants::simplifiedTimelineKeepsTheFirstReplicaInDetail()
{
    // Issue 26: at 131,072 GPUs zooming in never showed detail. Where the timeline is
    // simplified, the GPUs of the first data-parallel replica keep every item: their rows
    // equal the exact timeline's, while the other replicas' rows are merged.
    const Scenario s = scenarioFrom(R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb",
      "nodes": 4, "gpus_per_node": 8, "intra_node": "nvlink3", "inter_node": "ib-hdr-200",
      "nics_per_node": 8 }, "model": "gpt2-1.5b",
      "training": { "global_batch": 256, "micro_batch": 2 },
      "parallel": { "data": 16, "pipeline": 2, "schedule": "1f1b" },
      "effects": { "seed": 3, "jitter": 0.05 } })");
    const auto ctx = contextFrom(s);
    SimOptions o;
    o.build_timeline = true;
    o.iterations = 2;
    const SimResult exact = simulate(*ctx, o);
    QVERIFY(exact.ok);
    const Timeline &e = *exact.timeline;
    o.max_segments = e.size() / 2;
    const SimResult r = simulate(*ctx, o);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.timeline_merge_quantum_s > 0);
    QVERIFY(r.timeline_first_replica_detailed);
    const Timeline &t = *r.timeline;
    QVERIFY(t.size() <= o.max_segments);
    const Plan &plan = ctx->plan;
    int detailed_rows = 0, merged_rows = 0;
    for (int row = 0; row < t.rows(); ++row) {
        const int gpu = row / kStreamCount;
        const size_t n = t.rowEnd(row) - t.rowBegin(row);
        const size_t n_exact = e.rowEnd(row) - e.rowBegin(row);
        if (plan.replicaOf(gpu) == 0) {
            QCOMPARE(n, n_exact);
            for (size_t i = 0; i < n; ++i) {
                QCOMPARE(t.start(t.rowBegin(row) + i), e.start(e.rowBegin(row) + i));
                QCOMPARE(t.label(t.rowBegin(row) + i), e.label(e.rowBegin(row) + i));
            }
            detailed_rows += n > 0;
        } else if (n < n_exact) {
            ++merged_rows;
        }
    }
    QVERIFY(detailed_rows >= 2); // both stages' compute rows at least
    QVERIFY(merged_rows > 0);
}

void TestInvariants::speedupReference()
{
    // One GPU: speed-up 1 by definition (same global batch, no communication).
    const Scenario s = scenarioFrom(R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb" },
      "model": "gpt2-1.5b", "training": { "global_batch": 8, "micro_batch": 2 } })");
    const Summary r = simulateSummary(s);
    QVERIFY(std::abs(r.speedup - 1.0) < 1e-9);
    QVERIFY(r.mfu > 0.2 && r.mfu < 0.8);
}

QTEST_GUILESS_MAIN(TestInvariants)
#include "tst_invariants.moc"
