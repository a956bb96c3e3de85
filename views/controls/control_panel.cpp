#include "controls/control_panel.h"

#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "plan/framework_rules.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPalette>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cmath>

namespace scalescope
{

namespace
{

constexpr int kMaxGpuCountLog2 = 10;            // GPU count slider: 1..1024
constexpr int kMaxGlobalBatchLog2 = 16;         // global batch slider: 1..65536
constexpr double kMaxSeed = 9007199254740992.0; // 2^53, as the scenario file allows
constexpr int kDefaultLoaderWorkers = 4;
constexpr double kDefaultLoaderRate = 500;
constexpr double kDefaultVirtualFraction = 0.5; // shown for a slice never set
constexpr double kMinVirtualFraction = 0.05;
constexpr double kBytesPerGb = 1e9;
constexpr double kMaxCheckpointBytes = 1e16; // as the scenario file allows
constexpr double kNoCoolingC = -1;           // cooling combo: steady_c unset
constexpr double kCustomCoolingC = -2;       // cooling combo: steady_c matches no preset
constexpr double kStartSteadyState = -1;     // start spin minimum: start_s unset
constexpr int kCoolingPresetItems = 4;       // none, datacenter, workstation, poor
const QString kCustomTransformer = QStringLiteral("#custom");

/// A new merge key for each slider drag, unique over all panels of the process.
int nextMergeKey()
{
    static std::atomic<int> last{0};
    int key = ++last;
    if (key <= 0) { // wrapped after 2^31 drags
        last = 1;
        key = 1;
    }
    return key;
}

int nearestLog2(int64_t value, int maxExponent)
{
    if (value <= 1)
        return 0;
    return std::clamp(int(std::lround(std::log2(double(value)))), 0, maxExponent);
}

int largestDivisorAtMost(int n, int cap, int alsoDivides = 0)
{
    for (int d = std::min(cap, n); d > 1; --d) {
        if (n % d == 0 && (alsoDivides <= 0 || alsoDivides % d == 0))
            return d;
    }
    return 1;
}

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QSpinBox *makeSpin(QWidget *parent, const char *name, int min, int max, const QString &tip,
                   const QString &suffix = {})
{
    auto *spin = new QSpinBox(parent);
    spin->setObjectName(QLatin1String(name));
    spin->setRange(min, max);
    spin->setSuffix(suffix);
    spin->setToolTip(tip);
    spin->setKeyboardTracking(false); // one edit per committed value, not per keystroke
    spin->setAccelerated(true);
    return spin;
}

QDoubleSpinBox *makeDoubleSpin(QWidget *parent, const char *name, double min, double max,
                               int decimals, const QString &tip, const QString &suffix = {})
{
    auto *spin = new QDoubleSpinBox(parent);
    spin->setObjectName(QLatin1String(name));
    spin->setDecimals(decimals);
    spin->setRange(min, max);
    spin->setSuffix(suffix);
    spin->setToolTip(tip);
    spin->setKeyboardTracking(false);
    spin->setAccelerated(true);
    return spin;
}

QComboBox *makeCombo(QWidget *parent, const char *name, const QString &tip)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(QLatin1String(name));
    combo->setToolTip(tip);
    // Long catalog names must not widen the dock: elide, the popup shows them whole.
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(10);
    return combo;
}

QCheckBox *makeCheck(QWidget *parent, const char *name, const QString &text, const QString &tip)
{
    auto *check = new QCheckBox(text, parent);
    check->setObjectName(QLatin1String(name));
    check->setToolTip(tip);
    return check;
}

QSlider *makeLogSlider(QWidget *parent, const char *name, int maxExponent, const QString &tip)
{
    auto *slider = new QSlider(Qt::Horizontal, parent);
    slider->setObjectName(QLatin1String(name));
    slider->setRange(0, maxExponent);
    slider->setSingleStep(1);
    slider->setPageStep(1);
    slider->setTickPosition(QSlider::TicksBelow);
    slider->setTickInterval(1);
    slider->setToolTip(tip);
    return slider;
}

QFormLayout *makeForm(QWidget *group)
{
    auto *form = new QFormLayout(group);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    return form;
}

QWidget *makeRowBox(QWidget *parent, QHBoxLayout **layout)
{
    auto *box = new QWidget(parent);
    *layout = new QHBoxLayout(box);
    (*layout)->setContentsMargins(0, 0, 0, 0);
    return box;
}

void setSpin(QSpinBox *spin, int64_t value)
{
    const QSignalBlocker blocker(spin);
    // A file may hold more than the usual range; show it rather than clamp it.
    if (value > spin->maximum())
        spin->setMaximum(int(std::min<int64_t>(value, INT_MAX)));
    spin->setValue(int(std::clamp<int64_t>(value, INT_MIN, INT_MAX)));
}

void setDouble(QDoubleSpinBox *spin, double value)
{
    const QSignalBlocker blocker(spin);
    // A file may hold more than the usual range; show it rather than clamp it.
    if (value > spin->maximum())
        spin->setMaximum(value);
    spin->setValue(value);
}

void setCheck(QCheckBox *check, bool on)
{
    const QSignalBlocker blocker(check);
    check->setChecked(on);
}

void setSlider(QSlider *slider, int value)
{
    const QSignalBlocker blocker(slider);
    slider->setValue(value);
}

void setComboData(QComboBox *combo, const QVariant &data)
{
    const QSignalBlocker blocker(combo);
    combo->setCurrentIndex(combo->findData(data));
}

QColor errorColor()
{
    return QColor(0xc6, 0x28, 0x28);
}

QColor warningColor()
{
    return QColor(0xa6, 0x5e, 0x00);
}

} // namespace

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

QWidget *ControlPanel::buildHardware(QWidget *parent)
{
    auto *group = new QGroupBox(tr("Hardware"), parent);
    group->setObjectName(QStringLiteral("hardwareGroup"));
    QFormLayout *form = makeForm(group);

    gpu_combo_ = makeCombo(group, "gpuCombo", tr("GPU model from the catalog, with its memory"));
    for (const GpuSpec &gpu : catalog_.gpus) {
        gpu_combo_->addItem(tr("%1, %2 GB").arg(qs(gpu.name)).arg(gpu.memory_gb), qs(gpu.id));
        gpu_combo_->setItemData(gpu_combo_->count() - 1,
                                tr("%1: %2 GB at %3 GB/s, %4 TFLOP/s BF16 dense")
                                    .arg(qs(gpu.name))
                                    .arg(gpu.memory_gb)
                                    .arg(gpu.memory_bandwidth_gbps)
                                    .arg(gpu.peak(Precision::BF16)),
                                Qt::ToolTipRole);
    }
    addRow(form, tr("&GPU"), gpu_combo_, gpu_combo_,
           {QStringLiteral("hardware.gpu"), QStringLiteral("hardware.calibration")},
           QStringLiteral("gpuComboError"));

    QHBoxLayout *countLayout = nullptr;
    QWidget *countBox = makeRowBox(group, &countLayout);
    gpu_count_slider_ = makeLogSlider(
        countBox, "gpuCountSlider", kMaxGpuCountLog2,
        tr("Total GPU count on a log scale, 1-1024 (powers of two). Sets the nodes at fixed GPUs "
           "per node, or the GPUs of one node below a full node."));
    gpu_count_label_ = new QLabel(countBox);
    gpu_count_label_->setObjectName(QStringLiteral("gpuCountLabel"));
    countLayout->addWidget(gpu_count_slider_, 1);
    countLayout->addWidget(gpu_count_label_);
    addRow(form, tr("GPU &count"), countBox, gpu_count_slider_, {QStringLiteral("hardware")},
           QStringLiteral("gpuCountError"));

    nodes_spin_ = makeSpin(group, "nodesSpin", 1, 65536, tr("Nodes in the cluster, 1-65536"));
    addRow(form, tr("&Nodes"), nodes_spin_, nodes_spin_, {QStringLiteral("hardware.nodes")},
           QStringLiteral("nodesSpinError"));
    gpus_per_node_spin_ = makeSpin(group, "gpusPerNodeSpin", 1, 16, tr("GPUs in each node, 1-16"));
    addRow(form, tr("GP&Us per node"), gpus_per_node_spin_, gpus_per_node_spin_,
           {QStringLiteral("hardware.gpus_per_node")}, QStringLiteral("gpusPerNodeSpinError"));

    intra_combo_ = makeCombo(group, "intraCombo",
                             tr("Link between the GPUs of one node (GB/s per GPU per direction)"));
    for (const IntraLinkSpec &link : catalog_.intra_links) {
        intra_combo_->addItem(qs(link.name), qs(link.id));
        intra_combo_->setItemData(intra_combo_->count() - 1,
                                  tr("%1 GB/s per GPU per direction, %2 µs")
                                      .arg(link.bandwidth_gbps)
                                      .arg(link.latency_us),
                                  Qt::ToolTipRole);
    }
    addRow(form, tr("&Intra-node"), intra_combo_, intra_combo_,
           {QStringLiteral("hardware.intra_node")}, QStringLiteral("intraComboError"));

    inter_combo_ = makeCombo(group, "interCombo", tr("Network between nodes (Gb/s per NIC)"));
    for (const InterLinkSpec &link : catalog_.inter_links) {
        inter_combo_->addItem(qs(link.name), qs(link.id));
        inter_combo_->setItemData(
            inter_combo_->count() - 1,
            tr("%1 Gb/s per NIC, %2 µs").arg(link.line_rate_gbit).arg(link.latency_us),
            Qt::ToolTipRole);
    }
    addRow(form, tr("Net&work"), inter_combo_, inter_combo_,
           {QStringLiteral("hardware.inter_node")}, QStringLiteral("interComboError"));

    nics_spin_ = makeSpin(group, "nicsSpin", 1, 64,
                          tr("Network interfaces per node, shared by its GPUs, 1-64"));
    addRow(form, tr("NICs per node"), nics_spin_, nics_spin_,
           {QStringLiteral("hardware.nics_per_node")}, QStringLiteral("nicsSpinError"));
    return group;
}

