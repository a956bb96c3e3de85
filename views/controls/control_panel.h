// The control panel: the left-hand dock that edits a scenario in four groups (Hardware, Model
// and batch, Parallelism, Effects). Every user edit is one scenarioEdited signal carrying the
// whole new scenario, an undo-stack description and a merge key (one slider drag = one key).
#pragma once

#include "controls/control_checks.h"
#include "io/catalog.h"
#include "plan/scenario.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QWidget>

#include <optional>
#include <string>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QListWidget;
class QPushButton;
class QSlider;
class QToolButton;
class QAction;

namespace scalescope
{
class BlockedRangeSlider;
}
class QSpinBox;

namespace scalescope
{

class ControlPanel : public QWidget
{
    Q_OBJECT

public:
    /// The strategies of the strategy combo, in its order.
    enum class Strategy { DataParallel, Zero1, Zero2, Zero3, Tensor, Pipeline, Hybrid };

    /// Uses the built-in catalog (GPUs, links, model presets).
    explicit ControlPanel(QWidget *parent = nullptr);
    /// Uses `catalog`, which must outlive the panel.
    explicit ControlPanel(const Catalog &catalog, QWidget *parent = nullptr);
    ~ControlPanel() override;

    /// Shows `scenario` in every control without emitting scenarioEdited. What the controls
    /// cannot represent (inline GPUs, links and models, calibration, collectives) is kept.
    void setScenario(const Scenario &scenario);
    /// The scenario as shown (setScenario's argument with the user's edits applied).
    Scenario scenario() const;

    /// Shows the model's own error `message` beside the control that owns `key_path`
    /// ("parallel.pipeline", "training.micro_batch", "effects.stragglers[0].gpu"); a path no
    /// control owns goes to the top of the panel. Replaces the previous model error; an empty
    /// path clears it. The local checks (checkScenario) stay shown.
    void setValidationError(const QString &key_path, const QString &message);

    /// The local issues shown now (checkScenario of the current scenario).
    QList<ControlIssue> issues() const { return issues_; }
    /// The message label beside the control that owns `key_path` (objectName "...Error").
    QLabel *messageLabel(const QString &key_path) const;

    /// The strategy the combo shows, and how a scenario's degrees map to one.
    Strategy strategy() const { return strategy_; }
    static Strategy strategyOf(const ParallelSpec &parallel);

Q_SIGNALS:
    /// One user edit. `merge_key` is non-zero and the same for every change of one slider
    /// drag (a new key per drag), 0 for discrete edits.
    void scenarioEdited(const scalescope::Scenario &scenario, const QString &description,
                        int merge_key);

private:
    struct MessageSlot {
        QFormLayout *form = nullptr;
        QLabel *label = nullptr;
    };

    void build();
    QWidget *buildHardware(QWidget *parent);
    QWidget *buildModel(QWidget *parent);
    QWidget *buildParallel(QWidget *parent);
    QWidget *buildEffects(QWidget *parent);
    void buildThermal(QWidget *group, QFormLayout *form);
    void buildVirtualGpuAndFailures(QWidget *group, QFormLayout *form);
    void connectHardware();
    void connectModel();
    void connectParallel();
    void connectEffects();
    void connectThermal();
    void connectVirtualGpuAndFailures();
    void setTabOrders();

    /// Adds "label: field" to `form` and a hidden message row under it that owns `keys`.
    void addRow(QFormLayout *form, const QString &label, QWidget *field, QWidget *buddy,
                const QStringList &keys = {}, const QString &messageName = {});
    /// Adds a message row under the last row for `keys`.
    void addMessageRow(QFormLayout *form, const QStringList &keys, const QString &name);
    void setRowVisible(QWidget *field, bool visible);
    /// A collapsible container row under `toggle` in `form`; returns the form of its rows.
    QFormLayout *addEffectRows(QFormLayout *form, QCheckBox *toggle);

