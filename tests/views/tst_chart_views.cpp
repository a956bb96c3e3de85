// GUI tests of the result views: series contents, toggles, messages, the speed-up loss
// attribution, the cost report and its edits, the thermal chart, run-length arithmetic and
// exports (the cost arithmetic itself: tests/model/tst_economics_verdict.cpp). Results are
// built by hand (result_fixtures.h).
#include "charts/breakdown_view.h"
#include "charts/chart_common.h"
#include "charts/cost_view.h"
#include "charts/delta_table_model.h"
#include "charts/delta_view.h"
#include "charts/export.h"
#include "charts/memory_view.h"
#include "charts/run_cost.h"
#include "charts/scaling_view.h"
#include "charts/sweep_table_model.h"
#include "charts/thermal_view.h"
#include "io/report_io.h"
#include "model_text.h"
#include "palette.h"
#include "result_fixtures.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QSvgRenderer>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <limits>

#include "../support/no_room.h"
#include "../support/screenshot.h"

using namespace scalescope;
using scalescope::test::editEvaluation;

namespace
{

QXYSeries *seriesNamed(QChart *chart, const QString &object_name)
{
    const auto all = chart->series();
    for (QAbstractSeries *s : all)
        if (s->objectName() == object_name)
            return qobject_cast<QXYSeries *>(s);
    return nullptr;
}

/// True when the view shows its empty/error message (and not its data).
bool showsMessage(QWidget *view, QString *text = nullptr)
{
    auto *label = view->findChild<QLabel *>(QStringLiteral("emptyState"));
    auto *stack = view->findChild<QStackedWidget *>();
    if (!label || !stack)
        return false;
    if (text)
        *text = label->text();
    return stack->currentWidget() == label;
}

const std::vector<int> kCounts = {1, 2, 4, 8, 16, 32, 64};
constexpr double kSerial = 0.05;

/// What a chart view shows of its axes: the visible tick labels left of the plot and below
/// it, and every visible text Qt Charts elided (tick labels, axis and chart titles).
struct ShownLabels {
    QStringList left, bottom, elided;
};

ShownLabels shownLabels(QChartView *view)
{
    ShownLabels out;
    const QRectF plot = view->chart()->mapRectToScene(view->chart()->plotArea());
    static const QRegularExpression number(QStringLiteral("^-?[0-9][0-9.,e+]*$"));
    const auto items = view->scene()->items();
    for (QGraphicsItem *item : items) {
        auto *text = qgraphicsitem_cast<QGraphicsTextItem *>(item);
        if (text == nullptr || !text->isVisible())
            continue;
        const QString plain = text->toPlainText().trimmed(); // labels may end in a space
        if (plain.contains(QStringLiteral("...")) || plain.contains(QChar(0x2026)))
            out.elided << plain;
        if (!number.match(plain).hasMatch())
            continue;
        const QPointF centre = text->sceneBoundingRect().center();
        if (centre.x() < plot.left())
            out.left << plain;
        else if (centre.y() > plot.bottom())
            out.bottom << plain;
    }
    return out;
}

/// Shows `view` at `size` and lets its charts settle (a plot area that changes size refits
/// the axes, which lays the chart out again).
void showAt(QWidget *view, QSize size)
{
    view->resize(size);
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view));
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(10);
    }
}

} // namespace

class TestChartViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();

    void scalingSeries();
    void scalingWeakShowsGustafson();
    void scalingModeToggleEmits();
    void scalingEmptyAndError();
    void scalingFontsFollowWidget();
    void currentRunThatDoesNotFitIsMarked();
    void sweepPointsSayHowTheyWereComputed();
    void logAxesSayLogAtAnySize();
    void chineseAxisTitlesBesideOneDigitLabels();
    void lossBarsSumToGpus();
    void lossBarsUseResultAttribution();

    void breakdownBars();
    void breakdownWhatIf();
    void breakdownPercentToggle();
    void breakdownEmpty();

    void memoryFits();
    void memoryOverCapacity();
    void memoryEmpty();

    void axisLabelsFitAnySize_data();
    void axisLabelsFitAnySize();

    void stepsForTokens_data();
    void stepsForTokens();
    void formatRunDuration_data();
    void formatRunDuration();
    void costViewOutputs();
    void costViewTokens();
    void tokensCountInChineseUnits();
    void costSpinBoxesDropTrailingZeros();
    void costOnOneGpuIsSingular();
    void costReportComputed();
    void costReportKnownVerdict();
    void costSetResultEmitsNothing();
    void costSpinEditEmitsOnce_data();
    void costSpinEditEmitsOnce();
    void costWorkKindEmits();
    void costAddSectionEmits();

    void thermalCurvesPerGpu();
    void thermalHottestAndCoolest();
    void thermalHiddenWithoutEffect();

    void deltaViewStates();

    void exportPng();
    void exportSvg();
    void exportCsv();
    void exportRejects();
    void exportOnAFullDiskKeepsTheFile();
};

void TestChartViews::initTestCase()
{
    QLocale::setDefault(QLocale::c());
}

void TestChartViews::scalingSeries()
{
    ScalingView view;
    QCOMPARE(view.objectName(), QStringLiteral("scalingView"));
    const auto result = test::amdahlResult(kCounts, kSerial, 8);
    QVERIFY(result->amdahl().valid);
    QVERIFY(qAbs(result->amdahl().serial_fraction - kSerial) < 1e-9);
    view.setResult(result);
    QVERIFY(!showsMessage(&view));

    QXYSeries *speedup = seriesNamed(view.speedupChart(), QStringLiteral("speedup"));
    QVERIFY(speedup);
    QCOMPARE(speedup->count(), int(kCounts.size()));
    for (int i = 0; i < speedup->count(); ++i) {
        QCOMPARE(speedup->at(i).x(), double(kCounts[size_t(i)]));
        QCOMPARE(speedup->at(i).y(), result->sweep()[size_t(i)].summary.speedup);
    }
    // Every row was simulated: filled points on each, no closed-form mark.
    QXYSeries *simulated = seriesNamed(view.speedupChart(), QStringLiteral("speedupSimulated"));
    QVERIFY(simulated);
    QCOMPARE(simulated->points(), speedup->points());
    QCOMPARE(seriesNamed(view.speedupChart(), QStringLiteral("speedupClosedForm"))->count(), 0);

    QXYSeries *ideal = seriesNamed(view.speedupChart(), QStringLiteral("idealSpeedup"));
    QVERIFY(ideal);
    QCOMPARE(ideal->count(), int(kCounts.size()));
    for (const QPointF &p : ideal->points())
        QCOMPARE(p.y(), p.x());

    QXYSeries *amdahl = seriesNamed(view.speedupChart(), QStringLiteral("amdahlFit"));
    QVERIFY(amdahl);
    QVERIFY(amdahl->isVisible());
    QVERIFY(amdahl->count() >= int(kCounts.size()));
    QCOMPARE(amdahl->at(0).x(), 1.0);
    QCOMPARE(amdahl->at(amdahl->count() - 1).x(), 64.0);
    for (const QPointF &p : amdahl->points())
        QVERIFY2(qAbs(p.y() - 1.0 / (kSerial + (1.0 - kSerial) / p.x())) < 1e-9,
                 qPrintable(QString::number(p.x())));
    QCOMPARE(amdahl->name(), QStringLiteral("Amdahl fit: s = 5.0 %"));
    auto *fit_label = view.findChild<QLabel *>(QStringLiteral("amdahlLabel"));
    QVERIFY(fit_label);
    QVERIFY2(fit_label->text().contains(QStringLiteral("5.0 %")), qPrintable(fit_label->text()));
    QVERIFY(fit_label->text().contains(QStringLiteral("20.0×"))); // 1/s

    QXYSeries *gustafson = seriesNamed(view.speedupChart(), QStringLiteral("gustafson"));
    QVERIFY(gustafson);
    QVERIFY(!gustafson->isVisible()); // strong scaling

    QXYSeries *current = seriesNamed(view.speedupChart(), QStringLiteral("currentSpeedup"));
    QVERIFY(current);
    QCOMPARE(current->count(), 1);
    QCOMPARE(current->at(0), QPointF(8, result->summary().speedup));

    QXYSeries *efficiency = seriesNamed(view.efficiencyChart(), QStringLiteral("efficiency"));
    QVERIFY(efficiency);
    QCOMPARE(efficiency->count(), int(kCounts.size()));
    QCOMPARE(efficiency->at(0).y(), 100.0);
    QVERIFY(qAbs(efficiency->at(6).y() - result->sweep()[6].summary.scaling_efficiency * 100.0) <
            1e-12);
    // Efficiency axis: 0 to 100 % in round steps.
    auto *efficiency_axis =
        qobject_cast<QValueAxis *>(view.efficiencyChart()->axes(Qt::Vertical, efficiency).value(0));
    QVERIFY(efficiency_axis);
    QCOMPARE(efficiency_axis->min(), 0.0);
    QCOMPARE(efficiency_axis->max(), 120.0); // 100 % * 1.02 rounded up to the 20 % tick
    QCOMPARE(efficiency_axis->tickInterval(), 20.0);
    QXYSeries *ideal_efficiency =
        seriesNamed(view.efficiencyChart(), QStringLiteral("idealEfficiency"));
    QVERIFY(ideal_efficiency);
    for (const QPointF &p : ideal_efficiency->points())
        QCOMPARE(p.y(), 100.0);

    // A second result replaces the points (no stale rows).
    view.setResult(test::amdahlResult({1, 2, 4, 8}, 0.2, 4));
    QCOMPARE(speedup->count(), 4);
    QCOMPARE(amdahl->at(amdahl->count() - 1).x(), 8.0);
}

