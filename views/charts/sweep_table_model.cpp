#include "charts/sweep_table_model.h"

#include <QFont>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace scalescope
{

SweepTableModel::SweepTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void SweepTableModel::setRows(std::vector<SweepRow> rows, int highlighted_gpus,
                              SpeedupReference reference)
{
    beginResetModel();
    rows_ = std::move(rows);
    highlighted_gpus_ = highlighted_gpus;
    reference_ = reference;
    units_.assign(ColumnCount, TimeUnit{});
    for (int c = 0; c < ColumnCount; ++c) {
        if (!isTimeColumn(c))
            continue;
        double largest = 0;
        for (const SweepRow &row : rows_)
            largest = std::max(largest, std::abs(value(row, c)));
        TimeUnit &u = units_[size_t(c)];
        if (largest >= 1 || largest == 0) {
            u.seconds = 1;
            u.name = tr("s");
        } else if (largest >= 1e-3) {
            u.seconds = 1e-3;
            u.name = tr("ms");
        } else {
            u.seconds = 1e-6;
            u.name = tr("µs");
        }
        // Four significant digits for the largest value, at least one decimal.
        const double scaled = largest / u.seconds;
        const int magnitude = scaled > 0 ? int(std::floor(std::log10(scaled))) : 0;
        u.decimals = std::clamp(3 - magnitude, 1, 4);
    }
    endResetModel();
}

bool SweepTableModel::isTimeColumn(int column)
{
    switch (Column(column)) {
    case StepTime:
    case Compute:
    case CommunicationExposed:
    case PipelineBubble:
    case Wait:
    case DataLoading:
        return true;
    default:
        return false;
    }
}

SweepTableModel::TimeUnit SweepTableModel::timeUnit(int column) const
{
    if (column >= 0 && size_t(column) < units_.size() && isTimeColumn(column))
        return units_[size_t(column)];
    return TimeUnit{1, tr("s"), 3};
}

void SweepTableModel::clear()
{
    setRows({}, 0);
}

double SweepTableModel::value(const SweepRow &row, int column) const
{
    const Summary &s = row.summary;
    const Breakdown &b = s.breakdown;
    switch (Column(column)) {
    case Gpus:
        return row.gpus;
    case StepTime:
        return s.step_time_s;
    case SamplesPerS:
        return s.samples_per_s;
    case Speedup:
        return reference_.faster(s.speedup);
    case Efficiency:
        return reference_.efficiencyOf(s.speedup, row.gpus) * 100.0;
    case Compute:
        return b.compute;
    case CommunicationExposed:
        return b.communication_exposed;
    case PipelineBubble:
        return b.pipeline_bubble;
    case Wait:
        return b.wait;
    case DataLoading:
        return b.data_loading;
    case CommunicationShare:
        return s.step_time_s > 0 ? b.communication_exposed / s.step_time_s * 100.0 : 0.0;
    case ColumnCount:
        break;
    }
    return 0;
}

int SweepTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int SweepTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SweepTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SweepRow &row = rows_[size_t(index.row())];
    const double v = value(row, index.column());
    // Below the fewest GPUs that fit there is no speed-up to count from them: the run
    // cannot start.
    const bool below_reference = reference_.rebased() && row.gpus < reference_.gpus &&
                                 (index.column() == Speedup || index.column() == Efficiency);
    switch (role) {
    case Qt::DisplayRole: {
        const QLocale locale;
        if (below_reference)
            return QStringLiteral("—");
        switch (Column(index.column())) {
        case Gpus:
            // A point beyond the simulation's size: the closed form's figures.
            return row.closed_form ? tr("%1 (closed form)").arg(locale.toString(row.gpus))
                                   : locale.toString(row.gpus);
        case SamplesPerS:
            return locale.toString(v, 'f', v >= 100 ? 0 : 2);
        case Speedup:
            return locale.toString(v, 'f', 2);
        case Efficiency:
        case CommunicationShare:
            return locale.toString(v, 'f', 1);
        default: {
            const TimeUnit u = timeUnit(index.column());
            return locale.toString(v / u.seconds, 'f', u.decimals);
        }
        }
    }
    case RawValueRole:
        return v;
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (below_reference)
            return tr("Does not fit: speed-ups count from %1 GPUs, the fewest that fit.")
                .arg(reference_.gpus);
        if (row.closed_form)
            return tr("More tasks than the window simulates per sweep point: these figures "
                      "come from the closed-form model, not the event simulation.");
        return {};
    case Qt::FontRole:
        if (highlighted_gpus_ > 0 && row.gpus == highlighted_gpus_) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    default:
        return {};
    }
}

QVariant SweepTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case Gpus:
            return tr("GPUs");
        case StepTime:
            return tr("Step time (%1)").arg(timeUnit(section).name);
        case SamplesPerS:
            return tr("Samples/s");
        case Speedup:
            return reference_.rebased()
                       ? tr("Speed-up (× from %1 GPUs)").arg(reference_.gpus)
                       : tr("Speed-up (×)");
        case Efficiency:
            return tr("Efficiency (%)");
        case Compute:
            return tr("Compute (%1)").arg(timeUnit(section).name);
        case CommunicationExposed:
            return tr("Exposed comm (%1)").arg(timeUnit(section).name);
        case PipelineBubble:
            return tr("Bubble (%1)").arg(timeUnit(section).name);
        case Wait:
            return tr("Wait (%1)").arg(timeUnit(section).name);
        case DataLoading:
            return tr("Data loading (%1)").arg(timeUnit(section).name);
        case CommunicationShare:
            return tr("Comm share (%)");
        case ColumnCount:
            break;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case Gpus:
            return tr("Number of GPUs in this sweep point");
        case StepTime:
            return tr("Time of one training step");
        case SamplesPerS:
            return tr("Training samples processed per second");
        case Speedup:
            return tr("Step-time speed-up over one GPU of the same kind");
        case Efficiency:
            return tr("Speed-up divided by the number of GPUs");
        case Compute:
            return tr("Compute time per step, averaged over GPUs");
        case CommunicationExposed:
            return tr("Communication not hidden behind compute, per step");
        case PipelineBubble:
            return tr("Idle time of the pipeline schedule, per step");
        case Wait:
            return tr("Time spent waiting for other GPUs, per step");
        case DataLoading:
            return tr("Time spent waiting for the data loader, per step");
        case CommunicationShare:
            return tr("Exposed communication as a share of the step time");
        case ColumnCount:
            break;
        }
    }
    return {};
}

} // namespace scalescope
