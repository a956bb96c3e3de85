// The model's one evaluation (analysis/evaluation.h) that the window's worker and the CLI's
// simulate and sweep call (issue 11): its stages, the sweep policy, errors and cancelling.
#include "testutil.h"

#include "analysis/evaluation.h"

#include <QFile>

using namespace scalescope;
using namespace scalescope::test;

namespace
{

// 2 nodes x 4 GPUs of data parallelism with a global batch of 256 and micro-batch 32: 16
// GPUs would need 512 samples per step, a count the plan cannot reach.
const char *const kJob = R"({ "scalescope": 1,
  "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 2, "gpus_per_node": 4,
                "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 4 },
  "model": "resnet50", "training": { "global_batch": 256, "micro_batch": 32 },
  "cost": { "gpu_price_usd": 10000, "cloud_price_per_gpu_hour": 2.0,
            "training": { "epochs": 1, "samples_per_epoch": 1281167 } } })";

} // namespace

class TestEvaluation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stepAndSweepAgree()
    {
        // The scenario's own count in the sweep is the step's figure; the one-GPU row is 1x;
        // the fit and the attribution cover exactly the rows.
        const Scenario s = scenarioFrom(kJob);
        EvaluationRequest what;
        what.sweep = true;
        what.sweep_gpus = {1, 2, 4, 8};
        const Result<ScenarioEvaluation> e = evaluateScenario(s, what);
        QVERIFY2(e, e ? "" : e.error().toString().c_str());
        const ScenarioEvaluation &v = e.value();
        QVERIFY(v.context);
        QCOMPARE(v.sweep.size(), size_t(4));
        QCOMPARE(v.attribution.size(), v.sweep.size());
        QCOMPARE(v.sweep.back().gpus, 8);
        QCOMPARE(v.sweep.back().summary.step_time_s, v.step.summary.step_time_s);
        QVERIFY(std::abs(v.sweep.front().summary.speedup - 1.0) < 1e-9);
        QCOMPARE(v.amdahl.points, 3);
        QVERIFY(v.cost.has_value());
        // The CLI's simulate: the same step without a sweep.
        const Result<ScenarioEvaluation> alone = evaluateScenario(s, EvaluationRequest{});
        QVERIFY(alone);
        QVERIFY(alone.value().sweep.empty());
        QCOMPARE(alone.value().step.summary.step_time_s, v.step.summary.step_time_s);
    }

    void unreachableCountsArePolicy()
    {
        // The window leaves a count the plan cannot reach out of its chart; the CLI, asked
        // for exactly that count, gets an error naming it.
        const Scenario s = scenarioFrom(kJob);
        EvaluationRequest what;
        what.sweep = true;
        what.sweep_gpus = {1, 8, 16};
        what.skip_unreachable_counts = true;
        const Result<ScenarioEvaluation> window = evaluateScenario(s, what);
        QVERIFY(window);
        QCOMPARE(window.value().sweep.size(), size_t(2));
        what.skip_unreachable_counts = false;
        const Result<ScenarioEvaluation> cli = evaluateScenario(s, what);
        QVERIFY(!cli);
        QCOMPARE(QString::fromStdString(cli.error().path), QString::fromLatin1(kRequestedGpusPath));
        QVERIFY(QString::fromStdString(cli.error().message).startsWith(QStringLiteral("16 GPUs")));
    }

    void stagesComeInOrder()
    {
        // A large run first reports the closed form's estimate, then the engine's step, then
        // returns the complete evaluation; the timeline is shared, not copied.
        const Scenario s = scenarioFrom(kJob);
        EvaluationRequest what;
        what.step.build_timeline = true;
        what.sweep = true;
        what.sweep_gpus = {1, 8};
        what.estimate_first_tasks = 1; // every run counts as large here
        std::vector<EvaluationStage> seen;
        std::shared_ptr<const Timeline> drawn;
        const Result<ScenarioEvaluation> e =
            evaluateScenario(s, what, [&](EvaluationStage stage, const ScenarioEvaluation &p) {
                seen.push_back(stage);
                if (stage == EvaluationStage::Estimate) {
                    QVERIFY(!p.timeline);
                    QVERIFY(p.step.summary.step_time_s > 0);
                } else {
                    QVERIFY(p.sweep.empty());
                    drawn = p.timeline;
                }
            });
        QVERIFY(e);
        QCOMPARE(seen, (std::vector<EvaluationStage>{EvaluationStage::Estimate,
                                                     EvaluationStage::Step}));
        QVERIFY(drawn);
        QCOMPARE(e.value().timeline.get(), drawn.get());
        QCOMPARE(e.value().sweep.size(), size_t(2));
        // Without the estimate threshold there is no estimate stage.
        seen.clear();
        what.estimate_first_tasks = 0;
        QVERIFY(evaluateScenario(s, what, [&](EvaluationStage st, const ScenarioEvaluation &) {
            seen.push_back(st);
        }));
        QCOMPARE(seen, std::vector<EvaluationStage>{EvaluationStage::Step});
    }

    void bottleneckNamesTheLinkCrossed()
    {
        // Issue 13, finding 7: tensor parallelism of 8 over two nodes of 4 crosses the
        // 25 GbE network, and the bottleneck names that network, not the NVLink inside a
        // node; within one node of 8 it names NVLink.
        Scenario s = scenarioFrom(R"({ "scalescope": 1,
          "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 2, "gpus_per_node": 4,
                        "intra_node": "nvlink3", "inter_node": "eth-25g", "nics_per_node": 1 },
          "model": "gpt3-2.7b",
          "training": { "global_batch": 16, "micro_batch": 2, "framework": "megatron-lm" },
          "parallel": { "tensor": 8 } })");
        const Result<ScenarioEvaluation> across = evaluateScenario(s, EvaluationRequest{});
        QVERIFY(across);
        const Bottleneck &b = across.value().step.summary.bottleneck;
        QCOMPARE(b.kind, BottleneckKind::TpAllReduce);
        QCOMPARE(QString::fromStdString(b.link), QString::fromStdString(s.hardware.inter.name));
        s.hardware.nodes = 1;
        s.hardware.gpus_per_node = 8;
        const Result<ScenarioEvaluation> inside = evaluateScenario(s, EvaluationRequest{});
        QVERIFY(inside);
        const Bottleneck &c = inside.value().step.summary.bottleneck;
        if (c.kind == BottleneckKind::TpAllReduce)
            QCOMPARE(QString::fromStdString(c.link), QString::fromStdString(s.hardware.intra.name));
        QVERIFY(inside.value().step.summary.step_time_s <
                across.value().step.summary.step_time_s / 5);
    }

    void errorsAndCancel()
    {
        Scenario s = scenarioFrom(kJob);
        std::atomic<bool> cancel{true};
        EvaluationRequest what;
        what.cancel = &cancel;
        const Result<ScenarioEvaluation> stopped = evaluateScenario(s, what);
        QVERIFY(!stopped && isCancelled(stopped.error()));
        // A plan the rules refuse is the scenario's error, with its key path.
        s.parallel.tensor = 3;
        const Result<ScenarioEvaluation> refused = evaluateScenario(s, EvaluationRequest{});
        QVERIFY(!refused);
        QVERIFY(!refused.error().path.empty());
    }
};

QTEST_GUILESS_MAIN(TestEvaluation)
#include "tst_evaluation.moc"
