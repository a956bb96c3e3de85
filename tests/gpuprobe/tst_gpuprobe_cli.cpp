// The `gpuprobe` program run as a separate process: options, exit codes, the --progress
// line format the GUI parses, and --from-nccl-tests (issue 4).
#include "io/profile_io.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <set>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "../support/run_bytes.h"

using namespace scalescope;

namespace
{

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run gpuprobe(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(GPUPROBE_PROGRAM), args);
    if (!p.waitForFinished(120000))
        qFatal("gpuprobe did not finish");
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// Runs gpuprobe with `args` as bytes, its standard error into `err_file`; with
// `reader_gone`, its standard output a pipe nobody reads (test::runBytes).
int gpuprobeRaw(const std::vector<QByteArray> &args, const QByteArray &err_file, bool reader_gone)
{
    return test::runBytes(GPUPROBE_PROGRAM, args, {{}, {}, err_file, reader_gone});
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString data(const char *name)
{
    return QStringLiteral(GPUPROBE_TEST_DATA "/") + QString::fromLatin1(name);
}

} // namespace

class TestGpuprobeCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void helpAndVersion();
    void badArguments_data();
    void badArguments();
    void noGpuHere();
    void fakeMachineWithoutGpus();
    void progressLines();
    void fromNcclTests();
    void fromNcclTestsOfTwoClusters();
    void fromNcclTestsWithWrongRows();
    void fromNcclTestsGarbage();
    void fromNcclTestsTooManyRowsTogether();
    void outputIsALog_data();
    void outputIsALog();
    void readerGoneAway();
    void outputOnAFullDisk();
    void controlCharactersEscaped();
    void nonUtf8OutputName();

private:
    QTemporaryDir dir_;
};

void TestGpuprobeCli::helpAndVersion()
{
    const Run help = gpuprobe({QStringLiteral("--help")});
    QCOMPARE(help.code, 0);
    QVERIFY(help.out.startsWith("Usage: gpuprobe"));
    for (const char *option : {"--output", "--quick", "--tests", "--devices", "--progress",
                               "--from-nccl-tests", "--thermal", "--version"})
        QVERIFY2(help.out.contains(option), option);
    const Run version = gpuprobe({QStringLiteral("--version")});
    QCOMPARE(version.code, 0);
    QVERIFY(version.out.startsWith("gpuprobe 0.1.0"));
}

void TestGpuprobeCli::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown option") << QStringList{"--bogus"} << "--bogus: unknown option";
    QTest::newRow("unknown test") << QStringList{"--tests", "gemm,bogus"}
                                  << "\"bogus\" is not a test";
    QTest::newRow("bad device") << QStringList{"--devices", "0,x"} << "--devices";
    QTest::newRow("negative device") << QStringList{"--devices=-1"} << "--devices";
    QTest::newRow("zero thermal") << QStringList{"--thermal", "0"} << "--thermal";
    QTest::newRow("missing value") << QStringList{"--output"} << "needs a value";
    QTest::newRow("no logs") << QStringList{"--from-nccl-tests"} << "at least one log";
    QTest::newRow("logs and tests")
        << QStringList{"--from-nccl-tests", data("allreduce_rows_only.txt"), "--quick"}
        << "cannot be combined";
    QTest::newRow("stray word") << QStringList{"quick"} << "unexpected argument";
    QTest::newRow("library") << QStringList{"--gemm-library", "mkl"} << "--gemm-library";
    QTest::newRow("device out of range")
        << QStringList{"--fake-gpus", "2", "--devices", "5"} << "GPU 5 does not exist";
    // Issue 29, item 15b: a repeated option silently took the last value; "--output FILE"
    // is appended to every row.
    QTest::newRow("-o twice") << QStringList{"-o", "a.json"}
                              << "--output: given more than once; give each option once";
    QTest::newRow("--output= twice")
        << QStringList{"--output=a.json"} << "--output: given more than once";
    QTest::newRow("--quick twice")
        << QStringList{"--quick", "--quick"} << "--quick: given more than once";
    QTest::newRow("--tests twice")
        << QStringList{"--tests", "gemm", "--tests=memory"} << "--tests: given more than once";
    QTest::newRow("--from-nccl-tests twice")
        << QStringList{"--from-nccl-tests", data("allreduce_rows_only.txt"), "--from-nccl-tests",
                       data("all_reduce_2x8_h100.log")}
        << "--from-nccl-tests: given more than once; give each option once (it takes several "
           "LOG files)";
}

void TestGpuprobeCli::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r =
        gpuprobe(args << QStringLiteral("--output") << dir_.filePath(QStringLiteral("bad.json")));
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
}

