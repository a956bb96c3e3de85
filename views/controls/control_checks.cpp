#include "controls/control_checks.h"

#include "plan/framework_rules.h"
#include "plan/rules.h"

#include <QCoreApplication>

#include <algorithm>
#include <vector>

namespace scalescope
{

namespace
{

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
        return QCoreApplication::translate("ControlChecks", "%1 runs ZeRO stages up to %2, not %3")
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
    case Kind::Context:
        return QCoreApplication::translate("ControlChecks",
                                           "%1 has no context parallelism (context = %2); use "
                                           "context 1 or Megatron-Core, torchtitan or DeepSpeed")
            .arg(who)
            .arg(x.value);
    case Kind::Expert:
        return QCoreApplication::translate("ControlChecks",
                                           "%1 has no expert parallelism (expert = %2); use "
                                           "expert 1 or Megatron-Core, torchtitan or DeepSpeed")
            .arg(who)
            .arg(x.value);
    case Kind::Async:
        break;
    }
    return QCoreApplication::translate("ControlChecks", "%1 has no asynchronous updates; use sync")
        .arg(who);
}

/// A finding of the rule table (plan/rules.h) in the reader's language, naming its values.
QString findingText(const RuleFinding &f)
{
    const RuleFigures &a = f.at;
    const auto q = [](const std::string &name) { return QString::fromStdString(name); };
    switch (f.rule) {
    case Rule::TooManyGpus:
        return QCoreApplication::translate("ControlChecks",
                                           "%1 nodes × %2 GPUs per node = %3 GPUs; at most %4 GPUs")
            .arg(a.nodes)
            .arg(a.gpus_per_node)
            .arg(a.gpus)
            .arg(a.max_gpus);
    case Rule::CalibrationOtherGpu:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "the profile was measured on %1, not on %2: its figures would replace this "
                   "GPU's; choose a profile of the same GPU or none")
            .arg(q(a.measured_gpu), q(a.gpu_name));
    case Rule::CalibrationOtherCluster:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "the profile's collectives ran on %1 × %2 GPUs, this cluster is %3 × %4: their "
                   "bus bandwidths stand for another cluster's links")
            .arg(a.profile_nodes)
            .arg(a.profile_gpus_per_node)
            .arg(a.nodes)
            .arg(a.gpus_per_node);
    case Rule::GeForceWithNVLink:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "%1 has no NVLink: GeForce cards connect over PCIe, so \"%2\" cannot exist in "
                   "this machine")
            .arg(q(a.gpu_name), q(a.link_name));
    case Rule::AmdWithNVLink:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "%1 is an AMD GPU: its GPUs connect over Infinity Fabric, not \"%2\"")
            .arg(q(a.gpu_name), q(a.link_name));
    case Rule::BridgeBeyondTwo:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "an NVLink bridge joins two cards; with %1 GPUs per node the others talk over "
                   "PCIe")
            .arg(a.gpus_per_node);
    case Rule::DegreesProduct:
        if (a.context > 1)
            return QCoreApplication::translate(
                       "ControlChecks",
                       "data × tensor × pipeline × context = %1 × %2 × %3 × %4 = %5, but the "
                       "cluster has %6 GPUs")
                .arg(a.data)
                .arg(a.tensor)
                .arg(a.pipeline)
                .arg(a.context)
                .arg(a.product)
                .arg(a.gpus);
        return QCoreApplication::translate(
                   "ControlChecks",
                   "data × tensor × pipeline = %1 × %2 × %3 = %4, but the cluster has %5 GPUs "
                   "(%6 nodes × %7 GPUs per node)")
            .arg(a.data)
            .arg(a.tensor)
            .arg(a.pipeline)
            .arg(a.product)
            .arg(a.gpus)
            .arg(a.nodes)
            .arg(a.gpus_per_node);
    case Rule::TensorDividesGpus:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "tensor = %1 does not divide the %2 GPUs, so the data degree (auto) would not "
                   "be whole")
            .arg(a.tensor)
            .arg(a.gpus);
    case Rule::ExpertNeedsMoe:
        return QCoreApplication::translate(
            "ControlChecks", "expert parallelism splits routed experts, and this model has none");
    case Rule::ExpertsDivide:
        return QCoreApplication::translate(
                   "ControlChecks", "expert = %1 does not divide the model's %2 routed experts")
            .arg(a.expert)
            .arg(a.experts);
    case Rule::ExpertFolding:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "expert tensor × expert = %1 × %2 = %3 must divide tensor × context × data = "
                   "%4 (the experts fold onto the same GPUs)")
            .arg(a.expert_tensor)
            .arg(a.expert)
            .arg(a.expert_product)
            .arg(a.product);
    case Rule::ContextNeedsSequence:
        return QCoreApplication::translate(
            "ControlChecks", "context parallelism splits a sequence, and this model has none");
    case Rule::ContextDividesSequence:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "context = %1 needs the sequence length %2 to be a multiple of %3 (two chunks "
                   "per GPU balance causal attention)")
            .arg(a.context)
            .arg(a.seq_len)
            .arg(2 * a.context);
    case Rule::ScheduleNeedsPipeline:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "the %1 schedule puts two model chunks on each stage and needs 2 or more "
                   "pipeline stages")
            .arg(q(a.schedule));
    case Rule::ScheduleMicroBatches:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "the %1 schedule needs at least %2 micro-batches per step with %3 stages, got "
                   "%4")
            .arg(q(a.schedule))
            .arg(a.product)
            .arg(a.pipeline)
            .arg(a.micro_batches);
    case Rule::BlockFormatUnsupported:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "%1 is a Blackwell tensor-core format; %2 has none (use fp8 or bf16)")
            .arg(q(a.precision), q(a.gpu_name));
    case Rule::ModelParallelDividesGpus:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "tensor × pipeline = %1 × %2 = %3 does not divide the %4 GPUs, so the data "
                   "degree (auto) would not be whole")
            .arg(a.tensor)
            .arg(a.pipeline)
            .arg(a.product)
            .arg(a.gpus);
    case Rule::TensorBeyondNode:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "tensor = %1 is more than the %2 GPUs per node: its all-reduces cross the "
                   "inter-node network (allowed, but slow)")
            .arg(a.tensor)
            .arg(a.gpus_per_node);
    case Rule::HeadsDivideHidden:
        return QCoreApplication::translate("ControlChecks",
                                           "heads = %1 does not divide the hidden size %2")
            .arg(a.heads)
            .arg(a.hidden);
    case Rule::TensorDividesHeads:
        return QCoreApplication::translate(
                   "ControlChecks", "tensor = %1 does not divide the model's %2 attention heads")
            .arg(a.tensor)
            .arg(a.heads);
    case Rule::SequenceParallelAlone:
        return QCoreApplication::translate(
            "ControlChecks",
            "sequence parallelism works inside a tensor-parallel group; with tensor = 1 it "
            "has no effect");
    case Rule::AsyncWithZero:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "asynchronous updates cannot shard the optimizer (ZeRO stage %1): every "
                   "replica's gradients are needed each step; use sync or ZeRO 0")
            .arg(a.zero);
    case Rule::VirtualNeedsInterleaved:
        return QCoreApplication::translate("ControlChecks",
                                           "%1 virtual stages need the interleaved schedule")
            .arg(a.virtual_stages);
    case Rule::InterleavedOneChunk:
        return QCoreApplication::translate(
            "ControlChecks",
            "the interleaved schedule with 1 virtual stage is plain 1F1B; use 2 or more");
    case Rule::StagesExceedLayers:
        if (a.product > 0)
            return QCoreApplication::translate(
                       "ControlChecks",
                       "pipeline × virtual stages = %1 × %2 = %3 stages, but the model has %4 "
                       "layers; counting the embedding and the loss as pipeline layers "
                       "(Megatron) gives %5")
                .arg(a.pipeline)
                .arg(a.virtual_stages)
                .arg(a.stages)
                .arg(a.layers)
                .arg(a.product);
        return QCoreApplication::translate(
                   "ControlChecks",
                   "pipeline × virtual stages = %1 × %2 = %3 stages, but the model has %4 layers")
            .arg(a.pipeline)
            .arg(a.virtual_stages)
            .arg(a.stages)
            .arg(a.layers);
    case Rule::OffloadBeyondLayers:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "%1 layers offloaded leave none on the GPU: the model has %2 transformer layers")
            .arg(a.product)
            .arg(a.layers);
    case Rule::OffloadWithPipeline:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "activation offloading runs without pipeline parallelism, and pipeline = %1")
            .arg(a.pipeline);
    case Rule::OffloadWithRecompute:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "activation offloading runs without activation recompute, and recompute = %1")
            .arg(QString::fromStdString(a.recompute));
    case Rule::RecomputeModulesNeedSelective:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "recompute modules refine selective recompute, and recompute = %1")
            .arg(QString::fromStdString(a.recompute));
    case Rule::RecomputeModulesStack:
        return QCoreApplication::translate(
                   "ControlChecks", "recompute modules are Megatron-Core's, and the stack is %1")
            .arg(QString::fromStdString(a.stack_id));
    case Rule::RecomputeModuleUnused:
        return QCoreApplication::translate("ControlChecks",
                                           "recompute module %1 names no part of this model")
            .arg(QString::fromStdString(a.module));
    case Rule::InterleavedMicroBatches:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "the interleaved schedule needs the %1 micro-batches per step to be a multiple "
                   "of pipeline = %2")
            .arg(a.micro_batches)
            .arg(a.pipeline);
    case Rule::StackCannotRun: {
        FrameworkSpec stack;
        stack.id = a.stack_id;
        stack.name = a.stack_name;
        return frameworkFindingText(stack, f.framework.value_or(FrameworkFinding{}));
    }
    case Rule::BatchEmpty:
        return QCoreApplication::translate(
                   "ControlChecks", "a global batch of %1 samples trains nothing; use at least 1")
            .arg(a.global_batch);
    case Rule::BatchDividesData:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "global batch %1 does not split evenly over %2 data-parallel replicas")
            .arg(a.global_batch)
            .arg(a.data);
    case Rule::MicroBatchDividesStep:
        if (a.data != 0 && a.global_batch % a.data != 0)
            return QCoreApplication::translate(
                       "ControlChecks",
                       "global batch %1 does not split evenly over %2 data-parallel replicas")
                .arg(a.global_batch)
                .arg(a.data);
        return QCoreApplication::translate(
                   "ControlChecks",
                   "micro-batch %1 does not divide the per-replica batch %2 / %3 = %4")
            .arg(a.micro_batch)
            .arg(a.global_batch)
            .arg(a.data)
            .arg(a.data != 0 ? a.global_batch / a.data : 0);
    case Rule::PrecisionUnsupported:
        return QCoreApplication::translate("ControlChecks", "%1 is not supported by the %2")
            .arg(q(a.precision).toUpper(), q(a.gpu_name));
    case Rule::StragglerMissing:
        return QCoreApplication::translate(
                   "ControlChecks", "straggler GPU %1 does not exist: the GPUs are numbered 0-%2")
            .arg(a.gpu)
            .arg(a.gpus - 1);
    case Rule::StragglerTwice:
        return QCoreApplication::translate(
                   "ControlChecks", "straggler GPU %1 is listed twice; each GPU has one slowdown")
            .arg(a.gpu);
    case Rule::ThermalGpuMissing:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "GPU %1 with its own cooling does not exist: the GPUs are numbered 0-%2")
            .arg(a.gpu)
            .arg(a.gpus - 1);
    case Rule::ThermalGpuTwice:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "GPU %1 is listed twice; each GPU has one steady-state temperature")
            .arg(a.gpu);
    case Rule::SteadyBelowAmbient:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "steady state %1 °C is below the ambient %2 °C: a GPU under load does not end "
                   "up cooler than its intake air")
            .arg(a.steady_c)
            .arg(a.ambient_c);
    case Rule::GpuSteadyBelowAmbient:
        return QCoreApplication::translate("ControlChecks",
                                           "GPU %1's steady state %2 °C is below the ambient %3 °C")
            .arg(a.gpu)
            .arg(a.steady_c)
            .arg(a.ambient_c);
    case Rule::ThermalNeverThrottles:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "no GPU gets hotter than %1 °C, the throttling threshold is %2 °C: thermal "
                   "throttling has no effect")
            .arg(a.hottest_c)
            .arg(a.throttle_c);
    case Rule::LoaderInProcess:
        return QCoreApplication::translate(
            "ControlChecks",
            "0 workers: the training process loads each batch itself, one at a time "
            "(PyTorch num_workers = 0)");
    case Rule::CheckpointOutlastsGap:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "a checkpoint every %1 s, but writing one takes %2 s (%3 GB at %4 GB/s): more "
                   "time goes to checkpoints than to training")
            .arg(a.interval_s)
            .arg(a.write_s)
            .arg(a.checkpoint_gb)
            .arg(a.write_gbps);
    case Rule::CheckpointBeyondMtbf:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "a checkpoint every %1 s, but with %2 GPUs one fails every %3 s on average: "
                   "most work between checkpoints is lost")
            .arg(a.interval_s)
            .arg(a.gpus)
            .arg(a.mtbf_s);
    case Rule::FailuresOutpaceRestart:
        return QCoreApplication::translate(
                   "ControlChecks",
                   "with %1 GPUs one fails every %2 s on average, before a restart and a "
                   "checkpoint (%3 s) are done: the job hardly progresses")
            .arg(a.gpus)
            .arg(a.mtbf_s)
            .arg(a.recovery_s);
    }
    return QString::fromStdString(ruleMessage(f));
}

} // namespace

QList<ControlIssue> checkScenario(const Scenario &scenario)
{
    QList<ControlIssue> issues;
    for (const RuleFinding &f : checkRules(scenario))
        issues.append(ControlIssue{QString::fromStdString(f.path), findingText(f),
                                   f.severity == RuleSeverity::Error
                                       ? ControlIssue::Severity::Error
                                       : ControlIssue::Severity::Warning,
                                   f});
    return issues;
}

} // namespace scalescope
