// Runs every case of shared/validation (expected.csv + scenarios/) through the model and
// prints a table of per-case errors, the MAPE and the worst case (issue 2: MAPE <= 10%,
// no case off by more than 25%); then the 240 measured single-node Megatron-DeepSpeed
// iterations of vtrain/ (issue 12): their MAPE and the Spearman rank correlation of
// predicted against measured time inside each (model, GPU count) group.
#include "analysis/summary.h"
#include "analysis/track_record.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <tuple>
#include <vector>

using namespace scalescope;

// Limits of the vtrain check (set to what the model reaches, see docs/model.md: MAPE 8.8%,
// mean Spearman 0.973; issue 25's goal is MAPE <= 8%, Spearman >= 0.9).
#define VTRAIN_MAPE_LIMIT 9.0
#define VTRAIN_RHO_LIMIT 0.96

class TestValidation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void publishedMeasurements_data();
    void publishedMeasurements();
    void vtrainSingleNode();
    void trackRecordIsCurrent();
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

/// Ranks with ties averaged (1-based).
std::vector<double> ranks(const std::vector<double> &v)
{
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
            ++j;
        for (size_t k = i; k <= j; ++k)
            r[order[k]] = 0.5 * double(i + j) + 1.0;
        i = j + 1;
    }
    return r;
}

/// Spearman's rank correlation: Pearson's correlation of the ranks.
double spearman(const std::vector<double> &x, const std::vector<double> &y)
{
    const std::vector<double> rx = ranks(x), ry = ranks(y);
    const double n = double(x.size());
    const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n;
    const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < rx.size(); ++i) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 1.0;
}

/// One row of a data set's expected.csv.
struct ExpectedRow {
    QString id, metric;
    double expected = 0;
};

/// The rows of `dir`/expected.csv; false with why when it cannot be read or lacks a column.
bool readExpected(const QDir &dir, std::vector<ExpectedRow> *rows, QString *why)
{
    QFile csv(dir.filePath(QStringLiteral("expected.csv")));
    if (!csv.open(QIODevice::ReadOnly)) {
        *why =
            csv.fileName() + QStringLiteral(" is not beside the checkout (SCALESCOPE_SHARED_DIR)");
        return false;
    }
    const QStringList lines =
        QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.size() < 2) {
        *why = csv.fileName() + QStringLiteral(" has no rows");
        return false;
    }
    const QStringList header = csvFields(lines.first().trimmed());
    const int id = header.indexOf(QStringLiteral("id"));
    const int metric = header.indexOf(QStringLiteral("metric"));
    const int expected = header.indexOf(QStringLiteral("expected"));
    if (id < 0 || metric < 0 || expected < 0) {
        *why = csv.fileName() + QStringLiteral(" lacks id, metric or expected");
        return false;
    }
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList f = csvFields(lines[i].trimmed());
        rows->push_back({f.value(id), f.value(metric), f.value(expected).toDouble()});
    }
    return true;
}

/// The model's figure for one expected.csv metric; false with why where it cannot give it.
bool predict(const Scenario &sc, const QString &metric, double *predicted, QString *why)
{
    if (sc.isCollective()) {
        const CollectiveSummary c = simulateCollective(sc);
        *predicted = metric == QStringLiteral("busbw_gbps")   ? c.cost.busbw_gbps
                     : metric == QStringLiteral("algbw_gbps") ? c.cost.algbw_gbps
                                                              : c.cost.time_s;
        return true;
    }
    const auto ctx = makeContext(sc);
    if (!ctx.ok()) {
        *why = QStringLiteral("no context");
        return false;
    }
    const SimResult r = simulate(*ctx.value(), SimOptions{});
    if (!r.ok) {
        *why = QStringLiteral("simulation failed");
        return false;
    }
    const Summary m = summarize(*ctx.value(), r);
    if (metric == QStringLiteral("step_time_s"))
        *predicted = m.step_time_s;
    else if (metric == QStringLiteral("samples_per_s"))
        *predicted = m.samples_per_s;
    else if (metric == QStringLiteral("tokens_per_s"))
        *predicted = m.tokens_per_s;
    else if (metric == QStringLiteral("tokens_per_s_per_gpu"))
        *predicted = m.tokens_per_s / m.gpus;
    else if (metric == QStringLiteral("scaling_efficiency"))
        *predicted = m.scaling_efficiency;
    else if (metric == QStringLiteral("mfu"))
        *predicted = m.mfu;
    else if (metric == QStringLiteral("memory_gib")) // the peak the framework printed
        *predicted = m.memory.total / (1024.0 * 1024.0 * 1024.0);
    else {
        *why = QStringLiteral("unknown metric ") + metric;
        return false;
    }
    return true;
}

} // namespace