QWidget *ControlPanel::buildModel(QWidget *parent)
{
    auto *group = new QGroupBox(tr("Model and batch"), parent);
    group->setObjectName(QStringLiteral("modelGroup"));
    QFormLayout *form = makeForm(group);

    model_combo_ = makeCombo(group, "modelCombo",
                             tr("Model preset from the catalog, or a custom transformer"));
    for (const ModelSpec &model : catalog_.models) {
        model_combo_->addItem(qs(model.name), qs(model.id));
        const QString kind = model.kind == ModelSpec::Kind::Transformer
                                 ? tr("Transformer, %1 layers").arg(model.transformer.layers)
                                 : tr("%1 layers").arg(modelLayerCount(model));
        model_combo_->setItemData(model_combo_->count() - 1, kind, Qt::ToolTipRole);
    }
    model_combo_->addItem(tr("Custom transformer…"), kCustomTransformer);
    model_fixed_items_ = model_combo_->count();
    addRow(form, tr("&Model"), model_combo_, model_combo_, {QStringLiteral("model")},
           QStringLiteral("modelComboError"));

    layers_spin_ = makeSpin(group, "layersSpin", 1, 1024, tr("Transformer layers, 1-1024"));
    addRow(form, tr("Layers"), layers_spin_, layers_spin_);
    hidden_spin_ = makeSpin(group, "hiddenSpin", 1, 131072, tr("Hidden size, 1-131072"));
    hidden_spin_->setSingleStep(64);
    addRow(form, tr("Hidden"), hidden_spin_, hidden_spin_);
    heads_spin_ = makeSpin(group, "headsSpin", 1, 1024, tr("Attention heads, 1-1024"));
    addRow(form, tr("Heads"), heads_spin_, heads_spin_);
    seq_len_spin_ = makeSpin(group, "seqLenSpin", 1, 1048576,
                             tr("Sequence length in tokens, 1-1048576"), tr(" tokens"));
    addRow(form, tr("Sequence"), seq_len_spin_, seq_len_spin_);
    vocab_spin_ = makeSpin(group, "vocabSpin", 1, 1000000, tr("Vocabulary size, 1-1000000"));
    addRow(form, tr("Vocabulary"), vocab_spin_, vocab_spin_, {QStringLiteral("model.transformer")},
           QStringLiteral("transformerError"));

    QHBoxLayout *batchLayout = nullptr;
    QWidget *batchBox = makeRowBox(group, &batchLayout);
    global_batch_slider_ =
        makeLogSlider(batchBox, "globalBatchSlider", kMaxGlobalBatchLog2,
                      tr("Global batch on a log scale, 1-65536 samples (powers of two)"));
    global_batch_spin_ =
        makeSpin(batchBox, "globalBatchSpin", 1, 1000000000,
                 tr("Samples per optimizer step, all GPUs together, 1-1000000000"));
    global_batch_spin_->setAccessibleName(tr("Global batch, exact"));
    batchLayout->addWidget(global_batch_slider_, 1);
    batchLayout->addWidget(global_batch_spin_);
    addRow(form, tr("Global &batch"), batchBox, global_batch_slider_,
           {QStringLiteral("training"), QStringLiteral("training.global_batch")},
           QStringLiteral("globalBatchSpinError"));
    tab_chain_.append(global_batch_spin_);

    micro_batch_spin_ =
        makeSpin(group, "microBatchSpin", 0, 1000000000,
                 tr("Samples per forward/backward pass on one GPU, 0 = auto (global batch / "
                    "data degree), 0-1000000000"));
    micro_batch_spin_->setSpecialValueText(tr("auto"));
    addRow(form, tr("Micro-batc&h"), micro_batch_spin_, micro_batch_spin_,
           {QStringLiteral("training.micro_batch")}, QStringLiteral("microBatchSpinError"));

    precision_combo_ =
        makeCombo(group, "precisionCombo",
                  tr("Arithmetic precision (FP16, BF16 and FP8 are mixed precision)"));
    precision_combo_->addItem(tr("FP32"), int(Precision::FP32));
    precision_combo_->addItem(tr("TF32"), int(Precision::TF32));
    precision_combo_->addItem(tr("FP16 mixed"), int(Precision::FP16));
    precision_combo_->addItem(tr("BF16 mixed"), int(Precision::BF16));
    precision_combo_->addItem(tr("FP8 mixed"), int(Precision::FP8));
    addRow(form, tr("&Precision"), precision_combo_, precision_combo_,
           {QStringLiteral("training.precision")}, QStringLiteral("precisionComboError"));

    optimizer_combo_ = makeCombo(group, "optimizerCombo", tr("Optimizer (sets its state memory)"));
    optimizer_combo_->addItem(tr("SGD"), int(Optimizer::SGD));
    optimizer_combo_->addItem(tr("Adam"), int(Optimizer::Adam));
    addRow(form, tr("&Optimizer"), optimizer_combo_, optimizer_combo_,
           {QStringLiteral("training.optimizer")}, QStringLiteral("optimizerComboError"));

    recompute_combo_ = makeCombo(group, "recomputeCombo",
                                 tr("Activation recomputation: less memory, more compute"));
    recompute_combo_->addItem(tr("None"), int(Recompute::None));
    recompute_combo_->addItem(tr("Selective"), int(Recompute::Selective));
    recompute_combo_->addItem(tr("Full"), int(Recompute::Full));
    addRow(form, tr("&Recompute"), recompute_combo_, recompute_combo_,
           {QStringLiteral("training.recompute")}, QStringLiteral("recomputeComboError"));

    flash_check_ = makeCheck(group, "flashCheck", tr("&Flash attention"),
                             tr("Fused attention kernels: no sequence² tensors in memory"));
    addRow(form, QString(), flash_check_, flash_check_,
           {QStringLiteral("training.flash_attention")}, QStringLiteral("flashCheckError"));
    return group;
}

