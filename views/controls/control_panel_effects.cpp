// The control panel's Effects group: jitter and stragglers, thermal throttling, data
// loader, virtual GPU slices and failures; built, connected and synchronised.
#include "controls/control_panel_p.h"

namespace scalescope
{

using namespace panel_detail;

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
    // A decoding pipeline from the catalog (effects/loader.cpp: CPU seconds per image,
    // bounded by the node's CPU cores), or a measured rate per worker.
    loader_pipeline_combo_ = makeCombo(
        group, "loaderPipelineCombo",
        tr("How each sample is decoded and augmented: a pipeline from the catalog, whose cost "
           "per image the node's CPU cores bound, or a rate you measured per worker"));
    loader_pipeline_combo_->addItem(tr("Stated rate"), int(LoaderPipeline::None));
    loader_pipeline_combo_->addItem(tr("PIL (torchvision)"), int(LoaderPipeline::Pil));
    loader_pipeline_combo_->addItem(tr("Pillow-SIMD"), int(LoaderPipeline::PilSimd));
    loader_pipeline_combo_->addItem(tr("DALI on the CPU"), int(LoaderPipeline::DaliCpu));
    loader_pipeline_combo_->addItem(tr("DALI on the GPU"), int(LoaderPipeline::DaliGpu));
    addRow(rows, tr("Decoding"), loader_pipeline_combo_, loader_pipeline_combo_,
           {QStringLiteral("effects.data_loader.pipeline")},
           QStringLiteral("loaderPipelineComboError"));
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
            if (loader.pipeline == LoaderPipeline::None)
                loader.samples_per_s_per_worker = loader_rate_spin_->value();
        }
        commit(std::move(s), on ? tr("Turn data loader on") : tr("Turn data loader off"), 0);
    });
    connect(loader_workers_spin_, &QSpinBox::valueChanged, this, [this](int workers) {
        Scenario s = scenario_;
        s.effects.data_loader.workers_per_gpu = workers;
        commit(std::move(s), tr("Set loader workers per GPU to %1").arg(workers), 0);
    });
    connect(loader_pipeline_combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        Scenario s = scenario_;
        DataLoaderSpec &loader = s.effects.data_loader;
        loader.pipeline = LoaderPipeline(loader_pipeline_combo_->itemData(index).toInt());
        // The file holds a pipeline or a rate, not both (scenario_io.cpp).
        loader.samples_per_s_per_worker =
            loader.pipeline == LoaderPipeline::None ? loader_rate_spin_->value() : 0.0;
        commit(std::move(s),
               tr("Set loader decoding to %1").arg(loader_pipeline_combo_->itemText(index)), 0);
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
    setDouble(loader_rate_spin_, loaderSet && e.data_loader.samples_per_s_per_worker > 0
                                     ? e.data_loader.samples_per_s_per_worker
                                     : kDefaultLoaderRate);
    setSpin(loader_prefetch_spin_, e.data_loader.prefetch_factor);
    // Catalog pipelines decode images: a model without image input takes a stated rate.
    const bool images = scenario_.model.input_elements_per_sample > 0;
    setComboData(loader_pipeline_combo_, int(e.data_loader.pipeline));
    loader_pipeline_combo_->setEnabled(images || e.data_loader.pipeline != LoaderPipeline::None);
    loader_rate_spin_->setEnabled(e.data_loader.pipeline == LoaderPipeline::None);

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

} // namespace scalescope
