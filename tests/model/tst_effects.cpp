// Effects (thermal over time, data loader prefetch, virtual GPUs, failures), the
// attribution of the missing speed-up, the economics and the plan search.
#include "analysis/economics.h"
#include "analysis/planner.h"
#include "analysis/reliability.h"
#include "analysis/scaling.h"
#include "analysis/sweep.h"
#include "effects/jitter.h"
#include "testutil.h"

#include "io/report_io.h"

#include <QJsonObject>

#include <QTest>

#include <atomic>
#include <cmath>

using namespace scalescope;
using namespace scalescope::test;

namespace
{
const char *kDp8 = R"({ "scalescope": 1,
  "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 1, "gpus_per_node": 8, "intra_node": "nvlink3" },
  "model": { "transformer": { "layers": 12, "hidden": 1024, "heads": 16, "seq_len": 512, "vocab": 32000 } },
  "training": { "global_batch": 64, "micro_batch": 4, "precision": "bf16" },
  "parallel": { "data": 8 } })";

const char *kGpt = R"({ "scalescope": 1,
  "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 2, "gpus_per_node": 8,
                "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 8 },
  "model": { "transformer": { "layers": 24, "hidden": 4096, "heads": 32, "seq_len": 2048, "vocab": 51200 } },
  "training": { "global_batch": 256, "micro_batch": 1, "precision": "bf16" },
  "parallel": { "data": 2, "tensor": 8 } })";
} // namespace

class TestEffects : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void youngDalyFormula();
    void goodputMonotonicInMtbf();
    void failuresInSummary();
    void thermalModel();
    void thermalUniformMatchesLegacyDrop();
    void thermalReferenceInTheJobsState();
    void loaderPrefetchDepth();
    void asyncRowsHaveNoBarrier();
    void stepsStartWhereTheyStart();
    void jitteredReferenceDoesTheJobsDraws();
    void jitteredLoaderKeepsItsRate();
    void jitteredLoaderNearItsRateIsMonotone();
    void loaderSlotFreesAsTheForwardStarts();
    void zeroWorkersLoadInTheMainProcess();
    void sweepShapeIsAChoice();
    void virtualGpuStretchesCompute();
    void attributionSumsToMissingSpeedup_data();
    void attributionSumsToMissingSpeedup();
    void gustafsonFraction();
    void economicsArithmetic();
    void plannerFindsFittingPlans();
    void plannerCancel();
};

void TestEffects::stepsStartWhereTheyStart()
{
    // Issue 26: the timeline's step markers split the drawn span into thirds (claim 16: at
    // 228 and 457 ms, inside a backward pass) instead of marking where steps start (0, 280.8,
    // 481.7 ms). A step starts where the one before ended on its slowest GPU: no compute
    // segment of any GPU straddles a step start.
    Result<Scenario> s = loadScenarioFile(
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/claim16-economics-4x4090.json"),
        builtinCatalog());
    QVERIFY2(s, s ? "" : s.error().toString().c_str());
    const auto ctx = contextFrom(s.value());
    SimOptions options;
    options.build_timeline = true;
    options.iterations = 3;
    const SimResult r = simulate(*ctx, options);
    QVERIFY(r.ok && r.timeline);
    const Timeline &t = *r.timeline;
    QVERIFY(t.iterations() >= 3);
    QCOMPARE(t.stepStart(0), 0.0);
    bool uneven = false;
    for (int k = 1; k < t.iterations(); ++k) {
        const double at = t.stepStart(k);
        QVERIFY(at > t.stepStart(k - 1) && at < t.endTime());
        uneven |= std::abs(at - k * t.endTime() / t.iterations()) > 1e-3 * t.endTime();
        for (int gpu = 0; gpu < t.gpus(); ++gpu) {
            const int row = gpu * kStreamCount + static_cast<int>(Stream::Compute);
            for (size_t i = t.rowBegin(row); i < t.rowEnd(row); ++i)
                if (t.kind(i) == SegmentKind::Compute)
                    QVERIFY2(!(t.start(i) < at - 1e-12 && t.end(i) > at + 1e-12),
                             qPrintable(QStringLiteral("GPU %1's %2 straddles step %3's start %4")
                                            .arg(gpu)
                                            .arg(QString::fromStdString(t.label(i)))
                                            .arg(k + 1)
                                            .arg(at)));
        }
        QCOMPARE(t.stepAt(at), k);
        QCOMPARE(t.stepAt(at - 1e-9), k - 1);
    }
    QVERIFY2(uneven, "this scenario's steps are not of one length (its first one warms up)");
}

