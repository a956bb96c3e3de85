// Issue 14 (data loss), model/io side: nested "x-" keys survive open -> save in their object
// and in file order; hardware.calibration is written as the file had it (relative paths
// relative to the scenario's folder, rewritten when the file is saved to another folder).
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace scalescope;

namespace
{

// x- keys in every kind of object, in an order that is not alphabetical.
const char *kExtended = R"({ "scalescope": 1, "name": "extended",
  "x-zulu": { "z": 1, "a": [ 2, 1 ] },
  "hardware": { "gpu": { "name": "Lab GPU", "family": "hopper",
                         "peak_tflops": { "fp32": 60, "tf32": 0, "fp16": 800, "bf16": 800,
                                          "fp8": 0, "x-int8": 1600 },
                         "memory_gb": 94, "memory_bandwidth_gbps": 3900, "tdp_w": 650,
                         "source": "lab", "x-serial": "A-17" },
                "x-rack": "r12", "nodes": 1, "gpus_per_node": 4, "x-aisle": [ 3, "b" ] },
  "model": { "transformer": { "layers": 24, "hidden": 1024, "heads": 16, "seq_len": 1024,
                              "vocab": 50000, "x-arch": "gpt" } },
  "training": { "global_batch": 64, "x-note": "from the 2024 runs", "micro_batch": 2 },
  "parallel": { "data": 4, "x-todo": true },
  "effects": { "seed": 7, "stragglers": [ { "gpu": 1, "slowdown": 1.5, "x-why": "hot" } ],
               "thermal": { "throttle_above_c": 85, "clock_drop": 0.2, "warmup_s": 30,
                            "x-sensor": "nvml" } },
  "x-alpha": 1 })";

qsizetype at(const QByteArray &text, const char *needle)
{
    return text.indexOf(needle);
}

void writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The smallest valid profile (spec/profile.md).
const char *kProfile = R"({ "scalescope_profile": 1, "created": "2026-11-30T10:00:00Z",
  "tool": "t", "host": { "hostname": "h", "gpus_per_node": 1, "nodes": 1 } })";

QByteArray withCalibration(const QString &path)
{
    return QByteArray(R"({ "scalescope": 1,
  "hardware": { "gpu": "h200-sxm-141gb", "calibration": )") +
           QJsonDocument(QJsonArray{path}).toJson(QJsonDocument::Compact).mid(1).chopped(1) +
           R"( },
  "collective": { "op": "all_reduce", "bytes": 1048576 } })";
}

QString calibrationIn(const QByteArray &written)
{
    return QJsonDocument::fromJson(written)
        .object()
        .value(u"hardware")
        .toObject()
        .value(u"calibration")
        .toString();
}

} // namespace

class TestScenarioExtensions : public QObject
{
    Q_OBJECT

    const Catalog &catalog_ = builtinCatalog();
    QTemporaryDir dir_;
    QString profile_; // dir_/profiles/h200.json