void TestValidation::vtrainSingleNode()
{
    QFile csv(QStringLiteral(SCALESCOPE_SHARED_DIR "/validation/vtrain/single_node.csv"));
    // Missing data is a failure, never a pass by skipping (CI always has shared/ beside it).
    QVERIFY2(csv.open(QIODevice::ReadOnly),
             "shared/validation/vtrain/single_node.csv is not beside the checkout");
    const QStringList lines =
        QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines.size() > 1);
    struct Row {
        QString model;
        int gpus;
        double measured_s, predicted_s;
    };
    std::vector<Row> rows;
    double sum = 0, worst = 0;
    int worst_line = 0;
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList f = lines[i].trimmed().split(QLatin1Char(','));
        QCOMPARE(f.size(), 11);
        const int gpus = f[0].toInt(), tensor = f[7].toInt();
        // The README's setting: one DGX-A100-class node, NVLink 3, fp16, full recompute,
        // 1F1B, Adam, Megatron-DeepSpeed (one gradient all-reduce after the backward pass);
        // the GPT-2 vocabulary padded to a multiple of 128 x tensor (Megatron-LM).
        const int64_t multiple = 128 * int64_t(tensor);
        const int64_t vocab = (50257 + multiple - 1) / multiple * multiple;
        const QString json =
            QStringLiteral(
                R"({"scalescope": 1, "name": "vtrain row %1",
"hardware": {"gpu": "a100-sxm4-80gb", "nodes": 1, "gpus_per_node": %2, "intra_node": "nvlink3",
             "inter_node": "ib-hdr-200", "nics_per_node": 4},
"model": {"transformer": {"layers": %3, "hidden": %4, "heads": %5, "seq_len": %6, "vocab": %7}},
"training": {"global_batch": %8, "micro_batch": %9, "precision": "fp16", "optimizer": "adam",
             "recompute": "full", "framework": "megatron-deepspeed"},
"parallel": {"data": %10, "tensor": %11, "pipeline": %12, "schedule": "1f1b"}})")
                .arg(i)
                .arg(gpus)
                .arg(f[5], f[3], f[4], f[6])
                .arg(vocab)
                .arg(f[1], f[2], f[8], f[7], f[9]);
        const Result<Scenario> s = parseScenario(json.toUtf8(), builtinCatalog(), QString());
        QVERIFY2(s.ok(), qPrintable(QStringLiteral("line %1: ").arg(i + 1) +
                                    QString::fromStdString(s ? "" : s.error().toString())));
        const auto ctx = makeContext(s.value());
        QVERIFY(ctx.ok());
        const SimResult r = simulate(*ctx.value(), SimOptions{});
        QVERIFY(r.ok);
        const double predicted = summarize(*ctx.value(), r).step_time_s;
        const double measured = f[10].toDouble() * 1e-3;
        const double err = predicted / measured - 1.0;
        sum += std::abs(err);
        if (std::abs(err) > worst) {
            worst = std::abs(err);
            worst_line = i + 1;
        }
        if (qEnvironmentVariableIsSet("SCALESCOPE_VTRAIN_ROWS")) // one line per row, for study
            std::printf("vtrain row %3d: %s %s %+7.1f%%\n", i + 1,
                        qPrintable(lines[i].trimmed()),
                        qPrintable(QString::number(predicted * 1e3, 'f', 1)), 100.0 * err);
        rows.push_back({QStringLiteral("h%1 a%2 L%3 s%4").arg(f[3], f[4], f[5], f[6]), gpus,
                        measured, predicted});
    }
    std::map<std::pair<QString, int>, std::vector<size_t>> groups;
    for (size_t i = 0; i < rows.size(); ++i)
        groups[{rows[i].model, rows[i].gpus}].push_back(i);
    std::printf("\nvtrain single node: %-22s %5s %5s %9s %9s\n", "model", "GPUs", "rows", "MAPE",
                "Spearman");
    double rho_sum = 0;
    int rho_n = 0;
    for (const auto &[key, members] : groups) {
        std::vector<double> m, p;
        double e = 0;
        for (size_t i : members) {
            m.push_back(rows[i].measured_s);
            p.push_back(rows[i].predicted_s);
            e += std::abs(rows[i].predicted_s / rows[i].measured_s - 1.0);
        }
        const bool ranked = members.size() >= 3;
        const double rho = ranked ? spearman(m, p) : 0.0;
        if (ranked) {
            rho_sum += rho;
            ++rho_n;
        }
        std::printf("vtrain single node: %-22s %5d %5zu %8.1f%% %9s\n", qPrintable(key.first),
                    key.second, members.size(), 100.0 * e / double(members.size()),
                    ranked ? qPrintable(QString::number(rho, 'f', 3)) : "-");
    }
    const double mape = 100.0 * sum / double(rows.size());
    const double rho = rho_n > 0 ? rho_sum / rho_n : 0.0;
    std::printf("vtrain single node: %zu rows: MAPE %.1f%%, worst %.1f%% (line %d), mean Spearman "
                "%.3f over %d groups\n",
                rows.size(), mape, 100.0 * worst, worst_line, rho, rho_n);
    std::fflush(stdout);
    // Regression guards at what the model reaches (issue 12's goal: MAPE <= 10%, rho >= 0.9).
    QVERIFY2(mape <= VTRAIN_MAPE_LIMIT,
             qPrintable(QStringLiteral("vtrain MAPE %1% above %2%").arg(mape).arg(VTRAIN_MAPE_LIMIT)));
    QVERIFY2(rho >= VTRAIN_RHO_LIMIT,
             qPrintable(QStringLiteral("vtrain mean Spearman %1 below %2").arg(rho).arg(VTRAIN_RHO_LIMIT)));
}

