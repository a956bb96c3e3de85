// Memory tab: memory of the most loaded GPU (pipeline stage) against its capacity, as a
// horizontal stacked bar in GB with the capacity line, and a plain verdict. A GPU over
// capacity gets hatched bars (Qt::BDiagPattern) and a red capacity line.
#pragma once

#include "result.h"

#include <QWidget>

#include <array>

class QBarSet;
class QChart;
class QChartView;
class QHorizontalStackedBarSeries;
class QBarCategoryAxis;
class QLabel;
class QLineSeries;
class QStackedWidget;
class QValueAxis;

namespace scalescope
{

class MemoryView : public QWidget
{
    Q_OBJECT
public:
    enum Part { Parameters, Gradients, OptimizerStates, Activations, PartCount };

    explicit MemoryView(QWidget *parent = nullptr);

    void setResult(const ResultPtr &result);
    ResultPtr result() const { return result_; }

    QChart *chart() const { return chart_; }
    /// The bar set of `part` (values in GB; hatched brush when the GPU is over capacity).
    QBarSet *barSet(Part part) const { return sets_[size_t(part)]; }
    /// The vertical capacity line (x = capacity in GiB).
    QLineSeries *capacityLine() const { return capacity_; }
    /// "Fits: ...", "May not fit: ..." (over by less than the model's memory error) or
    /// "Does not fit: needs X GB of Y GB — try ...".
    QString verdict() const;

    static QString partName(Part part);
    static QColor partColor(Part part);

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateChart();
    void fitBarLabels();

    ResultPtr result_;
    QStackedWidget *stack_ = nullptr;
    QLabel *message_ = nullptr;
    QLabel *verdict_ = nullptr;
    QLabel *details_ = nullptr;
    QChart *chart_ = nullptr;
    QChartView *chart_view_ = nullptr;
    QHorizontalStackedBarSeries *series_ = nullptr;
    std::array<QBarSet *, PartCount> sets_{};
    QLineSeries *capacity_ = nullptr;
    QBarCategoryAxis *category_axis_ = nullptr;
    QValueAxis *gb_axis_ = nullptr;
    QValueAxis *line_axis_ = nullptr;
};

} // namespace scalescope
