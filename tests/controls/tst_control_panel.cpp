// ControlPanel driven by objectName: shows a scenario, turns each kind of user edit into
// exactly one scenarioEdited (one merge key per slider drag), explains invalid combinations.
#include "controls/blocked_range_slider.h"
#include "controls/control_checks.h"
#include "controls/control_panel.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include "../support/screenshot.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTest>
#include <QToolButton>

using scalescope::BlockFormat;
using scalescope::builtinCatalog;
using scalescope::ControlIssue;
using scalescope::ControlPanel;
using scalescope::Fp8Scaling;
using scalescope::LoaderPipeline;
using scalescope::MemoryFormat;
using scalescope::OutputHead;
using scalescope::parseScenario;
using scalescope::PcieTopology;
using scalescope::Precision;
using scalescope::Result;
using scalescope::Scenario;

namespace
{

Scenario parse(const QByteArray &json)
{
    auto parsed = scalescope::parseScenario(json, scalescope::builtinCatalog());
    if (!parsed.ok())
        qFatal("test scenario: %s", parsed.error().toString().c_str());
    return parsed.value();
}

/// A scenario of resources/scenarios.
Scenario resourceScenario(const QString &file)
{
    auto loaded = scalescope::loadScenarioFile(
        QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/") + file,
        scalescope::builtinCatalog());
    if (!loaded.ok())
        qFatal("%s: %s", qPrintable(file), loaded.error().toString().c_str());
    return loaded.value();
}

Scenario defaultScenario()
{
    return resourceScenario(QStringLiteral("default.json"));
}

// Llama 2 7B on 2 nodes x 4 A100 with every effect of docs/scenario.md switched on.
const char *const kAllEffectsJson = R"({ "scalescope": 1, "name": "all effects",
      "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 2, "gpus_per_node": 4,
                    "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 4 },
      "model": "llama2-7b",
      "training": { "global_batch": 64, "micro_batch": 1 },
      "effects": {
        "thermal": { "throttle_above_c": 84, "clock_drop": 0.15, "warmup_s": 60,
                     "ambient_c": 25, "cooling": "workstation",
                     "gpus": [ { "gpu": 2, "steady_c": 95 } ], "start_s": 30 },
        "data_loader": { "workers_per_gpu": 4, "samples_per_s_per_worker": 500,
                         "prefetch_factor": 4 },
        "virtual_gpu": { "fraction": 0.25, "host_routed": true },
        "failures": { "mtbf_hours_per_gpu": 50000, "checkpoint_bytes": 100000000000,
                      "checkpoint_write_gbps": 5, "restart_s": 600,
                      "checkpoint_interval_s": 0 } } })";

// Llama 2 7B on 2 nodes x 4 A100 (32 heads: tensor degrees up to 4 fit a node).
Scenario llamaScenario()
{
    return parse(R"({ "scalescope": 1, "name": "llama",
      "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 2, "gpus_per_node": 4,
                    "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 4 },
      "model": "llama2-7b",
      "training": { "global_batch": 64, "micro_batch": 1 } })");
}

QByteArray written(const Scenario &s)
{
    return scalescope::writeScenario(s);
}

Scenario allEffectsScenario()
{
    return parse(kAllEffectsJson);
}

QJsonObject writtenEffects(const Scenario &s)
{
    return QJsonDocument::fromJson(written(s)).object().value(QLatin1String("effects")).toObject();
}

bool parses(const Scenario &s)
{
    return scalescope::parseScenario(written(s), scalescope::builtinCatalog()).ok();
}

struct Edit {
    Scenario scenario;
    QString description;
    int merge_key = -1;
};

Edit editAt(const QSignalSpy &spy, int i)
{
    const QList<QVariant> &args = spy.at(i);
    return Edit{args.at(0).value<Scenario>(), args.at(1).toString(), args.at(2).toInt()};
}

} // namespace

class TestControlPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void showsScenarioWithoutEmitting();
    void roundTrip_data();
    void roundTrip();
    void comboEdit();
    void pcieHostEdits();
    void powerDomainCoresEdits();
    void compileTpOverlapAndLoaderPipeline();
    void memoryFormatForConvolutionalModels();
    void fp8RecipeWithFp8Only();
    void activationOffloadEdit();
    void recomputeModulesEdit();
    void outputHeadOfCustomTransformer();
    void comboKeyboardEdit();
    void spinKeyboardEdit();
    void spinTypedEdit();
    void checkBoxEdit();
    void sliderKeyboardEdit();
    void sliderDragMergesIntoOneKey();
    void gpuCountSliderKeepsNodeSize();
    void gpuCountSliderGreysRefusedCounts();
    void microBatchAuto();
    void strategyShowsRelevantDegrees();
    void tensorStrategySetsTensorParallelism();
    void stackErrorOffersTheStackThatRunsThePlan();
    void stragglersAddAndRemove();
    void effectTogglesEnableTheirFields();
    void validationErrorBesideControl_data();
    void validationErrorBesideControl();
    void localIssuesShownBesideControls();
    void queuedConnectionCarriesScenario();
    void controlsShowRangeAndTakeFocus();
    void fitsNarrowDock();

    void showsNewEffectsWithoutEmitting();
    void newEffectEdits_data();
    void newEffectEdits();
    void newEffectRangesAreTheFile_data();
    void newEffectRangesAreTheFile();
    void coolingComboFollowsSteadyState();
    void hotSpotsAddAndRemove();
    void newEffectRowsCollapseWhenOff();
    void newEffectIssuesBesideControls();

private:
    /// A mouse click where the user would click: scrolled into view first.
    void click(QWidget *widget)
    {
        QApplication::processEvents(); // lays out rows just shown, as the event loop would
        find<QScrollArea>("controlScroll")->ensureWidgetVisible(widget);
        // A check box only reacts on its box and text, at the left of its row.
        const QPoint at = qobject_cast<QCheckBox *>(widget) ? QPoint(6, widget->height() / 2)
                                                            : widget->rect().center();
        QTest::mouseClick(widget, Qt::LeftButton, {}, at);
    }

    template <typename T> T *find(const char *name)
    {
        T *widget = panel_->findChild<T *>(QLatin1String(name));
        if (!widget)
            qFatal("no %s", name);
        return widget;
    }

    ControlPanel *panel_ = nullptr;
    QSignalSpy *spy_ = nullptr;
};

void TestControlPanel::init()
{
    QLocale::setDefault(QLocale::c()); // typed numbers use a decimal point
    panel_ = new ControlPanel;
    panel_->resize(340, 900);
    panel_->setScenario(defaultScenario());
    panel_->show();
    QVERIFY(QTest::qWaitForWindowExposed(panel_));
    spy_ = new QSignalSpy(panel_, &ControlPanel::scenarioEdited);
}

void TestControlPanel::cleanup()
{
    delete spy_;
    spy_ = nullptr;
    delete panel_;
    panel_ = nullptr;
}

void TestControlPanel::showsScenarioWithoutEmitting()
{
    QCOMPARE(find<QComboBox>("gpuCombo")->currentData().toString(),
             QStringLiteral("rtx-4090-24gb"));
    QVERIFY(find<QComboBox>("gpuCombo")->currentText().contains(QStringLiteral("24 GB")));
    QCOMPARE(find<QSpinBox>("nodesSpin")->value(), 2);
    QCOMPARE(find<QSpinBox>("gpusPerNodeSpin")->value(), 4);
    QCOMPARE(find<QSlider>("gpuCountSlider")->value(), 3); // 8 GPUs = 2^3
    QCOMPARE(find<QComboBox>("intraCombo")->currentData().toString(), QStringLiteral("pcie4"));
    QCOMPARE(find<QComboBox>("interCombo")->currentData().toString(), QStringLiteral("eth-25g"));
    QCOMPARE(find<QSpinBox>("nicsSpin")->value(), 1);
    QCOMPARE(find<QComboBox>("modelCombo")->currentData().toString(), QStringLiteral("gpt2-1.5b"));
    QVERIFY(!find<QSpinBox>("layersSpin")->isEnabled()); // a preset's dimensions are read-only
    QCOMPARE(find<QSpinBox>("layersSpin")->value(), 48);
    QCOMPARE(find<QSpinBox>("globalBatchSpin")->value(), 64);
    QCOMPARE(find<QSlider>("globalBatchSlider")->value(), 6);
    QCOMPARE(find<QSpinBox>("microBatchSpin")->value(), 4);
    QCOMPARE(find<QComboBox>("precisionCombo")->currentData().toInt(),
             int(scalescope::Precision::BF16));
    QCOMPARE(find<QComboBox>("recomputeCombo")->currentData().toInt(),
             int(scalescope::Recompute::Full));
    QCOMPARE(find<QComboBox>("strategyCombo")->currentData().toInt(),
             int(ControlPanel::Strategy::Zero1));
    QCOMPARE(find<QSpinBox>("dataSpin")->value(), 8);
    QCOMPARE(find<QComboBox>("zeroCombo")->currentData().toInt(), 1);
    QCOMPARE(find<QDoubleSpinBox>("bucketSpin")->value(), 25.0);
    QVERIFY(find<QCheckBox>("overlapCheck")->isChecked());
    QVERIFY(!find<QCheckBox>("thermalCheck")->isChecked());

    Scenario other = llamaScenario();
    other.effects.jitter = 0.05;
    other.effects.seed = 42;
    panel_->setScenario(other);
    QCOMPARE(find<QDoubleSpinBox>("jitterSpin")->value(), 5.0);
    QCOMPARE(find<QDoubleSpinBox>("seedSpin")->value(), 42.0);
    QCOMPARE(find<QComboBox>("modelCombo")->currentData().toString(), QStringLiteral("llama2-7b"));
    QCOMPARE(spy_->count(), 0);
}

