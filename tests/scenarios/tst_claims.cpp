// The claims gallery (resources/scenarios, shared/claims.md): the loader, and for every claim
// a check that the model shows the effect in the stated direction and rough size.
#include "analysis/summary.h"
#include "analysis/sweep.h"
#include "io/gallery_io.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <string>

using namespace scalescope;

namespace
{

const QString kGalleryDir = QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios");

struct Run {
    Summary summary;
    double staleness = 0;
    double share(double part) const { return part / summary.step_time_s; }
};

// Event simulation of one step (the per-GPU engine, with every effect).
Run simulateScenario(const Scenario &scenario)
{
    const Result<std::shared_ptr<const SimContext>> ctx = makeContext(scenario);
    if (!ctx)
        qFatal("makeContext: %s", ctx.error().toString().c_str());
    const SimResult sim = simulate(*ctx.value(), SimOptions{});
    if (!sim.ok)
        qFatal("simulate: %s", sim.error.c_str());
    Run run;
    run.summary = summarize(*ctx.value(), sim);
    run.staleness = run.summary.staleness_steps;
    return run;
}

std::map<int, Summary> sweepScenario(const Scenario &scenario, const std::vector<int> &gpus)
{
    const Result<std::vector<SweepRow>> rows = sweep(scenario, gpus, Scaling::Strong);
    if (!rows)
        qFatal("sweep: %s", rows.error().toString().c_str());
    std::map<int, Summary> by_gpus;
    for (const SweepRow &row : rows.value())
        by_gpus[row.gpus] = row.summary;
    return by_gpus;
}

void writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    QCOMPARE(file.write(data), data.size());
}

// A minimal valid scenario with `gallery` as its "x-gallery" member (raw JSON text).
QByteArray galleryDocument(const QByteArray &gallery)
{
    QByteArray doc = R"({ "scalescope": 1, "name": "tiny",
      "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 1, "gpus_per_node": 2, "intra_node": "nvlink3" },
      "model": "bert-base", "training": { "global_batch": 16 })";
    if (!gallery.isEmpty())
        doc += ", \"x-gallery\": " + gallery;
    return doc + "}";
}

QByteArray validGallery(int claim)
{
    return R"({ "claim": )" + QByteArray::number(claim) +
           R"(, "title": { "en": "T", "zh_CN": "标题" },
               "explanation": { "en": "E", "zh_CN": "说明" }, "sweep": [1, 2] })";
}

} // namespace

class TestClaims : public QObject
{
    Q_OBJECT

private:
    std::vector<GalleryEntry> gallery_;

    // The entry whose file name starts with `stem` ("claim04-a").
    const GalleryEntry &entry(const char *stem) const
    {
        for (const GalleryEntry &e : gallery_) {
            if (QFileInfo(e.path).fileName().startsWith(QLatin1String(stem)))
                return e;
        }
        qFatal("no gallery file starts with %s", stem);
    }

private Q_SLOTS:
    void initTestCase()
    {
        Result<std::vector<GalleryEntry>> gallery = loadGallery(kGalleryDir);
        QVERIFY2(gallery.ok(), gallery.ok() ? "" : gallery.error().toString().c_str());
        gallery_ = std::move(gallery).value();
    }

    // --- the gallery as a whole ----------------------------------------------------------

