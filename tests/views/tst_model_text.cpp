// Translation of the model's English texts (views/model_text.h): every label and sentence the
// model produces for the gallery and the CLI test scenarios is matched by a template, English
// stays exactly as the model wrote it, and captured values land in the right placeholders.
#include "analysis/economics.h"
#include "analysis/planner.h"
#include "analysis/summary.h"
#include "io/catalog_io.h"
#include "io/gallery_io.h"
#include "io/scenario_io.h"
#include "model_text.h"

#include <QDir>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSet>
#include <QTranslator>
#include <QtTest>

#include <set>

using namespace scalescope;

namespace
{

const QString kGalleryDir = QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios");
const QString kCliDataDir = QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/cli/data");

/// Every model text of one scenario, with where it came from (for failure messages).
struct Texts {
    std::map<QString, QString> origin; // text -> "file: kind"
    void add(const std::string &text, const QString &where)
    {
        if (!text.empty())
            origin.emplace(QString::fromStdString(text), where);
    }
};

/// A translator for context "ModelText" that marks each template and lists its
/// placeholders in reverse order: "ZH:<template> |%3|%2|%1".
class MarkingTranslator : public QTranslator
{
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *context, const char *source, const char *disambiguation,
                      int n) const override
    {
        Q_UNUSED(disambiguation);
        Q_UNUSED(n);
        if (qstrcmp(context, "ModelText") != 0)
            return {};
        const QString text = QString::fromUtf8(source);
        if (text == QLatin1String("%1 %2"))
            return QStringLiteral("%1 // %2");
        static const QRegularExpression placeholder(QStringLiteral("%([1-9])"));
        int highest = 0;
        for (const QRegularExpressionMatch &m : placeholder.globalMatch(text))
            highest = std::max(highest, m.captured(1).toInt());
        QString out = QStringLiteral("ZH:") + text;
        if (highest > 0) {
            out += QStringLiteral(" ");
            for (int k = highest; k >= 1; --k)
                out += QStringLiteral("|%") + QString::number(k);
        }
        return out;
    }
};

void collectRun(const Scenario &scenario, const QString &name, Texts &texts, bool with_planner)
{
    if (scenario.isCollective())
        return;
    const Result<std::shared_ptr<const SimContext>> ctx = makeContext(scenario);
    if (!ctx)
        return; // invalid on purpose (error texts are not model sentences)
    SimOptions options;
    options.build_timeline = true;
    const SimResult sim = simulate(*ctx.value(), options);
    if (sim.ok) {
        const Summary s = summarize(*ctx.value(), sim);
        texts.add(s.bottleneck, name + QStringLiteral(": bottleneck"));
        texts.add(s.main_wait, name + QStringLiteral(": main wait"));
        std::set<uint32_t> seen;
        if (sim.timeline)
            for (size_t i = 0; i < sim.timeline->size(); ++i)
                if (seen.insert(sim.timeline->labelId(i)).second)
                    texts.add(sim.timeline->label(i), name + QStringLiteral(": timeline label"));
        // The scenario's own cost section, and a default one so every scenario has a verdict.
        Scenario priced = scenario;
        if (!priced.cost) {
            CostSpec cost;
            cost.gpu_price_usd = 30000;
            cost.server_price_usd = 20000;
            cost.cloud_price_per_gpu_hour = 2.5;
            cost.steps = 20000;
            cost.runs_per_month = 4;
            priced.cost = cost;
        }
        const CostReport report = costReport(priced, s);
        texts.add(report.verdict.sentence, name + QStringLiteral(": verdict"));
        texts.add(report.verdict.duration_band, name + QStringLiteral(": duration band"));
        texts.add(report.verdict.frequency_band, name + QStringLiteral(": frequency band"));
        for (const std::string &line : report.advice)
            texts.add(line, name + QStringLiteral(": advice"));
    }
    const Summary analytic = analyticSummary(*ctx.value());
    texts.add(analytic.bottleneck, name + QStringLiteral(": analytic bottleneck"));
    if (with_planner) {
        PlanSearchOptions search;
        search.gpus = scenario.hardware.gpuCount();
        search.top_k = 20;
        const Result<PlanSearchResult> found = searchPlans(scenario, search);
        if (found)
            for (const PlanCandidate &c : found.value().best)
                texts.add(c.bottleneck, name + QStringLiteral(": planner bottleneck"));
    }
}

