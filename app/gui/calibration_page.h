// The Calibration tab: profiles measured by gpuprobe on the user's GPUs. Runs the probe as
// a child process with progress and cancel; lists, compares and deletes profiles; shows
// measured against datasheet figures and GEMM throughput against size; applies a profile
// to the current scenario.
#pragma once

#include "hardware/calibration.h"
#include "profile_library.h"

#include <QWidget>

#include <optional>

#include <memory>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTableView;

class QChartView;

namespace scalescope
{

class ProbeRunner;

class CalibrationPage : public QWidget
{
    Q_OBJECT
public:
    explicit CalibrationPage(QWidget *parent = nullptr);
    ~CalibrationPage() override;

    /// Folders to list (the first writable one receives new profiles). Rescans.
    void setDirectories(const QStringList &read_only_dirs, const QString &writable_dir);
    void rescan();
    /// The profile the current scenario uses ("" = datasheet figures).
    void setAppliedProfile(const QString &path);
    /// The scenario's hardware: its datasheet links are what the NCCL rows compare with.
    void setHardware(const HardwareSpec &hardware);
    /// What applying a profile changed (figures and step time), under the applied label.
    void setApplyReport(const QString &text);
    QString applyReport() const;
    /// Selects profiles by row (tests); several rows = compare.
    void selectRows(const QList<int> &rows);
    ProfileListModel *profileModel() const { return list_model_; }
    FigureTableModel *figureModel() const { return figure_model_; }
    ProbeRunner *runner() const { return runner_; }
    /// The program run by "Measure this machine" (default: gpuprobe beside this program).
    void setProbeProgram(const QString &program) { probe_program_ = program; }
    /// Arguments added to every probe run (tests use gpuprobe's --fake-gpus N).
    void setExtraProbeArguments(const QStringList &arguments) { extra_arguments_ = arguments; }
    /// Starts the probe writing into the writable folder. False if it cannot start.
    bool startProbe(bool quick);
    /// Imports nccl-tests logs through gpuprobe --from-nccl-tests.
    bool importNcclTests(const QStringList &logs);
    /// Deletes a user profile (bundled ones are read-only). `ask` = confirm first.
    bool deleteProfile(int row, bool ask);

Q_SIGNALS:
    /// The user asked to use this profile in the current scenario ("" = back to datasheet).
    void applyRequested(const QString &path);

private:
    void updateSelection();
    void updateChart(const std::vector<const CalibrationProfile *> &profiles);
    void probeFinished(int exit_code, const QString &message);
    /// Runs gpuprobe writing "<name>-<time>.json" into the writable folder.
    bool runProbe(const QString &name, const QStringList &arguments, const QString &status);
    void setProbeRunning(bool running);
    QList<int> selectedRows() const;
    /// The library, with the scenario's profile first where it lies outside it; keeps the
    /// selection (by file), or selects the scenario's profile when `select_applied`.
    void showEntries(bool select_applied);

    QStringList read_only_dirs_;
    QString writable_dir_;
    QString applied_path_;
    std::vector<ProfileEntry> library_; // the folders' profiles, as last scanned
    QString probe_program_;
    QString probe_output_;
    QStringList extra_arguments_;
    ProbeRunner *runner_ = nullptr;
    ProfileListModel *list_model_ = nullptr;
    FigureTableModel *figure_model_ = nullptr;
    QStackedWidget *stack_ = nullptr;
    QTableView *list_view_ = nullptr;
    QTableView *figure_view_ = nullptr;
    QChartView *gemm_chart_ = nullptr;
    QLabel *gemm_note_ = nullptr; // instead of the chart when no profile measured GEMMs
    QLabel *details_ = nullptr;
    QLabel *applied_label_ = nullptr;
    QLabel *apply_report_ = nullptr;
    std::optional<HardwareSpec> hardware_;
    QPushButton *measure_button_ = nullptr;
    QCheckBox *quick_check_ = nullptr;
    QPushButton *import_button_ = nullptr;
    QPushButton *cancel_button_ = nullptr;
    QPushButton *apply_button_ = nullptr;
    QPushButton *datasheet_button_ = nullptr;
    QPushButton *delete_button_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *progress_label_ = nullptr;
    QPlainTextEdit *log_ = nullptr;
};

} // namespace scalescope
