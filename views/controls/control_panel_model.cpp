// The control panel's Model and Training group: model, batch sizes, precision, optimizer,
// recomputation and the software stack; built, connected and synchronised.
#include "controls/control_panel_p.h"

#include <bit>

namespace scalescope
{

using namespace panel_detail;

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
    addRow(form, tr("Heads"), heads_spin_, heads_spin_, {QStringLiteral("model.transformer.heads")},
           QStringLiteral("headsSpinError"));
    seq_len_spin_ = makeSpin(group, "seqLenSpin", 1, 1048576,
                             tr("Sequence length in tokens, 1-1048576"), tr(" tokens"));
    addRow(form, tr("Sequence"), seq_len_spin_, seq_len_spin_);
    vocab_spin_ = makeSpin(group, "vocabSpin", 1, 1000000, tr("Vocabulary size, 1-1000000"));
    addRow(form, tr("Vocabulary"), vocab_spin_, vocab_spin_, {QStringLiteral("model.transformer")},
           QStringLiteral("transformerError"));
    head_combo_ = makeCombo(group, "headCombo",
                            tr("What the last layer predicts: the vocabulary for every token "
                               "(pre-training a language model), or a start and an end logit "
                               "per token (question answering, as BERT on SQuAD)"));
    head_combo_->addItem(tr("Language model"), int(OutputHead::LanguageModel));
    head_combo_->addItem(tr("Answer span"), int(OutputHead::Span));
    addRow(form, tr("Output head"), head_combo_, head_combo_,
           {QStringLiteral("model.transformer.head")}, QStringLiteral("headComboError"));

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

    fp8_recipe_combo_ = makeCombo(
        group, "fp8RecipeCombo",
        tr("How FP8 tensors get their scales: the software stack's own recipe, Transformer "
           "Engine's delayed or current scaling, or torchao's tensorwise or rowwise scaling; "
           "each costs the casts it makes"));
    fp8_recipe_combo_->addItem(tr("The stack's"), int(Fp8Scaling::Stack));
    fp8_recipe_combo_->addItem(tr("Delayed (Transformer Engine)"), int(Fp8Scaling::Delayed));
    fp8_recipe_combo_->addItem(tr("Current (Transformer Engine)"), int(Fp8Scaling::Current));
    fp8_recipe_combo_->addItem(tr("Tensorwise (torchao)"), int(Fp8Scaling::Tensorwise));
    fp8_recipe_combo_->addItem(tr("Rowwise (torchao)"), int(Fp8Scaling::Rowwise));
    addRow(form, tr("FP8 scaling"), fp8_recipe_combo_, fp8_recipe_combo_,
           {QStringLiteral("training.fp8_recipe")}, QStringLiteral("fp8RecipeComboError"));

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

    // Megatron-Core's --recompute-modules: which parts selective recompute rebuilds. None
    // ticked: the stack's own choice.
    recompute_modules_button_ = new QToolButton(group);
    recompute_modules_button_->setObjectName(QStringLiteral("recomputeModulesButton"));
    recompute_modules_button_->setPopupMode(QToolButton::InstantPopup);
    recompute_modules_button_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    recompute_modules_button_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    recompute_modules_button_->setToolTip(
        tr("Which parts of each layer selective recompute rebuilds in backward (Megatron-Core "
           "--recompute-modules): each frees what it keeps and runs its forward again; none "
           "ticked: the stack's own choice"));
    auto *modules_menu = new QMenu(recompute_modules_button_);
    const std::array<std::pair<RecomputeModule, QString>, kRecomputeModules.size()> labels = {{
        {RecomputeModule::CoreAttn, tr("Attention core (core_attn)")},
        {RecomputeModule::MoeAct, tr("Experts' activation (moe_act)")},
        {RecomputeModule::Layernorm, tr("Norms (layernorm)")},
        {RecomputeModule::MlaUpProj, tr("MLA up-projections (mla_up_proj)")},
        {RecomputeModule::Mlp, tr("Dense MLP (mlp)")},
        {RecomputeModule::Moe, tr("Routed experts, with their all-to-all (moe)")},
        {RecomputeModule::SharedExperts, tr("Shared experts (shared_experts)")},
    }};
    for (const auto &[module, label] : labels) {
        QAction *action = modules_menu->addAction(label);
        action->setCheckable(true);
        action->setData(static_cast<unsigned>(module));
        recompute_module_actions_.append(action);
    }
    recompute_modules_button_->setMenu(modules_menu);
    addRow(form, tr("Recompute modules"), recompute_modules_button_, recompute_modules_button_,
           {QStringLiteral("training.recompute_modules")},
           QStringLiteral("recomputeModulesButtonError"));