Texts modelTexts()
{
    Texts texts;
    const Result<std::vector<GalleryEntry>> gallery = loadGallery(kGalleryDir);
    if (!gallery)
        qFatal("gallery: %s", gallery.error().toString().c_str());
    for (const GalleryEntry &e : gallery.value())
        collectRun(e.scenario, QFileInfo(e.path).fileName(), texts,
                   e.scenario.hardware.gpuCount() <= 16);
    const QStringList files =
        QDir(kCliDataDir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    if (files.isEmpty())
        qFatal("no scenarios in %s", qPrintable(kCliDataDir));
    for (const QString &file : files) {
        const Result<Scenario> s =
            loadScenarioFile(kCliDataDir + QLatin1Char('/') + file, builtinCatalog());
        if (!s)
            qFatal("%s: %s", qPrintable(file), s.error().toString().c_str());
        collectRun(s.value(), file, texts, false);
    }
    return texts;
}

/// Hand-written instances of templates the scenarios may not reach.
const char *const kExamples[] = {
    // A simplified timeline's merged segments (sim/simulator.cpp buildTimeline).
    "several items merged, mostly compute (timeline simplified: zoomed-out detail beyond the segment limit)",
    "several items merged, mostly tp_comm (timeline simplified: zoomed-out detail beyond the segment limit)",
    "several items merged, mostly dp_comm (timeline simplified: zoomed-out detail beyond the segment limit)",
    "several items merged, mostly pp_comm (timeline simplified: zoomed-out detail beyond the segment limit)",
    "several items merged, mostly bubble (timeline simplified: zoomed-out detail beyond the segment limit)",
    "several items merged, mostly wait (timeline simplified: zoomed-out detail beyond the segment limit)",
    "several items merged, mostly data_loading (timeline simplified: zoomed-out detail beyond the segment limit)",
    "several items merged, mostly optimizer (timeline simplified: zoomed-out detail beyond the segment limit)",
    "waiting for GPU 0 (slowest data-parallel replica)",
    "waiting for GPU 12 (slowest data-parallel replica, thermal throttling)",
    "waiting for GPU 3 (slowest data-parallel replica, straggler)",
    "forward",
    "backward",
    "recompute + backward",
    "tensor-parallel all-reduce (forward)",
    "tensor-parallel all-reduce (backward)",
    "send activations to next stage",
    "send gradients to previous stage",
    "gradient all-reduce (bucket)",
    "gradient reduce-scatter (ZeRO)",
    "parameter all-gather (ZeRO)",
    "parameter all-gather before use (ZeRO-3)",
    "optimizer step",
    "data loader",
    "waiting for the data loader",
    "pipeline bubble: waiting for another stage",
    "waiting for the slowest GPU of the tensor-parallel group",
    "waiting for data-parallel communication (exposed)",
    "idle until the slowest GPU finishes the step",
    "waiting for the slowest data-parallel replica",
    "pipeline send in progress (blocking exchange)",
    "receiving from the neighbouring pipeline stage",
    "receive from the neighbouring stage",
    "forward (thermal throttling: clocks reduced)",
    "backward (thermal throttling: clocks reduced)",
    "recompute + backward (thermal throttling: clocks reduced)",
    "optimizer step (thermal throttling: clocks reduced)",
    "Nothing to simulate.",
    "Compute-bound: the GPUs compute 91% of the step at 45% MFU.",
    "Compute-bound: the GPUs compute 88% of the step at 41% MFU; the largest loss is "
    "data-parallel exchange (6%).",
    "Compute-bound: the GPUs compute 88% of the step at 41% MFU; the largest loss is "
    "tensor-parallel all-reduces (6%).",
    "Compute-bound: the GPUs compute 88% of the step at 41% MFU; the largest loss is "
    "pipeline bubble (6%).",
    "Compute-bound: the GPUs compute 88% of the step at 41% MFU; the largest loss is "
    "waiting for the slowest GPU (6%).",
    "Compute-bound: the GPUs compute 88% of the step at 41% MFU; the largest loss is "
    "data loading (6%).",
    "Compute-bound: the GPUs compute 88% of the step at 41% MFU; the largest loss is "
    "pipeline sends (6%).",
    "Data-parallel gradient exchange over InfiniBand NDR 400 Gb/s is exposed for 62% of the "
    "step; larger batches per GPU or faster links hide it.",
    "Data-parallel gradient exchange over PCIe 4.0 x16 (routed through host memory) is exposed "
    "for 30% of the step; larger batches per GPU or faster links hide it.",
    "Tensor-parallel all-reduces over NVLink 4 take 18% of the step; they sit on the critical "
    "path of every layer.",
    "Pipeline bubble: 25% of the step is idle with 8 micro-batches on 4 stages; more "
    "micro-batches or interleaving shrink it.",
    "Synchronisation: GPUs wait 20% of the step for the slowest one (stragglers, jitter).",
    "Synchronisation: GPUs wait 20% of the step for the slowest one (stragglers, jitter), mostly "
    "waiting for GPU 3 (slowest data-parallel replica, straggler).",
    "The data loader starves the GPUs for 40% of the step; add loader workers before adding "
    "GPUs.",
    "Pipeline sends between stages block the GPUs for 15% of the step; fewer stages or faster "
    "links between them help.",
    "Compute-bound: the GPUs compute 95% of the step at 50% MFU. The GPUs run hot (above 83 C) "
    "and throttle their clocks by 20%.",
    "Compute-bound: the GPUs compute 95% of the step at 50% MFU. 2 of 8 GPUs run hot (above 83 "
    "C) and throttle their clocks by 20%.",
    "Compute-bound: the GPUs compute 95% of the step at 50% MFU. Each GPU is a 25% slice of a "
    "physical GPU: the job runs like 1.2e+02 whole GPUs.",
    "Compute-bound: the GPUs compute 95% of the step at 50% MFU. It does not fit: 95.1 GB per "
    "GPU against 80.0 GB.",
    "Linear scaling rule (Goyal et al. 2017): if the global batch grows k-fold to keep more "
    "GPUs busy, multiply the learning rate by k and warm it up over the first ~5 epochs; this "
    "scenario keeps the global batch at 512.",
    "Data loader: each GPU consumes about 950 samples/s; at 200 samples/s per worker it needs 5 "
    "workers (has 2).",
    "Data loader: start with 4 workers per GPU (PyTorch rule of thumb) and raise until GPU "
    "utilisation stops rising, at most the CPU cores per GPU.",
    "under a day",
    "1-3 days",
    "3-14 days",
    "over two weeks",
    "under 50 GPU-hours a month",
    "50-200 GPU-hours a month",
    "over 200 GPU-hours a month",
};

} // namespace

