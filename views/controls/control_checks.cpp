#include "controls/control_checks.h"

#include "plan/framework_rules.h"

#include <QCoreApplication>

#include <algorithm>
#include <vector>

namespace scalescope
{

namespace
{

void add(QList<ControlIssue> &issues, const char *key, QString message,
         ControlIssue::Severity severity = ControlIssue::Severity::Error)
{
    issues.append(ControlIssue{QString::fromLatin1(key), std::move(message), severity});
}

constexpr ControlIssue::Severity kWarning = ControlIssue::Severity::Warning;

/// A plan the named stack cannot run, in the reader's language.
QString frameworkFindingText(const FrameworkSpec &f, const FrameworkFinding &x)
{
    using Kind = FrameworkFinding::Kind;
    const QString who = QString::fromStdString(f.name);
    switch (x.kind) {
    case Kind::Tensor:
        return QCoreApplication::translate("ControlChecks",
                                           "%1 has no tensor parallelism (tensor = %2); use "
                                           "tensor 1 or a Megatron stack or torchtitan")
            .arg(who)
            .arg(x.value);
    case Kind::Pipeline:
        return QCoreApplication::translate("ControlChecks",
                                           "%1 has no pipeline parallelism (pipeline = %2); use "
                                           "pipeline 1 or DeepSpeed, Megatron or torchtitan")
            .arg(who)
            .arg(x.value);
    case Kind::Zero:
        return QCoreApplication::translate("ControlChecks",
                                           "%1 runs ZeRO stages up to %2, not %3")
            .arg(who)
            .arg(x.allowed)
            .arg(x.value);
    case Kind::ZeroWithPipeline:
        return QCoreApplication::translate("ControlChecks",
                                           "%1 cannot combine ZeRO stage %2 with pipeline = %3 "
                                           "(at most stage %4); torchtitan can")
            .arg(who)
            .arg(x.value)
            .arg(x.pipeline)
            .arg(x.allowed);
    case Kind::Async:
        break;
    }
    return QCoreApplication::translate("ControlChecks",
                                       "%1 has no asynchronous updates; use sync")
        .arg(who);
}

void checkDegrees(const Scenario &s, QList<ControlIssue> &issues, int64_t &data)
{
    const ParallelSpec &p = s.parallel;
    const HardwareSpec &hw = s.hardware;
    const int64_t gpus = hw.gpuCount();
    const int64_t modelParallel = int64_t(p.tensor) * p.pipeline;
    data = 0;
    if (p.data > 0) {
        if (p.data * modelParallel != gpus)
            add(issues, "parallel",
                QCoreApplication::translate(
                    "ControlChecks",
                    "data × tensor × pipeline = %1 × %2 × %3 = %4, but the cluster has %5 GPUs "
                    "(%6 nodes × %7 GPUs per node)")
                    .arg(p.data)
                    .arg(p.tensor)
                    .arg(p.pipeline)
                    .arg(p.data * modelParallel)
                    .arg(gpus)
                    .arg(hw.nodes)
                    .arg(hw.gpus_per_node));
        else
            data = p.data;
    } else if (modelParallel <= 0 || gpus % modelParallel != 0) {
        add(issues, "parallel",
            QCoreApplication::translate(
                "ControlChecks",
                "tensor × pipeline = %1 × %2 = %3 does not divide the %4 GPUs, so the data degree "
                "(auto) would not be whole")
                .arg(p.tensor)
                .arg(p.pipeline)
                .arg(modelParallel)
                .arg(gpus));
    } else {
        data = gpus / modelParallel;
    }

    if (p.tensor > hw.gpus_per_node)
        add(issues, "parallel.tensor",
            QCoreApplication::translate(
                "ControlChecks",
                "tensor = %1 is more than the %2 GPUs per node: its all-reduces cross the "
                "inter-node network (allowed, but slow)")
                .arg(p.tensor)
                .arg(hw.gpus_per_node),
            kWarning);
    if (s.model.kind == ModelSpec::Kind::Transformer && s.model.transformer.heads > 0 &&
        s.model.transformer.heads % p.tensor != 0)
        add(issues, "parallel.tensor",
            QCoreApplication::translate(
                "ControlChecks", "tensor = %1 does not divide the model's %2 attention heads")
                .arg(p.tensor)
                .arg(s.model.transformer.heads));
    if (p.sequence_parallel && p.tensor == 1)
        add(issues, "parallel.sequence_parallel",
            QCoreApplication::translate(
                "ControlChecks",
                "sequence parallelism works inside a tensor-parallel group; with tensor = 1 it has "
                "no effect"),
            kWarning);
}

void checkBatch(const Scenario &s, int64_t data, QList<ControlIssue> &issues)
{
    const TrainingSpec &t = s.training;
    if (data <= 0 || t.global_batch <= 0)
        return;
    if (t.global_batch % data != 0) {
        add(issues, "training.global_batch",
            QCoreApplication::translate(
                "ControlChecks",
                "global batch %1 does not split evenly over %2 data-parallel replicas")
                .arg(t.global_batch)
                .arg(data));
        return;
    }
    const int64_t perReplica = t.global_batch / data;
    if (t.micro_batch > 0 && perReplica % t.micro_batch != 0)
        add(issues, "training.micro_batch",
            QCoreApplication::translate(
                "ControlChecks",
                "micro-batch %1 does not divide the per-replica batch %2 / %3 = %4")
                .arg(t.micro_batch)
                .arg(t.global_batch)
                .arg(data)
                .arg(perReplica));
}

void checkPipeline(const Scenario &s, int64_t data, QList<ControlIssue> &issues)
{
    const ParallelSpec &p = s.parallel;
    if (p.virtual_stages > 1 && p.schedule != Schedule::Interleaved)
        add(issues, "parallel.virtual_stages",
            QCoreApplication::translate("ControlChecks",
                                        "%1 virtual stages need the interleaved schedule")
                .arg(p.virtual_stages));
    if (p.schedule == Schedule::Interleaved && p.pipeline > 1 && p.virtual_stages == 1)
        add(issues, "parallel.virtual_stages",
            QCoreApplication::translate(
                "ControlChecks",
                "the interleaved schedule with 1 virtual stage is plain 1F1B; use 2 or more"),
            kWarning);
    const int64_t layers = modelLayers(s.model);
    const int64_t chunks = int64_t(p.pipeline) * p.virtual_stages;
    if (layers > 0 && chunks > layers)
        add(issues, "parallel.pipeline",
            QCoreApplication::translate(
                "ControlChecks",
                "pipeline × virtual stages = %1 × %2 = %3 stages, but the model has %4 layers")
                .arg(p.pipeline)
                .arg(p.virtual_stages)
                .arg(chunks)
                .arg(layers));
    if (s.training.framework != kFrameworkAuto) {
        if (const auto finding = frameworkRejects(s.training.stack, p))
            add(issues, "training.framework", frameworkFindingText(s.training.stack, *finding));
    }
    const TrainingSpec &t = s.training;
    if (p.schedule == Schedule::Interleaved && p.virtual_stages > 1 && data > 0 &&
        t.global_batch > 0) {
        const int64_t micro = t.micro_batch > 0 ? t.micro_batch : t.global_batch / data;
        if (micro > 0 && t.global_batch % (micro * data) == 0) {
            const int64_t microBatches = t.global_batch / (micro * data);
            if (microBatches % p.pipeline != 0)
                add(issues, "parallel.virtual_stages",
                    QCoreApplication::translate(
                        "ControlChecks",
                        "the interleaved schedule needs the %1 micro-batches per step to be a "
                        "multiple of pipeline = %2")
                        .arg(microBatches)
                        .arg(p.pipeline));
        }
    }
}

void checkModel(const Scenario &s, QList<ControlIssue> &issues)
{
    const TransformerSpec &dims = s.model.transformer;
    if (s.model.kind == ModelSpec::Kind::Transformer && dims.heads > 0 &&
        dims.hidden % dims.heads != 0)
        add(issues, "model.transformer",
            QCoreApplication::translate(
                "ControlChecks", "hidden size %1 is not a multiple of the %2 attention heads")
                .arg(dims.hidden)
                .arg(dims.heads));
    const GpuSpec &gpu = s.hardware.gpu;
    if (gpu.peak(s.training.precision) <= 0)
        add(issues, "training.precision",
            QCoreApplication::translate("ControlChecks", "%1 is not supported by the %2")
                .arg(QString::fromLatin1(precisionName(s.training.precision)).toUpper(),
                     QString::fromStdString(gpu.name)));
}

void checkThermal(const ThermalSpec &th, int gpus, QList<ControlIssue> &issues)
{
    if (th.steady_c && *th.steady_c < th.ambient_c)
        add(issues, "effects.thermal.steady_c",
            QCoreApplication::translate(
                "ControlChecks",
                "steady state %1 °C is below the ambient %2 °C: a GPU under load does not end up "
                "cooler than its intake air")
                .arg(*th.steady_c)
                .arg(th.ambient_c));
    std::vector<bool> listed(size_t(std::max(gpus, 0)), false);
    for (const ThermalGpuSpec &g : th.gpus) {
        if (g.gpu < 0 || g.gpu >= gpus) {
            add(issues, "effects.thermal.gpus",
                QCoreApplication::translate(
                    "ControlChecks",
                    "GPU %1 with its own cooling does not exist: the GPUs are numbered 0-%2")
                    .arg(g.gpu)
                    .arg(gpus - 1));
            continue;
        }
        if (listed[size_t(g.gpu)])
            add(issues, "effects.thermal.gpus",
                QCoreApplication::translate(
                    "ControlChecks",
                    "GPU %1 is listed twice; each GPU has one steady-state temperature")
                    .arg(g.gpu));
        listed[size_t(g.gpu)] = true;
        if (g.steady_c < th.ambient_c)
            add(issues, "effects.thermal.gpus",
                QCoreApplication::translate(
                    "ControlChecks", "GPU %1's steady state %2 °C is below the ambient %3 °C")
                    .arg(g.gpu)
                    .arg(g.steady_c)
                    .arg(th.ambient_c));
    }
    // Whether any GPU ever gets past the threshold (GPUs not listed settle at steadyC(-1)).
    const bool someUnlisted = std::find(listed.begin(), listed.end(), false) != listed.end();
    double hottestC = someUnlisted ? th.steadyC(-1) : -1e9;
    for (const ThermalGpuSpec &g : th.gpus)
        if (g.gpu >= 0 && g.gpu < gpus)
            hottestC = std::max(hottestC, g.steady_c);
    if (hottestC <= th.throttle_above_c)
        add(issues, "effects.thermal.throttle_above_c",
            QCoreApplication::translate(
                "ControlChecks",
                "no GPU gets hotter than %1 °C, the throttling threshold is %2 °C: thermal "
                "throttling has no effect")
                .arg(hottestC)
                .arg(th.throttle_above_c),
            kWarning);
}

void checkFailures(const FailureSpec &f, int gpus, QList<ControlIssue> &issues)
{
    const double systemMtbfS = f.mtbf_hours_per_gpu * 3600.0 / std::max(1, gpus);
    // Without a size the checkpoint holds the model states, which only the plan knows.
    const double writeS =
        f.checkpoint_bytes > 0 ? f.checkpoint_bytes / (f.checkpoint_write_gbps * 1e9) : 0;
    if (f.checkpoint_interval_s > 0 && f.checkpoint_interval_s < writeS)
        add(issues, "effects.failures.checkpoint_interval_s",
            QCoreApplication::translate(
                "ControlChecks",
                "a checkpoint every %1 s, but writing one takes %2 s (%3 GB at %4 GB/s): more "
                "time goes to checkpoints than to training")
                .arg(f.checkpoint_interval_s)
                .arg(writeS)
                .arg(f.checkpoint_bytes / 1e9)
                .arg(f.checkpoint_write_gbps),
            kWarning);
    else if (f.checkpoint_interval_s > systemMtbfS)
        add(issues, "effects.failures.checkpoint_interval_s",
            QCoreApplication::translate(
                "ControlChecks",
                "a checkpoint every %1 s, but with %2 GPUs one fails every %3 s on average: most "
                "work between checkpoints is lost")
                .arg(f.checkpoint_interval_s)
                .arg(gpus)
                .arg(systemMtbfS),
            kWarning);
    if (f.restart_s + writeS >= systemMtbfS)
        add(issues, "effects.failures.mtbf_hours_per_gpu",
            QCoreApplication::translate(
                "ControlChecks",
                "with %1 GPUs one fails every %2 s on average, before a restart and a checkpoint "
                "(%3 s) are done: the job hardly progresses")
                .arg(gpus)
                .arg(systemMtbfS)
                .arg(f.restart_s + writeS),
            kWarning);
}

void checkEffects(const Scenario &s, QList<ControlIssue> &issues)
{
    const EffectsSpec &e = s.effects;
    const int gpus = s.hardware.gpuCount();
    for (size_t i = 0; i < e.stragglers.size(); ++i) {
        const int gpu = e.stragglers[i].gpu;
        if (gpu < 0 || gpu >= gpus)
            add(issues, "effects.stragglers",
                QCoreApplication::translate(
                    "ControlChecks", "straggler GPU %1 does not exist: the GPUs are numbered 0-%2")
                    .arg(gpu)
                    .arg(gpus - 1));
    }
    if (e.data_loader.enabled && e.data_loader.workers_per_gpu == 0)
        add(issues, "effects.data_loader",
            QCoreApplication::translate("ControlChecks",
                                        "0 workers: the training process loads each batch "
                                        "itself, one at a time (PyTorch num_workers = 0)"),
            kWarning);
    if (e.thermal.enabled)
        checkThermal(e.thermal, gpus, issues);
    if (e.failures.enabled)
        checkFailures(e.failures, gpus, issues);
}

} // namespace

int64_t modelLayers(const ModelSpec &model)
{
    switch (model.kind) {
    case ModelSpec::Kind::Transformer:
        return model.transformer.layers;
    case ModelSpec::Kind::LayerTable:
        return static_cast<int64_t>(model.table.size());
    case ModelSpec::Kind::Custom:
        break;
    }
    return model.custom.layers;
}

/// Hardware that cannot be bought: GeForce boards have no NVLink ports and so no NVSwitch
/// (NVIDIA has shipped NVLink on GeForce only as the RTX 3090's two-card bridge); a bridge
/// joins two cards; AMD Instinct GPUs use Infinity Fabric, not NVLink.
void checkHardware(const Scenario &s, QList<ControlIssue> &issues)
{
    const HardwareSpec &hw = s.hardware;
    const QString gpu = QString::fromStdString(hw.gpu.name);
    const QString link = QString::fromStdString(hw.intra.name);
    const bool geforce = !hw.gpu.pcie_p2p && hw.gpu.family != GpuFamily::CDNA3;
    if (geforce && hw.intra.kind == LinkKind::NVLinkSwitched)
        add(issues, "hardware.intra_node",
            QCoreApplication::translate("ControlChecks",
                                        "%1 has no NVLink: GeForce cards connect over PCIe, so "
                                        "\"%2\" cannot exist in this machine")
                .arg(gpu, link),
            kWarning);
    if (hw.gpu.family == GpuFamily::CDNA3 && (hw.intra.kind == LinkKind::NVLinkSwitched ||
                                              hw.intra.kind == LinkKind::NVLinkBridge))
        add(issues, "hardware.intra_node",
            QCoreApplication::translate("ControlChecks",
                                        "%1 is an AMD GPU: its GPUs connect over Infinity "
                                        "Fabric, not \"%2\"")
                .arg(gpu, link),
            kWarning);
    const std::string measured = calibrationGpuMismatch(hw);
    if (!measured.empty())
        add(issues, "hardware.calibration",
            QCoreApplication::translate("ControlChecks",
                                        "the profile was measured on %1, not on %2: its figures "
                                        "would replace this GPU's; choose a profile of the same "
                                        "GPU or none")
                .arg(QString::fromStdString(measured), gpu));
    if (hw.intra.kind == LinkKind::NVLinkBridge && hw.gpus_per_node > 2)
        add(issues, "hardware.intra_node",
            QCoreApplication::translate("ControlChecks",
                                        "an NVLink bridge joins two cards; with %1 GPUs per "
                                        "node the others talk over PCIe")
                .arg(hw.gpus_per_node),
            kWarning);
}

QList<ControlIssue> checkScenario(const Scenario &scenario)
{
    QList<ControlIssue> issues;
    checkHardware(scenario, issues);
    if (!scenario.isCollective()) {
        int64_t data = 0;
        checkDegrees(scenario, issues, data);
        checkBatch(scenario, data, issues);
        checkPipeline(scenario, data, issues);
        checkModel(scenario, issues);
    }
    checkEffects(scenario, issues);
    return issues;
}

} // namespace scalescope
