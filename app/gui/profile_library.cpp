#include "profile_library.h"

#include "analysis/calibration_compare.h"

#include "io/catalog_io.h"
#include "io/data_dir.h"
#include "io/profile_io.h"

#include <QColor>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

namespace scalescope
{

QString userProfileDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/profiles");
}

QStringList bundledProfileDirectories()
{
    // Installed: bin/../share/scalescope/profiles. Build tree: the source's
    // resources/profiles (io/data_dir.h). Never the current directory.
    const QString data = dataDirectory();
    if (data.isEmpty())
        return {};
    const QString dir = data + QStringLiteral("/profiles");
    if (!QFileInfo(dir).isDir())
        return {};
    return {QDir(dir).canonicalPath()};
}

ProfileEntry loadProfileEntry(const QString &path, bool read_only)
{
    ProfileEntry e;
    e.path = path;
    e.read_only = read_only;
    // In the GUI thread, at start: a FIFO (or a symlink to one) in the library would block
    // the window; only regular files are opened, without blocking.
    Result<CalibrationProfile> p = loadProfileFile(e.path, ReadKinds::RegularOnly);
    if (p)
        e.profile = std::make_shared<const CalibrationProfile>(std::move(p.value()));
    else
        e.error = QString::fromStdString(p.error().toString());
    return e;
}

std::vector<ProfileEntry> scanProfiles(const QStringList &dirs, const QString &writable_dir)
{
    std::vector<ProfileEntry> entries;
    const QString writable = QDir(writable_dir).absolutePath();
    for (const QString &d : dirs) {
        const QDir dir(d);
        const QStringList files = dir.entryList({QStringLiteral("*.json"), QStringLiteral("*.md")},
                                                QDir::Files, QDir::Name);
        for (const QString &name : files)
            entries.push_back(
                loadProfileEntry(dir.absoluteFilePath(name), dir.absolutePath() != writable));
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const ProfileEntry &a, const ProfileEntry &b) {
                         const std::string ca = a.profile ? a.profile->created : std::string();
                         const std::string cb = b.profile ? b.profile->created : std::string();
                         return ca > cb;
                     });
    return entries;
}

QString profileDisplayName(const CalibrationProfile &profile)
{
    QString gpu = profile.gpus.empty()
                      ? QCoreApplication::translate("Calibration", "collectives only")
                      : QString::fromStdString(profile.gpus.front().name);
    const QString date = QString::fromStdString(profile.created).left(10);
    return QCoreApplication::translate("Calibration", "%1 (measured %2)").arg(gpu, date);
}

std::vector<FigureRow> compareFigures(const std::vector<const CalibrationProfile *> &profiles,
                                      const HardwareSpec *links)
{
    // The model compares (analysis/calibration_compare.h); this names each record.
    const GpuSpec *sheet =
        profiles.empty() || profiles.front()->gpus.empty()
            ? nullptr
            : builtinCatalog().matchGpuName(profiles.front()->gpus.front().name,
                                            profiles.front()->gpus.front().memory_bytes);
    std::vector<FigureRow> rows;
    for (const FigureComparison &c : compareCalibration(profiles, sheet, links)) {
        FigureRow row{QString(), QStringLiteral("GB/s"), c.datasheet, c.measured, QString()};
        switch (c.figure) {
        case CalibrationFigure::GemmPeak:
            row.figure = QCoreApplication::translate("Calibration", "GEMM peak, %1")
                             .arg(QLatin1String(precisionName(c.precision)));
            row.unit = QStringLiteral("TFLOP/s");
            break;
        case CalibrationFigure::MemoryBandwidth:
            row.figure = QCoreApplication::translate("Calibration", "Memory bandwidth");
            break;
        case CalibrationFigure::HostToDevice:
            row.figure = QCoreApplication::translate("Calibration", "Host to device (pinned)");
            break;
        case CalibrationFigure::DeviceToHost:
            row.figure = QCoreApplication::translate("Calibration", "Device to host (pinned)");
            break;
        case CalibrationFigure::LaunchOverhead:
            row.figure = QCoreApplication::translate("Calibration", "Kernel launch overhead");
            row.unit = QStringLiteral("µs");
            break;
        case CalibrationFigure::HostLaunch:
            row.figure = QCoreApplication::translate("Calibration", "Kernel launch, host CPU time");
            row.unit = QStringLiteral("µs");
            break;
        case CalibrationFigure::SyncRoundTrip:
            row.figure =
                QCoreApplication::translate("Calibration", "Launch + synchronize round trip");
            row.unit = QStringLiteral("µs");
            break;
        case CalibrationFigure::PeerToPeer:
            row.figure =
                QCoreApplication::translate("Calibration", "Peer-to-peer bandwidth (best pair)");
            break;
        case CalibrationFigure::CollectiveBusBandwidth:
            row.figure = QCoreApplication::translate("Calibration", "NCCL %1 bus bandwidth (peak)")
                             .arg(QLatin1String(collectiveOpName(c.op)));
            break;
        }
        if (const std::optional<CollectivePrediction> &p = c.predicted_for)
            row.datasheet_note =
                QCoreApplication::translate(
                    "Calibration",
                    "The model's prediction from the scenario's datasheet links (%1) for %2 "
                    "GPUs on %3 node(s) at %4 MB, the largest size measured")
                    .arg(QString::fromStdString(p->link))
                    .arg(p->gpus)
                    .arg(p->nodes)
                    .arg(QLocale().toString(p->bytes / 1e6, 'f', 0));
        rows.push_back(std::move(row));
    }
    return rows;
}