class TestModelText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scenarioTextsAreCovered();
    void examples_data();
    void examples();
    void everyTemplateIsReached();
    void unknownTextIsUnchanged_data();
    void unknownTextIsUnchanged();
    void translatorGetsCapturesInOrder();
    void labelCache();
};

void TestModelText::scenarioTextsAreCovered()
{
    const Texts texts = modelTexts();
    QStringList unmatched, changed, used;
    for (const auto &[text, where] : texts.origin) {
        if (!isKnownModelText(text, &used))
            unmatched.append(where + QStringLiteral(": \"") + text + QLatin1Char('"'));
        if (translateModelText(text) != text)
            changed.append(where + QStringLiteral(": \"") + text + QStringLiteral("\" -> \"") +
                           translateModelText(text) + QLatin1Char('"'));
    }
    used.removeDuplicates();
    QElapsedTimer timer;
    timer.start();
    for (const auto &entry : texts.origin)
        translateModelText(entry.first);
    qInfo("translating them once: %.1f us per text", static_cast<double>(timer.nsecsElapsed()) /
                                                         1e3 /
                                                         static_cast<double>(texts.origin.size()));
    qInfo("%zu distinct model texts from the scenarios; %lld of %lld templates reached",
          texts.origin.size(), static_cast<long long>(used.size()),
          static_cast<long long>(modelTextTemplates().size()));
    QStringList unreached;
    for (const QString &t : modelTextTemplates())
        if (!used.contains(t))
            unreached.append(t);
    qInfo("reached only by the hand-written examples: %s", qPrintable(unreached.join(" | ")));
    QVERIFY(texts.origin.size() > 30);
    QVERIFY2(unmatched.isEmpty(),
             qPrintable(QStringLiteral("not matched by a template:\n") + unmatched.join('\n')));
    QVERIFY2(changed.isEmpty(),
             qPrintable(QStringLiteral("English not kept as is:\n") + changed.join('\n')));
}

