// The control panel: construction, rows and their messages, edits (commit, GPU shape,
// strategy) and showing a scenario; each group's widgets are in control_panel_<group>.cpp.
#include "controls/control_panel_p.h"

namespace scalescope
{

using namespace panel_detail;

// ---------------------------------------------------------------------------------------
// Construction

ControlPanel::ControlPanel(QWidget *parent) : ControlPanel(builtinCatalog(), parent) {}

ControlPanel::ControlPanel(const Catalog &catalog, QWidget *parent)
    : QWidget(parent), catalog_(catalog)
{
    setObjectName(QStringLiteral("controlPanel"));
    build();
    syncControls();
}

ControlPanel::~ControlPanel() = default;

void ControlPanel::build()
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("controlScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget(scroll);
    content->setObjectName(QStringLiteral("controlContent"));
    auto *column = new QVBoxLayout(content);
    column->setContentsMargins(4, 4, 4, 4);

    // Slot 0: messages whose key path no control owns.
    general_message_ = new QLabel(content);
    general_message_->setObjectName(QStringLiteral("generalError"));
    general_message_->setWordWrap(true);
    general_message_->setTextFormat(Qt::PlainText);
    general_message_->hide();
    column->addWidget(general_message_);
    slots_.append(MessageSlot{nullptr, general_message_});
    slot_of_key_.insert(QString(), 0);

    column->addWidget(buildHardware(content));
    model_group_ = buildModel(content);
    column->addWidget(model_group_);
    parallel_group_ = buildParallel(content);
    column->addWidget(parallel_group_);
    column->addWidget(buildEffects(content));
    column->addStretch(1);
    scroll->setWidget(content);
    outer->addWidget(scroll);

    connectHardware();
    connectModel();
    connectParallel();
    connectEffects();
    setTabOrders();
}

void ControlPanel::addRow(QFormLayout *form, const QString &label, QWidget *field, QWidget *buddy,
                          const QStringList &keys, const QString &messageName)
{
    if (label.isEmpty()) {
        form->addRow(field);
    } else {
        auto *text = new QLabel(label, form->parentWidget());
        text->setBuddy(buddy);
        form->addRow(text, field);
    }
    form_of_field_.insert(field, form);
    if (buddy)
        tab_chain_.append(buddy);
    if (!keys.isEmpty())
        addMessageRow(form, keys, messageName);
}

void ControlPanel::addMessageRow(QFormLayout *form, const QStringList &keys, const QString &name)
{
    auto *message = new QLabel(form->parentWidget());
    message->setObjectName(name);
    message->setWordWrap(true);
    message->setTextFormat(Qt::PlainText);
    message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(message);
    form->setRowVisible(message, false);
    const int slot = int(slots_.size());
    slots_.append(MessageSlot{form, message});
    for (const QString &key : keys)
        slot_of_key_.insert(key, slot);
}

void ControlPanel::setRowVisible(QWidget *field, bool visible)
{
    if (QFormLayout *form = form_of_field_.value(field))
        form->setRowVisible(field, visible);
}

QFormLayout *ControlPanel::addEffectRows(QFormLayout *form, QCheckBox *toggle)
{
    // The rows of an effect live in one container that collapses while the effect is off.
    // (Hiding the rows one by one in the group's form made Qt 6.4's QFormLayout write past
    // its layout data once several rows were hidden: a heap overflow.)
    auto *rows = new QWidget(form->parentWidget());
    rows->setObjectName(toggle->objectName() + QStringLiteral("Rows"));
    QFormLayout *rowForm = makeForm(rows);
    rowForm->setContentsMargins(0, 0, 0, 0);
    form->addRow(rows);
    effect_toggles_.append(EffectToggle{toggle, rows});
    return rowForm;
}

void ControlPanel::setTabOrders()
{
    for (qsizetype i = 1; i < tab_chain_.size(); ++i)
        QWidget::setTabOrder(tab_chain_[i - 1], tab_chain_[i]);
}

// ---------------------------------------------------------------------------------------
// Edits

void ControlPanel::trackDrag(QSlider *slider)
{
    connect(slider, &QSlider::sliderPressed, this, [this] { drag_key_ = nextMergeKey(); });
    connect(slider, &QSlider::sliderReleased, this, [this] { drag_key_ = 0; });
}

void ControlPanel::commit(Scenario next, const QString &description, int mergeKey)
{
    if (syncing_)
        return;
    // Every field counts, also of effects that are off (which the file leaves out).
    const bool changed = !(next == scenario_);
    scenario_ = std::move(next);
    syncControls();
    if (changed)
        Q_EMIT scenarioEdited(scenario_, description, mergeKey);
}

void ControlPanel::setGpuShape(Scenario &s, int nodes, int gpusPerNode) const
{
    const int64_t oldGpus = s.hardware.gpuCount();
    ParallelSpec &p = s.parallel;
    const bool dataFollowed =
        p.data > 0 && int64_t(p.data) * p.tensor * p.pipeline * p.context == oldGpus;
    // The NVLink domain is the platform's and keeps its whole nodes (trays) whatever the
    // cluster's size, so it stays a multiple of the GPUs per node; a job smaller than it
    // runs inside one (HardwareSpec::communicationView).
    const int domainNodes =
        s.hardware.nvlink_domain > 0 ? s.hardware.nvlink_domain / s.hardware.gpus_per_node : 1;
    s.hardware.nodes = nodes;
    s.hardware.gpus_per_node = gpusPerNode;
    s.hardware.nvlink_domain = domainNodes > 1 ? domainNodes * gpusPerNode : 0;
    // A data degree that filled the old cluster keeps filling it: "auto" (shown as such).
    if (dataFollowed && s.hardware.gpuCount() != oldGpus)
        p.data = 0;
}

void ControlPanel::applyGpuTotal(Scenario &s, int total) const
{
    const int perNode = std::max(1, preferred_gpus_per_node_);
    if (total < perNode)
        setGpuShape(s, 1, total);
    else
        setGpuShape(s, std::max(1, int(std::lround(double(total) / perNode))), perNode);
}

ControlPanel::Strategy ControlPanel::strategyOf(const ParallelSpec &p)
{
    if (p.tensor <= 1 && p.pipeline <= 1) {
        switch (p.zero) {
        case 1:
            return Strategy::Zero1;
        case 2:
            return Strategy::Zero2;
        case 3:
            return Strategy::Zero3;
        default:
            return Strategy::DataParallel;
        }
    }
    if (p.pipeline <= 1)
        return Strategy::Tensor;
    if (p.tensor <= 1)
        return Strategy::Pipeline;
    return Strategy::Hybrid;
}

void ControlPanel::applyStrategy(Scenario &s, Strategy strategy) const
{
    ParallelSpec &p = s.parallel;
    const int gpus = s.hardware.gpuCount();
    const int perNode = s.hardware.gpus_per_node;
    const int heads =
        s.model.kind == ModelSpec::Kind::Transformer ? int(s.model.transformer.heads) : 0;
    const int layers = int(std::min<int64_t>(modelLayerCount(s.model), INT_MAX));
    p.data = 0;
    switch (strategy) {
    case Strategy::DataParallel:
    case Strategy::Zero1:
    case Strategy::Zero2:
    case Strategy::Zero3:
        p.tensor = 1;
        p.pipeline = 1;
        p.zero = int(strategy) - int(Strategy::DataParallel);
        p.virtual_stages = 1;
        p.sequence_parallel = false;
        break;
    case Strategy::Tensor:
        // Tensor parallel inside a node, data parallel across nodes; across nodes where a
        // node holds one GPU (issue 26: "Tensor" left tensor 1). Megatron-style stacks shard
        // the optimizer at most (ZeRO-1); ZeRO-3 with tensor parallelism was left over from
        // the strategy before.
        p.tensor = largestDivisorAtMost(gpus, std::max(perNode, 2), heads);
        p.pipeline = 1;
        p.zero = std::min(p.zero, 1);
        p.virtual_stages = 1;
        break;
    case Strategy::Pipeline:
        p.tensor = 1;
        p.pipeline = largestDivisorAtMost(gpus, std::min(layers, kPipelinePresetStages));
        p.zero = std::min(p.zero, 1);
        p.sequence_parallel = false;
        if (p.schedule != Schedule::Interleaved)
            p.virtual_stages = 1;
        break;
    case Strategy::Hybrid: {
        p.tensor = largestDivisorAtMost(gpus, perNode, heads);
        if (p.tensor == gpus && p.tensor > 1) // leave room for a pipeline
            p.tensor = largestDivisorAtMost(gpus, p.tensor / 2, heads);
        p.pipeline = largestDivisorAtMost(gpus / p.tensor, std::min(layers, kHybridPresetStages));
        p.zero = std::min(p.zero, 1);
        if (p.schedule != Schedule::Interleaved)
            p.virtual_stages = 1;
        break;
    }
    }
}

// ---------------------------------------------------------------------------------------
// Showing a scenario

void ControlPanel::setScenario(const Scenario &scenario)
{
    const ParallelSpec &now = scenario_.parallel;
    const ParallelSpec &next = scenario.parallel;
    // Keep the user's strategy when the degrees are the ones it produced (an echo of an edit).
    const bool sameDegrees = has_scenario_ && now.tensor == next.tensor &&
                             now.pipeline == next.pipeline && now.zero == next.zero;
    if (!sameDegrees)
        strategy_ = strategyOf(next);
    if (scenario.hardware.nodes > 1 || scenario.hardware.gpus_per_node > preferred_gpus_per_node_)
        preferred_gpus_per_node_ = scenario.hardware.gpus_per_node;
    scenario_ = scenario;
    has_scenario_ = true;
    syncControls();
}

Scenario ControlPanel::scenario() const
{
    return scenario_;
}

void ControlPanel::syncControls()
{
    const QScopedValueRollback guard(syncing_, true);
    syncHardware();
    syncModel();
    syncParallel();
    syncEffects();
    updateStrategyRows();
    issues_ = checkScenario(scenario_);
    updateMessages();
    updateStackFix();
}

// ---------------------------------------------------------------------------------------
// Messages

int ControlPanel::slotFor(const QString &keyPath) const
{
    QString key = keyPath;
    for (;;) {
        const auto it = slot_of_key_.constFind(key);
        if (it != slot_of_key_.constEnd())
            return it.value();
        if (key.isEmpty())
            return 0;
        const qsizetype cut =
            std::max(key.lastIndexOf(QLatin1Char('.')), key.lastIndexOf(QLatin1Char('[')));
        key = cut < 0 ? QString() : key.left(cut);
    }
}

QLabel *ControlPanel::messageLabel(const QString &key_path) const
{
    return slots_[slotFor(key_path)].label;
}

void ControlPanel::setValidationError(const QString &key_path, const QString &message)
{
    model_error_path_ = key_path;
    model_error_message_ = key_path.isEmpty() && message.isEmpty() ? QString() : message;
    updateMessages();
}

void ControlPanel::updateMessages()
{
    QList<QStringList> texts(slots_.size());
    QList<bool> errors(slots_.size(), false);
    for (const ControlIssue &issue : std::as_const(issues_)) {
        const int slot = slotFor(issue.key_path);
        texts[slot].append(issue.message);
        if (issue.severity == ControlIssue::Severity::Error)
            errors[slot] = true;
    }
    if (!model_error_message_.isEmpty()) {
        const int slot = slotFor(model_error_path_);
        // The local explanation of the same slot already says it, with the values.
        if (!errors[slot]) {
            texts[slot].append(model_error_message_);
            errors[slot] = true;
        }
    }
    for (qsizetype i = 0; i < slots_.size(); ++i) {
        const MessageSlot &slot = slots_[i];
        const bool visible = !texts[i].isEmpty();
        slot.label->setText(texts[i].join(QLatin1Char('\n')));
        QPalette palette = slot.label->palette();
        palette.setColor(QPalette::WindowText, errors[i] ? errorColor() : warningColor());
        slot.label->setPalette(palette);
        if (slot.form)
            slot.form->setRowVisible(slot.label, visible);
        else
            slot.label->setVisible(visible);
    }
}

} // namespace scalescope
