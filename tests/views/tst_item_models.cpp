// Item models of the result views: SweepTableModel and DeltaTableModel under
// QAbstractItemModelTester, their headers, roles and arithmetic.
#include "charts/delta_table_model.h"
#include "charts/sweep_table_model.h"
#include "result_fixtures.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QFont>
#include <QLocale>
#include <QTest>

using namespace scalescope;
using scalescope::test::editEvaluation;

class TestItemModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void sweepModelResets();
    void sweepModelHeaders();
    void sweepModelData();

    void deltaModelResets();
    void deltaNeverInENotation();
    void deltaModelHeaders();
    void deltaArithmetic_data();
    void deltaArithmetic();
    void sweepTimeColumnsHaveOneUnit();
    void deltaMissingSides();
    void deltaBetterWorse_data();
    void deltaBetterWorse();
};

void TestItemModels::sweepModelResets()
{
    SweepTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(SweepTableModel::ColumnCount));
    const auto result = test::amdahlResult({1, 2, 4, 8}, 0.1, 4);
    model.setRows(result->sweep(), 4);
    QCOMPARE(model.rowCount(), 4);
    model.setRows({result->sweep()[0]});
    QCOMPARE(model.rowCount(), 1);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    model.setRows(result->sweep(), 8);
    QCOMPARE(model.rowCount(), 4);
    // Children of a cell: none (a table).
    QCOMPARE(model.rowCount(model.index(0, 0)), 0);
}