void TestChartViews::scalingWeakShowsGustafson()
{
    ScalingView view;
    // Issue 26: Gustafson's line was drawn and quoted without R² or the gate Amdahl's fit
    // passes. An Amdahl-shaped sweep is not Gustafson-shaped: no line, and the text says why.
    const auto amdahl_shaped = test::amdahlResult(kCounts, kSerial, 16, Scaling::Weak);
    view.setResult(amdahl_shaped);
    auto *mode = view.findChild<QComboBox *>(QStringLiteral("scalingMode"));
    QVERIFY(mode);
    QCOMPARE(view.scalingMode(), Scaling::Weak);
    QXYSeries *gustafson = seriesNamed(view.speedupChart(), QStringLiteral("gustafson"));
    QVERIFY(!gustafson->isVisible());
    QString fit = view.findChild<QLabel *>(QStringLiteral("amdahlLabel"))->text();
    QVERIFY2(fit.contains(QStringLiteral("No Gustafson fit: Gustafson's law does not describe "
                                         "this curve")),
             qPrintable(fit));
    QVERIFY(fit.contains(QStringLiteral("over 6 points, below 0.90")));
    QVERIFY(fit.contains(QStringLiteral("Amdahl fit: serial fraction s = 5.0 %")));

    // A Gustafson-shaped sweep (scaled speed-up N - s (N - 1)): drawn, with its R².
    const double gs = 0.08;
    auto result = test::amdahlResult(kCounts, kSerial, 16, Scaling::Weak);
    for (SweepRow &row : editEvaluation(*result).sweep)
        row.summary.speedup = row.gpus - gs * (row.gpus - 1);
    view.setResult(result);
    QVERIFY(gustafson->isVisible());
    QVERIFY(gustafson->count() >= int(kCounts.size()));
    for (const QPointF &p : gustafson->points())
        QVERIFY(qAbs(p.y() - (p.x() - gs * (p.x() - 1))) < 1e-9);
    const QString s_text = QLocale().toString(gs * 100.0, 'f', 1);
    QCOMPARE(gustafson->name(), QStringLiteral("Gustafson: s = %1 %").arg(s_text));
    fit = view.findChild<QLabel *>(QStringLiteral("amdahlLabel"))->text();
    QVERIFY2(fit.contains(QStringLiteral("Gustafson serial fraction s = %1 %").arg(s_text)),
             qPrintable(fit));
    QVERIFY2(fit.contains(QStringLiteral("R² = 1.000 over 6 points")), qPrintable(fit));
    QCOMPARE(seriesNamed(view.speedupChart(), QStringLiteral("currentSpeedup"))->name(),
             QStringLiteral("N = 16"));
    // The Scaling tab alone, at the windows' sizes; in Chinese too.
    view.show();
    QVERIFY(screenshot::saveBothSizes(view, QStringLiteral("scaling-weak-gustafson-view")));
    if (screenshot::wanted()) {
        screenshot::Chinese chinese(QStringLiteral(SCALESCOPE_ZH_QM));
        QVERIFY(chinese.loaded());
        ScalingView zh;
        zh.setResult(result);
        zh.show();
        QVERIFY(screenshot::save(zh, QStringLiteral("scaling-weak-gustafson-view"),
                                 QSize(1280, 720), QStringLiteral("zh_CN")));
    }
    view.hide();
    // Strong scaling: no Gustafson fraction in the text.
    view.setResult(test::amdahlResult(kCounts, kSerial, 16, Scaling::Strong));
    QVERIFY(!view.findChild<QLabel *>(QStringLiteral("amdahlLabel"))
                 ->text()
                 .contains(QStringLiteral("Gustafson")));
    QVERIFY(!gustafson->isVisible());
}

void TestChartViews::scalingModeToggleEmits()
{
    ScalingView view;
    QSignalSpy spy(&view, &ScalingView::scalingModeChanged);
    view.setResult(test::amdahlResult(kCounts, kSerial, 8, Scaling::Strong));
    QCOMPARE(spy.count(), 0);
    auto *mode = view.findChild<QComboBox *>(QStringLiteral("scalingMode"));
    QVERIFY(mode);
    mode->setCurrentIndex(mode->findData(int(Scaling::Weak)));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<Scaling>(), Scaling::Weak);
    // The app answers with a weak result: the selector follows without a second signal.
    view.setResult(test::amdahlResult(kCounts, kSerial, 8, Scaling::Weak));
    QCOMPARE(spy.count(), 1);
    // Keyboard: back to strong.
    mode->setFocus();
    QTest::keyClick(mode, Qt::Key_Up);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).value<Scaling>(), Scaling::Strong);
}

void TestChartViews::scalingEmptyAndError()
{
    ScalingView view;
    QString text;
    QVERIFY(showsMessage(&view, &text));
    QVERIFY(!text.isEmpty());
    view.setResult(test::amdahlResult(kCounts, kSerial, 8));
    QVERIFY(!showsMessage(&view));
    view.setResult(test::errorResult());
    QVERIFY(showsMessage(&view, &text));
    QVERIFY2(text.contains(QStringLiteral("tensor = 3 does not divide heads = 32")),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("parallel.tensor")));
    QCOMPARE(seriesNamed(view.speedupChart(), QStringLiteral("speedup"))->count(), 0);
    view.setResult(nullptr);
    QVERIFY(showsMessage(&view));
    // A valid result without a sweep says so instead of drawing empty axes.
    auto no_sweep = test::amdahlResult({}, kSerial, 8);
    view.setResult(no_sweep);
    QVERIFY(showsMessage(&view, &text));
    QVERIFY(text.contains(QStringLiteral("sweep")));
}

void TestChartViews::scalingFontsFollowWidget()
{
    ScalingView view;
    QFont big = view.font();
    big.setPointSizeF(23);
    view.setFont(big);
    QCOMPARE(view.speedupChart()->titleFont().pointSizeF(), 23.0);
    QCOMPARE(view.efficiencyChart()->legend()->font().pointSizeF(), 23.0);
    const auto axes = view.speedupChart()->axes();
    QVERIFY(!axes.isEmpty());
    for (QAbstractAxis *axis : axes)
        QCOMPARE(axis->titleFont().pointSizeF(), 23.0);
}

void TestChartViews::currentRunThatDoesNotFitIsMarked()
{
    // Issue 26: a current run that does not fit was drawn as if it ran (a black ring above
    // the ideal line, no out-of-memory mark); it is drawn as the sweep points that do not fit.
    ScalingView view;
    auto result = test::amdahlResult({1, 2, 4}, kSerial, 8); // 8 is not a swept count
    view.setResult(result);
    QXYSeries *oom = seriesNamed(view.speedupChart(), QStringLiteral("speedupOutOfMemory"));
    auto *current = qobject_cast<QScatterSeries *>(
        seriesNamed(view.speedupChart(), QStringLiteral("currentSpeedup")));
    QVERIFY(oom && current);
    QCOMPARE(oom->count(), 0);
    QCOMPARE(current->pen().color(), QColor(Qt::black));
    MemoryBreakdown &m = editEvaluation(*result).step.summary.memory;
    m.total = 2 * m.capacity;
    view.setResult(result);
    QCOMPARE(oom->count(), 1);
    QCOMPARE(oom->at(0).x(), 8.0);
    QCOMPARE(oom->at(0), current->at(0));
    QVERIFY(oom->isVisible());
    QCOMPARE(current->pen().color(), QColor(0xc6, 0x28, 0x28));
    QXYSeries *efficiency_oom =
        seriesNamed(view.efficiencyChart(), QStringLiteral("efficiencyOutOfMemory"));
    QCOMPARE(efficiency_oom->count(), 1);
    QCOMPARE(oom->name(), QStringLiteral("Does not fit in memory"));
    // Over by less than the model's memory error it may run: the legend says "may not fit".
    m.total = 1.05 * m.capacity;
    view.setResult(result);
    QCOMPARE(oom->count(), 1);
    QCOMPARE(oom->name(), QStringLiteral("May not fit in memory"));
    QCOMPARE(efficiency_oom->name(), oom->name());
}

void TestChartViews::sweepPointsSayHowTheyWereComputed()
{
    // Issue 26: the closed-form points were hollow squares over the line's own filled points,
    // whose legend entry ("Simulated") covered both, and the text legend drew every entry as
    // a filled square (the closed form's a white one). Each kind of point has its own series
    // and a legend entry in its own shape.
    ScalingView view;
    auto result = test::amdahlResult(kCounts, kSerial, 8);
    for (SweepRow &row : editEvaluation(*result).sweep)
        row.closed_form = row.gpus >= 32;
    view.setResult(result);
    showAt(&view, QSize(1200, 700));
    for (const QString &prefix : {QStringLiteral("speedup"), QStringLiteral("efficiency")}) {
        auto *chart = view.findChild<QChartView *>(prefix + QStringLiteral("Chart"));
        QVERIFY(chart);
        QXYSeries *line = seriesNamed(chart->chart(), prefix);
        QXYSeries *simulated = seriesNamed(chart->chart(), prefix + QStringLiteral("Simulated"));
        QXYSeries *closed = seriesNamed(chart->chart(), prefix + QStringLiteral("ClosedForm"));
        QVERIFY(line && simulated && closed);
        QVERIFY(!line->pointsVisible());
        QCOMPARE(simulated->count(), 5);
        QCOMPARE(closed->count(), 2);
        QCOMPARE(closed->at(0).x(), 32.0);
        QCOMPARE(simulated->at(4).x(), 16.0);
        QVERIFY(simulated->isVisible() && closed->isVisible());
        QCOMPARE(simulated->name(), QStringLiteral("Simulated by the engine"));
        auto *legend = chart->parentWidget()->findChild<QLabel *>(QStringLiteral("chartLegend"));
        QVERIFY(legend);
        const QString html = legend->text();
        // A filled circle names the engine's points, a hollow square the closed form's.
        QVERIFY2(html.contains(
                     QStringLiteral("&#9679;</span>&nbsp;Simulated&nbsp;by&nbsp;the&nbsp;engine")),
                 qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("&#9633;</span>&nbsp;Closed&nbsp;form")),
                 qPrintable(html));
    }
}

void TestChartViews::logAxesSayLogAtAnySize()
{
    // Issue 26: where the long axis title did not fit, the short one ("Speed-up (×)", "GPUs")
    // dropped the log scale. Whatever title an axis shows names it.
    ScalingView view;
    view.setResult(test::amdahlResult(kCounts, kSerial, 8));
    int shown = 0;
    for (QSize size : {QSize(640, 420), QSize(820, 520), QSize(1000, 560), QSize(1280, 720)}) {
        showAt(&view, size);
        for (QChart *chart : {view.speedupChart(), view.efficiencyChart()})
            for (QAbstractAxis *axis : chart->axes()) {
                if (!qobject_cast<QLogValueAxis *>(axis) || !axis->isTitleVisible())
                    continue;
                ++shown;
                QVERIFY2(axis->titleText().contains(QStringLiteral("log")),
                         qPrintable(axis->titleText()));
            }
    }
    QVERIFY(shown > 0);
}

void TestChartViews::chineseAxisTitlesBesideOneDigitLabels()
{
    // Issue 26 (slides 22-24): beside ticks of one digit ("1", "2", "4") a Chinese axis title,
    // whose CJK line is taller than a Latin one, was drawn as a vertical "...".
    ScalingView view;
    view.setResult(test::amdahlResult({1, 2, 4}, kSerial, 4));
    for (QChart *chart : {view.speedupChart(), view.lossChart()})
        for (QAbstractAxis *axis : chart->axes(Qt::Vertical))
            axis->setTitleText(QStringLiteral("加速比（×，对数刻度）"));
    for (QSize size : {QSize(1280, 520), QSize(1900, 800)}) {
        showAt(&view, size);
        for (const char *name : {"speedupChart", "speedupLossChart"}) {
            auto *chart = view.findChild<QChartView *>(QLatin1String(name));
            QVERIFY(chart);
            const ShownLabels shown = shownLabels(chart);
            QVERIFY2(shown.elided.isEmpty(), qPrintable(QStringLiteral("%1: %2").arg(
                                                 QLatin1String(name), shown.elided.join(' '))));
        }
    }
}

