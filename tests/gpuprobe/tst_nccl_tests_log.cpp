// nccl-tests output -> profile collectives (gpuprobe --from-nccl-tests, issue 4).
#include "nccl_tests_log.h"
#include "probe.h"

#include "io/profile_io.h"

#include <QFile>
#include <QTest>

#include <cmath>

using namespace scalescope;
using namespace scalescope::gpuprobe;

namespace
{

QByteArray readData(const QString &name)
{
    QFile f(QStringLiteral(GPUPROBE_TEST_DATA "/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read test data %s", qPrintable(name));
    return f.readAll();
}

Result<NcclTestsLog> parseData(const QString &name)
{
    return parseNcclTestsLog(readData(name), name.toStdString());
}

} // namespace

class TestNcclTestsLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void realLayouts_data();
    void realLayouts();
    void wrongRowsAreErrorsNotFigures();
    void figuresFollowNcclTestsDefinitions();
    void rejectsGarbage_data();
    void rejectsGarbage();
    void profileFromLogsIsValid();
    void mixedRunsRefused_data();
    void mixedRunsRefused();
};

void TestNcclTestsLog::realLayouts_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("rows");
    QTest::addColumn<QString>("host");
    // New layout (#wrong, root), 16 MPI ranks on two hosts, inside a shell transcript.
    QTest::newRow("all_reduce 2x8 mpirun") << "all_reduce_2x8_h100.log"
                                           << "all_reduce" << 16 << 2 << 28 << "dgx-h100-01";
    // One process, 8 GPUs; the 0-byte rows nccl-tests prints for tiny sizes are dropped;
    // the operation comes from the file name.
    QTest::newRow("all_gather -g 8") << "all_gather_perf_8xa100.log"
                                     << "all_gather" << 8 << 1 << 25 << "a100-node";
    // Old layout (error column, no root), old device lines, NCCL_DEBUG=INFO noise; the
    // operation is inferred from the rows (size = n x count x 4, redop sum).
    QTest::newRow("reduce_scatter old") << "reduce_scatter_old_4xv100.log"
                                        << "reduce_scatter" << 4 << 1 << 10 << "dgx1-07";
    // Rows only, no '#' lines at all: the GPU count comes from busbw / algbw.
    QTest::newRow("rows only") << "allreduce_rows_only.txt"
                               << "all_reduce" << 4 << 1 << 10 << "";
    // Old all_gather layout without a redop column, no device list (nThread x nGpus).
    QTest::newRow("old all_gather, no devices") << "gather_old_no_devices.log"
                                                << "all_gather" << 4 << 1 << 15 << "";
}

void TestNcclTestsLog::realLayouts()
{
    QFETCH(QString, file);
    QFETCH(QString, op);
    QFETCH(int, gpus);
    QFETCH(int, nodes);
    QFETCH(int, rows);
    QFETCH(QString, host);
    const Result<NcclTestsLog> log = parseData(file);
    QVERIFY2(log.ok(), log.ok() ? "" : log.error().toString().c_str());
    const NcclTestsLog &l = log.value();
    QCOMPARE(static_cast<int>(l.collectives.size()), rows);
    QVERIFY(l.errors.empty());
    QCOMPARE(QString::fromStdString(l.hostname), host);
    QCOMPARE(l.gpus, gpus);
    QCOMPARE(l.nodes, nodes);
    for (const ProfileCollective &c : l.collectives) {
        QCOMPARE(QString::fromStdString(c.op), op);
        QCOMPARE(c.gpus, gpus);
        QCOMPARE(c.nodes, nodes);
        QVERIFY(c.bytes >= 1 && c.time_s > 0);
    }
}