    void everyEntryIsComplete()
    {
        QCOMPARE(int(gallery_.size()), SCALESCOPE_GALLERY_COUNT); // gallery.cmake lists them all
        QSet<int> claims;
        int previous = 0;
        for (const GalleryEntry &e : gallery_) {
            const QByteArray where = e.path.toUtf8();
            QVERIFY2(e.claim >= previous, where.constData()); // sorted by claim
            previous = e.claim;
            claims.insert(e.claim);
            QVERIFY2(!e.scenario.name.empty(), where.constData());
            QVERIFY2(!e.title_en.isEmpty() && !e.title_zh.isEmpty(), where.constData());
            QVERIFY2(!e.explanation_en.isEmpty() && !e.explanation_zh.isEmpty(), where.constData());
            QVERIFY2(e.title_en != e.title_zh, where.constData());
            QVERIFY2(QFileInfo(e.path).fileName().startsWith(
                         QStringLiteral("claim%1-").arg(e.claim, 2, 10, QLatin1Char('0'))),
                     where.constData());
            // Every scenario builds a context and, where it names one, sweeps.
            QVERIFY2(makeContext(e.scenario).ok(), where.constData());
            if (!e.sweep.empty())
                QVERIFY2(sweep(e.scenario, e.sweep, Scaling::Strong).ok(), where.constData());
        }
        for (int claim : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15})
            QVERIFY2(claims.contains(claim), qPrintable(QStringLiteral("claim %1").arg(claim)));
    }

    void resourceGalleryMatchesFolder()
    {
        const Result<std::vector<GalleryEntry>> qrc = loadGallery(QStringLiteral(":/gallery"));
        QVERIFY2(qrc.ok(), qrc.ok() ? "" : qrc.error().toString().c_str());
        QCOMPARE(qrc.value().size(), gallery_.size());
        for (size_t i = 0; i < gallery_.size(); ++i) {
            QCOMPARE(QFileInfo(qrc.value()[i].path).fileName(),
                     QFileInfo(gallery_[i].path).fileName());
            QVERIFY(qrc.value()[i].path.startsWith(QStringLiteral(":/gallery/")));
            QCOMPARE(qrc.value()[i].claim, gallery_[i].claim);
            QCOMPARE(qrc.value()[i].explanation_zh, gallery_[i].explanation_zh);
            QCOMPARE(qrc.value()[i].sweep, gallery_[i].sweep);
        }
    }

    void languageChoice()
    {
        const GalleryEntry &e = entry("claim01");
        QCOMPARE(e.title(QStringLiteral("zh_CN")), e.title_zh);
        QCOMPARE(e.title(QStringLiteral("en")), e.title_en);
        QCOMPARE(e.title(QStringLiteral("de_DE")), e.title_en);
        QCOMPARE(e.explanation(QStringLiteral("zh_CN")), e.explanation_zh);
        QCOMPARE(e.explanation(QString()), e.explanation_en);
    }

    // --- the loader's errors --------------------------------------------------------------

    void loaderErrors_data()
    {
        QTest::addColumn<QByteArray>("gallery");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("not an object") << QByteArray("[1]") << "x-gallery"
                                       << "object";
        QTest::newRow("claim missing")
            << QByteArray(
                   R"({ "title": { "en": "T", "zh_CN": "T" }, "explanation": { "en": "E", "zh_CN": "E" } })")
            << "x-gallery.claim"
            << "missing";
        QTest::newRow("claim zero") << validGallery(0) << "x-gallery.claim"
                                    << "range";
        QTest::newRow("claim text")
            << QByteArray(
                   R"({ "claim": "one", "title": { "en": "T", "zh_CN": "T" }, "explanation": { "en": "E", "zh_CN": "E" } })")
            << "x-gallery.claim"
            << "one";
        QTest::newRow("chinese title missing")
            << QByteArray(
                   R"({ "claim": 1, "title": { "en": "T" }, "explanation": { "en": "E", "zh_CN": "E" } })")
            << "x-gallery.title.zh_CN"
            << "missing";
        QTest::newRow("empty explanation")
            << QByteArray(
                   R"({ "claim": 1, "title": { "en": "T", "zh_CN": "T" }, "explanation": { "en": " ", "zh_CN": "E" } })")
            << "x-gallery.explanation.en"
            << "empty";
        QTest::newRow("unknown language")
            << QByteArray(
                   R"({ "claim": 1, "title": { "en": "T", "zh_CN": "T", "fr": "T" }, "explanation": { "en": "E", "zh_CN": "E" } })")
            << "x-gallery.title.fr"
            << "";
        QTest::newRow("unknown key")
            << QByteArray(
                   R"({ "claim": 1, "titel": 2, "title": { "en": "T", "zh_CN": "T" }, "explanation": { "en": "E", "zh_CN": "E" } })")
            << "x-gallery.titel"
            << "";
        QTest::newRow("sweep zero")
            << QByteArray(
                   R"({ "claim": 1, "title": { "en": "T", "zh_CN": "T" }, "explanation": { "en": "E", "zh_CN": "E" }, "sweep": [1, 0] })")
            << "x-gallery.sweep[1]"
            << "range";
        QTest::newRow("sweep not increasing")
            << QByteArray(
                   R"({ "claim": 1, "title": { "en": "T", "zh_CN": "T" }, "explanation": { "en": "E", "zh_CN": "E" }, "sweep": [4, 2] })")
            << "x-gallery.sweep[1]"
            << "increasing";
    }

    void loaderErrors()
    {
        QFETCH(QByteArray, gallery);
        QFETCH(QString, path);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeFile(dir.filePath(QStringLiteral("claim01-good.json")),
                  galleryDocument(validGallery(1)));
        writeFile(dir.filePath(QStringLiteral("claim02-bad.json")), galleryDocument(gallery));
        const Result<std::vector<GalleryEntry>> loaded = loadGallery(dir.path());
        QVERIFY(!loaded.ok());
        const QString where = QString::fromStdString(loaded.error().path);
        const QString text = QString::fromStdString(loaded.error().message);
        QCOMPARE(where, QStringLiteral("claim02-bad.json: ") + path);
        QVERIFY2(text.contains(message, Qt::CaseInsensitive), qPrintable(text));
        // The document alone names the key path without the file.
        const Result<GalleryEntry> one = parseGalleryEntry(galleryDocument(gallery));
        QVERIFY(!one.ok());
        QCOMPARE(QString::fromStdString(one.error().path), path);
    }

    void loaderRejectsBadScenarioAndFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QByteArray doc = galleryDocument(validGallery(3));
        doc.replace("\"global_batch\": 16", "\"global_batch\": 16, \"globl\": 1");
        writeFile(dir.filePath(QStringLiteral("claim03-typo.json")), doc);
        Result<std::vector<GalleryEntry>> loaded = loadGallery(dir.path());
        QVERIFY(!loaded.ok());
        QCOMPARE(QString::fromStdString(loaded.error().path),
                 QStringLiteral("claim03-typo.json: training.globl"));

        writeFile(dir.filePath(QStringLiteral("claim03-typo.json")), "{ not json");
        loaded = loadGallery(dir.path());
        QVERIFY(!loaded.ok());
        QCOMPARE(QString::fromStdString(loaded.error().path), QStringLiteral("claim03-typo.json"));
        QVERIFY(QString::fromStdString(loaded.error().message).contains(QStringLiteral("JSON")));

        loaded = loadGallery(dir.filePath(QStringLiteral("no-such-folder")));
        QVERIFY(!loaded.ok());
        QVERIFY(QString::fromStdString(loaded.error().message)
                    .contains(QStringLiteral("no-such-folder")));

        QByteArray unnamed = galleryDocument(validGallery(3));
        unnamed.replace("\"name\": \"tiny\",", "");
        const Result<GalleryEntry> one = parseGalleryEntry(unnamed);
        QVERIFY(!one.ok());
        QCOMPARE(QString::fromStdString(one.error().path), QStringLiteral("name"));
    }

    void loaderSkipsPlainScenariosAndSorts()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeFile(dir.filePath(QStringLiteral("a.json")), galleryDocument(validGallery(2)));
        writeFile(dir.filePath(QStringLiteral("b.json")), galleryDocument(validGallery(1)));
        writeFile(dir.filePath(QStringLiteral("c.json")), galleryDocument(validGallery(2)));
        writeFile(dir.filePath(QStringLiteral("default.json")), galleryDocument(QByteArray()));
        writeFile(dir.filePath(QStringLiteral("notes.txt")), "not a scenario");
        const Result<std::vector<GalleryEntry>> loaded = loadGallery(dir.path());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QCOMPARE(loaded.value().size(), size_t(3));
        QCOMPARE(QFileInfo(loaded.value()[0].path).fileName(), QStringLiteral("b.json"));
        QCOMPARE(QFileInfo(loaded.value()[1].path).fileName(), QStringLiteral("a.json"));
        QCOMPARE(QFileInfo(loaded.value()[2].path).fileName(), QStringLiteral("c.json"));
        QCOMPARE(loaded.value()[0].sweep, (std::vector<int>{1, 2}));
        QCOMPARE(loaded.value()[0].title(QStringLiteral("zh_CN")), QStringLiteral("标题"));
        QCOMPARE(loaded.value()[0].scenario.hardware.gpus_per_node, 2);
    }

    // --- one test per claim ---------------------------------------------------------------

    // 1. 4 GPUs about 2.5-3.5x, 8 GPUs 4-6x, 8 -> 16 adds under 20%.
    void claim01_speedupIsSublinear()
    {
        const GalleryEntry &e = entry("claim01");
        const auto s = sweepScenario(e.scenario, {1, 4, 8, 16});
        qInfo("speed-up 4: %.2f, 8: %.2f, 16: %.2f", s.at(4).speedup, s.at(8).speedup,
              s.at(16).speedup);
        QVERIFY(s.at(4).speedup >= 2.5 && s.at(4).speedup <= 3.5);
        QVERIFY(s.at(8).speedup >= 4.0 && s.at(8).speedup <= 6.0);
        QVERIFY(s.at(16).speedup < 1.2 * s.at(8).speedup);
    }

    // 2. Without NVLink or fast InfiniBand 16 GPUs are slower than 8; with them, not.
    void claim02_slowLinksMake16SlowerThan8()
    {
        const auto slow = sweepScenario(entry("claim02-16").scenario, {8, 16});
        const auto fast = sweepScenario(entry("claim02-with").scenario, {8, 16});
        qInfo("slow links 8: %.2fx 16: %.2fx; NVLink+IB 8: %.2fx 16: %.2fx", slow.at(8).speedup,
              slow.at(16).speedup, fast.at(8).speedup, fast.at(16).speedup);
        QVERIFY(slow.at(16).step_time_s > slow.at(8).step_time_s);
        QVERIFY(slow.at(16).breakdown.communication_exposed > 0.4 * slow.at(16).step_time_s);
        QVERIFY(fast.at(16).speedup > 1.6 * fast.at(8).speedup);
    }

    // 3. Communication, zero on one GPU, takes 30% or more of a step.
    void claim03_communicationShare()
    {
        const GalleryEntry &e = entry("claim03");
        const auto s = sweepScenario(e.scenario, {1});
        QCOMPARE(s.at(1).breakdown.communication_total, 0.0);
        const Run run = simulateScenario(e.scenario);
        qInfo("exposed communication %.0f%% of the step",
              100 * run.share(run.summary.breakdown.communication_exposed));
        QVERIFY(run.share(run.summary.breakdown.communication_exposed) >= 0.30);
    }

    // 4. A small per-GPU batch exposes communication; a large one hides it and scales better.
    void claim04_largerBatchHidesCommunication()
    {
        const Run small = simulateScenario(entry("claim04-a").scenario);
        const Run large = simulateScenario(entry("claim04-b").scenario);
        qInfo("small batch: %.2fx, exposed %.0f%%; large batch: %.2fx, exposed %.0f%%",
              small.summary.speedup,
              100 * small.share(small.summary.breakdown.communication_exposed),
              large.summary.speedup,
              100 * large.share(large.summary.breakdown.communication_exposed));
        // Same gradients, four times the compute per step.
        QVERIFY(qAbs(large.summary.breakdown.communication_total /
                         small.summary.breakdown.communication_total -
                     1.0) < 0.1);
        QVERIFY(small.share(small.summary.breakdown.communication_exposed) > 0.4);
        QVERIFY(large.share(large.summary.breakdown.communication_exposed) < 0.25);
        QVERIFY(large.summary.scaling_efficiency > small.summary.scaling_efficiency + 0.3);
    }

    // 5. Sync updates wait for the straggler; async removes the wait and reports staleness.
    void claim05_syncWaitsAsyncIsStale()
    {
        const Run sync = simulateScenario(entry("claim05-a").scenario);
        const Run async = simulateScenario(entry("claim05-b").scenario);
        Scenario healthy = entry("claim05-a").scenario;
        healthy.effects.stragglers.clear();
        healthy.effects.jitter = 0;
        const Run base = simulateScenario(healthy);
        qInfo("step healthy %.3f s, sync with straggler %.3f s (wait %.0f%%), async %.3f s "
              "(staleness %.2f steps)",
              base.summary.step_time_s, sync.summary.step_time_s,
              100 * sync.share(sync.summary.breakdown.wait), async.summary.step_time_s,
              async.staleness);
        QVERIFY(sync.summary.step_time_s > 1.2 * base.summary.step_time_s);
        QVERIFY(sync.share(sync.summary.breakdown.wait) > 0.15);
        QVERIFY(async.summary.step_time_s < 0.85 * sync.summary.step_time_s);
        QVERIFY(async.summary.breakdown.wait < 0.02 * async.summary.step_time_s);
        QCOMPARE(sync.staleness, 0.0);
        QVERIFY(async.staleness > 0);
    }

    // 6. One 8-GPU node beats two 4-GPU nodes by about 20%.
    void claim06_oneNodeBeatsTwo()
    {
        const Run one = simulateScenario(entry("claim06-a").scenario);
        const Run two = simulateScenario(entry("claim06-b").scenario);
        const double ratio = one.summary.samples_per_s / two.summary.samples_per_s;
        qInfo("one node of 8 is %.0f%% faster than two nodes of 4", 100 * (ratio - 1));
        QCOMPARE(one.summary.gpus, two.summary.gpus);
        QVERIFY(ratio >= 1.1 && ratio <= 1.4);
    }

    // 7. PCIe instead of NVLink between two cards: 30% up to 2x.
    void claim07_pcieVersusNvlink()
    {
        const Run nvlink = simulateScenario(entry("claim07-a").scenario);
        const Run pcie = simulateScenario(entry("claim07-b").scenario);
        const double ratio = pcie.summary.step_time_s / nvlink.summary.step_time_s;
        qInfo("PCIe step / NVLink step = %.2f", ratio);
        QVERIFY(ratio >= 1.3 && ratio <= 2.0);
    }

    // 8. Sharding fixes out-of-memory, adds communication, is not faster.
    void claim08_shardingSolvesMemoryNotCompute()
    {
        const Run ddp = simulateScenario(entry("claim08-a").scenario);
        const Run zero3 = simulateScenario(entry("claim08-b").scenario);
        qInfo("DDP %.0f GB/GPU, comm %.2f s, step %.2f s; ZeRO-3 %.0f GB/GPU, comm %.2f s, step "
              "%.2f s",
              ddp.summary.memory.total / 1e9, ddp.summary.breakdown.communication_total,
              ddp.summary.step_time_s, zero3.summary.memory.total / 1e9,
              zero3.summary.breakdown.communication_total, zero3.summary.step_time_s);
        QVERIFY(!ddp.summary.memory.fits());
        QVERIFY(zero3.summary.memory.fits());
        QVERIFY(zero3.summary.memory.total < 0.25 * ddp.summary.memory.total);
        QVERIFY(zero3.summary.breakdown.communication_total >
                2.0 * ddp.summary.breakdown.communication_total);
        QVERIFY(zero3.summary.step_time_s > 0.97 * ddp.summary.step_time_s);
    }

    // 9. Pipeline: about 3x on 4 GPUs with enough micro-batches, under 2x with too few.
    void claim09_pipelineBubble()
    {
        const Run many = simulateScenario(entry("claim09-a").scenario);
        const Run few = simulateScenario(entry("claim09-b").scenario);
        qInfo("32 micro-batches: %.2fx (bubble %.0f%%); 2 micro-batches: %.2fx (bubble %.0f%%)",
              many.summary.speedup, 100 * many.share(many.summary.breakdown.pipeline_bubble),
              few.summary.speedup, 100 * few.share(few.summary.breakdown.pipeline_bubble));
        QVERIFY(many.summary.speedup >= 2.7 && many.summary.speedup <= 3.8);
        QVERIFY(few.summary.speedup < 2.0);
        QVERIFY(few.share(few.summary.breakdown.pipeline_bubble) > 0.4);
        QVERIFY(many.share(many.summary.breakdown.pipeline_bubble) < 0.25);
    }

    // 10. Tensor parallelism on 2 GPUs gives about 1.5x.
    void claim10_tensorParallelTwoGpus()
    {
        const Run run = simulateScenario(entry("claim10").scenario);
        qInfo("tensor parallel on 2 GPUs: %.2fx", run.summary.speedup);
        QCOMPARE(run.summary.gpus, 2);
        QVERIFY(run.summary.speedup >= 1.2 && run.summary.speedup <= 1.7);
        QVERIFY(run.summary.breakdown.tp_comm > 0.1 * run.summary.step_time_s);
    }

    // 11. Hot GPUs throttle and run slower.
    void claim11_thermalThrottling()
    {
        const Scenario &hot = entry("claim11").scenario;
        QVERIFY(hot.effects.thermal.enabled);
        Scenario cool = hot;
        cool.effects.thermal.enabled = false;
        const double ratio =
            simulateScenario(hot).summary.step_time_s / simulateScenario(cool).summary.step_time_s;
        qInfo("throttled step / cool step = %.3f", ratio);
        QVERIFY(ratio > 1.04);
        QVERIFY(ratio <= 1.0 / (1.0 - hot.effects.thermal.clock_drop) + 1e-9);
    }

    // 12. A starved data loader keeps utilisation under 80%; enough workers fix it.
    void claim12_dataLoaderStarvation()
    {
        const Run starved = simulateScenario(entry("claim12-a").scenario);
        const Run fed = simulateScenario(entry("claim12-b").scenario);
        qInfo("utilisation starved %.0f%%, fed %.0f%%",
              100 * starved.share(starved.summary.breakdown.compute),
              100 * fed.share(fed.summary.breakdown.compute));
        QVERIFY(starved.share(starved.summary.breakdown.compute) < 0.8);
        QVERIFY(starved.share(starved.summary.breakdown.data_loading) > 0.15);
        QVERIFY(fed.share(fed.summary.breakdown.compute) > 0.95);
        QVERIFY(starved.summary.step_time_s > 1.2 * fed.summary.step_time_s);
    }

    // 14. Small models gain little (under 1.5x) from more GPUs.
    void claim14_smallModelGainsLittle()
    {
        const GalleryEntry &e = entry("claim14");
        QVERIFY(e.sweep.size() >= 3);
        for (const auto &[gpus, summary] : sweepScenario(e.scenario, e.sweep)) {
            qInfo("%d GPUs: %.2fx", gpus, summary.speedup);
            QVERIFY(summary.speedup < 1.5);
        }
    }

    // 15. Image classification is close to linear; a language model gains less.
    void claim15_imagesScaleLanguageModelsLess()
    {
        const Run images = simulateScenario(entry("claim15-a").scenario);
        const Run llm = simulateScenario(entry("claim15-b").scenario);
        qInfo("ResNet-50 %.2fx (%.0f%%), LLM %.2fx (%.0f%%)", images.summary.speedup,
              100 * images.summary.scaling_efficiency, llm.summary.speedup,
              100 * llm.summary.scaling_efficiency);
        QCOMPARE(images.summary.gpus, llm.summary.gpus);
        QVERIFY(images.summary.scaling_efficiency >= 0.9);
        QVERIFY(llm.summary.scaling_efficiency <= images.summary.scaling_efficiency - 0.15);
        QVERIFY(llm.summary.breakdown.communication_total >
                10 * images.summary.breakdown.communication_total);
    }

    // The analytic path (live previews) tells the same story as the engine, within 10%.
    void analyticAgreesWithEngine()
    {
        for (const GalleryEntry &e : gallery_) {
            if (e.scenario.effects.perRank() || e.scenario.effects.data_loader.enabled ||
                e.scenario.parallel.update == UpdateMode::Async)
                continue;
            const auto ctx = makeContext(e.scenario).value();
            const double analytic = analyticSummary(*ctx).step_time_s;
            const double engine = simulateScenario(e.scenario).summary.step_time_s;
            QVERIFY2(qAbs(analytic / engine - 1.0) < 0.10,
                     qPrintable(QStringLiteral("%1: analytic %2 s, engine %3 s")
                                    .arg(e.path)
                                    .arg(analytic)
                                    .arg(engine)));
        }
    }
};

QTEST_GUILESS_MAIN(TestClaims)
#include "tst_claims.moc"