void TestControlPanel::roundTrip_data()
{
    QTest::addColumn<QByteArray>("json"); // not an object: a file of resources/scenarios

    QTest::newRow("default.json") << QByteArray("default.json");
    QTest::newRow("claim11-thermal-throttling.json")
        << QByteArray("claim11-thermal-throttling.json");
    QTest::newRow("claim13-virtual-gpu-slices.json")
        << QByteArray("claim13-virtual-gpu-slices.json");
    QTest::newRow("every new effect") << QByteArray(kAllEffectsJson);
    QTest::newRow("custom steady state, peer-to-peer slices, extreme failures")
        << QByteArray(R"({ "scalescope": 1,
      "hardware": { "gpu": "rtx-4090-24gb", "nodes": 1, "gpus_per_node": 4 },
      "model": "gpt2-1.5b",
      "training": { "global_batch": 64, "micro_batch": 8 },
      "effects": {
        "thermal": { "throttle_above_c": 83, "clock_drop": 0.2, "warmup_s": 120.5,
                     "ambient_c": -3.5, "steady_c": 86.25,
                     "gpus": [ { "gpu": 3, "steady_c": 97 }, { "gpu": 0, "steady_c": 71.5 } ],
                     "start_s": 12.75 },
        "data_loader": { "workers_per_gpu": 2, "samples_per_s_per_worker": 33.3,
                         "prefetch_factor": 64 },
        "virtual_gpu": { "fraction": 0.01, "host_routed": false },
        "failures": { "mtbf_hours_per_gpu": 0.05, "checkpoint_bytes": 0,
                      "checkpoint_write_gbps": 0.001, "restart_s": 0,
                      "checkpoint_interval_s": 1e9 } } })");
    QTest::newRow("poor cooling preset") << QByteArray(R"({ "scalescope": 1,
      "hardware": { "gpu": "rtx-3090-24gb", "nodes": 1, "gpus_per_node": 2 },
      "model": "bert-large",
      "training": { "global_batch": 32 },
      "effects": { "thermal": { "cooling": "poor", "start_s": 0 } } })");
    QTest::newRow("3D hybrid with effects") << QByteArray(R"({ "scalescope": 1,
      "name": "GPT 175B on 1024 A100",
      "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 128, "gpus_per_node": 8,
                    "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 8 },
      "model": "gpt3-175b",
      "training": { "global_batch": 1536, "micro_batch": 1, "precision": "fp16",
                    "optimizer": "adam", "recompute": "full", "flash_attention": true },
      "parallel": { "data": 8, "tensor": 8, "pipeline": 16, "zero": 0,
                    "schedule": "interleaved", "virtual_stages": 2, "overlap": false,
                    "bucket_mb": 40, "sequence_parallel": true, "update": "async" },
      "effects": { "seed": 7, "jitter": 0.033,
                   "stragglers": [ { "gpu": 5, "slowdown": 1.7 }, { "gpu": 900, "slowdown": 3 } ],
                   "thermal": { "throttle_above_c": 80, "clock_drop": 0.2, "warmup_s": 30 },
                   "data_loader": { "workers_per_gpu": 6, "samples_per_s_per_worker": 120 } } })");
    QTest::newRow("custom transformer, inline GPU and link") << QByteArray(R"({ "scalescope": 1,
      "hardware": { "gpu": { "name": "Lab GPU", "peak_tflops": { "fp32": 10, "tf32": 20,
                             "fp16": 40, "bf16": 40 }, "memory_gb": 32,
                             "memory_bandwidth_gbps": 900, "tdp_w": 300 },
                    "nodes": 1, "gpus_per_node": 2,
                    "intra_node": { "name": "Lab link", "bandwidth_gbps": 30, "latency_us": 3,
                                    "switched": false } },
      "model": { "transformer": { "layers": 10, "hidden": 1024, "heads": 16, "seq_len": 512,
                                  "vocab": 30000 } },
      "training": { "global_batch": 32, "precision": "fp32", "optimizer": "sgd" },
      "parallel": { "zero": 3 } })");
    QTest::newRow("CNN with GPipe") << QByteArray(R"({ "scalescope": 1,
      "hardware": { "gpu": "v100-sxm2-32gb", "nodes": 4, "gpus_per_node": 8,
                    "intra_node": "nvlink2", "inter_node": "ib-edr-100", "nics_per_node": 4 },
      "model": "resnet50",
      "training": { "global_batch": 8192, "micro_batch": 64, "precision": "fp16",
                    "optimizer": "sgd", "recompute": "selective" },
      "parallel": { "pipeline": 2, "schedule": "gpipe", "bucket_mb": 0 } })");
    QTest::newRow("collective only") << QByteArray(R"({ "scalescope": 1,
      "hardware": { "gpu": "h100-sxm5-80gb", "nodes": 4, "gpus_per_node": 8,
                    "intra_node": "nvlink4", "inter_node": "ib-ndr-400", "nics_per_node": 8 },
      "collective": { "op": "all_reduce", "bytes": 1073741824, "algorithm": "ring" } })");
}

void TestControlPanel::roundTrip()
{
    QFETCH(QByteArray, json);
    const Scenario s =
        json.startsWith('{') ? parse(json) : resourceScenario(QString::fromLatin1(json));
    ControlPanel panel;
    QSignalSpy spy(&panel, &ControlPanel::scenarioEdited);
    panel.setScenario(s);
    const Scenario back = panel.scenario();
    QCOMPARE(written(back), written(s));
    QCOMPARE(back.name, s.name);
    QCOMPARE(back.hardware.gpu.name, s.hardware.gpu.name);
    QCOMPARE(back.model.name, s.model.name);
    QCOMPARE(back.effects.thermal.enabled, s.effects.thermal.enabled);
    QCOMPARE(back.effects.thermal.throttle_above_c, s.effects.thermal.throttle_above_c);
    QCOMPARE(back.effects.data_loader.workers_per_gpu, s.effects.data_loader.workers_per_gpu);
    QCOMPARE(back.effects.thermal.steady_c, s.effects.thermal.steady_c);
    QCOMPARE(back.effects.thermal.start_s, s.effects.thermal.start_s);
    QCOMPARE(back.effects.virtual_gpu.fraction, s.effects.virtual_gpu.fraction);
    QCOMPARE(back.effects.failures.checkpoint_interval_s, s.effects.failures.checkpoint_interval_s);
    QCOMPARE(spy.count(), 0);
    // What the panel hands back is a file the parser takes, and reads back the same.
    const auto reread = scalescope::parseScenario(written(back), scalescope::builtinCatalog());
    QVERIFY2(reread.ok(), reread.ok() ? "" : reread.error().toString().c_str());
    QCOMPARE(written(reread.value()), written(s));
    // Showing it again (the document's echo) changes nothing either.
    panel.setScenario(back);
    QCOMPARE(written(panel.scenario()), written(s));
    QCOMPARE(spy.count(), 0);
}

void TestControlPanel::comboEdit()
{
    auto *combo = find<QComboBox>("gpuCombo");
    combo->setCurrentIndex(combo->findData(QStringLiteral("h100-sxm5-80gb")));
    QCOMPARE(spy_->count(), 1);
    const Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.hardware.gpu.id, std::string("h100-sxm5-80gb"));
    QCOMPARE(edit.description, QStringLiteral("Set GPU to NVIDIA H100 SXM5 80GB"));
    QCOMPARE(edit.merge_key, 0);
    QCOMPARE(panel_->scenario().hardware.gpu.id, std::string("h100-sxm5-80gb"));
    // Everything else is as it was.
    Scenario expected = defaultScenario();
    expected.hardware.gpu = edit.scenario.hardware.gpu;
    QCOMPARE(written(edit.scenario), written(expected));
}

void TestControlPanel::powerDomainCoresEdits()
{
    // Issue 25's hardware keys in the window: the power cap between 30% of the TDP and the
    // TDP (no cap), the NVLink domain in whole nodes, the CPU cores per node.
    auto *power = find<QSpinBox>("powerLimitSpin");
    QCOMPARE(power->maximum(), 450); // the RTX 4090's TDP: no cap
    QCOMPARE(power->minimum(), 135);
    QCOMPARE(power->value(), 450);
    QVERIFY(power->toolTip().contains(QStringLiteral("135-450 W")));
    power->setValue(300);
    Edit edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.hardware.power_limit_w, 300.0);
    QCOMPARE(edit.description, QStringLiteral("Set power limit to 300 W"));
    power->setValue(450);
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.hardware.power_limit_w, 0.0);
    QCOMPARE(edit.description, QStringLiteral("Set power limit to the TDP"));

    // A cap the next board does not take is dropped, and the edit says so: 420 W on an
    // H100 (700 W) is no cap an A100 (400 W) takes.
    Scenario s = defaultScenario();
    s.hardware.gpu = *builtinCatalog().findGpu("h100-sxm5-80gb");
    s.hardware.power_limit_w = 420;
    panel_->setScenario(s);
    QCOMPARE(power->value(), 420);
    auto *gpu = find<QComboBox>("gpuCombo");
    gpu->setCurrentIndex(gpu->findData(QStringLiteral("a100-sxm4-80gb")));
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.hardware.power_limit_w, 0.0);
    QVERIFY2(edit.description.endsWith(QStringLiteral("; power limit back to its TDP")),
             qPrintable(edit.description));
    // One it takes is kept.
    s.hardware.power_limit_w = 350;
    panel_->setScenario(s);
    gpu->setCurrentIndex(gpu->findData(QStringLiteral("a100-sxm4-80gb")));
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.hardware.power_limit_w, 350.0);
    QCOMPARE(edit.description, QStringLiteral("Set GPU to NVIDIA A100 SXM4 80GB"));

    // The NVLink domain: whole nodes, so always a multiple of the GPUs per node.
    panel_->setScenario(defaultScenario()); // 2 nodes x 4
    auto *domain = find<QSpinBox>("nvlinkDomainSpin");
    QCOMPARE(domain->value(), 1);
    QCOMPARE(domain->text(), QStringLiteral("one node")); // not "1 nodes"
    QCOMPARE(domain->maximum(), 2);
    domain->setValue(2);
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.hardware.nvlink_domain, 8);
    QCOMPARE(edit.description, QStringLiteral("Set NVLink domain to 8 GPUs"));
    QVERIFY(!firstError(checkRules(edit.scenario)));
    // The domain is the platform's: fewer nodes keep it (the job runs inside it, one node
    // being no domain beyond it), and more nodes find it again.
    panel_->setScenario(edit.scenario);
    find<QSpinBox>("nodesSpin")->setValue(1);
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.hardware.nvlink_domain, 8);
    QCOMPARE(domain->value(), 1);
    QCOMPARE(domain->text(), QStringLiteral("one node"));
    QVERIFY(parseScenario(writeScenario(edit.scenario), builtinCatalog()).ok());
    find<QSpinBox>("nodesSpin")->setValue(4);
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.hardware.nvlink_domain, 8);
    QCOMPARE(domain->value(), 2);

    panel_->setScenario(defaultScenario());
    auto *cores = find<QSpinBox>("cpuCoresSpin");
    QCOMPARE(cores->text(), QStringLiteral("not stated"));
    cores->setValue(64);
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.hardware.cpu_cores, 64);
    QCOMPARE(edit.description, QStringLiteral("Set CPU cores per node to 64"));
}

