// The model's records in the GUI's language (views/model_text.h): without a translator every
// label, bottleneck and advice record renders exactly as the model's English (for every record
// kind and for everything the gallery and the CLI test scenarios produce); with the Chinese
// translation (resources/translations/scalescope_zh_CN.ts) every kind renders in Chinese from
// an entry that exists there; figures land in the right placeholders.
#include "analysis/economics.h"
#include "analysis/planner.h"
#include "analysis/summary.h"
#include "io/catalog_io.h"
#include "io/gallery_io.h"
#include "io/scenario_io.h"
#include "model_text.h"
#include "palette.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

#include <map>
#include <optional>

using namespace scalescope;

namespace
{

const QString kGalleryDir = QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios");
const QString kCliDataDir = QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/cli/data");
const QString kChineseTs =
    QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/translations/scalescope_zh_CN.ts");

/// The Chinese translation read from its .ts file (what the window loads, compiled): answers
/// context "ModelText" by source and comment, and lists the lookups it has no entry for.
class ChineseTranslator : public QTranslator
{
public:
    bool load()
    {
        QFile file(kChineseTs);
        if (!file.open(QIODevice::ReadOnly))
            return false;
        QXmlStreamReader xml(&file);
        QString context, source, comment;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("message")) {
                source.clear();
                comment.clear();
            } else if (xml.isStartElement() && xml.name() == QLatin1String("name")) {
                context = xml.readElementText();
            } else if (xml.isStartElement() && xml.name() == QLatin1String("source")) {
                source = xml.readElementText();
            } else if (xml.isStartElement() && xml.name() == QLatin1String("comment")) {
                comment = xml.readElementText();
            } else if (xml.isStartElement() && xml.name() == QLatin1String("translation")) {
                const bool unfinished =
                    xml.attributes().value(QLatin1String("type")) == QLatin1String("unfinished");
                const QString text = xml.readElementText();
                if (context == QLatin1String("ModelText") && !unfinished && !text.isEmpty())
                    entries_.insert(key(source, comment), text);
            }
        }
        return !xml.hasError() && !entries_.isEmpty();
    }
    bool isEmpty() const override { return entries_.isEmpty(); }
    QString translate(const char *context, const char *source, const char *disambiguation,
                      int n) const override
    {
        Q_UNUSED(n);
        if (qstrcmp(context, "ModelText") != 0)
            return {};
        const QString k = key(QString::fromUtf8(source), QString::fromUtf8(disambiguation));
        const auto it = entries_.constFind(k);
        if (it == entries_.constEnd()) {
            missing.insert(k);
            return {};
        }
        return *it;
    }
    mutable QSet<QString> missing; // "source | comment" looked up without an entry

private:
    static QString key(const QString &source, const QString &comment)
    {
        return source + QStringLiteral(" | ") + comment;
    }
    QHash<QString, QString> entries_;
};

/// A translator for context "ModelText" that marks each source and lists its placeholders
/// in reverse order: "ZH:<source> |%3|%2|%1".
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

/// Installs a translator for the scope.
class Installed
{
public:
    explicit Installed(QTranslator *t) : t_(t) { QCoreApplication::installTranslator(t_); }
    ~Installed() { QCoreApplication::removeTranslator(t_); }
    Installed(const Installed &) = delete;
    Installed &operator=(const Installed &) = delete;

private:
    QTranslator *t_;
};

/// One record with its English text from the model and a name for failure messages.
template <typename Record> struct Case {
    QString name;
    Record record;
    QString english;
};

SegmentLabel waitFor(int gpu, WaitCause cause)
{
    return SegmentLabel{LabelKind::WaitForGpu, cause, SegmentKind::Wait, gpu};
}

/// Every kind of label: the fixed ones, a GPU waited for with each cause, each merged kind.
std::vector<Case<SegmentLabel>> labelCases()
{
    std::vector<Case<SegmentLabel>> out;
    const auto add = [&out](const SegmentLabel &l) {
        out.push_back({QString::fromStdString(labelText(l)), l, {}});
    };
    for (int k = 0; k < kFixedLabelCount; ++k)
        add(SegmentLabel{static_cast<LabelKind>(k)});
    for (WaitCause c : {WaitCause::None, WaitCause::ThermalThrottling, WaitCause::Straggler})
        add(waitFor(12, c));
    for (int k = 0; k < kSegmentKindCount; ++k)
        add(SegmentLabel{LabelKind::Merged, WaitCause::None, static_cast<SegmentKind>(k)});
    for (Case<SegmentLabel> &c : out)
        c.english = QString::fromStdString(labelText(c.record));
    return out;
}

