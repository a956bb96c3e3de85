// Limits of the importers (hardening): oversized files, over-deep JSON, GPU counts, long
// strings and huge lists give a clear error naming the field or file and the allowed range,
// instead of exhausting memory or time. Also the parser bugs fuzzing found (tests/fuzz):
// each keeps a focused assertion here.
#include "io/catalog_io.h"
#include "io/gallery_io.h"
#include "io/json_util.h"
#include "io/profile_io.h"
#include "io/scenario_io.h"
#include "large_inputs.h"
#include "nccl_tests_log.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <string>

using namespace scalescope;

namespace
{

// 8 GPUs (1 node), a catalog GPU and model.
const char *kScenarioHead = R"({ "scalescope": 1, "name": "limits",
  "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 1, "gpus_per_node": 8 },
  "model": "gpt2-124m", "training": { "global_batch": 64 })";

QByteArray scenarioWith(const QByteArray &extra)
{
    return QByteArray(kScenarioHead) + extra + "}";
}

const char *kProfileHead = R"({ "scalescope_profile": 1, "created": "2026-11-30T10:00:00Z",
  "tool": "test", "host": { "hostname": "h", "gpus_per_node": 1, "nodes": 1 })";

QByteArray profileWith(const QByteArray &extra)
{
    return QByteArray(kProfileHead) + extra + "}";
}

/// "[{},{},...]" with `n` empty objects: the limits are checked before the items are read.
QByteArray emptyObjects(qsizetype n)
{
    QByteArray out;
    out.reserve(n * 3 + 2);
    out += '[';
    for (qsizetype i = 0; i < n; ++i)
        out += i ? ",{}" : "{}";
    out += ']';
    return out;
}

QByteArray nested(int depth)
{
    return QByteArray(depth, '[') + QByteArray(depth, ']');
}

/// A sparse file of `bytes` bytes (nothing is written).
QString bigFile(const QTemporaryDir &dir, const QString &name, qint64 bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !file.resize(bytes))
        qFatal("cannot create %s", qPrintable(path));
    return path;
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

#define EXPECT_ERROR(result, expected_path, part)                                                  \
    do {                                                                                           \
        const auto &r_ = (result);                                                                 \
        QVERIFY2(!r_.ok(), "accepted, expected an error");                                         \
        const InputError &e_ = r_.error();                                                         \
        QVERIFY2(e_.path == (expected_path), e_.toString().c_str());                               \
        QVERIFY2(contains(e_.message, part), e_.toString().c_str());                               \
    } while (0)

const char *kNcclHeader =
    "# nThread 1 nGpus 1 minBytes 8 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20\n"
    "#\n"
    "# Using devices\n"
    "#  Rank  0 Group  0 Pid  1 on host-a device  0 [0000:18:00] NVIDIA H100 80GB HBM3\n"
    "#  Rank  1 Group  0 Pid  2 on host-a device  1 [0000:2a:00] NVIDIA H100 80GB HBM3\n"
    "#\n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
    "time   algbw   busbw #wrong\n";

} // namespace

class TestParserLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void baseDocumentsParse();
    // Input size.
    void scenarioFileTooLarge();
    void scenarioBytesTooLarge();
    void profileFileTooLarge();
    void galleryFileTooLarge();
    void gallerySweepTooLong();
    void ncclTestsLogTooLarge();
    // Nesting depth.
    void nestingAtTheLimitIsNotOurError();
    void nestingTooDeepNamesTheKey();
    void nestingFarTooDeepGivesOurError();
    void nestingTooDeepInEveryFormat();
    void bracketsInStringsDoNotCount();
    void nestingTooDeepUnderAKeyEndingInABracket();
    // GPU count, strings, lists.
    void gpuCountLimit();
    void stringTooLong();
    void stragglersMoreThanGpus();
    void thermalGpusMoreThanGpus();
    void manyStragglersParseQuickly();
    void profileListLimits();
    void profileP2PWithManyGpusParsesQuickly();
    // nccl-tests logs (fuzzing findings and limits).
    void ncclTimeBeyondProfileRange();
    void ncclRegressionFromFuzzing();
    void ncclRowsOutOfProfileRanges();
    void ncclGpuCounts();
    void ncclHostNameTooLong();
    void ncclHeaderWithoutWrongColumn();
};