void TestControlPanel::compileTpOverlapAndLoaderPipeline()
{
    auto *compile = find<QCheckBox>("compileCheck");
    QVERIFY(!compile->isChecked());
    compile->setChecked(true);
    Edit edit = editAt(*spy_, spy_->count() - 1);
    QVERIFY(edit.scenario.training.compile);
    QCOMPARE(edit.description, QStringLiteral("Turn torch.compile on"));

    // Tensor-parallel overlap: shown with the tensor degree, the stack's choice until set.
    Scenario s = defaultScenario();
    s.training.framework = "megatron-core";
    s.parallel.tensor = 2;
    s.parallel.zero = 0;
    panel_->setScenario(s);
    auto *tp = find<QCheckBox>("tpOverlapCheck");
    QVERIFY(tp->isVisibleTo(panel_));
    QVERIFY(tp->isChecked()); // Megatron-Core overlaps them
    tp->setChecked(false);
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.parallel.tp_overlap, std::optional<bool>(false));
    QCOMPARE(edit.description, QStringLiteral("Turn tensor-parallel overlap off"));
    panel_->setScenario(defaultScenario());
    QVERIFY(!tp->isVisibleTo(panel_));

    // The loader's decoding: a catalog pipeline for an image model (its rate then comes from
    // the catalog and the CPU cores), a stated rate otherwise.
    auto *pipeline = find<QComboBox>("loaderPipelineCombo");
    auto *rate = find<QDoubleSpinBox>("loaderRateSpin");
    QVERIFY(!pipeline->isEnabled()); // GPT-2 has no image input
    s = defaultScenario();
    s.model = *builtinCatalog().findModel("resnet50");
    s.effects.data_loader.enabled = true;
    s.effects.data_loader.workers_per_gpu = 8;
    s.effects.data_loader.samples_per_s_per_worker = 400;
    panel_->setScenario(s);
    QVERIFY(pipeline->isEnabled());
    QVERIFY(rate->isEnabled());
    pipeline->setCurrentIndex(pipeline->findData(int(LoaderPipeline::DaliCpu)));
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.effects.data_loader.pipeline, LoaderPipeline::DaliCpu);
    QCOMPARE(edit.scenario.effects.data_loader.samples_per_s_per_worker, 0.0);
    QCOMPARE(edit.description, QStringLiteral("Set loader decoding to DALI on the CPU"));
    QVERIFY(parseScenario(writeScenario(edit.scenario), builtinCatalog()).ok());
    panel_->setScenario(edit.scenario);
    QVERIFY(!rate->isEnabled());
    // Back to a stated rate: the rate shown is the one the file gets.
    pipeline->setCurrentIndex(pipeline->findData(int(LoaderPipeline::None)));
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.effects.data_loader.pipeline, LoaderPipeline::None);
    QCOMPARE(edit.scenario.effects.data_loader.samples_per_s_per_worker, rate->value());
}

void TestControlPanel::memoryFormatForConvolutionalModels()
{
    // Shown for a convolutional model only; choosing channels first is an edit of
    // training.memory_format that the file keeps (its cost: tst_formulas).
    auto *layout = find<QComboBox>("memoryFormatCombo");
    QVERIFY(!layout->isVisibleTo(panel_)); // GPT-2
    Scenario s = defaultScenario();
    s.model = *builtinCatalog().findModel("resnet50");
    s.training.precision = Precision::FP16;
    panel_->setScenario(s);
    QVERIFY(layout->isVisibleTo(panel_));
    QCOMPARE(layout->currentData().toInt(), int(MemoryFormat::NHWC));
    layout->setCurrentIndex(layout->findData(int(MemoryFormat::NCHW)));
    const Edit edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.training.memory_format, MemoryFormat::NCHW);
    QCOMPARE(edit.description, QStringLiteral("Set layout to Channels first (NCHW)"));
    Result<Scenario> back = parseScenario(writeScenario(edit.scenario), builtinCatalog());
    QVERIFY(back.ok());
    QCOMPARE(back.value().training.memory_format, MemoryFormat::NCHW);
}

void TestControlPanel::activationOffloadEdit()
{
    // training.activation_offload_layers: an edit the file keeps; with pipeline parallelism
    // the rule table's finding shows beside the control (its cost: tst_formulas).
    auto *offload = find<QSpinBox>("offloadLayersSpin");
    Scenario plain = defaultScenario(); // GPT-2, a transformer
    plain.training.recompute = scalescope::Recompute::None;
    panel_->setScenario(plain);
    QVERIFY(offload->isVisibleTo(panel_));
    QCOMPARE(offload->value(), 0);
    offload->setValue(12);
    const Edit edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.training.activation_offload_layers, int64_t{12});
    QCOMPARE(edit.description, QStringLiteral("Set offloaded layers to 12"));
    Result<Scenario> back = parseScenario(writeScenario(edit.scenario), builtinCatalog());
    QVERIFY(back.ok());
    QCOMPARE(back.value().training.activation_offload_layers, int64_t{12});
    Scenario piped = edit.scenario;
    piped.parallel.pipeline = 2;
    piped.parallel.data = 0;
    panel_->setScenario(piped);
    auto *error = find<QLabel>("offloadLayersSpinError");
    QVERIFY(error->isVisibleTo(panel_));
    QVERIFY2(error->text().contains(QStringLiteral("pipeline = 2")), qPrintable(error->text()));
    Scenario resnet = defaultScenario();
    resnet.model = *builtinCatalog().findModel("resnet50");
    panel_->setScenario(resnet);
    QVERIFY(!offload->isVisibleTo(panel_));
}

void TestControlPanel::recomputeModulesEdit()
{
    // training.recompute_modules: a menu of checkable modules shown under selective recompute;
    // ticking one is an edit the file keeps, leaving selective drops them, and a stack that
    // has no such option shows the rule table's finding beside the control.
    auto *button = find<QToolButton>("recomputeModulesButton");
    Scenario s = defaultScenario();
    s.model = *builtinCatalog().findModel("deepseek-v3");
    s.training.framework = "megatron-core";
    s.training.recompute = scalescope::Recompute::None;
    panel_->setScenario(s);
    QVERIFY(!button->isVisibleTo(panel_));
    s.training.recompute = scalescope::Recompute::Selective;
    panel_->setScenario(s);
    QVERIFY(button->isVisibleTo(panel_));
    QCOMPARE(button->text(), QStringLiteral("The stack's choice"));
    QAction *up = nullptr;
    for (QAction *a : button->menu()->actions())
        if (a->data().toUInt() == unsigned(scalescope::RecomputeModule::MlaUpProj))
            up = a;
    QVERIFY(up);
    up->trigger();
    const Edit edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.training.recompute_modules,
             unsigned(scalescope::RecomputeModule::MlaUpProj));
    QCOMPARE(edit.description, QStringLiteral("Recompute MLA up-projections (mla_up_proj)"));
    Result<Scenario> back = parseScenario(writeScenario(edit.scenario), builtinCatalog());
    QVERIFY2(back.ok(), back ? "" : back.error().toString().c_str());
    QCOMPARE(back.value().training.recompute_modules,
             unsigned(scalescope::RecomputeModule::MlaUpProj));
    panel_->setScenario(edit.scenario);
    QCOMPARE(button->text(), QStringLiteral("mla_up_proj"));
    QVERIFY(up->isChecked());
    // Three or more are counted, so that the panel keeps its width.
    Scenario three = edit.scenario;
    three.training.recompute_modules |= unsigned(scalescope::RecomputeModule::Layernorm) |
                                        unsigned(scalescope::RecomputeModule::MoeAct);
    panel_->setScenario(three);
    QCOMPARE(button->text(), QStringLiteral("3 modules"));
    // Under torchtitan the option is not there: the finding names the stack.
    Scenario titan = edit.scenario;
    titan.training.framework = "torchtitan";
    panel_->setScenario(titan);
    auto *error = find<QLabel>("recomputeModulesButtonError");
    QVERIFY(error->isVisibleTo(panel_));
    QVERIFY2(error->text().contains(QStringLiteral("torchtitan")), qPrintable(error->text()));
    // Leaving selective recompute drops the modules with it.
    panel_->setScenario(edit.scenario);
    auto *recompute = find<QComboBox>("recomputeCombo");
    recompute->setCurrentIndex(recompute->findData(int(scalescope::Recompute::Full)));
    const Edit full = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(full.scenario.training.recompute, scalescope::Recompute::Full);
    QCOMPARE(full.scenario.training.recompute_modules, 0u);
}

void TestControlPanel::fp8RecipeWithFp8Only()
{
    // Shown under FP8; the choice is training.fp8_recipe, and leaving FP8 drops it (a file
    // with a recipe and another precision does not open).
    auto *recipe = find<QComboBox>("fp8RecipeCombo");
    QVERIFY(!recipe->isVisibleTo(panel_)); // the default scenario is not FP8
    Scenario s = defaultScenario();
    s.hardware.gpu = *builtinCatalog().findGpu("h100-sxm5-80gb");
    s.training.precision = Precision::FP8;
    s.training.framework = "megatron-core";
    panel_->setScenario(s);
    QVERIFY(recipe->isVisibleTo(panel_));
    QCOMPARE(recipe->currentData().toInt(), int(Fp8Scaling::Stack));
    recipe->setCurrentIndex(recipe->findData(int(Fp8Scaling::Current)));
    Edit edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.training.fp8_recipe, Fp8Scaling::Current);
    QCOMPARE(edit.description, QStringLiteral("Set FP8 scaling to Current (Transformer Engine)"));
    QVERIFY(parseScenario(writeScenario(edit.scenario), builtinCatalog()).ok());
    panel_->setScenario(edit.scenario);
    auto *precision = find<QComboBox>("precisionCombo");
    precision->setCurrentIndex(precision->findData(int(Precision::BF16)));
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.training.fp8_recipe, Fp8Scaling::Stack);
    QVERIFY(parseScenario(writeScenario(edit.scenario), builtinCatalog()).ok());
    // An MXFP8 scenario set to BF16 in the window is BF16 in its file.
    s.hardware.gpu = *builtinCatalog().findGpu("b200-sxm-180gb");
    s.training.block_format = BlockFormat::MXFP8;
    panel_->setScenario(s);
    QVERIFY(!recipe->isVisibleTo(panel_));
    precision->setCurrentIndex(precision->findData(int(Precision::BF16)));
    edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.training.block_format, BlockFormat::None);
    QVERIFY(writeScenario(edit.scenario).contains("\"bf16\""));
}

void TestControlPanel::outputHeadOfCustomTransformer()
{
    // A custom transformer's head is editable (a catalog model's is the catalog's); a span
    // head is what the file then says.
    auto *head = find<QComboBox>("headCombo");
    QVERIFY(head->isVisibleTo(panel_)); // GPT-2 is a transformer
    QVERIFY(!head->isEnabled());
    Scenario s = defaultScenario();
    s.model.id.clear();
    s.model.name = "BERT-large";
    s.model.transformer.causal = false;
    panel_->setScenario(s);
    QVERIFY(head->isEnabled());
    head->setCurrentIndex(head->findData(int(OutputHead::Span)));
    const Edit edit = editAt(*spy_, spy_->count() - 1);
    QCOMPARE(edit.scenario.model.transformer.head, OutputHead::Span);
    QCOMPARE(edit.description, QStringLiteral("Set output head to Answer span"));
    QVERIFY(writeScenario(edit.scenario).contains("\"head\": \"span\""));
    Scenario cnn = defaultScenario();
    cnn.model = *builtinCatalog().findModel("resnet50");
    panel_->setScenario(cnn);
    QVERIFY(!head->isVisibleTo(panel_));
}

void TestControlPanel::comboKeyboardEdit()
{
    auto *combo = find<QComboBox>("recomputeCombo");
    combo->setFocus();
    QTest::keyClick(combo, Qt::Key_Up); // Full -> Selective
    QCOMPARE(spy_->count(), 1);
    const Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.training.recompute, scalescope::Recompute::Selective);
    QCOMPARE(edit.description, QStringLiteral("Set recompute to Selective"));
    QCOMPARE(edit.merge_key, 0);
}

