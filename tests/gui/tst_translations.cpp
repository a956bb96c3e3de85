// The Chinese translation is complete and keeps every placeholder, HTML tag and accelerator
// of its source (issue 3: no unfinished entry).
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

namespace
{
QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}
QStringList matches(const QString &text, const QRegularExpression &re)
{
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(0);
    return sorted(out);
}
} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void chineseIsComplete()
    {
        QFile file(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/translations/scalescope_zh_CN.ts"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        const QRegularExpression placeholder(QStringLiteral("%L?\\d"));
        const QRegularExpression tag(QStringLiteral("</?[a-zA-Z][a-zA-Z0-9]*"));
        const QRegularExpression accelerator(QStringLiteral("&(?!&)(\\w)"));
        int messages = 0;
        QString source, context;
        QStringList problems;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == QLatin1String("name")) {
                context = xml.readElementText();
            } else if (xml.name() == QLatin1String("source")) {
                source = xml.readElementText();
            } else if (xml.name() == QLatin1String("translation")) {
                const QString type = xml.attributes().value(QLatin1String("type")).toString();
                const QString text = xml.readElementText();
                ++messages;
                const QString where = context + QStringLiteral(": ") + source.left(60);
                if (type == QLatin1String("unfinished") || text.trimmed().isEmpty())
                    problems << QStringLiteral("unfinished: ") + where;
                else if (matches(source, placeholder) != matches(text, placeholder))
                    problems << QStringLiteral("placeholders differ: ") + where;
                else if (matches(source, tag) != matches(text, tag))
                    problems << QStringLiteral("HTML tags differ: ") + where;
                else if (matches(source, accelerator).size() != matches(text, accelerator).size())
                    problems << QStringLiteral("accelerator lost: ") + where;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(messages > 500);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // Issue 26: one word for each thing in Chinese, in the translation and in the gallery's
    // Chinese titles and explanations (the slides). GPUs are counted with 块 ("8 个 GPU"
    // stood beside "8 块 GPU"), a straggler is 慢节点 (掉队者 too), degrees are °C ("84 C"),
    // step time is never 步长 (a step size), and the timeline's Fit button reads neither
    // 适应 (to adapt) nor 适合窗口.
    void chineseSaysEachThingOneWay()
    {
        const QRegularExpression counted_with_ge(QStringLiteral("个\\s*GPU"));
        const QRegularExpression bare_celsius(QStringLiteral("(\\d|%\\d)\\s*C(?![a-zA-Z])"));
        QStringList problems;
        const auto check = [&](const QString &where, const QString &text) {
            if (text.contains(counted_with_ge))
                problems << where + QStringLiteral(": 个 GPU (块 GPU): ") + text;
            if (text.contains(QStringLiteral("掉队")))
                problems << where + QStringLiteral(": 掉队 (慢节点): ") + text;
            if (text.contains(bare_celsius))
                problems << where + QStringLiteral(": C (°C): ") + text;
            if (text.contains(QStringLiteral("步长")))
                problems << where + QStringLiteral(": 步长 (每步时间): ") + text;
        };
        QFile file(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/translations/scalescope_zh_CN.ts"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        QString source;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == QLatin1String("source")) {
                source = xml.readElementText();
            } else if (xml.name() == QLatin1String("translation")) {
                const QString text = xml.readElementText();
                check(QStringLiteral("translation"), text);
                // The timeline's Fit shows the whole step: neither "adapt" (适应), "suitable"
                // (适合窗口) nor a curve fit (拟合).
                if (source == QLatin1String("Fit") && (text.contains(QStringLiteral("适应")) ||
                                                       text.contains(QStringLiteral("适合")) ||
                                                       text.contains(QStringLiteral("拟合"))))
                    problems << QStringLiteral("Fit: ") + text;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        const QDir gallery(QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios"));
        int texts = 0;
        for (const QString &name : gallery.entryList({QStringLiteral("*.json")}, QDir::Files)) {
            QFile scenario(gallery.filePath(name));
            QVERIFY(scenario.open(QIODevice::ReadOnly));
            const QJsonObject shown =
                QJsonDocument::fromJson(scenario.readAll()).object().value("x-gallery").toObject();
            for (const char *key : {"title", "explanation"}) {
                const QString text = shown.value(QLatin1String(key))
                                         .toObject()
                                         .value(QStringLiteral("zh_CN"))
                                         .toString();
                if (!text.isEmpty()) {
                    check(name, text);
                    ++texts;
                }
            }
        }
        QVERIFY(texts >= 40);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