void TestEffects::asyncRowsHaveNoBarrier()
{
    // Issue 26: asynchronous replicas were drawn idle "until the slowest GPU finishes the
    // step" after their own work, a barrier that asynchronous updates do not have. Each row
    // now ends with its own work.
    Scenario s = scenarioFrom(kDp8);
    s.effects.stragglers.push_back({3, 2.0});
    for (const UpdateMode update : {UpdateMode::Async}) {
        s.parallel.update = update;
        const auto ctx = contextFrom(s);
        SimOptions options;
        options.build_timeline = true;
        options.iterations = 2;
        const SimResult r = simulate(*ctx, options);
        QVERIFY(r.ok && r.timeline);
        const Timeline &t = *r.timeline;
        int ending_idle = 0;
        for (int row = 0; row < t.rows(); ++row)
            if (t.rowEnd(row) > t.rowBegin(row) &&
                t.labelRecord(t.rowEnd(row) - 1).kind == LabelKind::Idle)
                ++ending_idle;
        if (update == UpdateMode::Async)
            QCOMPARE(ending_idle, 0);
    }
}

void TestEffects::jitteredReferenceDoesTheJobsDraws()
{
    // The one-GPU reference of a jittered job does the job's work with the job's own draws
    // (SimResult::jitter_mean): synchronous or not, the job is never more than 100%
    // efficient, whatever the seed (with the draws' expectation as reference, a job whose few
    // draws came out low was over 100%: here 7 of these 80 runs, up to 106.6%).
    Scenario s = scenarioFrom(kDp8);
    s.effects.jitter = 0.5;
    s.hardware.gpus_per_node = 2;
    s.parallel.data = 2;
    s.training.global_batch = 8; // one micro-batch per GPU: few draws, far from their mean
    for (const UpdateMode update : {UpdateMode::Sync, UpdateMode::Async}) {
        s.parallel.update = update;
        for (uint64_t seed = 1; seed <= 40; ++seed) {
            s.effects.seed = seed;
            const auto ctx = contextFrom(s);
            const SimResult r = simulate(*ctx, SimOptions{});
            QVERIFY(r.ok);
            QVERIFY(r.jitter_mean >= 1.0);
            const Summary sum = summarize(*ctx, r);
            QVERIFY2(sum.scaling_efficiency <= 1 + 1e-7,
                     qPrintable(QStringLiteral("seed %1: efficiency %2")
                                    .arg(seed)
                                    .arg(sum.scaling_efficiency, 0, 'g', 10)));
            QCOMPARE(sum.single_gpu_step_s, simulatedSingleGpuStepTime(*ctx, r.jitter_mean));
        }
    }
    // Without jitter nothing is drawn.
    s.effects.jitter = 0;
    QCOMPARE(simulate(*contextFrom(s), SimOptions{}).jitter_mean, 0.0);
}

void TestEffects::jitteredLoaderKeepsItsRate()
{
    // A starved loader and jitter: the measured window is never shorter than the loader's
    // serial loads allow (iteration ends alone came out up to 4% short, so throughput beat
    // the supply and efficiency exceeded 1), and a GPU twice as fast is never slower (its
    // tails lined up differently: up to 0.4%).
    Scenario s = scenarioFrom(kDp8);
    s.effects.jitter = 0.3;
    s.effects.data_loader.enabled = true;
    s.effects.data_loader.workers_per_gpu = 2;
    s.effects.data_loader.samples_per_s_per_worker = 50; // 40 ms a step, compute ~25
    s.training.global_batch = 32; // one micro-batch per GPU: its tail is the whole step
    Scenario fast = s;
    for (double &p : fast.hardware.gpu.peak_tflops)
        p *= 2;
    fast.hardware.gpu.memory_bandwidth_gbps *= 2;
    int short_before = 0;
    for (uint64_t seed = 1; seed <= 40; ++seed) {
        s.effects.seed = fast.effects.seed = seed;
        const Summary a = simulateSummary(s);
        const Summary b = simulateSummary(fast);
        const QString where = QStringLiteral("seed %1: step %2, supply %3/s, efficiency %4")
                                  .arg(seed)
                                  .arg(a.step_time_s, 0, 'g', 12)
                                  .arg(a.data_supply_samples_per_s, 0, 'g', 12)
                                  .arg(a.scaling_efficiency, 0, 'g', 12);
        QVERIFY2(a.samples_per_s <= a.data_supply_samples_per_s * (1 + 1e-12), qPrintable(where));
        QVERIFY2(a.scaling_efficiency <= 1 + 1e-7, qPrintable(where));
        QVERIFY2(b.step_time_s <= a.step_time_s * (1 + 1e-12),
                 qPrintable(where + QStringLiteral(", 2x GPU %1").arg(b.step_time_s, 0, 'g', 12)));
        short_before += std::abs(a.samples_per_s / a.data_supply_samples_per_s - 1) < 1e-9;
    }
    // The loader sets the pace: the step is its rate exactly.
    QVERIFY2(short_before > 30, qPrintable(QStringLiteral("%1 of 40 seeds").arg(short_before)));
}