void TestControlPanel::pcieHostEdits()
{
    // The host behind GPUs without peer-to-peer: the topology and one socket's memory
    // bandwidth, each one undo entry, shown back from the scenario.
    auto *combo = find<QComboBox>("pcieTopologyCombo");
    QCOMPARE(combo->currentData().toString(), QStringLiteral("switch"));
    combo->setCurrentIndex(combo->findData(QStringLiteral("root_ports")));
    QCOMPARE(spy_->count(), 1);
    Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.hardware.pcie_topology, PcieTopology::RootPorts);
    QCOMPARE(edit.description, QStringLiteral("Set PCIe topology to CPU root ports"));
    QCOMPARE(edit.merge_key, 0);

    auto *memory = find<QDoubleSpinBox>("hostMemorySpin");
    QCOMPARE(memory->value(), 0.0);
    QCOMPARE(memory->text(), QStringLiteral("platform default"));
    memory->setValue(460.8);
    QCOMPARE(spy_->count(), 2);
    edit = editAt(*spy_, 1);
    QCOMPARE(edit.scenario.hardware.host_memory_gbps, 460.8);
    QCOMPARE(edit.scenario.hardware.pcie_topology, PcieTopology::RootPorts);
    QCOMPARE(edit.description, QStringLiteral("Set host memory to 460.8 GB/s per socket"));

    // A scenario from a file shows its host.
    Scenario s = defaultScenario();
    s.hardware.pcie_topology = PcieTopology::RootPorts;
    s.hardware.host_memory_gbps = 51.2;
    panel_->setScenario(s);
    QCOMPARE(combo->currentData().toString(), QStringLiteral("root_ports"));
    QCOMPARE(memory->value(), 51.2);
    QCOMPARE(spy_->count(), 2);
}

void TestControlPanel::spinKeyboardEdit()
{
    auto *spin = find<QSpinBox>("nicsSpin");
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_Up);
    QCOMPARE(spy_->count(), 1);
    const Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.hardware.nics_per_node, 2);
    QCOMPARE(edit.description, QStringLiteral("Set NICs per node to 2"));
    QCOMPARE(edit.merge_key, 0);
}

void TestControlPanel::spinTypedEdit()
{
    auto *spin = find<QSpinBox>("gpusPerNodeSpin");
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("8"));
    QCOMPARE(spy_->count(), 0); // no edit per keystroke
    QTest::keyClick(spin, Qt::Key_Return);
    QCOMPARE(spy_->count(), 1);
    const Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.description, QStringLiteral("Set GPUs per node to 8"));
    QCOMPARE(edit.scenario.hardware.gpus_per_node, 8);
    QCOMPARE(edit.scenario.hardware.nodes, 2);
    // The data degree filled the 8 GPUs; it now follows the 16 as "auto".
    QCOMPARE(edit.scenario.parallel.data, 0);
    QCOMPARE(find<QSpinBox>("dataSpin")->text(), QStringLiteral("auto"));
    QCOMPARE(find<QSlider>("gpuCountSlider")->value(), 4);
    QVERIFY(panel_->issues().isEmpty());
}

void TestControlPanel::checkBoxEdit()
{
    auto *check = find<QCheckBox>("flashCheck");
    click(check);
    QCOMPARE(spy_->count(), 1);
    Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.training.flash_attention, std::optional<bool>(true));
    QCOMPARE(edit.description, QStringLiteral("Turn flash attention on"));
    QCOMPARE(edit.merge_key, 0);

    check->setFocus();
    QTest::keyClick(check, Qt::Key_Space);
    QCOMPARE(spy_->count(), 2);
    edit = editAt(*spy_, 1);
    QCOMPARE(edit.scenario.training.flash_attention, std::optional<bool>(false));
    QCOMPARE(edit.description, QStringLiteral("Turn flash attention off"));
}

void TestControlPanel::sliderKeyboardEdit()
{
    auto *slider = find<QSlider>("globalBatchSlider");
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_Right);
    QCOMPARE(spy_->count(), 1);
    const Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.training.global_batch, 128);
    QCOMPARE(edit.description, QStringLiteral("Set global batch to 128"));
    QCOMPARE(edit.merge_key, 0);
    QCOMPARE(find<QSpinBox>("globalBatchSpin")->value(), 128);
}

void TestControlPanel::sliderDragMergesIntoOneKey()
{
    auto *slider = find<QSlider>("globalBatchSlider");
    slider->setSliderDown(true); // emits sliderPressed, as a mouse press does
    slider->setValue(7);
    slider->setValue(8);
    slider->setValue(9);
    slider->setSliderDown(false);
    QCOMPARE(spy_->count(), 3);
    const int key = editAt(*spy_, 0).merge_key;
    QVERIFY(key != 0);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(editAt(*spy_, i).merge_key, key);
    QCOMPARE(editAt(*spy_, 2).scenario.training.global_batch, 512);
    QCOMPARE(editAt(*spy_, 2).description, QStringLiteral("Set global batch to 512"));

    // A second drag gets its own key.
    slider->setSliderDown(true);
    slider->setValue(5);
    slider->setValue(4);
    slider->setSliderDown(false);
    QCOMPARE(spy_->count(), 5);
    const int second = editAt(*spy_, 3).merge_key;
    QVERIFY(second != 0);
    QVERIFY(second != key);
    QCOMPARE(editAt(*spy_, 4).merge_key, second);

    // After the release, a keyboard step is a discrete edit again.
    QTest::keyClick(slider, Qt::Key_Right);
    QCOMPARE(spy_->count(), 6);
    QCOMPARE(editAt(*spy_, 5).merge_key, 0);

    // A real mouse drag: press on the handle, move right in steps, release.
    auto *count = find<QSlider>("gpuCountSlider");
    QStyleOptionSlider option;
    option.initFrom(count);
    option.orientation = count->orientation();
    option.minimum = count->minimum();
    option.maximum = count->maximum();
    option.sliderPosition = count->sliderPosition();
    option.sliderValue = count->value();
    option.tickPosition = count->tickPosition();
    option.tickInterval = count->tickInterval();
    option.pageStep = count->pageStep();
    option.singleStep = count->singleStep();
    const QPoint handle =
        count->style()
            ->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, count)
            .center();
    spy_->clear();
    QTest::mousePress(count, Qt::LeftButton, {}, handle);
    QVERIFY(count->isSliderDown());
    for (int x = handle.x(); x < count->width(); x += 8)
        QTest::mouseMove(count, QPoint(x, handle.y()));
    QTest::mouseRelease(count, Qt::LeftButton, {}, QPoint(count->width() - 1, handle.y()));
    QVERIFY(spy_->count() >= 2);
    const int mouseKey = editAt(*spy_, 0).merge_key;
    QVERIFY(mouseKey != 0 && mouseKey != key && mouseKey != second);
    for (int i = 0; i < spy_->count(); ++i)
        QCOMPARE(editAt(*spy_, i).merge_key, mouseKey);
    QCOMPARE(panel_->scenario().hardware.gpuCount(), 1024);
}

void TestControlPanel::gpuCountSliderKeepsNodeSize()
{
    auto *slider = find<QSlider>("gpuCountSlider");
    slider->setValue(6); // 64 GPUs at 4 per node
    QCOMPARE(spy_->count(), 1);
    Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.hardware.nodes, 16);
    QCOMPARE(edit.scenario.hardware.gpus_per_node, 4);
    QCOMPARE(edit.description, QStringLiteral("Set GPU count to 64"));
    QCOMPARE(find<QSpinBox>("nodesSpin")->value(), 16);
    QCOMPARE(find<QLabel>("gpuCountLabel")->text(), QStringLiteral("64 GPUs"));

    slider->setValue(1); // 2 GPUs: below one node
    edit = editAt(*spy_, 1);
    QCOMPARE(edit.scenario.hardware.nodes, 1);
    QCOMPARE(edit.scenario.hardware.gpus_per_node, 2);

    slider->setValue(4); // back to 16: 4 nodes of 4, the node size was kept
    edit = editAt(*spy_, 2);
    QCOMPARE(edit.scenario.hardware.nodes, 4);
    QCOMPARE(edit.scenario.hardware.gpus_per_node, 4);
}

void TestControlPanel::gpuCountSliderGreysRefusedCounts()
{
    // Issue 26: tensor 4 x pipeline 2 need 8 GPUs per replica; the counts below 8 are refused
    // by the rule table, so the slider greys them and says why over each; 8 and above stay
    // open (global batch 64 splits over up to 8 replicas x 1 micro-batch... at 1024 GPUs 128
    // replicas cannot split 64 samples: refused too).
    Scenario s = llamaScenario();
    s.parallel.tensor = 4;
    s.parallel.pipeline = 2;
    s.parallel.data = 0;
    QVERIFY(parses(s));
    panel_->setScenario(s);
    auto *slider =
        panel_->findChild<scalescope::BlockedRangeSlider *>(QStringLiteral("gpuCountSlider"));
    QVERIFY(slider);
    for (int e = 0; e < 3; ++e) {
        QVERIFY2(slider->isBlocked(e), qPrintable(QString::number(1 << e)));
        const QString why = slider->blockedReasons()[static_cast<size_t>(e)];
        QVERIFY2(why.startsWith(e == 0 ? QStringLiteral("1 GPU: ")
                                       : QStringLiteral("%1 GPUs: ").arg(1 << e)),
                 qPrintable(why));
    }
    for (int e = 3; e <= 6; ++e)
        QVERIFY2(!slider->isBlocked(e),
                 qPrintable(slider->blockedReasons()[static_cast<size_t>(e)]));
    QVERIFY(slider->isBlocked(10)); // 128 replicas for a batch of 64
    // Moving into the greyed part is still allowed (the panel never refuses an edit) and
    // the error shows; the greyed positions stay as they were.
    slider->setValue(1);
    QCOMPARE(panel_->scenario().hardware.gpuCount(), 2);
    QVERIFY(slider->isBlocked(0) && slider->isBlocked(2) && !slider->isBlocked(3));
    // The positions map onto the slider's track in order.
    QVERIFY(slider->positionOf(0) < slider->positionOf(5));
    QCOMPARE(slider->valueAt(slider->positionOf(4)), 4);

    // An error that does not depend on the count (an optimizer the stack lacks, a micro-batch
    // the batch cannot split at any count) greys nothing.
    Scenario odd = llamaScenario();
    odd.training.micro_batch = 3;
    panel_->setScenario(odd);
    for (int e = 0; e <= 4; ++e)
        QVERIFY2(!slider->isBlocked(e),
                 qPrintable(slider->blockedReasons()[static_cast<size_t>(e)]));
}

void TestControlPanel::microBatchAuto()
{
    auto *spin = find<QSpinBox>("microBatchSpin");
    spin->setValue(0);
    QCOMPARE(spin->text(), QStringLiteral("auto"));
    QCOMPARE(spy_->count(), 1);
    const Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.training.micro_batch, 0);
    QCOMPARE(edit.description, QStringLiteral("Set micro-batch to auto"));
}