/// Every kind of bottleneck, each loss a compute-bound step names, and each sentence that
/// may follow (alone and all together).
std::vector<Case<Bottleneck>> bottleneckCases()
{
    std::vector<Case<Bottleneck>> out;
    const auto add = [&out](const char *name, const Bottleneck &b) {
        out.push_back({QString::fromLatin1(name), b, QString::fromStdString(bottleneckText(b))});
    };
    Bottleneck b;
    add("nothing to simulate", b);
    b.kind = BottleneckKind::ComputeBound;
    b.compute_share = 0.912;
    b.mfu = 0.4549;
    b.share = 0.06;
    add("compute-bound", b);
    for (int k = 0; k < 6; ++k) {
        b.largest_loss = static_cast<StepLoss>(k);
        add("compute-bound with its largest loss", b);
    }
    b = Bottleneck{};
    b.kind = BottleneckKind::HostBound;
    b.mfu = 0.055;
    b.host_share = 0.69;
    b.host_op_us = 14;
    b.stack = "PyTorch DDP";
    add("host-bound", b);
    b = Bottleneck{};
    b.share = 0.62;
    b.link = "InfiniBand NDR 400 Gb/s";
    b.kind = BottleneckKind::DpExchange;
    add("data-parallel exchange", b);
    b.kind = BottleneckKind::TpAllReduce;
    b.link = "NVLink 4";
    add("tensor-parallel all-reduces", b);
    // GPUs without peer-to-peer: the note after either sentence.
    b.host_staged = true;
    b.link = "PCIe 4.0 x16";
    add("tensor-parallel all-reduces through host memory", b);
    b.kind = BottleneckKind::DpExchange;
    add("data-parallel exchange through host memory", b);
    b.host_staged = false;
    b.kind = BottleneckKind::PipelineBubble;
    b.micro_batches = 8;
    b.stages = 4;
    add("pipeline bubble", b);
    b.kind = BottleneckKind::Synchronisation;
    add("synchronisation", b);
    for (WaitCause c : {WaitCause::None, WaitCause::ThermalThrottling, WaitCause::Straggler}) {
        b.main_wait = waitFor(17, c);
        add("synchronisation naming a GPU", b);
    }
    b.main_wait.reset();
    b.kind = BottleneckKind::DataLoader;
    add("data loader", b);
    b.kind = BottleneckKind::PipelineSends;
    add("pipeline sends", b);

    Bottleneck base;
    base.kind = BottleneckKind::ComputeBound;
    base.compute_share = 0.95;
    base.mfu = 0.5;
    b = base;
    b.thermal = Bottleneck::Thermal{8, 8, 83, 0.2};
    add("all GPUs hot", b);
    b.thermal = Bottleneck::Thermal{2, 8, 83, 0.2};
    add("some GPUs hot", b);
    b = base;
    b.virtual_gpu = Bottleneck::VirtualGpu{0.25, 123.4};
    add("virtual GPU slices", b);
    b = base;
    b.out_of_memory = Bottleneck::OutOfMemory{95.1 * kBytesPerGiB, 80 * kBytesPerGiB};
    add("does not fit", b);
    {
        // Nearer the capacity than the model's memory error: "may not fit", with and
        // without the change that makes it fit.
        Bottleneck near = base;
        near.out_of_memory = Bottleneck::OutOfMemory{81.5 * kBytesPerGiB, 78.6 * kBytesPerGiB};
        near.out_of_memory->within_error = true;
        add("may not fit", near);
        near.out_of_memory->remedy = Bottleneck::OutOfMemory::Remedy::SelectiveRecompute;
        near.out_of_memory->remedy_need_bytes = 74.6 * kBytesPerGiB;
        near.out_of_memory->remedy_total_bytes = 74.6 * kBytesPerGiB;
        near.out_of_memory->step_time_s = 10.0;
        near.out_of_memory->remedy_step_time_s = 10.1;
        add("may not fit, with the change that fits it", near);
    }
    b.kind = BottleneckKind::Synchronisation;
    b.share = 0.2;
    b.main_wait = waitFor(3, WaitCause::Straggler);
    b.thermal = Bottleneck::Thermal{2, 8, 83, 0.2};
    b.virtual_gpu = Bottleneck::VirtualGpu{0.5, 3.96};
    add("every sentence after the main one", b);
    return out;
}