void TestModelText::examples_data()
{
    QTest::addColumn<QString>("text");
    for (const char *e : kExamples)
        QTest::newRow(e) << QString::fromUtf8(e);
}

void TestModelText::examples()
{
    QFETCH(QString, text);
    QVERIFY2(isKnownModelText(text), qPrintable(text));
    QCOMPARE(translateModelText(text), text);
    QCOMPARE(translateModelText(text.toStdString()), text);
}

void TestModelText::everyTemplateIsReached()
{
    QStringList used;
    for (const char *e : kExamples)
        isKnownModelText(QString::fromUtf8(e), &used);
    QStringList missing;
    for (const QString &t : modelTextTemplates())
        if (!used.contains(t))
            missing.append(t);
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join('\n')));
}

void TestModelText::unknownTextIsUnchanged_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << QString();
    QTest::newRow("other") << QStringLiteral("something the model never says");
    QTest::newRow("label prefix") << QStringLiteral("forward pass");
    QTest::newRow("known then unknown") << QStringLiteral("Nothing to simulate. Something else.");
    QTest::newRow("two spaces") << QStringLiteral("Nothing to simulate.  Nothing to simulate.");
    QTest::newRow("trailing space") << QStringLiteral("Nothing to simulate. ");
    QTest::newRow("not a number") << QStringLiteral(
        "waiting for GPU x (slowest data-parallel replica)");
    QTest::newRow("unknown band") << QStringLiteral(
        "Worth it: 4 GPUs save 300 h of waiting a month (the job takes a while "
        "on one GPU, over 200 GPU-hours a month); the table suggests 4 GPUs, "
        "owning (400 h a month against a break-even of 120 h).");
}

void TestModelText::unknownTextIsUnchanged()
{
    QFETCH(QString, text);
    MarkingTranslator zh;
    QVERIFY(QCoreApplication::installTranslator(&zh));
    const QString out = translateModelText(text);
    QCoreApplication::removeTranslator(&zh);
    QCOMPARE(out, text);
    QVERIFY(!isKnownModelText(text));
}