void TestControlPanel::tensorStrategySetsTensorParallelism()
{
    // Issue 26: "Tensor" kept ZeRO-3 from the strategy before (a plan no Megatron-style stack
    // runs, shown as "Auto: Megatron-LM" beside ZeRO 3) and left tensor 1 on nodes of one GPU.
    Scenario s = llamaScenario();
    s.parallel.zero = 3;
    s.hardware.nodes = 8;
    s.hardware.gpus_per_node = 1;
    panel_->setScenario(s);
    auto *strategy = find<QComboBox>("strategyCombo");
    QCOMPARE(strategy->currentData().toInt(), int(ControlPanel::Strategy::Zero3));
    strategy->setCurrentIndex(strategy->findData(int(ControlPanel::Strategy::Tensor)));
    QCOMPARE(spy_->count(), 1);
    const Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.parallel.tensor, 2);
    QVERIFY(edit.scenario.parallel.zero <= 1);
    panel_->setScenario(edit.scenario);
    QCOMPARE(strategy->currentData().toInt(), int(ControlPanel::Strategy::Tensor));
    for (const ControlIssue &issue : panel_->issues())
        QVERIFY2(issue.severity != ControlIssue::Severity::Error, qPrintable(issue.message));
    // The panel as wide as the window's dock, at the two windows' heights, scrolled to the
    // strategy and its degrees.
    if (screenshot::wanted())
        for (const QSize size : {QSize(380, 720), QSize(380, 1080)}) {
            panel_->resize(size);
            screenshot::settle();
            find<QScrollArea>("controlScroll")
                ->ensureWidgetVisible(find<QComboBox>("zeroCombo"), 0, 150);
            QVERIFY(screenshot::save(*panel_, QStringLiteral("strategy-tensor-panel"), size));
        }
}

void TestControlPanel::stackErrorOffersTheStackThatRunsThePlan()
{
    // Issue 26: a stack that cannot run the plan was an error in key-path words with no fix;
    // a button beside it switches to a stack that runs the plan, in one click.
    Scenario s = llamaScenario();
    s.training.framework = "pytorch-ddp";
    s.parallel.zero = 3;
    panel_->setScenario(s);
    const auto stackError = [this] {
        for (const ControlIssue &issue : panel_->issues())
            if (issue.finding.rule == scalescope::Rule::StackCannotRun &&
                issue.severity == ControlIssue::Severity::Error)
                return true;
        return false;
    };
    QVERIFY(stackError());
    auto *fix = find<QPushButton>("stackFixButton");
    QVERIFY(fix->isVisibleTo(panel_));
    QVERIFY2(fix->text().contains(QStringLiteral("FSDP")), qPrintable(fix->text()));
    if (screenshot::wanted()) { // the panel as wide as the window's dock, scrolled to the fix
        for (const QSize size : {QSize(380, 720), QSize(380, 1080)}) {
            panel_->resize(size);
            screenshot::settle();
            find<QScrollArea>("controlScroll")->ensureWidgetVisible(fix, 0, 120);
            QVERIFY(screenshot::save(*panel_, QStringLiteral("stack-error-fix-panel"), size));
        }
        screenshot::Chinese chinese(QStringLiteral(SCALESCOPE_ZH_QM));
        QVERIFY(chinese.loaded());
        ControlPanel zh;
        zh.resize(380, 720);
        zh.setScenario(s);
        zh.show();
        QVERIFY(QTest::qWaitForWindowExposed(&zh));
        screenshot::settle();
        auto *zh_fix = zh.findChild<QPushButton *>(QStringLiteral("stackFixButton"));
        QVERIFY(zh_fix && zh_fix->isVisibleTo(&zh));
        zh.findChild<QScrollArea *>(QStringLiteral("controlScroll"))
            ->ensureWidgetVisible(zh_fix, 0, 120);
        QVERIFY(screenshot::save(zh, QStringLiteral("stack-error-fix-panel"), QSize(380, 720),
                                 QStringLiteral("zh_CN")));
    }
    fix->click();
    QCOMPARE(spy_->count(), 1);
    const Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.training.framework, std::string("pytorch-fsdp"));
    QCOMPARE(edit.scenario.parallel.zero, 3); // the plan stays; the stack follows it
    panel_->setScenario(edit.scenario);
    QVERIFY(!stackError());
    QVERIFY(!fix->isVisibleTo(panel_));
}

void TestControlPanel::strategyShowsRelevantDegrees()
{
    panel_->setScenario(llamaScenario());
    auto *strategy = find<QComboBox>("strategyCombo");
    auto *tensor = find<QSpinBox>("tensorSpin");
    auto *pipeline = find<QSpinBox>("pipelineSpin");
    auto *schedule = find<QComboBox>("scheduleCombo");
    QCOMPARE(strategy->currentData().toInt(), int(ControlPanel::Strategy::DataParallel));
    QVERIFY(!tensor->isVisibleTo(panel_));
    QVERIFY(!pipeline->isVisibleTo(panel_));
    QVERIFY(find<QSpinBox>("dataSpin")->isVisibleTo(panel_));

    strategy->setCurrentIndex(strategy->findData(int(ControlPanel::Strategy::Tensor)));
    QCOMPARE(spy_->count(), 1);
    Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.description, QStringLiteral("Set strategy to Tensor"));
    QCOMPARE(edit.scenario.parallel.tensor, 4); // one node
    QCOMPARE(edit.scenario.parallel.pipeline, 1);
    QCOMPARE(edit.scenario.parallel.data, 0);
    QVERIFY(tensor->isVisibleTo(panel_));
    QVERIFY(find<QCheckBox>("sequenceParallelCheck")->isVisibleTo(panel_));
    QVERIFY(!pipeline->isVisibleTo(panel_));
    QVERIFY(panel_->issues().isEmpty());

    // The document echoes the edit back: the strategy stays.
    panel_->setScenario(edit.scenario);
    QCOMPARE(strategy->currentData().toInt(), int(ControlPanel::Strategy::Tensor));

    strategy->setCurrentIndex(strategy->findData(int(ControlPanel::Strategy::Hybrid)));
    edit = editAt(*spy_, 1);
    QCOMPARE(edit.scenario.parallel.tensor, 4);
    QCOMPARE(edit.scenario.parallel.pipeline, 2);
    QVERIFY(tensor->isVisibleTo(panel_) && pipeline->isVisibleTo(panel_));
    QVERIFY(schedule->isVisibleTo(panel_));
    QVERIFY(find<QComboBox>("zeroCombo")->isVisibleTo(panel_));

    // A degree edit keeps the chosen strategy and is explained when it does not fit.
    find<QSpinBox>("dataSpin")->setValue(4);
    QCOMPARE(spy_->count(), 3);
    QCOMPARE(editAt(*spy_, 2).description, QStringLiteral("Set data degree to 4"));
    QCOMPARE(strategy->currentData().toInt(), int(ControlPanel::Strategy::Hybrid));
    QVERIFY(find<QLabel>("degreesError")->isVisibleTo(panel_));
    QVERIFY(find<QLabel>("degreesError")->text().contains(QStringLiteral("= 32")));
    QCOMPARE(panel_->scenario().parallel.data, 4); // not corrected

    strategy->setCurrentIndex(strategy->findData(int(ControlPanel::Strategy::Zero3)));
    edit = editAt(*spy_, 3);
    QCOMPARE(edit.scenario.parallel.zero, 3);
    QCOMPARE(edit.scenario.parallel.tensor, 1);
    QVERIFY(!tensor->isVisibleTo(panel_));
    QVERIFY(!find<QComboBox>("zeroCombo")->isVisibleTo(panel_));
}

void TestControlPanel::stragglersAddAndRemove()
{
    find<QSpinBox>("stragglerGpuSpin")->setValue(3);
    find<QDoubleSpinBox>("stragglerSlowdownSpin")->setValue(2.0);
    QCOMPARE(spy_->count(), 0); // choosing what to add is not an edit
    click(find<QPushButton>("stragglerAddButton"));
    QCOMPARE(spy_->count(), 1);
    Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.scenario.effects.stragglers.size(), size_t(1));
    QCOMPARE(edit.scenario.effects.stragglers[0].gpu, 3);
    QCOMPARE(edit.scenario.effects.stragglers[0].slowdown, 2.0);
    QCOMPARE(edit.description, QStringLiteral("Set straggler GPU 3 to 2× slower"));
    auto *list = find<QListWidget>("stragglerList");
    QCOMPARE(list->count(), 1);
    QVERIFY(find<QSpinBox>("stragglerGpuSpin")->maximum() == 7);

    list->setCurrentRow(0);
    click(find<QPushButton>("stragglerRemoveButton"));
    QCOMPARE(spy_->count(), 2);
    edit = editAt(*spy_, 1);
    QVERIFY(edit.scenario.effects.stragglers.empty());
    QCOMPARE(edit.description, QStringLiteral("Remove straggler GPU 3"));
    QCOMPARE(list->count(), 0);
    QVERIFY(!find<QPushButton>("stragglerRemoveButton")->isEnabled());
}

void TestControlPanel::effectTogglesEnableTheirFields()
{
    auto *threshold = find<QDoubleSpinBox>("thermalThresholdSpin");
    QVERIFY(!threshold->isEnabled());
    click(find<QCheckBox>("thermalCheck"));
    QCOMPARE(spy_->count(), 1);
    Edit edit = editAt(*spy_, 0);
    QVERIFY(edit.scenario.effects.thermal.enabled);
    QCOMPARE(edit.scenario.effects.thermal.throttle_above_c, 84.0);
    QCOMPARE(edit.description, QStringLiteral("Turn thermal throttling on"));
    QVERIFY(threshold->isEnabled());
    threshold->setValue(75);
    QCOMPARE(spy_->count(), 2);
    QCOMPARE(editAt(*spy_, 1).scenario.effects.thermal.throttle_above_c, 75.0);

    click(find<QCheckBox>("loaderCheck"));
    QCOMPARE(spy_->count(), 3);
    edit = editAt(*spy_, 2);
    QVERIFY(edit.scenario.effects.data_loader.enabled);
    QVERIFY(edit.scenario.effects.data_loader.workers_per_gpu > 0);
    QVERIFY(edit.scenario.effects.data_loader.samples_per_s_per_worker > 0);
    // What the panel produces is a valid scenario file.
    QVERIFY(scalescope::parseScenario(written(edit.scenario), scalescope::builtinCatalog()).ok());

    find<QDoubleSpinBox>("jitterSpin")->setValue(2.5);
    QCOMPARE(spy_->count(), 4);
    QCOMPARE(editAt(*spy_, 3).scenario.effects.jitter, 0.025);
    QCOMPARE(editAt(*spy_, 3).description, QStringLiteral("Set jitter to 2.5 %"));
}

void TestControlPanel::validationErrorBesideControl_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("label");
    QTest::newRow("pipeline") << "parallel.pipeline"
                              << "degreesError";
    QTest::newRow("degrees product") << "parallel"
                                     << "degreesError";
    QTest::newRow("micro-batch") << "training.micro_batch"
                                 << "microBatchSpinError";
    QTest::newRow("GPUs per node") << "hardware.gpus_per_node"
                                   << "gpusPerNodeSpinError";
    QTest::newRow("GPU") << "hardware.gpu.peak_tflops.fp16"
                         << "gpuComboError";
    QTest::newRow("straggler entry") << "effects.stragglers[0].gpu"
                                     << "stragglerListError";
    QTest::newRow("transformer") << "model.transformer.layers"
                                 << "transformerError";
    QTest::newRow("heads") << "model.transformer.heads"
                           << "headsSpinError";
    QTest::newRow("virtual stages") << "parallel.virtual_stages"
                                    << "virtualStagesSpinError";
    QTest::newRow("unowned") << "collective.op"
                             << "generalError";
}