void TestValidation::publishedMeasurements_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<double>("max_mape");
    QTest::addColumn<double>("max_worst");
    // The 2019-2022 measurements: regression guards above what the model reaches (4.5%
    // MAPE, worst 14.9%); issue 25's goal is MAPE <= 5%, none above 15%.
    QTest::newRow("validation") << QStringLiteral("validation") << 5.5 << 0.18;
    // Issue 25's H100-era runs (torchtitan, NeMo FP8, Lambda; throughput and peak memory):
    // regression guards above what the model reaches (9.6% MAPE, worst 51.3%: ResNet-50 on
    // 8 H100 PCIe under Lambda's setup, which runs 0.64-0.69x of DeepLearningExamples' own
    // figures on A100 and V100 too; docs/model.md); the goal is MAPE <= 8%, none > 20%.
    QTest::newRow("validation/recent") << QStringLiteral("validation/recent") << 12.0 << 0.55;
    // Issue 27's mixture-of-experts and context-parallel runs (Megatron-Bridge, ModelZoo,
    // NeMo, torchtitan): a regression guard above what the model reaches (22.9% MAPE, worst
    // 132%: Qwen3-30B-A3B on 16 H100, which the model puts at 2.3x the measured rate; the
    // H100 MoE rows are all too fast, the Blackwell ones within 10%: docs/model.md); the
    // goal is MAPE <= 15%, none above 35%.
    QTest::newRow("validation/moe") << QStringLiteral("validation/moe") << 27.0 << 1.40;
}