    /// Shows `next`; emits scenarioEdited when it differs from the current scenario.
    void commit(Scenario next, const QString &description, int mergeKey);
    int slotFor(const QString &keyPath) const;
    /// Gives every press-move-release of `slider` its own merge key (drag_key_).
    void trackDrag(QSlider *slider);

    void setGpuShape(Scenario &s, int nodes, int gpusPerNode) const;
    void applyGpuTotal(Scenario &s, int total) const;
    void applyStrategy(Scenario &s, Strategy strategy) const;

    void syncControls();
    void syncHardware();
    void syncModel();
    void syncParallel();
    void syncEffects();
    void syncThermal();
    void updateStrategyRows();
    void updateMessages();
    /// The stack a plan the chosen stack cannot run should switch to (a catalog stack that
    /// runs it, else Auto), or nothing when the stack runs the plan.
    std::optional<std::string> stackThatRunsThePlan() const;
    /// Shows the one-click fix beside the stack's error (stackFixButton), or hides it.
    void updateStackFix();

    const Catalog &catalog_;
    Scenario scenario_;
    bool has_scenario_ = false;
    bool syncing_ = false;
    Strategy strategy_ = Strategy::DataParallel;
    int preferred_gpus_per_node_ = 8;
    int drag_key_ = 0; // non-zero while a slider is held down
    QList<ControlIssue> issues_;
    QString model_error_path_;
    QString model_error_message_;

    QHash<QString, int> slot_of_key_;
    QList<MessageSlot> slots_;
    QHash<QWidget *, QFormLayout *> form_of_field_;

