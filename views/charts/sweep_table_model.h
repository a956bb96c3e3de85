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
    /// The unformatted number of a cell (double): seconds for the time columns (whose header
    /// and text use one unit per column, timeUnit()), the header's unit otherwise; for sorting.
    static constexpr int RawValueRole = Qt::UserRole;
    /// The one unit of a time column, chosen from its largest value (issue 26: a column mixed
    /// "0.0006875" and "4,545" s): seconds per unit, its name and the decimals shown.
    struct TimeUnit {
        double seconds = 1;
        QString name;
        int decimals = 3;
    };
    TimeUnit timeUnit(int column) const;
    static bool isTimeColumn(int column);

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
    std::vector<TimeUnit> units_; // by column (setRows)
};

} // namespace scalescope
