#include "profile_library.h"

#include "comm/collective.h"

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
#include <cctype>
#include <cmath>

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

std::vector<ProfileEntry> scanProfiles(const QStringList &dirs, const QString &writable_dir)
{
    std::vector<ProfileEntry> entries;
    const QString writable = QDir(writable_dir).absolutePath();
    for (const QString &d : dirs) {
        const QDir dir(d);
        const QStringList files = dir.entryList({QStringLiteral("*.json"), QStringLiteral("*.md")},
                                                QDir::Files, QDir::Name);
        for (const QString &name : files) {
            ProfileEntry e;
            e.path = dir.absoluteFilePath(name);
            e.read_only = dir.absolutePath() != writable;
            Result<CalibrationProfile> p = loadProfileFile(e.path);
            if (p)
                e.profile = std::make_shared<const CalibrationProfile>(std::move(p.value()));
            else
                e.error = QString::fromStdString(p.error().toString());
            entries.push_back(std::move(e));
        }
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

namespace
{
std::vector<std::string> tokens(const std::string &s)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!cur.empty()) {
            out.push_back(cur);
            cur.clear();
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}
} // namespace

const GpuSpec *matchCatalogGpu(const std::string &name, double memory_bytes)
{
    // The model token is the one with a digit ("h200", "4090", "a100", "mi300x").
    std::vector<std::string> wanted;
    for (const std::string &t : tokens(name))
        if (std::any_of(t.begin(), t.end(), [](char c) { return std::isdigit(c); }))
            wanted.push_back(t);
    if (wanted.empty())
        return nullptr;
    const GpuSpec *best = nullptr;
    double best_score = -1;
    for (const GpuSpec &g : builtinCatalog().gpus) {
        const std::vector<std::string> have = tokens(g.name + " " + g.id);
        bool all = true;
        for (const std::string &w : wanted)
            all = all && std::find(have.begin(), have.end(), w) != have.end();
        if (!all)
            continue;
        // Prefer the memory size nearest the measured one, then the larger part.
        const double score =
            memory_bytes > 0 ? -std::abs(g.memoryBytes() - memory_bytes) : g.memory_gb;
        if (best == nullptr || score > best_score) {
            best = &g;
            best_score = score;
        }
    }
    return best;
}

int profileGpuCount(const CalibrationProfile &profile)
{
    int n = static_cast<int>(profile.gpus.size());
    for (const ProfileCollective &c : profile.collectives)
        n = std::max(n, c.gpus);
    return n;
}

std::vector<FigureRow> compareFigures(const std::vector<const CalibrationProfile *> &profiles,
                                      const HardwareSpec *links)
{
    std::vector<FigureRow> rows;
    if (profiles.empty())
        return rows;
    const CalibrationProfile &first = *profiles.front();
    const GpuSpec *sheet = first.gpus.empty() ? nullptr
                                              : matchCatalogGpu(first.gpus.front().name,
                                                                first.gpus.front().memory_bytes);
    auto add = [&](const QString &figure, const QString &unit, double datasheet, auto &&measure,
                   const QString &note = QString()) {
        FigureRow row{figure, unit, datasheet, {}, note};
        bool any = false;
        for (const CalibrationProfile *p : profiles) {
            const double v = measure(*p);
            any = any || v > 0;
            row.measured.push_back(v);
        }
        if (any || datasheet > 0)
            rows.push_back(std::move(row));
    };
    for (int pi = 0; pi < kPrecisionCount; ++pi) {
        const auto prec = static_cast<Precision>(pi);
        add(QCoreApplication::translate("Calibration", "GEMM peak, %1")
                .arg(QLatin1String(precisionName(prec))),
            QStringLiteral("TFLOP/s"), sheet ? sheet->peak(prec) : 0,
            [pi](const CalibrationProfile &p) {
                double best = 0;
                for (const ProfileGpu &g : p.gpus)
                    for (const ProfileGemmPoint &pt : g.gemm_tflops[static_cast<size_t>(pi)])
                        best = std::max(best, pt.tflops);
                return best;
            });
    }
    add(QCoreApplication::translate("Calibration", "Memory bandwidth"), QStringLiteral("GB/s"),
        sheet ? sheet->memory_bandwidth_gbps : 0, [](const CalibrationProfile &p) {
            return p.gpus.empty() ? 0.0 : p.gpus.front().memory_bandwidth_gbps;
        });
    add(QCoreApplication::translate("Calibration", "Host to device (pinned)"),
        QStringLiteral("GB/s"), 0, [](const CalibrationProfile &p) {
            return p.gpus.empty() ? 0.0 : p.gpus.front().h2d_pinned_gbps;
        });
    add(QCoreApplication::translate("Calibration", "Device to host (pinned)"),
        QStringLiteral("GB/s"), 0, [](const CalibrationProfile &p) {
            return p.gpus.empty() ? 0.0 : p.gpus.front().d2h_pinned_gbps;
        });
    add(QCoreApplication::translate("Calibration", "Kernel launch overhead"), QStringLiteral("µs"),
        sheet ? sheet->launch_overhead_us : 0, [](const CalibrationProfile &p) {
            return p.gpus.empty() ? 0.0 : p.gpus.front().launch_overhead_us;
        });
    add(QCoreApplication::translate("Calibration", "Peer-to-peer bandwidth (best pair)"),
        QStringLiteral("GB/s"), 0, [](const CalibrationProfile &p) {
            double best = 0;
            for (const ProfileP2P &x : p.p2p)
                best = std::max(best, x.bandwidth_gbps);
            return best;
        });
    for (const auto &[op, kind] : {std::pair{"all_reduce", CollectiveOp::AllReduce},
                                   std::pair{"all_gather", CollectiveOp::AllGather},
                                   std::pair{"reduce_scatter", CollectiveOp::ReduceScatter}}) {
        // What the model assumes without the profile: its datasheet links, on the shape and
        // at the largest size the first profile measured.
        double predicted = 0;
        const ProfileCollective *largest = nullptr;
        for (const ProfileCollective &c : first.collectives)
            if (c.op == op && c.gpus > 1 && (!largest || c.bytes > largest->bytes))
                largest = &c;
        if (links && largest) {
            HardwareSpec hw = *links;
            hw.calibration.reset();
            const CommModel comm(hw);
            GroupShape g;
            g.ranks = largest->gpus;
            g.nodes = std::max(1, largest->nodes);
            g.ranks_per_node = std::max(1, largest->gpus / g.nodes);
            predicted = comm.cost(kind, largest->bytes, g).busbw_gbps;
        }
        const QString note =
            predicted > 0
                ? QCoreApplication::translate(
                      "Calibration",
                      "The model's prediction from the scenario's datasheet links (%1) for %2 "
                      "GPUs on %3 node(s) at %4 MB, the largest size measured")
                      .arg(QString::fromStdString(links->intra.name))
                      .arg(largest->gpus)
                      .arg(std::max(1, largest->nodes))
                      .arg(QLocale().toString(largest->bytes / 1e6, 'f', 0))
                : QString();
        add(
            QCoreApplication::translate("Calibration", "NCCL %1 bus bandwidth (peak)")
                .arg(QLatin1String(op)),
            QStringLiteral("GB/s"), predicted,
            [op = op](const CalibrationProfile &p) {
                double best = 0;
                for (const ProfileCollective &c : p.collectives)
                    if (c.op == op)
                        best = std::max(best, c.busbw_gbps);
                return best;
            },
            note);
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

QVariant FigureTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == 0)
        return tr("Figure");
    if (section == 1)
        return tr("Datasheet");
    if (section - 2 < names_.size())
        return names_.at(section - 2);
    return {};
}

} // namespace scalescope