    // Hardware
    QComboBox *gpu_combo_ = nullptr;
    BlockedRangeSlider *gpu_count_slider_ = nullptr;
    QLabel *gpu_count_label_ = nullptr;
    QSpinBox *nodes_spin_ = nullptr;
    QSpinBox *gpus_per_node_spin_ = nullptr;
    QComboBox *intra_combo_ = nullptr;
    QComboBox *inter_combo_ = nullptr;
    QSpinBox *nics_spin_ = nullptr;
    QComboBox *pcie_topology_combo_ = nullptr;
    QDoubleSpinBox *host_memory_spin_ = nullptr;
    QSpinBox *power_limit_spin_ = nullptr;   // W; the TDP = no cap (power_limit_w 0)
    QSpinBox *nvlink_domain_spin_ = nullptr; // nodes in one NVLink domain (1 = the node)
    QSpinBox *cpu_cores_spin_ = nullptr;     // 0 = not stated
    // Model and batch
    QComboBox *model_combo_ = nullptr;
    QSpinBox *layers_spin_ = nullptr;
    QSpinBox *hidden_spin_ = nullptr;
    QSpinBox *heads_spin_ = nullptr;
    QSpinBox *seq_len_spin_ = nullptr;
    QSpinBox *vocab_spin_ = nullptr;
    QSlider *global_batch_slider_ = nullptr;
    QSpinBox *global_batch_spin_ = nullptr;
    QSpinBox *micro_batch_spin_ = nullptr;
    QComboBox *precision_combo_ = nullptr;
    QComboBox *optimizer_combo_ = nullptr;
    QComboBox *recompute_combo_ = nullptr;
    /// training.recompute_modules: a menu of checkable modules (Megatron-Core's names).
    QToolButton *recompute_modules_button_ = nullptr;
    QList<QAction *> recompute_module_actions_;
    QCheckBox *flash_check_ = nullptr;
    QCheckBox *compile_check_ = nullptr;
    QComboBox *memory_format_combo_ = nullptr;
    QSpinBox *offload_spin_ = nullptr;
    QComboBox *fp8_recipe_combo_ = nullptr;
    QComboBox *head_combo_ = nullptr;
    // Parallelism
    QComboBox *framework_combo_ = nullptr;
    QPushButton *stack_fix_ = nullptr;
    QComboBox *strategy_combo_ = nullptr;
    QSpinBox *data_spin_ = nullptr;
    QSpinBox *tensor_spin_ = nullptr;
    QSpinBox *pipeline_spin_ = nullptr;
    QSpinBox *context_spin_ = nullptr;
    QSpinBox *expert_spin_ = nullptr;
    QComboBox *dispatcher_combo_ = nullptr;
    QCheckBox *expert_overlap_check_ = nullptr;
    QDoubleSpinBox *imbalance_spin_ = nullptr;
    QComboBox *zero_combo_ = nullptr;
    QComboBox *schedule_combo_ = nullptr;
    QSpinBox *virtual_stages_spin_ = nullptr;
    QCheckBox *sequence_parallel_check_ = nullptr;
    QCheckBox *tp_overlap_check_ = nullptr;
    QCheckBox *overlap_check_ = nullptr;
    QDoubleSpinBox *bucket_spin_ = nullptr;
    QComboBox *update_combo_ = nullptr;
    // Effects
    QDoubleSpinBox *seed_spin_ = nullptr;
    QDoubleSpinBox *jitter_spin_ = nullptr;
    QListWidget *straggler_list_ = nullptr;
    QSpinBox *straggler_gpu_spin_ = nullptr;
    QDoubleSpinBox *straggler_slowdown_spin_ = nullptr;
    QPushButton *straggler_add_button_ = nullptr;
    QPushButton *straggler_remove_button_ = nullptr;
    QCheckBox *thermal_check_ = nullptr;
    QDoubleSpinBox *thermal_threshold_spin_ = nullptr;
    QDoubleSpinBox *thermal_drop_spin_ = nullptr;
    QDoubleSpinBox *thermal_warmup_spin_ = nullptr;
    QComboBox *thermal_cooling_combo_ = nullptr;
    QDoubleSpinBox *thermal_steady_spin_ = nullptr;
    QDoubleSpinBox *thermal_ambient_spin_ = nullptr;
    QDoubleSpinBox *thermal_start_spin_ = nullptr; // minimum = steady state (start_s unset)
    QListWidget *thermal_gpu_list_ = nullptr;
    QSpinBox *thermal_gpu_spin_ = nullptr;
    QDoubleSpinBox *thermal_gpu_steady_spin_ = nullptr;
    QPushButton *thermal_gpu_add_button_ = nullptr;
    QPushButton *thermal_gpu_remove_button_ = nullptr;
    QCheckBox *loader_check_ = nullptr;
    QSpinBox *loader_workers_spin_ = nullptr;
    QComboBox *loader_pipeline_combo_ = nullptr; // a catalog pipeline, or the stated rate
    QDoubleSpinBox *loader_rate_spin_ = nullptr;
    QSpinBox *loader_prefetch_spin_ = nullptr;
    QCheckBox *virtual_gpu_check_ = nullptr;
    QDoubleSpinBox *virtual_fraction_spin_ = nullptr; // percent
    QCheckBox *host_routed_check_ = nullptr;
    QCheckBox *failures_check_ = nullptr;
    QDoubleSpinBox *mtbf_spin_ = nullptr;                // hours per GPU
    QDoubleSpinBox *checkpoint_size_spin_ = nullptr;     // GB, 0 = model states
    QDoubleSpinBox *checkpoint_write_spin_ = nullptr;    // GB/s
    QDoubleSpinBox *restart_spin_ = nullptr;             // s
    QDoubleSpinBox *checkpoint_interval_spin_ = nullptr; // s, 0 = optimal (Young/Daly)
    /// Effects switched on by a check box: the container of their rows, shown while it is on
    /// (addEffectRows).
    struct EffectToggle {
        QCheckBox *toggle = nullptr;
        QWidget *rows = nullptr;
    };
    QList<EffectToggle> effect_toggles_;

    QLabel *general_message_ = nullptr;
    QWidget *model_group_ = nullptr;
    QWidget *parallel_group_ = nullptr;
    int model_fixed_items_ = 0;  // catalog presets and "Custom transformer..."
    QList<QWidget *> tab_chain_; // controls in visual order
};

} // namespace scalescope
