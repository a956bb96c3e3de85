// Temperature against time under sustained load for the scenario's GPUs (effects.thermal:
// first-order thermal model of ThermalSpec), with the throttle threshold and the moment each
// GPU starts throttling. Shown under the breakdown bars when the scenario has thermal effects.
#pragma once

#include "result.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace scalescope
{

class ThermalView : public QWidget
{
    Q_OBJECT
public:
    /// GPUs drawn one by one up to this count; beyond it the hottest and the coolest.
    static constexpr int kMaxGpuCurves = 8;
    /// Points per curve.
    static constexpr int kSamples = 121;

    explicit ThermalView(QWidget *parent = nullptr);

    /// Draws the result's thermal model. Returns whether there is anything to show (a valid
    /// training result with effects.thermal enabled); the owner hides the view otherwise.
    bool setResult(const ResultPtr &result);
    bool hasThermal() const { return has_thermal_; }

    QChart *chart() const { return chart_; }
    /// One curve per GPU drawn (objectName "temperatureGpu<i>"), in GPU order.
    const std::vector<QLineSeries *> &gpuSeries() const { return gpu_series_; }
    QLineSeries *thresholdLine() const { return threshold_; }
    /// "GPU 2 starts throttling after 95 s" and the like (empty without thermal effects).
    QString summaryText() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    /// Keeps exactly `count` GPU curves in the chart.
    void resizeGpuSeries(size_t count);

    bool has_thermal_ = false;
    QChart *chart_ = nullptr;
    QChartView *chart_view_ = nullptr;
    QValueAxis *x_ = nullptr;
    QValueAxis *y_ = nullptr;
    QLineSeries *threshold_ = nullptr;
    std::vector<QLineSeries *> gpu_series_; // the curves drawn, at most kMaxGpuCurves
    QLabel *text_ = nullptr;
};

} // namespace scalescope
