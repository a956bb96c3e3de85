// scalescope-cli trace (spec/cli.md, section "trace: a measured run, and the prediction
// beside it"), run as a separate process: the shared real traces against the spec's
// independent reader (../shared/tools/trace_ref.py, run here as the oracle), hand-made
// traces whose figures are worked out below by hand, files that are not traces, --scenario
// and --profile.
#include "hardware/precision.h"
#include "io/profile_io.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <cmath>

namespace
{

constexpr int kTimeoutMs = 120000;

struct Run {
    int code = -1;
    QByteArray out, err;
    QString describe() const
    {
        return QStringLiteral("exit %1\nstdout: %2\nstderr: %3")
            .arg(code)
            .arg(QString::fromUtf8(out.left(600)), QString::fromUtf8(err.left(600)));
    }
};

Run runProgram(const QString &program, const QStringList &args)
{
    Run r;
    QProcess p;
    p.setProgram(program);
    p.setArguments(args);
    p.start();
    if (!p.waitForStarted(kTimeoutMs))
        return r;
    p.closeWriteChannel();
    if (!p.waitForFinished(kTimeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.code = p.exitStatus() == QProcess::CrashExit ? -2 : p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

Run cli(const QStringList &args)
{
    return runProgram(QStringLiteral(SCALESCOPE_CLI), QStringList{QStringLiteral("trace")} + args);
}

QString sharedPath(const char *relative)
{
    return QStringLiteral(SCALESCOPE_SHARED_DIR "/") + QLatin1String(relative);
}

// The spec's independent reader: what `trace --json` must print (figures to 3%, counts
// exactly). Fails the test when it cannot run: a missing oracle is no pass.
Run oracle(const QStringList &files)
{
    const QString script = sharedPath("tools/trace_ref.py");
    if (!QFile::exists(script)) {
        Run r;
        r.err = "missing " + script.toUtf8() + " (SCALESCOPE_SHARED_DIR)";
        return r;
    }
    return runProgram(QStringLiteral("python3"),
                      QStringList{script} + files + QStringList{QStringLiteral("--json")});
}

bool close(double a, double b)
{
    // Times within 3% (spec: "times within 3%"); values that are both (almost) 0 agree.
    if (std::fabs(a) < 1e-12 && std::fabs(b) < 1e-12)
        return true;
    return std::fabs(a - b) <= 0.03 * std::max(std::fabs(a), std::fabs(b));
}

// Compares `trace --json` with the oracle's object: counts and names exactly, times to 3%.
void compareWithOracle(const QJsonObject &got, const QJsonObject &want)
{
    for (const char *k : {"ranks", "steps", "kernels"})
        QVERIFY2(got.value(QLatin1String(k)) == want.value(QLatin1String(k)),
                 qPrintable(QStringLiteral("%1: %2, oracle %3")
                                .arg(QLatin1String(k))
                                .arg(got.value(QLatin1String(k)).toDouble())
                                .arg(want.value(QLatin1String(k)).toDouble())));
    QCOMPARE(got.value(QStringLiteral("gpu")), want.value(QStringLiteral("gpu")));
    for (const char *group : {"step_time_s", "per_step_s", "communication_by_kind_s"}) {
        const QJsonObject g = got.value(QLatin1String(group)).toObject();
        const QJsonObject w = want.value(QLatin1String(group)).toObject();
        QCOMPARE(g.keys(), w.keys());
        for (const QString &k : w.keys())
            QVERIFY2(close(g.value(k).toDouble(), w.value(k).toDouble()),
                     qPrintable(QStringLiteral("%1.%2: %3, oracle %4")
                                    .arg(QLatin1String(group), k)
                                    .arg(g.value(k).toDouble(), 0, 'g', 10)
                                    .arg(w.value(k).toDouble(), 0, 'g', 10)));
    }
}

QJsonObject parseObject(const QByteArray &json)
{
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(json, &e);
    return d.isObject() ? d.object() : QJsonObject();
}

// ---- Hand-made traces --------------------------------------------------------------------

QJsonObject traceEvent(const char *cat, const QString &name, double ts, std::optional<double> dur,
                       QJsonObject args, int tid = 1)
{
    QJsonObject e;
    e[QStringLiteral("ph")] = QStringLiteral("X");
    e[QStringLiteral("cat")] = QLatin1String(cat);
    e[QStringLiteral("name")] = name;
    e[QStringLiteral("pid")] = 0;
    e[QStringLiteral("tid")] = tid;
    e[QStringLiteral("ts")] = ts;
    if (dur)
        e[QStringLiteral("dur")] = *dur;
    e[QStringLiteral("args")] = args;
    return e;
}

QJsonObject kernel(const QString &name, double ts, std::optional<double> dur, int correlation,
                   int stream = 7)
{
    QJsonObject a;
    a[QStringLiteral("device")] = 0;
    a[QStringLiteral("stream")] = stream;
    a[QStringLiteral("correlation")] = correlation;
    return traceEvent("kernel", name, ts, dur, a, stream);
}

QJsonObject launch(double ts, int correlation, int tid = 1)
{
    QJsonObject a;
    a[QStringLiteral("correlation")] = correlation;
    return traceEvent("cuda_runtime", QStringLiteral("cudaLaunchKernel"), ts, 4, a, tid);
}

QJsonObject step(int n, double ts, double dur)
{
    return traceEvent("user_annotation", QStringLiteral("ProfilerStep#%1").arg(n), ts, dur, {});
}

QByteArray document(const QJsonArray &events, int rank = 0)
{
    QJsonObject root;
    root[QStringLiteral("traceEvents")] = events;
    QJsonObject info;
    info[QStringLiteral("rank")] = rank;
    info[QStringLiteral("world_size")] = 2;
    root[QStringLiteral("distributedInfo")] = info;
    QJsonObject props;
    props[QStringLiteral("id")] = 0;
    props[QStringLiteral("name")] = QStringLiteral("Test GPU");
    root[QStringLiteral("deviceProperties")] = QJsonArray{props};
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

// Two steps, launched partly from a second thread (worked out in `steps()` below).
QByteArray twoStepTrace(int rank = 0)
{
    return document(
        QJsonArray{
            step(1, 0, 100),
            step(2, 100, 100),
            launch(10, 1),
            launch(20, 2, /*tid=*/2), // a backward thread: still step 1
            launch(110, 3),
            launch(120, 4),
            launch(130, 5),
            kernel(QStringLiteral("ampere_sgemm_128x64_nn"), 50, 20, 1),
            kernel(QStringLiteral("ncclKernel_AllReduce_RING_LL_Sum_float"), 60, 30, 2, 9),
            kernel(QStringLiteral("elementwise_kernel"), 150, 10, 3),
            kernel(QStringLiteral("ncclDevKernel_SendRecv"), 170, 20, 4, 9),
            kernel(QStringLiteral("vectorized_kernel_no_dur"), 160, std::nullopt, 5),
        },
        rank);
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

bool writeGzip(const QString &path, const QByteArray &bytes)
{
    gzFile f = gzopen(QFile::encodeName(path).constData(), "wb");
    if (!f)
        return false;
    const int n = gzwrite(f, bytes.constData(), static_cast<unsigned>(bytes.size()));
    return gzclose(f) == Z_OK && n == bytes.size();
}

} // namespace

class TestCliTrace : public QObject
{
    Q_OBJECT

    QTemporaryDir dir_;

    QString file(const QString &name, const QByteArray &bytes)
    {
        const QString path = dir_.filePath(name);
        if (!writeFile(path, bytes))
            return {};
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        // The shared traces and the oracle must be there: a missing folder fails, it is no
        // reason to skip.
        QVERIFY2(QFile::exists(sharedPath("traces/README.md")),
                 qPrintable(sharedPath("traces") + QStringLiteral(" is missing")));
        const Run python = runProgram(QStringLiteral("python3"), {QStringLiteral("--version")});
        QVERIFY2(python.code == 0, "python3 is needed to run the oracle");
    }

    void sharedTraces_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<int>("ranks");
        const auto row = [](const char *tag, QStringList files) {
            for (QString &f : files)
                f = sharedPath("traces/") + f;
            QTest::newRow(tag) << files << static_cast<int>(files.size());
        };
        row("deepseek-v3 H800 DualPipe rank 0",
            {QStringLiteral("deepseek-v3-dualpipe-h800-rank0.json.gz")});
        row("A100 2-rank CNN rank 0", {QStringLiteral("a100-2rank-cnn-rank0.json.gz")});
        row("A100 128-rank rank 0", {QStringLiteral("a100-128rank-rank0.json.gz")});
        row("A100 128-rank rank 1", {QStringLiteral("a100-128rank-rank1.json.gz")});
        row("A100 128-rank ranks 0 and 1", {QStringLiteral("a100-128rank-rank0.json.gz"),
                                            QStringLiteral("a100-128rank-rank1.json.gz")});
    }
    void sharedTraces()
    {
        QFETCH(QStringList, files);
        QFETCH(int, ranks);
        const Run got = cli(files + QStringList{QStringLiteral("--json")});
        QVERIFY2(got.code == 0, qPrintable(got.describe()));
        const Run want = oracle(files);
        QVERIFY2(want.code == 0, qPrintable(want.describe()));
        const QJsonObject g = parseObject(got.out);
        QCOMPARE(g.value(QStringLiteral("ranks")).toInt(), ranks);
        compareWithOracle(g, parseObject(want.out));
        // The critical path of every (rank, step): its parts add up to the step, which is
        // the step of the figures (issue 28, item 4).
        const QJsonArray paths = g.value(QStringLiteral("critical_path")).toArray();
        QSet<qint64> path_ranks;
        for (const QJsonValue &v : paths) {
            const QJsonObject p = v.toObject();
            path_ranks.insert(p.value(QStringLiteral("rank")).toInteger());
            const QJsonObject seconds = p.value(QStringLiteral("seconds")).toObject();
            QCOMPARE(seconds.keys(), (QStringList{"communication", "compute", "copies", "host",
                                                  "launch_gaps", "untraced"}));
            double sum = 0;
            for (const QString &k : seconds.keys())
                sum += seconds.value(k).toDouble();
            const double span = p.value(QStringLiteral("span_s")).toDouble();
            QVERIFY(span > 0);
            QVERIFY(std::fabs(sum - span) <= 1e-9 * span + 1e-12);
            QVERIFY(span >= g.value(QStringLiteral("step_time_s"))
                                    .toObject()
                                    .value(QStringLiteral("min"))
                                    .toDouble() -
                                1e-9);
            QVERIFY(span <= g.value(QStringLiteral("step_time_s"))
                                    .toObject()
                                    .value(QStringLiteral("max"))
                                    .toDouble() +
                                1e-9);
            QCOMPARE(p.value(QStringLiteral("waits")).toString(), QStringLiteral("inferred"));
        }
        QCOMPARE(path_ranks.size(), ranks);
        QVERIFY(paths.size() >= ranks);
        // Text output too: one readable summary.
        const Run text = cli(files);
        QVERIFY2(text.code == 0, qPrintable(text.describe()));
        QVERIFY(text.out.startsWith("measured run: " + QByteArray::number(ranks) + " rank"));
        QCOMPARE(text.out.count("\ncritical path, rank "), ranks);
    }

    // Hand-made traces, against the oracle and against figures worked out by hand.
    void steps()
    {
        const QString path = file(QStringLiteral("two-steps.json"), twoStepTrace());
        const Run got = cli({path, QStringLiteral("--json")});
        QVERIFY2(got.code == 0, qPrintable(got.describe()));
        const QJsonObject g = parseObject(got.out);
        // Step 1 runs from its first kernel (50) to step 2's first (150): 100 us; compute
        // 50-70, AllReduce 60-90 (launched from another thread), exposed 70-90, idle 100 - 40.
        // Step 2: 150 to the latest end of its own kernels (190): compute 150-160, SendRecv
        // 170-190, the kernel without dur adds nothing; idle 40 - 30.
        QCOMPARE(g.value(QStringLiteral("steps")).toInt(), 2);
        QCOMPARE(g.value(QStringLiteral("kernels")).toInt(), 5);
        QCOMPARE(g.value(QStringLiteral("gpu")).toString(), QStringLiteral("Test GPU"));
        const QJsonObject t = g.value(QStringLiteral("step_time_s")).toObject();
        QVERIFY(close(t.value(QStringLiteral("median")).toDouble(), 70e-6));
        QVERIFY(close(t.value(QStringLiteral("p90")).toDouble(), 94e-6)); // 40 + 0.9 x 60
        QVERIFY(close(t.value(QStringLiteral("min")).toDouble(), 40e-6));
        QVERIFY(close(t.value(QStringLiteral("max")).toDouble(), 100e-6));
        const QJsonObject s = g.value(QStringLiteral("per_step_s")).toObject();
        QVERIFY(close(s.value(QStringLiteral("compute")).toDouble(), 15e-6));
        QVERIFY(close(s.value(QStringLiteral("communication")).toDouble(), 25e-6));
        QVERIFY(close(s.value(QStringLiteral("communication_exposed")).toDouble(), 20e-6));
        QVERIFY(close(s.value(QStringLiteral("copies")).toDouble(), 0));
        QVERIFY(close(s.value(QStringLiteral("idle")).toDouble(), 35e-6));
        const QJsonObject k = g.value(QStringLiteral("communication_by_kind_s")).toObject();
        QCOMPARE(k.keys(), (QStringList{QStringLiteral("AllReduce"), QStringLiteral("SendRecv")}));
        QVERIFY(close(k.value(QStringLiteral("AllReduce")).toDouble(), 15e-6)); // 30 and 0
        QVERIFY(close(k.value(QStringLiteral("SendRecv")).toDouble(), 10e-6));  // 0 and 20
        const Run want = oracle({path});
        QVERIFY2(want.code == 0, qPrintable(want.describe()));
        compareWithOracle(g, parseObject(want.out));
    }

    void gzipByContent()
    {
        // Recognised by its first two bytes, not its name.
        const QString plain = file(QStringLiteral("plain.json"), twoStepTrace());
        const QString packed = dir_.filePath(QStringLiteral("packed.json"));
        QVERIFY(writeGzip(packed, twoStepTrace()));
        const Run a = cli({plain, QStringLiteral("--json")});
        const Run b = cli({packed, QStringLiteral("--json")});
        QVERIFY2(a.code == 0 && b.code == 0, qPrintable(a.describe() + b.describe()));
        QCOMPARE(b.out, a.out);
    }

    void overlappingStreams()
    {
        // No ProfilerStep: one step from the first kernel to the latest end. Compute on two
        // streams [0,10) and [5,15) counts once (15); communication [12,20) is exposed 15-20.
        const QString path = file(
            QStringLiteral("streams.json"),
            document(QJsonArray{kernel(QStringLiteral("gemm_a"), 0, 10, 1, 7),
                                kernel(QStringLiteral("gemm_b"), 5, 10, 2, 8),
                                kernel(QStringLiteral("ncclKernel_ReduceScatter"), 12, 8, 3, 9)}));
        const Run got = cli({path, QStringLiteral("--json")});
        QVERIFY2(got.code == 0, qPrintable(got.describe()));
        const QJsonObject g = parseObject(got.out);
        QCOMPARE(g.value(QStringLiteral("steps")).toInt(), 1);
        const QJsonObject s = g.value(QStringLiteral("per_step_s")).toObject();
        QVERIFY(close(g.value(QStringLiteral("step_time_s"))
                          .toObject()
                          .value(QStringLiteral("median"))
                          .toDouble(),
                      20e-6));
        QVERIFY(close(s.value(QStringLiteral("compute")).toDouble(), 15e-6));
        QVERIFY(close(s.value(QStringLiteral("communication")).toDouble(), 8e-6));
        QVERIFY(close(s.value(QStringLiteral("communication_exposed")).toDouble(), 5e-6));
        QVERIFY(close(s.value(QStringLiteral("idle")).toDouble(), 0));
        const Run want = oracle({path});
        QVERIFY2(want.code == 0, qPrintable(want.describe()));
        compareWithOracle(g, parseObject(want.out));
    }

    void deepEpKernels()
    {
        // DeepEP dispatch / combine (public and DeepSeek namespaces) are AllToAll; the layout
        // kernel outside those namespaces is compute.
        const QString path =
            file(QStringLiteral("deepep.json"),
                 document(QJsonArray{
                     kernel(QStringLiteral("void deep_ep::intranode::dispatch<8, 768>(int4*)"), 0,
                            10, 1),
                     kernel(QStringLiteral("void dpsk::ep::internode_ll::combine<false>(void*)"),
                            20, 10, 2),
                     kernel(QStringLiteral("void deep_ep::internode::get_dispatch_layout(long*)"),
                            40, 5, 3),
                     kernel(QStringLiteral("void deep_ep::get_dispatch_layout<256>(long*)"), 50, 10,
                            4)}));
        const Run got = cli({path, QStringLiteral("--json")});
        QVERIFY2(got.code == 0, qPrintable(got.describe()));
        const QJsonObject g = parseObject(got.out);
        const QJsonObject k = g.value(QStringLiteral("communication_by_kind_s")).toObject();
        QCOMPARE(k.keys(), QStringList{QStringLiteral("AllToAll")});
        QVERIFY(close(k.value(QStringLiteral("AllToAll")).toDouble(), 25e-6));
        QVERIFY(close(g.value(QStringLiteral("per_step_s"))
                          .toObject()
                          .value(QStringLiteral("compute"))
                          .toDouble(),
                      10e-6));
        const Run want = oracle({path});
        QVERIFY2(want.code == 0, qPrintable(want.describe()));
        compareWithOracle(g, parseObject(want.out));
    }

    void twoRanks()
    {
        const QString a = file(QStringLiteral("rank0.json"), twoStepTrace(0));
        const QString b = file(QStringLiteral("rank1.json"), twoStepTrace(1));
        const Run got = cli({a, b, QStringLiteral("--json")});
        QVERIFY2(got.code == 0, qPrintable(got.describe()));
        const QJsonObject g = parseObject(got.out);
        QCOMPARE(g.value(QStringLiteral("ranks")).toInt(), 2);
        QCOMPARE(g.value(QStringLiteral("steps")).toInt(), 2);
        QCOMPARE(g.value(QStringLiteral("kernels")).toInt(), 10);
    }

    void notATrace_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<QString>("pattern");
        QTest::newRow("empty") << QByteArray() << false << QStringLiteral("empty file");
        QTest::newRow("blank") << QByteArray(" \n\t ") << false << QStringLiteral("empty file");
        QTest::newRow("empty gzip") << QByteArray() << true << QStringLiteral("empty file");
        QTest::newRow("not JSON") << QByteArray("traceEvents: []") << false
                                  << QStringLiteral("not JSON");
        QTest::newRow("two documents")
            << QByteArray("{} {}") << false << QStringLiteral("not JSON");
        QTest::newRow("bad UTF-8")
            << QByteArray("{\"a\": \"\xff\"}") << false << QStringLiteral("not JSON");
        QTest::newRow("array") << QByteArray("[{\"traceEvents\": []}]") << false
                               << QStringLiteral("no traceEvents array");
        QTest::newRow("no traceEvents") << QByteArray("{\"schemaVersion\": 1}") << false
                                        << QStringLiteral("no traceEvents array");
        QTest::newRow("traceEvents object") << QByteArray("{\"traceEvents\": {}}") << false
                                            << QStringLiteral("no traceEvents array");
        QTest::newRow("no kernel")
            << QByteArray("{\"traceEvents\": [{\"cat\": \"cpu_op\", \"ts\": 1, "
                          "\"dur\": 2, \"name\": \"aten::mm\"}]}")
            << false << QStringLiteral("no GPU kernels");
        QTest::newRow("kernel without ts")
            << QByteArray("{\"traceEvents\": [{\"cat\": \"kernel\", \"name\": \"k\"}]}") << false
            << QStringLiteral("no GPU kernels");
        QTest::newRow("gzip cut short") << twoStepTrace() << true << QStringLiteral("gzip");
    }
    void notATrace()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, gzip);
        QFETCH(QString, pattern);
        const QString path = dir_.filePath(QStringLiteral("bad-%1.json")
                                               .arg(QTest::currentDataTag())
                                               .replace(QLatin1Char(' '), QLatin1Char('-')));
        if (gzip) {
            QVERIFY(writeGzip(path, bytes));
            if (QByteArray(QTest::currentDataTag()) == "gzip cut short") {
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadWrite));
                QVERIFY(f.resize(f.size() / 2));
            }
        } else {
            QVERIFY(writeFile(path, bytes));
        }
        for (const bool json : {false, true}) {
            const Run r =
                cli(json ? QStringList{path, QStringLiteral("--json")} : QStringList{path});
            QVERIFY2(r.code == 2, qPrintable(r.describe()));
            QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
            QVERIFY2(r.err.contains(QFile::encodeName(path)), qPrintable(r.describe()));
            QVERIFY2(QString::fromUtf8(r.err).contains(pattern), qPrintable(r.describe()));
        }
        // The oracle agrees that it is no trace.
        const Run want = oracle({path});
        QVERIFY2(want.code == 2, qPrintable(want.describe()));
    }

    void duplicateRank()
    {
        const QString a = file(QStringLiteral("dup-a.json"), twoStepTrace(3));
        const QString b = file(QStringLiteral("dup-b.json"), twoStepTrace(3));
        const Run r = cli({a, b, QStringLiteral("--json")});
        QVERIFY2(r.code == 2, qPrintable(r.describe()));
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("names rank 3") && r.err.contains(QFile::encodeName(b)),
                 qPrintable(r.describe()));
    }

    void missingFileAndArguments()
    {
        Run r = cli({dir_.filePath(QStringLiteral("nowhere.json"))});
        QVERIFY2(r.code == 2 && r.out.isEmpty() && r.err.contains("nowhere.json"),
                 qPrintable(r.describe()));
        r = cli({});
        QVERIFY2(r.code == 2 && r.out.isEmpty() && r.err.contains("TRACE"),
                 qPrintable(r.describe()));
    }

    void scenarioBeside()
    {
        const QString path = sharedPath("traces/a100-2rank-cnn-rank0.json.gz");
        const QString scenario =
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json");
        const Run got =
            cli({path, QStringLiteral("--scenario"), scenario, QStringLiteral("--json")});
        QVERIFY2(got.code == 0, qPrintable(got.describe()));
        const QJsonObject g = parseObject(got.out);
        const QJsonObject predicted = g.value(QStringLiteral("predicted")).toObject();
        const QJsonObject ratio = g.value(QStringLiteral("ratio")).toObject();
        QCOMPARE(predicted.value(QStringLiteral("per_step_s")).toObject().keys(),
                 g.value(QStringLiteral("per_step_s")).toObject().keys());
        const double p = predicted.value(QStringLiteral("step_time_s"))
                             .toObject()
                             .value(QStringLiteral("median"))
                             .toDouble();
        const double m = g.value(QStringLiteral("step_time_s"))
                             .toObject()
                             .value(QStringLiteral("median"))
                             .toDouble();
        QVERIFY(p > 0);
        QVERIFY(std::fabs(ratio.value(QStringLiteral("step_time_s")).toDouble() - m / p) <=
                1e-9 * m / p);
        // The model predicts no copies: that ratio is null, not infinite.
        QVERIFY(ratio.value(QStringLiteral("per_step_s"))
                    .toObject()
                    .value(QStringLiteral("copies"))
                    .isNull());
        // The same as simulate --json says for the scenario's step.
        const Run sim =
            runProgram(QStringLiteral(SCALESCOPE_CLI),
                       {QStringLiteral("simulate"), scenario, QStringLiteral("--json")});
        QVERIFY2(sim.code == 0, qPrintable(sim.describe()));
        QCOMPARE(parseObject(sim.out).value(QStringLiteral("step_time_s")).toDouble(), p);
        const Run text = cli({path, QStringLiteral("--scenario"), scenario});
        QVERIFY2(text.code == 0 && text.out.contains("The largest disagreement is"),
                 qPrintable(text.describe()));
        // The trace ran on an A100, the default scenario models RTX 4090s: said on stderr (the
        // JSON stays clean), and not for a scenario of the trace's GPU.
        const QByteArray note = "the trace ran on NVIDIA A100-PG509-200 and the scenario models "
                                "NVIDIA GeForce RTX 4090: the figures compare different GPUs";
        QVERIFY2(text.err.contains(note) && got.err.contains(note), qPrintable(text.describe()));
        QFile in(scenario);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray a100 = in.readAll();
        QVERIFY(a100.contains("\"rtx-4090-24gb\""));
        a100.replace("\"rtx-4090-24gb\"", "\"a100-pcie-80gb\"");
        const QString same = dir_.filePath(QStringLiteral("a100.json"));
        QFile out(same);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(a100);
        out.close();
        const Run matched = cli({path, QStringLiteral("--scenario"), same});
        QVERIFY2(matched.code == 0 && !matched.err.contains("compare different GPUs"),
                 qPrintable(matched.describe()));
    }

    void fittedProfile()
    {
        // The CNN trace records its NCCL kernels' collective, sizes and group (PyTorch 2.1+).
        const QString path = sharedPath("traces/a100-2rank-cnn-rank0.json.gz");
        const QString out = dir_.filePath(QStringLiteral("fitted-profile.json"));
        const Run got = cli({path, QStringLiteral("--profile"), out, QStringLiteral("--json")});
        QVERIFY2(got.code == 0, qPrintable(got.describe()));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        // A profile every reader accepts (the marks are x- keys).
        const scalescope::Result<scalescope::CalibrationProfile> parsed =
            scalescope::parseProfile(bytes);
        QVERIFY2(parsed, parsed ? "" : parsed.error().toString().c_str());
        const scalescope::CalibrationProfile &p = parsed.value();
        QVERIFY(!p.collectives.empty());
        for (const scalescope::ProfileCollective &c : p.collectives) {
            QCOMPARE(c.gpus, 2);
            QVERIFY(c.busbw_gbps > 0 && c.time_s > 0);
            if (c.op == "all_reduce") // nccl-tests: busbw = algbw x 2 (n - 1) / n = algbw on 2
                QVERIFY(std::fabs(c.busbw_gbps - c.algbw_gbps) < 1e-9 * c.algbw_gbps);
        }
        QCOMPARE(p.gpus.size(), size_t{1});
        QCOMPARE(p.gpus[0].name, std::string("NVIDIA A100-PG509-200"));
        QVERIFY(p.gpus[0].host_launch_us > 0);
        const QJsonObject root = parseObject(bytes);
        QCOMPARE(root.value(QStringLiteral("x-source"))
                     .toObject()
                     .value(QStringLiteral("kind"))
                     .toString(),
                 QStringLiteral("measured trace"));
        for (const QJsonValue &c : root.value(QStringLiteral("collectives")).toArray())
            QCOMPARE(c.toObject().value(QStringLiteral("x-source")).toString(),
                     QStringLiteral("trace"));
        QCOMPARE(root.value(QStringLiteral("gpus"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("x-source"))
                     .toObject()
                     .value(QStringLiteral("host_launch_us"))
                     .toString(),
                 QStringLiteral("trace"));
        // Never over an input.
        const Run refused = cli({path, QStringLiteral("--profile"), path});
        QVERIFY2(refused.code == 2 && refused.out.isEmpty(), qPrintable(refused.describe()));
    }

    void gemmShapes()
    {
        // record_shapes: aten::mm [[256, 512], [512, 128]] launches one kernel of 2 us:
        // 2 x 256 x 128 x 512 / 2e-6 s = 16.8 TFLOP/s.
        QJsonObject mm_args;
        mm_args[QStringLiteral("Input Dims")] =
            QJsonArray{QJsonArray{256, 512}, QJsonArray{512, 128}};
        mm_args[QStringLiteral("Input type")] =
            QJsonArray{QStringLiteral("c10::BFloat16"), QStringLiteral("c10::BFloat16")};
        const QString path =
            file(QStringLiteral("gemm.json"),
                 document(QJsonArray{
                     traceEvent("cpu_op", QStringLiteral("aten::mm"), 100, 20, mm_args),
                     launch(105, 1), kernel(QStringLiteral("sm90_gemm_bf16"), 200, 2, 1)}));
        const QString out = dir_.filePath(QStringLiteral("gemm-profile.json"));
        const Run got = cli({path, QStringLiteral("--profile"), out});
        QVERIFY2(got.code == 0, qPrintable(got.describe()));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto parsed = scalescope::parseProfile(f.readAll());
        QVERIFY(parsed);
        QCOMPARE(parsed.value().gpus.size(), size_t{1});
        const auto &bf16 =
            parsed.value().gpus[0].gemm_tflops[static_cast<size_t>(scalescope::Precision::BF16)];
        QCOMPARE(bf16.size(), size_t{1});
        QCOMPARE(bf16[0].m, 256.0);
        QCOMPARE(bf16[0].n, 128.0);
        QCOMPARE(bf16[0].k, 512.0);
        QVERIFY(close(bf16[0].tflops, 2.0 * 256 * 128 * 512 / 2e-6 / 1e12));
    }
};

QTEST_GUILESS_MAIN(TestCliTrace)
#include "tst_cli_trace.moc"