void TestEffects::jitteredLoaderNearItsRateIsMonotone()
{
    // ResNet-101 on 5 H200 with a loader just faster than the GPUs (the random invariant
    // test, seed 26): measured as the difference of two iteration ends after the queue's
    // warm-up, links at half the bandwidth came out 0.6% faster, and over 40 seeds of such
    // neighbours GPUs twice as fast came out slower. In bottleneck form (the GPUs' own pace,
    // the loader's work, the compute as drawn) each figure is monotone.
    Scenario s = scenarioFrom(R"({ "scalescope": 1,
      "hardware": { "gpu": "h200-sxm-141gb", "nodes": 1, "gpus_per_node": 5,
                    "intra_node": "nvlink3", "inter_node": "ib-xdr-800", "nics_per_node": 4 },
      "model": "resnet101",
      "training": { "global_batch": 320, "micro_batch": 16, "optimizer": "adam",
                    "precision": "fp8", "recompute": "none" },
      "parallel": { "data": 5, "zero": 2 },
      "effects": { "jitter": 0.0953534401358295, "seed": 810684,
                   "data_loader": { "workers_per_gpu": 2, "prefetch_factor": 3,
                                    "samples_per_s_per_worker": 600.0405112111353 } } })");
    int checked = 0;
    for (const double rate : {600.0405112111353, 560.0, 640.0, 700.0})
        for (uint64_t seed : {uint64_t(810684), uint64_t(1), uint64_t(2), uint64_t(3),
                              uint64_t(4), uint64_t(5), uint64_t(6), uint64_t(7)}) {
            s.effects.data_loader.samples_per_s_per_worker = rate;
            s.effects.seed = seed;
            Scenario fast = s, slow = s;
            for (double &p : fast.hardware.gpu.peak_tflops)
                p *= 2;
            fast.hardware.gpu.memory_bandwidth_gbps *= 2;
            slow.hardware.intra.bandwidth_gbps /= 2;
            slow.hardware.inter.line_rate_gbit /= 2;
            const Summary a = simulateSummary(s);
            const double f = simulateSummary(fast).step_time_s;
            const double l = simulateSummary(slow).step_time_s;
            const QString where = QStringLiteral("rate %1, seed %2: step %3, 2x GPU %4, half "
                                                 "links %5, efficiency %6")
                                      .arg(rate)
                                      .arg(seed)
                                      .arg(a.step_time_s, 0, 'g', 12)
                                      .arg(f, 0, 'g', 12)
                                      .arg(l, 0, 'g', 12)
                                      .arg(a.scaling_efficiency, 0, 'g', 12);
            QVERIFY2(f <= a.step_time_s * (1 + 1e-12), qPrintable(where));
            QVERIFY2(l >= a.step_time_s * (1 - 1e-12), qPrintable(where));
            QVERIFY2(a.scaling_efficiency <= 1 + 1e-9, qPrintable(where));
            QVERIFY2(a.samples_per_s <= a.data_supply_samples_per_s * (1 + 1e-12),
                     qPrintable(where));
            ++checked;
        }
    QCOMPARE(checked, 32);
}