QWidget *ControlPanel::buildParallel(QWidget *parent)
{
    auto *group = new QGroupBox(tr("Parallelism"), parent);
    group->setObjectName(QStringLiteral("parallelGroup"));
    QFormLayout *form = makeForm(group);

    // The software stack (training.framework): what the host costs, what overlaps, which
    // plans can run. A plan the stack cannot run is explained beside it.
    framework_combo_ = makeCombo(group, "frameworkCombo",
                                 tr("Software stack: host cost per operation, what overlaps, "
                                    "defaults and the plans it can run"));
    framework_combo_->addItem(tr("Auto (the stack that usually runs the plan)"),
                              QString::fromLatin1(kFrameworkAuto));
    for (const FrameworkSpec &f : catalog_.frameworks)
        framework_combo_->addItem(QString::fromStdString(f.name), QString::fromStdString(f.id));
    addRow(form, tr("Software stac&k"), framework_combo_, framework_combo_,
           {QStringLiteral("training.framework")}, QStringLiteral("frameworkComboError"));

    strategy_combo_ =
        makeCombo(group, "strategyCombo",
                  tr("Parallel strategy: shows the degrees it uses and sets them to a "
                     "fitting start"));
    strategy_combo_->addItem(tr("Data parallel"), int(Strategy::DataParallel));
    strategy_combo_->addItem(tr("ZeRO-1"), int(Strategy::Zero1));
    strategy_combo_->addItem(tr("ZeRO-2"), int(Strategy::Zero2));
    strategy_combo_->addItem(tr("ZeRO-3 (FSDP)"), int(Strategy::Zero3));
    strategy_combo_->addItem(tr("Tensor"), int(Strategy::Tensor));
    strategy_combo_->addItem(tr("Pipeline"), int(Strategy::Pipeline));
    strategy_combo_->addItem(tr("3D hybrid"), int(Strategy::Hybrid));
    addRow(form, tr("&Strategy"), strategy_combo_, strategy_combo_);

    data_spin_ = makeSpin(group, "dataSpin", 0, 131072,
                          tr("Data-parallel degree, 0 = auto (GPU count / (tensor × pipeline)), "
                             "0-131072"));
    data_spin_->setSpecialValueText(tr("auto"));
    addRow(form, tr("&Data"), data_spin_, data_spin_);
    tensor_spin_ = makeSpin(group, "tensorSpin", 1, 1024, tr("Tensor-parallel degree, 1-1024"));
    addRow(form, tr("&Tensor"), tensor_spin_, tensor_spin_);
    pipeline_spin_ =
        makeSpin(group, "pipelineSpin", 1, 1024, tr("Pipeline-parallel degree (stages), 1-1024"));
    addRow(form, tr("Pipe&line"), pipeline_spin_, pipeline_spin_);
    addMessageRow(form,
                  {QStringLiteral("parallel"), QStringLiteral("parallel.data"),
                   QStringLiteral("parallel.tensor"), QStringLiteral("parallel.pipeline")},
                  QStringLiteral("degreesError"));

    zero_combo_ = makeCombo(group, "zeroCombo", tr("ZeRO stage: what data parallelism shards"));
    zero_combo_->addItem(tr("0, none"), 0);
    zero_combo_->addItem(tr("1, optimizer states"), 1);
    zero_combo_->addItem(tr("2, + gradients"), 2);
    zero_combo_->addItem(tr("3, + parameters (FSDP)"), 3);
    addRow(form, tr("&ZeRO stage"), zero_combo_, zero_combo_, {QStringLiteral("parallel.zero")},
           QStringLiteral("zeroComboError"));

    schedule_combo_ = makeCombo(group, "scheduleCombo", tr("Pipeline schedule"));
    schedule_combo_->addItem(tr("GPipe"), int(Schedule::GPipe));
    schedule_combo_->addItem(tr("1F1B"), int(Schedule::OneFOneB));
    schedule_combo_->addItem(tr("Interleaved 1F1B"), int(Schedule::Interleaved));
    addRow(form, tr("Schedule"), schedule_combo_, schedule_combo_,
           {QStringLiteral("parallel.schedule")}, QStringLiteral("scheduleComboError"));

    virtual_stages_spin_ = makeSpin(group, "virtualStagesSpin", 1, 128,
                                    tr("Model chunks per GPU for the interleaved schedule, 1-128"));
    addRow(form, tr("&Virtual stages"), virtual_stages_spin_, virtual_stages_spin_,
           {QStringLiteral("parallel.virtual_stages")}, QStringLiteral("virtualStagesSpinError"));

    sequence_parallel_check_ =
        makeCheck(group, "sequenceParallelCheck", tr("Se&quence parallel"),
                  tr("Megatron sequence parallelism inside the tensor-parallel group"));
    addRow(form, QString(), sequence_parallel_check_, sequence_parallel_check_,
           {QStringLiteral("parallel.sequence_parallel")},
           QStringLiteral("sequenceParallelCheckError"));

    overlap_check_ = makeCheck(group, "overlapCheck", tr("Overlap gradient communication"),
                               tr("Overlap gradient communication with the backward pass"));
    addRow(form, QString(), overlap_check_, overlap_check_, {QStringLiteral("parallel.overlap")},
           QStringLiteral("overlapCheckError"));

    bucket_spin_ = makeDoubleSpin(group, "bucketSpin", 0, 100000, 1,
                                  tr("Gradient bucket size, 0 = one all-reduce after the whole "
                                     "backward, 0-100000 MB"),
                                  tr(" MB"));
    bucket_spin_->setSpecialValueText(tr("one all-reduce"));
    addRow(form, tr("Bucket"), bucket_spin_, bucket_spin_, {QStringLiteral("parallel.bucket_mb")},
           QStringLiteral("bucketSpinError"));

    update_combo_ = makeCombo(group, "updateCombo",
                              tr("Synchronous (a barrier every step) or asynchronous updates "
                                 "(stale gradients)"));
    update_combo_->addItem(tr("Synchronous"), int(UpdateMode::Sync));
    update_combo_->addItem(tr("Asynchronous"), int(UpdateMode::Async));
    addRow(form, tr("Update"), update_combo_, update_combo_, {QStringLiteral("parallel.update")},
           QStringLiteral("updateComboError"));
    return group;
}

// The Effects group is a list of rows; an effect switched on by a check box is an
// EffectToggle whose fields follow its check box. To add an effect: create its controls here
// (addRow with its key path), show it in syncEffects and edit it in connectEffects.
QWidget *ControlPanel::buildEffects(QWidget *parent)
{
    auto *group = new QGroupBox(tr("Effects"), parent);
    group->setObjectName(QStringLiteral("effectsGroup"));
    QFormLayout *form = makeForm(group);

    seed_spin_ = makeDoubleSpin(group, "seedSpin", 0, kMaxSeed, 0,
                                tr("Random seed: the same seed gives the same timeline, "
                                   "0-9007199254740992"));
    addRow(form, tr("S&eed"), seed_spin_, seed_spin_,
           {QStringLiteral("effects"), QStringLiteral("effects.seed")},
           QStringLiteral("seedSpinError"));

    jitter_spin_ = makeDoubleSpin(group, "jitterSpin", 0, 100, 1,
                                  tr("Relative standard deviation of each compute task's "
                                     "duration, 0-100 %"),
                                  tr(" %"));
    jitter_spin_->setSingleStep(0.5);
    addRow(form, tr("&Jitter"), jitter_spin_, jitter_spin_, {QStringLiteral("effects.jitter")},
           QStringLiteral("jitterSpinError"));

    // Stragglers: the list, and a GPU + slowdown pair to add (or replace) and remove.
    straggler_list_ = new QListWidget(group);
    straggler_list_->setObjectName(QStringLiteral("stragglerList"));
    straggler_list_->setToolTip(tr("GPUs slower than the rest; select one to edit or remove it"));
    straggler_list_->setMaximumHeight(straggler_list_->fontMetrics().height() * 4 + 8);
    addRow(form, tr("Stragglers"), straggler_list_, straggler_list_);
    straggler_gpu_spin_ =
        makeSpin(group, "stragglerGpuSpin", 0, 0, tr("Index of the straggler GPU, 0-(GPUs - 1)"));
    addRow(form, tr("Straggler GPU"), straggler_gpu_spin_, straggler_gpu_spin_);
    straggler_slowdown_spin_ =
        makeDoubleSpin(group, "stragglerSlowdownSpin", 1, 100, 2,
                       tr("How much longer its compute takes, 1-100 ×"), tr(" ×"));
    straggler_slowdown_spin_->setSingleStep(0.1);
    straggler_slowdown_spin_->setValue(1.5);
    addRow(form, tr("Slowdown"), straggler_slowdown_spin_, straggler_slowdown_spin_);
    QHBoxLayout *buttons = nullptr;
    QWidget *buttonBox = makeRowBox(group, &buttons);
    straggler_add_button_ = new QPushButton(tr("&Add"), buttonBox);
    straggler_add_button_->setObjectName(QStringLiteral("stragglerAddButton"));
    straggler_add_button_->setToolTip(tr("Add this straggler, or set its slowdown if listed"));
    straggler_remove_button_ = new QPushButton(tr("Remove"), buttonBox);
    straggler_remove_button_->setObjectName(QStringLiteral("stragglerRemoveButton"));
    straggler_remove_button_->setToolTip(tr("Remove the selected straggler"));
    buttons->addWidget(straggler_add_button_);
    buttons->addWidget(straggler_remove_button_);
    buttons->addStretch(1);
    addRow(form, QString(), buttonBox, straggler_add_button_,
           {QStringLiteral("effects.stragglers")}, QStringLiteral("stragglerListError"));
    tab_chain_.append(straggler_remove_button_);

    buildThermal(group, form);

    loader_check_ = makeCheck(group, "loaderCheck", tr("Data loader"),
                              tr("Input pipeline that can starve the GPUs"));
    addRow(form, QString(), loader_check_, loader_check_);
    QFormLayout *rows = addEffectRows(form, loader_check_);
    loader_workers_spin_ = makeSpin(group, "loaderWorkersSpin", 0, 1024,
                                    tr("Loader worker processes per GPU, 0-1024"));
    addRow(rows, tr("Workers/GPU"), loader_workers_spin_, loader_workers_spin_);
    loader_rate_spin_ =
        makeDoubleSpin(group, "loaderRateSpin", 0.1, 1e9, 1,
                       tr("Samples per second one worker delivers, 0.1-1000000000"), tr(" /s"));
    addRow(rows, tr("Per worker"), loader_rate_spin_, loader_rate_spin_,
           {QStringLiteral("effects.data_loader")}, QStringLiteral("loaderCheckError"));
    loader_prefetch_spin_ = makeSpin(
        group, "loaderPrefetchSpin", 1, 64,
        tr("Batches each worker keeps ready, 1-64 (PyTorch's default is 2): the loader runs up "
           "to workers × prefetch micro-batches ahead of the GPU"),
        tr(" batches"));
    addRow(rows, tr("Prefetch"), loader_prefetch_spin_, loader_prefetch_spin_,
           {QStringLiteral("effects.data_loader.prefetch_factor")},
           QStringLiteral("loaderPrefetchSpinError"));

    buildVirtualGpuAndFailures(group, form);
    return group;
}