std::vector<Case<Advice>> adviceCases()
{
    std::vector<Case<Advice>> out;
    const auto add = [&out](const char *name, const Advice &a) {
        out.push_back({QString::fromLatin1(name), a, QString::fromStdString(adviceText(a))});
    };
    Advice a;
    a.kind = AdviceKind::LinearScalingRule;
    a.global_batch = 512;
    add("linear scaling rule", a);
    a = Advice{};
    a.kind = AdviceKind::LoaderWorkers;
    a.samples_per_s_per_gpu = 949.6;
    a.samples_per_s_per_worker = 200;
    a.workers_needed = 5;
    a.workers_per_gpu = 2;
    add("loader workers", a);
    a = Advice{};
    a.kind = AdviceKind::LoaderRuleOfThumb;
    add("loader rule of thumb", a);
    return out;
}

bool hasChinese(const QString &s)
{
    for (QChar c : s)
        if (c.unicode() >= 0x4e00 && c.unicode() <= 0x9fff)
            return true;
    return false;
}

/// What the scenarios produce: each record beside the model's English for it.
struct Produced {
    std::map<QString, QString> problems; // where -> what differs
    int labels = 0, bottlenecks = 0, advice = 0;
    QSet<int> bottleneck_kinds, label_kinds, advice_kinds;

    void label(const SegmentLabel &l, const std::string &english, const QString &where)
    {
        ++labels;
        label_kinds.insert(static_cast<int>(l.kind));
        if (l.kind == LabelKind::Text)
            problems.emplace(where, QStringLiteral("no record for \"%1\"").arg(qs(english)));
        else if (translatedLabel(l) != qs(english))
            problems.emplace(
                where,
                QStringLiteral("\"%1\" rendered \"%2\"").arg(qs(english), translatedLabel(l)));
    }
    void bottleneck(const Bottleneck &b, const std::string &english, const QString &where)
    {
        ++bottlenecks;
        bottleneck_kinds.insert(static_cast<int>(b.kind));
        if (translatedBottleneck(b) != qs(english))
            problems.emplace(
                where,
                QStringLiteral("\"%1\" rendered \"%2\"").arg(qs(english), translatedBottleneck(b)));
    }
    void advices(const CostReport &r, const QString &where)
    {
        for (size_t i = 0; i < r.advice.size(); ++i) {
            ++advice;
            advice_kinds.insert(static_cast<int>(r.advice[i].kind));
            const std::string english = adviceText(r.advice[i]);
            if (translatedAdvice(r.advice[i]) != qs(english))
                problems.emplace(where + QString::number(i),
                                 QStringLiteral("\"%1\" rendered \"%2\"")
                                     .arg(qs(english), translatedAdvice(r.advice[i])));
        }
    }
    static QString qs(const std::string &s) { return QString::fromStdString(s); }
};

void collectRun(const Scenario &scenario, const QString &name, Produced &out, bool with_planner)
{
    if (scenario.isCollective())
        return;
    const Result<std::shared_ptr<const SimContext>> ctx = makeContext(scenario);
    if (!ctx)
        return; // invalid on purpose (error texts are not model records)
    SimOptions options;
    options.build_timeline = true;
    const SimResult sim = simulate(*ctx.value(), options);
    if (sim.ok) {
        const Summary s = summarize(*ctx.value(), sim);
        out.bottleneck(s.bottleneck, bottleneckText(s.bottleneck),
                       name + QStringLiteral(": bottleneck"));
        if (s.main_wait)
            out.label(*s.main_wait, labelText(*s.main_wait), name + QStringLiteral(": main wait"));
        if (sim.timeline)
            for (uint32_t id = 0; id < sim.timeline->labelCount(); ++id)
                out.label(sim.timeline->labelRecordOf(id), sim.timeline->labelTextOf(id),
                          name + QStringLiteral(": timeline label %1").arg(id));
        // The scenario's own cost section, and a default one so every scenario has advice.
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
        out.advices(costReport(priced, s), name + QStringLiteral(": advice "));
    }
    const Summary analytic = analyticSummary(*ctx.value());
    out.bottleneck(analytic.bottleneck, bottleneckText(analytic.bottleneck),
                   name + QStringLiteral(": analytic bottleneck"));
    if (with_planner) {
        PlanSearchOptions search;
        search.gpus = scenario.hardware.gpuCount();
        search.top_k = 20;
        const Result<PlanSearchResult> found = searchPlans(scenario, search);
        if (found)
            for (const PlanCandidate &c : found.value().best)
                out.bottleneck(c.bottleneck, bottleneckText(c.bottleneck),
                               name + QStringLiteral(": planner bottleneck"));
    }
}

} // namespace