void TestItemModels::sweepModelHeaders()
{
    SweepTableModel model;
    QStringList headers;
    for (int c = 0; c < model.columnCount(); ++c) {
        const QString h = model.headerData(c, Qt::Horizontal).toString();
        QVERIFY2(!h.isEmpty(), qPrintable(QString::number(c)));
        QVERIFY(!model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        headers << h;
    }
    QCOMPARE(headers.removeDuplicates(), 0);
    QCOMPARE(headers[SweepTableModel::StepTime], QStringLiteral("Step time (s)"));
    QCOMPARE(headers[SweepTableModel::Efficiency], QStringLiteral("Efficiency (%)"));
    QVERIFY(headers[SweepTableModel::CommunicationExposed].endsWith(QStringLiteral("(s)")));
    QVERIFY(headers[SweepTableModel::CommunicationShare].endsWith(QStringLiteral("(%)")));
    QVERIFY(headers[SweepTableModel::Speedup].contains(QStringLiteral("×")));
}

void TestItemModels::sweepModelData()
{
    SweepTableModel model;
    const auto result = test::amdahlResult({1, 2, 4, 8}, 0.1, 4);
    model.setRows(result->sweep(), 4);
    const Summary &s8 = result->sweep()[3].summary;
    auto raw = [&](int row, int column) {
        return model.index(row, column).data(SweepTableModel::RawValueRole).toDouble();
    };
    QCOMPARE(raw(3, SweepTableModel::Gpus), 8.0);
    QCOMPARE(raw(3, SweepTableModel::StepTime), s8.step_time_s);
    QCOMPARE(raw(3, SweepTableModel::SamplesPerS), s8.samples_per_s);
    QCOMPARE(raw(3, SweepTableModel::Speedup), s8.speedup);
    QCOMPARE(raw(3, SweepTableModel::Efficiency), s8.scaling_efficiency * 100.0);
    QCOMPARE(raw(3, SweepTableModel::Compute), s8.breakdown.compute);
    QCOMPARE(raw(3, SweepTableModel::CommunicationExposed), 0.1);
    QCOMPARE(raw(3, SweepTableModel::PipelineBubble), s8.breakdown.pipeline_bubble);
    QCOMPARE(raw(3, SweepTableModel::Wait), s8.breakdown.wait);
    QCOMPARE(raw(3, SweepTableModel::DataLoading), s8.breakdown.data_loading);
    // 0.1 s exposed of a 0.1 + 0.9/8 = 0.2125 s step.
    QVERIFY(qAbs(raw(3, SweepTableModel::CommunicationShare) - 0.1 / 0.2125 * 100.0) < 1e-9);

    QCOMPARE(model.index(3, SweepTableModel::Gpus).data().toString(), QStringLiteral("8"));
    QCOMPARE(model.index(0, SweepTableModel::Speedup).data().toString(), QStringLiteral("1.00"));
    QCOMPARE(model.index(0, SweepTableModel::Efficiency).data().toString(),
             QStringLiteral("100.0"));
    // One unit per time column: the 1-GPU step is 1 s, so seconds to four digits.
    QCOMPARE(model.headerData(SweepTableModel::StepTime, Qt::Horizontal).toString(),
             QStringLiteral("Step time (s)"));
    QCOMPARE(model.index(3, SweepTableModel::StepTime).data().toString(),
             QLocale().toString(s8.step_time_s, 'f', 3));
    QVERIFY(model.index(0, 0).data(Qt::TextAlignmentRole).toInt() & Qt::AlignRight);
    // The current scenario's row is bold, the others are not.
    QVERIFY(model.index(2, 0).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(!model.index(1, 0).data(Qt::FontRole).isValid());
    QVERIFY(!model.index(0, 0).data(Qt::DecorationRole).isValid());
}

void TestItemModels::sweepTimeColumnsHaveOneUnit()
{
    // Issue 26: the Breakdown table's time columns were written with 'g' each ("0.0006875"
    // and "4,545" in one column of seconds). A column has one unit and one number of decimals.
    SweepTableModel model;
    auto result = test::amdahlResult({1, 2}, 0.1, 2);
    std::vector<SweepRow> rows = result->sweep();
    rows[0].summary.step_time_s = 4545;
    rows[1].summary.step_time_s = 0.0006875;
    model.setRows(rows);
    QCOMPARE(model.headerData(SweepTableModel::StepTime, Qt::Horizontal).toString(),
             QStringLiteral("Step time (s)"));
    QCOMPARE(model.index(0, SweepTableModel::StepTime).data().toString(), QLocale().toString(4545.0, 'f', 1));
    QCOMPARE(model.index(1, SweepTableModel::StepTime).data().toString(), QStringLiteral("0.0"));
    // Short steps: milliseconds or microseconds, not a row of zeros.
    rows[0].summary.step_time_s = 0.0125;
    rows[1].summary.step_time_s = 0.0006875;
    model.setRows(rows);
    QCOMPARE(model.headerData(SweepTableModel::StepTime, Qt::Horizontal).toString(),
             QStringLiteral("Step time (ms)"));
    QCOMPARE(model.index(0, SweepTableModel::StepTime).data().toString(), QStringLiteral("12.50"));
    QCOMPARE(model.index(1, SweepTableModel::StepTime).data().toString(), QStringLiteral("0.69"));
    // The raw value stays in seconds.
    QCOMPARE(model.index(1, SweepTableModel::StepTime).data(SweepTableModel::RawValueRole).toDouble(),
             0.0006875);
}

void TestItemModels::deltaModelResets()
{
    DeltaTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), int(DeltaTableModel::MetricCount));
    QCOMPARE(model.columnCount(), int(DeltaTableModel::ColumnCount));
    const auto a = test::amdahlResult({1, 2}, 0.1, 8);
    const auto b = test::amdahlResult({1, 2}, 0.1, 16);
    model.setResults(a, b);
    model.setResults(nullptr, b);
    model.setResults(a, nullptr);
    model.setResults(test::errorResult(), b);
    model.setResults(nullptr, nullptr);
    QCOMPARE(model.rowCount(), int(DeltaTableModel::MetricCount));
}

void TestItemModels::deltaModelHeaders()
{
    DeltaTableModel model;
    QCOMPARE(model.headerData(DeltaTableModel::A, Qt::Horizontal).toString(), QStringLiteral("A"));
    QCOMPARE(model.headerData(DeltaTableModel::B, Qt::Horizontal).toString(), QStringLiteral("B"));
    QVERIFY(model.headerData(DeltaTableModel::Delta, Qt::Horizontal)
                .toString()
                .startsWith(QStringLiteral("Δ")));
    QCOMPARE(model.headerData(DeltaTableModel::DeltaPercent, Qt::Horizontal).toString(),
             QStringLiteral("Δ %"));
    QStringList rows;
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString h = model.headerData(r, Qt::Vertical).toString();
        QVERIFY2(h.endsWith(u')'), qPrintable(h)); // every metric carries its unit
        rows << h;
    }
    QCOMPARE(rows.removeDuplicates(), 0);
    QCOMPARE(rows[DeltaTableModel::StepTime], QStringLiteral("Step time (s)"));
    QCOMPARE(rows[DeltaTableModel::MemoryPerGpu], QStringLiteral("Memory per GPU (GiB)"));
}