void ControlPanel::buildThermal(QWidget *group, QFormLayout *form)
{
    thermal_check_ = makeCheck(group, "thermalCheck", tr("Thermal throttling"),
                               tr("GPUs lose clock speed above a temperature"));
    addRow(form, QString(), thermal_check_, thermal_check_);
    QFormLayout *rows = addEffectRows(form, thermal_check_);
    thermal_threshold_spin_ = makeDoubleSpin(group, "thermalThresholdSpin", 20, 120, 0,
                                             tr("Throttling starts above, 20-120 °C"), tr(" °C"));
    addRow(rows, tr("Above"), thermal_threshold_spin_, thermal_threshold_spin_);
    thermal_drop_spin_ = makeDoubleSpin(group, "thermalDropSpin", 0, 90, 1,
                                        tr("Clock lost while throttled, 0-90 %"), tr(" %"));
    addRow(rows, tr("Clock drop"), thermal_drop_spin_, thermal_drop_spin_);
    thermal_warmup_spin_ = makeDoubleSpin(
        group, "thermalWarmupSpin", 0.1, 1e6, 1,
        tr("Time constant of the temperature rise under load, 0.1-1000000 s"), tr(" s"));
    addRow(rows, tr("Warm-up"), thermal_warmup_spin_, thermal_warmup_spin_,
           {QStringLiteral("effects.thermal")}, QStringLiteral("thermalCheckError"));

    // Cooling: a preset steady-state temperature, none (version 1: every GPU settles above
    // the threshold), or a custom one (an extra item, added while the scenario holds one).
    thermal_cooling_combo_ =
        makeCombo(group, "thermalCoolingCombo",
                  tr("Cooling of every GPU: its steady-state temperature under sustained load "
                     "(presets are assumptions), or none given (every GPU settles above the "
                     "threshold)"));
    thermal_cooling_combo_->addItem(tr("None given (above threshold)"), kNoCoolingC);
    thermal_cooling_combo_->addItem(tr("Datacenter, %1 °C").arg(kCoolingDatacenterC),
                                    kCoolingDatacenterC);
    thermal_cooling_combo_->addItem(tr("Workstation, %1 °C").arg(kCoolingWorkstationC),
                                    kCoolingWorkstationC);
    thermal_cooling_combo_->addItem(tr("Poor, %1 °C").arg(kCoolingPoorC), kCoolingPoorC);
    addRow(rows, tr("Cooling"), thermal_cooling_combo_, thermal_cooling_combo_);
    thermal_steady_spin_ = makeDoubleSpin(
        group, "thermalSteadySpin", 0, 150, 1,
        tr("Steady-state temperature of every GPU under sustained load, 0-150 °C, not below the "
           "ambient; with no cooling given it shows the model's assumption (threshold + 6 °C)"),
        tr(" °C"));
    addRow(rows, tr("Steady"), thermal_steady_spin_, thermal_steady_spin_,
           {QStringLiteral("effects.thermal.steady_c"), QStringLiteral("effects.thermal.cooling")},
           QStringLiteral("thermalSteadySpinError"));
    thermal_ambient_spin_ = makeDoubleSpin(
        group, "thermalAmbientSpin", -20, 60, 1,
        tr("Temperature at the start: an idle GPU at its intake air, -20-60 °C"), tr(" °C"));
    addRow(rows, tr("Ambient"), thermal_ambient_spin_, thermal_ambient_spin_,
           {QStringLiteral("effects.thermal.ambient_c")},
           QStringLiteral("thermalAmbientSpinError"));
    thermal_start_spin_ =
        makeDoubleSpin(group, "thermalStartSpin", kStartSteadyState, 1e9, 0,
                       tr("Seconds of load before the first simulated step, 0-1000000000 s; "
                          "below 0: steady state (after a long run)"),
                       tr(" s"));
    thermal_start_spin_->setSpecialValueText(tr("steady state"));
    addRow(rows, tr("Load before"), thermal_start_spin_, thermal_start_spin_,
           {QStringLiteral("effects.thermal.start_s")}, QStringLiteral("thermalStartSpinError"));

    // Per-GPU cooling (hot spots): the list, and a GPU + temperature pair to add or remove.
    thermal_gpu_list_ = new QListWidget(group);
    thermal_gpu_list_->setObjectName(QStringLiteral("thermalGpuList"));
    thermal_gpu_list_->setToolTip(
        tr("GPUs with their own cooling (hot spots); select one to edit or remove it"));
    thermal_gpu_list_->setMaximumHeight(thermal_gpu_list_->fontMetrics().height() * 4 + 8);
    addRow(rows, tr("Hot spots"), thermal_gpu_list_, thermal_gpu_list_);
    QHBoxLayout *gpuLayout = nullptr;
    QWidget *gpuBox = makeRowBox(group, &gpuLayout);
    thermal_gpu_spin_ = makeSpin(gpuBox, "thermalGpuSpin", 0, 0,
                                 tr("Index of the GPU with its own cooling, 0-(GPUs - 1)"));
    thermal_gpu_spin_->setPrefix(tr("GPU "));
    thermal_gpu_spin_->setAccessibleName(tr("Hot-spot GPU"));
    thermal_gpu_steady_spin_ =
        makeDoubleSpin(gpuBox, "thermalGpuSteadySpin", 0, 150, 1,
                       tr("Its steady-state temperature under sustained load, 0-150 °C, not "
                          "below the ambient"),
                       tr(" °C"));
    thermal_gpu_steady_spin_->setAccessibleName(tr("Hot-spot steady-state temperature"));
    thermal_gpu_steady_spin_->setValue(kCoolingPoorC);
    gpuLayout->addWidget(thermal_gpu_spin_, 1);
    gpuLayout->addWidget(thermal_gpu_steady_spin_, 1);
    addRow(rows, tr("GPU at"), gpuBox, thermal_gpu_spin_);
    tab_chain_.append(thermal_gpu_steady_spin_);
    QHBoxLayout *buttons = nullptr;
    QWidget *buttonBox = makeRowBox(group, &buttons);
    thermal_gpu_add_button_ = new QPushButton(tr("Add"), buttonBox);
    thermal_gpu_add_button_->setObjectName(QStringLiteral("thermalGpuAddButton"));
    thermal_gpu_add_button_->setToolTip(
        tr("Give this GPU its own steady-state temperature, or change it if listed"));
    thermal_gpu_remove_button_ = new QPushButton(tr("Remove"), buttonBox);
    thermal_gpu_remove_button_->setObjectName(QStringLiteral("thermalGpuRemoveButton"));
    thermal_gpu_remove_button_->setToolTip(tr("Remove the selected GPU's own cooling"));
    buttons->addWidget(thermal_gpu_add_button_);
    buttons->addWidget(thermal_gpu_remove_button_);
    buttons->addStretch(1);
    addRow(rows, QString(), buttonBox, thermal_gpu_add_button_,
           {QStringLiteral("effects.thermal.gpus")}, QStringLiteral("thermalGpuListError"));
    tab_chain_.append(thermal_gpu_remove_button_);
}