void TestModelText::translatorGetsCapturesInOrder()
{
    MarkingTranslator zh;
    QVERIFY(QCoreApplication::installTranslator(&zh));
    const QString label =
        translateModelText(QStringLiteral("waiting for GPU 3 (slowest data-parallel replica)"));
    const QString bubble = translateModelText(
        QStringLiteral("Pipeline bubble: 25% of the step is idle with 8 micro-batches on 4 stages; "
                       "more micro-batches or interleaving shrink it."));
    const QString sync = translateModelText(
        QStringLiteral("Synchronisation: GPUs wait 20% of the step for the slowest one "
                       "(stragglers, jitter), mostly waiting for GPU 17 (slowest data-parallel "
                       "replica, straggler). It does not fit: 95.1 GB per GPU against 80.0 GB."));
    const QString link = translateModelText(std::string(
        "Data-parallel gradient exchange over PCIe %2 x16 (routed through host memory) is "
        "exposed for 30% of the step; larger batches per GPU or faster links hide it."));
    const QString band = translateModelText(QStringLiteral("1-3 days"));
    QCoreApplication::removeTranslator(&zh);

    QCOMPARE(label, QStringLiteral("ZH:waiting for GPU 3 (slowest data-parallel replica) |3"));
    QCOMPARE(bubble, QStringLiteral("ZH:Pipeline bubble: 25% of the step is idle with 8 "
                                    "micro-batches on 4 stages; more micro-batches or "
                                    "interleaving shrink it. |4|8|25"));
    // Two sentences through the join template; the embedded label translated on its own.
    const QString wait =
        QStringLiteral("ZH:waiting for GPU 17 (slowest data-parallel replica, straggler) |17");
    QCOMPARE(sync, QStringLiteral("ZH:Synchronisation: GPUs wait 20% of the step for the slowest "
                                  "one (stragglers, jitter), mostly %1. |%1|20 // ZH:It does not "
                                  "fit: 95.1 GB per GPU against 80.0 GB. |80.0|95.1")
                       .arg(wait));
    // A link name is kept (even one that looks like a placeholder); the suffix the model
    // appended is translated.
    QVERIFY2(link.startsWith(QStringLiteral("ZH:Data-parallel gradient exchange over ZH:PCIe %2 "
                                            "x16 (routed through host memory) |PCIe %2 x16 is "
                                            "exposed for 30% of the step")),
             qPrintable(link));
    QVERIFY2(link.endsWith(QStringLiteral(" |30|ZH:PCIe %2 x16 (routed through host memory) "
                                          "|PCIe %2 x16")),
             qPrintable(link));
    QCOMPARE(band, QStringLiteral("ZH:1-3 days"));
}

void TestModelText::labelCache()
{
    const Result<Scenario> scenario =
        loadScenarioFile(kCliDataDir + QStringLiteral("/effects.json"), builtinCatalog());
    QVERIFY(scenario);
    const Result<std::shared_ptr<const SimContext>> ctx = makeContext(scenario.value());
    QVERIFY(ctx);
    SimOptions options;
    options.build_timeline = true;
    SimResult sim = simulate(*ctx.value(), options);
    QVERIFY(sim.ok && sim.timeline);
    auto timeline = std::make_shared<const Timeline>(std::move(*sim.timeline));
    QVERIFY(timeline->size() > 0);

    ModelLabelCache cache;
    for (size_t i = 0; i < timeline->size(); ++i)
        QCOMPARE(cache.label(timeline, i), QString::fromStdString(timeline->label(i)));
    // Same label id, same cached string.
    QCOMPARE(&cache.label(timeline, 0), &cache.label(timeline, 0));

    MarkingTranslator zh;
    QVERIFY(QCoreApplication::installTranslator(&zh));
    // Cached: still the English until cleared.
    QCOMPARE(cache.label(timeline, 0), QString::fromStdString(timeline->label(0)));
    cache.clear();
    QVERIFY(cache.label(timeline, 0).startsWith(QStringLiteral("ZH:")));
    // Another timeline (a copy) gets its own entry.
    auto other = std::make_shared<const Timeline>(*timeline);
    QVERIFY(cache.label(other, 0).startsWith(QStringLiteral("ZH:")));
    QCoreApplication::removeTranslator(&zh);

    // Lookups are cheap: a million cached lookups well within a frame budget.
    QElapsedTimer timer;
    timer.start();
    qsizetype chars = 0;
    for (size_t k = 0; k < 1'000'000; ++k)
        chars += cache.label(timeline, k % timeline->size()).size();
    qInfo("1,000,000 cached label lookups: %.1f ms",
          static_cast<double>(timer.nsecsElapsed()) / 1e6);
    QVERIFY(chars > 0);
}

QTEST_GUILESS_MAIN(TestModelText)
#include "tst_model_text.moc"