void TestItemModels::deltaArithmetic_data()
{
    QTest::addColumn<int>("metric");
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("b");
    const Summary sa = test::amdahlRow(8, 0.1).summary;
    const Summary sb = test::amdahlRow(16, 0.1).summary;
    QTest::newRow("step time") << int(DeltaTableModel::StepTime) << sa.step_time_s
                               << sb.step_time_s;
    QTest::newRow("throughput") << int(DeltaTableModel::Throughput) << sa.samples_per_s
                                << sb.samples_per_s;
    QTest::newRow("mfu %") << int(DeltaTableModel::Mfu) << sa.mfu * 100 << sb.mfu * 100;
    QTest::newRow("speed-up") << int(DeltaTableModel::Speedup) << sa.speedup << sb.speedup;
    QTest::newRow("efficiency %") << int(DeltaTableModel::Efficiency) << sa.scaling_efficiency * 100
                                  << sb.scaling_efficiency * 100;
    QTest::newRow("compute") << int(DeltaTableModel::Compute) << sa.breakdown.compute
                             << sb.breakdown.compute;
    QTest::newRow("memory GiB") << int(DeltaTableModel::MemoryPerGpu)
                                << sa.memory.total / kBytesPerGiB << sb.memory.total / kBytesPerGiB;
}

void TestItemModels::deltaArithmetic()
{
    QFETCH(int, metric);
    QFETCH(double, a);
    QFETCH(double, b);
    DeltaTableModel model;
    model.setResults(test::amdahlResult({1, 2}, 0.1, 8), test::amdahlResult({1, 2}, 0.1, 16));
    auto raw = [&](int column) {
        return model.index(metric, column).data(DeltaTableModel::RawValueRole).toDouble();
    };
    QCOMPARE(raw(DeltaTableModel::A), a);
    QCOMPARE(raw(DeltaTableModel::B), b);
    QVERIFY(qAbs(raw(DeltaTableModel::Delta) - (b - a)) < 1e-12 * std::max(1.0, std::abs(a)));
    QVERIFY(qAbs(raw(DeltaTableModel::DeltaPercent) - (b - a) / std::abs(a) * 100.0) < 1e-9);
    // Display: Δ % with one decimal, positive Δ with a sign.
    const double percent = (b - a) / std::abs(a) * 100.0;
    QCOMPARE(model.index(metric, DeltaTableModel::DeltaPercent).data().toString(),
             (percent > 0 ? QStringLiteral("+") : QString()) +
                 QLocale::c().toString(percent, 'f', 1));
    const QString delta = model.index(metric, DeltaTableModel::Delta).data().toString();
    QCOMPARE(delta.startsWith(u'+'), b > a);
}

void TestItemModels::deltaNeverInENotation()
{
    // Issue 26: an A/B delta of 1.6 us on a step of a second showed "+1.608E-06".
    DeltaTableModel model;
    auto a = test::amdahlResult({1, 2}, 0.1, 8);
    auto b = test::amdahlResult({1, 2}, 0.1, 8);
    editEvaluation(*b).step.summary.step_time_s += 1.608e-6;
    editEvaluation(*b).step.summary.breakdown.wait += 1e-12; // within the equality tolerance
    model.setResults(a, b);
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c) {
            const QString text = model.index(r, c).data().toString();
            QVERIFY2(!text.contains(u'e', Qt::CaseInsensitive), qPrintable(text));
        }
    QCOMPARE(model.index(DeltaTableModel::StepTime, DeltaTableModel::Delta).data().toString(),
             QLocale().toString(1.608e-6, 'f', 9).prepend(u'+'));
    QCOMPARE(model.index(DeltaTableModel::Wait, DeltaTableModel::Delta).data().toString(),
             QLocale().toString(0));
}

