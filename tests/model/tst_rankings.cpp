// Orderings of plans that published measurements establish (the model must rank plans of
// one model on one cluster in the measured order, not only match single numbers).
#include "testutil.h"

using namespace scalescope;
using namespace scalescope::test;

namespace
{

Scenario gpt(int layers, int hidden, int heads, int nodes, int tensor, int pipeline,
             int global_batch, int micro_batch, const char *schedule = "1f1b", int virt = 1)
{
    const QByteArray json = QStringLiteral(R"({ "scalescope": 1,
      "hardware": { "gpu": "a100-sxm4-80gb", "nodes": %1, "gpus_per_node": 8,
                    "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 8 },
      "model": { "transformer": { "layers": %2, "hidden": %3, "heads": %4, "seq_len": 2048,
                                  "vocab": 51200 } },
      "training": { "global_batch": %5, "micro_batch": %6, "precision": "fp16",
                    "recompute": "full" },
      "parallel": { "tensor": %7, "pipeline": %8, "schedule": "%9", "virtual_stages": %10 } })")
                                .arg(nodes)
                                .arg(layers)
                                .arg(hidden)
                                .arg(heads)
                                .arg(global_batch)
                                .arg(micro_batch)
                                .arg(tensor)
                                .arg(pipeline)
                                .arg(QLatin1String(schedule))
                                .arg(virt)
                                .toUtf8();
    return scenarioFrom(json.constData());
}

double throughput(const Scenario &s)
{
    return simulateSummary(s).samples_per_s;
}

} // namespace

class TestRankings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void interleavingHelpsSmallBatches();
    void tensorParallelismStaysInTheNode();
    void microBatchSizeHasASweetSpot();
    void selectiveBeatsFullRecompute();
    void fasterNetworkHelpsDataParallelism();
};

void TestRankings::interleavingHelpsSmallBatches()
{
    // Narayanan et al. SC21, Fig. 12 (GPT-3 175B, 96 A100, t=8, p=12): the interleaved
    // schedule is faster than 1F1B, most at small batch sizes.
    const double plain = throughput(gpt(96, 12288, 96, 12, 8, 12, 48, 1));
    const double inter = throughput(gpt(96, 12288, 96, 12, 8, 12, 48, 1, "interleaved", 2));
    QVERIFY2(inter > 1.05 * plain, qPrintable(QStringLiteral("%1 vs %2").arg(inter).arg(plain)));
    const double plain_big = throughput(gpt(96, 12288, 96, 12, 8, 12, 384, 1));
    const double inter_big = throughput(gpt(96, 12288, 96, 12, 8, 12, 384, 1, "interleaved", 2));
    QVERIFY(inter_big / plain_big < inter / plain); // the gain shrinks as the batch grows
}

void TestRankings::tensorParallelismStaysInTheNode()
{
    // SC21 Fig. 13 (GPT 162B on 64 A100): tensor parallelism beyond the 8 GPUs of a node
    // (all-reduces over InfiniBand) is much slower than t = 8 with pipeline across nodes.
    const double t8 = throughput(gpt(96, 12288, 96, 8, 8, 8, 128, 1));
    const double t16 = throughput(gpt(96, 12288, 96, 8, 16, 4, 128, 1));
    const double t32 = throughput(gpt(96, 12288, 96, 8, 32, 2, 128, 1));
    QVERIFY(t8 > t16);
    QVERIFY(t16 > t32);
    QVERIFY(t8 > 1.4 * t32);
}

void TestRankings::microBatchSizeHasASweetSpot()
{
    // SC21 Sec. 3.4 and Fig. 16: with a fixed batch, larger micro-batches leave fewer of
    // them to fill the pipeline (bubble (p-1)/m), so past a point throughput falls...
    const double b2 = throughput(gpt(80, 8192, 64, 8, 8, 8, 128, 2));
    const double b8 = throughput(gpt(80, 8192, 64, 8, 8, 8, 128, 8));
    QVERIFY(b8 < 0.9 * b2);
    // ... while without a pipeline a larger micro-batch only makes the GEMMs bigger and
    // more efficient (small models gain most).
    auto bert = [](int micro_batch) {
        const QByteArray json = QStringLiteral(R"({ "scalescope": 1,
          "hardware": { "gpu": "a100-sxm4-80gb", "gpus_per_node": 8, "intra_node": "nvlink3" },
          "model": "bert-large", "training": { "global_batch": 256, "micro_batch": %1,
                                               "precision": "fp16" } })")
                                    .arg(micro_batch)
                                    .toUtf8();
        return throughput(scenarioFrom(json.constData()));
    };
    QVERIFY(bert(16) > 1.1 * bert(1));
}

void TestRankings::selectiveBeatsFullRecompute()
{
    // Korthikanti et al. 2022, Table 4: selective recompute with sequence parallelism
    // needs 4-30% less time per step than full recompute.
    Scenario full = gpt(48, 6144, 64, 1, 8, 1, 4, 4);
    Scenario selective = full;
    selective.training.recompute = Recompute::Selective;
    selective.parallel.sequence_parallel = true;
    const double a = simulateSummary(full).step_time_s;
    const double b = simulateSummary(selective).step_time_s;
    QVERIFY(b < 0.9 * a && b > 0.6 * a);
}

void TestRankings::fasterNetworkHelpsDataParallelism()
{
    // Horovod and nccl-tests: the same data-parallel job over 25 GbE is slower than over
    // InfiniBand, and more so for VGG-16 (138M parameters) than for ResNet-50 (25M).
    auto run = [](const char *model, const char *net) {
        const QByteArray json = QStringLiteral(R"({ "scalescope": 1,
          "hardware": { "gpu": "v100-sxm2-32gb", "nodes": 8, "gpus_per_node": 8,
                        "intra_node": "nvlink2", "inter_node": "%2", "nics_per_node": 1 },
          "model": "%1", "training": { "global_batch": 4096, "micro_batch": 64,
                                       "precision": "fp16", "optimizer": "sgd" } })")
                                    .arg(QLatin1String(model), QLatin1String(net))
                                    .toUtf8();
        return simulateSummary(scenarioFrom(json.constData())).scaling_efficiency;
    };
    const double vgg_eth = run("vgg16", "eth-25g"), vgg_ib = run("vgg16", "ib-edr-100");
    const double rn_eth = run("resnet50", "eth-25g"), rn_ib = run("resnet50", "ib-edr-100");
    QVERIFY(vgg_ib > vgg_eth);
    QVERIFY(rn_ib >= rn_eth);
    QVERIFY(vgg_ib - vgg_eth > rn_ib - rn_eth);
}

QTEST_GUILESS_MAIN(TestRankings)
#include "tst_rankings.moc"