class TestModelText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void englishIsTheModels();
    void scenarioRecordsRenderAsTheModelWrites();
    void everyKindRendersInChinese();
    void mergedLabelsNameTheLegendsKinds();
    void oneWholeGpuIsNoPlural();
    void translatorGetsFiguresInOrder();
    void timelineKeepsRecords();
    void labelCache();
};

void TestModelText::englishIsTheModels()
{
    for (const Case<SegmentLabel> &c : labelCases())
        QCOMPARE(translatedLabel(c.record), c.english);
    for (const Case<Bottleneck> &c : bottleneckCases())
        QCOMPARE(translatedBottleneck(c.record), c.english);
    for (const Case<Advice> &c : adviceCases())
        QCOMPARE(translatedAdvice(c.record), c.english);
    // A label given as text has no record to render (the cache shows its text).
    QVERIFY(translatedLabel(SegmentLabel{}).isEmpty());
    // Figures as the model writes them, under any locale.
    QCOMPARE(labelCases()[kFixedLabelCount + 2].english,
             QStringLiteral("waiting for GPU 12 (slowest data-parallel replica, straggler)"));
    QCOMPARE(bottleneckCases()[1].english,
             QStringLiteral("Compute-bound: the GPUs compute 91% of the step at 45.5% MFU."));
    QCOMPARE(
        bottleneckCases().back().english,
        QStringLiteral(
            "Synchronisation: GPUs wait 20% of the step for the slowest one "
            "(stragglers, jitter), mostly waiting for GPU 3 (slowest "
            "data-parallel replica, straggler). 2 of 8 GPUs run hot (above 83 °C) "
            "and throttle their clocks by 20%. Each GPU is a 50% slice of a "
            "physical GPU: the job gets 4x the compute of one whole GPU. It does not fit: 95.1 GiB "
            "per GPU against 80.0 GiB."));
    // Near the capacity the sentence says what the memory line says: it may not fit.
    QString near;
    for (const Case<Bottleneck> &c : bottleneckCases())
        if (c.name == QLatin1String("may not fit, with the change that fits it"))
            near = c.english;
    QVERIFY2(near.endsWith(QStringLiteral(
                 "It may not fit: 81.5 GiB per GPU against 78.6 GiB, within the model's 10% "
                 "memory error; selective recompute would fit it in 74.6 GiB, with a step 1% "
                 "longer.")),
             qPrintable(near));
    QCOMPARE(adviceCases()[1].english,
             QStringLiteral("Data loader: each GPU consumes about 950 samples/s; at 200 samples/s "
                            "per worker it needs 5 workers (has 2)."));
}