void TestGpuprobeCli::noGpuHere()
{
    // The real backend on this machine: exit 3 and one line saying why, unless it has a GPU.
    const QString out = dir_.filePath(QStringLiteral("nogpu.json"));
    const Run r = gpuprobe({QStringLiteral("--quick"), QStringLiteral("--tests"),
                            QStringLiteral("launch"), QStringLiteral("--output"), out});
    if (r.code != 3)
        QSKIP(qPrintable(QStringLiteral("this machine has a usable GPU (exit %1)").arg(r.code)));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.startsWith("gpuprobe: no usable GPU: "), r.err.constData());
    const Result<CalibrationProfile> p = loadProfileFile(out);
    QVERIFY2(p.ok(), p.ok() ? "" : p.error().toString().c_str());
    QVERIFY(p.value().gpus.empty());
    QCOMPARE(p.value().skipped.size(), size_t(1));
    QCOMPARE(QString::fromStdString(p.value().skipped[0].test), QStringLiteral("gpu"));
}

void TestGpuprobeCli::fakeMachineWithoutGpus()
{
    const Run r = gpuprobe({QStringLiteral("--fake-gpus"), QStringLiteral("0"),
                            QStringLiteral("--output"), dir_.filePath(QStringLiteral("f0.json"))});
    QCOMPARE(r.code, 3);
    QVERIFY(r.err.contains("no CUDA device found"));
}

void TestGpuprobeCli::progressLines()
{
    const QString out = dir_.filePath(QStringLiteral("progress.json"));
    const Run r =
        gpuprobe({QStringLiteral("--fake-gpus"), QStringLiteral("2"), QStringLiteral("--quick"),
                  QStringLiteral("--tests"), QStringLiteral("gemm,launch,p2p,nccl,thermal"),
                  QStringLiteral("--thermal"), QStringLiteral("1"), QStringLiteral("--progress"),
                  QStringLiteral("--output"), out});
    QCOMPARE(r.code, 0);
    // The documented format (gpuprobe/README.md), one event per line.
    static const QRegularExpression progress(
        QStringLiteral("^progress (\\d+) (\\d+) (\\S+) (.*)$"));
    static const QRegularExpression other(QStringLiteral("^(skipped|error) (\\S+) (.+)$"));
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QVERIFY(lines.size() > 10);
    int last_done = -1, total = -1, progress_lines = 0;
    std::set<QString> tests;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = QString::fromUtf8(lines[i]);
        if (i == lines.size() - 1) {
            QCOMPARE(line, QStringLiteral("profile ") + out);
            break;
        }
        const QRegularExpressionMatch m = progress.match(line);
        if (m.hasMatch()) {
            const int done = m.captured(1).toInt();
            const int t = m.captured(2).toInt();
            QVERIFY2(done >= last_done && done <= t, qPrintable(line));
            QVERIFY(total < 0 || t == total);
            last_done = done;
            total = t;
            tests.insert(m.captured(3));
            ++progress_lines;
            continue;
        }
        QVERIFY2(other.match(line).hasMatch(), qPrintable(line));
    }
    QCOMPARE(last_done, total);
    QVERIFY(progress_lines >= total);
    for (const char *t : {"start", "gemm.bf16", "launch", "p2p", "nccl.all_reduce", "thermal"})
        QVERIFY2(tests.count(QString::fromLatin1(t)), t);
    const Result<CalibrationProfile> p = loadProfileFile(out);
    QVERIFY(p.ok());
    QCOMPARE(p.value().gpus.size(), size_t(2));
    QVERIFY(p.value().tool.find("fake") != std::string::npos);
    QVERIFY(!p.value().gpus[0].thermal_samples.empty());
}

void TestGpuprobeCli::fromNcclTests()
{
    const QString out = dir_.filePath(QStringLiteral("nccl.json"));
    // A log without device lines says nothing of its cluster: it joins the H100 log.
    const Run r = gpuprobe({QStringLiteral("--from-nccl-tests"), data("all_reduce_2x8_h100.log"),
                            data("gather_old_no_devices.log"), QStringLiteral("--output"), out});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.isEmpty());
    const Result<CalibrationProfile> p = loadProfileFile(out);
    QVERIFY2(p.ok(), p.ok() ? "" : p.error().toString().c_str());
    QCOMPARE(p.value().collectives.size(), size_t(28 + 15));
    QCOMPARE(p.value().nodes, 2);
}