void TestEffects::loaderSlotFreesAsTheForwardStarts()
{
    // One batch in flight (the main process loads): the next load starts as the forward
    // starts, whatever the plan splits that forward into. Under ZeRO-3 the slot freed after
    // the first piece instead of the forward, so the job loaded earlier than the same job
    // without ZeRO-3 and its one-GPU reference (efficiency 1.06).
    Scenario s = scenarioFrom(kDp8);
    s.effects.data_loader.enabled = true;
    s.effects.data_loader.workers_per_gpu = 0;
    s.effects.data_loader.samples_per_s_per_worker = 40;
    s.training.micro_batch = 1;
    s.training.global_batch = 64;
    for (const int zero : {0, 3}) {
        s.parallel.zero = zero;
        s.parallel.bucket_mb = 5.0; // ZeRO-3: several pieces per forward
        const Summary sum = simulateSummary(s);
        QVERIFY2(sum.scaling_efficiency <= 1 + 1e-9,
                 qPrintable(QStringLiteral("zero %1: efficiency %2")
                                .arg(zero)
                                .arg(sum.scaling_efficiency, 0, 'g', 12)));
        QVERIFY(sum.samples_per_s <= sum.data_supply_samples_per_s * (1 + 1e-12));
    }
}

void TestEffects::youngDalyFormula()
{
    // Young 1974: sqrt(2 delta M).
    QCOMPARE(youngInterval(60, 3600), std::sqrt(2.0 * 60 * 3600));
    // Daly 2006: close to Young for delta << M, and M for delta >= 2M.
    const double d = 30, m = 86400;
    const double young = youngInterval(d, m), daly = dalyInterval(d, m);
    const double x = d / (2 * m);
    QVERIFY(std::abs(daly - (std::sqrt(2 * d * m) * (1 + std::sqrt(x) / 3 + x / 9) - d)) < 1e-9);
    QVERIFY(std::abs(daly - young) / young < 0.02);
    QCOMPARE(dalyInterval(500, 200), 200.0);
    // The optimum maximises the goodput of Daly's complete model (checked on a grid).
    const double best = checkpointGoodput(daly, d, 300, m);
    for (double f : {0.5, 0.8, 1.25, 2.0})
        QVERIFY(checkpointGoodput(daly * f, d, 300, m) < best);
    // First-order limit: 1 - delta/tau - tau/(2M) - R/M.
    QVERIFY(std::abs(best - (1 - d / daly - daly / (2 * m) - 300 / m)) < 1e-3);
}

void TestEffects::goodputMonotonicInMtbf()
{
    FailureSpec f;
    f.enabled = true;
    f.checkpoint_write_gbps = 2;
    double last = 0;
    for (double mtbf : {1e3, 1e4, 5e4, 1e5, 1e6}) {
        f.mtbf_hours_per_gpu = mtbf;
        const CheckpointPlan cp = checkpointPlan(f, 1024, 2e12);
        QVERIFY2(cp.goodput > last, qPrintable(QString::number(cp.goodput)));
        QVERIFY(cp.goodput <= 1);
        last = cp.goodput;
    }
    // More GPUs fail more often: lower goodput.
    f.mtbf_hours_per_gpu = 5e4;
    QVERIFY(checkpointPlan(f, 4096, 2e12).goodput < checkpointPlan(f, 64, 2e12).goodput);
}

void TestEffects::failuresInSummary()
{
    Scenario s = scenarioFrom(kGpt);
    s.effects.failures.enabled = true;
    s.effects.failures.mtbf_hours_per_gpu = 20000;
    const Summary sum = simulateSummary(s);
    QVERIFY(sum.goodput > 0.5 && sum.goodput < 1);
    QVERIFY(sum.checkpoint_interval_s > 0);
}

void TestEffects::thermalModel()
{
    ThermalSpec th;
    th.enabled = true;
    th.ambient_c = 30;
    th.steady_c = 90;
    th.warmup_s = 60;
    QCOMPARE(th.temperatureC(0, 0), 30.0);
    QVERIFY(std::abs(th.temperatureC(0, 60) - (30 + 60 * (1 - std::exp(-1.0)))) < 1e-9);
    const double onset = th.throttleOnsetS(0);
    QVERIFY(std::abs(th.temperatureC(0, onset) - 84) < 1e-9);
    QVERIFY(!th.varies(4)); // steady state, all alike
    th.gpus = {{1, 70}};
    QVERIFY(th.varies(4));
    QVERIFY(!th.throttledAt(1, 1e9));
    th.gpus.clear();
    th.start_s = 0;
    QVERIFY(th.varies(4));
    QVERIFY(!th.throttledAt(0, onset * 0.9));
    QVERIFY(th.throttledAt(0, onset * 1.1));
}

