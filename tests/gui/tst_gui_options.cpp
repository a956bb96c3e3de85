// The desktop app's command line (issue 3): every option, and errors that name the option.
#include "io/file_io.h"
#include "options.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using scalescope::AppOptions;

class TestGuiOptions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void helpWithoutADisplay_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("expect");
        QTest::newRow("--help") << QStringLiteral("--help") << QStringLiteral("Usage:");
        QTest::newRow("-h") << QStringLiteral("-h") << QStringLiteral("Usage:");
        QTest::newRow("--version")
            << QStringLiteral("--version") << QStringLiteral(SCALESCOPE_VERSION);
    }
    void helpWithoutADisplay()
    {
        // Issue 26: `scalescope --help` where there is no display aborted in QApplication
        // ("could not connect to display") instead of printing its help.
        QFETCH(QString, option);
        QFETCH(QString, expect);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(name));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SCALESCOPE_GUI), {option});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(out.contains(expect),
                 qPrintable(out + QString::fromUtf8(p.readAllStandardError())));
    }
    void parses_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("expect"); // error fragment, or a field=value check
        QTest::newRow("empty") << QStringList{} << true << QString();
        QTest::newRow("file") << QStringList{"a.json"} << true << "file=a.json";
        QTest::newRow("screenshot")
            << QStringList{"--screenshot", "o.png"} << true << "screenshot=o.png";
        QTest::newRow("tab") << QStringList{"--tab", "memory"} << true << "tab=memory";
        QTest::newRow("bad tab") << QStringList{"--tab", "gantt"} << false << "--tab";
        QTest::newRow("lang") << QStringList{"--lang", "zh_CN"} << true << "language=zh_CN";
        QTest::newRow("bad lang") << QStringList{"--lang", "fr"} << false << "--lang";
        QTest::newRow("size") << QStringList{"--size", "1280x800"} << true << "size=1280x800";
        QTest::newRow("size too small") << QStringList{"--size", "10x10"} << false << "--size";
        QTest::newRow("size garbage") << QStringList{"--size", "big"} << false << "--size";
        QTest::newRow("present") << QStringList{"--present"} << true << "present=1";
        QTest::newRow("two files") << QStringList{"a.json", "b.json"} << false << "FILE";
        QTest::newRow("unknown") << QStringList{"--frobnicate"} << false << "frobnicate";
        QTest::newRow("traces") << QStringList{"--trace", "r0.json.gz", "--trace", "r1.json"}
                                << true << "traces=r0.json.gz,r1.json";
        QTest::newRow("empty trace") << QStringList{"--trace", ""} << false << "--trace";
    }
    void parses()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, ok);
        QFETCH(QString, expect);
        AppOptions o;
        QString error, message;
        bool exit_now = false;
        const bool parsed = scalescope::parseOptions(QStringList{"scalescope"} + args, &o, &error,
                                                     &exit_now, &message);
        QCOMPARE(parsed, ok);
        QVERIFY(!exit_now);
        if (!ok) {
            QVERIFY2(error.contains(expect), qPrintable(error));
            return;
        }
        if (expect.isEmpty())
            return;
        const QString field = expect.section('=', 0, 0);
        const QString value = expect.section('=', 1);
        if (field == "file")
            QCOMPARE(o.file, value);
        else if (field == "screenshot")
            QCOMPARE(o.screenshot, value);
        else if (field == "tab")
            QCOMPARE(o.tab, value);
        else if (field == "language")
            QCOMPARE(o.language, value);
        else if (field == "size")
            QCOMPARE(o.size, QSize(1280, 800));
        else if (field == "present")
            QVERIFY(o.present);
        else if (field == "traces")
            QCOMPARE(o.traces, value.split(','));
    }
    // Issue 29, item 5: `--settings /dev/null` (as root) replaced the device with a regular
    // file, QSettings renaming over it. Only a regular file or a new name is taken.
    void settingsMustBeARegularFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fifo = dir.filePath(QStringLiteral("fifo.ini"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const QString link = dir.filePath(QStringLiteral("link.ini"));
        QVERIFY(QFile::link(fifo, link));
        QString device = dir.filePath(QStringLiteral("null"));
        if (::mknod(QFile::encodeName(device).constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            device = QStringLiteral("/dev/null");
        for (const QString &bad : {device, fifo, link, dir.path()}) {
            AppOptions o;
            QString error, message;
            bool exit_now = false;
            QVERIFY2(!scalescope::parseOptions({"scalescope", "--settings", bad}, &o, &error,
                                               &exit_now, &message),
                     qPrintable(bad));
            QVERIFY2(
                error.startsWith(QStringLiteral("--settings: '%1' is not a regular file").arg(bad)),
                qPrintable(error));
        }
        const QString regular = dir.filePath(QStringLiteral("s.ini"));
        QFile f(regular);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        for (const QString &good : {regular, dir.filePath(QStringLiteral("new.ini"))}) {
            AppOptions o;
            QString error, message;
            bool exit_now = false;
            QVERIFY2(scalescope::parseOptions({"scalescope", "--settings", good}, &o, &error,
                                              &exit_now, &message),
                     qPrintable(error));
            QCOMPARE(o.settings_file, good);
        }
    }

    // Issue 29, item 6: FILE keeps the bytes of a name that is not UTF-8 (main() passes
    // decodeArguments(argv), not QApplication::arguments()).
    void fileNameBytesKept()
    {
        char arg0[] = "scalescope", arg1[] = "sc\xFF.json", arg2[] = "--screenshot",
             arg3[] = "o\xFE.png";
        char *argv[] = {arg0, arg1, arg2, arg3, nullptr};
        AppOptions o;
        QString error, message;
        bool exit_now = false;
        QVERIFY2(scalescope::parseOptions(scalescope::decodeArguments(4, argv, 0), &o, &error,
                                          &exit_now, &message),
                 qPrintable(error));
        QCOMPARE(scalescope::encodeFileName(o.file), QByteArray("sc\xFF.json"));
        QCOMPARE(scalescope::encodeFileName(o.screenshot), QByteArray("o\xFE.png"));
    }

    // --trace opens the measured run beside the scenario (issue 28): a screenshot of it is
    // written; a file that is not a trace leaves no picture and exits 2.
    void traceOptionOpensTheMeasuredRun()
    {
        const QString shared = QStringLiteral(SCALESCOPE_SHARED_DIR "/traces");
        const QString good = shared + QStringLiteral("/deepseek-v3-dualpipe-h800-rank0.json.gz");
        if (!QFile::exists(good))
            QSKIP("the shared traces are not beside this checkout");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile bad(dir.filePath(QStringLiteral("not-a-trace.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"traceEvents\": []}");
        bad.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        const auto run = [&](const QString &trace, const QString &png) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(SCALESCOPE_GUI),
                    {QStringLiteral("--settings"), dir.filePath(QStringLiteral("s.ini")),
                     QStringLiteral("--size"), QStringLiteral("800x600"), QStringLiteral("--tab"),
                     QStringLiteral("measured"), QStringLiteral("--trace"), trace,
                     QStringLiteral("--screenshot"), png});
            if (!p.waitForFinished(120000))
                return -1;
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        };
        const QString ok_png = dir.filePath(QStringLiteral("ok.png"));
        QCOMPARE(run(good, ok_png), 0);
        QVERIFY(QFile::exists(ok_png));
        const QString bad_png = dir.filePath(QStringLiteral("bad.png"));
        QCOMPARE(run(bad.fileName(), bad_png), 2);
        QVERIFY(!QFile::exists(bad_png));
    }

    void helpExitsAtOnce()
    {
        AppOptions o;
        QString error, message;
        bool exit_now = false;
        QVERIFY(
            scalescope::parseOptions({"scalescope", "--help"}, &o, &error, &exit_now, &message));
        QVERIFY(exit_now);
        QVERIFY(message.contains("--screenshot"));
    }
};

QTEST_GUILESS_MAIN(TestGuiOptions)
#include "tst_gui_options.moc"
