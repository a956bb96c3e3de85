#include "charts/delta_table_model.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{

const QString kEmDash = QStringLiteral("—");

bool usable(const ResultPtr &r)
{
    return r && r->ok();
}

/// Relative tolerance under which two values count as equal (no colour).
constexpr double kEqualTolerance = 1e-9;

} // namespace

DeltaTableModel::DeltaTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void DeltaTableModel::setResults(const ResultPtr &a, const ResultPtr &b)
{
    beginResetModel();
    a_ = a;
    b_ = b;
    endResetModel();
}

std::optional<double> DeltaTableModel::value(const ResultPtr &result, Metric metric)
{
    if (!usable(result))
        return std::nullopt;
    const Summary &s = result->summary();
    switch (metric) {
    case StepTime:
        return s.step_time_s;
    case Throughput:
        return s.samples_per_s;
    case Mfu:
        return s.mfu * 100.0;
    case Speedup:
        return s.speedup;
    case Efficiency:
        return s.scaling_efficiency * 100.0;
    case Compute:
        return s.breakdown.compute;
    case CommunicationExposed:
        return s.breakdown.communication_exposed;
    case PipelineBubble:
        return s.breakdown.pipeline_bubble;
    case Wait:
        return s.breakdown.wait;
    case DataLoading:
        return s.breakdown.data_loading;
    case MemoryPerGpu:
        return s.memory.total / kBytesPerGiB;
    case MetricCount:
        break;
    }
    return std::nullopt;
}

bool DeltaTableModel::lowerIsBetter(Metric metric)
{
    switch (metric) {
    case Throughput:
    case Mfu:
    case Speedup:
    case Efficiency:
        return false;
    default:
        return true;
    }
}

QString DeltaTableModel::metricName(Metric metric)
{
    switch (metric) {
    case StepTime:
        return tr("Step time (s)");
    case Throughput:
        return tr("Throughput (samples/s)");
    case Mfu:
        return tr("MFU (%)");
    case Speedup:
        return tr("Speed-up (×)");
    case Efficiency:
        return tr("Scaling efficiency (%)");
    case Compute:
        return tr("Compute (s/step)");
    case CommunicationExposed:
        return tr("Exposed communication (s/step)");
    case PipelineBubble:
        return tr("Pipeline bubble (s/step)");
    case Wait:
        return tr("Waiting (s/step)");
    case DataLoading:
        return tr("Data loading (s/step)");
    case MemoryPerGpu:
        return tr("Memory per GPU (GiB)");
    case MetricCount:
        break;
    }
    return {};
}

std::optional<double> DeltaTableModel::cellValue(int row, int column) const
{
    const auto metric = Metric(row);
    const std::optional<double> a = value(a_, metric), b = value(b_, metric);
    switch (Column(column)) {
    case A:
        return a;
    case B:
        return b;
    case Delta:
        if (a && b)
            return *b - *a;
        return std::nullopt;
    case DeltaPercent:
        if (a && b && *a != 0)
            return (*b - *a) / std::fabs(*a) * 100.0;
        return std::nullopt;
    case ColumnCount:
        break;
    }
    return std::nullopt;
}

int DeltaTableModel::comparison(int row) const
{
    const std::optional<double> delta = cellValue(row, Delta);
    const std::optional<double> a = cellValue(row, A);
    if (!delta || !a)
        return 0;
    const double scale = std::max({std::fabs(*a), std::fabs(*a + *delta), 1e-300});
    if (std::fabs(*delta) <= kEqualTolerance * scale)
        return 0;
    const bool lower = *delta < 0;
    return lower == lowerIsBetter(Metric(row)) ? 1 : -1;
}

int DeltaTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : MetricCount;
}

int DeltaTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DeltaTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row(), column = index.column();
    const bool is_delta = column == Delta || column == DeltaPercent;
    switch (role) {
    case Qt::DisplayRole: {
        const std::optional<double> v = cellValue(row, column);
        if (!v)
            return kEmDash;
        const QLocale locale;
        // A difference within the comparison's tolerance is no difference (issue 26: the
        // rounding of two equal runs showed "+1.608E-06").
        if (is_delta && comparison(row) == 0)
            return column == DeltaPercent ? locale.toString(0.0, 'f', 1) : locale.toString(0);
        // Four significant digits, never in E-notation.
        const auto plain = [&locale](double x) {
            const double magnitude = x == 0 ? 0 : std::floor(std::log10(std::fabs(x)));
            const int decimals = static_cast<int>(std::clamp(3.0 - magnitude, 0.0, 12.0));
            return locale.toString(x, 'f', decimals);
        };
        QString text = column == DeltaPercent ? locale.toString(*v, 'f', 1) : plain(*v);
        if (is_delta && *v > 0)
            text.prepend(QLatin1Char('+'));
        return text;
    }
    case RawValueRole: {
        const std::optional<double> v = cellValue(row, column);
        return v ? QVariant(*v) : QVariant();
    }
    case ComparisonRole:
        return is_delta ? comparison(row) : 0;
    case Qt::ForegroundRole:
        if (is_delta) {
            const int c = comparison(row);
            if (c > 0)
                return QBrush(QColor(0x1b, 0x7f, 0x3b));
            if (c < 0)
                return QBrush(QColor(0xc6, 0x28, 0x28));
        }
        return {};
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (is_delta) {
            const int c = comparison(row);
            const QString direction =
                lowerIsBetter(Metric(row)) ? tr("lower is better") : tr("higher is better");
            if (c > 0)
                return tr("B is better (%1)").arg(direction);
            if (c < 0)
                return tr("B is worse (%1)").arg(direction);
        }
        return {};
    default:
        return {};
    }
}

QVariant DeltaTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Vertical) {
        if (section < 0 || section >= MetricCount)
            return {};
        if (role == Qt::ToolTipRole)
            return lowerIsBetter(Metric(section)) ? tr("Lower is better") : tr("Higher is better");
        return metricName(Metric(section));
    }
    switch (section) {
    case A:
        return role == Qt::DisplayRole ? tr("A") : tr("The pinned scenario");
    case B:
        return role == Qt::DisplayRole ? tr("B") : tr("The current scenario");
    case Delta:
        return role == Qt::DisplayRole ? tr("Δ (B − A)") : tr("B minus A, in the row's unit");
    case DeltaPercent:
        return role == Qt::DisplayRole ? tr("Δ %") : tr("B minus A, relative to A, in percent");
    default:
        return {};
    }
}

} // namespace scalescope
