// The desktop app's command line (issue 3): every option, and errors that name the option.
#include "options.h"

#include <QCoreApplication>
#include <QTest>

using scalescope::AppOptions;

class TestGuiOptions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
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
