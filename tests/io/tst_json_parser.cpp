// JSON documents the parser refuses with a message that says what is wrong and what is
// allowed: duplicated keys (QJsonDocument would keep the last silently), UTF-16 text and
// hexadecimal numbers (Qt's messages, "illegal value" and "unterminated object", do not say).
#include "io/catalog_io.h"
#include "io/json_util.h"
#include "io/scenario_io.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "large_inputs.h"

#include <string>

using namespace scalescope;

namespace
{

const char *kScenario = R"({ "scalescope": 1, "name": "json errors",
  "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 1, "gpus_per_node": 8 },
  "model": "gpt2-124m", "training": { "global_batch": 64 } })";

// The InputError of parsing `json` as a document ("" when it parses).
InputError documentError(const QByteArray &json)
{
    const Result<bool> r = json::guard<bool>([&] {
        json::parseObjectDocument(json);
        return true;
    });
    return r ? InputError{} : r.error();
}

bool contains(const std::string &text, const char *part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestJsonParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void duplicateKey_data();
    void duplicateKey();
    void sameKeyInDifferentObjectsIsFine();
    void duplicateKeyInScenarioFile();
    void manyKeysScanQuickly();
    void utf16_data();
    void utf16();
    void utf16ScenarioFile();
    void hexadecimalNumber_data();
    void hexadecimalNumber();
};

void TestJsonParser::duplicateKey_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::addRow("top") << QByteArray(R"({"a": 1, "b": 2, "a": 3})") << QStringLiteral("a");
    QTest::addRow("nested") << QByteArray(R"({"x": {"y": {"k": 1, "k": 1}}})")
                            << QStringLiteral("x.y.k");
    QTest::addRow("in-array") << QByteArray(R"({"list": [{"k": 1}, {"k": 1, "j": 2, "k": 3}]})")
                              << QStringLiteral("list[1].k");
    QTest::addRow("escaped-spelling")
        << QByteArray(R"({"ab": 1, "\u0061b": 2})") << QStringLiteral("ab");
    QTest::addRow("object-values")
        << QByteArray(R"({"o": {}, "o": {"p": 1}})") << QStringLiteral("o");
    QTest::addRow("key-with-quote")
        << QByteArray(R"({"a\"b": 1, "a\"b": 2})") << QStringLiteral("a\"b");
    // Past the short linear list of keys, into the hash set.
    QByteArray many = "{";
    for (int i = 0; i < 40; ++i)
        many += "\"k" + QByteArray::number(i) + "\": " + QByteArray::number(i) + ", ";
    many += "\"k7\": 0}";
    QTest::addRow("after-40-keys") << many << QStringLiteral("k7");
    QTest::addRow("string-values-are-not-keys")
        << QByteArray(R"({"a": "b", "list": ["a", "b"], "b": 1, "a": 2})") << QStringLiteral("a");
}

void TestJsonParser::duplicateKey()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    const InputError e = documentError(json);
    QCOMPARE(QString::fromStdString(e.path), path);
    QVERIFY2(contains(e.message, "duplicate key"), e.toString().c_str());
    QVERIFY2(contains(e.message, "line 1"), e.toString().c_str());
}

void TestJsonParser::sameKeyInDifferentObjectsIsFine()
{
    const QByteArray json = R"({"a": {"k": 1, "a": 2}, "b": [{"k": 1}, {"k": 2}], "k": "k",
                                "s": "\"k\": 1, \"k\": 2"})";
    const InputError e = documentError(json);
    QVERIFY2(e.message.empty(), e.toString().c_str());
}

// Through the scenario parser: the error names the key path.
void TestJsonParser::duplicateKeyInScenarioFile()
{
    QByteArray json = kScenario;
    json.replace("\"nodes\": 1,", "\"nodes\": 1, \"nodes\": 2,");
    const Result<Scenario> r = parseScenario(json, builtinCatalog());
    QVERIFY(!r);
    QCOMPARE(r.error().path, std::string("hardware.nodes"));
    QVERIFY2(contains(r.error().message, "duplicate key"), r.error().toString().c_str());
    QVERIFY(parseScenario(kScenario, builtinCatalog()));
}