void TestModelText::scenarioRecordsRenderAsTheModelWrites()
{
    Produced produced;
    const Result<std::vector<GalleryEntry>> gallery = loadGallery(kGalleryDir);
    QVERIFY2(gallery, gallery ? "" : gallery.error().toString().c_str());
    for (const GalleryEntry &e : gallery.value())
        collectRun(e.scenario, QFileInfo(e.path).fileName(), produced,
                   e.scenario.hardware.gpuCount() <= 16);
    const QStringList files =
        QDir(kCliDataDir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY(!files.isEmpty());
    for (const QString &file : files) {
        const Result<Scenario> s =
            loadScenarioFile(kCliDataDir + QLatin1Char('/') + file, builtinCatalog());
        QVERIFY2(s, qPrintable(file));
        collectRun(s.value(), file, produced, false);
    }
    qInfo("%d labels, %d bottlenecks, %d advice lines; %lld label, %lld bottleneck and %lld "
          "advice kinds",
          produced.labels, produced.bottlenecks, produced.advice,
          static_cast<long long>(produced.label_kinds.size()),
          static_cast<long long>(produced.bottleneck_kinds.size()),
          static_cast<long long>(produced.advice_kinds.size()));
    QStringList problems;
    for (const auto &[where, what] : produced.problems)
        problems.append(where + QStringLiteral(": ") + what);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QVERIFY(produced.labels > 100);
    QVERIFY(produced.bottleneck_kinds.size() >= 5);
    QCOMPARE(produced.advice_kinds.size(), qsizetype(3));
}

void TestModelText::everyKindRendersInChinese()
{
    ChineseTranslator zh;
    QVERIFY2(zh.load(), qPrintable(kChineseTs));
    QStringList problems;
    const auto check = [&problems](const QString &name, const QString &english,
                                   const QString &chinese) {
        static const QRegularExpression placeholder(QStringLiteral("%[1-9]"));
        if (chinese == english || !hasChinese(chinese))
            problems.append(name + QStringLiteral(": not Chinese: ") + chinese);
        else if (chinese.contains(placeholder))
            problems.append(name + QStringLiteral(": placeholder left: ") + chinese);
    };
    {
        const Installed installed(&zh);
        for (const Case<SegmentLabel> &c : labelCases())
            check(c.name, c.english, translatedLabel(c.record));
        for (const Case<Bottleneck> &c : bottleneckCases())
            check(c.name, c.english, translatedBottleneck(c.record));
        for (const Case<Advice> &c : adviceCases())
            check(c.name, c.english, translatedAdvice(c.record));
        // The figures stay as the model writes them.
        QCOMPARE(translatedLabel(waitFor(12, WaitCause::Straggler)),
                 QStringLiteral("等待 GPU 12（最慢的数据并行副本，慢节点）"));
        QCOMPARE(translatedBottleneck(bottleneckCases()[1].record),
                 QStringLiteral("计算受限：GPU 在 91% 的步时间内进行计算，MFU 为 45.5%。"));
    }
    // Every source text and comment has its entry: none was looked up in vain.
    QStringList missing = zh.missing.values();
    missing.sort();
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("no Chinese entry for:\n") + missing.join('\n')));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
}

void TestModelText::mergedLabelsNameTheLegendsKinds()
{
    // Issue 26: a simplified timeline's rows read "mostly pp_comm", the engine's internal
    // name; they name the kind as the legend does, in either language.
    ChineseTranslator zh;
    QVERIFY2(zh.load(), qPrintable(kChineseTs));
    for (bool chinese : {false, true}) {
        std::optional<Installed> installed;
        if (chinese)
            installed.emplace(&zh);
        for (int k = 0; k < kSegmentKindCount; ++k) {
            const auto kind = static_cast<SegmentKind>(k);
            const QString text =
                translatedLabel(SegmentLabel{LabelKind::Merged, WaitCause::None, kind});
            QVERIFY2(text.contains(kindName(kind)), qPrintable(text));
            QVERIFY2(!text.contains(QLatin1Char('_')), qPrintable(text));
        }
    }
}

void TestModelText::oneWholeGpuIsNoPlural()
{
    // Issue 26: four quarter slices read "the job runs like 1 whole GPUs".
    Bottleneck b;
    b.kind = BottleneckKind::ComputeBound;
    b.compute_share = 0.9;
    b.mfu = 0.4;
    b.virtual_gpu = Bottleneck::VirtualGpu{0.25, 1.0};
    const QString text = translatedBottleneck(b);
    QCOMPARE(text, QString::fromStdString(bottleneckText(b)));
    QVERIFY2(!text.contains(QStringLiteral("1 whole GPUs")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("1x the compute of one whole GPU.")), qPrintable(text));
}

