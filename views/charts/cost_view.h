// Cost tab. With a cost section in the scenario: its inputs as spin boxes (prices, work of a
// run, usage, migration) and the full report of model/analysis/economics.h (time to train
// against one GPU, energy, owning against renting, break-even, the verdict record rendered
// with tr(), the rule of thumb beside it, and advice). Without one: time and energy of a run
// from the same model (costReport with the run length and power price entered here, the
// format's default PUE) and a button that adds a cost section. Every figure shown is the
// model's; nothing is computed here. Edits are not applied here: costEdited asks the owner to
// change the scenario (an undoable edit) and recompute.
#pragma once

#include "analysis/economics.h"
#include "result.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace scalescope
{

class CostView : public QWidget
{
    Q_OBJECT
public:
    enum class RunLength { Steps, Tokens };
    /// How the cost section states the work of one run (exactly one of them is set).
    enum class WorkKind { Tokens, Epochs, Steps };

    explicit CostView(QWidget *parent = nullptr);

    /// Shows `result`; never emits costEdited.
    void setResult(const ResultPtr &result);
    ResultPtr result() const { return result_; }

    /// Whether the full cost report is shown (the scenario has a cost section).
    bool showsReport() const;
    /// The verdict headline ("4 GPUs: worth it — rent in the cloud"); empty without a report.
    QString verdictText() const;
    /// The report the page shows (the worker's, or costReport of the scenario's section).
    const CostReport &report() const { return report_; }

    // Engine figures, shown when the scenario has no cost section.
    RunLength runLength() const;
    /// Tokens needs a transformer (sequence length); otherwise Steps is kept.
    void setRunLength(RunLength mode);
    void setRunSteps(int steps);
    void setRunTokensBillions(double tokens_billions);
    void setPricePerKwh(double price);

    /// Steps of the run the engine figures describe (from the steps or the tokens entered).
    double runSteps() const;
    /// The engine figures: costReport (analysis/economics.h) of the entered run length and
    /// power price, with the format's other defaults (CostSpec); empty without a valid result.
    CostReport engineReport() const;

Q_SIGNALS:
    /// The user edited the cost section (or added one): `cost` is the whole new section and
    /// `description` names the edit for the undo stack ("Change GPU price").
    void costEdited(const scalescope::CostSpec &cost, const QString &description);

private:
    struct CostField {
        QDoubleSpinBox *spin = nullptr;
        double CostSpec::*member = nullptr;
        double scale = 1; // spec value = spin value x scale
        QString description;
    };

    QWidget *buildEnginePage();
    QWidget *buildReportPage();
    QDoubleSpinBox *addCostSpin(const char *object_name, double CostSpec::*member, double min,
                                double max, int decimals, double single_step, const QString &suffix,
                                const QString &tool_tip, const QString &description,
                                double scale = 1);
    void updateEngineOutputs();
    void showCostSpec();
    void showReport(const CostReport &report);
    void costSpinEdited(const CostField &field);
    void workKindEdited();
    void addCostSection();
    void markMissingPrices(const CostVerdict &verdict);
    WorkKind workKind() const;
    void enableWorkSpins();

    ResultPtr result_;
    CostSpec spec_;
    CostReport report_;
    bool updating_ = false;      // setResult is writing the spin boxes
    bool focus_missing_ = false; // a cost section was just added: focus its first missing price
    QStackedWidget *stack_ = nullptr;
    QLabel *message_ = nullptr;
    QWidget *engine_page_ = nullptr;
    QWidget *report_page_ = nullptr;

    // Engine page.
    QComboBox *run_length_ = nullptr;
    QSpinBox *steps_ = nullptr;
    QDoubleSpinBox *tokens_ = nullptr;
    QDoubleSpinBox *price_ = nullptr;
    QLabel *steps_from_tokens_ = nullptr;
    QLabel *time_per_step_ = nullptr;
    QLabel *time_per_run_ = nullptr;
    QLabel *gpu_hours_ = nullptr;
    QLabel *energy_per_step_ = nullptr;
    QLabel *energy_per_run_ = nullptr;
    QLabel *electricity_cost_ = nullptr;
    QLabel *assumption_ = nullptr;
    QPushButton *add_cost_ = nullptr;

    // Report page: inputs.
    std::vector<CostField> fields_;
    QDoubleSpinBox *gpu_price_ = nullptr;
    QDoubleSpinBox *cloud_price_ = nullptr;
    QDoubleSpinBox *power_price_ = nullptr;
    QDoubleSpinBox *day_rate_ = nullptr;
    QComboBox *work_kind_ = nullptr;
    QDoubleSpinBox *work_tokens_ = nullptr;
    QDoubleSpinBox *work_epochs_ = nullptr;
    QDoubleSpinBox *work_samples_ = nullptr;
    QDoubleSpinBox *work_steps_ = nullptr;
    // Report page: outputs.
    QLabel *verdict_ = nullptr;
    QLabel *verdict_detail_ = nullptr;
    QLabel *rule_of_thumb_ = nullptr;
    QLabel *steps_per_run_ = nullptr;
    QLabel *time_to_train_ = nullptr;
    QLabel *gpu_hours_per_run_ = nullptr;
    QLabel *energy_ = nullptr;
    QLabel *power_ = nullptr;
    QLabel *capital_ = nullptr;
    QLabel *cost_per_month_ = nullptr;
    QLabel *cost_per_run_ = nullptr;
    QLabel *break_even_ = nullptr;
    QLabel *migration_ = nullptr;
    QLabel *hours_saved_ = nullptr;
    QLabel *advice_ = nullptr;
};

} // namespace scalescope