void TestEffects::thermalUniformMatchesLegacyDrop()
{
    // Every GPU throttled in steady state: the same as the clock drop of version 1, and the
    // analytic path sees one GPU slowed when only one is hot.
    Scenario s = scenarioFrom(kDp8);
    s.effects.thermal.enabled = true;
    const Summary all = simulateSummary(s);
    QCOMPARE(all.throttled_gpus, 8);
    s.effects.thermal.steady_c = 70;
    s.effects.thermal.gpus = {{5, 95}};
    const Summary one = simulateSummary(s);
    QCOMPARE(one.throttled_gpus, 1);
    QVERIFY(one.breakdown.wait > 0);
    QVERIFY(one.main_wait);
    QVERIFY(labelText(*one.main_wait).find("GPU 5") != std::string::npos);
    const Summary analytic = analyticSummary(*contextFrom(s));
    QVERIFY(std::abs(analytic.step_time_s / one.step_time_s - 1) < 0.1);
}

void TestEffects::thermalReferenceInTheJobsState()
{
    // Heating from start_s: the one-GPU reference does eight steps' work per step, in the
    // thermal state the job is in during its steps. Before, its clock ran eight times
    // further, so it throttled where the job did not (efficiency 1.28 here).
    Scenario s = scenarioFrom(kDp8);
    ThermalSpec &th = s.effects.thermal;
    th.enabled = true;
    th.steady_c = 90;
    th.clock_drop = 0.3;
    const auto cool = contextFrom(s);
    const double step = cool->step.step_compute_s;
    th.start_s = th.throttleOnsetS(0) - 2 * step; // the job's step ends cool
    const Summary job = simulateSummary(s);
    QCOMPARE(job.throttled_gpus, 0);
    QVERIFY2(job.scaling_efficiency <= 1 + 1e-9, qPrintable(QString::number(job.scaling_efficiency)));
    const Summary analytic = analyticSummary(*contextFrom(s));
    QVERIFY(analytic.scaling_efficiency <= 1 + 1e-9);
    // Past the onset, both throttle: the reference too.
    th.start_s = th.throttleOnsetS(0) + 2 * step;
    const Summary hot = simulateSummary(s);
    QCOMPARE(hot.throttled_gpus, 8);
    QVERIFY(hot.scaling_efficiency <= 1 + 1e-9);
    QVERIFY(hot.single_gpu_step_s > job.single_gpu_step_s * 1.1);

    // One GPU whose own cooling is listed is its own reference, heating or not (it took the
    // common cooling, which it does not have: 1.13x against itself).
    Scenario one = scenarioFrom(kDp8);
    one.hardware.gpus_per_node = 1;
    one.parallel.data = 1;
    one.training.global_batch = 8;
    ThermalSpec &t1 = one.effects.thermal;
    t1.enabled = true;
    t1.gpus = {{0, 80}}; // below the threshold; the common cooling (unset) is above it
    for (const std::optional<double> start : {std::optional<double>{}, std::optional<double>{0.0},
                                              std::optional<double>{1e4}}) {
        t1.start_s = start;
        const Summary e = simulateSummary(one);
        const Summary a = analyticSummary(*contextFrom(one));
        QVERIFY2(std::abs(e.speedup - 1) < 1e-9, qPrintable(QString::number(e.speedup)));
        QVERIFY2(std::abs(a.speedup - 1) < 1e-9, qPrintable(QString::number(a.speedup)));
    }
    // Several GPUs all listed: the coolest is the reference; none runs faster than it.
    Scenario two = s;
    two.effects.thermal.start_s.reset();
    two.effects.thermal.steady_c.reset();
    two.effects.thermal.gpus.clear();
    for (int g = 0; g < 8; ++g)
        two.effects.thermal.gpus.push_back({g, g == 3 ? 95.0 : 80.0});
    QVERIFY(simulateSummary(two).scaling_efficiency <= 1 + 1e-9);
    QCOMPARE(two.effects.thermal.referenceSteadyC(8), 80.0);
    QCOMPARE(two.effects.thermal.referenceSteadyC(3), 80.0);
    two.effects.thermal.steady_c = 60; // GPUs beyond the list take it
    QCOMPARE(two.effects.thermal.referenceSteadyC(9), 60.0);
}

