// Calibration profiles on disk: where they live, how they are listed, and their figures
// against the datasheet (the Calibration tab's data; no widgets here).
#pragma once

#include "hardware/calibration.h"
#include "hardware/hardware.h"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace scalescope
{

struct ProfileEntry {
    QString path;
    bool read_only = false;                            // bundled with the application
    bool from_scenario = false; // outside the library: the file the scenario names
    std::shared_ptr<const CalibrationProfile> profile; // null when it did not parse
    QString error;
};

/// Where the user's profiles are written (created on demand).
QString userProfileDirectory();
/// Profiles shipped with the application: share/scalescope/profiles beside the executable
/// when installed, resources/profiles in the source tree when run from a build.
QStringList bundledProfileDirectories();
/// One profile file, parsed (or with its error).
ProfileEntry loadProfileEntry(const QString &path, bool read_only);
/// Every *.json / *.md profile of `dirs`, newest first; files that do not parse are listed
/// with their error (never dropped silently).
std::vector<ProfileEntry> scanProfiles(const QStringList &dirs, const QString &writable_dir);

/// "NVIDIA H200 (measured 2026-11-30)".
QString profileDisplayName(const CalibrationProfile &profile);
/// One figure of the comparison table.
struct FigureRow {
    QString figure;
    QString unit;
    double datasheet = 0;         // 0 = no datasheet figure
    std::vector<double> measured; // per profile; 0 = not measured
    QString datasheet_note;       // where a datasheet figure that is not a datasheet's comes from
};
/// Measured against datasheet, for one or more profiles (columns): the model's comparison
/// (analysis/calibration_compare.h, the datasheet of the catalog GPU the first profile was
/// measured on, Catalog::matchGpuName) with each figure named for the table.
std::vector<FigureRow> compareFigures(const std::vector<const CalibrationProfile *> &profiles,
                                      const HardwareSpec *links = nullptr);
/// The profile list (columns: name, GPUs, created, host, file).
class ProfileListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Gpus, Created, Host, File, ColumnCount };
    explicit ProfileListModel(QObject *parent = nullptr);
    void setEntries(std::vector<ProfileEntry> entries);
    const ProfileEntry *entry(int row) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<ProfileEntry> entries_;
};

/// Measured against datasheet: rows = figures, columns = figure, datasheet, each profile.
class FigureTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit FigureTableModel(QObject *parent = nullptr);
    void setFigures(std::vector<FigureRow> rows, QStringList profile_names);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<FigureRow> rows_;
    QStringList names_;
};

} // namespace scalescope