void TestChartViews::lossBarsSumToGpus()
{
    ScalingView view;
    auto result = test::amdahlResult({8, 1, 4, 2, 16}, kSerial, 8); // unsorted on purpose
    editEvaluation(*result).attribution = attributeSpeedupLoss(result->sweep());
    view.setResult(result);
    QCOMPARE(view.lossChart()->title(), QStringLiteral("Where the missing speed-up went"));
    const std::vector<int> sorted = {1, 2, 4, 8, 16};
    QBarSet *achieved = view.achievedSet();
    QCOMPARE(achieved->count(), int(sorted.size()));
    for (int i = 0; i < kSpeedupLossCount; ++i)
        QCOMPARE(view.lossSet(SpeedupLoss(i))->count(), int(sorted.size()));
    for (size_t row = 0; row < sorted.size(); ++row) {
        const int gpus = sorted[row];
        QCOMPARE(achieved->at(int(row)), test::amdahlRow(gpus, kSerial).summary.speedup);
        double total = achieved->at(int(row));
        for (int i = 0; i < kSpeedupLossCount; ++i)
            total += view.lossSet(SpeedupLoss(i))->at(int(row));
        QVERIFY2(qAbs(total - gpus) < 1e-9 * gpus,
                 qPrintable(QStringLiteral("%1 GPUs: bar reaches %2").arg(gpus).arg(total)));
        // The serial part of the fixture is exposed DP communication: s x N / step GPUs.
        const Summary m = test::amdahlRow(gpus, kSerial).summary;
        QVERIFY(qAbs(view.lossSet(SpeedupLoss::DpComm)->at(int(row)) -
                     gpus * kSerial / m.step_time_s) < 1e-9);
    }
    // Colours follow the timeline palette where a kind matches.
    QCOMPARE(view.lossSet(SpeedupLoss::DpComm)->color(), kindColor(SegmentKind::DpComm));
    QCOMPARE(view.lossSet(SpeedupLoss::TpComm)->color(), kindColor(SegmentKind::TpComm));
    QCOMPARE(view.lossSet(SpeedupLoss::Bubble)->color(), kindColor(SegmentKind::Bubble));
    QCOMPARE(view.lossSet(SpeedupLoss::PointToPoint)->color(), kindColor(SegmentKind::PpComm));
    QCOMPARE(view.lossSet(SpeedupLoss::Sync)->color(), kindColor(SegmentKind::Wait));
    QCOMPARE(view.lossSet(SpeedupLoss::DataLoading)->color(), kindColor(SegmentKind::DataLoad));
    QCOMPARE(view.lossSet(SpeedupLoss::Optimizer)->color(), kindColor(SegmentKind::Optimizer));
    QCOMPARE(achieved->color(), kindColor(SegmentKind::Compute));
    QCOMPARE(view.lossSet(SpeedupLoss::Sync)->label(), QStringLiteral("Stragglers and jitter"));
    // An error empties the bars.
    view.setResult(test::errorResult());
    QCOMPARE(achieved->count(), 0);
    QCOMPARE(view.lossSet(SpeedupLoss::DpComm)->count(), 0);
}

void TestChartViews::lossBarsUseResultAttribution()
{
    // The view draws the result's attribution (the worker's), not its own recomputation.
    ScalingView view;
    auto result = test::amdahlResult({1, 4}, kSerial, 4);
    SpeedupAttribution one;
    one.gpus = 1;
    one.speedup = 1;
    SpeedupAttribution four;
    four.gpus = 4;
    four.speedup = 2.5;
    four.loss_gpus[size_t(SpeedupLoss::TpComm)] = 0.75;
    four.loss_gpus[size_t(SpeedupLoss::Sync)] = 0.5;
    four.loss_gpus[size_t(SpeedupLoss::Compute)] = 0.25;
    editEvaluation(*result).attribution = {four, one}; // any order
    view.setResult(result);
    QCOMPARE(view.achievedSet()->count(), 2);
    QCOMPARE(view.achievedSet()->at(0), 1.0);
    QCOMPARE(view.achievedSet()->at(1), 2.5);
    QCOMPARE(view.lossSet(SpeedupLoss::TpComm)->at(1), 0.75);
    QCOMPARE(view.lossSet(SpeedupLoss::Sync)->at(1), 0.5);
    QCOMPARE(view.lossSet(SpeedupLoss::Compute)->at(1), 0.25);
    QCOMPARE(view.lossSet(SpeedupLoss::DpComm)->at(1), 0.0);
    auto *axis = qobject_cast<QValueAxis *>(view.lossChart()->axes(Qt::Vertical).value(0));
    QVERIFY(axis);
    QVERIFY(axis->max() >= 4.0);
    // The legends are wrapping text under the charts (the charts' own would elide): the
    // loss chart lists only the causes that cost something.
    QString loss_legend;
    bool speedup_legend = false;
    for (const QLabel *label : view.findChildren<QLabel *>(QStringLiteral("chartLegend"))) {
        if (label->text().contains(speedupLossLabel(SpeedupLoss::TpComm)
                                       .toHtmlEscaped()
                                       .replace(QLatin1Char(' '), QStringLiteral("&nbsp;"))))
            loss_legend = label->text();
        speedup_legend = speedup_legend || label->text().contains(QStringLiteral("Ideal"));
    }
    QVERIFY(speedup_legend);
    QVERIFY2(!loss_legend.isEmpty(), "no legend lists TP communication");
    QVERIFY(loss_legend.contains(QStringLiteral("Achieved")));
    QVERIFY(!loss_legend.contains(speedupLossLabel(SpeedupLoss::DpComm)
                                      .toHtmlEscaped()
                                      .replace(QLatin1Char(' '), QStringLiteral("&nbsp;"))));
}

void TestChartViews::breakdownBars()
{
    BreakdownView view;
    const auto result = test::amdahlResult({8, 1, 4, 2}, kSerial, 4); // unsorted on purpose
    view.setResult(result);
    QVERIFY(!showsMessage(&view));
    QCOMPARE(view.unit(), BreakdownView::Unit::SecondsPerStep);
    const std::vector<int> sorted = {1, 2, 4, 8};
    for (int part = 0; part < kBreakdownPartCount; ++part) {
        QBarSet *set = view.barSet(part);
        QCOMPARE(set->label(), breakdownName(BreakdownPart(part)));
        QCOMPARE(set->color(), breakdownColor(BreakdownPart(part)));
        QCOMPARE(set->count(), 4);
    }
    for (int i = 0; i < 4; ++i) {
        const Breakdown b = test::amdahlRow(sorted[size_t(i)], kSerial).summary.breakdown;
        QCOMPARE(view.barSet(int(BreakdownPart::Compute))->at(i), b.compute);
        QCOMPARE(view.barSet(int(BreakdownPart::DpCommunication))->at(i),
                 b.communication_exposed - b.tp_comm - b.pp_exposed);
        QCOMPARE(view.barSet(int(BreakdownPart::TpCommunication))->at(i), b.tp_comm);
        QCOMPARE(view.barSet(int(BreakdownPart::PpCommunication))->at(i), b.pp_exposed);
        QCOMPARE(view.barSet(int(BreakdownPart::PipelineBubble))->at(i), b.pipeline_bubble);
        QCOMPARE(view.barSet(int(BreakdownPart::Wait))->at(i), b.wait);
        QCOMPARE(view.barSet(int(BreakdownPart::DataLoading))->at(i), b.data_loading);
        QCOMPARE(view.barSet(int(BreakdownPart::ExpertCommunication))->at(i), b.ep_comm);
        QCOMPARE(view.barSet(int(BreakdownPart::ContextCommunication))->at(i), b.cp_comm);
    }
    // Exposed communication by parallelism in the timeline's colours; the legend wraps
    // below the bars and lists only the parts this sweep has (no tensor parallelism here).
    QCOMPARE(breakdownColor(BreakdownPart::TpCommunication), kindColor(SegmentKind::TpComm));
    QCOMPARE(breakdownColor(BreakdownPart::DpCommunication), kindColor(SegmentKind::DpComm));
    QCOMPARE(breakdownColor(BreakdownPart::PpCommunication), kindColor(SegmentKind::PpComm));
    auto *legend = view.findChild<QLabel *>(QStringLiteral("chartLegend"));
    QVERIFY(legend);
    QVERIFY(legend->text().contains(QStringLiteral("Compute")));
    QVERIFY(!legend->text().contains(QStringLiteral("Tensor-parallel")));
    QCOMPARE(view.tableModel()->rowCount(), 4);
    auto *table = view.findChild<QTableView *>(QStringLiteral("sweepTable"));
    QVERIFY(table);
    // The table is sorted by GPU count through its proxy.
    QCOMPARE(table->model()->index(0, SweepTableModel::Gpus).data().toString(),
             QStringLiteral("1"));
    QCOMPARE(table->model()->index(3, SweepTableModel::Gpus).data().toString(),
             QStringLiteral("8"));
    QCOMPARE(view.gpuAxis()->categories(), (QStringList{"1", "2", "4", "8"}));
    QCOMPARE(view.gpuAxis()->titleText(), QStringLiteral("GPUs"));
    // Out of memory is marked ✗; over by less than the model's memory error (it may run),
    // marked ? and said so, not called out of memory.
    auto marked = test::amdahlResult({1, 2, 4}, kSerial, 4);
    auto &sweep = test::editEvaluation(*marked).sweep;
    sweep[0].summary.memory.total = 1.5 * sweep[0].summary.memory.capacity;
    sweep[1].summary.memory.total = 1.05 * sweep[1].summary.memory.capacity;
    view.setResult(marked);
    QCOMPARE(view.gpuAxis()->categories(), (QStringList{"1 ✗", "2 ?", "4"}));
    QCOMPARE(view.gpuAxis()->titleText(),
             QStringLiteral("GPUs (✗: out of memory; ?: may not fit, within the model's memory "
                            "error)"));
    sweep[0].summary.memory.total = sweep[0].summary.memory.capacity;
    view.setResult(marked);
    QCOMPARE(view.gpuAxis()->titleText(),
             QStringLiteral("GPUs (?: may not fit, within the model's memory error)"));
}

void TestChartViews::breakdownWhatIf()
{
    // "What if this were free": one bar per cause, largest gain on top (horizontal bars
    // run from the bottom up), in seconds or as a share of the step; hidden without gains.
    BreakdownView view;
    view.resize(1200, 700);
    auto result = test::amdahlResult({1, 2, 4, 8}, kSerial, 4);
    auto *chart = view.findChild<QChartView *>(QStringLiteral("whatIfChart"));
    QVERIFY(chart);
    view.setResult(result);
    QVERIFY(chart->isHidden());
    QCOMPARE(view.whatIfSet()->count(), 0);
    const double step = result->summary().step_time_s;
    test::editEvaluation(*result).what_if = {{WhatIfCause::InterNodeNetwork, step - 0.3, 0.3},
                                             {WhatIfCause::HostOverhead, step - 0.1, 0.1},
                                             {WhatIfCause::SlowestGpu, step, 0.0}};
    view.setResult(result);
    QVERIFY(!chart->isHidden());
    QCOMPARE(view.whatIfSet()->count(), 3);
    QCOMPARE(view.whatIfCauses()->categories(),
             (QStringList{BreakdownView::causeName(WhatIfCause::SlowestGpu),
                          BreakdownView::causeName(WhatIfCause::HostOverhead),
                          BreakdownView::causeName(WhatIfCause::InterNodeNetwork)}));
    QCOMPARE(view.whatIfSet()->at(2), 0.3);
    QCOMPARE(view.whatIfSet()->at(1), 0.1);
    QCOMPARE(view.whatIfSet()->at(0), 0.0);
    QCOMPARE(view.whatIfChart()->title(), QStringLiteral("What if this were free"));
    view.setUnit(BreakdownView::Unit::PercentOfStep);
    QVERIFY(qAbs(view.whatIfSet()->at(2) - 0.3 / step * 100.0) < 1e-9);
    // Every cause has its own name.
    QSet<QString> names;
    for (int c = 0; c < kWhatIfCauseCount; ++c)
        names.insert(BreakdownView::causeName(WhatIfCause(c)));
    QCOMPARE(names.size(), kWhatIfCauseCount);
    QVERIFY(!names.contains(QString()));
    view.setResult(test::errorResult());
    QVERIFY(chart->isHidden());
}