void TestEffects::loaderPrefetchDepth()
{
    // A loader exactly as fast as the GPUs on average: a deeper prefetch queue cannot make it
    // slower, and a starved loader sets the step time at batch / supply.
    Scenario s = scenarioFrom(kDp8);
    s.effects.data_loader.enabled = true;
    s.effects.data_loader.workers_per_gpu = 1;
    s.effects.data_loader.samples_per_s_per_worker = 10;
    s.effects.data_loader.prefetch_factor = 1;
    const Summary starved = simulateSummary(s);
    QVERIFY(std::abs(starved.step_time_s - 64.0 / (8 * 10)) / starved.step_time_s < 0.05);
    QVERIFY(starved.data_supply_samples_per_s < starved.data_demand_samples_per_s);
    s.effects.data_loader.samples_per_s_per_worker = 1e6;
    const double fast1 = simulateSummary(s).step_time_s;
    s.effects.data_loader.prefetch_factor = 8;
    QVERIFY(simulateSummary(s).step_time_s <= fast1 * (1 + 1e-9));
}

void TestEffects::zeroWorkersLoadInTheMainProcess()
{
    // PyTorch's num_workers = 0 loads in the training process at one worker's rate (never
    // a step of 1e9 s): starved, the step is batch / (GPUs x rate), as with one worker
    // without prefetch; engine and closed form agree.
    Scenario s = scenarioFrom(kDp8);
    s.effects.data_loader.enabled = true;
    s.effects.data_loader.workers_per_gpu = 0;
    s.effects.data_loader.samples_per_s_per_worker = 10;
    const Summary main_process = simulateSummary(s);
    QVERIFY(std::isfinite(main_process.step_time_s));
    QVERIFY2(std::abs(main_process.step_time_s - 64.0 / (8 * 10)) / main_process.step_time_s <
                 0.05,
             qPrintable(QString::number(main_process.step_time_s)));
    const Summary closed = analyticSummary(*contextFrom(s));
    QVERIFY(std::abs(closed.step_time_s / main_process.step_time_s - 1.0) < 0.05);
    QCOMPARE(main_process.data_supply_samples_per_s, 8 * 10.0);
    // A thermal section whose GPUs never reach the threshold: no first throttle time (null
    // in the JSON report, never -1).
    {
        Scenario cool = scenarioFrom(kDp8);
        cool.effects.thermal.enabled = true;
        cool.effects.thermal.steady_c = 60;
        const Summary m = simulateSummary(cool);
        QCOMPARE(m.throttled_gpus, 0);
        const QJsonObject thermal =
            summaryToJson(m).value(QStringLiteral("thermal")).toObject();
        QVERIFY(thermal.contains(QStringLiteral("first_throttle_s")));
        QVERIFY(thermal.value(QStringLiteral("first_throttle_s")).isNull());
    }
    // One GPU of the same is 1x by definition.
    s.hardware.gpus_per_node = 1;
    s.parallel.data = 0;
    const Summary one = simulateSummary(scenarioFrom(writeScenario(s).constData()));
    QCOMPARE(one.speedup, 1.0);
}

void TestEffects::sweepShapeIsAChoice()
{
    // The same job started from a slider at 2 or at 4 GPUs per node: keeping the scenario's
    // nodes, "4 GPUs" is 2 nodes x 2 or 1 node x 4 (different answers, as the user chose);
    // filling nodes of 8 first, it is one node of 4 either way (the same answer).
    Scenario two = scenarioFrom(kDp8);
    two.hardware.nodes = 1;
    two.hardware.gpus_per_node = 2;
    two.hardware.inter = *builtinCatalog().findInter("eth-10g");
    two.parallel.data = 0;
    two = scenarioFrom(writeScenario(two).constData());
    Scenario four = two;
    four.hardware.gpus_per_node = 4;
    four.parallel.data = 0;
    four = scenarioFrom(writeScenario(four).constData());
    const Result<Scenario> kept = scaledScenario(two, 4, Scaling::Strong);
    QVERIFY(kept.ok());
    QCOMPARE(kept.value().hardware.nodes, 2);
    QCOMPARE(kept.value().hardware.gpus_per_node, 2);
    const Result<Scenario> filled = scaledScenario(two, 4, Scaling::Strong, 8);
    QVERIFY(filled.ok());
    QCOMPARE(filled.value().hardware.nodes, 1);
    QCOMPARE(filled.value().hardware.gpus_per_node, 4);
    const Result<Scenario> sixteen = scaledScenario(two, 16, Scaling::Strong, 8);
    QVERIFY(sixteen.ok());
    QCOMPARE(sixteen.value().hardware.nodes, 2);
    QCOMPARE(sixteen.value().hardware.gpus_per_node, 8);
    const auto at4 = [](const Scenario &s, int node_gpus) {
        const auto rows = sweep(s, {4}, Scaling::Strong, node_gpus);
        return rows.ok() ? rows.value().front().summary.speedup : -1.0;
    };
    QVERIFY(at4(two, 0) < at4(four, 0)); // across 10 GbE against inside one node
    QCOMPARE(at4(two, 8), at4(four, 8));
}