// One pass over the text: 200 000 objects with 20 keys each, none repeated within its
// object. (How long it takes is printed by bench_parser, not judged here.)
void TestJsonParser::manyKeysScanQuickly()
{
    const InputError e = documentError(test::manyKeysDocument());
    QVERIFY2(e.message.empty(), e.toString().c_str());
}

void TestJsonParser::utf16_data()
{
    QTest::addColumn<QByteArray>("bytes");
    const QString text = QString::fromLatin1(kScenario);
    const QByteArray le(reinterpret_cast<const char *>(text.utf16()), text.size() * 2);
    QByteArray be = le;
    for (qsizetype i = 0; i + 1 < be.size(); i += 2)
        std::swap(be[i], be[i + 1]);
    QTest::addRow("utf16le") << le;
    QTest::addRow("utf16le-bom") << QByteArray("\xFF\xFE", 2) + le;
    QTest::addRow("utf16be") << be;
    QTest::addRow("utf16be-bom") << QByteArray("\xFE\xFF", 2) + be;
    QTest::addRow("nul-byte") << QByteArray(kScenario).replace("json errors",
                                                               QByteArray("a\0b", 3));
}

void TestJsonParser::utf16()
{
    QFETCH(QByteArray, bytes);
    const InputError e = documentError(bytes);
    QVERIFY2(contains(e.message, "the file is UTF-16 (or has NUL bytes); allowed: UTF-8 JSON"),
             e.toString().c_str());
    QVERIFY2(!contains(e.message, "illegal value"), e.toString().c_str());
}

void TestJsonParser::utf16ScenarioFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("utf16.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const QString text = QString::fromLatin1(kScenario);
    f.write("\xFF\xFE", 2);
    f.write(reinterpret_cast<const char *>(text.utf16()), text.size() * 2);
    f.close();
    const Result<Scenario> r = loadScenarioFile(path, builtinCatalog());
    QVERIFY(!r);
    QVERIFY2(contains(r.error().message, "UTF-16"), r.error().toString().c_str());
}

void TestJsonParser::hexadecimalNumber_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("decimal");
    QTest::addRow("member") << QByteArray(R"({"a": 0x10})") << QStringLiteral("a")
                            << QStringLiteral("write 16");
    QTest::addRow("member-no-space")
        << QByteArray(R"({"a":0x10, "b": 1})") << QStringLiteral("a") << QStringLiteral("write 16");
    QTest::addRow("upper-case") << QByteArray(R"({"a": {"b": 0XFF}})") << QStringLiteral("a.b")
                                << QStringLiteral("write 255");
    QTest::addRow("negative") << QByteArray(R"({"a": -0x1f})") << QStringLiteral("a")
                              << QStringLiteral("write -31");
    QTest::addRow("in-array") << QByteArray(R"({"a": [1, 0x2]})") << QStringLiteral("a[1]")
                              << QStringLiteral("write 2");
    QTest::addRow("huge") << QByteArray(R"({"a": 0xFFFFFFFFFFFFFFFFFFFF})") << QStringLiteral("a")
                          << QStringLiteral("write it in decimal");
}

void TestJsonParser::hexadecimalNumber()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    QFETCH(QString, decimal);
    const InputError e = documentError(json);
    QCOMPARE(QString::fromStdString(e.path), path);
    QVERIFY2(contains(e.message, "hexadecimal numbers are not JSON"), e.toString().c_str());
    QVERIFY2(contains(e.message, decimal.toUtf8().constData()), e.toString().c_str());
    QVERIFY2(!contains(e.message, "unterminated"), e.toString().c_str());
}

QTEST_GUILESS_MAIN(TestJsonParser)
#include "tst_json_parser.moc"