    offload_spin_ = makeSpin(
        group, "offloadLayersSpin", 0, 100000,
        tr("Transformer layers whose saved activations wait in host memory between forward and "
           "backward (Megatron-Core CPU offloading), copied over the GPU's host link beside the "
           "compute; no pipeline parallelism, no recompute; 0 = none, 0-100000 (fewer than "
           "the model's layers)"));
    addRow(form, tr("Offloaded layers"), offload_spin_, offload_spin_,
           {QStringLiteral("training.activation_offload_layers")},
           QStringLiteral("offloadLayersSpinError"));

    flash_check_ = makeCheck(group, "flashCheck", tr("&Flash attention"),
                             tr("Fused attention kernels: no sequence² tensors in memory"));
    addRow(form, QString(), flash_check_, flash_check_,
           {QStringLiteral("training.flash_attention")}, QStringLiteral("flashCheckError"));
    compile_check_ = makeCheck(
        group, "compileCheck", tr("torch.compile"),
        tr("The model compiled with torch.compile: elementwise chains fused into one kernel "
           "each, and the host launches from generated code"));
    addRow(form, QString(), compile_check_, compile_check_, {QStringLiteral("training.compile")},
           QStringLiteral("compileCheckError"));
    // Convolutional models only: how the activations lie in memory (layers/layer_cost.cpp).
    memory_format_combo_ = makeCombo(
        group, "memoryFormatCombo",
        tr("How a convolutional model's activations lie in memory: channels last (NHWC), "
           "what tensor cores take, or channels first (NCHW), PyTorch's default, which cuDNN "
           "transposes around every 16-bit convolution"));
    memory_format_combo_->addItem(tr("Channels last (NHWC)"), int(MemoryFormat::NHWC));
    memory_format_combo_->addItem(tr("Channels first (NCHW)"), int(MemoryFormat::NCHW));
    addRow(form, tr("&Layout"), memory_format_combo_, memory_format_combo_,
           {QStringLiteral("training.memory_format")}, QStringLiteral("memoryFormatComboError"));
    return group;
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
    connect(head_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.model.transformer.head = OutputHead(head_combo_->itemData(index).toInt());
        commit(std::move(s), tr("Set output head to %1").arg(head_combo_->itemText(index)), 0);
    });

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
    connect(offload_spin_, &QSpinBox::valueChanged, this, [this](int layers) {
        Scenario s = scenario_;
        s.training.activation_offload_layers = layers;
        commit(std::move(s), tr("Set offloaded layers to %1").arg(layers), 0);
    });
    connect(precision_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.training.precision = Precision(precision_combo_->itemData(index).toInt());
        // The combo's items are plain precisions: an MX or NVFP4 block format ends with the
        // choice (the file would still say mxfp8), and an FP8 recipe outside FP8.
        s.training.block_format = BlockFormat::None;
        if (s.training.precision != Precision::FP8)
            s.training.fp8_recipe = Fp8Scaling::Stack;
        commit(std::move(s), tr("Set precision to %1").arg(precision_combo_->itemText(index)), 0);
    });
    connect(optimizer_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.training.optimizer = Optimizer(optimizer_combo_->itemData(index).toInt());
        commit(std::move(s), tr("Set optimizer to %1").arg(optimizer_combo_->itemText(index)), 0);
    });
    for (QAction *action : std::as_const(recompute_module_actions_)) {
        connect(action, &QAction::toggled, this, [this, action](bool on) {
            Scenario s = scenario_;
            const unsigned bit = action->data().toUInt();
            s.training.recompute_modules =
                on ? (s.training.recompute_modules | bit) : (s.training.recompute_modules & ~bit);
            commit(std::move(s), (on ? tr("Recompute %1") : tr("Keep %1")).arg(action->text()), 0);
        });
    }
    connect(recompute_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.training.recompute = Recompute(recompute_combo_->itemData(index).toInt());
        // Named modules refine selective recompute only (Megatron-Core); another choice
        // leaves none of them behind.
        if (s.training.recompute != Recompute::Selective)
            s.training.recompute_modules = 0;
        commit(std::move(s), tr("Set recompute to %1").arg(recompute_combo_->itemText(index)), 0);
    });
    connect(flash_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        s.training.flash_attention = on;
        commit(std::move(s), on ? tr("Turn flash attention on") : tr("Turn flash attention off"),
               0);
    });
    connect(compile_check_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = scenario_;
        s.training.compile = on;
        commit(std::move(s), on ? tr("Turn torch.compile on") : tr("Turn torch.compile off"), 0);
    });
    connect(fp8_recipe_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.training.fp8_recipe = Fp8Scaling(fp8_recipe_combo_->itemData(index).toInt());
        commit(std::move(s), tr("Set FP8 scaling to %1").arg(fp8_recipe_combo_->itemText(index)),
               0);
    });
    connect(memory_format_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        s.training.memory_format = MemoryFormat(memory_format_combo_->itemData(index).toInt());
        commit(std::move(s), tr("Set layout to %1").arg(memory_format_combo_->itemText(index)), 0);
    });
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
    setComboData(head_combo_, int(t.head));
    head_combo_->setEnabled(custom);
    setRowVisible(head_combo_, transformer);

    const TrainingSpec &training = scenario_.training;
    setSpin(global_batch_spin_, training.global_batch);
    setSlider(global_batch_slider_, nearestLog2(training.global_batch, kMaxGlobalBatchLog2));
    setSpin(micro_batch_spin_, training.micro_batch);
    setComboData(precision_combo_, int(training.precision));
    setComboData(fp8_recipe_combo_, int(training.fp8_recipe));
    setRowVisible(fp8_recipe_combo_, training.precision == Precision::FP8 &&
                                         training.block_format == BlockFormat::None);
    setComboData(optimizer_combo_, int(training.optimizer));
    setComboData(recompute_combo_, int(training.recompute));
    for (QAction *action : std::as_const(recompute_module_actions_)) {
        const QSignalBlocker block(action);
        action->setChecked((training.recompute_modules & action->data().toUInt()) != 0);
    }
    // Two names fit the panel's width; more are counted (all of them in the menu).
    const int ticked = std::popcount(training.recompute_modules);
    recompute_modules_button_->setText(
        ticked == 0   ? tr("The stack's choice")
        : ticked <= 2 ? QString::fromStdString(recomputeModuleList(training.recompute_modules))
                      : tr("%1 modules").arg(ticked));
    setRowVisible(recompute_modules_button_,
                  transformer && training.recompute == Recompute::Selective);
    setSpin(offload_spin_, training.activation_offload_layers);
    setRowVisible(offload_spin_, transformer);
    setCheck(flash_check_, flashAttentionOf(scenario_, stackOf(scenario_)));
    flash_check_->setEnabled(transformer);
    setCheck(compile_check_, training.compile);
    setComboData(memory_format_combo_, int(training.memory_format));
    setRowVisible(memory_format_combo_, model.kind != ModelSpec::Kind::Transformer);
    // A collective-only scenario has no model, batch or plan to edit.
    model_group_->setEnabled(!scenario_.isCollective());
    parallel_group_->setEnabled(!scenario_.isCollective());
}

} // namespace scalescope
