// "Suggest plan" dialog: searches parallel plans for a GPU count in a worker thread
// (model/analysis/planner.h), ranks them by step time in a table and applies the chosen
// one to a copy of the scenario. The UI never blocks: progress and results arrive as
// queued calls; Cancel and closing the dialog stop the search (closing also joins it).
#pragma once

#include "analysis/planner.h"
#include "analysis/sweep.h"

#include <QAbstractTableModel>
#include <QDialog>
#include <QPalette>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace scalescope
{

/// One finished (or cancelled, or failed) search, with its wall time.
struct PlanSearchRun {
    int gpus = 0;
    int top_k = 0;
    std::optional<PlanSearchResult> result; // empty when the search was refused
    QString error_field;                    // user-facing field name ("GPU count"), on error
    QString error_message;                  // the model's message, on error
    double elapsed_ms = 0;

    bool ok() const { return result.has_value(); }
    bool cancelled() const { return result && result->cancelled; }
};

/// Runs searchPlans synchronously and times it (the dialog's worker calls this too).
PlanSearchRun runPlanSearch(const Scenario &base, const PlanSearchOptions &options);

/// The user-facing name of a searchPlans error path (kRequestedGpusPath -> "GPU count").
QString planErrorField(const std::string &path);

/// "1,020 plans considered, 669 fit in memory, 351 dropped for memory, 14 ms", or the
/// error naming its field, or the cancelled note.
QString planSummaryText(const PlanSearchRun &run);

/// Whether `candidate` on `gpus` GPUs is the plan `scenario` already uses.
bool isCurrentPlan(const Scenario &scenario, int gpus, const PlanCandidate &candidate);

/// The ranked candidates of one search, one row each, fastest first.
class PlanTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        DataColumn,
        TensorColumn,
        PipelineColumn,
        ZeroColumn,
        ScheduleColumn,
        MicroBatchColumn,
        RecomputeColumn,
        StepTimeColumn,
        SamplesPerSColumn,
        MfuColumn,
        MemoryColumn,
        BottleneckColumn,
        ColumnCount
    };
    enum Role {
        /// The number behind a cell (degrees, seconds, samples/s, MFU fraction, bytes).
        ValueRole = Qt::UserRole + 1,
        /// true on the row of the scenario's own plan.
        IsCurrentRole,
    };

    explicit PlanTableModel(QObject *parent = nullptr);

    /// Replaces the rows. `current_row` is the row of the scenario's own plan, or -1.
    void setCandidates(std::vector<PlanCandidate> candidates, int current_row = -1);
    void clear();

    /// The candidate of `row`, or nullptr outside the rows.
    const PlanCandidate *candidate(int row) const;
    int currentRow() const { return current_row_; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<PlanCandidate> rows_;
    int current_row_ = -1;
};

class PlanDialog : public QDialog
{
    Q_OBJECT
public:
    /// The search itself; replaceable so that tests can hold a search open.
    using SearchFunction =
        std::function<Result<PlanSearchResult>(const Scenario &, const PlanSearchOptions &)>;

    /// `scenario` is the current document's scenario; its GPU count is the default.
    /// The first search starts when the event loop next runs (set `auto_start` false to
    /// wait for the Search button).
    explicit PlanDialog(const Scenario &scenario, QWidget *parent = nullptr,
                        bool auto_start = true);
    /// Cancels a running search and joins its thread.
    ~PlanDialog() override;

    /// The scenario with the applied candidate; empty until Apply.
    const std::optional<Scenario> &chosenScenario() const { return chosen_; }
    /// The last search that finished (or failed), if any.
    const std::optional<PlanSearchRun> &lastRun() const { return last_run_; }
    bool isSearching() const { return searching_; }
    PlanTableModel *tableModel() const { return model_; }

    /// Test seam: the function the worker runs (default: searchPlans).
    void setSearchFunction(SearchFunction search);

public Q_SLOTS:
    /// Starts a search with the spin boxes' values (a running one is cancelled first).
    void startSearch();
    /// Asks the running search to stop; its partial result arrives as usual.
    void cancelSearch();
    /// Applies the selected row and accepts the dialog.
    void applySelected();

Q_SIGNALS:
    /// Emitted after each search has ended and the table and summary show it.
    void searchFinished();

protected:
    void done(int result) override;

private:
    void onProgress(quint64 generation, int permille);
    void onFinished(quint64 generation, PlanSearchRun run);
    void stopWorker();
    void setSearching(bool searching);
    void showSummary(const QString &text, bool error);
    void updateApplyEnabled();

    Scenario base_;
    SearchFunction search_;
    std::optional<Scenario> chosen_;
    std::optional<PlanSearchRun> last_run_;
    int table_gpus_ = 0; // GPU count of the rows shown

    std::thread worker_;
    std::atomic<bool> cancel_{false};
    quint64 generation_ = 0;
    bool searching_ = false;

    QSpinBox *gpus_spin_ = nullptr;
    QSpinBox *top_spin_ = nullptr;
    QPushButton *search_button_ = nullptr;
    QPushButton *cancel_button_ = nullptr;
    QPushButton *apply_button_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QTableView *table_ = nullptr;
    QLabel *summary_ = nullptr;
    QPalette summary_palette_;
    PlanTableModel *model_ = nullptr;
};

} // namespace scalescope