void TestEffects::virtualGpuStretchesCompute()
{
    Scenario s = scenarioFrom(kDp8);
    const Summary whole = simulateSummary(s);
    s.effects.virtual_gpu.enabled = true;
    s.effects.virtual_gpu.fraction = 0.5;
    s.effects.virtual_gpu.host_routed = false;
    const Summary half = simulateSummary(s);
    QVERIFY(std::abs(half.breakdown.compute / whole.breakdown.compute - 2.0) < 0.05);
    QVERIFY(std::abs(half.memory.capacity - whole.memory.capacity / 2) < 1);
    QVERIFY(half.full_gpu_equivalents < whole.speedup);
}

void TestEffects::attributionSumsToMissingSpeedup_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<bool>("jitter");
    QTest::newRow("dp8") << QString::fromLatin1(kDp8) << false;
    QTest::newRow("dp8 jitter") << QString::fromLatin1(kDp8) << true;
    QTest::newRow("tp8 x dp2") << QString::fromLatin1(kGpt) << false;
}

void TestEffects::attributionSumsToMissingSpeedup()
{
    QFETCH(QString, json);
    QFETCH(bool, jitter);
    Scenario s = scenarioFrom(json.toLatin1().constData());
    if (jitter) {
        s.effects.jitter = 0.1;
        s.effects.stragglers = {{1, 1.3}};
    }
    const int mp = s.parallel.tensor * s.parallel.pipeline;
    std::vector<int> counts;
    for (int n = mp; n <= 16 * mp && n <= 64; n *= 2)
        counts.push_back(n);
    const Result<std::vector<SweepRow>> rows = sweep(s, counts, Scaling::Strong);
    QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().toString().c_str());
    const std::vector<SpeedupAttribution> att = attributeSpeedupLoss(rows.value());
    QCOMPARE(att.size(), counts.size());
    for (const SpeedupAttribution &a : att) {
        QVERIFY(std::abs(a.total() - (a.gpus - a.speedup)) < 1e-6 * a.gpus);
        // The breakdown explains the step: no silent remainder.
        QVERIFY2(std::abs(a.residual_gpus) < 1e-4 * a.gpus,
                 qPrintable(QString::number(a.residual_gpus)));
    }
    const SpeedupAttribution &last = att.back();
    if (jitter)
        QVERIFY(last.loss_gpus[static_cast<size_t>(SpeedupLoss::Sync)] > 0);
    if (s.parallel.tensor > 1)
        QVERIFY(last.loss_gpus[static_cast<size_t>(SpeedupLoss::TpComm)] > 0);
}

void TestEffects::gustafsonFraction()
{
    const std::vector<int> n = {1, 2, 4, 8};
    std::vector<double> sp;
    for (int g : n)
        sp.push_back(gustafsonSpeedup(0.1, g));
    QVERIFY(std::abs(gustafsonSerialFraction(n, sp) - 0.1) < 1e-12);
}