void TestGpuprobeCli::fromNcclTestsOfTwoClusters()
{
    // An H100 log and a V100 log are two clusters, not one profile: they were merged without
    // a word (issue 14). Refused with both files and both GPU models, nothing written.
    const QString out = dir_.filePath(QStringLiteral("two.json"));
    const Run r =
        gpuprobe({QStringLiteral("--from-nccl-tests"), data("all_reduce_2x8_h100.log"),
                  data("reduce_scatter_old_4xv100.log"), QStringLiteral("--output"), out});
    QCOMPARE(r.code, 2);
    for (const char *needle :
         {"all_reduce_2x8_h100.log", "NVIDIA H100 80GB HBM3", "reduce_scatter_old_4xv100.log",
          "Tesla V100-SXM2-32GB", "logs of one cluster"})
        QVERIFY2(r.err.contains(needle), r.err.constData());
    QVERIFY(!QFile::exists(out));
    // The same log twice is one cluster.
    const Run same = gpuprobe({QStringLiteral("--from-nccl-tests"), data("all_reduce_2x8_h100.log"),
                               data("all_reduce_2x8_h100.log"), QStringLiteral("--output"), out});
    QCOMPARE(same.code, 0);
}

void TestGpuprobeCli::fromNcclTestsWithWrongRows()
{
    const QString out = dir_.filePath(QStringLiteral("wrong.json"));
    const Run r = gpuprobe({QStringLiteral("--from-nccl-tests"), data("transcript_two_runs.log"),
                            QStringLiteral("--output"), out});
    QCOMPARE(r.code, 1); // written, but it lists nccl-tests' wrong results
    const Result<CalibrationProfile> p = loadProfileFile(out);
    QVERIFY(p.ok());
    QCOMPARE(p.value().errors.size(), size_t(1));
}

void TestGpuprobeCli::fromNcclTestsGarbage()
{
    const QString out = dir_.filePath(QStringLiteral("garbage.json"));
    // mixed_runs_8_16.log: two runs read as one (issue 29), refused at the first row that
    // contradicts the other run's GPU count.
    for (const char *name :
         {"garbage_columns.log", "garbage_prose.txt", "missing.log", "mixed_runs_8_16.log"}) {
        const Run r = gpuprobe(
            {QStringLiteral("--from-nccl-tests"), data(name), QStringLiteral("--output"), out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(name), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }
}

void TestGpuprobeCli::fromNcclTestsTooManyRowsTogether()
{
    // Two logs of 60,000 rows are each within a profile's 100,000 collectives, but not
    // together: refused with the counts (exit 2), no profile written.
    QStringList args{QStringLiteral("--from-nccl-tests")};
    // The header of a real log (its device lines say how many GPUs took part), then rows.
    QFile real(data("all_reduce_2x8_h100.log"));
    QVERIFY(real.open(QIODevice::ReadOnly));
    QByteArray header;
    while (!real.atEnd()) {
        const QByteArray line = real.readLine();
        if (!line.startsWith('#') && !header.isEmpty() && header.contains("#wrong"))
            break;
        header += line;
    }
    for (int f = 0; f < 2; ++f) {
        const QString path = dir_.filePath(QStringLiteral("rows%1.log").arg(f));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        // Each size once (a size listed twice in one run is refused), at the same bandwidth.
        QByteArray text = header;
        text.reserve(header.size() + 100 * 60000);
        for (int i = 1; i <= 60000; ++i) {
            const QByteArray time = QByteArray::number(8.05 * i, 'f', 2);
            text += QByteArray::number(4096 * i) + " " + QByteArray::number(1024 * i) +
                    " float sum -1 " + time + " 0.51 0.76 0 " + time + " 0.52 0.77 0\n";
        }
        QCOMPARE(file.write(text), text.size());
        file.close();
        args << path;
    }
    const QString out = dir_.filePath(QStringLiteral("together.json"));
    const Run r = gpuprobe(args + QStringList{QStringLiteral("--output"), out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("120000 result rows") && r.err.contains("at most 100000"),
             r.err.constData());
    QVERIFY(!QFile::exists(out));
}

// Issue 29, item 3: `--from-nccl-tests run.log -o run.log` replaced the log with the
// profile (exit 0), also as ./run.log and through a symlink. The one guarded writer
// compares files by device and inode.
void TestGpuprobeCli::outputIsALog_data()
{
    QTest::addColumn<QString>("log");    // relative to the working folder
    QTest::addColumn<QString>("output"); // likewise
    QTest::newRow("same name") << "run.log"
                               << "run.log";
    QTest::newRow("./") << "run.log"
                        << "./run.log";
    QTest::newRow("symlink") << "run.log"
                             << "link.json";
    QTest::newRow("log through symlink") << "link.json"
                                         << "run.log";
}

void TestGpuprobeCli::outputIsALog()
{
    QFETCH(QString, log);
    QFETCH(QString, output);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString run_log = dir.filePath(QStringLiteral("run.log"));
    QVERIFY(QFile::copy(data("all_reduce_2x8_h100.log"), run_log));
    QVERIFY(QFile::link(run_log, dir.filePath(QStringLiteral("link.json"))));
    const QByteArray before = readAll(run_log);
    QProcess p;
    p.setWorkingDirectory(dir.path());
    p.start(QStringLiteral(GPUPROBE_PROGRAM),
            {QStringLiteral("--from-nccl-tests"), log, QStringLiteral("-o"), output});
    QVERIFY(p.waitForFinished(60000));
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitCode(), 2);
    QVERIFY2(err.contains("it is the same file as the input"), err.constData());
    QVERIFY2(err.startsWith("gpuprobe: --output: cannot write \"" + output.toUtf8() + "\""),
             err.constData());
    QCOMPARE(readAll(run_log), before);
    QCOMPARE(QFileInfo(dir.filePath(QStringLiteral("link.json"))).isSymLink(), true);
}

// Issue 29, item 4: with its reader gone, gpuprobe died of SIGPIPE at its first progress
// line and wrote no profile. Now it finishes and writes it.
void TestGpuprobeCli::readerGoneAway()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("piped.json"));
    const int code = gpuprobeRaw({"--fake-gpus", "1", "--quick", "--tests", "launch,memory",
                                  "--progress", "-o", QFile::encodeName(out)},
                                 QFile::encodeName(dir.filePath(QStringLiteral("err.txt"))), true);
    QCOMPARE(code, 0);
    const Result<CalibrationProfile> p = loadProfileFile(out);
    QVERIFY2(p.ok(), p.ok() ? "" : p.error().toString().c_str());
    QCOMPARE(p.value().gpus.size(), size_t(1));
}