void TestChartViews::breakdownPercentToggle()
{
    BreakdownView view;
    view.setResult(test::amdahlResult({1, 2, 4, 8}, kSerial, 4));
    auto *unit = view.findChild<QComboBox *>(QStringLiteral("breakdownUnit"));
    QVERIFY(unit);
    unit->setCurrentIndex(unit->findData(int(BreakdownView::Unit::PercentOfStep)));
    QCOMPARE(view.unit(), BreakdownView::Unit::PercentOfStep);
    for (int i = 0; i < 4; ++i) {
        double total = 0;
        for (int part = 0; part < kBreakdownPartCount; ++part)
            total += view.barSet(part)->at(i);
        QVERIFY2(qAbs(total - 100.0) < 1e-9, qPrintable(QString::number(total)));
    }
    const Summary s8 = test::amdahlRow(8, kSerial).summary;
    QVERIFY(qAbs(view.barSet(int(BreakdownPart::DpCommunication))->at(3) -
                 kSerial / s8.step_time_s * 100.0) < 1e-9);
}

void TestChartViews::breakdownEmpty()
{
    BreakdownView view;
    QVERIFY(showsMessage(&view));
    view.setResult(test::amdahlResult({1, 2}, kSerial, 2));
    QVERIFY(!showsMessage(&view));
    view.setResult(test::errorResult());
    QVERIFY(showsMessage(&view));
    QCOMPARE(view.barSet(0)->count(), 0);
    QCOMPARE(view.tableModel()->rowCount(), 0);
}