void TestControlPanel::validationErrorBesideControl()
{
    QFETCH(QString, path);
    QFETCH(QString, label);
    panel_->setValidationError(QStringLiteral("hardware.nodes"), QStringLiteral("old"));
    panel_->setValidationError(path, QStringLiteral("model says no"));
    auto *shown = panel_->findChild<QLabel *>(label);
    QVERIFY(shown);
    QCOMPARE(panel_->messageLabel(path), shown);
    QVERIFY(shown->isVisibleTo(panel_));
    QCOMPARE(shown->text(), QStringLiteral("model says no"));
    // Every other message is cleared.
    const auto labels = panel_->findChildren<QLabel *>();
    for (QLabel *other : labels) {
        if (other != shown && other->objectName().endsWith(QLatin1String("Error"))) {
            QVERIFY2(!other->isVisibleTo(panel_), qPrintable(other->objectName()));
            QVERIFY(other->text().isEmpty());
        }
    }
    panel_->setValidationError(QString(), QString());
    QVERIFY(!shown->isVisibleTo(panel_));
    QVERIFY(shown->text().isEmpty());
    QCOMPARE(spy_->count(), 0);
}

void TestControlPanel::localIssuesShownBesideControls()
{
    Scenario s = llamaScenario();
    s.parallel.data = 2;
    s.parallel.tensor = 2;
    s.parallel.pipeline = 4;
    panel_->setScenario(s);
    auto *degrees = find<QLabel>("degreesError");
    QVERIFY(degrees->isVisibleTo(panel_));
    QVERIFY(degrees->text().contains(QStringLiteral("2 × 2 × 4 = 16")));
    QVERIFY(degrees->text().contains(QStringLiteral("8 GPUs")));
    QCOMPARE(spy_->count(), 0);
    QCOMPARE(panel_->scenario().parallel.data, 2); // shown, not corrected
    // The model's error for the same slot does not repeat the local explanation.
    panel_->setValidationError(QStringLiteral("parallel"), QStringLiteral("model text"));
    QVERIFY(!degrees->text().contains(QStringLiteral("model text")));

    // Fixing it in the panel clears the message.
    find<QSpinBox>("dataSpin")->setValue(1);
    QCOMPARE(spy_->count(), 1);
    QVERIFY(!degrees->text().contains(QStringLiteral("= 16")));

    // A micro-batch that does not divide the per-replica batch (64 / 1 = 64).
    find<QSpinBox>("microBatchSpin")->setValue(5);
    auto *micro = find<QLabel>("microBatchSpinError");
    QVERIFY(micro->isVisibleTo(panel_));
    QVERIFY(micro->text().contains(QStringLiteral("micro-batch 5 does not divide")));
    QCOMPARE(panel_->scenario().training.micro_batch, 5);
}

void TestControlPanel::queuedConnectionCarriesScenario()
{
    Scenario received;
    QString description;
    int calls = 0;
    connect(
        panel_, &ControlPanel::scenarioEdited, this,
        [&](const Scenario &s, const QString &text, int) {
            received = s;
            description = text;
            ++calls;
        },
        Qt::QueuedConnection);
    find<QSpinBox>("nodesSpin")->setValue(3);
    QCOMPARE(calls, 0);
    QTRY_COMPARE(calls, 1);
    QCOMPARE(received.hardware.nodes, 3);
    QCOMPARE(description, QStringLiteral("Set nodes to 3"));
}

void TestControlPanel::controlsShowRangeAndTakeFocus()
{
    const char *const names[] = {"gpuCombo",
                                 "gpuCountSlider",
                                 "nodesSpin",
                                 "gpusPerNodeSpin",
                                 "intraCombo",
                                 "interCombo",
                                 "nicsSpin",
                                 "pcieTopologyCombo",
                                 "hostMemorySpin",
                                 "powerLimitSpin",
                                 "nvlinkDomainSpin",
                                 "cpuCoresSpin",
                                 "modelCombo",
                                 "globalBatchSlider",
                                 "globalBatchSpin",
                                 "microBatchSpin",
                                 "precisionCombo",
                                 "optimizerCombo",
                                 "recomputeCombo",
                                 "offloadLayersSpin",
                                 "flashCheck",
                                 "compileCheck",
                                 "strategyCombo",
                                 "dataSpin",
                                 "zeroCombo",
                                 "overlapCheck",
                                 "bucketSpin",
                                 "updateCombo",
                                 "seedSpin",
                                 "jitterSpin",
                                 "stragglerGpuSpin",
                                 "stragglerSlowdownSpin",
                                 "thermalCheck",
                                 "loaderCheck",
                                 "thermalCoolingCombo",
                                 "thermalSteadySpin",
                                 "thermalAmbientSpin",
                                 "thermalStartSpin",
                                 "thermalGpuList",
                                 "thermalGpuSpin",
                                 "thermalGpuSteadySpin",
                                 "thermalGpuAddButton",
                                 "loaderPrefetchSpin",
                                 "loaderPipelineCombo",
                                 "virtualGpuCheck",
                                 "virtualFractionSpin",
                                 "hostRoutedCheck",
                                 "failuresCheck",
                                 "mtbfSpin",
                                 "checkpointSizeSpin",
                                 "checkpointWriteSpin",
                                 "restartSpin",
                                 "checkpointIntervalSpin"};
    const auto labels = panel_->findChildren<QLabel *>();
    for (const char *name : names) {
        auto *widget = find<QWidget>(name);
        QVERIFY2(widget->focusPolicy() & Qt::TabFocus, name);
        QVERIFY2(!widget->toolTip().isEmpty(), name);
        if (!qobject_cast<QCheckBox *>(widget) && !qobject_cast<QPushButton *>(widget)) {
            const bool hasBuddy = std::any_of(labels.begin(), labels.end(),
                                              [&](QLabel *l) { return l->buddy() == widget; });
            QVERIFY2(hasBuddy || !widget->accessibleName().isEmpty(), name);
        }
    }
    // Ranges in tooltips, units in suffixes.
    QVERIFY(find<QSpinBox>("gpusPerNodeSpin")->toolTip().contains(QStringLiteral("1-16")));
    QVERIFY(find<QSpinBox>("offloadLayersSpin")->toolTip().contains(QStringLiteral("0-100000")));
    QVERIFY(find<QSlider>("gpuCountSlider")->toolTip().contains(QStringLiteral("1-1024")));
    QVERIFY(find<QSlider>("globalBatchSlider")->toolTip().contains(QStringLiteral("1-65536")));
    QCOMPARE(find<QDoubleSpinBox>("bucketSpin")->suffix(), QStringLiteral(" MB"));
    QCOMPARE(find<QDoubleSpinBox>("jitterSpin")->suffix(), QStringLiteral(" %"));
    QCOMPARE(find<QDoubleSpinBox>("thermalAmbientSpin")->suffix(), QStringLiteral(" °C"));
    QVERIFY(find<QDoubleSpinBox>("thermalAmbientSpin")->toolTip().contains(u"-20-60 °C"));
    QCOMPARE(find<QDoubleSpinBox>("thermalGpuSteadySpin")->suffix(), QStringLiteral(" °C"));
    QCOMPARE(find<QDoubleSpinBox>("virtualFractionSpin")->suffix(), QStringLiteral(" %"));
    QVERIFY(find<QDoubleSpinBox>("virtualFractionSpin")->toolTip().contains(u"5-100 %"));
    QCOMPARE(find<QSpinBox>("loaderPrefetchSpin")->suffix(), QStringLiteral(" batches"));
    QCOMPARE(find<QDoubleSpinBox>("mtbfSpin")->suffix(), QStringLiteral(" h"));
    QCOMPARE(find<QDoubleSpinBox>("checkpointSizeSpin")->suffix(), QStringLiteral(" GB"));
    QCOMPARE(find<QDoubleSpinBox>("checkpointWriteSpin")->suffix(), QStringLiteral(" GB/s"));
    QCOMPARE(find<QDoubleSpinBox>("restartSpin")->suffix(), QStringLiteral(" s"));
    QCOMPARE(find<QDoubleSpinBox>("checkpointIntervalSpin")->specialValueText(),
             QStringLiteral("optimal (Young/Daly)"));
    QCOMPARE(find<QDoubleSpinBox>("thermalStartSpin")->specialValueText(),
             QStringLiteral("steady state"));
    // The hot-spot GPU and its temperature share a row: Tab goes from one to the other.
    QWidget *next = find<QSpinBox>("thermalGpuSpin")->nextInFocusChain();
    while (find<QSpinBox>("thermalGpuSpin")->isAncestorOf(next)) // its line edit
        next = next->nextInFocusChain();
    QCOMPARE(next, find<QDoubleSpinBox>("thermalGpuSteadySpin"));

    // Tab walks from the GPU combo to the count slider to the nodes.
    find<QComboBox>("gpuCombo")->setFocus();
    QCOMPARE(find<QComboBox>("gpuCombo")->nextInFocusChain(), find<QSlider>("gpuCountSlider"));
    QCOMPARE(find<QSlider>("gpuCountSlider")->nextInFocusChain(), find<QSpinBox>("nodesSpin"));
}

void TestControlPanel::fitsNarrowDock()
{
    auto *content = find<QWidget>("controlContent");
    QVERIFY2(content->minimumSizeHint().width() <= 340,
             qPrintable(QString::number(content->minimumSizeHint().width())));
    // Also with every effect's rows shown.
    panel_->setScenario(allEffectsScenario());
    QVERIFY(find<QDoubleSpinBox>("checkpointIntervalSpin")->isVisibleTo(panel_));
    QVERIFY2(content->minimumSizeHint().width() <= 340,
             qPrintable(QString::number(content->minimumSizeHint().width())));
    // No control sets its own font: a larger font (presentation mode) reaches all of them.
    QFont big = panel_->font();
    big.setPointSizeF(big.pointSizeF() * 2);
    panel_->setFont(big);
    QCOMPARE(find<QSpinBox>("nodesSpin")->font().pointSizeF(), big.pointSizeF());
    QCOMPARE(find<QLabel>("degreesError")->font().pointSizeF(), big.pointSizeF());
}

// ---------------------------------------------------------------------------------------
// The effects of docs/scenario.md: thermal over time, loader prefetch, virtual GPU slices,
// failures and checkpoints.