// Issue 29, item 1: on a full disk (here `ulimit -f 0`, SIGXFSZ ignored) `-o` left an
// empty profile and exit 0. Now exit 1 with the system's reason; the old file stays.
void TestGpuprobeCli::outputOnAFullDisk()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("profile.json"));
    QFile old(out);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old profile");
    old.close();
    QProcess p;
    p.start(QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), QStringLiteral("ulimit -f 0; trap '' XFSZ; exec \"$0\" \"$@\""),
             QStringLiteral(GPUPROBE_PROGRAM), QStringLiteral("--from-nccl-tests"),
             data("all_reduce_2x8_h100.log"), QStringLiteral("-o"), out});
    QVERIFY(p.waitForFinished(60000));
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(err.contains("File too large"), err.constData());
    QCOMPARE(readAll(out), QByteArray("old profile"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("profile.json")});
}

// Issue 29, item 13: file names were printed raw, so that an escape sequence reached the
// terminal and a line break forged a line. Every line goes through oneLine().
void TestGpuprobeCli::controlCharactersEscaped()
{
    const Run r = gpuprobe({QStringLiteral("--from-nccl-tests"),
                            QStringLiteral("/nonexistent/a\x1b[31m\ngpuprobe: wrote x.log"),
                            QStringLiteral("-o"), dir_.filePath(QStringLiteral("esc.json"))});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(!r.err.contains('\x1b'), r.err.constData());
    QVERIFY2(r.err.contains("a\\x1b[31m gpuprobe: wrote x.log"), r.err.constData());
}

// Issue 29, item 6: `-o tr<FF>.json` wrote "tr<EF BF BD>.json" (U+FFFD); a log named so
// could not be read.
void TestGpuprobeCli::nonUtf8OutputName()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray folder = QFile::encodeName(dir.path());
    const QByteArray log = folder + "/run\xFF.log", out = folder + "/tr\xFF.json";
    QVERIFY(QFile::copy(data("all_reduce_2x8_h100.log"), dir.filePath(QStringLiteral("plain"))));
    QVERIFY(::rename((folder + "/plain").constData(), log.constData()) == 0);
    const QByteArray err_file = folder + "/err.txt";
    const int code = gpuprobeRaw({"--from-nccl-tests", log, "-o", out}, err_file, false);
    struct stat st = {};
    const bool written = ::stat(out.constData(), &st) == 0 && st.st_size > 0;
    const bool replaced = ::stat((folder + "/tr\xEF\xBF\xBD.json").constData(), &st) == 0;
    ::unlink(log.constData()); // QTemporaryDir cannot remove them
    ::unlink(out.constData());
    QVERIFY2(code == 0, readAll(QFile::decodeName(err_file)).constData());
    QVERIFY(written);
    QVERIFY(!replaced);
}

QTEST_GUILESS_MAIN(TestGpuprobeCli)
#include "tst_gpuprobe_cli.moc"
