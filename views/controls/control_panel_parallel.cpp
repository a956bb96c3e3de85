// The control panel's Parallelism group: strategy, degrees, ZeRO, schedule, overlap and
// updates; built, connected and synchronised.
#include "controls/control_panel_p.h"

namespace scalescope
{

using namespace panel_detail;

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
    // A plan the chosen stack cannot run offers the stack that runs it, in one click (issue
    // 26: the error named the keys and left the user to find the fix).
    stack_fix_ = new QPushButton(group);
    stack_fix_->setObjectName(QStringLiteral("stackFixButton"));
    form->addRow(stack_fix_);
    form->setRowVisible(stack_fix_, false);
    connect(stack_fix_, &QPushButton::clicked, this, [this] {
        const std::optional<std::string> id = stackThatRunsThePlan();
        if (!id)
            return;
        Scenario s = scenario_;
        s.training.framework = *id;
        // As a stack chosen in the combo box: its defaults where the scenario is silent.
        s.parallel.overlap.reset();
        s.parallel.bucket_mb.reset();
        s.training.flash_attention.reset();
        commit(std::move(s), stack_fix_->text(), 0);
    });

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
                          tr("Data-parallel degree, 0 = auto (GPU count / (tensor × pipeline × context)), "
                             "0-131072"));
    data_spin_->setSpecialValueText(tr("auto"));
    addRow(form, tr("&Data"), data_spin_, data_spin_);
    tensor_spin_ = makeSpin(group, "tensorSpin", 1, 1024, tr("Tensor-parallel degree, 1-1024"));
    addRow(form, tr("&Tensor"), tensor_spin_, tensor_spin_);
    pipeline_spin_ =
        makeSpin(group, "pipelineSpin", 1, 1024, tr("Pipeline-parallel degree (stages), 1-1024"));
    addRow(form, tr("Pipe&line"), pipeline_spin_, pipeline_spin_);
    context_spin_ = makeSpin(group, "contextSpin", 1, 1024,
                             tr("Context-parallel degree: GPUs sharing each sequence (long "
                                "context), 1-1024"));
    addRow(form, tr("&Context"), context_spin_, context_spin_);
    addMessageRow(form,
                  {QStringLiteral("parallel"), QStringLiteral("parallel.data"),
                   QStringLiteral("parallel.tensor"), QStringLiteral("parallel.pipeline"),
                   QStringLiteral("parallel.context")},
                  QStringLiteral("degreesError"));

    // Mixture of experts: the expert-parallel degree, how tokens reach their experts, and
    // how unevenly the router spreads them.
    expert_spin_ = makeSpin(group, "expertSpin", 1, 1024,
                            tr("Expert-parallel degree: the routed experts split over this many "
                               "GPUs, 1-1024"));
    addRow(form, tr("E&xperts over"), expert_spin_, expert_spin_,
           {QStringLiteral("parallel.expert"), QStringLiteral("parallel.expert_tensor")},
           QStringLiteral("expertSpinError"));
    dispatcher_combo_ = makeCombo(group, "dispatcherCombo",
                                  tr("How tokens reach their experts: NCCL all-to-all, or DeepEP's "
                                     "kernels that send each token once per node"));
    dispatcher_combo_->addItem(tr("NCCL all-to-all"), int(ExpertDispatcher::AllToAll));
    dispatcher_combo_->addItem(tr("DeepEP"), int(ExpertDispatcher::DeepEP));
    dispatcher_combo_->addItem(tr("Hybrid-EP (as DeepEP)"), int(ExpertDispatcher::HybridEP));
    addRow(form, tr("Dispatcher"), dispatcher_combo_, dispatcher_combo_,
           {QStringLiteral("parallel.expert_dispatcher")}, QStringLiteral("dispatcherComboError"));
    expert_overlap_check_ =
        makeCheck(group, "expertOverlapCheck", tr("Overlap expert all-to-all"),
                  tr("Hide the experts' all-to-all behind another micro-batch's computation"));
    addRow(form, QString(), expert_overlap_check_, expert_overlap_check_,
           {QStringLiteral("parallel.expert_overlap")}, QStringLiteral("expertOverlapCheckError"));
    imbalance_spin_ = makeDoubleSpin(group, "imbalanceSpin", 1, 16, 2,
                                     tr("Tokens of the busiest expert over the mean, 1-16: 1 = "
                                        "balanced routing (benchmarks force it); dropless "
                                        "routing with an auxiliary loss ran like 1.6 "
                                        "(Qwen3-235B on 256 H100)"),
                                     QStringLiteral("×"));
    addRow(form, tr("Expert &imbalance"), imbalance_spin_, imbalance_spin_,
           {QStringLiteral("effects.expert_imbalance")}, QStringLiteral("imbalanceSpinError"));

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
    schedule_combo_->addItem(tr("Zero bubble (ZB-H1)"), int(Schedule::ZbH1));
    schedule_combo_->addItem(tr("Zero bubble V (ZB-V)"), int(Schedule::ZbV));
    schedule_combo_->addItem(tr("DualPipe (DeepSeek-V3)"), int(Schedule::DualPipe));
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
    tp_overlap_check_ = makeCheck(
        group, "tpOverlapCheck", tr("Overlap tensor-parallel communication"),
        tr("Tensor-parallel collectives pipelined with the GEMMs beside them (Megatron-Core's "
           "overlap, torchtitan's async TP); unchecked: they wait on the critical path. The "
           "software stack's own choice until you change it"));
    addRow(form, QString(), tp_overlap_check_, tp_overlap_check_,
           {QStringLiteral("parallel.tp_overlap")}, QStringLiteral("tpOverlapCheckError"));

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
    connect(context_spin_, &QSpinBox::valueChanged, this, [this](int context) {
        Scenario s = scenario_;
        s.parallel.context = context;
        commit(std::move(s), tr("Set context degree to %1").arg(context), 0);
    });
    connect(expert_spin_, &QSpinBox::valueChanged, this, [this](int expert) {
        Scenario s = scenario_;
        s.parallel.expert = expert;
        commit(std::move(s), tr("Set expert degree to %1").arg(expert), 0);
    });
    connect(dispatcher_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.parallel.expert_dispatcher = ExpertDispatcher(dispatcher_combo_->itemData(index).toInt());
        commit(std::move(s), tr("Set dispatcher to %1").arg(dispatcher_combo_->itemText(index)),
               0);
    });
    connect(expert_overlap_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        s.parallel.expert_overlap = on;
        commit(std::move(s),
               on ? tr("Turn expert all-to-all overlap on") : tr("Turn expert all-to-all overlap off"),
               0);
    });
    connect(imbalance_spin_, &QDoubleSpinBox::valueChanged, this, [this](double imbalance) {
        Scenario s = scenario_;
        s.effects.expert_imbalance = imbalance;
        commit(std::move(s), tr("Set expert imbalance to %1").arg(imbalance), 0);
    });
    connect(framework_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.training.framework = framework_combo_->itemData(index).toString().toStdString();
        // The stack brings its defaults (overlap, bucket size, fused attention), as a file
        // that leaves them out gets them (plan/framework_rules.h, stackOf).
        s.parallel.overlap.reset();
        s.parallel.bucket_mb.reset();
        s.training.flash_attention.reset();
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
    connect(tp_overlap_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        s.parallel.tp_overlap = on;
        commit(std::move(s),
               on ? tr("Turn tensor-parallel overlap on") : tr("Turn tensor-parallel overlap off"),
               0);
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

std::optional<std::string> ControlPanel::stackThatRunsThePlan() const
{
    const bool cannot_run =
        std::any_of(issues_.begin(), issues_.end(), [](const ControlIssue &issue) {
            return issue.finding.rule == Rule::StackCannotRun &&
                   issue.severity == ControlIssue::Severity::Error;
        });
    if (!cannot_run)
        return std::nullopt;
    // A named stack of the catalog that runs the plan, in catalog order; else Auto, which
    // picks one for the plan.
    for (const FrameworkSpec &f : catalog_.frameworks)
        if (!frameworkRejects(f, scenario_.parallel))
            return f.id;
    return std::string(kFrameworkAuto);
}

void ControlPanel::updateStackFix()
{
    const std::optional<std::string> id = stackThatRunsThePlan();
    QString name = tr("Auto");
    if (id)
        for (const FrameworkSpec &f : catalog_.frameworks)
            if (f.id == *id)
                name = QString::fromStdString(f.name);
    stack_fix_->setText(tr("Switch to %1, which runs this plan").arg(name));
    form_of_field_.value(framework_combo_)->setRowVisible(stack_fix_, id.has_value());
}

void ControlPanel::syncParallel()
{
    const ParallelSpec &p = scenario_.parallel;
    // "Auto" names the stack it picks for this plan; the stack's defaults show where the
    // scenario is silent.
    const FrameworkSpec stack = stackOf(scenario_);
    framework_combo_->setItemText(
        0, scenario_.isCollective() || stack.name.empty()
               ? tr("Auto")
               : tr("Auto: %1").arg(QString::fromStdString(stack.name)));
    setComboData(framework_combo_, QString::fromStdString(scenario_.training.framework));
    setComboData(strategy_combo_, int(strategy_));
    setSpin(data_spin_, p.data);
    setSpin(tensor_spin_, p.tensor);
    setSpin(pipeline_spin_, p.pipeline);
    setSpin(context_spin_, p.context);
    setSpin(expert_spin_, p.expert);
    setComboData(dispatcher_combo_, int(p.expert_dispatcher.value_or(ExpertDispatcher::AllToAll)));
    setCheck(expert_overlap_check_, p.expert_overlap);
    setDouble(imbalance_spin_, scenario_.effects.expert_imbalance);
    // The expert rows matter only for a model with routed experts.
    const bool moe = scenario_.model.kind == ModelSpec::Kind::Transformer &&
                     scenario_.model.transformer.moe.enabled();
    for (QWidget *w : {static_cast<QWidget *>(expert_spin_), static_cast<QWidget *>(dispatcher_combo_),
                       static_cast<QWidget *>(expert_overlap_check_),
                       static_cast<QWidget *>(imbalance_spin_)})
        w->setEnabled(moe || p.expert > 1);
    setComboData(zero_combo_, p.zero);
    setComboData(schedule_combo_, int(p.schedule));
    setSpin(virtual_stages_spin_, p.virtual_stages);
    setCheck(sequence_parallel_check_, p.sequence_parallel);
    setCheck(tp_overlap_check_, p.tp_overlap.value_or(stack.tp_overlap));
    setCheck(overlap_check_, overlapOf(scenario_, stack));
    setDouble(bucket_spin_, bucketMbOf(scenario_, stack));
    setComboData(update_combo_, int(p.update));
}

void ControlPanel::updateStrategyRows()
{
    const bool tensor = strategy_ == Strategy::Tensor || strategy_ == Strategy::Hybrid;
    const bool pipeline = strategy_ == Strategy::Pipeline || strategy_ == Strategy::Hybrid;
    const bool zero = tensor || pipeline; // the ZeRO strategies choose their stage themselves
    setRowVisible(tensor_spin_, tensor);
    setRowVisible(sequence_parallel_check_, tensor);
    setRowVisible(tp_overlap_check_, tensor);
    setRowVisible(pipeline_spin_, pipeline);
    setRowVisible(schedule_combo_, pipeline);
    setRowVisible(virtual_stages_spin_, pipeline);
    setRowVisible(zero_combo_, zero);
}

} // namespace scalescope