void TestNcclTestsLog::wrongRowsAreErrorsNotFigures()
{
    // Two programs in one transcript; all_reduce reports 12 wrong elements at 1 MiB.
    const Result<NcclTestsLog> log = parseData(QStringLiteral("transcript_two_runs.log"));
    QVERIFY2(log.ok(), log.ok() ? "" : log.error().toString().c_str());
    int all_reduce = 0, reduce_scatter = 0;
    for (const ProfileCollective &c : log.value().collectives) {
        all_reduce += c.op == "all_reduce";
        reduce_scatter += c.op == "reduce_scatter";
        QVERIFY(!(c.op == "all_reduce" && c.bytes == 1048576));
        QCOMPARE(c.gpus, 2);
    }
    QCOMPARE(all_reduce, 8);
    QCOMPARE(reduce_scatter, 9);
    QCOMPARE(log.value().errors.size(), size_t(1));
    QCOMPARE(QString::fromStdString(log.value().errors[0].test), QStringLiteral("nccl.all_reduce"));
    QVERIFY(log.value().errors[0].text.find("1048576 bytes") != std::string::npos);
}

void TestNcclTestsLog::figuresFollowNcclTestsDefinitions()
{
    // algbw = size / time; busbw = algbw x 2(n-1)/n for all_reduce: compare with the values
    // nccl-tests printed in the log (2 decimals) at the largest size.
    const Result<NcclTestsLog> log = parseData(QStringLiteral("all_reduce_2x8_h100.log"));
    QVERIFY(log.ok());
    const ProfileCollective &last = log.value().collectives.back();
    QCOMPARE(last.bytes, 1073741824.0);
    QVERIFY(std::abs(last.algbw_gbps - last.bytes / last.time_s / 1e9) < 1e-9);
    QVERIFY(std::abs(last.busbw_gbps / last.algbw_gbps - 2.0 * 15 / 16) < 1e-12);
    const QList<QByteArray> lines = readData(QStringLiteral("all_reduce_2x8_h100.log")).split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> t = line.simplified().split(' ');
        if (t.size() == 13 && t[0] == "1073741824") {
            QVERIFY(std::abs(t[6].toDouble() / last.algbw_gbps - 1) < 0.01);
            QVERIFY(std::abs(t[7].toDouble() / last.busbw_gbps - 1) < 0.01);
            QVERIFY(std::abs(t[5].toDouble() * 1e-6 / last.time_s - 1) < 1e-9);
            return;
        }
    }
    QFAIL("the 1 GiB row is missing from the test log");
}

void TestNcclTestsLog::rejectsGarbage_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("path");
    QTest::newRow("short row") << readData(QStringLiteral("garbage_columns.log"))
                               << "garbage_columns.log"
                               << "garbage_columns.log:3";
    QTest::newRow("prose") << readData(QStringLiteral("garbage_prose.txt")) << "garbage_prose.txt"
                           << "garbage_prose.txt";
    QTest::newRow("binary") << QByteArray("\x7f"
                                          "ELF\x02\x01\x01\0\0\0 1 2 3",
                                          16)
                            << "a.out"
                            << "a.out";
    QTest::newRow("empty") << QByteArray() << "empty.log"
                           << "empty.log";
    QTest::newRow("sendrecv")
        << QByteArray("# sendrecv_perf\n# nThread 1 nGpus 2 minBytes 8\n"
                      "  1024  256  float  sum  -1  9.1  0.11  0.11  0  9.0  0.11  0.11  0\n")
        << "x.log"
        << "x.log:1";
    QTest::newRow("not a number") << QByteArray(
                                         "1024 256 float sum -1 fast 0.11 0.11 0 9.0 0.11 0.11 0\n")
                                  << "y.log"
                                  << "y.log:1";
    QTest::newRow("unknown type") << QByteArray(
                                         "1024 256 quad sum -1 9.1 0.11 0.11 0 9.0 0.11 0.11 0\n")
                                  << "z.log"
                                  << "z.log:1";
    // The text names all_reduce but the rows are per-rank (all_gather-like) sizes.
    QTest::newRow("op mismatch")
        << QByteArray("all_reduce_perf -g 4\n# nThread 1 nGpus 4 minBytes 8\n"
                      "  4096  256  float  sum  -1  9.1  0.45  0.68  0  9.0  0.45  0.68  0\n")
        << "m.log"
        << "m.log:3";
}

void TestNcclTestsLog::rejectsGarbage()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, file);
    QFETCH(QString, path);
    const Result<NcclTestsLog> log = parseNcclTestsLog(text, file.toStdString());
    QVERIFY(!log.ok());
    QCOMPARE(QString::fromStdString(log.error().path), path);
    QVERIFY(log.error().message.find("allowed") != std::string::npos);
}