void TestChartViews::memoryFits()
{
    MemoryView view;
    auto result = test::amdahlResult({1, 2}, kSerial, 8); // 10 + 10 + 5 + 20 = 45 GiB of 80
    view.setResult(result);
    QVERIFY(!showsMessage(&view));
    QCOMPARE(view.barSet(MemoryView::Parameters)->at(0), 10.0);
    QCOMPARE(view.barSet(MemoryView::Gradients)->at(0), 10.0);
    QCOMPARE(view.barSet(MemoryView::OptimizerStates)->at(0), 5.0);
    QCOMPARE(view.barSet(MemoryView::Activations)->at(0), 20.0);
    QCOMPARE(view.capacityLine()->count(), 2);
    QCOMPARE(view.capacityLine()->at(0).x(), 80.0);
    QCOMPARE(view.capacityLine()->at(1).x(), 80.0);
    QVERIFY2(view.verdict().startsWith(QStringLiteral("Fits: 45 GiB of 80 GiB")),
             qPrintable(view.verdict()));
    QVERIFY(!view.verdict().contains(QStringLiteral("Does not fit")));
    // Issue 13 (1024 x 768): the legend wraps instead of eliding, and the values on the bar
    // show only where each part is wide enough for its text.
    auto *legend = view.findChild<QLabel *>(QStringLiteral("chartLegend"));
    QVERIFY(legend);
    QVERIFY(legend->text().contains(QStringLiteral("Optimizer&nbsp;states")));
    auto *bars =
        view.chart()->findChild<QHorizontalStackedBarSeries *>(QStringLiteral("memoryBars"));
    QVERIFY(bars);
    view.resize(1200, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(bars->isLabelsVisible());
    view.resize(260, 500);
    QCoreApplication::processEvents();
    QVERIFY(!bars->isLabelsVisible());
}

void TestChartViews::axisLabelsFitAnySize_data()
{
    // Issue 13 (1024 x 768 and smaller): however narrow or short a chart, its tick labels and
    // titles are whole (Qt Charts elides what has too little room to "..."), and each value
    // axis keeps at least three labelled ticks where three fit: the ticks adapt to the plot.
    QTest::addColumn<QString>("view");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("top_gpus");
    QTest::addColumn<bool>("three");
    for (const char *view : {"scaling", "breakdown", "memory"}) {
        const QString v = QLatin1String(view);
        QTest::addRow("%s at 1024x768", view) << v << QSize(640, 300) << 64 << true;
        QTest::addRow("%s narrow", view) << v << QSize(560, 330) << 64 << true;
        QTest::addRow("%s short", view) << v << QSize(900, 215) << 64 << true;
        QTest::addRow("%s tall", view) << v << QSize(1000, 700) << 64 << true;
        QTest::addRow("%s 1024 GPUs narrow", view) << v << QSize(560, 300) << 1024 << true;
        QTest::addRow("%s tiny", view) << v << QSize(300, 180) << 16 << false;
    }
}

void TestChartViews::axisLabelsFitAnySize()
{
    QFETCH(QString, view);
    QFETCH(QSize, size);
    QFETCH(int, top_gpus);
    QFETCH(bool, three);
    std::vector<int> counts;
    for (int n = 1; n <= top_gpus; n *= 2)
        counts.push_back(n);
    const auto result = test::amdahlResult(counts, kSerial, 8);
    std::unique_ptr<QWidget> widget;
    if (view == QLatin1String("scaling")) {
        auto *scaling = new ScalingView;
        scaling->setResult(result);
        widget.reset(scaling);
    } else if (view == QLatin1String("breakdown")) {
        auto *breakdown = new BreakdownView;
        breakdown->setResult(result);
        widget.reset(breakdown);
    } else {
        auto *memory = new MemoryView;
        memory->setResult(result);
        widget.reset(memory);
    }
    showAt(widget.get(), size);
    const auto views = widget->findChildren<QChartView *>();
    QVERIFY(!views.isEmpty());
    for (QChartView *chart_view : views) {
        if (!chart_view->isVisible())
            continue;
        const ShownLabels shown = shownLabels(chart_view);
        const QString what =
            QStringLiteral("%1 (%2 x %3): left [%4], bottom [%5]")
                .arg(chart_view->objectName())
                .arg(chart_view->width())
                .arg(chart_view->height())
                .arg(shown.left.join(QLatin1Char(' ')), shown.bottom.join(QLatin1Char(' ')));
        QVERIFY2(shown.elided.isEmpty(), qPrintable(what + QStringLiteral(", elided: ") +
                                                    shown.elided.join(QStringLiteral(" | "))));
        if (!three)
            continue;
        // The value axes: left in the scaling and breakdown charts, below in the memory chart
        // (and the GPU axes of the speed-up and efficiency charts).
        const QString name = chart_view->objectName();
        const bool left_values = name != QLatin1String("memoryChart");
        const bool bottom_values = name == QLatin1String("memoryChart") ||
                                   name == QLatin1String("speedupChart") ||
                                   name == QLatin1String("efficiencyChart");
        if (left_values)
            QVERIFY2(shown.left.size() >= 3, qPrintable(what));
        if (bottom_values)
            QVERIFY2(shown.bottom.size() >= 3, qPrintable(what));
    }
}

void TestChartViews::memoryOverCapacity()
{
    MemoryView view;
    auto result = test::amdahlResult({1, 2}, kSerial, 1);
    MemoryBreakdown &m = editEvaluation(*result).step.summary.memory;
    m.parameters = 14.1 * kBytesPerGiB;
    m.gradients = 28.2 * kBytesPerGiB;
    m.optimizer_states = 40 * kBytesPerGiB;
    m.activations = 11.8 * kBytesPerGiB;
    m.total = 94.1 * kBytesPerGiB;
    m.capacity = 80 * kBytesPerGiB;
    QVERIFY(!m.fits());
    view.setResult(result);
    QCOMPARE(view.verdict(), QStringLiteral("Does not fit: needs 94.1 GiB of 80 GiB — try ZeRO-3, "
                                            "tensor/pipeline parallelism or recompute"));
    auto *label = view.findChild<QLabel *>(QStringLiteral("memoryVerdict"));
    QVERIFY(label);
    QVERIFY(label->styleSheet().contains(QStringLiteral("#c62828")));
    QCOMPARE(view.capacityLine()->pen().color(), QColor(0xc6, 0x28, 0x28));
    QVERIFY(qAbs(view.barSet(MemoryView::OptimizerStates)->at(0) - 40.0) < 1e-9);
    // Pipeline: the most loaded stage is named.
    result->scenario.parallel.pipeline = 4;
    m.stage = 0;
    view.setResult(result);
    auto *details = view.findChild<QLabel *>(QStringLiteral("memoryDetails"));
    QVERIFY(details->text().contains(QStringLiteral("stage 0")));
    // The capacity of a catalog GPU is what a process can allocate: said, with the card's.
    QVERIFY(!details->text().contains(QStringLiteral("of the card's")));
    result->scenario.hardware.gpu.memory_gb = 80;
    m.capacity = result->scenario.hardware.gpu.usableMemoryBytes();
    view.setResult(result);
    QVERIFY2(details->text().contains(QStringLiteral("of the card's 80 GiB")),
             qPrintable(details->text()));
    QVERIFY(view.capacityLine()->name().contains(QStringLiteral("78.6 GiB")));
    // At the capacity with the allocator's cache cut short (NeMo's Nemotron-4 340B): the
    // tensors' share is said, not "0 GiB free".
    m.total = m.capacity;
    m.allocator_reserve = 2.0 * kBytesPerGiB;
    m.reserve_limited = true;
    QVERIFY(m.fits());
    view.setResult(result);
    // 2.5% to spare is less than the model's own memory error (analysis/memory.h): said.
    QCOMPARE(view.verdict(), QStringLiteral("Fits: the tensors take 76.6 GiB of 78.6 GiB; the "
                                            "caching allocator holds the rest. With 2.5 % to "
                                            "spare, less than the model's 10 % memory error, it "
                                            "may not fit."));
    QVERIFY(
        details->text().contains(QStringLiteral("caching allocator holds the rest of the card")));
    // Over by less than the error: it may fit (a run that ran is not called impossible, and
    // the verdict does not open with "Does not fit" before saying so); over by more, or well
    // inside, the verdict stands alone.
    m.reserve_limited = false;
    m.allocator_reserve = 0;
    m.total = 1.05 * m.capacity;
    view.setResult(result);
    QVERIFY2(view.verdict().startsWith(QStringLiteral("May not fit: needs 82.6 GiB of 78.6 GiB")) &&
                 view.verdict().endsWith(QStringLiteral(
                     "5.0 % over is less than the model's 10 % memory error: it may fit.")),
             qPrintable(view.verdict()));
    m.total = 1.2 * m.capacity;
    view.setResult(result);
    QVERIFY2(view.verdict().startsWith(QStringLiteral("Does not fit: needs ")) &&
                 !view.verdict().contains(QStringLiteral("memory error")),
             qPrintable(view.verdict()));
    m.total = 0.8 * m.capacity;
    view.setResult(result);
    QVERIFY2(view.verdict().startsWith(QStringLiteral("Fits: ")) &&
                 !view.verdict().contains(QStringLiteral("memory error")),
             qPrintable(view.verdict()));
}

void TestChartViews::memoryEmpty()
{
    MemoryView view;
    QVERIFY(showsMessage(&view));
    view.setResult(test::errorResult());
    QString text;
    QVERIFY(showsMessage(&view, &text));
    QVERIFY(text.contains(QStringLiteral("heads = 32")));
    QVERIFY(view.verdict().isEmpty());
}

void TestChartViews::stepsForTokens_data()
{
    QTest::addColumn<double>("tokens");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<qint64>("seq");
    QTest::addColumn<double>("steps");
    QTest::newRow("exact") << 1048576.0 * 10 << qint64(512) << qint64(2048) << 10.0;
    QTest::newRow("rounds up") << 1e9 << qint64(512) << qint64(2048) << 954.0;
    QTest::newRow("gpt3 300B") << 300e9 << qint64(1536) << qint64(2048) << 95368.0;
    QTest::newRow("no batch") << 1e9 << qint64(0) << qint64(2048) << 0.0;
    QTest::newRow("no seq") << 1e9 << qint64(8) << qint64(0) << 0.0;
}

void TestChartViews::stepsForTokens()
{
    QFETCH(double, tokens);
    QFETCH(qint64, batch);
    QFETCH(qint64, seq);
    QFETCH(double, steps);
    QCOMPARE(scalescope::stepsForTokens(tokens, batch, seq), steps);
}

void TestChartViews::formatRunDuration_data()
{
    QTest::addColumn<double>("seconds");
    QTest::addColumn<QString>("text");
    QTest::newRow("ms") << 0.85 << QStringLiteral("850 ms");
    QTest::newRow("s") << 42.0 << QStringLiteral("42 s");
    QTest::newRow("min") << 750.0 << QStringLiteral("12.5 min");
    QTest::newRow("h") << 7200.0 << QStringLiteral("2.0 h");
    QTest::newRow("days") << 3.5 * 86400 << QStringLiteral("3.5 days");
}

void TestChartViews::formatRunDuration()
{
    QFETCH(double, seconds);
    QFETCH(QString, text);
    QCOMPARE(scalescope::formatRunDuration(seconds), text);
}

void TestChartViews::costViewOutputs()
{
    CostView view;
    QVERIFY(showsMessage(&view));
    auto result = test::amdahlResult({1, 2}, 0.0, 8); // step = 1/8 s on 8 GPUs of 700 W
    view.setResult(result);
    QVERIFY(!showsMessage(&view));
    auto *steps = view.findChild<QSpinBox *>(QStringLiteral("runSteps"));
    auto *price = view.findChild<QDoubleSpinBox *>(QStringLiteral("electricityPrice"));
    QVERIFY(steps && price);
    steps->setValue(28800); // 28,800 steps of 0.125 s = 1 h
    price->setValue(0.5);
    QCOMPARE(view.runSteps(), 28800.0);
    // The engine figures are the cost model's (costReport with the entered steps and power
    // price and the format's defaults, PUE 1.5).
    const CostReport c = view.engineReport();
    QCOMPARE(CostSpec{}.pue, 1.5);
    QCOMPARE(c.gpus, 8);
    QCOMPARE(c.steps_per_run, 28800.0);
    QCOMPARE(c.step_time_s, 0.125);
    QCOMPARE(c.time_to_train_h, 1.0);
    QCOMPARE(c.gpu_hours_per_run, 8.0);
    QVERIFY(c.energy_known);
    // 8 GPUs x board power x 1 h x PUE 1.5, the power from the compute share of the step (30%
    // of TDP idle, the rest in proportion): 700 W x (0.3 + 0.7 x 0.7) = 553 W.
    const double share = result->summary().breakdown.compute / result->summary().step_time_s;
    const double power_w = 700 * (0.3 + 0.7 * share);
    QVERIFY(qAbs(power_w - 553.0) < 1e-9);
    QVERIFY(qAbs(c.power_per_gpu_w - power_w) < 1e-9);
    const double kwh = 8 * power_w / 1000 * 1.5;
    QVERIFY(qAbs(c.energy_kwh_per_run - kwh) < 1e-9);
    QVERIFY(qAbs(c.energy_kwh_per_step - kwh / 28800) < 1e-12);
    QVERIFY(qAbs(c.energy_cost_per_run_usd - 0.5 * kwh) < 1e-9);
    // No GPU or cloud price on this page: the model gives no verdict (and the page shows none).
    QCOMPARE(c.verdict.decision, CostDecision::NoVerdict);
    QVERIFY(c.verdict.isMissing(CostInput::GpuPrice));
    QVERIFY(c.verdict.isMissing(CostInput::CloudPrice));
    QVERIFY(!c.verdict.isMissing(CostInput::PowerPrice));
    QVERIFY(!c.verdict.isMissing(CostInput::Work));
    QVERIFY(view.verdictText().isEmpty());
    // The labels show those figures.
    QCOMPARE(view.findChild<QLabel *>(QStringLiteral("timePerStep"))->text(),
             QStringLiteral("125 ms"));
    QCOMPARE(view.findChild<QLabel *>(QStringLiteral("timePerRun"))->text(),
             QStringLiteral("1.0 h"));
    QCOMPARE(view.findChild<QLabel *>(QStringLiteral("gpuHours"))->text(),
             QStringLiteral("8.0 GPU-h"));
    QCOMPARE(view.findChild<QLabel *>(QStringLiteral("energyPerRun"))->text(),
             QStringLiteral("%1 kWh").arg(c.energy_kwh_per_run, 0, 'f', 1));
    QCOMPARE(view.findChild<QLabel *>(QStringLiteral("energyPerRun"))->text(),
             QStringLiteral("6.6 kWh")); // 8 x 553 W x 1 h x 1.5 = 6.636 kWh
    QCOMPARE(view.findChild<QLabel *>(QStringLiteral("electricityCost"))->text(),
             QStringLiteral("3.32 (at 0.500 per kWh)")); // 6.636 kWh x 0.5
    const QString assumption = view.findChild<QLabel *>(QStringLiteral("energyAssumption"))->text();
    QVERIFY2(assumption.contains(QStringLiteral("553 W")), qPrintable(assumption));
    QVERIFY2(assumption.contains(QStringLiteral("PUE 1.50")), qPrintable(assumption));
    QVERIFY(assumption.contains(QStringLiteral("70%"))); // the compute share
    // Another run length and price: the figures follow.
    steps->setValue(57600);
    price->setValue(0.25);
    const CostReport d = view.engineReport();
    QCOMPARE(d.time_to_train_h, 2.0);
    QVERIFY(qAbs(d.energy_kwh_per_run - 2 * kwh) < 1e-9);
    QVERIFY(qAbs(d.energy_cost_per_run_usd - 0.25 * 2 * kwh) < 1e-9);
    QCOMPARE(view.findChild<QLabel *>(QStringLiteral("timePerRun"))->text(),
             QStringLiteral("2.0 h"));
    QCOMPARE(view.findChild<QLabel *>(QStringLiteral("energyPerRun"))->text(),
             QStringLiteral("13.3 kWh"));
    view.setResult(test::errorResult());
    QVERIFY(showsMessage(&view));
}

namespace
{
/// A transformer with a global batch of 512 sequences of 2048 tokens, shown on `view` with
/// a run length of one billion tokens.
std::shared_ptr<ScenarioResult> showBillionTokens(CostView &view)
{
    auto result = test::amdahlResult({1, 2}, 0.0, 8);
    editEvaluation(*result).step.summary.is_transformer = true;
    result->scenario.model.kind = ModelSpec::Kind::Transformer;
    result->scenario.model.transformer.seq_len = 2048;
    result->scenario.training.global_batch = 512;
    view.setResult(result);
    view.setRunLength(CostView::RunLength::Tokens);
    view.setRunTokensBillions(1.0);
    return result;
}
} // namespace

void TestChartViews::costViewTokens()
{
    CostView view;
    auto result = showBillionTokens(view);
    // 1e9 tokens / (512 samples x 2048 tokens), rounded up; the model's figures use them.
    QCOMPARE(view.runSteps(), 954.0);
    const CostReport by_tokens = view.engineReport();
    QCOMPARE(by_tokens.steps_per_run, 954.0);
    QVERIFY(qAbs(by_tokens.time_to_train_h - 954 * result->summary().step_time_s / 3600.0) < 1e-12);
    QVERIFY(view.findChild<QLabel *>(QStringLiteral("stepsFromTokens"))
                ->text()
                .contains(QStringLiteral("954")));
    // Without a transformer the steps count.
    editEvaluation(*result).step.summary.is_transformer = false;
    result->scenario.model.kind = ModelSpec::Kind::Custom;
    view.setRunSteps(100);
    view.setResult(result);
    QCOMPARE(view.runSteps(), 100.0);
    QCOMPARE(view.engineReport().steps_per_run, 100.0);
    QVERIFY(view.findChild<QLabel *>(QStringLiteral("stepsFromTokens"))
                ->text()
                .contains(QStringLiteral("Tokens need a transformer")));
}

void TestChartViews::tokensCountInChineseUnits()
{
    // Issue 26: the Chinese window read "10.000 十亿 token" (ten thousandths of a billion
    // that Chinese does not count in); Chinese counts tokens in 亿 (10^8): "100 亿 token".
    struct Locale {
        QLocale before;
        Locale() { QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China)); }
        ~Locale() { QLocale::setDefault(before); }
    } chinese;
    CostView view;
    auto *work = view.findChild<QDoubleSpinBox *>(QStringLiteral("tokensSpin"));
    auto *run = view.findChild<QDoubleSpinBox *>(QStringLiteral("runTokens"));
    QVERIFY(work && run);
    QCOMPARE(work->value(), 100.0); // 10 billion tokens
    QCOMPARE(work->decimals(), 2);
    QVERIFY2(work->text().startsWith(QStringLiteral("100 ")), qPrintable(work->text()));
    QVERIFY2(run->text().startsWith(QStringLiteral("3,000 ")), qPrintable(run->text()));
    // The run length in billions from outside, steps from 亿 inside.
    showBillionTokens(view);
    QCOMPARE(run->value(), 10.0);
    QCOMPARE(view.runSteps(), 954.0);
}

void TestChartViews::costSpinBoxesDropTrailingZeros()
{
    // Issue 26: the Cost page read "90.00 个 epoch" and "2.00 次" (English "90.00 epochs",
    // "2.00 runs"): whole numbers are written without decimals, fractions keep theirs.
    for (const QLocale &locale : {QLocale(QLocale::English, QLocale::UnitedStates),
                                  QLocale(QLocale::Chinese, QLocale::China)}) {
        struct Locale {
            QLocale before;
            explicit Locale(const QLocale &l) { QLocale::setDefault(l); }
            ~Locale() { QLocale::setDefault(before); }
        } set(locale);
        CostView view;
        auto *epochs = view.findChild<QDoubleSpinBox *>(QStringLiteral("epochsSpin"));
        auto *runs = view.findChild<QDoubleSpinBox *>(QStringLiteral("runsPerMonthSpin"));
        QVERIFY(epochs && runs);
        QVERIFY(epochs->decimals() > 0 && runs->decimals() > 0);
        epochs->setValue(90);
        runs->setValue(2);
        QCOMPARE(epochs->text(), QStringLiteral("90") + epochs->suffix());
        QCOMPARE(runs->text(), QStringLiteral("2") + runs->suffix());
        runs->setValue(2.5);
        QCOMPARE(runs->text(), locale.toString(2.5) + runs->suffix());
    }
}