void ControlPanel::buildVirtualGpuAndFailures(QWidget *group, QFormLayout *form)
{
    virtual_gpu_check_ =
        makeCheck(group, "virtualGpuCheck", tr("Virtual GPU slices"),
                  tr("Every GPU is a time-sliced share of a physical GPU (vGPU, shared GPU)"));
    addRow(form, QString(), virtual_gpu_check_, virtual_gpu_check_);
    QFormLayout *rows = addEffectRows(form, virtual_gpu_check_);
    virtual_fraction_spin_ = makeDoubleSpin(
        group, "virtualFractionSpin", kMinVirtualFraction * 100.0, 100, 1,
        tr("Share of a physical GPU's time and memory this job gets, 5-100 %"), tr(" %"));
    virtual_fraction_spin_->setSingleStep(5);
    addRow(rows, tr("Slice"), virtual_fraction_spin_, virtual_fraction_spin_);
    host_routed_check_ = makeCheck(group, "hostRoutedCheck", tr("Traffic through the host"),
                                   tr("No peer-to-peer: GPU-to-GPU traffic goes through host "
                                      "memory over at most PCIe 4.0 x16"));
    addRow(rows, QString(), host_routed_check_, host_routed_check_,
           {QStringLiteral("effects.virtual_gpu")}, QStringLiteral("virtualGpuError"));

    failures_check_ = makeCheck(
        group, "failuresCheck", tr("Failures and checkpoints"),
        tr("GPU failures over a long run: checkpoints, restarts and the goodput they leave"));
    addRow(form, QString(), failures_check_, failures_check_);
    rows = addEffectRows(form, failures_check_);
    mtbf_spin_ = makeDoubleSpin(group, "mtbfSpin", 0.1, 1e9, 1,
                                tr("Mean time between failures of one GPU (with its share of the "
                                   "node), 0.1-1000000000 h"),
                                tr(" h"));
    mtbf_spin_->setSingleStep(1000);
    addRow(rows, tr("MTBF/GPU"), mtbf_spin_, mtbf_spin_,
           {QStringLiteral("effects.failures.mtbf_hours_per_gpu")},
           QStringLiteral("mtbfSpinError"));
    checkpoint_size_spin_ = makeDoubleSpin(
        group, "checkpointSizeSpin", 0, kMaxCheckpointBytes / kBytesPerGb, 1,
        tr("Size of one checkpoint, 0-10000000 GB; 0 = weights and optimizer states of one model "
           "copy"),
        tr(" GB"));
    checkpoint_size_spin_->setSpecialValueText(tr("model states"));
    addRow(rows, tr("Checkpoint"), checkpoint_size_spin_, checkpoint_size_spin_);
    checkpoint_write_spin_ = makeDoubleSpin(
        group, "checkpointWriteSpin", 0.01, 1e6, 2,
        tr("Storage write bandwidth, all writers together, 0.01-1000000 GB/s"), tr(" GB/s"));
    addRow(rows, tr("Write"), checkpoint_write_spin_, checkpoint_write_spin_);
    restart_spin_ = makeDoubleSpin(
        group, "restartSpin", 0, 1e7, 0,
        tr("From a failure to training again, excluding the lost work, 0-10000000 s"), tr(" s"));
    restart_spin_->setSingleStep(60);
    addRow(rows, tr("Restart"), restart_spin_, restart_spin_,
           {QStringLiteral("effects.failures"), QStringLiteral("effects.failures.checkpoint_bytes"),
            QStringLiteral("effects.failures.checkpoint_write_gbps"),
            QStringLiteral("effects.failures.restart_s")},
           QStringLiteral("failuresError"));
    checkpoint_interval_spin_ =
        makeDoubleSpin(group, "checkpointIntervalSpin", 0, 1e9, 0,
                       tr("Seconds of training between checkpoints, 0-1000000000 s; 0 = the "
                          "optimum (Young 1974, Daly 2006)"),
                       tr(" s"));
    checkpoint_interval_spin_->setSpecialValueText(tr("optimal (Young/Daly)"));
    checkpoint_interval_spin_->setSingleStep(60);
    addRow(rows, tr("Interval"), checkpoint_interval_spin_, checkpoint_interval_spin_,
           {QStringLiteral("effects.failures.checkpoint_interval_s")},
           QStringLiteral("checkpointIntervalSpinError"));
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
    // The stack follows the plan under "auto" (and a named one is looked up again).
    resolveFrameworkStack(next, catalog_);
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
    const bool dataFollowed = p.data > 0 && int64_t(p.data) * p.tensor * p.pipeline == oldGpus;
    s.hardware.nodes = nodes;
    s.hardware.gpus_per_node = gpusPerNode;
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
        // Tensor parallel inside a node, data parallel across nodes.
        p.tensor = largestDivisorAtMost(gpus, perNode, heads);
        p.pipeline = 1;
        p.virtual_stages = 1;
        break;
    case Strategy::Pipeline:
        p.tensor = 1;
        p.pipeline = largestDivisorAtMost(gpus, std::min(layers, 8));
        p.zero = std::min(p.zero, 1);
        p.sequence_parallel = false;
        if (p.schedule != Schedule::Interleaved)
            p.virtual_stages = 1;
        break;
    case Strategy::Hybrid: {
        p.tensor = largestDivisorAtMost(gpus, perNode, heads);
        if (p.tensor == gpus && p.tensor > 1) // leave room for a pipeline
            p.tensor = largestDivisorAtMost(gpus, p.tensor / 2, heads);
        p.pipeline = largestDivisorAtMost(gpus / p.tensor, std::min(layers, 4));
        p.zero = std::min(p.zero, 1);
        if (p.schedule != Schedule::Interleaved)
            p.virtual_stages = 1;
        break;
    }
    }
}

void ControlPanel::connectHardware()
{
    connect(gpu_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const GpuSpec *gpu = catalog_.findGpu(gpu_combo_->itemData(index).toString().toStdString());
        if (!gpu)
            return;
        Scenario s = scenario_;
        s.hardware.gpu = *gpu;
        if (s.hardware.calibration) {
            // The profile measured another GPU: back to this one's datasheet figures.
            s.hardware.calibration.reset();
            s.hardware.calibration_path.clear();
            commit(std::move(s), tr("Set GPU to %1 (datasheet figures)").arg(qs(gpu->name)), 0);
            return;
        }
        commit(std::move(s), tr("Set GPU to %1").arg(qs(gpu->name)), 0);
    });
    trackDrag(gpu_count_slider_);
    connect(gpu_count_slider_, &QSlider::valueChanged, this, [this](int exponent) {
        Scenario s = scenario_;
        applyGpuTotal(s, 1 << exponent);
        const int gpus = s.hardware.gpuCount();
        commit(std::move(s), tr("Set GPU count to %1").arg(gpus), drag_key_);
    });
    connect(nodes_spin_, &QSpinBox::valueChanged, this, [this](int nodes) {
        Scenario s = scenario_;
        setGpuShape(s, nodes, s.hardware.gpus_per_node);
        commit(std::move(s), tr("Set nodes to %1").arg(nodes), 0);
    });
    connect(gpus_per_node_spin_, &QSpinBox::valueChanged, this, [this](int perNode) {
        if (syncing_)
            return;
        preferred_gpus_per_node_ = perNode;
        Scenario s = scenario_;
        setGpuShape(s, s.hardware.nodes, perNode);
        commit(std::move(s), tr("Set GPUs per node to %1").arg(perNode), 0);
    });
    connect(intra_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const IntraLinkSpec *link =
            catalog_.findIntra(intra_combo_->itemData(index).toString().toStdString());
        if (!link)
            return;
        Scenario s = scenario_;
        s.hardware.intra = *link;
        commit(std::move(s), tr("Set intra-node link to %1").arg(qs(link->name)), 0);
    });
    connect(inter_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const InterLinkSpec *link =
            catalog_.findInter(inter_combo_->itemData(index).toString().toStdString());
        if (!link)
            return;
        Scenario s = scenario_;
        s.hardware.inter = *link;
        commit(std::move(s), tr("Set inter-node network to %1").arg(qs(link->name)), 0);
    });
    connect(nics_spin_, &QSpinBox::valueChanged, this, [this](int nics) {
        Scenario s = scenario_;
        s.hardware.nics_per_node = nics;
        commit(std::move(s), tr("Set NICs per node to %1").arg(nics), 0);
    });
}

void ControlPanel::connectModel()
{
    connect(model_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const QString id = model_combo_->itemData(index).toString();
        Scenario s = scenario_;
        QString description;
        if (id == kCustomTransformer) {
            ModelSpec custom;
            custom.kind = ModelSpec::Kind::Transformer;
            custom.name = tr("Custom transformer").toStdString();
            if (s.model.kind == ModelSpec::Kind::Transformer) {
                custom.transformer = s.model.transformer; // start from the preset's dimensions
            } else {
                custom.transformer.layers = 12; // GPT-2 124M
                custom.transformer.hidden = 768;
                custom.transformer.heads = 12;
                custom.transformer.seq_len = 1024;
                custom.transformer.vocab = 50257;
            }
            s.model = custom;
            description = tr("Set model to a custom transformer");
        } else {
            const ModelSpec *model = catalog_.findModel(id.toStdString());
            if (!model)
                return;
            s.model = *model;
            description = tr("Set model to %1").arg(qs(model->name));
        }
        commit(std::move(s), description, 0);
    });
    const auto connectDimension = [this](QSpinBox *spin, int64_t TransformerSpec::*field,
                                         const QString &what) {
        connect(spin, &QSpinBox::valueChanged, this, [this, field, what](int value) {
            Scenario s = scenario_;
            s.model.transformer.*field = value;
            commit(std::move(s), tr("Set %1 to %2").arg(what).arg(value), 0);
        });
    };
    connectDimension(layers_spin_, &TransformerSpec::layers, tr("layers"));
    connectDimension(hidden_spin_, &TransformerSpec::hidden, tr("hidden size"));
    connectDimension(heads_spin_, &TransformerSpec::heads, tr("attention heads"));
    connectDimension(seq_len_spin_, &TransformerSpec::seq_len, tr("sequence length"));
    connectDimension(vocab_spin_, &TransformerSpec::vocab, tr("vocabulary"));

    trackDrag(global_batch_slider_);
    connect(global_batch_slider_, &QSlider::valueChanged, this, [this](int exponent) {
        Scenario s = scenario_;
        s.training.global_batch = int64_t(1) << exponent;
        commit(std::move(s), tr("Set global batch to %1").arg(int64_t(1) << exponent), drag_key_);
    });
    connect(global_batch_spin_, &QSpinBox::valueChanged, this, [this](int batch) {
        Scenario s = scenario_;
        s.training.global_batch = batch;
        commit(std::move(s), tr("Set global batch to %1").arg(batch), 0);
    });
    connect(micro_batch_spin_, &QSpinBox::valueChanged, this, [this](int micro) {
        Scenario s = scenario_;
        s.training.micro_batch = micro;
        commit(std::move(s),
               micro == 0 ? tr("Set micro-batch to auto") : tr("Set micro-batch to %1").arg(micro),
               0);
    });
    connect(precision_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.training.precision = Precision(precision_combo_->itemData(index).toInt());
        commit(std::move(s), tr("Set precision to %1").arg(precision_combo_->itemText(index)), 0);
    });
    connect(optimizer_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.training.optimizer = Optimizer(optimizer_combo_->itemData(index).toInt());
        commit(std::move(s), tr("Set optimizer to %1").arg(optimizer_combo_->itemText(index)), 0);
    });
    connect(recompute_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.training.recompute = Recompute(recompute_combo_->itemData(index).toInt());
        commit(std::move(s), tr("Set recompute to %1").arg(recompute_combo_->itemText(index)), 0);
    });
    connect(flash_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        s.training.flash_attention = on;
        commit(std::move(s), on ? tr("Turn flash attention on") : tr("Turn flash attention off"),
               0);
    });
}