void TestControlPanel::showsNewEffectsWithoutEmitting()
{
    panel_->setScenario(allEffectsScenario());
    QCOMPARE(spy_->count(), 0);
    QVERIFY(find<QCheckBox>("thermalCheck")->isChecked());
    auto *cooling = find<QComboBox>("thermalCoolingCombo");
    QCOMPARE(cooling->currentData().toDouble(), scalescope::kCoolingWorkstationC);
    QVERIFY(cooling->currentText().startsWith(QStringLiteral("Workstation")));
    QCOMPARE(find<QDoubleSpinBox>("thermalSteadySpin")->value(), 80.0);
    QCOMPARE(find<QDoubleSpinBox>("thermalAmbientSpin")->value(), 25.0);
    QCOMPARE(find<QDoubleSpinBox>("thermalStartSpin")->value(), 30.0);
    auto *hotSpots = find<QListWidget>("thermalGpuList");
    QCOMPARE(hotSpots->count(), 1);
    QVERIFY(hotSpots->item(0)->text().contains(QStringLiteral("GPU 2")));
    QVERIFY(hotSpots->item(0)->text().contains(QStringLiteral("95")));
    QCOMPARE(find<QSpinBox>("thermalGpuSpin")->maximum(), 7);
    QCOMPARE(find<QSpinBox>("loaderPrefetchSpin")->value(), 4);
    QVERIFY(find<QCheckBox>("virtualGpuCheck")->isChecked());
    QCOMPARE(find<QDoubleSpinBox>("virtualFractionSpin")->value(), 25.0);
    QVERIFY(find<QCheckBox>("hostRoutedCheck")->isChecked());
    QVERIFY(find<QCheckBox>("failuresCheck")->isChecked());
    QCOMPARE(find<QDoubleSpinBox>("mtbfSpin")->value(), 50000.0);
    QCOMPARE(find<QDoubleSpinBox>("checkpointSizeSpin")->value(), 100.0);
    QCOMPARE(find<QDoubleSpinBox>("checkpointWriteSpin")->value(), 5.0);
    QCOMPARE(find<QDoubleSpinBox>("restartSpin")->value(), 600.0);
    QCOMPARE(find<QDoubleSpinBox>("checkpointIntervalSpin")->text(),
             QStringLiteral("optimal (Young/Daly)"));
    for (const char *name : {"thermalSteadySpin", "loaderPrefetchSpin", "virtualFractionSpin",
                             "checkpointIntervalSpin", "thermalGpuSteadySpin"}) {
        QVERIFY2(find<QWidget>(name)->isVisibleTo(panel_), name);
        QVERIFY2(find<QWidget>(name)->isEnabled(), name);
    }
    QVERIFY2(panel_->issues().isEmpty(), qPrintable(panel_->issues().value(0).message));

    // No cooling given, steady state: the spins say what the model assumes.
    Scenario plain = allEffectsScenario();
    plain.effects.thermal.steady_c.reset();
    plain.effects.thermal.start_s.reset();
    panel_->setScenario(plain);
    QCOMPARE(cooling->currentData().toDouble(), -1.0);
    QCOMPARE(find<QDoubleSpinBox>("thermalSteadySpin")->value(), 90.0); // threshold + 6
    QCOMPARE(find<QDoubleSpinBox>("thermalStartSpin")->text(), QStringLiteral("steady state"));
    QCOMPARE(spy_->count(), 0);
}

void TestControlPanel::newEffectEdits_data()
{
    QTest::addColumn<QString>("widget");
    QTest::addColumn<QString>("action"); // type (arg + Return), up, click, combo (index), min
    QTest::addColumn<QString>("arg");
    QTest::addColumn<QString>("path"); // effects key that changes; no value: it goes away
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("description");

    const QJsonValue gone(QJsonValue::Undefined);
    QTest::newRow("cooling preset") << "thermalCoolingCombo"
                                    << "combo"
                                    << "1"
                                    << "thermal.steady_c" << QJsonValue(70)
                                    << QStringLiteral("Set cooling to Datacenter, 70 °C");
    QTest::newRow("no cooling") << "thermalCoolingCombo"
                                << "combo"
                                << "0"
                                << "thermal.steady_c" << gone
                                << "Set cooling to None given (above threshold)";
    QTest::newRow("steady state typed")
        << "thermalSteadySpin"
        << "type"
        << "86.5"
        << "thermal.steady_c" << QJsonValue(86.5)
        << QStringLiteral("Set steady-state temperature to 86.5 °C");
    QTest::newRow("ambient typed") << "thermalAmbientSpin"
                                   << "type"
                                   << "-5.5"
                                   << "thermal.ambient_c" << QJsonValue(-5.5)
                                   << QStringLiteral("Set ambient temperature to -5.5 °C");
    QTest::newRow("ambient stepped") << "thermalAmbientSpin"
                                     << "up"
                                     << ""
                                     << "thermal.ambient_c" << QJsonValue(26)
                                     << QStringLiteral("Set ambient temperature to 26 °C");
    QTest::newRow("load before") << "thermalStartSpin"
                                 << "type"
                                 << "600"
                                 << "thermal.start_s" << QJsonValue(600)
                                 << "Set load before the first step to 600 s";
    QTest::newRow("steady state from the start")
        << "thermalStartSpin"
        << "min"
        << ""
        << "thermal.start_s" << gone << "Start the thermal model in steady state";
    QTest::newRow("prefetch") << "loaderPrefetchSpin"
                              << "type"
                              << "8"
                              << "data_loader.prefetch_factor" << QJsonValue(8)
                              << "Set loader prefetch to 8 batches per worker";
    QTest::newRow("prefetch back to the default")
        << "loaderPrefetchSpin"
        << "type"
        << "2"
        << "data_loader.prefetch_factor" << gone << "Set loader prefetch to 2 batches per worker";
    QTest::newRow("slice") << "virtualFractionSpin"
                           << "type"
                           << "12.5"
                           << "virtual_gpu.fraction" << QJsonValue(0.125)
                           << "Set virtual GPU slice to 12.5 %";
    QTest::newRow("peer-to-peer") << "hostRoutedCheck"
                                  << "click"
                                  << ""
                                  << "virtual_gpu.host_routed" << QJsonValue(false)
                                  << "Let GPUs exchange data peer-to-peer";
    QTest::newRow("slices off") << "virtualGpuCheck"
                                << "click"
                                << ""
                                << "virtual_gpu" << gone << "Turn virtual GPU slices off";
    QTest::newRow("MTBF") << "mtbfSpin"
                          << "type"
                          << "20000"
                          << "failures.mtbf_hours_per_gpu" << QJsonValue(20000)
                          << "Set MTBF per GPU to 20000 h";
    QTest::newRow("checkpoint size")
        << "checkpointSizeSpin"
        << "type"
        << "250"
        << "failures.checkpoint_bytes" << QJsonValue(250e9) << "Set checkpoint size to 250 GB";
    QTest::newRow("checkpoint of the model states") << "checkpointSizeSpin"
                                                    << "min"
                                                    << ""
                                                    << "failures.checkpoint_bytes" << QJsonValue(0)
                                                    << "Set checkpoint size to the model states";
    QTest::newRow("write bandwidth") << "checkpointWriteSpin"
                                     << "type"
                                     << "12.5"
                                     << "failures.checkpoint_write_gbps" << QJsonValue(12.5)
                                     << "Set checkpoint write bandwidth to 12.5 GB/s";
    QTest::newRow("restart") << "restartSpin"
                             << "type"
                             << "300"
                             << "failures.restart_s" << QJsonValue(300)
                             << "Set restart time to 300 s";
    QTest::newRow("interval") << "checkpointIntervalSpin"
                              << "type"
                              << "1800"
                              << "failures.checkpoint_interval_s" << QJsonValue(1800)
                              << "Set checkpoint interval to 1800 s";
    QTest::newRow("failures off") << "failuresCheck"
                                  << "click"
                                  << ""
                                  << "failures" << gone << "Turn failures and checkpoints off";
    QTest::newRow("thermal off") << "thermalCheck"
                                 << "click"
                                 << ""
                                 << "thermal" << gone << "Turn thermal throttling off";
}

void TestControlPanel::newEffectEdits()
{
    QFETCH(QString, widget);
    QFETCH(QString, action);
    QFETCH(QString, arg);
    QFETCH(QString, path);
    QFETCH(QJsonValue, value);
    QFETCH(QString, description);

    const Scenario start = allEffectsScenario();
    panel_->setScenario(start);
    auto *target = find<QWidget>(qPrintable(widget));
    find<QScrollArea>("controlScroll")->ensureWidgetVisible(target);
    if (action == QLatin1String("type")) {
        auto *spin = qobject_cast<QAbstractSpinBox *>(target);
        QVERIFY(spin);
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, arg);
        QCOMPARE(spy_->count(), 0); // no edit per keystroke
        QTest::keyClick(spin, Qt::Key_Return);
    } else if (action == QLatin1String("up")) {
        target->setFocus();
        QTest::keyClick(target, Qt::Key_Up);
    } else if (action == QLatin1String("click")) {
        click(target);
    } else if (action == QLatin1String("combo")) {
        qobject_cast<QComboBox *>(target)->setCurrentIndex(arg.toInt());
    } else if (auto *spin = qobject_cast<QDoubleSpinBox *>(target)) { // min
        spin->setValue(spin->minimum());
    }

    QCOMPARE(spy_->count(), 1);
    const Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.description, description);
    QCOMPARE(edit.merge_key, 0);
    QCOMPARE(written(panel_->scenario()), written(edit.scenario));
    QVERIFY(parses(edit.scenario));

    // Exactly the one key changed.
    QJsonObject expected = writtenEffects(start);
    const QStringList keys = path.split(QLatin1Char('.'));
    if (keys.size() == 1) {
        if (value.isUndefined())
            expected.remove(keys[0]);
        else
            expected.insert(keys[0], value);
    } else {
        QJsonObject inner = expected.value(keys[0]).toObject();
        if (value.isUndefined())
            inner.remove(keys[1]);
        else
            inner.insert(keys[1], value);
        expected.insert(keys[0], inner);
    }
    QCOMPARE(writtenEffects(edit.scenario), expected);
}

void TestControlPanel::newEffectRangesAreTheFile_data()
{
    QTest::addColumn<QString>("widget");
    QTest::addColumn<double>("minimum");
    QTest::addColumn<double>("maximum");
    // The ranges of model/io/scenario_io.cpp (an open lower bound: the smallest step above).
    QTest::newRow("ambient") << "thermalAmbientSpin" << -20.0 << 60.0;
    QTest::newRow("steady state") << "thermalSteadySpin" << 0.0 << 150.0;
    QTest::newRow("hot-spot steady state") << "thermalGpuSteadySpin" << 0.0 << 150.0;
    QTest::newRow("load before (minimum: steady state)") << "thermalStartSpin" << -1.0 << 1e9;
    QTest::newRow("prefetch") << "loaderPrefetchSpin" << 1.0 << 64.0;
    QTest::newRow("slice %") << "virtualFractionSpin" << 5.0 << 100.0;
    QTest::newRow("MTBF h") << "mtbfSpin" << 0.1 << 1e9;
    QTest::newRow("checkpoint GB") << "checkpointSizeSpin" << 0.0 << 1e7;
    QTest::newRow("write GB/s") << "checkpointWriteSpin" << 0.01 << 1e6;
    QTest::newRow("restart s") << "restartSpin" << 0.0 << 1e7;
    QTest::newRow("interval s") << "checkpointIntervalSpin" << 0.0 << 1e9;
}