void TestChartViews::costOnOneGpuIsSingular()
{
    // Issue 26: "31.0 h on 1 GPUs".
    CostView view;
    view.setResult(test::costResult(1));
    QVERIFY(view.showsReport());
    for (QLabel *label : view.findChildren<QLabel *>())
        QVERIFY2(!label->text().contains(QStringLiteral("1 GPUs")),
                 qPrintable(label->objectName() + QStringLiteral(": ") + label->text()));
    const QString time = view.findChild<QLabel *>(QStringLiteral("timeToTrain"))->text();
    QVERIFY2(time.endsWith(QStringLiteral(" on 1 GPU")), qPrintable(time));
}

namespace
{

QString labelText(QWidget *view, const char *object_name)
{
    auto *label = view->findChild<QLabel *>(QLatin1String(object_name));
    return label ? label->text() : QStringLiteral("<no label %1>").arg(QLatin1String(object_name));
}

bool sameCost(const CostSpec &a, const CostSpec &b)
{
    return a.gpu_price_usd == b.gpu_price_usd && a.server_price_usd == b.server_price_usd &&
           a.amortisation_years == b.amortisation_years &&
           a.power_price_per_kwh == b.power_price_per_kwh && a.pue == b.pue &&
           a.cloud_price_per_gpu_hour == b.cloud_price_per_gpu_hour && a.tokens == b.tokens &&
           a.epochs == b.epochs && a.samples_per_epoch == b.samples_per_epoch &&
           a.steps == b.steps && a.runs_per_month == b.runs_per_month &&
           a.migration_days == b.migration_days && a.day_rate_usd == b.day_rate_usd;
}

} // namespace

void TestChartViews::costReportComputed()
{
    CostView view;
    const auto result = test::costResult(8);
    view.setResult(result);
    QVERIFY(view.showsReport());
    QVERIFY(!showsMessage(&view));
    const CostReport &r = *result->cost();
    // 230,400 steps of 0.125 s on 8 GPUs = 8 h; of 1 s on one GPU = 64 h.
    QCOMPARE(r.time_to_train_h, 8.0);
    QCOMPARE(labelText(&view, "timeToTrain"),
             QStringLiteral("8.0 h on 8 GPUs; 64 h (2.7 days) on one GPU (8.0× faster)"));
    QCOMPARE(labelText(&view, "stepsPerRun"), QStringLiteral("230400 steps"));
    QCOMPARE(labelText(&view, "gpuHoursPerRun"), QStringLiteral("64.0 GPU-h"));
    // Utilisation 0.7 (compute share): 700 W x (0.3 + 0.7 x 0.7) = 553 W; x 8 GPUs x 8 h x
    // PUE 1.5 = 53.088 kWh, at 0.2 USD = 10.62 USD.
    QCOMPARE(labelText(&view, "energyPerRunReport"),
             QStringLiteral("53.1 kWh, 10.62 USD of electricity"));
    QVERIFY2(labelText(&view, "powerUse").startsWith(QStringLiteral("553 W per GPU at 70 %")),
             qPrintable(labelText(&view, "powerUse")));
    QVERIFY(labelText(&view, "powerUse").contains(QStringLiteral("PUE 1.50")));
    QCOMPARE(labelText(&view, "capital"), QStringLiteral("260000 USD, written off over 3 years"));
    QCOMPARE(labelText(&view, "costPerMonth"),
             QStringLiteral("own %1 USD, rent 640 USD (32 machine-hours)")
                 .arg(QLocale().toString(r.own_cost_per_month_usd, 'f', 0)));
    QVERIFY(labelText(&view, "breakEven")
                .contains(QLocale().toString(r.break_even_hours_per_month, 'f', 0)));
    QCOMPARE(labelText(&view, "migrationCost"),
             QStringLiteral("1600 USD (2 days at 800 USD a day)"));
    QCOMPARE(labelText(&view, "hoursSaved"),
             QStringLiteral("224 h (9.3 days) a month against one GPU"));
    // The model's verdict: rent (32 h a month is far below the break-even), 8 GPUs worth it:
    // 224 h of waiting saved a month at 800 / 8 = 100 USD an hour = 22,400 USD, against
    // renting 64 GPU-hours a month either way (4 runs x 8 GPUs x 8 h = 4 runs x 64 h on one
    // GPU, 640 USD) plus 2 days x 800 USD of migration over 36 months (44.44 USD).
    const CostVerdict &v = r.verdict;
    QCOMPARE(v.decision, CostDecision::MoreGpusPay);
    QCOMPARE(v.venue, CostVenue::Rent);
    QCOMPARE(v.reference_venue, CostVenue::Rent);
    QCOMPARE(v.waiting_saved_h_per_month, 224.0);
    QCOMPARE(v.hour_value_usd, 100.0);
    QVERIFY(qAbs(v.waiting_value_usd_per_month - 22400.0) < 1e-9);
    QVERIFY(qAbs(v.gpus_cost_usd_per_month - 640.0) < 1e-9);
    QVERIFY(qAbs(v.reference_cost_usd_per_month - 640.0) < 1e-9);
    QVERIFY(qAbs(v.hardware_extra_usd_per_month) < 1e-9);
    QVERIFY(qAbs(v.migration_usd_per_month - 1600.0 / 36.0) < 1e-9);
    QVERIFY(qAbs(v.extra_cost_usd_per_month - 1600.0 / 36.0) < 1e-9);
    QVERIFY(v.waiting_value_usd_per_month > v.extra_cost_usd_per_month);
    QCOMPARE(view.verdictText(), QStringLiteral("8 GPUs: worth it — rent in the cloud"));
    QCOMPARE(labelText(&view, "costVerdictDetail"),
             QStringLiteral("They save 224 h (9.3 days) of waiting a month, worth 22400 USD at "
                            "100 USD an hour (the day rate over 8 hours), against 44.44 USD a "
                            "month more: 0.00 USD of hardware or cloud time and 44.44 USD of "
                            "migration spread over the amortisation period."));
    // The rule of thumb beside it: 64 h on one GPU (1-3 days), 256 GPU-hours a month, so 2
    // GPUs; the verdict differs because the rule does not value the waiting.
    QCOMPARE(v.duration, DurationBand::OneToThreeDays);
    QCOMPARE(v.usage, UsageBand::Over200);
    QCOMPARE(v.recommended_gpus, 2);
    QVERIFY(!v.rule_own);
    QCOMPARE(v.gap, RuleGap::WaitingValued);
    QVERIFY(!v.venue_differs);
    QCOMPARE(labelText(&view, "costRuleOfThumb"),
             QStringLiteral("Rule of thumb: the job takes 1-3 days on one GPU, over 200 "
                            "GPU-hours a month, so the decision table suggests 2 GPUs; at 32 "
                            "hours of use a month the rule says renting is cheaper. The "
                            "verdict differs: the rule counts GPU-hours, not the 224 h "
                            "(9.3 days) of waiting a month the 8 GPUs save, worth 22400 USD "
                            "against 44.44 USD."));
    const QString advice = labelText(&view, "costAdvice");
    QVERIFY(advice.contains(QStringLiteral("Linear scaling rule")));
    QVERIFY(advice.contains(QStringLiteral("Data loader")));
    // The spin boxes show the scenario's section.
    auto spin = [&](const char *name) {
        return view.findChild<QDoubleSpinBox *>(QLatin1String(name));
    };
    QCOMPARE(spin("gpuPriceSpin")->value(), 30000.0);
    QCOMPARE(spin("serverPriceSpin")->value(), 20000.0);
    QCOMPARE(spin("amortisationSpin")->value(), 3.0);
    QCOMPARE(spin("powerPriceSpin")->value(), 0.2);
    QCOMPARE(spin("pueSpin")->value(), 1.5);
    QCOMPARE(spin("cloudPriceSpin")->value(), 2.5);
    QCOMPARE(spin("stepsSpin")->value(), 230400.0);
    QVERIFY(spin("stepsSpin")->isEnabled());
    QVERIFY(!spin("tokensSpin")->isEnabled());
    QCOMPARE(spin("runsPerMonthSpin")->value(), 4.0);
    QCOMPARE(spin("migrationDaysSpin")->value(), 2.0);
    QCOMPARE(spin("dayRateSpin")->value(), 800.0);
    QVERIFY(spin("gpuPriceSpin")->suffix().contains(QStringLiteral("USD")));
    QCOMPARE(spin("pueSpin")->minimum(), 1.0);
    QCOMPARE(spin("pueSpin")->maximum(), 5.0);
    QVERIFY(view.findChild<QComboBox *>(QStringLiteral("workKindCombo")));
    // Without a cost section: the engine figures again.
    view.setResult(test::amdahlResult({1, 2}, 0.0, 8));
    QVERIFY(!view.showsReport());
    QVERIFY(view.verdictText().isEmpty());
}