void ControlPanel::connectParallel()
{
    connect(strategy_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (syncing_)
            return;
        const auto strategy = Strategy(strategy_combo_->itemData(index).toInt());
        Scenario s = scenario_;
        applyStrategy(s, strategy);
        strategy_ = strategy;
        commit(std::move(s), tr("Set strategy to %1").arg(strategy_combo_->itemText(index)), 0);
    });
    connect(data_spin_, &QSpinBox::valueChanged, this, [this](int data) {
        Scenario s = scenario_;
        s.parallel.data = data;
        commit(std::move(s),
               data == 0 ? tr("Set data degree to auto") : tr("Set data degree to %1").arg(data),
               0);
    });
    connect(tensor_spin_, &QSpinBox::valueChanged, this, [this](int tensor) {
        Scenario s = scenario_;
        s.parallel.tensor = tensor;
        commit(std::move(s), tr("Set tensor degree to %1").arg(tensor), 0);
    });
    connect(pipeline_spin_, &QSpinBox::valueChanged, this, [this](int pipeline) {
        Scenario s = scenario_;
        s.parallel.pipeline = pipeline;
        commit(std::move(s), tr("Set pipeline degree to %1").arg(pipeline), 0);
    });
    connect(framework_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.training.framework = framework_combo_->itemData(index).toString().toStdString();
        // The stack brings its defaults (overlap, bucket size, fused attention), as a file
        // that leaves them out would get them.
        resolveFrameworkStack(s, catalog_);
        applyStackDefaults(s);
        commit(std::move(s), tr("Set software stack to %1").arg(framework_combo_->itemText(index)),
               0);
    });
    connect(zero_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.parallel.zero = zero_combo_->itemData(index).toInt();
        commit(std::move(s), tr("Set ZeRO stage to %1").arg(s.parallel.zero), 0);
    });
    connect(schedule_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.parallel.schedule = Schedule(schedule_combo_->itemData(index).toInt());
        commit(std::move(s), tr("Set schedule to %1").arg(schedule_combo_->itemText(index)), 0);
    });
    connect(virtual_stages_spin_, &QSpinBox::valueChanged, this, [this](int stages) {
        Scenario s = scenario_;
        s.parallel.virtual_stages = stages;
        commit(std::move(s), tr("Set virtual stages to %1").arg(stages), 0);
    });
    connect(sequence_parallel_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        s.parallel.sequence_parallel = on;
        commit(std::move(s),
               on ? tr("Turn sequence parallelism on") : tr("Turn sequence parallelism off"), 0);
    });
    connect(overlap_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        s.parallel.overlap = on;
        commit(std::move(s), on ? tr("Turn overlap on") : tr("Turn overlap off"), 0);
    });
    connect(bucket_spin_, &QDoubleSpinBox::valueChanged, this, [this](double mb) {
        Scenario s = scenario_;
        s.parallel.bucket_mb = mb;
        commit(std::move(s), tr("Set bucket size to %1 MB").arg(mb), 0);
    });
    connect(update_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.parallel.update = UpdateMode(update_combo_->itemData(index).toInt());
        commit(std::move(s), tr("Set update to %1").arg(update_combo_->itemText(index)), 0);
    });
}

void ControlPanel::connectEffects()
{
    connect(seed_spin_, &QDoubleSpinBox::valueChanged, this, [this](double seed) {
        Scenario s = scenario_;
        s.effects.seed = uint64_t(std::llround(seed));
        commit(std::move(s), tr("Set seed to %1").arg(s.effects.seed), 0);
    });
    connect(jitter_spin_, &QDoubleSpinBox::valueChanged, this, [this](double percent) {
        Scenario s = scenario_;
        s.effects.jitter = percent / 100.0;
        commit(std::move(s), tr("Set jitter to %1 %").arg(percent), 0);
    });

    connect(straggler_list_, &QListWidget::currentRowChanged, this, [this](int row) {
        const std::vector<StragglerSpec> &stragglers = scenario_.effects.stragglers;
        if (row < 0 || size_t(row) >= stragglers.size())
            return;
        setSpin(straggler_gpu_spin_, stragglers[size_t(row)].gpu);
        setDouble(straggler_slowdown_spin_, stragglers[size_t(row)].slowdown);
    });
    connect(straggler_add_button_, &QPushButton::clicked, this, [this] {
        Scenario s = scenario_;
        const StragglerSpec added{straggler_gpu_spin_->value(), straggler_slowdown_spin_->value()};
        std::vector<StragglerSpec> &stragglers = s.effects.stragglers;
        const auto it = std::find_if(stragglers.begin(), stragglers.end(),
                                     [&](const StragglerSpec &x) { return x.gpu == added.gpu; });
        if (it != stragglers.end())
            it->slowdown = added.slowdown;
        else
            stragglers.push_back(added);
        commit(std::move(s),
               tr("Set straggler GPU %1 to %2× slower").arg(added.gpu).arg(added.slowdown), 0);
    });
    connect(straggler_remove_button_, &QPushButton::clicked, this, [this] {
        Scenario s = scenario_;
        std::vector<StragglerSpec> &stragglers = s.effects.stragglers;
        int row = straggler_list_->currentRow();
        if (row < 0 || size_t(row) >= stragglers.size()) {
            const int gpu = straggler_gpu_spin_->value();
            const auto it = std::find_if(stragglers.begin(), stragglers.end(),
                                         [&](const StragglerSpec &x) { return x.gpu == gpu; });
            if (it == stragglers.end())
                return;
            row = int(it - stragglers.begin());
        }
        const int gpu = stragglers[size_t(row)].gpu;
        stragglers.erase(stragglers.begin() + row);
        commit(std::move(s), tr("Remove straggler GPU %1").arg(gpu), 0);
    });

    connect(thermal_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        // The fields show the scenario's values; switching on uses them as they are.
        s.effects.thermal.enabled = on;
        commit(std::move(s),
               on ? tr("Turn thermal throttling on") : tr("Turn thermal throttling off"), 0);
    });
    connect(thermal_threshold_spin_, &QDoubleSpinBox::valueChanged, this, [this](double c) {
        Scenario s = scenario_;
        s.effects.thermal.throttle_above_c = c;
        commit(std::move(s), tr("Set throttling temperature to %1 °C").arg(c), 0);
    });
    connect(thermal_drop_spin_, &QDoubleSpinBox::valueChanged, this, [this](double percent) {
        Scenario s = scenario_;
        s.effects.thermal.clock_drop = percent / 100.0;
        commit(std::move(s), tr("Set throttled clock drop to %1 %").arg(percent), 0);
    });
    connect(thermal_warmup_spin_, &QDoubleSpinBox::valueChanged, this, [this](double seconds) {
        Scenario s = scenario_;
        s.effects.thermal.warmup_s = seconds;
        commit(std::move(s), tr("Set thermal warm-up to %1 s").arg(seconds), 0);
    });

    connect(loader_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        DataLoaderSpec &loader = s.effects.data_loader;
        loader.enabled = on;
        if (on) { // what the fields show (defaults for a loader never set)
            loader.workers_per_gpu = loader_workers_spin_->value();
            loader.samples_per_s_per_worker = loader_rate_spin_->value();
        }
        commit(std::move(s), on ? tr("Turn data loader on") : tr("Turn data loader off"), 0);
    });
    connect(loader_workers_spin_, &QSpinBox::valueChanged, this, [this](int workers) {
        Scenario s = scenario_;
        s.effects.data_loader.workers_per_gpu = workers;
        commit(std::move(s), tr("Set loader workers per GPU to %1").arg(workers), 0);
    });
    connect(loader_rate_spin_, &QDoubleSpinBox::valueChanged, this, [this](double rate) {
        Scenario s = scenario_;
        s.effects.data_loader.samples_per_s_per_worker = rate;
        commit(std::move(s), tr("Set loader rate to %1 samples/s per worker").arg(rate), 0);
    });
    connect(loader_prefetch_spin_, &QSpinBox::valueChanged, this, [this](int batches) {
        Scenario s = scenario_;
        s.effects.data_loader.prefetch_factor = batches;
        commit(std::move(s), tr("Set loader prefetch to %1 batches per worker").arg(batches), 0);
    });

    connectThermal();
    connectVirtualGpuAndFailures();
}

