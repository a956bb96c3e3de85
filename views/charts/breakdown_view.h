// Breakdown tab: where each step's time goes at every GPU count of the sweep (stacked bars,
// seconds or share of the step), GPU temperature against time under the bars when the
// scenario has thermal effects (ThermalView), what each cause would gain if it were free
// (horizontal bars, analysis/what_if.h), and the sweep as a table.
#pragma once

#include "palette.h"
#include "result.h"

#include <QWidget>

#include <array>

class QBarCategoryAxis;
class QBarSet;
class QChart;
class QChartView;
class QComboBox;
class QHorizontalBarSeries;
class QLabel;
class QStackedBarSeries;
class QStackedWidget;
class QTableView;
class QValueAxis;

namespace scalescope
{

class SweepTableModel;
class ThermalView;

class BreakdownView : public QWidget
{
    Q_OBJECT
public:
    enum class Unit { SecondsPerStep, PercentOfStep };

    explicit BreakdownView(QWidget *parent = nullptr);

    void setResult(const ResultPtr &result);
    ResultPtr result() const { return result_; }

    Unit unit() const;
    void setUnit(Unit unit);

    QChart *chart() const { return chart_; }
    /// The bars' GPU-count axis: "16 ✗" for a run that does not fit, "16 ?" for one over the
    /// capacity by less than the model's memory error.
    QBarCategoryAxis *gpuAxis() const { return x_; }
    /// One bar set per BreakdownPart, in enum order.
    QBarSet *barSet(int part) const { return sets_[size_t(part)]; }
    SweepTableModel *tableModel() const { return model_; }
    QTableView *tableView() const { return table_; }
    /// "What if this were free": the gain of each cause, largest on top; hidden until the
    /// evaluation has them (ScenarioEvaluation::what_if).
    QChart *whatIfChart() const { return what_if_chart_; }
    QBarSet *whatIfSet() const { return what_if_set_; }
    QBarCategoryAxis *whatIfCauses() const { return what_if_causes_; }
    /// A cause's name in the current language.
    static QString causeName(WhatIfCause cause);
    /// Temperature against time; hidden unless the scenario has effects.thermal enabled.
    ThermalView *thermalView() const { return thermal_; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateChart();
    void updateWhatIf();
    void keepRoomForTableRows();

    ResultPtr result_;
    QComboBox *unit_ = nullptr;
    QStackedWidget *stack_ = nullptr;
    QLabel *message_ = nullptr;
    QChart *chart_ = nullptr;
    QChartView *chart_view_ = nullptr;
    QStackedBarSeries *series_ = nullptr;
    std::array<QBarSet *, kBreakdownPartCount> sets_{};
    QBarCategoryAxis *x_ = nullptr;
    QValueAxis *y_ = nullptr;
    QChart *what_if_chart_ = nullptr;
    QChartView *what_if_view_ = nullptr;
    QHorizontalBarSeries *what_if_series_ = nullptr;
    QBarSet *what_if_set_ = nullptr;
    QBarCategoryAxis *what_if_causes_ = nullptr;
    QValueAxis *what_if_gain_ = nullptr;
    SweepTableModel *model_ = nullptr;
    QTableView *table_ = nullptr;
    ThermalView *thermal_ = nullptr;
};

} // namespace scalescope
