// The scaling sweep as a table: one row per GPU count, columns with units in the headers.
#pragma once

#include "analysis/evaluation.h"
#include "analysis/sweep.h"

#include <QAbstractTableModel>

#include <vector>

namespace scalescope
{

class SweepTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Gpus,
        StepTime,
        SamplesPerS,
        Speedup,
        Efficiency,
        Compute,
        CommunicationExposed,
        PipelineBubble,
        Wait,
        DataLoading,
        CommunicationShare,
        ColumnCount
    };
    /// The unformatted number of a cell (double), in the unit of its header; for sorting.
    static constexpr int RawValueRole = Qt::UserRole;

    explicit SweepTableModel(QObject *parent = nullptr);

    /// Replaces the rows (a model reset). The row with `highlighted_gpus` is drawn bold.
    /// Speed-up and efficiency are against `reference` (one GPU, or the fewest GPUs that fit
    /// when one cannot hold the model), as the Scaling tab's curves.
    void setRows(std::vector<SweepRow> rows, int highlighted_gpus = 0,
                 SpeedupReference reference = {});
    void clear();
    const std::vector<SweepRow> &rows() const { return rows_; }

    /// The value of `column` for `row`, in the unit of the column header.
    double value(const SweepRow &row, int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<SweepRow> rows_;
    int highlighted_gpus_ = 0;
    SpeedupReference reference_;
};

} // namespace scalescope