void TestChartViews::costReportKnownVerdict()
{
    // The view renders the verdict record as it is (a record set by hand here).
    CostView view;
    auto result = test::costResult(4);
    CostReport &r = *editEvaluation(*result).cost;
    CostVerdict &v = r.verdict;
    r.gpus = 4;
    v.decision = CostDecision::MoreGpusPay;
    v.venue = CostVenue::Rent;
    v.waiting_saved_h_per_month = 300;
    v.hour_value_usd = 100;
    v.waiting_value_usd_per_month = 30000;
    v.hardware_extra_usd_per_month = 250;
    v.migration_usd_per_month = 50;
    v.extra_cost_usd_per_month = 300;
    v.duration = DurationBand::OverTwoWeeks;
    v.usage = UsageBand::Over200;
    v.recommended_gpus = 8;
    v.rule_own = true;
    v.gap = RuleGap::None;
    v.venue_differs = true;
    r.break_even_hours_per_month = std::numeric_limits<double>::infinity();
    r.usage_hours_per_month = 400;
    r.time_to_train_h = 100;
    r.reference_time_h = 350;
    Advice rule;
    rule.kind = AdviceKind::LoaderRuleOfThumb;
    Advice scaling;
    scaling.kind = AdviceKind::LinearScalingRule;
    scaling.global_batch = 512;
    r.advice = {rule, scaling};
    view.setResult(result);
    QCOMPARE(view.verdictText(), QStringLiteral("4 GPUs: worth it — rent in the cloud"));
    auto *verdict = view.findChild<QLabel *>(QStringLiteral("costVerdict"));
    QVERIFY(verdict->styleSheet().contains(QStringLiteral("#1b7f3b")));
    QCOMPARE(labelText(&view, "costVerdictDetail"),
             QStringLiteral("They save 300 h (12.5 days) of waiting a month, worth 30000 USD at "
                            "100 USD an hour (the day rate over 8 hours), against 300 USD a "
                            "month more: 250 USD of hardware or cloud time and 50.00 USD of "
                            "migration spread over the amortisation period."));
    QCOMPARE(labelText(&view, "costRuleOfThumb"),
             QStringLiteral("Rule of thumb: the job takes over two weeks on one GPU, over 200 "
                            "GPU-hours a month, so the decision table suggests 8+ GPUs; at 400 "
                            "hours of use a month the rule says owning pays. At these prices "
                            "the break-even below says otherwise."));
    // Issue 26: one break-even figure on the page, the prices' (the rule's 200 hours stood
    // beside it and disagreed).
    QVERIFY(!labelText(&view, "costRuleOfThumb").contains(QStringLiteral("200 hours")));
    QVERIFY(!labelText(&view, "costRuleOfThumb").contains(QStringLiteral("about 200")));
    QCOMPARE(labelText(&view, "breakEven"),
             QStringLiteral("never: renting is cheaper at any usage"));
    QCOMPARE(labelText(&view, "timeToTrain"),
             QStringLiteral("100 h (4.2 days) on 4 GPUs; 350 h (14.6 days) on one GPU (3.5× "
                            "faster)"));
    // Over the capacity by less than the model's memory error: the verdict stands, and says
    // that it takes the run as running.
    r.may_not_fit = true;
    r.memory_total_bytes = 82.0 * kBytesPerGiB;
    r.memory_capacity_bytes = 78.6 * kBytesPerGiB;
    view.setResult(result);
    QCOMPARE(view.verdictText(), QStringLiteral("4 GPUs: worth it — rent in the cloud"));
    QVERIFY2(labelText(&view, "costVerdictDetail")
                 .endsWith(QStringLiteral("It may not fit in memory (82.0 of 78.6 GiB per GPU, "
                                          "within the model's 10 % memory error): the verdict "
                                          "takes it as running.")),
             qPrintable(labelText(&view, "costVerdictDetail")));
    r.may_not_fit = false;
    QCOMPARE(labelText(&view, "costAdvice"), QStringLiteral("• ") + translatedAdvice(rule) +
                                                 QStringLiteral("\n• ") +
                                                 translatedAdvice(scaling));
    QVERIFY(labelText(&view, "costAdvice").contains(QStringLiteral("512")));

    // Not worth it, owning; the rule suggests as many GPUs: the gap says why.
    v.decision = CostDecision::MoreGpusDoNotPay;
    v.venue = CostVenue::Own;
    v.waiting_value_usd_per_month = 200;
    v.waiting_saved_h_per_month = 2;
    v.recommended_gpus = 4;
    v.duration = DurationBand::ThreeToFourteenDays;
    v.usage = UsageBand::From50To200;
    v.gap = RuleGap::CostOutweighs;
    v.venue_differs = false;
    view.setResult(result);
    QCOMPARE(view.verdictText(), QStringLiteral("4 GPUs: not worth it — buy and own"));
    QVERIFY(verdict->styleSheet().contains(QStringLiteral("#c62828")));
    QCOMPARE(labelText(&view, "costRuleOfThumb"),
             QStringLiteral("Rule of thumb: the job takes 3-14 days on one GPU, 50-200 GPU-hours "
                            "a month, so the decision table suggests 4 GPUs; at 400 hours of use "
                            "a month the rule says owning pays. The verdict differs: the 4 "
                            "GPUs add 300 USD a month, more than the 2.0 h of waiting they save "
                            "is worth (200 USD)."));

    // One GPU: only owning against renting is decided.
    r.gpus = 1;
    v.decision = CostDecision::AtReference;
    v.gap = RuleGap::None;
    view.setResult(result);
    QCOMPARE(view.verdictText(), QStringLiteral("1 GPU: buy and own"));
    QVERIFY(labelText(&view, "costVerdictDetail").isEmpty());

    // No verdict: the missing inputs are named.
    r.gpus = 4;
    v.decision = CostDecision::NoVerdict;
    v.missing = uint8_t(1u << unsigned(CostInput::CloudPrice));
    view.setResult(result);
    QCOMPARE(view.verdictText(), QStringLiteral("No verdict: prices missing"));
    QVERIFY2(labelText(&view, "costVerdictDetail")
                 .startsWith(QStringLiteral("Enter the cloud price per GPU-hour for a verdict")),
             qPrintable(labelText(&view, "costVerdictDetail")));
}

void TestChartViews::costSetResultEmitsNothing()
{
    CostView view;
    QSignalSpy spy(&view, &CostView::costEdited);
    view.setResult(test::costResult(8));
    auto other = test::costResult(4);
    other->scenario.cost->gpu_price_usd = 1234;
    other->scenario.cost->steps = 0;
    other->scenario.cost->epochs = 3; // another work kind: the combo box follows silently
    other->scenario.cost->samples_per_epoch = 5000;
    editEvaluation(*other).cost = costReport(other->scenario, other->summary());
    view.setResult(other);
    QCOMPARE(view.findChild<QDoubleSpinBox *>(QStringLiteral("gpuPriceSpin"))->value(), 1234.0);
    QCOMPARE(view.findChild<QDoubleSpinBox *>(QStringLiteral("epochsSpin"))->value(), 3.0);
    QVERIFY(view.findChild<QDoubleSpinBox *>(QStringLiteral("epochsSpin"))->isEnabled());
    QVERIFY(!view.findChild<QDoubleSpinBox *>(QStringLiteral("stepsSpin"))->isEnabled());
    view.setResult(test::amdahlResult({1, 2}, 0.0, 8));
    view.setResult(test::errorResult());
    view.setResult(nullptr);
    view.setResult(test::costResult(8));
    QCOMPARE(spy.count(), 0);
}

void TestChartViews::costSpinEditEmitsOnce_data()
{
    QTest::addColumn<QString>("spin");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("description");
    QTest::addColumn<double>("gpu_price");
    QTest::addColumn<double>("pue");
    QTest::addColumn<double>("cloud_price");
    QTest::addColumn<double>("steps");
    QTest::addColumn<double>("runs");
    QTest::newRow("gpu price") << "gpuPriceSpin"
                               << "25000"
                               << "Change GPU price" << 25000.0 << 1.5 << 2.5 << 230400.0 << 4.0;
    QTest::newRow("pue") << "pueSpin"
                         << "1.2"
                         << "Change PUE" << 30000.0 << 1.2 << 2.5 << 230400.0 << 4.0;
    QTest::newRow("cloud") << "cloudPriceSpin"
                           << "4"
                           << "Change cloud price" << 30000.0 << 1.5 << 4.0 << 230400.0 << 4.0;
    QTest::newRow("steps") << "stepsSpin"
                           << "5000"
                           << "Change steps per run" << 30000.0 << 1.5 << 2.5 << 5000.0 << 4.0;
    QTest::newRow("runs") << "runsPerMonthSpin"
                          << "10"
                          << "Change runs per month" << 30000.0 << 1.5 << 2.5 << 230400.0 << 10.0;
}

void TestChartViews::costSpinEditEmitsOnce()
{
    QFETCH(QString, spin);
    QFETCH(QString, typed);
    QFETCH(QString, description);
    QFETCH(double, gpu_price);
    QFETCH(double, pue);
    QFETCH(double, cloud_price);
    QFETCH(double, steps);
    QFETCH(double, runs);
    CostView view;
    const auto result = test::costResult(8);
    view.setResult(result);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy spy(&view, &CostView::costEdited);
    auto *box = view.findChild<QDoubleSpinBox *>(spin);
    QVERIFY(box);
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, typed); // keystrokes do not emit one by one
    QCOMPARE(spy.count(), 0);
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(spy.count(), 1);
    const CostSpec edited = spy.at(0).at(0).value<CostSpec>();
    QCOMPARE(spy.at(0).at(1).toString(), description);
    QCOMPARE(edited.gpu_price_usd, gpu_price);
    QCOMPARE(edited.pue, pue);
    QCOMPARE(edited.cloud_price_per_gpu_hour, cloud_price);
    QCOMPARE(edited.steps, steps);
    QCOMPARE(edited.runs_per_month, runs);
    // Every other field is the scenario's.
    QCOMPARE(edited.server_price_usd, result->scenario.cost->server_price_usd);
    QCOMPARE(edited.day_rate_usd, result->scenario.cost->day_rate_usd);
    QCOMPARE(edited.tokens, 0.0);
    // Focus leaving without a change, or the same value again, emits nothing more.
    QTest::keyClick(box, Qt::Key_Return);
    box->clearFocus();
    QCOMPARE(spy.count(), 1);
    // A step with the keyboard is one edit, built on the previous one (no result came back).
    QTest::keyClick(box, Qt::Key_Up);
    QCOMPARE(spy.count(), 2);
    const CostSpec stepped = spy.at(1).at(0).value<CostSpec>();
    QCOMPARE(stepped.gpu_price_usd,
             spin == QLatin1String("gpuPriceSpin") ? gpu_price + 100 : gpu_price);
    QVERIFY(!sameCost(stepped, edited));
}

void TestChartViews::costWorkKindEmits()
{
    CostView view;
    auto result = test::costResult(8);
    view.setResult(result);
    auto *kind = view.findChild<QComboBox *>(QStringLiteral("workKindCombo"));
    QVERIFY(kind);
    auto *model = qobject_cast<QStandardItemModel *>(kind->model());
    QVERIFY(model);
    const int tokens_row = kind->findData(int(CostView::WorkKind::Tokens));
    QVERIFY(model->item(tokens_row)->isEnabled()); // a transformer counts tokens
    // Not a transformer: tokens are not offered.
    result->scenario.model.kind = ModelSpec::Kind::Custom;
    view.setResult(result);
    QVERIFY(!model->item(tokens_row)->isEnabled());
    QSignalSpy spy(&view, &CostView::costEdited);
    kind->setCurrentIndex(kind->findData(int(CostView::WorkKind::Epochs)));
    QCOMPARE(spy.count(), 1);
    const CostSpec c = spy.at(0).at(0).value<CostSpec>();
    QCOMPARE(c.steps, 0.0);
    QCOMPARE(c.tokens, 0.0);
    QCOMPARE(c.epochs, 10.0);
    QCOMPARE(c.samples_per_epoch, 1e6);
    QCOMPARE(c.gpu_price_usd, 30000.0);
    QVERIFY(view.findChild<QDoubleSpinBox *>(QStringLiteral("epochsSpin"))->isEnabled());
    QVERIFY(!view.findChild<QDoubleSpinBox *>(QStringLiteral("stepsSpin"))->isEnabled());
}

void TestChartViews::costAddSectionEmits()
{
    CostView view;
    QSignalSpy spy(&view, &CostView::costEdited);
    view.setResult(test::amdahlResult({1, 2}, 0.0, 8)); // no cost section
    QVERIFY(!view.showsReport());
    auto *button = view.findChild<QPushButton *>(QStringLiteral("addCostButton"));
    QVERIFY(button);
    QVERIFY(button->isVisibleTo(&view));
    QCOMPARE(spy.count(), 0);
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(1).toString(), QStringLiteral("Add a cost section"));
    // The defaults of CostSpec, with the run length the engine figures used (10,000 steps)
    // so that the section is valid.
    CostSpec expected;
    expected.steps = 10'000;
    QVERIFY(sameCost(spy.at(0).at(0).value<CostSpec>(), expected));
    // The app answers with a result that has the section: the report replaces the button.
    auto with_cost = test::amdahlResult({1, 2}, 0.0, 8);
    with_cost->scenario.cost = expected;
    editEvaluation(*with_cost).cost = costReport(with_cost->scenario, with_cost->summary());
    view.setResult(with_cost);
    QVERIFY(view.showsReport());
    QVERIFY(!button->isVisibleTo(&view));
    QCOMPARE(spy.count(), 1);
}