void TestValidation::publishedMeasurements()
{
    QFETCH(QString, folder);
    QFETCH(double, max_mape);
    QFETCH(double, max_worst);
    const QDir dir(QStringLiteral(SCALESCOPE_SHARED_DIR "/") + folder);
    std::vector<ExpectedRow> rows;
    QString unread;
    QVERIFY2(readExpected(dir, &rows, &unread), qPrintable(unread));

    double sum = 0, worst = 0;
    QString worst_id;
    int n = 0;
    std::printf("%-28s %-20s %12s %12s %8s\n", "case", "metric", "measured", "predicted", "error");
    for (const auto &[id, metric, expected] : rows) {
        const Result<Scenario> s = loadScenarioFile(
            dir.filePath(QStringLiteral("scenarios/%1.json").arg(id)), builtinCatalog());
        QVERIFY2(s.ok(), qPrintable(id + QStringLiteral(": ") +
                                    QString::fromStdString(s ? "" : s.error().toString())));
        double predicted = 0;
        QString why;
        QVERIFY2(predict(s.value(), metric, &predicted, &why),
                 qPrintable(id + QStringLiteral(": ") + why));
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
    QVERIFY2(mape <= max_mape,
             qPrintable(QStringLiteral("MAPE %1% above %2%").arg(mape).arg(max_mape)));
    QVERIFY2(worst <= max_worst,
             qPrintable(QStringLiteral("%1 off by %2%").arg(worst_id).arg(100 * worst)));
}

void TestValidation::trackRecordIsCurrent()
{
    // What the window and the CLI tell a user about the model's error on runs like theirs
    // (analysis/track_record.h) is recomputed here from every published throughput row, so
    // that a model change cannot leave it stale.
    std::map<RunKind, std::vector<double>> errors;
    for (const char *folder : {"validation", "validation/recent", "validation/moe"}) {
        const QDir dir(QStringLiteral(SCALESCOPE_SHARED_DIR "/") + QLatin1String(folder));
        std::vector<ExpectedRow> rows;
        QString unread;
        QVERIFY2(readExpected(dir, &rows, &unread), qPrintable(unread));
        for (const auto &[id, metric, expected] : rows) {
            if (metric != QStringLiteral("step_time_s") &&
                metric != QStringLiteral("samples_per_s") &&
                metric != QStringLiteral("tokens_per_s") &&
                metric != QStringLiteral("tokens_per_s_per_gpu"))
                continue;
            const Result<Scenario> s = loadScenarioFile(
                dir.filePath(QStringLiteral("scenarios/%1.json").arg(id)), builtinCatalog());
            QVERIFY2(s.ok(), qPrintable(id));
            const std::optional<RunKind> kind = runKind(s.value());
            if (!kind)
                continue;
            double predicted = 0;
            QString why;
            QVERIFY2(predict(s.value(), metric, &predicted, &why),
                     qPrintable(id + QStringLiteral(": ") + why));
            errors[*kind].push_back(std::abs(predicted / expected - 1));
        }
    }
    QCOMPARE(errors.size(), size_t(4)); // every kind has published runs
    std::map<RunKind, TrackRecord> measured;
    for (auto &[kind, e] : errors) {
        std::sort(e.begin(), e.end());
        const size_t n = e.size();
        TrackRecord &m = measured[kind];
        m.runs = int(n);
        m.mean_error = std::accumulate(e.begin(), e.end(), 0.0) / double(n);
        m.median_error = n % 2 ? e[n / 2] : 0.5 * (e[n / 2 - 1] + e[n / 2]);
        m.worst_error = e.back();
        const TrackRecord t = trackRecord(kind);
        std::printf("%-20s %3d runs: mean %.4f, median %.4f, worst %.4f (shipped: %d, %.4f, "
                    "%.4f, %.4f)\n",
                    runKindName(kind), m.runs, m.mean_error, m.median_error, m.worst_error, t.runs,
                    t.mean_error, t.median_error, t.worst_error);
    }
    std::fflush(stdout);
    // docs/model.md ("The track record a user sees") prints the shipped figures to a tenth
    // of a percent: its rows must say what the code says.
    QFile doc(QStringLiteral(SCALESCOPE_SOURCE_DIR "/docs/model.md"));
    QVERIFY(doc.open(QIODevice::ReadOnly));
    const QString docs = QString::fromUtf8(doc.readAll());
    const std::map<RunKind, const char *> doc_rows{
        {RunKind::DenseTransformer, "| dense transformers |"},
        {RunKind::LongContext, "| long context (context parallelism) |"},
        {RunKind::MixtureOfExperts, "| mixture of experts |"},
        {RunKind::LayerTable, "| CNNs (layer tables) |"}};
    for (const auto &[kind, head] : doc_rows) {
        const TrackRecord t = trackRecord(kind);
        const auto pct = [](double share) { return QString::number(100.0 * share, 'f', 1); };
        const QString row = QLatin1String(head) +
                            QStringLiteral(" %1 | %2% | %3% | %4%")
                                .arg(t.runs)
                                .arg(pct(t.mean_error), pct(t.median_error), pct(t.worst_error));
        QVERIFY2(docs.contains(row), qPrintable(QStringLiteral("docs/model.md lacks: ") + row));
    }
    for (const auto &[kind, m] : measured) {
        const TrackRecord t = trackRecord(kind);
        QCOMPARE(t.runs, m.runs);
        // Shipped to three decimals of a share (a tenth of a percentage point).
        QVERIFY2(std::abs(t.mean_error - m.mean_error) < 6e-4 &&
                     std::abs(t.median_error - m.median_error) < 6e-4 &&
                     std::abs(t.worst_error - m.worst_error) < 6e-4,
                 runKindName(kind));
    }
}

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
