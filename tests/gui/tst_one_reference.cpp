// One speed-up reference everywhere (issue 24): for every gallery scenario and one whose
// model one GPU cannot hold, the window's status bar, its Scaling tab, `sweep --csv` and
// `simulate --json` give the same speed-up and efficiency.
#include "bench_window.h"

#include "charts/scaling_view.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QChart>
#include <QXYSeries>

using namespace scalescope;

class TestOneReference : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameFiguresEverywhere_data();
    void sameFiguresEverywhere();
};

namespace
{

QByteArray runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(SCALESCOPE_CLI), args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0)
        qFatal("scalescope-cli %s failed: %s", qPrintable(args.join(u' ')),
               p.readAllStandardError().constData());
    return p.readAllStandardOutput();
}

/// The numbers of a label, in order ("1.01× as fast as 2 GPUs ... ideal 4×" -> 1.01, 2, 4).
QList<double> numbersOf(const QString &text)
{
    QList<double> out;
    static const QRegularExpression number(QStringLiteral("[0-9]+(\\.[0-9]+)?"));
    for (auto it = number.globalMatch(text); it.hasNext();)
        out << it.next().captured(0).toDouble();
    return out;
}

} // namespace

void TestOneReference::sameFiguresEverywhere_data()
{
    QTest::addColumn<QString>("file");
    const QDir gallery(QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios"));
    for (const QString &name : gallery.entryList({QStringLiteral("*.json")}, QDir::Files))
        QTest::newRow(qPrintable(name)) << gallery.filePath(name);
}

void TestOneReference::sameFiguresEverywhere()
{
    QFETCH(QString, file);
    const Result<Scenario> s = loadScenarioFile(file, builtinCatalog());
    QVERIFY(s.ok());
    if (s.value().isCollective())
        QSKIP("a collective-only scenario has no speed-up");

    // The CLI: simulate's figures against the reference, and the sweep's row of this count.
    QJsonObject sim = QJsonDocument::fromJson(runCli({QStringLiteral("simulate"), file,
                                                      QStringLiteral("--json")}))
                          .object();
    const QJsonObject from = sim.value(QStringLiteral("from_reference")).toObject();
    const QString kind = from.value(QStringLiteral("kind")).toString();
    const double speedup = from.value(QStringLiteral("speedup")).toDouble();
    const double efficiency = from.value(QStringLiteral("scaling_efficiency")).toDouble();
    const int gpus = sim.value(QStringLiteral("gpus")).toInt();
    const bool fits = sim.value(QStringLiteral("fits_in_memory")).toBool();

    const QByteArray csv = runCli({QStringLiteral("sweep"), file, QStringLiteral("--gpus"),
                                   QString::number(gpus), QStringLiteral("--csv")});
    const QList<QByteArray> lines = csv.trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    const QList<QByteArray> header = lines[0].split(','), row = lines[1].split(',');
    const auto column = [&](const char *name) {
        const qsizetype i = header.indexOf(QByteArray(name));
        return i >= 0 ? row.value(i).toDouble() : -1.0;
    };
    const bool rebased = header.contains("speedup_from_reference");
    const QJsonObject reference = sim.value(QStringLiteral("speedup_reference")).toObject();
    const bool on_paper_from_fewest =
        reference.value(QStringLiteral("one_gpu_on_paper")).toBool() &&
        reference.value(QStringLiteral("gpus")).toInt() > 1;
    QCOMPARE(rebased, on_paper_from_fewest);
    QCOMPARE(QByteArray::number(rebased ? column("speedup_from_reference") : column("speedup"),
                                'f', 2),
             QByteArray::number(speedup, 'f', 2));
    QCOMPARE(QByteArray::number(
                 rebased ? column("efficiency_from_reference") : column("scaling_efficiency"),
                 'f', 2),
             QByteArray::number(efficiency, 'f', 2));

    // The window on the same file.
    bench::BenchWindow shown(s.value());
    QVERIFY(shown.waitForNewest(120000));
    while (shown.window->currentResult()->stage != ResultStage::Complete)
        QVERIFY(shown.waitForNewest(120000) && QTest::qWaitFor([&] {
                    return shown.window->currentResult()->stage == ResultStage::Complete;
                }, 120000));
    const QString status =
        shown.window->findChild<QLabel *>(QStringLiteral("statusSpeedup"))->text();
    const QString eff = shown.window->findChild<QLabel *>(QStringLiteral("statusEfficiency"))->text();
    const QString what = QStringLiteral("%1: '%2' / '%3', CLI %4 %5 %6")
                             .arg(file, status, eff, kind)
                             .arg(speedup)
                             .arg(efficiency);
    if (kind == QStringLiteral("fewest") || kind == QStringLiteral("on_paper")) {
        // The headline gives the paper figure, labelled so.
        QVERIFY2(status.contains(QStringLiteral("on paper")), qPrintable(what));
    } else {
        const QList<double> n = numbersOf(status.section(QStringLiteral("step"), -1));
        QVERIFY2(!n.isEmpty(), qPrintable(what));
        // "If it fitted: step 1.2 s, ..." puts the step first: the speed-up follows it.
        const double shown_speedup = fits ? numbersOf(status).value(0) : n.value(1);
        QVERIFY2(QString::number(shown_speedup, 'f', 2) == QString::number(speedup, 'f', 2),
                 qPrintable(what));
        if (fits)
            QVERIFY2(numbersOf(eff).value(0) == std::round(efficiency * 100), qPrintable(what));
    }
    // The Scaling tab's current point is the same figure.
    auto *scaling = shown.window->findChild<ScalingView *>();
    QVERIFY(scaling);
    QXYSeries *current = nullptr;
    for (QAbstractSeries *series : scaling->speedupChart()->series())
        if (series->objectName() == QStringLiteral("currentSpeedup"))
            current = qobject_cast<QXYSeries *>(series);
    QVERIFY(current);
    if (current->count() == 1 && kind != QStringLiteral("fewest") &&
        kind != QStringLiteral("on_paper"))
        QVERIFY2(QString::number(current->at(0).y(), 'f', 2) == QString::number(speedup, 'f', 2),
                 qPrintable(what));
}

QTEST_MAIN(TestOneReference)
#include "tst_one_reference.moc"
