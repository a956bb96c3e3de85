// Runs every case of shared/validation (expected.csv + scenarios/) through the model and
// prints a table of per-case errors, the MAPE and the worst case (issue 2: MAPE <= 10%,
// no case off by more than 25%).
#include "analysis/summary.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <cmath>
#include <cstdio>

using namespace scalescope;

class TestValidation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void publishedMeasurements();
};

namespace
{

// Splits one CSV line with double-quoted fields.
QStringList csvFields(const QString &line)
{
    QStringList out;
    QString cur;
    bool quoted = false;
    for (QChar c : line) {
        if (c == QLatin1Char('"'))
            quoted = !quoted;
        else if (c == QLatin1Char(',') && !quoted) {
            out << cur;
            cur.clear();
        } else
            cur += c;
    }
    out << cur;
    return out;
}

} // namespace

void TestValidation::publishedMeasurements()
{
    const QDir dir(QStringLiteral(SCALESCOPE_SHARED_DIR "/validation"));
    QFile csv(dir.filePath(QStringLiteral("expected.csv")));
    if (!csv.open(QIODevice::ReadOnly))
        QSKIP("shared/validation/expected.csv is not beside the checkout (SCALESCOPE_SHARED_DIR)");
    const QStringList lines =
        QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines.size() > 1);
    const QStringList header = csvFields(lines.first().trimmed());
    const auto col = [&](const char *name) { return header.indexOf(QLatin1String(name)); };
    QVERIFY(col("id") >= 0 && col("metric") >= 0 && col("expected") >= 0);

    double sum = 0, worst = 0;
    QString worst_id;
    int n = 0;
    std::printf("%-28s %-20s %12s %12s %8s\n", "case", "metric", "measured", "predicted", "error");
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList f = csvFields(lines[i].trimmed());
        const QString id = f.value(col("id"));
        const QString metric = f.value(col("metric"));
        const double expected = f.value(col("expected")).toDouble();
        const Result<Scenario> s = loadScenarioFile(
            dir.filePath(QStringLiteral("scenarios/%1.json").arg(id)), builtinCatalog());
        QVERIFY2(s.ok(), qPrintable(id + QStringLiteral(": ") +
                                    QString::fromStdString(s ? "" : s.error().toString())));
        double predicted = 0;
        if (s.value().isCollective()) {
            const CollectiveSummary c = simulateCollective(s.value());
            predicted = metric == QStringLiteral("busbw_gbps")   ? c.cost.busbw_gbps
                        : metric == QStringLiteral("algbw_gbps") ? c.cost.algbw_gbps
                                                                 : c.cost.time_s;
        } else {
            const auto ctx = makeContext(s.value());
            QVERIFY(ctx.ok());
            const SimResult r = simulate(*ctx.value(), SimOptions{});
            QVERIFY(r.ok);
            const Summary m = summarize(*ctx.value(), r);
            if (metric == QStringLiteral("step_time_s"))
                predicted = m.step_time_s;
            else if (metric == QStringLiteral("samples_per_s"))
                predicted = m.samples_per_s;
            else if (metric == QStringLiteral("tokens_per_s"))
                predicted = m.tokens_per_s;
            else if (metric == QStringLiteral("tokens_per_s_per_gpu"))
                predicted = m.tokens_per_s / m.gpus;
            else if (metric == QStringLiteral("scaling_efficiency"))
                predicted = m.scaling_efficiency;
            else if (metric == QStringLiteral("mfu"))
                predicted = m.mfu;
            else
                QFAIL(qPrintable(QStringLiteral("%1: unknown metric %2").arg(id, metric)));
        }
        const double err = predicted / expected - 1.0;
        std::printf("%-28s %-20s %12.4g %12.4g %+7.1f%%\n", qPrintable(id), qPrintable(metric),
                    expected, predicted, 100.0 * err);
        sum += std::abs(err);
        if (std::abs(err) > worst) {
            worst = std::abs(err);
            worst_id = id;
        }
        ++n;
    }
    const double mape = 100.0 * sum / n;
    std::printf("%d cases: MAPE %.1f%%, worst %.1f%% (%s)\n", n, mape, 100.0 * worst,
                qPrintable(worst_id));
    std::fflush(stdout);
    QVERIFY2(mape <= 10.0, qPrintable(QStringLiteral("MAPE %1% above 10%").arg(mape)));
    QVERIFY2(worst <= 0.25,
             qPrintable(QStringLiteral("%1 off by %2%").arg(worst_id).arg(100 * worst)));
}

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
