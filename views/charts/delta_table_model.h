// A/B comparison of two results: one row per metric, columns A, B, Δ (B - A) and Δ %.
#pragma once

#include "result.h"

#include <QAbstractTableModel>

#include <optional>

namespace scalescope
{

class DeltaTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Metric {
        StepTime,
        Throughput,
        Mfu,
        Speedup,
        Efficiency,
        Compute,
        CommunicationExposed,
        PipelineBubble,
        Wait,
        DataLoading,
        MemoryPerGpu,
        MetricCount
    };
    enum Column { A, B, Delta, DeltaPercent, ColumnCount };
    /// The unformatted value of a cell (double, in the row's unit), invalid for an em dash.
    static constexpr int RawValueRole = Qt::UserRole;
    /// For the Δ columns: +1 when B is better than A, -1 when worse, 0 equal or unknown.
    static constexpr int ComparisonRole = Qt::UserRole + 1;

    explicit DeltaTableModel(QObject *parent = nullptr);

    /// Either may be null (or invalid): its cells and the deltas show an em dash.
    void setResults(const ResultPtr &a, const ResultPtr &b);
    ResultPtr resultA() const { return a_; }
    ResultPtr resultB() const { return b_; }

    /// The metric's value in the unit of its row header; nullopt for a null/invalid result.
    static std::optional<double> value(const ResultPtr &result, Metric metric);
    /// True when a lower value is better (times, memory), false when higher is better.
    static bool lowerIsBetter(Metric metric);
    static QString metricName(Metric metric);

    std::optional<double> cellValue(int row, int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    int comparison(int row) const;

    ResultPtr a_, b_;
};

} // namespace scalescope