void TestItemModels::deltaMissingSides()
{
    DeltaTableModel model;
    const QString dash = QStringLiteral("—");
    const auto a = test::amdahlResult({1, 2}, 0.1, 8);
    model.setResults(a, nullptr);
    for (int r = 0; r < model.rowCount(); ++r) {
        QVERIFY(model.index(r, DeltaTableModel::A).data().toString() != dash);
        QCOMPARE(model.index(r, DeltaTableModel::B).data().toString(), dash);
        QCOMPARE(model.index(r, DeltaTableModel::Delta).data().toString(), dash);
        QCOMPARE(model.index(r, DeltaTableModel::DeltaPercent).data().toString(), dash);
        QVERIFY(!model.index(r, DeltaTableModel::B).data(DeltaTableModel::RawValueRole).isValid());
        QCOMPARE(
            model.index(r, DeltaTableModel::Delta).data(DeltaTableModel::ComparisonRole).toInt(),
            0);
        QVERIFY(!model.index(r, DeltaTableModel::Delta).data(Qt::ForegroundRole).isValid());
    }
    model.setResults(test::errorResult(), a); // an invalid result counts as missing
    QCOMPARE(model.index(DeltaTableModel::StepTime, DeltaTableModel::A).data().toString(), dash);
    QVERIFY(model.index(DeltaTableModel::StepTime, DeltaTableModel::B).data().toString() != dash);
    // Δ % of a zero A is undefined.
    auto zero = test::amdahlResult({1, 2}, 0.1, 8);
    editEvaluation(*zero).step.summary.breakdown.wait = 0;
    model.setResults(zero, a);
    QCOMPARE(model.index(DeltaTableModel::Wait, DeltaTableModel::DeltaPercent).data().toString(),
             dash);
    QVERIFY(model.index(DeltaTableModel::Wait, DeltaTableModel::Delta).data().toString() != dash);
}

void TestItemModels::deltaBetterWorse_data()
{
    QTest::addColumn<int>("metric");
    QTest::addColumn<int>("expected"); // 8 -> 16 GPUs of an Amdahl workload
    QTest::newRow("shorter step is better") << int(DeltaTableModel::StepTime) << 1;
    QTest::newRow("more throughput is better") << int(DeltaTableModel::Throughput) << 1;
    QTest::newRow("more speed-up is better") << int(DeltaTableModel::Speedup) << 1;
    QTest::newRow("less efficiency is worse") << int(DeltaTableModel::Efficiency) << -1;
    QTest::newRow("less MFU is worse") << int(DeltaTableModel::Mfu) << -1;
    QTest::newRow("less compute is better") << int(DeltaTableModel::Compute) << 1;
    QTest::newRow("equal exposed comm") << int(DeltaTableModel::CommunicationExposed) << 0;
    QTest::newRow("less memory is better") << int(DeltaTableModel::MemoryPerGpu) << 1;
}

void TestItemModels::deltaBetterWorse()
{
    QFETCH(int, metric);
    QFETCH(int, expected);
    DeltaTableModel model;
    model.setResults(test::amdahlResult({1, 2}, 0.1, 8), test::amdahlResult({1, 2}, 0.1, 16));
    for (int column : {int(DeltaTableModel::Delta), int(DeltaTableModel::DeltaPercent)}) {
        const QModelIndex index = model.index(metric, column);
        QCOMPARE(index.data(DeltaTableModel::ComparisonRole).toInt(), expected);
        const QVariant brush = index.data(Qt::ForegroundRole);
        if (expected == 0)
            QVERIFY(!brush.isValid());
        else
            QCOMPARE(brush.value<QBrush>().color(),
                     expected > 0 ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xc6, 0x28, 0x28));
    }
    // The A and B columns are not coloured.
    QVERIFY(!model.index(metric, DeltaTableModel::A).data(Qt::ForegroundRole).isValid());
    // Swapping A and B flips the verdict.
    model.setResults(test::amdahlResult({1, 2}, 0.1, 16), test::amdahlResult({1, 2}, 0.1, 8));
    QCOMPARE(
        model.index(metric, DeltaTableModel::Delta).data(DeltaTableModel::ComparisonRole).toInt(),
        -expected);
}

QTEST_MAIN(TestItemModels)
#include "tst_item_models.moc"
