// Scaling tab: speed-up and efficiency against GPU count from the result's sweep, with the
// ideal line, the Amdahl fit, the Gustafson curve (weak scaling) and the current scenario;
// and "where the missing speed-up went": per GPU count, the achieved speed-up with the lost
// speed-up stacked on it by cause (result->attribution()), so each bar reaches the ideal.
// Sweep points whose run does not fit in memory are marked (red hollow markers, "out of
// memory" under their bar), and a note says when the one-GPU reference cannot hold the model.
#pragma once

#include "result.h"

#include <QWidget>

#include <array>
#include <optional>

class QBarCategoryAxis;
class QBarSet;
class QChart;
class QChartView;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QStackedBarSeries;
class QStackedWidget;
class QValueAxis;

namespace scalescope
{

class ScalingView : public QWidget
{
    Q_OBJECT
public:
    explicit ScalingView(QWidget *parent = nullptr);

    /// Draws `result` (null or invalid: a message instead of stale data). Sets the mode
    /// selector to result->scaling without emitting scalingModeChanged.
    void setResult(const ResultPtr &result);
    ResultPtr result() const { return result_; }

    Scaling scalingMode() const;
    /// A full node of the servers the sweep fills first (8 GPUs: DGX/HGX and most
    /// multi-GPU servers).
    static constexpr int kFullNodeGpus = 8;
    /// Selects a mode; emits scalingModeChanged when it changes.
    void setScalingMode(Scaling mode);

    /// Adds a further panel to the right of the three charts; it is shown and hidden with
    /// them.
    void addPanel(QWidget *panel, int stretch = 1);

    QChart *speedupChart() const { return speedup_chart_; }
    QChart *efficiencyChart() const { return efficiency_chart_; }
    /// "Where the missing speed-up went": stacked bars, one category per sweep row (GPU
    /// count, ascending), the achieved speed-up first and then one set per SpeedupLoss; a
    /// bar's values sum to its GPU count (a negative compute loss, faster per-GPU compute
    /// than on one GPU, is drawn below zero).
    QChart *lossChart() const { return loss_chart_; }
    QBarSet *achievedSet() const { return achieved_set_; }
    QBarSet *lossSet(SpeedupLoss loss) const { return loss_sets_[size_t(loss)]; }

    /// The text for an Amdahl fit record: the fit and its ceiling, or why there is none.
    /// `highest_plotted_speedup`: no ceiling below it is quoted (amdahlCeiling).
    static QString amdahlText(const AmdahlFit &fit, double highest_plotted_speedup);

Q_SIGNALS:
    /// The user chose strong or weak scaling: the app recomputes and calls setResult again.
    void scalingModeChanged(scalescope::Scaling mode);
    /// The user chose how the sweep grows the cluster: nodes of `node_gpus` GPUs filled first
    /// (0: more nodes of the scenario's size).
    void sweepShapeChanged(int node_gpus);

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateCharts();
    void updateLossChart();
    void updateReferenceNote();
    void showPointToolTip(const QPointF &point, bool state);
    void showLossToolTip(bool state, int index, QBarSet *set);

    ResultPtr result_;
    QComboBox *mode_ = nullptr;
    QComboBox *shape_ = nullptr; // how the sweep grows the cluster
    void updateShapeTexts(int scenario_gpus_per_node);
    QLabel *fit_label_ = nullptr;
    QLabel *reference_note_ = nullptr; // the one-GPU reference does not fit in memory
    QStackedWidget *stack_ = nullptr;
    QLabel *message_ = nullptr;
    QHBoxLayout *panels_ = nullptr;

    QChart *speedup_chart_ = nullptr;
    QChartView *speedup_view_ = nullptr;
    QLogValueAxis *speedup_x_ = nullptr;
    QLogValueAxis *speedup_y_ = nullptr;
    QLineSeries *speedup_ = nullptr;
    QLineSeries *ideal_ = nullptr;
    QLineSeries *amdahl_ = nullptr;
    QLineSeries *gustafson_ = nullptr;
    QScatterSeries *current_speedup_ = nullptr;
    QScatterSeries *speedup_oom_ = nullptr; // sweep points that do not fit in memory
    QScatterSeries *speedup_cf_ = nullptr;  // sweep points from the closed form
    QScatterSeries *speedup_sim_ = nullptr; // sweep points the engine simulated

    QChart *efficiency_chart_ = nullptr;
    QChartView *efficiency_view_ = nullptr;
    QLogValueAxis *efficiency_x_ = nullptr;
    QValueAxis *efficiency_y_ = nullptr;
    QLineSeries *efficiency_ = nullptr;
    QLineSeries *ideal_efficiency_ = nullptr;
    QScatterSeries *current_efficiency_ = nullptr;
    QScatterSeries *efficiency_oom_ = nullptr;
    QScatterSeries *efficiency_cf_ = nullptr;
    QScatterSeries *efficiency_sim_ = nullptr;

    QChart *loss_chart_ = nullptr;
    QChartView *loss_view_ = nullptr;
    QStackedBarSeries *loss_series_ = nullptr;
    QBarSet *achieved_set_ = nullptr;
    std::array<QBarSet *, kSpeedupLossCount> loss_sets_{};
    QBarCategoryAxis *loss_x_ = nullptr;
    QValueAxis *loss_y_ = nullptr;
    std::vector<SpeedupAttribution> loss_rows_; // as drawn, ascending GPU count
    std::vector<int> oom_gpus_;                 // sweep GPU counts that do not fit in memory
};

} // namespace scalescope