void TestControlPanel::newEffectRangesAreTheFile()
{
    QFETCH(QString, widget);
    QFETCH(double, minimum);
    QFETCH(double, maximum);
    Scenario start = allEffectsScenario();
    start.effects.thermal.ambient_c = -20; // any steady state from 0 °C up is allowed
    panel_->setScenario(start);
    auto *target = find<QAbstractSpinBox>(qPrintable(widget));
    const auto setValue = [&](double v) {
        if (auto *spin = qobject_cast<QSpinBox *>(target))
            spin->setValue(int(v));
        else
            qobject_cast<QDoubleSpinBox *>(target)->setValue(v);
    };
    if (auto *spin = qobject_cast<QSpinBox *>(target)) {
        QCOMPARE(double(spin->minimum()), minimum);
        QCOMPARE(double(spin->maximum()), maximum);
    } else {
        QCOMPARE(qobject_cast<QDoubleSpinBox *>(target)->minimum(), minimum);
        QCOMPARE(qobject_cast<QDoubleSpinBox *>(target)->maximum(), maximum);
    }
    // Both ends give a scenario file the parser takes (for the hot spot: once added).
    for (const double v : {maximum, minimum}) {
        setValue(v);
        if (widget == QLatin1String("thermalGpuSteadySpin"))
            click(find<QPushButton>("thermalGpuAddButton"));
        const Scenario now = panel_->scenario();
        const auto reread = scalescope::parseScenario(written(now), scalescope::builtinCatalog());
        QVERIFY2(reread.ok(), reread.ok() ? "" : reread.error().toString().c_str());
    }
    QCOMPARE(spy_->count(), 2);
}

void TestControlPanel::coolingComboFollowsSteadyState()
{
    panel_->setScenario(allEffectsScenario()); // workstation, 80 °C
    auto *cooling = find<QComboBox>("thermalCoolingCombo");
    auto *steady = find<QDoubleSpinBox>("thermalSteadySpin");
    QCOMPARE(cooling->count(), 4);

    steady->setValue(92); // the poor preset's temperature
    QCOMPARE(spy_->count(), 1);
    QCOMPARE(cooling->currentData().toDouble(), scalescope::kCoolingPoorC);

    steady->setValue(88);
    QCOMPARE(spy_->count(), 2);
    QCOMPARE(editAt(*spy_, 1).scenario.effects.thermal.steady_c, std::optional<double>(88));
    QCOMPARE(cooling->count(), 5);
    QCOMPARE(cooling->currentText(), QStringLiteral("Custom, 88 °C"));

    cooling->setFocus();
    QTest::keyClick(cooling, Qt::Key_Home); // none given
    QCOMPARE(spy_->count(), 3);
    const Edit edit = editAt(*spy_, 2);
    QVERIFY(!edit.scenario.effects.thermal.steady_c);
    QCOMPARE(edit.description, QStringLiteral("Set cooling to None given (above threshold)"));
    QCOMPARE(cooling->count(), 4);
    QCOMPARE(steady->value(), 90.0); // the model's assumption: threshold + 6 °C
    QVERIFY(parses(edit.scenario));

    // The threshold moves the assumed temperature with it.
    find<QDoubleSpinBox>("thermalThresholdSpin")->setValue(70);
    QCOMPARE(steady->value(), 76.0);
    QVERIFY(!panel_->scenario().effects.thermal.steady_c);
}

void TestControlPanel::hotSpotsAddAndRemove()
{
    panel_->setScenario(allEffectsScenario());
    auto *list = find<QListWidget>("thermalGpuList");
    find<QSpinBox>("thermalGpuSpin")->setValue(5);
    find<QDoubleSpinBox>("thermalGpuSteadySpin")->setValue(99);
    QCOMPARE(spy_->count(), 0); // choosing what to add is not an edit
    click(find<QPushButton>("thermalGpuAddButton"));
    QCOMPARE(spy_->count(), 1);
    Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.description, QStringLiteral("Set GPU 5 steady-state temperature to 99 °C"));
    const auto &gpus = edit.scenario.effects.thermal.gpus;
    QCOMPARE(gpus.size(), size_t(2));
    QCOMPARE(gpus[1].gpu, 5);
    QCOMPARE(gpus[1].steady_c, 99.0);
    QCOMPARE(list->count(), 2);
    QVERIFY(parses(edit.scenario));

    // Selecting an entry loads it; adding the same GPU changes its temperature.
    list->setCurrentRow(0);
    QCOMPARE(find<QSpinBox>("thermalGpuSpin")->value(), 2);
    QCOMPARE(find<QDoubleSpinBox>("thermalGpuSteadySpin")->value(), 95.0);
    find<QDoubleSpinBox>("thermalGpuSteadySpin")->setValue(97);
    click(find<QPushButton>("thermalGpuAddButton"));
    QCOMPARE(spy_->count(), 2);
    edit = editAt(*spy_, 1);
    QCOMPARE(edit.scenario.effects.thermal.gpus.size(), size_t(2));
    QCOMPARE(edit.scenario.effects.thermal.gpus[0].steady_c, 97.0);

    list->setCurrentRow(0);
    click(find<QPushButton>("thermalGpuRemoveButton"));
    QCOMPARE(spy_->count(), 3);
    edit = editAt(*spy_, 2);
    QCOMPARE(edit.description, QStringLiteral("Remove GPU 2's own cooling"));
    QCOMPARE(edit.scenario.effects.thermal.gpus.size(), size_t(1));
    QCOMPARE(edit.scenario.effects.thermal.gpus[0].gpu, 5);
    QCOMPARE(list->count(), 1);
}

void TestControlPanel::newEffectRowsCollapseWhenOff()
{
    // default.json has none of the effects: only their check boxes show.
    auto *fraction = find<QDoubleSpinBox>("virtualFractionSpin");
    auto *mtbf = find<QDoubleSpinBox>("mtbfSpin");
    auto *cooling = find<QComboBox>("thermalCoolingCombo");
    for (QWidget *field : std::initializer_list<QWidget *>{
             fraction, find<QCheckBox>("hostRoutedCheck"), mtbf, cooling,
             find<QSpinBox>("loaderPrefetchSpin"), find<QSpinBox>("thermalGpuSpin")}) {
        QVERIFY2(!field->isVisibleTo(panel_), qPrintable(field->objectName()));
        QVERIFY2(!field->isEnabled(), qPrintable(field->objectName()));
    }

    click(find<QCheckBox>("virtualGpuCheck"));
    QCOMPARE(spy_->count(), 1);
    Edit edit = editAt(*spy_, 0);
    QCOMPARE(edit.description, QStringLiteral("Turn virtual GPU slices on"));
    QVERIFY(edit.scenario.effects.virtual_gpu.enabled);
    QCOMPARE(edit.scenario.effects.virtual_gpu.fraction, 0.5); // what the field showed
    QVERIFY(edit.scenario.effects.virtual_gpu.host_routed);
    QVERIFY(fraction->isVisibleTo(panel_) && fraction->isEnabled());
    QVERIFY(parses(edit.scenario));

    find<QCheckBox>("failuresCheck")->setFocus();
    QTest::keyClick(find<QCheckBox>("failuresCheck"), Qt::Key_Space);
    QCOMPARE(spy_->count(), 2);
    edit = editAt(*spy_, 1);
    QCOMPARE(edit.description, QStringLiteral("Turn failures and checkpoints on"));
    QVERIFY(edit.scenario.effects.failures.enabled);
    QVERIFY(mtbf->isVisibleTo(panel_) && mtbf->isEnabled());
    QVERIFY(parses(edit.scenario));

    click(find<QCheckBox>("thermalCheck"));
    QVERIFY(cooling->isVisibleTo(panel_));
    QCOMPARE(cooling->currentData().toDouble(), -1.0); // none given: version-1 behaviour
    QCOMPARE(find<QDoubleSpinBox>("thermalStartSpin")->text(), QStringLiteral("steady state"));
    click(find<QCheckBox>("loaderCheck"));
    QVERIFY(find<QSpinBox>("loaderPrefetchSpin")->isVisibleTo(panel_));
    QCOMPARE(spy_->count(), 4);
    QVERIFY(parses(panel_->scenario()));

    click(find<QCheckBox>("virtualGpuCheck"));
    QCOMPARE(spy_->count(), 5);
    QVERIFY(!fraction->isVisibleTo(panel_));
    QVERIFY(!panel_->scenario().effects.virtual_gpu.enabled);
}

void TestControlPanel::newEffectIssuesBesideControls()
{
    panel_->setScenario(allEffectsScenario());
    auto *hotSpotMessage = find<QLabel>("thermalGpuListError");
    QVERIFY2(!hotSpotMessage->isVisibleTo(panel_), qPrintable(hotSpotMessage->text()));

    // Shrinking the cluster below the hot spot's GPU keeps the entry and says why it is wrong.
    find<QSlider>("gpuCountSlider")->setValue(1); // 2 GPUs
    QCOMPARE(spy_->count(), 1);
    QCOMPARE(panel_->scenario().effects.thermal.gpus.size(), size_t(1));
    QVERIFY(hotSpotMessage->isVisibleTo(panel_));
    QVERIFY(hotSpotMessage->text().contains(
        QStringLiteral("GPU 2 with its own cooling does not exist: the GPUs are numbered 0-1")));
    QCOMPARE(find<QSpinBox>("thermalGpuSpin")->maximum(), 1);
    find<QListWidget>("thermalGpuList")->setCurrentRow(0);
    click(find<QPushButton>("thermalGpuRemoveButton"));
    QVERIFY(!hotSpotMessage->isVisibleTo(panel_));

    // A steady state below the ambient is shown as typed, and explained.
    auto *steady = find<QDoubleSpinBox>("thermalSteadySpin");
    steady->setValue(20);
    QCOMPARE(panel_->scenario().effects.thermal.steady_c, std::optional<double>(20));
    auto *steadyMessage = find<QLabel>("thermalSteadySpinError");
    QVERIFY(steadyMessage->isVisibleTo(panel_));
    QVERIFY(steadyMessage->text().contains(u"steady state 20 °C is below the ambient 25 °C"));
    QVERIFY(!parses(panel_->scenario())); // an error: the file would be rejected

    // Checkpoints more often than one takes to write (100 GB at 5 GB/s = 20 s).
    find<QDoubleSpinBox>("checkpointIntervalSpin")->setValue(10);
    auto *interval = find<QLabel>("checkpointIntervalSpinError");
    QVERIFY(interval->isVisibleTo(panel_));
    QVERIFY(interval->text().contains(QStringLiteral("writing one takes 20 s")));
    find<QDoubleSpinBox>("checkpointWriteSpin")->setValue(20); // 5 s now
    QVERIFY(!interval->isVisibleTo(panel_));

    // The model's own errors for the new keys go beside their controls.
    const std::pair<const char *, const char *> owners[] = {
        {"effects.thermal.gpus[0].gpu", "thermalGpuListError"},
        {"effects.thermal.cooling", "thermalSteadySpinError"},
        {"effects.thermal.ambient_c", "thermalAmbientSpinError"},
        {"effects.thermal.start_s", "thermalStartSpinError"},
        {"effects.data_loader.prefetch_factor", "loaderPrefetchSpinError"},
        {"effects.virtual_gpu.fraction", "virtualGpuError"},
        {"effects.failures.mtbf_hours_per_gpu", "mtbfSpinError"},
        {"effects.failures.checkpoint_write_gbps", "failuresError"},
        {"effects.failures.checkpoint_interval_s", "checkpointIntervalSpinError"}};
    for (const auto &[path, label] : owners)
        QCOMPARE(panel_->messageLabel(QLatin1String(path))->objectName(), QLatin1String(label));
}

QTEST_MAIN(TestControlPanel)
#include "tst_control_panel.moc"