void TestEffects::economicsArithmetic()
{
    QCOMPARE(boardPowerW(400, 1.0), 400.0);
    QCOMPARE(boardPowerW(400, 0.0), 400 * kIdlePowerShare);
    Scenario s = scenarioFrom(kDp8);
    CostSpec c;
    c.gpu_price_usd = 10000;
    c.server_price_usd = 20000;
    c.amortisation_years = 4;
    c.power_price_per_kwh = 0.2;
    c.pue = 1.5;
    c.cloud_price_per_gpu_hour = 2;
    c.steps = 10000;
    c.runs_per_month = 3;
    s.cost = c;
    const Summary sum = simulateSummary(s);
    const CostReport r = costReport(s, sum);
    QCOMPARE(r.steps_per_run, 10000.0);
    QVERIFY(std::abs(r.time_to_train_h - 10000 * sum.step_time_s / 3600) < 1e-9);
    QVERIFY(std::abs(r.reference_time_h - 10000 * sum.single_gpu_step_s / 3600) < 1e-9);
    QCOMPARE(r.capital_usd, 8 * 10000.0 + 20000.0);
    const double power = boardPowerW(s.hardware.gpu.tdp_w, r.utilisation);
    QVERIFY(std::abs(r.energy_kwh_per_run - 8 * power * r.time_to_train_h / 1000 * 1.5) < 1e-9);
    QVERIFY(std::abs(r.rent_cost_per_month_usd - 8 * r.time_to_train_h * 3 * 2) < 1e-9);
    // At the break-even usage owning and renting cost the same.
    const double h = r.break_even_hours_per_month;
    const double own = r.capital_usd / 48 + h * 8 * power / 1000 * 1.5 * 0.2;
    QVERIFY(std::abs(own - h * 8 * 2) < 1e-6 * own);
    // Tokens: steps = tokens / (batch x sequence).
    s.cost->steps = 0;
    s.cost->tokens = 64.0 * 512 * 100;
    QCOMPARE(costReport(s, sum).steps_per_run, 100.0);
    QCOMPARE(costReport(s, sum).advice.size(), size_t(2));
}

void TestEffects::plannerFindsFittingPlans()
{
    const Scenario s = scenarioFrom(kGpt);
    PlanSearchOptions o;
    o.gpus = 16;
    o.top_k = 5;
    double last_progress = -1;
    o.progress = [&](double f) {
        QVERIFY(f >= last_progress);
        last_progress = f;
    };
    const Result<PlanSearchResult> r = searchPlans(s, o);
    QVERIFY(r.ok());
    QCOMPARE(last_progress, 1.0);
    QVERIFY(!r.value().best.empty());
    QVERIFY(r.value().best.size() <= 5);
    double prev = 0;
    for (const PlanCandidate &c : r.value().best) {
        QVERIFY(c.memory_bytes <= c.capacity_bytes);
        QCOMPARE(c.parallel.data * c.parallel.tensor * c.parallel.pipeline, 16);
        QVERIFY(c.step_time_s >= prev);
        prev = c.step_time_s;
        // The candidate is a valid scenario whose analytic step time is the one reported.
        const Scenario applied = applyCandidate(s, 16, c);
        const Summary sum = analyticSummary(*contextFrom(applied));
        QVERIFY(std::abs(sum.step_time_s / c.step_time_s - 1) < 1e-9);
        QVERIFY(sum.memory.fits());
    }
    // The best plan is no slower than the scenario's own plan (it is among the candidates).
    const Summary own = analyticSummary(*contextFrom(s));
    QVERIFY(r.value().best.front().step_time_s <= own.step_time_s * (1 + 1e-9));
    // A smaller GPU leaves fewer plans that fit.
    Scenario small = s;
    small.hardware.gpu.memory_gb = 16;
    o.progress = nullptr;
    const Result<PlanSearchResult> rs = searchPlans(small, o);
    QVERIFY(rs.value().out_of_memory > r.value().out_of_memory);
    for (const PlanCandidate &c : rs.value().best)
        QVERIFY(c.memory_bytes <= small.hardware.gpu.usableMemoryBytes());
    // A count that does not fit the nodes is an error naming --gpus.
    o.gpus = 12;
    QCOMPARE(searchPlans(s, o).error().path, std::string(kRequestedGpusPath));
}

void TestEffects::plannerCancel()
{
    const Scenario s = scenarioFrom(kGpt);
    std::atomic<bool> cancel{true};
    PlanSearchOptions o;
    o.gpus = 16;
    o.cancel = &cancel;
    const Result<PlanSearchResult> r = searchPlans(s, o);
    QVERIFY(r.value().cancelled);
    QCOMPARE(r.value().evaluated, size_t(0));
}

QTEST_GUILESS_MAIN(TestEffects)
#include "tst_effects.moc"