void TestNcclTestsLog::profileFromLogsIsValid()
{
    std::vector<NcclTestsLog> logs;
    std::vector<std::string> names;
    for (const char *name :
         {"all_reduce_2x8_h100.log", "all_gather_perf_8xa100.log", "transcript_two_runs.log"}) {
        Result<NcclTestsLog> log = parseData(QString::fromLatin1(name));
        QVERIFY(log.ok());
        logs.push_back(std::move(log).value());
        names.emplace_back(name);
    }
    const CalibrationProfile p = profileFromNcclTests(logs, names, "gpuprobe test");
    QCOMPARE(p.nodes, 2);
    QCOMPARE(p.gpus_per_node, 8);
    QCOMPARE(p.errors.size(), size_t(1));
    const Result<CalibrationProfile> back = parseProfile(writeProfile(p));
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    QCOMPARE(back.value().collectives.size(), p.collectives.size());
    QCOMPARE(back.value().skipped.size(), size_t(1));
}

void TestNcclTestsLog::mixedRunsRefused_data()
{
    // Issue 29: a log mixing two runs (the second's "# nThread" line lost) was read as one:
    // busbw / algbw was checked on the largest row only, so the 8-GPU rows were filed as
    // 16 GPUs, and a size listed twice gave two figures. Each row must fit its run.
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("contains");
    QTest::newRow("8 and 16 GPUs")
        << readData(QStringLiteral("mixed_runs_8_16.log")) << "mixed_runs_8_16.log:3"
        << "busbw / algbw = 1.75, but all_reduce on 16 GPUs gives 1.875";
    const QByteArray header =
        "# all_reduce_perf -g 8\n# nThread 1 nGpus 8 minBytes 8 maxBytes 1024 step: 2(factor)\n";
    const QByteArray row_a = "  1048576  262144  float  sum  -1  17.4  60.10  105.18  0  17.3  "
                             "60.71  106.24  0\n";
    const QByteArray row_b = "  4194304  1048576  float  sum  -1  38.0  110.40  193.20  0  37.6  "
                             "111.52  195.15  0\n";
    QTest::newRow("a size twice") << header + row_a + row_b + row_a << "mixed_runs_8_16.log:5"
                                  << "size 1048576 bytes (float) is listed twice in one run, "
                                     "first at line 3";
    // Small rows (below 1 GB/s, printed to 2 decimals) contradict the run too.
    const QByteArray tiny = "  1024  256  float  sum  -1  11.05  0.09  0.16  0  10.89  0.09  "
                            "0.16  0\n";
    QTest::newRow("a small size twice") << header + tiny + row_b + tiny << "mixed_runs_8_16.log:5"
                                        << "listed twice";
    // A second device list without its "# nThread" line: 16 ranks, the 8-GPU rows contradict.
    QByteArray first_node, second_node;
    for (int rank = 0; rank < 16; ++rank)
        (rank < 8 ? first_node : second_node) +=
            "#  Rank " + QByteArray::number(rank) + " Group 0 Pid 1 on host-" +
            QByteArray(rank < 8 ? "a" : "b") + " device " + QByteArray::number(rank % 8) +
            " [0000:18:00] NVIDIA H100 80GB HBM3\n";
    QTest::newRow("two device lists")
        << header + first_node + row_a + second_node + row_b << "mixed_runs_8_16.log:11"
        << "on 16 GPUs gives 1.875";
}

void TestNcclTestsLog::mixedRunsRefused()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, path);
    QFETCH(QString, contains);
    const Result<NcclTestsLog> log = parseNcclTestsLog(text, "mixed_runs_8_16.log");
    QVERIFY(!log.ok());
    QCOMPARE(QString::fromStdString(log.error().path), path);
    QVERIFY2(log.error().message.find(contains.toStdString()) != std::string::npos,
             log.error().message.c_str());
    QVERIFY(log.error().message.find("allowed") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestNcclTestsLog)
#include "tst_nccl_tests_log.moc"