void TestParserLimits::baseDocumentsParse()
{
    const Result<Scenario> s = parseScenario(scenarioWith(""), builtinCatalog());
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
    const Result<CalibrationProfile> p = parseProfile(profileWith(""));
    QVERIFY2(p.ok(), p.ok() ? "" : p.error().toString().c_str());
}

void TestParserLimits::scenarioFileTooLarge()
{
    QTemporaryDir dir;
    const QString path = bigFile(dir, QStringLiteral("big.json"), kMaxScenarioFileBytes + 1);
    const Result<Scenario> s = loadScenarioFile(path, builtinCatalog());
    EXPECT_ERROR(s, "", "larger than the limit of 16777216 bytes for a scenario file");
    QVERIFY(contains(s.error().message, path.toStdString()));
}

void TestParserLimits::scenarioBytesTooLarge()
{
    const QByteArray json =
        scenarioWith(", \"x-pad\": \"" + QByteArray(kMaxScenarioFileBytes, ' ') + "\"");
    EXPECT_ERROR(parseScenario(json, builtinCatalog()), "",
                 "larger than the limit; allowed: at most 16777216 bytes");
}

void TestParserLimits::profileFileTooLarge()
{
    QTemporaryDir dir;
    const QString path = bigFile(dir, QStringLiteral("big.json"), kMaxProfileFileBytes + 1);
    EXPECT_ERROR(loadProfileFile(path), "",
                 "larger than the limit of 67108864 bytes for a calibration profile");
    // The scenario's reference to it names the key.
    QTemporaryDir scenarios;
    QFile file(scenarios.filePath(QStringLiteral("s.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QByteArray json = R"({ "scalescope": 1, "hardware": { "gpu": "a100-sxm4-80gb",
      "calibration": ")" + path.toUtf8() +
                            R"(" }, "model": "gpt2-124m", "training": { "global_batch": 8 } })";
    file.write(json);
    file.close();
    EXPECT_ERROR(loadScenarioFile(file.fileName(), builtinCatalog()), "hardware.calibration",
                 "larger than the limit of 67108864 bytes");
}

void TestParserLimits::galleryFileTooLarge()
{
    QTemporaryDir dir;
    bigFile(dir, QStringLiteral("claim01-big.json"), kMaxScenarioFileBytes + 1);
    const Result<std::vector<GalleryEntry>> g = loadGallery(dir.path());
    QVERIFY(!g.ok());
    QVERIFY2(contains(g.error().toString(), "larger than the limit of 16777216 bytes"),
             g.error().toString().c_str());
    QVERIFY2(contains(g.error().toString(), "claim01-big.json"), g.error().toString().c_str());
}

void TestParserLimits::gallerySweepTooLong()
{
    // Every sweep point is one simulation when the entry is shown: at most 64, as the CLI.
    auto entry = [](int points) {
        QByteArray sweep;
        for (int i = 1; i <= points; ++i)
            sweep += (i > 1 ? "," : "") + QByteArray::number(i);
        return R"({ "scalescope": 1, "name": "sweep",
          "hardware": { "gpu": "a100-sxm4-80gb", "gpus_per_node": 8 },
          "model": "gpt2-1.5b", "training": { "global_batch": 64, "micro_batch": 1 },
          "x-gallery": { "claim": 1, "title": { "en": "t", "zh_CN": "t" },
                         "explanation": { "en": "e", "zh_CN": "e" }, "sweep": [)" +
               sweep + "] } }";
    };
    const Result<GalleryEntry> ok = parseGalleryEntry(entry(64));
    QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().toString().c_str());
    QCOMPARE(ok.value().sweep.size(), size_t(64));
    EXPECT_ERROR(parseGalleryEntry(entry(65)), "x-gallery.sweep",
                 "65 GPU counts are too many; allowed: at most 64");
}

void TestParserLimits::ncclTestsLogTooLarge()
{
    const QByteArray text(gpuprobe::kMaxNcclTestsLogBytes + 1, '\n');
    const auto log = gpuprobe::parseNcclTestsLog(text, "all_reduce_perf.log");
    EXPECT_ERROR(log, "all_reduce_perf.log",
                 "larger than the limit; allowed: at most 67108864 bytes");
}

void TestParserLimits::nestingAtTheLimitIsNotOurError()
{
    // 64 levels: the root object is one, the x- value 63 more; accepted.
    const Result<Scenario> s = parseScenario(
        scenarioWith(", \"x-deep\": " + nested(json::kMaxJsonDepth - 1)), builtinCatalog());
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
}

void TestParserLimits::nestingTooDeepNamesTheKey()
{
    const Result<Scenario> s = parseScenario(
        scenarioWith(", \"x-deep\": " + nested(json::kMaxJsonDepth)), builtinCatalog());
    EXPECT_ERROR(s, "",
                 "not valid JSON: objects and arrays nested more than 64 levels deep at offset");
    QVERIFY2(contains(s.error().message, "under \"x-deep\"; allowed: at most 64 levels"),
             s.error().message.c_str());
}

void TestParserLimits::nestingFarTooDeepGivesOurError()
{
    // Deeper than Qt's own limit (1024): still our message, not "too deeply nested document".
    const Result<Scenario> s = parseScenario(nested(100000), builtinCatalog());
    EXPECT_ERROR(s, "",
                 "nested more than 64 levels deep at offset 64 (line 1, column 65); allowed");
    const Result<Scenario> t = parseScenario(QByteArray(1000000, '{'), builtinCatalog());
    EXPECT_ERROR(t, "", "allowed: at most 64 levels");
}

void TestParserLimits::nestingTooDeepInEveryFormat()
{
    const QByteArray deep = "{\"x-a\": " + nested(200) + "}";
    EXPECT_ERROR(parseProfile(deep), "",
                 "nested more than 64 levels deep at offset 71 (line 1, "
                 "column 72) under \"x-a\"");
    EXPECT_ERROR(parseGalleryEntry(deep), "", "nested more than 64 levels");
    Catalog catalog;
    const Result<bool> c = parseCatalogInto(catalog, deep, QStringLiteral("gpus.json"));
    QVERIFY(!c.ok());
    QVERIFY2(contains(c.error().toString(), "nested more than 64 levels"),
             c.error().toString().c_str());
}

void TestParserLimits::bracketsInStringsDoNotCount()
{
    const QByteArray brackets(200, '[');
    const Result<Scenario> s = parseScenario(
        scenarioWith(", \"x-text\": \"" + brackets + "\\\"" + brackets + "\""), builtinCatalog());
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
}

void TestParserLimits::nestingTooDeepUnderAKeyEndingInABracket()
{
    // Found by fuzz_catalog (an uncaught std::out_of_range): the key named in the depth
    // error was cut at its last '[' even when the key itself ended in ']' without one.
    const QByteArray json = "{\"gpus]\": " + nested(100) + "}";
    Catalog catalog;
    const Result<bool> c = parseCatalogInto(catalog, json, QStringLiteral("gpus.json"));
    QVERIFY(!c.ok());
    QVERIFY2(contains(c.error().toString(), "nested more than 64 levels deep at offset 73 "
                                            "(line 1, column 74) under \"gpus]\""),
             c.error().toString().c_str());
    EXPECT_ERROR(parseScenario("{\"a]\": {\"b[x]\": " + nested(100) + "}}", builtinCatalog()), "",
                 "under \"a].b[x]\"; allowed: at most 64 levels");
    QFile file(
        QStringLiteral(SCALESCOPE_SOURCE_DIR
                       "/tests/fuzz/regressions/catalog/key-ending-in-bracket-too-deep.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const Result<bool> found = parseCatalogInto(catalog, file.readAll(), QStringLiteral("c.json"));
    QVERIFY(!found.ok());
    QVERIFY2(contains(found.error().toString(), "nested more than 64 levels"),
             found.error().toString().c_str());
}

void TestParserLimits::gpuCountLimit()
{
    const QByteArray json = R"({ "scalescope": 1,
      "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 65536, "gpus_per_node": 4 },
      "collective": { "op": "all_reduce", "bytes": 1024 } })";
    EXPECT_ERROR(parseScenario(json, builtinCatalog()), "hardware.nodes",
                 "= 262144 GPUs; allowed: at most 131072 GPUs");
}

void TestParserLimits::stringTooLong()
{
    const QByteArray name(json::kMaxStringChars + 1, 'n');
    QByteArray json = scenarioWith("");
    json.replace("\"limits\"", "\"" + name + "\"");
    EXPECT_ERROR(parseScenario(json, builtinCatalog()), "name",
                 "a string of 65537 characters is too long; allowed: at most 65536 characters");
    // At the limit it is accepted.
    json = scenarioWith("");
    json.replace("\"limits\"", "\"" + name.left(json::kMaxStringChars) + "\"");
    QVERIFY(parseScenario(json, builtinCatalog()).ok());
}

void TestParserLimits::stragglersMoreThanGpus()
{
    const QByteArray json =
        scenarioWith(", \"effects\": { \"stragglers\": " + emptyObjects(9) + " }");
    EXPECT_ERROR(parseScenario(json, builtinCatalog()), "effects.stragglers",
                 "9 stragglers (each GPU once) are too many; allowed: at most 8");
}

void TestParserLimits::thermalGpusMoreThanGpus()
{
    const QByteArray json =
        scenarioWith(", \"effects\": { \"thermal\": { \"gpus\": " + emptyObjects(9) + " } }");
    EXPECT_ERROR(parseScenario(json, builtinCatalog()), "effects.thermal.gpus",
                 "9 GPUs (each GPU once) are too many; allowed: at most 8");
}

void TestParserLimits::manyStragglersParseQuickly()
{
    // The largest cluster with every GPU listed, the last one twice: the duplicate check
    // was quadratic (minutes); now it is found in one pass and names the first listing.
    // bench_parser prints how long it takes.
    const Result<Scenario> s = parseScenario(test::allGpuStragglersScenario(), builtinCatalog());
    EXPECT_ERROR(s, "effects.stragglers[131071].gpu",
                 "GPU 7 is already listed at effects.stragglers[7]");
}

void TestParserLimits::profileListLimits()
{
    EXPECT_ERROR(parseProfile(profileWith(", \"gpus\": " + emptyObjects(kMaxProfileGpus + 1))),
                 "gpus", "1025 GPUs are too many; allowed: at most 1024");
    EXPECT_ERROR(
        parseProfile(profileWith(", \"collectives\": " + emptyObjects(kMaxProfileCollectives + 1))),
        "collectives", "100001 collectives are too many; allowed: at most 100000");
    EXPECT_ERROR(parseProfile(profileWith(", \"skipped\": " + emptyObjects(kMaxProfileNotes + 1))),
                 "skipped", "10001 notes are too many; allowed: at most 10000");
    EXPECT_ERROR(parseProfile(profileWith(", \"errors\": " + emptyObjects(kMaxProfileNotes + 1))),
                 "errors", "10001 notes are too many");
    EXPECT_ERROR(parseProfile(profileWith(", \"p2p\": " + emptyObjects(kMaxProfileP2P + 1))), "p2p",
                 "1048577 peer-to-peer entries are too many; allowed: at most 1048576");
    const QByteArray gpu = R"(, "gpus": [ { "index": 0, "name": "g", )";
    EXPECT_ERROR(parseProfile(profileWith(gpu + "\"gemm_tflops\": { \"bf16\": " +
                                          emptyObjects(kMaxProfileGemmPoints + 1) + " } } ]")),
                 "gpus[0].gemm_tflops.bf16", "10001 points are too many; allowed: at most 10000");
    EXPECT_ERROR(parseProfile(profileWith(gpu + "\"thermal\": { \"duration_s\": 1, \"samples\": " +
                                          emptyObjects(kMaxProfileThermalSamples + 1) + " } } ]")),
                 "gpus[0].thermal.samples",
                 "1000001 samples are too many; allowed: at most 1000000");
    const QByteArray reasons = "[" + QByteArray("\"a\",").repeated(64) + "\"a\"]";
    EXPECT_ERROR(parseProfile(profileWith(gpu + R"("thermal": { "duration_s": 1, "samples": [
        { "t_s": 0, "sm_clock_mhz": 1, "temperature_c": 1, "power_w": 1, "throttle": )" +
                                          reasons + " } ] } } ]")),
                 "gpus[0].thermal.samples[0].throttle",
                 "65 reasons are too many; allowed: at most 64");
}

void TestParserLimits::profileP2PWithManyGpusParsesQuickly()
{
    // 1000 GPUs and 200000 peer-to-peer entries: the list of allowed indices was built
    // for every entry (quadratic); now only for an error. bench_parser prints the time.
    EXPECT_ERROR(parseProfile(test::manyP2PProfile()), "p2p[200000].dst",
                 "1000 is not the index of a GPU listed in \"gpus\"; allowed: 0, 1, 2");
}

void TestParserLimits::ncclTimeBeyondProfileRange()
{
    // Found by fuzz_nccl_tests_log: a row's time beyond the profile's 1e6 s was accepted,
    // and the profile written from it did not parse.
    const QByteArray text = QByteArray(kNcclHeader) +
                            "  1024  256  float  sum  -1  2147483648203.4  0.00  0.00  0  "
                            "30.5  0.03  0.03  0\n";
    EXPECT_ERROR(gpuprobe::parseNcclTestsLog(text, "all_reduce_perf.log"), "all_reduce_perf.log:8",
                 "time 2.147e+12 us is out of range; allowed: 0 to 1e+12 us");
}

void TestParserLimits::ncclRegressionFromFuzzing()
{
    QFile file(
        QStringLiteral(SCALESCOPE_SOURCE_DIR
                       "/tests/fuzz/regressions/nccl_tests_log/time-out-of-profile-range.log"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto log = gpuprobe::parseNcclTestsLog(file.readAll(), "all_reduce_perf.log");
    EXPECT_ERROR(log, "all_reduce_perf.log:46", "us is out of range; allowed: 0 to 1e+12 us");
}

void TestParserLimits::ncclRowsOutOfProfileRanges()
{
    const auto parse = [](const char *row) {
        return gpuprobe::parseNcclTestsLog(QByteArray(kNcclHeader) + row, "all_reduce_perf.log");
    };
    EXPECT_ERROR(
        parse("  20000000000000  5000000000000  float  sum  -1  30.5  0 0 0  30.5 0 0 0\n"),
        "all_reduce_perf.log:8", "size 2e+13 bytes is out of range; allowed: 0 to 10000000000000");
    // (A first column that is not a whole number is not a row at all: noise is skipped.)
    EXPECT_ERROR(parse("  1024  256.5  float  sum  -1  30.5  0.03 0.03 0  30.5 0.03 0.03 0\n"),
                 "all_reduce_perf.log:8", "is not a valid result row; allowed: whole size");
    EXPECT_ERROR(parse("  1024  256  float  sum  1e300  30.5  0.03 0.03 0  30.5 0.03 0.03 0\n"),
                 "all_reduce_perf.log:8", "is not a valid result row");
    EXPECT_ERROR(parse("  1024  0  float  sum  -1  30.5  0.03 0.03 0  30.5 0.03 0.03 0\n"),
                 "all_reduce_perf.log:8", "has a size but count 0; allowed: count >= 1");
    EXPECT_ERROR(parse("  1073741824  268435456  float  sum  -1  0.000001  0 0 0  1 0 0 0\n"),
                 "all_reduce_perf.log:8", "is faster than any network; allowed: at most");
    // A good row still parses, and the profile made from it too.
    const auto ok = parse("  1024  256  float  sum  -1  30.5  0.03 0.05 0  30.5 0.03 0.05 0\n");
    QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().toString().c_str());
    const CalibrationProfile p = gpuprobe::profileFromNcclTests({ok.value()}, {"a.log"}, "t");
    QVERIFY(parseProfile(writeProfile(p)).ok());
}

void TestParserLimits::ncclGpuCounts()
{
    // nThread x nGpus overflowed an int (UB); now the product is checked.
    const QByteArray threads =
        "# nThread 100000 nGpus 100000 minBytes 8 maxBytes 1024 step: 2(factor)\n"
        "  1024  256  float  sum  -1  30.5  0.03 0.05 0  30.5 0.03 0.05 0\n";
    EXPECT_ERROR(gpuprobe::parseNcclTestsLog(threads, "all_reduce_perf.log"),
                 "all_reduce_perf.log:1", "10000000000 GPUs took part; allowed: at most 131072");
    const QByteArray rank = "#  Rank 99999999999 Group 0 Pid 1 on h device 0 [0] GPU\n";
    EXPECT_ERROR(gpuprobe::parseNcclTestsLog(rank, "all_reduce_perf.log"), "all_reduce_perf.log:1",
                 "rank 99999999999 is out of range; allowed: 0 to 131071");
    // 2048 GPUs on one host would be 2048 GPUs per node (a profile allows 1024).
    const QByteArray one_host =
        "# nThread 1 nGpus 2048 minBytes 8 maxBytes 1024 step: 2(factor)\n"
        "  1024  256  float  sum  -1  30.5  0.03 0.06 0  30.5 0.03 0.06 0\n";
    EXPECT_ERROR(gpuprobe::parseNcclTestsLog(one_host, "all_reduce_perf.log"),
                 "all_reduce_perf.log:1",
                 "2048 GPUs on 1 node(s) would be more than 1024 GPUs per node");
}

void TestParserLimits::ncclHostNameTooLong()
{
    const QByteArray text =
        "#  Rank  0 Group  0 Pid  1 on " + QByteArray(300, 'h') + " device  0 [0000:18:00] GPU\n";
    EXPECT_ERROR(gpuprobe::parseNcclTestsLog(text, "all_reduce_perf.log"), "all_reduce_perf.log:1",
                 "a host name of 300 characters; allowed: at most 255");
}

void TestParserLimits::ncclHeaderWithoutWrongColumn()
{
    // Found by fuzz_nccl_tests_log (heap-buffer-overflow): a header without a #wrong column
    // made every row read the column before the first (index -1). Such rows are now read
    // as reporting nothing wrong.
    const QByteArray text =
        "# nThread 1 nGpus 2 minBytes 8 maxBytes 1024 step: 2(factor)\n"
        "#       size         count      type   redop    root     time   algbw   busbw\n"
        "        1024           256     float     sum      -1    30.50    0.03    0.03\n";
    const auto log = gpuprobe::parseNcclTestsLog(text, "all_reduce_perf.log");
    QVERIFY2(log.ok(), log.ok() ? "" : log.error().toString().c_str());
    QCOMPARE(log.value().collectives.size(), size_t(1));
    QVERIFY(log.value().errors.empty());
    QCOMPARE(log.value().collectives[0].time_s, 30.5e-6);
    // The input fuzzing found (a header whose #wrong columns are misspelt) reads up to its
    // last row, whose root -2 is refused.
    QFile file(QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/fuzz/regressions/nccl_tests_log/"
                                                    "header-without-wrong-column.log"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    EXPECT_ERROR(gpuprobe::parseNcclTestsLog(file.readAll(), "all_reduce_perf.log"),
                 "all_reduce_perf.log:16", "is not a valid result row");
}

QTEST_GUILESS_MAIN(TestParserLimits)
#include "tst_parser_limits.moc"