    Scenario parseOk(const QByteArray &json, const QString &base = QString())
    {
        Result<Scenario> r = parseScenario(json, catalog_, base);
        if (!r)
            qFatal("%s", r.error().toString().c_str());
        return r.value();
    }
    Scenario loadOk(const QString &path)
    {
        Result<Scenario> r = loadScenarioFile(path, catalog_);
        if (!r)
            qFatal("%s: %s", qPrintable(path), r.error().toString().c_str());
        return r.value();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("profiles")));
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("sub/deeper")));
        profile_ = dir_.filePath(QStringLiteral("profiles/h200.json"));
        writeFile(profile_, kProfile);
    }

    void nestedXKeysKeptInTheirObject()
    {
        const QByteArray written = writeScenario(parseOk(kExtended));
        const QJsonObject root = QJsonDocument::fromJson(written).object();
        QVERIFY2(!root.isEmpty(), written.constData());
        const QJsonObject hw = root[u"hardware"].toObject();
        QCOMPARE(hw[u"x-rack"].toString(), QStringLiteral("r12"));
        QCOMPARE(hw[u"x-aisle"].toArray(), (QJsonArray{3, "b"}));
        QCOMPARE(hw[u"gpu"][u"x-serial"].toString(), QStringLiteral("A-17"));
        QCOMPARE(hw[u"gpu"][u"peak_tflops"][u"x-int8"].toInt(), 1600);
        QCOMPARE(root[u"model"][u"transformer"][u"x-arch"].toString(), QStringLiteral("gpt"));
        QCOMPARE(root[u"training"][u"x-note"].toString(), QStringLiteral("from the 2024 runs"));
        QCOMPARE(root[u"parallel"][u"x-todo"].toBool(), true);
        const QJsonObject effects = root[u"effects"].toObject();
        QCOMPARE(effects[u"stragglers"][0][u"x-why"].toString(), QStringLiteral("hot"));
        QCOMPARE(effects[u"thermal"][u"x-sensor"].toString(), QStringLiteral("nvml"));
        QCOMPARE(root[u"x-alpha"].toInt(), 1);
        QCOMPARE(root[u"x-zulu"][u"z"].toInt(), 1);
        // Written again, unchanged (and still a valid scenario).
        QCOMPARE(writeScenario(parseOk(written)), written);
    }

    void xKeysInFileOrder()
    {
        const QByteArray written = writeScenario(parseOk(kExtended));
        // Within an object, and within an x- value, as the file had them.
        QVERIFY2(at(written, "\"x-rack\"") < at(written, "\"x-aisle\""), written.constData());
        QVERIFY2(at(written, "\"x-zulu\"") < at(written, "\"x-alpha\""), written.constData());
        QVERIFY2(written.contains(R"("x-zulu": {"z":1,"a":[2,1]})"), written.constData());
        // In their object: x-rack after the hardware keys, before "model".
        QVERIFY(at(written, "\"nics_per_node\"") < at(written, "\"x-rack\""));
        QVERIFY(at(written, "\"x-aisle\"") < at(written, "\"model\""));
        QVERIFY(at(written, "\"x-note\"") < at(written, "\"parallel\""));
    }

    void xKeysOfDefaultEffectsKept()
    {
        // The writer leaves out an effects block of defaults; its x- keys bring it back.
        const Scenario s = parseOk(R"({ "scalescope": 1,
          "hardware": { "gpu": "h200-sxm-141gb", "gpus_per_node": 2 },
          "collective": { "op": "all_reduce", "bytes": 8 },
          "effects": { "x-note": "no effects yet", "jitter": 0 } })");
        const QByteArray written = writeScenario(s);
        QCOMPARE(QJsonDocument::fromJson(written).object()[u"effects"][u"x-note"].toString(),
                 QStringLiteral("no effects yet"));
        QCOMPARE(writeScenario(parseOk(written)), written);
    }

    void xKeysOfRemovedObjectDropped()
    {
        // Thermal turned off: its block (and its x- key) is gone; the rest is kept.
        Scenario s = parseOk(kExtended);
        s.effects.thermal.enabled = false;
        s.effects.stragglers.clear();
        const QByteArray written = writeScenario(s);
        QVERIFY(!written.contains("x-sensor"));
        QVERIFY(!written.contains("x-why"));
        QVERIFY(written.contains("x-rack"));
        QVERIFY(parseScenario(written, catalog_).ok());
    }

    void calibration_data()
    {
        QTest::addColumn<QString>("written");  // in the file, in dir_
        QTest::addColumn<QString>("saveIn");   // folder of the saved copy, under dir_
        QTest::addColumn<QString>("expected"); // written to the copy ("" = the absolute path)

        QTest::newRow("relative, same folder") << "profiles/h200.json"
                                               << ""
                                               << "profiles/h200.json";
        QTest::newRow("relative as written") << "./profiles/../profiles/h200.json"
                                             << ""
                                             << "./profiles/../profiles/h200.json";
        QTest::newRow("relative, other folder") << "profiles/h200.json"
                                                << "sub/deeper"
                                                << "../../profiles/h200.json";
        QTest::newRow("absolute, same folder") << "@"
                                               << ""
                                               << "";
        QTest::newRow("absolute, other folder") << "@"
                                                << "sub"
                                                << "";
    }

    void calibration()
    {
        QFETCH(QString, written);
        QFETCH(QString, saveIn);
        QFETCH(QString, expected);
        if (written == QLatin1String("@"))
            written = profile_;
        if (expected.isEmpty())
            expected = profile_;
        const QString original = dir_.filePath(QStringLiteral("calibrated.json"));
        writeFile(original, withCalibration(written));
        const Scenario s = loadOk(original);
        QCOMPARE(QString::fromStdString(s.hardware.calibration_path), profile_);

        const QString copy = QDir(dir_.filePath(saveIn)).filePath(QStringLiteral("copy.json"));
        QString error;
        QVERIFY2(saveScenarioFile(copy, s, &error), qPrintable(error));
        const QByteArray text = readFile(copy);
        QCOMPARE(calibrationIn(text), expected);
        // The copy names the same profile.
        QCOMPARE(QString::fromStdString(loadOk(copy).hardware.calibration_path), profile_);
        // Text for anywhere (autosave): absolute.
        QCOMPARE(calibrationIn(writeScenario(s)), profile_);
    }

    void relativeCalibrationMovesWithTheFolder()
    {
        // Save, move the folder, open: the profile is found beside the scenario.
        QTemporaryDir a, b;
        QVERIFY(QDir(a.path()).mkpath(QStringLiteral("project/cal")));
        const QString project = a.filePath(QStringLiteral("project"));
        writeFile(project + QStringLiteral("/cal/p.json"), kProfile);
        writeFile(project + QStringLiteral("/s.json"),
                  withCalibration(QStringLiteral("cal/p.json")));
        QString error;
        QVERIFY2(saveScenarioFile(project + QStringLiteral("/s.json"),
                                  loadOk(project + QStringLiteral("/s.json")), &error),
                 qPrintable(error));
        const QString moved = b.filePath(QStringLiteral("moved"));
        QVERIFY(QDir().rename(project, moved));
        const Scenario s = loadOk(moved + QStringLiteral("/s.json"));
        QCOMPARE(QString::fromStdString(s.hardware.calibration_path),
                 moved + QStringLiteral("/cal/p.json"));
    }

    void calibrationChosenInTheApp()
    {
        // A profile set without a written path (the Calibration tab): relative inside the
        // scenario's folder, absolute outside it.
        Scenario s = loadOk([this] {
            const QString path = dir_.filePath(QStringLiteral("plain.json"));
            writeFile(path, withCalibration(profile_));
            return path;
        }());
        s.extensions.clear();
        QCOMPARE(calibrationIn(writeScenario(s, dir_.path())),
                 QStringLiteral("profiles/h200.json"));
        QCOMPARE(calibrationIn(writeScenario(s, dir_.filePath(QStringLiteral("sub")))), profile_);
        // Another profile than the one the file named: the written form no longer applies.
        Scenario other = loadOk(dir_.filePath(QStringLiteral("plain.json")));
        const QString second = dir_.filePath(QStringLiteral("sub/second.json"));
        writeFile(second, kProfile);
        other.hardware.calibration_path = second.toStdString();
        QCOMPARE(calibrationIn(writeScenario(other, dir_.path())),
                 QStringLiteral("sub/second.json"));
    }
};

QTEST_GUILESS_MAIN(TestScenarioExtensions)
#include "tst_scenario_extensions.moc"