void TestChartViews::thermalCurvesPerGpu()
{
    BreakdownView view;
    view.setResult(test::thermalResult(4, 2));
    ThermalView *thermal = view.thermalView();
    QVERIFY(thermal);
    QVERIFY(!thermal->isHidden());
    QVERIFY(thermal->hasThermal());
    QCOMPARE(int(thermal->gpuSeries().size()), 4);
    QCOMPARE(thermal->chart()->series().size(), 5); // four GPUs and the threshold
    const ThermalSpec &spec = view.result()->scenario.effects.thermal;
    for (int g = 0; g < 4; ++g) {
        QLineSeries *s = thermal->gpuSeries()[size_t(g)];
        QCOMPARE(s->objectName(), QStringLiteral("temperatureGpu%1").arg(g));
        QCOMPARE(s->name(), QStringLiteral("GPU %1").arg(g));
        QCOMPARE(s->count(), ThermalView::kSamples);
        QCOMPARE(s->at(0).y(), 30.0); // ambient at the start
        for (const QPointF &p : s->points())
            QCOMPARE(p.y(), spec.temperatureC(g, p.x()));
    }
    // GPU 2 (95 C steady) crosses 84 C at 60 ln(65/11) = 106.6 s; the plot spans
    // max(3 x 60, 1.5 x 106.6) = 180 s.
    QLineSeries *threshold = thermal->thresholdLine();
    QCOMPARE(threshold->objectName(), QStringLiteral("throttleThreshold"));
    QCOMPARE(threshold->count(), 2);
    QCOMPARE(threshold->at(0), QPointF(0, 84));
    QCOMPARE(threshold->at(1), QPointF(180, 84));
    QVERIFY2(
        thermal->summaryText().startsWith(QStringLiteral("GPU 2 starts throttling after 107 s.")),
        qPrintable(thermal->summaryText()));
    QVERIFY(thermal->gpuSeries()[2]->at(ThermalView::kSamples - 1).y() > 84);
    QVERIFY(thermal->gpuSeries()[0]->at(ThermalView::kSamples - 1).y() < 84);
    // No GPU above the threshold: said so, and the curves stay.
    auto cool = test::thermalResult(2, -1);
    view.setResult(cool);
    QCOMPARE(int(thermal->gpuSeries().size()), 2);
    QCOMPARE(thermal->chart()->series().size(), 3);
    QVERIFY2(thermal->summaryText().startsWith(QStringLiteral("No GPU reaches")),
             qPrintable(thermal->summaryText()));
}

void TestChartViews::thermalHottestAndCoolest()
{
    ThermalView view;
    QVERIFY(view.setResult(test::thermalResult(64, 17)));
    QCOMPARE(int(view.gpuSeries().size()), 2);
    QCOMPARE(view.gpuSeries()[0]->objectName(), QStringLiteral("temperatureGpu17"));
    QCOMPARE(view.gpuSeries()[0]->name(), QStringLiteral("GPU 17 (hottest)"));
    QCOMPARE(view.gpuSeries()[1]->name(), QStringLiteral("GPU 0 (coolest)"));
    QCOMPARE(view.chart()->series().size(), 3);
    QVERIFY(view.summaryText().contains(QStringLiteral("GPU 17 starts throttling")));
    QVERIFY(view.summaryText().contains(QStringLiteral("1 of 64 GPUs throttle")));
    // All alike: one curve for all of them.
    QVERIFY(view.setResult(test::thermalResult(64, -1)));
    QCOMPARE(int(view.gpuSeries().size()), 1);
    QCOMPARE(view.gpuSeries()[0]->name(), QStringLiteral("All 64 GPUs"));
}

void TestChartViews::thermalHiddenWithoutEffect()
{
    BreakdownView view;
    view.setResult(test::thermalResult(4, 2));
    QVERIFY(!view.thermalView()->isHidden());
    view.setResult(test::amdahlResult({1, 2}, kSerial, 2));
    QVERIFY(view.thermalView()->isHidden());
    QVERIFY(view.thermalView()->gpuSeries().empty());
    QVERIFY(view.thermalView()->summaryText().isEmpty());
    view.setResult(test::errorResult());
    QVERIFY(view.thermalView()->isHidden());
}

void TestChartViews::deltaViewStates()
{
    DeltaView view;
    QVERIFY(showsMessage(&view));
    const auto a = test::amdahlResult({1, 2}, kSerial, 8);
    view.setPinned(a);
    QVERIFY(!showsMessage(&view));
    QCOMPARE(view.model()->index(DeltaTableModel::StepTime, DeltaTableModel::B).data().toString(),
             QStringLiteral("—"));
    const auto b = test::amdahlResult({1, 2}, kSerial, 16);
    view.setResult(b);
    QCOMPARE(view.model()->resultA(), ResultPtr(a));
    QCOMPARE(view.model()->resultB(), ResultPtr(b));
    // 16 GPUs: shorter step (better) -> green; lower efficiency (worse) -> red.
    const QModelIndex step = view.model()->index(DeltaTableModel::StepTime, DeltaTableModel::Delta);
    QCOMPARE(step.data(DeltaTableModel::ComparisonRole).toInt(), 1);
    QCOMPARE(step.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(0x1b, 0x7f, 0x3b));
    const QModelIndex eff =
        view.model()->index(DeltaTableModel::Efficiency, DeltaTableModel::DeltaPercent);
    QCOMPARE(eff.data(DeltaTableModel::ComparisonRole).toInt(), -1);
    QCOMPARE(eff.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(0xc6, 0x28, 0x28));
}

void TestChartViews::exportPng()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ScalingView view;
    view.setResult(test::amdahlResult(kCounts, kSerial, 8));
    view.resize(800, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString path = dir.filePath(QStringLiteral("scaling.png"));
    QString error;
    QVERIFY2(exportWidgetImage(&view, path, &error), qPrintable(error));
    QImage image;
    QVERIFY(image.load(path));
    QCOMPARE(image.size(), QSize(800, 500) * view.devicePixelRatio());
    // Something was drawn: not a single colour.
    const QRgb first = image.pixel(0, 0);
    bool varied = false;
    for (int y = 0; y < image.height() && !varied; y += 7)
        for (int x = 0; x < image.width() && !varied; x += 7)
            varied = image.pixel(x, y) != first;
    QVERIFY(varied);
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).size() == 1); // no temporary left
}

void TestChartViews::exportSvg()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    BreakdownView view;
    view.setResult(test::amdahlResult(kCounts, kSerial, 8));
    view.resize(640, 480);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString path = dir.filePath(QStringLiteral("breakdown.SVG"));
    QString error;
    QVERIFY2(exportWidgetImage(&view, path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray svg = file.readAll();
    QVERIFY(svg.contains("<svg"));
    QVERIFY(svg.contains("</svg>"));
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.viewBox(), QRect(0, 0, 640, 480));
}

void TestChartViews::exportCsv()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto result = test::amdahlResult({1, 2, 4}, kSerial, 4);
    const QString path = dir.filePath(QStringLiteral("sweep.csv"));
    QLocale::setDefault(QLocale(QLocale::German)); // decimal comma must not leak into CSV
    QString error;
    const bool ok = exportSweepCsv(result->sweep(), path, &error);
    QLocale::setDefault(QLocale::c());
    QVERIFY2(ok, qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    const QStringList header = lines[0].split(u',');
    // The CLI's sweep --csv columns (spec/cli.md) come first, in its order.
    QCOMPARE(header.mid(0, 6), (QStringList{"gpus", "step_time_s", "samples_per_s", "speedup",
                                            "scaling_efficiency", "communication_share"}));
    QVERIFY(header.contains(QStringLiteral("memory_per_gpu_gb")));
    QVERIFY(header.contains(QStringLiteral("closed_form")));
    QCOMPARE(lines[0] + u'\n',
             QString::fromUtf8(sweepToCsv(result->sweep(), true)).section(u'\n', 0, 0) + u'\n');
    // Its first six columns are what the CLI prints for the same rows.
    const QStringList cli =
        QString::fromUtf8(sweepToCsv(result->sweep(), false)).split(u'\n', Qt::SkipEmptyParts);
    for (int i = 0; i < lines.size(); ++i)
        QCOMPARE(lines[i].split(u',').mid(0, 6).join(u','), cli[i]);
    const int step_column = int(header.indexOf(QStringLiteral("step_time_s")));
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList fields = lines[i].split(u',');
        QCOMPARE(fields.size(), header.size());
        bool parsed = false;
        const double step = fields[step_column].toDouble(&parsed); // C locale
        QVERIFY(parsed);
        QVERIFY(qAbs(step - result->sweep()[size_t(i - 1)].summary.step_time_s) < 1e-9);
    }
    QCOMPARE(lines[2].split(u',').first(), QStringLiteral("2"));
}

void TestChartViews::exportRejects()
{
    QTemporaryDir dir;
    QWidget widget;
    widget.resize(10, 10);
    QString error;
    QVERIFY(!exportWidgetImage(&widget, dir.filePath(QStringLiteral("x.bmpx")), &error));
    QVERIFY(error.contains(QStringLiteral(".png")));
    error.clear();
    QVERIFY(!exportWidgetImage(&widget, dir.filePath(QStringLiteral("missing/dir/x.png")), &error));
    QVERIFY(!error.isEmpty());
    error.clear();
    QVERIFY(!exportSweepCsv({}, dir.filePath(QStringLiteral("missing/dir/x.csv")), &error));
    QVERIFY(!error.isEmpty());
}

// Issue 29, item 1, the exports too: they used QSaveFile, whose commit() could rename an
// empty file over the old one on a full disk (here `ulimit -f 0`, SIGXFSZ ignored). They
// write through the one writer: the old file stays, the message gives the reason.
void TestChartViews::exportOnAFullDiskKeepsTheFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto result = test::amdahlResult({1, 2, 4}, kSerial, 4);
    const QString csv = dir.filePath(QStringLiteral("sweep.csv"));
    const QString png = dir.filePath(QStringLiteral("view.png"));
    for (const QString &path : {csv, png}) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("old");
    }
    QWidget widget;
    widget.resize(64, 48);
    QString csv_error, png_error;
    const bool csv_ok =
        test::withNoRoomForData([&] { return exportSweepCsv(result->sweep(), csv, &csv_error); });
    const bool png_ok =
        test::withNoRoomForData([&] { return exportWidgetImage(&widget, png, &png_error); });
    QVERIFY(!csv_ok);
    QVERIFY(!png_ok);
    QCOMPARE(csv_error, QStringLiteral("Cannot write %1: File too large").arg(csv));
    QCOMPARE(png_error, QStringLiteral("Cannot write %1: File too large").arg(png));
    for (const QString &path : {csv, png}) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("old"));
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);
}

QTEST_MAIN(TestChartViews)
#include "tst_chart_views.moc"