ProfileListModel::ProfileListModel(QObject *parent) : QAbstractTableModel(parent) {}

void ProfileListModel::setEntries(std::vector<ProfileEntry> entries)
{
    beginResetModel();
    entries_ = std::move(entries);
    endResetModel();
}

const ProfileEntry *ProfileListModel::entry(int row) const
{
    if (row < 0 || row >= static_cast<int>(entries_.size()))
        return nullptr;
    return &entries_[static_cast<size_t>(row)];
}

int ProfileListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int ProfileListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProfileListModel::data(const QModelIndex &index, int role) const
{
    const ProfileEntry *e = entry(index.row());
    if (!index.isValid() || e == nullptr || index.column() >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole)
        return e->error.isEmpty() ? e->path : e->error;
    if (role == Qt::ForegroundRole && !e->error.isEmpty())
        return QColor(0xb0, 0x00, 0x20);
    if (role != Qt::DisplayRole)
        return {};
    const CalibrationProfile *p = e->profile.get();
    switch (index.column()) {
    case Name:
        return p ? profileDisplayName(*p) : tr("damaged: %1").arg(QFileInfo(e->path).fileName());
    case Gpus:
        return p ? QVariant(profileGpuCount(*p)) : QVariant();
    case Created:
        return p ? QString::fromStdString(p->created) : QString();
    case Host:
        return p ? QString::fromStdString(p->hostname) : QString();
    case File:
        if (e->from_scenario)
            return QFileInfo(e->path).fileName() + tr(" (the scenario's)");
        return QFileInfo(e->path).fileName() + (e->read_only ? tr(" (bundled)") : QString());
    default:
        return {};
    }
}

QVariant ProfileListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Profile");
    case Gpus:
        return tr("GPUs");
    case Created:
        return tr("Created");
    case Host:
        return tr("Host");
    case File:
        return tr("File");
    default:
        return {};
    }
}

FigureTableModel::FigureTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void FigureTableModel::setFigures(std::vector<FigureRow> rows, QStringList profile_names)
{
    beginResetModel();
    rows_ = std::move(rows);
    names_ = std::move(profile_names);
    endResetModel();
}

int FigureTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int FigureTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 2 + static_cast<int>(names_.size());
}

QVariant FigureTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size()) ||
        index.column() >= columnCount())
        return {};
    const FigureRow &r = rows_[static_cast<size_t>(index.row())];
    const int col = index.column();
    if (role == Qt::TextAlignmentRole && col > 0)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (col == 0)
        return QStringLiteral("%1 (%2)").arg(r.figure, r.unit);
    const auto fmt = [](double v) {
        return v > 0 ? QLocale().toString(v, 'f', v < 10 ? 2 : 1) : QStringLiteral("—");
    };
    if (col == 1)
        return role == Qt::ToolTipRole && !r.datasheet_note.isEmpty() ? r.datasheet_note
                                                                      : fmt(r.datasheet);
    const size_t i = static_cast<size_t>(col - 2);
    const double v = i < r.measured.size() ? r.measured[i] : 0;
    if (v > 0 && r.datasheet > 0)
        return QStringLiteral("%1  (%2%)").arg(fmt(v)).arg(100.0 * v / r.datasheet, 0, 'f', 0);
    return fmt(v);
}

// A profile's name on two lines, broken before its parenthesis ("collectives only" over
// "(measured 2026-12-01)", "…（测于 …）" in Chinese): its column is then about as wide as its
// figures, not as its name on one line, and fits beside the chart at 1280 px (issue 26).
static QString onTwoLines(const QString &name)
{
    qsizetype at = name.lastIndexOf(QLatin1Char('('));
    if (at <= 0)
        at = name.lastIndexOf(QChar(0xFF08)); // the full-width parenthesis
    if (at <= 0)
        return name;
    return name.left(at).trimmed() + QLatin1Char('\n') + name.mid(at);
}

QVariant FigureTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    const bool tooltip = role == Qt::ToolTipRole;
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && !tooltip))
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == 0)
        return tooltip ? QVariant() : QVariant(tr("Figure"));
    if (section == 1)
        return tooltip ? QVariant() : QVariant(tr("Datasheet"));
    if (section - 2 < names_.size())
        return tooltip ? names_.at(section - 2) : onTwoLines(names_.at(section - 2));
    return {};
}

} // namespace scalescope