void TestModelText::translatorGetsFiguresInOrder()
{
    MarkingTranslator zh;
    const Installed installed(&zh);
    QCOMPARE(translatedLabel(waitFor(3, WaitCause::None)),
             QStringLiteral("ZH:waiting for GPU 3 (slowest data-parallel replica) |3"));
    Bottleneck bubble;
    bubble.kind = BottleneckKind::PipelineBubble;
    bubble.share = 0.25;
    bubble.micro_batches = 8;
    bubble.stages = 4;
    QCOMPARE(translatedBottleneck(bubble),
             QStringLiteral("ZH:Pipeline bubble: 25% of the step is idle with 8 micro-batches on "
                            "4 stages; more micro-batches or interleaving shrink it. |4|8|25"));
    // Sentences in a row through the join source; the label inside translated on its own.
    Bottleneck sync;
    sync.kind = BottleneckKind::Synchronisation;
    sync.share = 0.2;
    sync.main_wait = waitFor(17, WaitCause::Straggler);
    sync.out_of_memory = Bottleneck::OutOfMemory{95.1 * kBytesPerGiB, 80 * kBytesPerGiB};
    const QString wait =
        QStringLiteral("ZH:waiting for GPU 17 (slowest data-parallel replica, straggler) |17");
    QCOMPARE(translatedBottleneck(sync),
             QStringLiteral("ZH:Synchronisation: GPUs wait 20% of the step for the slowest one "
                            "(stragglers, jitter), mostly %1. |%1|20 // ZH:It does not fit: 95.1 "
                            "GiB per GPU against 80.0 GiB. |80.0|95.1")
                 .arg(wait));
    // A link name is kept as it is, even one that looks like a placeholder.
    Bottleneck dp;
    dp.kind = BottleneckKind::DpExchange;
    dp.share = 0.3;
    dp.link = "PCIe %2 x16";
    QCOMPARE(translatedBottleneck(dp),
             QStringLiteral("ZH:Data-parallel gradient exchange over PCIe %2 x16 is exposed for "
                            "30% of the step; larger batches per GPU or faster links hide it. "
                            "|30|PCIe %2 x16"));
    QCOMPARE(translatedAdvice(adviceCases()[1].record),
             QStringLiteral("ZH:Data loader: each GPU consumes about 950 samples/s; at 200 "
                            "samples/s per worker it needs 5 workers (has 2). |2|5|200|950"));
}

void TestModelText::timelineKeepsRecords()
{
    TimelineBuilder builder(2, 2, 1);
    const SegmentLabel wait = waitFor(1, WaitCause::ThermalThrottling);
    const uint32_t a = builder.internLabel(wait);
    QCOMPARE(builder.internLabel(wait), a);
    const uint32_t b = builder.internLabel(std::string("custom"));
    QVERIFY(b != a);
    builder.beginRow(0);
    builder.add(0, 1, SegmentKind::Wait, a, 0);
    builder.add(1, 1, SegmentKind::Compute, b, 0);
    const Timeline t = builder.finish();
    QCOMPARE(t.label(0), labelText(wait));
    QVERIFY(t.labelRecord(0) == wait);
    QCOMPARE(t.label(1), std::string("custom"));
    QVERIFY(t.labelRecord(1).kind == LabelKind::Text);
    // A timeline built from another one's segments keeps their records (presentation mode).
    TimelineBuilder copy(1, 1, 1);
    copy.beginRow(0);
    for (size_t i = 0; i < t.size(); ++i)
        copy.add(t.start(i), t.duration(i), t.kind(i), copy.internLabelOf(t, i), 0);
    const Timeline c = copy.finish();
    QVERIFY(c.labelRecord(0) == wait);
    QCOMPARE(c.label(1), std::string("custom"));
    QVERIFY(c.labelRecord(1).kind == LabelKind::Text);
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
    {
        const Installed installed(&zh);
        // Cached: still the English until cleared.
        QCOMPARE(cache.label(timeline, 0), QString::fromStdString(timeline->label(0)));
        cache.clear();
        QVERIFY(cache.label(timeline, 0).startsWith(QStringLiteral("ZH:")));
        // Another timeline (a copy) gets its own entry.
        auto other = std::make_shared<const Timeline>(*timeline);
        QVERIFY(cache.label(other, 0).startsWith(QStringLiteral("ZH:")));
        // A label given as text is shown as written.
        TimelineBuilder builder(1, 1, 1);
        builder.beginRow(0);
        builder.add(0, 1, SegmentKind::Compute, builder.internLabel(std::string("as written")), 0);
        auto text = std::make_shared<const Timeline>(builder.finish());
        QCOMPARE(cache.label(text, 0), QStringLiteral("as written"));
    }
    cache.clear();

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
