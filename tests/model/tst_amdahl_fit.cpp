// The Amdahl fit of a scaling sweep (issue 13, item 3): refused with too few points or an
// R-squared below the threshold, accepted on an Amdahl-shaped series with its serial
// fraction, never quoting a ceiling 1/s below the highest speed-up; and the memory of the
// one-GPU speed-up reference.
#include "analysis/format.h"
#include "analysis/scaling.h"
#include "testutil.h"

#include <QTest>

#include <cmath>
#include <vector>

using namespace scalescope;

namespace
{

std::vector<double> amdahlSeries(const std::vector<int> &gpus, double s)
{
    std::vector<double> out;
    for (int n : gpus)
        out.push_back(1.0 / (s + (1.0 - s) / n));
    return out;
}

} // namespace

class TestAmdahlFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rSquaredIsPrintedOnItsSideOfTheThreshold()
    {
        // "R² = 0.90 ..., below 0.90" was on screen for R² = 0.8951: a refused fit's R² is
        // printed with the decimals that keep it below the threshold it is compared with.
        QCOMPARE(decimalsApart(0.8951, kAmdahlMinRSquared, 2), 3);
        QCOMPARE(fixedText(0.8951, decimalsApart(0.8951, kAmdahlMinRSquared, 2)),
                 std::string("0.895"));
        QCOMPARE(decimalsApart(0.87, kAmdahlMinRSquared, 2), 2);
        QCOMPARE(decimalsApart(0.95, kAmdahlMinRSquared, 2), 2);
        QCOMPARE(decimalsApart(0.89999, kAmdahlMinRSquared, 2), 5);
        QCOMPARE(decimalsApart(0.9, kAmdahlMinRSquared, 2), 2); // equal: not below
        QCOMPARE(decimalsApart(0.8999999999, kAmdahlMinRSquared, 2), 6); // at most 6
    }
    void refusedWithTwoPoints()
    {
        // 1, 2 and 4 GPUs: only two points beyond one GPU, however Amdahl-shaped.
        const std::vector<int> gpus = {1, 2, 4};
        const AmdahlFit fit = fitAmdahl(gpus, amdahlSeries(gpus, 0.1));
        QCOMPARE(fit.status, AmdahlFitStatus::TooFewPoints);
        QVERIFY(!fit.valid);
        QCOMPARE(fit.points, 2);
        QCOMPARE(amdahlCeiling(fit, 0.0), 0.0);
    }

    void refusedBelowThreshold()
    {
        // The default scenario's strong-scaling sweep (GPT-2 1.5B, 2 x 4 RTX 4090, 25 GbE):
        // up to 4 GPUs, then slower. The old fit reported s = 33 % with R² = -1.59.
        const std::vector<int> gpus = {1, 2, 4, 8, 16};
        const std::vector<double> speedup = {1.0, 1.93, 2.84, 1.96, 2.09};
        const AmdahlFit fit = fitAmdahl(gpus, speedup);
        QCOMPARE(fit.status, AmdahlFitStatus::PoorFit);
        QVERIFY(!fit.valid);
        QVERIFY2(fit.r_squared < kAmdahlMinRSquared, qPrintable(QString::number(fit.r_squared)));
        QCOMPARE(fit.points, 4);
        QCOMPARE(amdahlCeiling(fit, 2.84), 0.0);
    }

    void refusedOnTheDefaultScenario()
    {
        // The same from the model itself: the default scenario's sweep is not Amdahl-shaped.
        Result<Scenario> s = loadScenarioFile(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json"),
            builtinCatalog());
        QVERIFY(s);
        Result<std::vector<SweepRow>> rows = sweep(s.value(), {1, 2, 4, 8, 16}, Scaling::Strong);
        QVERIFY(rows);
        std::vector<int> gpus;
        std::vector<double> speedup;
        for (const SweepRow &row : rows.value()) {
            gpus.push_back(row.gpus);
            speedup.push_back(row.summary.speedup);
        }
        const AmdahlFit fit = fitAmdahl(gpus, speedup);
        QVERIFY2(fit.status == AmdahlFitStatus::PoorFit,
                 qPrintable(QStringLiteral("R² %1").arg(fit.r_squared)));
    }

    void acceptedOnAmdahlShape_data()
    {
        QTest::addColumn<double>("serial");
        QTest::addColumn<double>("noise"); // alternating relative error of the speed-ups
        QTest::newRow("s = 1 %") << 0.01 << 0.0;
        QTest::newRow("s = 5 %") << 0.05 << 0.0;
        QTest::newRow("s = 20 %") << 0.2 << 0.0;
        QTest::newRow("s = 50 %") << 0.5 << 0.0;
        QTest::newRow("s = 5 %, 1 % noise") << 0.05 << 0.01;
        QTest::newRow("s = 20 %, 2 % noise") << 0.2 << 0.02;
    }
    void acceptedOnAmdahlShape()
    {
        QFETCH(double, serial);
        QFETCH(double, noise);
        const std::vector<int> gpus = {1, 2, 4, 8, 16, 32, 64};
        std::vector<double> speedup = amdahlSeries(gpus, serial);
        for (size_t i = 1; i < speedup.size(); ++i)
            speedup[i] *= 1.0 + (i % 2 ? noise : -noise);
        const AmdahlFit fit = fitAmdahl(gpus, speedup);
        QCOMPARE(fit.status, AmdahlFitStatus::Accepted);
        QVERIFY(fit.valid);
        QCOMPARE(fit.points, 6);
        QVERIFY(fit.r_squared >= kAmdahlMinRSquared);
        if (noise == 0) {
            QVERIFY2(std::abs(fit.serial_fraction - serial) < 1e-9,
                     qPrintable(QString::number(fit.serial_fraction, 'g', 12)));
            QVERIFY(fit.r_squared > 1 - 1e-12);
        } else {
            QVERIFY2(std::abs(fit.serial_fraction - serial) < 0.15 * serial,
                     qPrintable(QString::number(fit.serial_fraction, 'g', 12)));
        }
        // Least squares on the speed-ups: no other s does better.
        auto residuals = [&](double s) {
            double ss = 0;
            for (size_t i = 1; i < gpus.size(); ++i)
                ss += std::pow(speedup[i] - amdahlSpeedup(s, gpus[i]), 2);
            return ss;
        };
        const double best = residuals(fit.serial_fraction);
        for (double ds : {-1e-3, -1e-5, 1e-5, 1e-3})
            QVERIFY(best <= residuals(std::clamp(fit.serial_fraction + ds, 0.0, 1.0)) + 1e-15);
        const double ceiling = amdahlCeiling(fit, fit.max_speedup);
        QVERIFY(ceiling > 0);
        QCOMPARE(ceiling, 1.0 / fit.serial_fraction);
    }

    void ceilingNeverBelowHighestSpeedup_data()
    {
        QTest::addColumn<std::vector<double>>("speedup"); // at 1, 2, 4, 8, 16 GPUs
        QTest::newRow("amdahl 10 %") << amdahlSeries({1, 2, 4, 8, 16}, 0.1);
        QTest::newRow("saturating") << std::vector<double>{1, 1.95, 3.6, 5.6, 6.3};
        QTest::newRow("flat at the end") << std::vector<double>{1, 1.9, 3.4, 4.1, 4.2};
        QTest::newRow("knee") << std::vector<double>{1, 2.0, 3.9, 4.6, 4.7};
        QTest::newRow("falls") << std::vector<double>{1, 1.93, 2.84, 1.96, 2.09};
        QTest::newRow("linear") << std::vector<double>{1, 2, 4, 8, 16};
    }
    void ceilingNeverBelowHighestSpeedup()
    {
        QFETCH(std::vector<double>, speedup);
        const std::vector<int> gpus = {1, 2, 4, 8, 16};
        const AmdahlFit fit = fitAmdahl(gpus, speedup);
        double highest = 0;
        for (double x : speedup)
            highest = std::max(highest, x);
        // Against the fitted points, and against a plotted curve that goes higher.
        for (double plotted : {highest, highest * 1.5, 1e6}) {
            const double ceiling = amdahlCeiling(fit, plotted);
            QVERIFY2(ceiling == 0 || ceiling >= plotted,
                     qPrintable(QStringLiteral("ceiling %1 below %2").arg(ceiling).arg(plotted)));
        }
        QCOMPARE(amdahlCeiling(fit, 1e6), 0.0);
    }

    void ceilingBelowPlottedIsRefused()
    {
        // An accepted fit (s = 10 %, ceiling 10x) beside a plotted point at 12x: no ceiling.
        const std::vector<int> gpus = {1, 2, 4, 8, 16};
        const AmdahlFit fit = fitAmdahl(gpus, amdahlSeries(gpus, 0.1));
        QVERIFY(fit.valid);
        QVERIFY(std::abs(amdahlCeiling(fit, 6.4) - 10.0) < 1e-6);
        QCOMPARE(amdahlCeiling(fit, 12.0), 0.0);
    }

    void singleGpuReference_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("fits");
        QTest::newRow("Llama 2 7B, plain DP on A100 80GB")
            << QStringLiteral("claim08-a-ddp-out-of-memory.json") << false;
        QTest::newRow("GPT-2 1.5B on RTX 4090 24GB") << QStringLiteral("default.json") << false;
        QTest::newRow("small model") << QStringLiteral("claim14-small-model.json") << true;
    }
    void singleGpuReference()
    {
        QFETCH(QString, file);
        QFETCH(bool, fits);
        Result<Scenario> s = loadScenarioFile(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/") + file, builtinCatalog());
        QVERIFY(s);
        const auto ctx = test::contextFrom(s.value());
        const MemoryBreakdown m = singleGpuReferenceMemory(*ctx);
        QVERIFY(m.total > 0);
        QCOMPARE(m.capacity, ctx->memory_capacity_bytes);
        QCOMPARE(!exceedsCapacity(m), fits);
        // The same as the strong sweep's one-GPU row, where the sweep reaches one GPU.
        Result<std::vector<SweepRow>> row = sweep(s.value(), {1}, Scaling::Strong);
        if (row && !row.value().empty()) {
            const MemoryBreakdown &r = row.value().front().summary.memory;
            QVERIFY2(std::abs(r.total - m.total) < 1e-6 * m.total,
                     qPrintable(QStringLiteral("%1 vs %2").arg(r.total).arg(m.total)));
        }
    }
};

QTEST_GUILESS_MAIN(TestAmdahlFit)
#include "tst_amdahl_fit.moc"