void ControlPanel::connectThermal()
{
    connect(thermal_cooling_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const double steadyC = thermal_cooling_combo_->itemData(index).toDouble();
        if (steadyC == kCustomCoolingC) // only shown; the steady-state spin sets it
            return;
        Scenario s = scenario_;
        if (steadyC == kNoCoolingC)
            s.effects.thermal.steady_c.reset();
        else
            s.effects.thermal.steady_c = steadyC;
        commit(std::move(s), tr("Set cooling to %1").arg(thermal_cooling_combo_->itemText(index)),
               0);
    });
    connect(thermal_steady_spin_, &QDoubleSpinBox::valueChanged, this, [this](double c) {
        Scenario s = scenario_;
        s.effects.thermal.steady_c = c;
        commit(std::move(s), tr("Set steady-state temperature to %1 °C").arg(c), 0);
    });
    connect(thermal_ambient_spin_, &QDoubleSpinBox::valueChanged, this, [this](double c) {
        Scenario s = scenario_;
        s.effects.thermal.ambient_c = c;
        commit(std::move(s), tr("Set ambient temperature to %1 °C").arg(c), 0);
    });
    connect(thermal_start_spin_, &QDoubleSpinBox::valueChanged, this, [this](double seconds) {
        Scenario s = scenario_;
        // Whole seconds only: the minimum is the one value below 0 (steady state).
        if (seconds <= kStartSteadyState) {
            s.effects.thermal.start_s.reset();
            commit(std::move(s), tr("Start the thermal model in steady state"), 0);
        } else {
            s.effects.thermal.start_s = seconds;
            commit(std::move(s), tr("Set load before the first step to %1 s").arg(seconds), 0);
        }
    });

    connect(thermal_gpu_list_, &QListWidget::currentRowChanged, this, [this](int row) {
        const std::vector<ThermalGpuSpec> &gpus = scenario_.effects.thermal.gpus;
        if (row < 0 || size_t(row) >= gpus.size())
            return;
        setSpin(thermal_gpu_spin_, gpus[size_t(row)].gpu);
        setDouble(thermal_gpu_steady_spin_, gpus[size_t(row)].steady_c);
    });
    connect(thermal_gpu_add_button_, &QPushButton::clicked, this, [this] {
        Scenario s = scenario_;
        const ThermalGpuSpec added{thermal_gpu_spin_->value(), thermal_gpu_steady_spin_->value()};
        std::vector<ThermalGpuSpec> &gpus = s.effects.thermal.gpus;
        const auto it = std::find_if(gpus.begin(), gpus.end(),
                                     [&](const ThermalGpuSpec &g) { return g.gpu == added.gpu; });
        if (it != gpus.end())
            it->steady_c = added.steady_c;
        else
            gpus.push_back(added);
        commit(
            std::move(s),
            tr("Set GPU %1 steady-state temperature to %2 °C").arg(added.gpu).arg(added.steady_c),
            0);
    });
    connect(thermal_gpu_remove_button_, &QPushButton::clicked, this, [this] {
        Scenario s = scenario_;
        std::vector<ThermalGpuSpec> &gpus = s.effects.thermal.gpus;
        int row = thermal_gpu_list_->currentRow();
        if (row < 0 || size_t(row) >= gpus.size()) {
            const int gpu = thermal_gpu_spin_->value();
            const auto it = std::find_if(gpus.begin(), gpus.end(),
                                         [&](const ThermalGpuSpec &g) { return g.gpu == gpu; });
            if (it == gpus.end())
                return;
            row = int(it - gpus.begin());
        }
        const int gpu = gpus[size_t(row)].gpu;
        gpus.erase(gpus.begin() + row);
        commit(std::move(s), tr("Remove GPU %1's own cooling").arg(gpu), 0);
    });
}

void ControlPanel::connectVirtualGpuAndFailures()
{
    connect(virtual_gpu_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        VirtualGpuSpec &v = s.effects.virtual_gpu;
        v.enabled = on;
        if (on) // what the fields show (a half slice for one never set)
            v.fraction = virtual_fraction_spin_->value() / 100.0;
        commit(std::move(s),
               on ? tr("Turn virtual GPU slices on") : tr("Turn virtual GPU slices off"), 0);
    });
    connect(virtual_fraction_spin_, &QDoubleSpinBox::valueChanged, this, [this](double percent) {
        Scenario s = scenario_;
        s.effects.virtual_gpu.fraction = percent / 100.0;
        commit(std::move(s), tr("Set virtual GPU slice to %1 %").arg(percent), 0);
    });
    connect(host_routed_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        s.effects.virtual_gpu.host_routed = on;
        commit(std::move(s),
               on ? tr("Route GPU-to-GPU traffic through the host")
                  : tr("Let GPUs exchange data peer-to-peer"),
               0);
    });

    connect(failures_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        s.effects.failures.enabled = on; // the fields show the scenario's values
        commit(std::move(s),
               on ? tr("Turn failures and checkpoints on")
                  : tr("Turn failures and checkpoints off"),
               0);
    });
    connect(mtbf_spin_, &QDoubleSpinBox::valueChanged, this, [this](double hours) {
        Scenario s = scenario_;
        s.effects.failures.mtbf_hours_per_gpu = hours;
        commit(std::move(s), tr("Set MTBF per GPU to %1 h").arg(hours), 0);
    });
    connect(checkpoint_size_spin_, &QDoubleSpinBox::valueChanged, this, [this](double gb) {
        Scenario s = scenario_;
        s.effects.failures.checkpoint_bytes = gb * kBytesPerGb;
        commit(std::move(s),
               gb == 0 ? tr("Set checkpoint size to the model states")
                       : tr("Set checkpoint size to %1 GB").arg(gb),
               0);
    });
    connect(checkpoint_write_spin_, &QDoubleSpinBox::valueChanged, this, [this](double gbps) {
        Scenario s = scenario_;
        s.effects.failures.checkpoint_write_gbps = gbps;
        commit(std::move(s), tr("Set checkpoint write bandwidth to %1 GB/s").arg(gbps), 0);
    });
    connect(restart_spin_, &QDoubleSpinBox::valueChanged, this, [this](double seconds) {
        Scenario s = scenario_;
        s.effects.failures.restart_s = seconds;
        commit(std::move(s), tr("Set restart time to %1 s").arg(seconds), 0);
    });
    connect(checkpoint_interval_spin_, &QDoubleSpinBox::valueChanged, this, [this](double seconds) {
        Scenario s = scenario_;
        s.effects.failures.checkpoint_interval_s = seconds;
        commit(std::move(s),
               seconds == 0 ? tr("Set checkpoint interval to optimal (Young/Daly)")
                            : tr("Set checkpoint interval to %1 s").arg(seconds),
               0);
    });
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
}

namespace
{

/// Selects the item with `id`; an entry not in the catalog gets a trailing "(from file)" item.
void syncCatalogCombo(QComboBox *combo, int fixedItems, const std::string &id,
                      const QString &fromFileText)
{
    const QSignalBlocker blocker(combo);
    while (combo->count() > fixedItems)
        combo->removeItem(combo->count() - 1);
    int index = id.empty() ? -1 : combo->findData(qs(id));
    if (index < 0) {
        combo->addItem(fromFileText, QString());
        index = combo->count() - 1;
    }
    combo->setCurrentIndex(index);
}

} // namespace

void ControlPanel::syncHardware()
{
    const HardwareSpec &hw = scenario_.hardware;
    if (hw.calibration) {
        // A measured GPU is its own entry: "NVIDIA H200 (measured 2026-11-30)".
        const QString date = qs(hw.calibration->created).left(10);
        const QString name =
            hw.calibration->gpus.empty() ? qs(hw.gpu.name) : qs(hw.calibration->gpus.front().name);
        syncCatalogCombo(gpu_combo_, int(catalog_.gpus.size()), std::string(),
                         tr("%1 (measured %2)").arg(name, date));
        gpu_combo_->setToolTip(
            tr("Measured figures from the calibration profile %1").arg(qs(hw.calibration_path)));
    } else {
        syncCatalogCombo(gpu_combo_, int(catalog_.gpus.size()), hw.gpu.id,
                         tr("%1, %2 GB (from file)").arg(qs(hw.gpu.name)).arg(hw.gpu.memory_gb));
        gpu_combo_->setToolTip(tr("GPU model from the catalog, with its memory"));
    }
    syncCatalogCombo(intra_combo_, int(catalog_.intra_links.size()), hw.intra.id,
                     tr("%1 (from file)").arg(qs(hw.intra.name)));
    syncCatalogCombo(inter_combo_, int(catalog_.inter_links.size()), hw.inter.id,
                     tr("%1 (from file)").arg(qs(hw.inter.name)));
    setSpin(nodes_spin_, hw.nodes);
    setSpin(gpus_per_node_spin_, hw.gpus_per_node);
    setSpin(nics_spin_, hw.nics_per_node);
    setSlider(gpu_count_slider_, nearestLog2(hw.gpuCount(), kMaxGpuCountLog2));
    gpu_count_label_->setText(hw.gpuCount() == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(hw.gpuCount()));
}

void ControlPanel::syncModel()
{
    const ModelSpec &model = scenario_.model;
    const bool transformer = model.kind == ModelSpec::Kind::Transformer;
    const bool custom = transformer && model.id.empty();
    if (custom) {
        const QSignalBlocker blocker(model_combo_);
        while (model_combo_->count() > model_fixed_items_)
            model_combo_->removeItem(model_combo_->count() - 1);
        model_combo_->setCurrentIndex(model_combo_->findData(kCustomTransformer));
    } else {
        syncCatalogCombo(model_combo_, model_fixed_items_, model.id,
                         tr("%1 (from file)").arg(qs(model.name)));
    }
    const TransformerSpec &t = model.transformer;
    const std::array<std::pair<QSpinBox *, int64_t>, 5> dims = {{{layers_spin_, t.layers},
                                                                 {hidden_spin_, t.hidden},
                                                                 {heads_spin_, t.heads},
                                                                 {seq_len_spin_, t.seq_len},
                                                                 {vocab_spin_, t.vocab}}};
    for (const auto &[spin, value] : dims) {
        setSpin(spin, value);
        spin->setEnabled(custom);
        setRowVisible(spin, transformer);
    }

    const TrainingSpec &training = scenario_.training;
    setSpin(global_batch_spin_, training.global_batch);
    setSlider(global_batch_slider_, nearestLog2(training.global_batch, kMaxGlobalBatchLog2));
    setSpin(micro_batch_spin_, training.micro_batch);
    setComboData(precision_combo_, int(training.precision));
    setComboData(optimizer_combo_, int(training.optimizer));
    setComboData(recompute_combo_, int(training.recompute));
    setCheck(flash_check_, training.flash_attention);
    flash_check_->setEnabled(transformer);
    // A collective-only scenario has no model, batch or plan to edit.
    model_group_->setEnabled(!scenario_.isCollective());
    parallel_group_->setEnabled(!scenario_.isCollective());
}

void ControlPanel::syncParallel()
{
    const ParallelSpec &p = scenario_.parallel;
    // "Auto" names the stack it picked for this plan.
    framework_combo_->setItemText(
        0, scenario_.training.stack.name.empty()
               ? tr("Auto")
               : tr("Auto: %1").arg(QString::fromStdString(scenario_.training.stack.name)));
    setComboData(framework_combo_, QString::fromStdString(scenario_.training.framework));
    setComboData(strategy_combo_, int(strategy_));
    setSpin(data_spin_, p.data);
    setSpin(tensor_spin_, p.tensor);
    setSpin(pipeline_spin_, p.pipeline);
    setComboData(zero_combo_, p.zero);
    setComboData(schedule_combo_, int(p.schedule));
    setSpin(virtual_stages_spin_, p.virtual_stages);
    setCheck(sequence_parallel_check_, p.sequence_parallel);
    setCheck(overlap_check_, p.overlap);
    setDouble(bucket_spin_, p.bucket_mb);
    setComboData(update_combo_, int(p.update));
}

void ControlPanel::updateStrategyRows()
{
    const bool tensor = strategy_ == Strategy::Tensor || strategy_ == Strategy::Hybrid;
    const bool pipeline = strategy_ == Strategy::Pipeline || strategy_ == Strategy::Hybrid;
    const bool zero = tensor || pipeline; // the ZeRO strategies choose their stage themselves
    setRowVisible(tensor_spin_, tensor);
    setRowVisible(sequence_parallel_check_, tensor);
    setRowVisible(pipeline_spin_, pipeline);
    setRowVisible(schedule_combo_, pipeline);
    setRowVisible(virtual_stages_spin_, pipeline);
    setRowVisible(zero_combo_, zero);
}

void ControlPanel::syncEffects()
{
    const EffectsSpec &e = scenario_.effects;
    setDouble(seed_spin_, double(e.seed));
    setDouble(jitter_spin_, e.jitter * 100.0);

    {
        const QSignalBlocker blocker(straggler_list_);
        const int row = straggler_list_->currentRow();
        straggler_list_->clear();
        for (const StragglerSpec &straggler : e.stragglers)
            straggler_list_->addItem(
                tr("GPU %1: %2× slower").arg(straggler.gpu).arg(straggler.slowdown));
        if (row >= 0 && row < straggler_list_->count())
            straggler_list_->setCurrentRow(row);
    }
    {
        const QSignalBlocker blocker(straggler_gpu_spin_);
        straggler_gpu_spin_->setMaximum(std::max(0, scenario_.hardware.gpuCount() - 1));
    }
    straggler_remove_button_->setEnabled(!e.stragglers.empty());

    syncThermal();

    setCheck(loader_check_, e.data_loader.enabled);
    const bool loaderSet = e.data_loader.enabled || e.data_loader.samples_per_s_per_worker > 0;
    setSpin(loader_workers_spin_,
            loaderSet ? e.data_loader.workers_per_gpu : kDefaultLoaderWorkers);
    setDouble(loader_rate_spin_,
              loaderSet ? e.data_loader.samples_per_s_per_worker : kDefaultLoaderRate);
    setSpin(loader_prefetch_spin_, e.data_loader.prefetch_factor);

    setCheck(virtual_gpu_check_, e.virtual_gpu.enabled);
    const bool sliceSet = e.virtual_gpu.enabled || e.virtual_gpu.fraction != 1;
    setDouble(virtual_fraction_spin_,
              100.0 * (sliceSet ? e.virtual_gpu.fraction : kDefaultVirtualFraction));
    setCheck(host_routed_check_, e.virtual_gpu.host_routed);

    const FailureSpec &f = e.failures;
    setCheck(failures_check_, f.enabled);
    setDouble(mtbf_spin_, f.mtbf_hours_per_gpu);
    setDouble(checkpoint_size_spin_, f.checkpoint_bytes / kBytesPerGb);
    setDouble(checkpoint_write_spin_, f.checkpoint_write_gbps);
    setDouble(restart_spin_, f.restart_s);
    setDouble(checkpoint_interval_spin_, f.checkpoint_interval_s);

    // An effect that is off shows its check box only: its rows collapse.
    for (const EffectToggle &toggle : effect_toggles_) {
        toggle.rows->setEnabled(toggle.toggle->isChecked());
        toggle.rows->setVisible(toggle.toggle->isChecked());
    }
}

void ControlPanel::syncThermal()
{
    const ThermalSpec &th = scenario_.effects.thermal;
    setCheck(thermal_check_, th.enabled);
    setDouble(thermal_threshold_spin_, th.throttle_above_c);
    setDouble(thermal_drop_spin_, th.clock_drop * 100.0);
    setDouble(thermal_warmup_spin_, th.warmup_s);
    {
        const QSignalBlocker blocker(thermal_cooling_combo_);
        while (thermal_cooling_combo_->count() > kCoolingPresetItems)
            thermal_cooling_combo_->removeItem(thermal_cooling_combo_->count() - 1);
        int index = thermal_cooling_combo_->findData(th.steady_c.value_or(kNoCoolingC));
        if (index < 0) {
            thermal_cooling_combo_->addItem(tr("Custom, %1 °C").arg(*th.steady_c), kCustomCoolingC);
            index = thermal_cooling_combo_->count() - 1;
        }
        thermal_cooling_combo_->setCurrentIndex(index);
    }
    // With no cooling given: the temperature the model assumes (a GPU not listed below).
    setDouble(thermal_steady_spin_, th.steadyC(-1));
    setDouble(thermal_ambient_spin_, th.ambient_c);
    setDouble(thermal_start_spin_, th.start_s.value_or(kStartSteadyState));

    {
        const QSignalBlocker blocker(thermal_gpu_list_);
        const int row = thermal_gpu_list_->currentRow();
        thermal_gpu_list_->clear();
        for (const ThermalGpuSpec &g : th.gpus)
            thermal_gpu_list_->addItem(tr("GPU %1: %2 °C steady").arg(g.gpu).arg(g.steady_c));
        if (row >= 0 && row < thermal_gpu_list_->count())
            thermal_gpu_list_->setCurrentRow(row);
    }
    {
        const QSignalBlocker blocker(thermal_gpu_spin_);
        thermal_gpu_spin_->setMaximum(std::max(0, scenario_.hardware.gpuCount() - 1));
    }
    thermal_gpu_remove_button_->setEnabled(!th.gpus.empty());
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
