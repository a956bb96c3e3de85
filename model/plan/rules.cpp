#include "plan/rules.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace scalescope
{

namespace
{

/// Whole numbers as integers, others at their shortest exact form; std::to_chars never
/// reads the locale.
std::string num(double v)
{
    if (std::isfinite(v) && v == std::trunc(v) && std::abs(v) < 1e15)
        return std::to_string(static_cast<int64_t>(v));
    char buf[32];
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string indexPath(const std::string &list, size_t i)
{
    return list + "[" + std::to_string(i) + "]";
}

class Checker
{
public:
    explicit Checker(const Scenario &s) : s_(s) {}

    std::vector<RuleFinding> run()
    {
        hardware();
        if (!s_.isCollective()) {
            const int64_t data = degrees();
            batch(data);
            pipeline(data);
            offload();
            recomputeModules();
            stack();
        }
        effects();
        return std::move(out_);
    }

private:
    void add(Rule rule, std::string path, RuleFigures at = {},
             RuleSeverity severity = RuleSeverity::Error)
    {
        out_.push_back(RuleFinding{rule, severity, std::move(path), std::move(at), {}});
    }
    void warn(Rule rule, std::string path, RuleFigures at = {})
    {
        add(rule, std::move(path), std::move(at), RuleSeverity::Warning);
    }

    /// Hardware that cannot be bought: GeForce boards have no NVLink ports and so no NVSwitch
    /// (NVIDIA has shipped NVLink on GeForce only as the RTX 3090's two-card bridge); a bridge
    /// joins two cards; AMD Instinct GPUs use Infinity Fabric, not NVLink.
    void hardware()
    {
        const HardwareSpec &hw = s_.hardware;
        const int64_t gpus = int64_t(hw.nodes) * hw.gpus_per_node;
        if (gpus > kMaxGpuCount)
            add(Rule::TooManyGpus, "hardware.nodes",
                {.nodes = hw.nodes, .gpus_per_node = hw.gpus_per_node, .gpus = gpus,
                 .max_gpus = kMaxGpuCount});
        const std::string measured = calibrationGpuMismatch(hw);
        if (!measured.empty())
            add(Rule::CalibrationOtherGpu, "hardware.calibration",
                {.gpu_name = hw.gpu.name, .measured_gpu = measured});
        // A profile's collectives describe the links of the cluster they ran on: applied to
        // another shape (8 GPUs on NVLink for 2 nodes of 4 on Ethernet) their bus bandwidths
        // stand for links this cluster does not have (issue 26).
        if (const CalibrationProfile *p = hw.calibration.get();
            p && p->nodes > 0 && p->gpus_per_node > 0 &&
            std::any_of(p->collectives.begin(), p->collectives.end(),
                        [](const ProfileCollective &c) { return c.gpus > 1; }) &&
            (p->nodes != hw.nodes || p->gpus_per_node != hw.gpus_per_node))
            warn(Rule::CalibrationOtherCluster, "hardware.calibration",
                 {.nodes = hw.nodes, .gpus_per_node = hw.gpus_per_node,
                  .profile_nodes = p->nodes, .profile_gpus_per_node = p->gpus_per_node});
        const bool geforce = !hw.gpu.pcie_p2p && hw.gpu.family != GpuFamily::CDNA3;
        if (geforce && hw.intra.kind == LinkKind::NVLinkSwitched)
            warn(Rule::GeForceWithNVLink, "hardware.intra_node",
                 {.gpu_name = hw.gpu.name, .link_name = hw.intra.name});
        if (hw.gpu.family == GpuFamily::CDNA3 &&
            (hw.intra.kind == LinkKind::NVLinkSwitched || hw.intra.kind == LinkKind::NVLinkBridge))
            warn(Rule::AmdWithNVLink, "hardware.intra_node",
                 {.gpu_name = hw.gpu.name, .link_name = hw.intra.name});
        if (hw.intra.kind == LinkKind::NVLinkBridge && hw.gpus_per_node > 2)
            warn(Rule::BridgeBeyondTwo, "hardware.intra_node", {.gpus_per_node = hw.gpus_per_node});
    }

    /// The data-parallel degree the plan implies (0 when the degrees do not divide the GPUs).
    int64_t degrees()
    {
        const ParallelSpec &p = s_.parallel;
        const HardwareSpec &hw = s_.hardware;
        const int64_t gpus = hw.gpuCount();
        const int64_t mp = int64_t(p.tensor) * p.pipeline * p.context;
        int64_t data = 0;
        if (p.data > 0) {
            if (p.data * mp != gpus)
                add(Rule::DegreesProduct, "parallel",
                    {.nodes = hw.nodes, .gpus_per_node = hw.gpus_per_node, .gpus = gpus,
                     .data = p.data, .tensor = p.tensor, .pipeline = p.pipeline,
                     .context = p.context, .product = p.data * mp});
            else
                data = p.data;
        } else if (p.tensor <= 0 || gpus % p.tensor != 0) {
            add(Rule::TensorDividesGpus, "parallel.tensor", {.gpus = gpus, .tensor = p.tensor});
        } else if (mp <= 0 || gpus % mp != 0) {
            add(Rule::ModelParallelDividesGpus, "parallel.pipeline",
                {.gpus = gpus, .tensor = p.tensor, .pipeline = p.pipeline, .context = p.context,
                 .product = mp});
        } else {
            data = gpus / mp;
        }
        if (p.tensor > hw.gpus_per_node)
            warn(Rule::TensorBeyondNode, "parallel.tensor",
                 {.gpus_per_node = hw.gpus_per_node, .tensor = p.tensor});
        const int64_t heads = s_.model.transformer.heads;
        const int64_t hidden = s_.model.transformer.hidden;
        // Each head takes hidden / heads of the width (Vaswani et al. 2017, Sec. 3.2.2).
        if (s_.model.kind == ModelSpec::Kind::Transformer && heads > 0 && hidden > 0 &&
            hidden % heads != 0)
            add(Rule::HeadsDivideHidden, "model.transformer.heads",
                {.heads = heads, .hidden = hidden});
        if (s_.model.kind == ModelSpec::Kind::Transformer && heads > 0 && p.tensor > 0 &&
            heads % p.tensor != 0)
            add(Rule::TensorDividesHeads, "parallel.tensor", {.tensor = p.tensor, .heads = heads});
        if (p.sequence_parallel && p.tensor == 1)
            warn(Rule::SequenceParallelAlone, "parallel.sequence_parallel");
        if (p.update == UpdateMode::Async && p.zero > 0)
            add(Rule::AsyncWithZero, "parallel.update", {.zero = p.zero});
        expertsAndContext(data);
        return data;
    }

    /// Expert and context parallelism (spec/scenario.md, "parallel"): experts fold onto the
    /// GPUs of the dense layers (Megatron-Core parallel folding, Liu et al. 2025, "MoE Parallel
    /// Folding", Sec. 3): tensor*context*data a multiple of expert_tensor*expert, and the
    /// routed experts split evenly; a sequence splits into 2*context chunks for causal load
    /// balance (Megatron-Core context parallelism: sequence length divisible by 2*CP).
    void expertsAndContext(int64_t data)
    {
        const ParallelSpec &p = s_.parallel;
        const bool transformer = s_.model.kind == ModelSpec::Kind::Transformer;
        const MoeSpec &moe = s_.model.transformer.moe;
        if (p.expert > 1 || p.expert_tensor > 1) {
            if (!transformer || !moe.enabled()) {
                add(Rule::ExpertNeedsMoe, p.expert > 1 ? "parallel.expert" : "parallel.expert_tensor",
                    {.expert = std::max(p.expert, p.expert_tensor)});
            } else if (moe.experts % p.expert != 0) {
                add(Rule::ExpertsDivide, "parallel.expert",
                    {.expert = p.expert, .experts = moe.experts});
            } else if (data > 0) {
                const int64_t dense = int64_t(p.tensor) * p.context * data;
                const int64_t ep = int64_t(p.expert) * p.expert_tensor;
                if (dense % ep != 0)
                    add(Rule::ExpertFolding, "parallel.expert_tensor",
                        {.data = data, .tensor = p.tensor, .context = p.context, .expert = p.expert,
                         .expert_tensor = p.expert_tensor, .expert_product = ep, .product = dense});
            }
        }
        if (p.context > 1) {
            if (!transformer)
                add(Rule::ContextNeedsSequence, "parallel.context", {.context = p.context});
            else if (s_.model.transformer.seq_len % (2 * p.context) != 0)
                add(Rule::ContextDividesSequence, "parallel.context",
                    {.context = p.context, .seq_len = s_.model.transformer.seq_len});
        }
    }

    void batch(int64_t data)
    {
        const TrainingSpec &t = s_.training;
        const GpuSpec &gpu = s_.hardware.gpu;
        if (gpu.peak(t.precision) <= 0) {
            std::string supported;
            for (int i = 0; i < kPrecisionCount; ++i) {
                const auto p = static_cast<Precision>(i);
                if (gpu.peak(p) > 0)
                    supported += (supported.empty() ? "" : ", ") + std::string(precisionName(p));
            }
            add(Rule::PrecisionUnsupported, "training.precision",
                {.gpu_name = gpu.name, .precision = precisionName(t.precision),
                 .supported = supported});
        } else if (t.block_format != BlockFormat::None && gpu.family != GpuFamily::Blackwell) {
            // MXFP8 and NVFP4 are Blackwell tensor-core formats (NVIDIA Blackwell
            // architecture technical brief, "fifth-generation Tensor Cores"; Transformer
            // Engine docs: MXFP8 and NVFP4 recipes need compute capability 10.0).
            add(Rule::BlockFormatUnsupported, "training.precision",
                {.gpu_name = gpu.name, .precision = blockFormatName(t.block_format)});
        }
        if (t.global_batch < 1)
            add(Rule::BatchEmpty, "training.global_batch", {.global_batch = t.global_batch});
        if (data <= 0 || t.global_batch < 1)
            return;
        if (t.micro_batch <= 0) {
            if (t.global_batch % data != 0)
                add(Rule::BatchDividesData, "training.global_batch",
                    {.data = data, .global_batch = t.global_batch});
            return;
        }
        const int64_t perStep = t.micro_batch * data;
        if (t.global_batch % perStep != 0)
            add(Rule::MicroBatchDividesStep, "training.micro_batch",
                {.data = data, .product = perStep, .global_batch = t.global_batch,
                 .micro_batch = t.micro_batch});
    }

    void pipeline(int64_t data)
    {
        const ParallelSpec &p = s_.parallel;
        const TrainingSpec &t = s_.training;
        if (p.virtual_stages > 1 && p.schedule != Schedule::Interleaved)
            add(Rule::VirtualNeedsInterleaved, "parallel.virtual_stages",
                {.virtual_stages = p.virtual_stages, .schedule = scheduleName(p.schedule)});
        if (p.schedule == Schedule::Interleaved && p.pipeline > 1 && p.virtual_stages == 1)
            warn(Rule::InterleavedOneChunk, "parallel.virtual_stages");
        const int64_t layers = modelLayerCount(s_.model) + (p.pipeline_counts_embedding ? 1 : 0) +
                               (p.pipeline_counts_loss ? 1 : 0);
        const int64_t chunks =
            int64_t(p.pipeline) * std::max(p.virtual_stages, scheduleChunks(p.schedule));
        // The V-shaped and bidirectional schedules place two chunks on each of at least two
        // stages (Qi et al. 2024, "Pipeline Parallelism with Controllable Memory", Sec. 3;
        // DeepSeek-V3 report, Sec. 3.2.1).
        if (scheduleChunks(p.schedule) > 1 && p.pipeline < 2)
            add(Rule::ScheduleNeedsPipeline, "parallel.schedule",
                {.pipeline = p.pipeline, .schedule = scheduleName(p.schedule)});
        // Megatron fills such plans by counting the embedding and the loss as pipeline layers
        // (--account-for-embedding-in-pipeline-split, --account-for-loss-in-pipeline-split:
        // Llama 3.1 405B's 126 layers on 16 x 8 chunks); `product` is that count where the
        // scenario does not count them yet and it would be enough.
        const int64_t counted = modelLayerCount(s_.model) + 2;
        if (layers > 0 && chunks > layers)
            add(Rule::StagesExceedLayers, "parallel.pipeline",
                {.pipeline = p.pipeline,
                 .product = counted > layers && chunks <= counted ? counted : 0,
                 .virtual_stages = p.virtual_stages,
                 .stages = chunks,
                 .layers = layers});
        if (data <= 0 || t.global_batch <= 0)
            return;
        const int64_t micro = t.micro_batch > 0 ? t.micro_batch : t.global_batch / data;
        if (micro <= 0 || t.global_batch % (micro * data) != 0)
            return; // the batch rule has said it
        const int64_t m = t.global_batch / (micro * data);
        // DualPipe feeds micro-batches from both ends of an even number of ranks, at least
        // two per rank (deepseek-ai/DualPipe: num_ranks even, num_chunks >= 2 * num_ranks);
        // ZB-V needs a steady phase (m >= pipeline, Qi et al. 2024, Sec. 3).
        if (p.pipeline >= 2 && p.schedule == Schedule::DualPipe &&
            (p.pipeline % 2 != 0 || m < 2 * p.pipeline || m % 2 != 0))
            add(Rule::ScheduleMicroBatches, "parallel.schedule",
                {.pipeline = p.pipeline, .product = 2 * p.pipeline, .micro_batches = m,
                 .schedule = scheduleName(p.schedule)});
        if (p.pipeline >= 2 && p.schedule == Schedule::ZbV && m < p.pipeline)
            add(Rule::ScheduleMicroBatches, "parallel.schedule",
                {.pipeline = p.pipeline, .product = p.pipeline, .micro_batches = m,
                 .schedule = scheduleName(p.schedule)});
        if (p.schedule != Schedule::Interleaved || p.virtual_stages <= 1)
            return;
        // Megatron-LM restriction of the interleaved schedule (Narayanan et al. SC21 Sec. 2.2.2).
        if (m % p.pipeline != 0)
            add(Rule::InterleavedMicroBatches, "parallel.virtual_stages",
                {.data = data, .pipeline = p.pipeline, .virtual_stages = p.virtual_stages,
                 .global_batch = t.global_batch, .micro_batch = micro, .micro_batches = m});
    }

    /// Activation offloading (training.activation_offload_layers) as Megatron-Core runs it
    /// (megatron/core/transformer/transformer_config.py): fewer layers than the model has,
    /// no pipeline parallelism ("no support for Pipeline parallelism with CPU offloading"),
    /// no activation recompute ("CPU offloading does not work when activation recomputation
    /// is enabled").
    void offload()
    {
        const int64_t n = s_.training.activation_offload_layers;
        if (n <= 0)
            return;
        const int64_t layers = s_.model.kind == ModelSpec::Kind::Transformer
                                   ? int64_t(s_.model.transformer.layers)
                                   : 0;
        if (n >= layers)
            add(Rule::OffloadBeyondLayers, "training.activation_offload_layers",
                {.product = n, .layers = layers});
        else if (s_.parallel.pipeline > 1)
            add(Rule::OffloadWithPipeline, "training.activation_offload_layers",
                {.pipeline = s_.parallel.pipeline});
        else if (s_.training.recompute != Recompute::None)
            add(Rule::OffloadWithRecompute, "training.activation_offload_layers",
                {.recompute = s_.training.recompute == Recompute::Full ? "full" : "selective"});
    }

    /// Megatron-Core's --recompute-modules (transformer_config.py recompute_modules): a
    /// refinement of --recompute-granularity selective, in Megatron-Core only, naming parts
    /// the model has.
    void recomputeModules()
    {
        const TrainingSpec &t = s_.training;
        if (t.recompute_modules == 0)
            return;
        const std::string path = "training.recompute_modules";
        if (t.recompute != Recompute::Selective) {
            add(Rule::RecomputeModulesNeedSelective, path,
                {.recompute = t.recompute == Recompute::Full ? "full" : "none"});
            return;
        }
        const std::string id = stackIdFor(t, s_.parallel);
        if (id != "megatron-core") {
            add(Rule::RecomputeModulesStack, path, {.stack_id = id});
            return;
        }
        if (s_.model.kind != ModelSpec::Kind::Transformer)
            return; // the model's own rules speak first
        const TransformerSpec &ts = s_.model.transformer;
        bool dense = false;
        for (int64_t i = 0; i < ts.layers && !dense; ++i)
            dense = !ts.isMoeLayer(i);
        const auto unused = [&](RecomputeModule m) {
            return (m == RecomputeModule::MlaUpProj && !ts.mla.enabled()) ||
                   (m == RecomputeModule::Mlp && !dense) ||
                   ((m == RecomputeModule::Moe || m == RecomputeModule::MoeAct) &&
                    !ts.moe.enabled()) ||
                   (m == RecomputeModule::SharedExperts &&
                    (!ts.moe.enabled() || ts.moe.shared_experts == 0));
        };
        unsigned usable = 0;
        for (const RecomputeModule m : kRecomputeModules) {
            if (!unused(m))
                usable |= static_cast<unsigned>(m);
        }
        for (const RecomputeModule m : kRecomputeModules) {
            if (hasModule(t.recompute_modules, m) && unused(m)) {
                add(Rule::RecomputeModuleUnused, path,
                    {.supported = recomputeModuleList(usable), .module = recomputeModuleName(m)});
                return;
            }
        }
    }

    void stack()
    {
        const TrainingSpec &t = s_.training;
        // Under "auto" the stack is chosen to fit the plan (plan/framework_rules.h); an id
        // the table lacks is the parser's error.
        const FrameworkSpec *named =
            t.framework == kFrameworkAuto ? nullptr : s_.stacks.find(t.framework);
        if (!named)
            return;
        if (const auto finding = frameworkRejects(*named, s_.parallel)) {
            add(Rule::StackCannotRun, "training.framework",
                {.stack_id = named->id, .stack_name = named->name});
            out_.back().framework = *finding;
        }
    }

    void effects()
    {
        const EffectsSpec &e = s_.effects;
        const int gpus = s_.hardware.gpuCount();
        std::map<int, size_t> seen;
        for (size_t i = 0; i < e.stragglers.size(); ++i) {
            const int gpu = e.stragglers[i].gpu;
            const std::string path = indexPath("effects.stragglers", i) + ".gpu";
            if (gpu < 0 || gpu >= gpus)
                add(Rule::StragglerMissing, path, {.gpus = gpus, .gpu = gpu});
            else if (const auto [at, fresh] = seen.emplace(gpu, i); !fresh)
                add(Rule::StragglerTwice, path,
                    {.gpu = gpu, .earlier_path = indexPath("effects.stragglers", at->second)});
        }
        if (e.thermal.enabled)
            thermal(e.thermal, gpus);
        if (e.data_loader.enabled && e.data_loader.workers_per_gpu == 0)
            warn(Rule::LoaderInProcess, "effects.data_loader");
        if (e.failures.enabled)
            failures(e.failures, gpus);
    }

    void thermal(const ThermalSpec &th, int gpus)
    {
        if (th.steady_c && *th.steady_c < th.ambient_c)
            add(Rule::SteadyBelowAmbient, "effects.thermal.steady_c",
                {.steady_c = *th.steady_c, .ambient_c = th.ambient_c});
        std::map<int, size_t> seen;
        for (size_t i = 0; i < th.gpus.size(); ++i) {
            const ThermalGpuSpec &g = th.gpus[i];
            const std::string path = indexPath("effects.thermal.gpus", i);
            if (g.gpu < 0 || g.gpu >= gpus) {
                add(Rule::ThermalGpuMissing, path + ".gpu", {.gpus = gpus, .gpu = g.gpu});
                continue;
            }
            if (const auto [at, fresh] = seen.emplace(g.gpu, i); !fresh)
                add(Rule::ThermalGpuTwice, path + ".gpu",
                    {.gpu = g.gpu, .earlier_path = indexPath("effects.thermal.gpus", at->second)});
            if (g.steady_c < th.ambient_c)
                add(Rule::GpuSteadyBelowAmbient, path + ".steady_c",
                    {.gpu = g.gpu, .steady_c = g.steady_c, .ambient_c = th.ambient_c});
        }
        // Whether any GPU ever gets past the threshold (GPUs not listed settle at steadyC(-1)).
        const bool someUnlisted = int64_t(seen.size()) < gpus;
        double hottest = someUnlisted ? th.steadyC(-1) : -1e9;
        for (const ThermalGpuSpec &g : th.gpus)
            if (g.gpu >= 0 && g.gpu < gpus)
                hottest = std::max(hottest, g.steady_c);
        if (hottest <= th.throttle_above_c)
            warn(Rule::ThermalNeverThrottles, "effects.thermal.throttle_above_c",
                 {.hottest_c = hottest, .throttle_c = th.throttle_above_c});
    }

    void failures(const FailureSpec &f, int gpus)
    {
        // Young/Daly: the system's MTBF is the per-GPU MTBF over the GPU count.
        const double systemMtbfS = f.mtbf_hours_per_gpu * 3600.0 / std::max(1, gpus);
        // Without a size the checkpoint holds the model states, which only the plan knows.
        const double writeS =
            f.checkpoint_bytes > 0 ? f.checkpoint_bytes / (f.checkpoint_write_gbps * 1e9) : 0;
        const std::string interval = "effects.failures.checkpoint_interval_s";
        if (f.checkpoint_interval_s > 0 && f.checkpoint_interval_s < writeS)
            warn(Rule::CheckpointOutlastsGap, interval,
                 {.interval_s = f.checkpoint_interval_s, .write_s = writeS,
                  .checkpoint_gb = f.checkpoint_bytes / 1e9, .write_gbps = f.checkpoint_write_gbps});
        else if (f.checkpoint_interval_s > systemMtbfS)
            warn(Rule::CheckpointBeyondMtbf, interval,
                 {.gpus = gpus, .interval_s = f.checkpoint_interval_s, .mtbf_s = systemMtbfS});
        if (f.restart_s + writeS >= systemMtbfS)
            warn(Rule::FailuresOutpaceRestart, "effects.failures.mtbf_hours_per_gpu",
                 {.gpus = gpus, .mtbf_s = systemMtbfS, .recovery_s = f.restart_s + writeS});
    }

    const Scenario &s_;
    std::vector<RuleFinding> out_;
};

} // namespace

std::vector<RuleFinding> checkRules(const Scenario &scenario)
{
    return Checker(scenario).run();
}

std::optional<RuleFinding> firstError(const std::vector<RuleFinding> &findings)
{
    for (const RuleFinding &f : findings)
        if (f.severity == RuleSeverity::Error)
            return f;
    return std::nullopt;
}

std::optional<InputError> ruleError(const Scenario &scenario)
{
    if (const auto error = firstError(checkRules(scenario)))
        return InputError{error->path, ruleMessage(*error)};
    return std::nullopt;
}

namespace
{
/// What a recompute module rebuilds, for RecomputeModuleUnused.
std::string moduleNeeds(const std::string &module)
{
    if (module == "mla_up_proj")
        return "it rebuilds multi-head latent attention's up-projections; the model has none";
    if (module == "mlp")
        return "it rebuilds dense layers' MLPs; every layer of the model routes to experts";
    if (module == "shared_experts")
        return "it rebuilds the shared experts; the model has none";
    return "it rebuilds the routed experts; the model has none";
}
} // namespace

std::string ruleMessage(const RuleFinding &f)
{
    const RuleFigures &a = f.at;
    const auto i = [](int64_t x) { return std::to_string(x); };
    const auto gpuCount = "the GPU count nodes*gpus_per_node = " + i(a.gpus);
    switch (f.rule) {
    case Rule::TooManyGpus:
        return "nodes*gpus_per_node = " + i(a.nodes) + "*" + i(a.gpus_per_node) + " = " +
               i(a.gpus) + " GPUs; allowed: at most " + i(a.max_gpus) + " GPUs";
    case Rule::CalibrationOtherGpu:
        return "the profile was measured on \"" + a.measured_gpu + "\", but the scenario's GPU is \"" +
               a.gpu_name + "\"; allowed: a profile of the same GPU model, or no calibration";
    case Rule::CalibrationOtherCluster:
        return "the profile's collectives ran on " + i(a.profile_nodes) + " node(s) of " +
               i(a.profile_gpus_per_node) + " GPUs, the scenario has " + i(a.nodes) + " of " +
               i(a.gpus_per_node) +
               ": their bus bandwidths stand for another cluster's links (measure this one, "
               "or remove the calibration)";
    case Rule::GeForceWithNVLink:
        return a.gpu_name + " has no NVLink: GeForce cards connect over PCIe, so \"" + a.link_name +
               "\" cannot exist in this machine";
    case Rule::AmdWithNVLink:
        return a.gpu_name + " is an AMD GPU: its GPUs connect over Infinity Fabric, not \"" +
               a.link_name + "\"";
    case Rule::BridgeBeyondTwo:
        return "an NVLink bridge joins two cards; with " + i(a.gpus_per_node) +
               " GPUs per node the others talk over PCIe";
    case Rule::DegreesProduct:
        if (a.context > 1)
            return "data*tensor*pipeline*context = " + i(a.data) + "*" + i(a.tensor) + "*" +
                   i(a.pipeline) + "*" + i(a.context) + " = " + i(a.product) + " must equal " +
                   gpuCount;
        return "data*tensor*pipeline = " + i(a.data) + "*" + i(a.tensor) + "*" + i(a.pipeline) +
               " = " + i(a.product) + " must equal " + gpuCount;
    case Rule::ExpertNeedsMoe:
        return "expert parallelism splits routed experts, and this model has none "
               "(model.transformer.moe); allowed: 1";
    case Rule::ExpertsDivide:
        return "expert = " + i(a.expert) + " does not divide the model's " + i(a.experts) +
               " routed experts; allowed: a divisor of " + i(a.experts);
    case Rule::ExpertFolding:
        return "expert_tensor*expert = " + i(a.expert_tensor) + "*" + i(a.expert) + " = " +
               i(a.expert_product) + " must divide tensor*context*data = " + i(a.tensor) + "*" +
               i(a.context) + "*" + i(a.data) + " = " + i(a.product) +
               " (the experts fold onto the dense layers' GPUs); allowed: expert_tensor*expert "
               "dividing " +
               i(a.product);
    case Rule::ContextNeedsSequence:
        return "context parallelism splits a sequence, and this model has none (a transformer "
               "has); allowed: 1";
    case Rule::ContextDividesSequence:
        return "context = " + i(a.context) + " needs the sequence length " + i(a.seq_len) +
               " to be a multiple of 2*context = " + i(2 * a.context) +
               " (two chunks per GPU balance causal attention); allowed: context with 2*context "
               "dividing " +
               i(a.seq_len);
    case Rule::ScheduleNeedsPipeline:
        return "schedule \"" + a.schedule + "\" places two model chunks on each pipeline stage "
               "and needs pipeline >= 2, got " + i(a.pipeline) + "; allowed: 1f1b or gpipe";
    case Rule::ScheduleMicroBatches:
        return "schedule \"" + a.schedule + "\" needs at least " + i(a.product) +
               " micro-batches per step" + (a.schedule == "dualpipe" ? " (an even count, on an even pipeline)" : "") +
               " with pipeline = " + i(a.pipeline) + ", got " + i(a.micro_batches) +
               "; allowed: a larger global_batch, a smaller micro_batch, or 1f1b";
    case Rule::BlockFormatUnsupported:
        return "\"" + a.precision + "\" is a Blackwell tensor-core format and the GPU \"" +
               a.gpu_name + "\" has none; allowed: fp8 or bf16 on this GPU, or a Blackwell GPU";
    case Rule::TensorDividesGpus:
        return "tensor = " + i(a.tensor) + " does not divide " + gpuCount +
               ", so the data-parallel degree would not be whole; allowed: a divisor of " +
               i(a.gpus);
    case Rule::ModelParallelDividesGpus:
        if (a.context > 1)
            return "tensor*pipeline*context = " + i(a.tensor) + "*" + i(a.pipeline) + "*" +
                   i(a.context) + " = " + i(a.product) + " does not divide " + gpuCount +
                   ", so the data-parallel degree would not be whole; allowed: "
                   "tensor*pipeline*context dividing " + i(a.gpus);
        return "tensor*pipeline = " + i(a.tensor) + "*" + i(a.pipeline) + " = " + i(a.product) +
               " does not divide " + gpuCount +
               ", so the data-parallel degree would not be whole; allowed: tensor*pipeline "
               "dividing " +
               i(a.gpus);
    case Rule::TensorBeyondNode:
        return "tensor = " + i(a.tensor) + " is more than the " + i(a.gpus_per_node) +
               " GPUs per node: its all-reduces cross the inter-node network (allowed, but slow)";
    case Rule::HeadsDivideHidden:
        return i(a.heads) + " does not divide hidden = " + i(a.hidden) +
               "; allowed: a divisor of hidden";
    case Rule::TensorDividesHeads:
        return "tensor = " + i(a.tensor) + " does not divide the model's heads = " + i(a.heads) +
               "; allowed: a divisor of " + i(a.heads);
    case Rule::SequenceParallelAlone:
        return "sequence parallelism works inside a tensor-parallel group; with tensor = 1 it "
               "has no effect";
    case Rule::AsyncWithZero:
        return "\"async\" is not allowed with zero = " + i(a.zero) +
               ": sharded optimizer states need every replica's gradients each step; allowed: "
               "sync, or zero 0";
    case Rule::VirtualNeedsInterleaved:
        return i(a.virtual_stages) + " model chunks per GPU need schedule \"interleaved\", got \"" +
               a.schedule + "\"; allowed: 1";
    case Rule::InterleavedOneChunk:
        return "the interleaved schedule with 1 virtual stage is plain 1F1B; use 2 or more";
    case Rule::StagesExceedLayers:
        return "pipeline*virtual_stages = " + i(a.pipeline) + "*" + i(a.virtual_stages) + " = " +
               i(a.stages) + " stages exceed the model's " + i(a.layers) +
               " layers; allowed: at most " + i(a.layers) + " stages in all" +
               (a.product > 0 ? ", or " + i(a.product) +
                                    " with parallel.pipeline_counts_embedding and "
                                    "pipeline_counts_loss true (Megatron's "
                                    "--account-for-embedding/loss-in-pipeline-split)"
                              : std::string());
    case Rule::OffloadBeyondLayers:
        return "activation_offload_layers = " + i(a.product) +
               " leaves no layer's activations on the GPU: the model has " + i(a.layers) +
               " transformer layers; allowed: 0-" + i(std::max<int64_t>(0, a.layers - 1));
    case Rule::OffloadWithPipeline:
        return "activation offloading runs without pipeline parallelism (Megatron-Core), and "
               "pipeline = " +
               i(a.pipeline) + "; allowed: 0 (or pipeline 1)";
    case Rule::OffloadWithRecompute:
        return "activation offloading runs without activation recompute (Megatron-Core), and "
               "recompute = \"" +
               a.recompute + "\"; allowed: 0 (or recompute \"none\")";
    case Rule::RecomputeModulesNeedSelective:
        return "recompute_modules refine selective recompute, and recompute = \"" + a.recompute +
               "\"; allowed: recompute \"selective\" (or no recompute_modules)";
    case Rule::RecomputeModulesStack:
        return "recompute_modules are Megatron-Core's (--recompute-modules), and the stack is \"" +
               a.stack_id + "\"; allowed: framework \"megatron-core\" (or no recompute_modules)";
    case Rule::RecomputeModuleUnused:
        return "\"" + a.module + "\" names no part of this model (" + moduleNeeds(a.module) +
               "); allowed: " + a.supported;
    case Rule::InterleavedMicroBatches:
        return "virtual_stages = " + i(a.virtual_stages) +
               " needs the micro-batches per step, global_batch/(micro_batch*data) = " +
               i(a.global_batch) + "/(" + i(a.micro_batch) + "*" + i(a.data) + ") = " +
               i(a.micro_batches) + ", to be a multiple of pipeline = " + i(a.pipeline) +
               " (Megatron-LM restriction of the interleaved schedule); allowed: 1";
    case Rule::StackCannotRun: {
        FrameworkSpec stack;
        stack.id = a.stack_id;
        stack.name = a.stack_name;
        return frameworkError(stack, f.framework.value_or(FrameworkFinding{})).message;
    }
    case Rule::BatchEmpty:
        return "global_batch = " + i(a.global_batch) + "; allowed: at least 1 sample per step";
    case Rule::BatchDividesData:
        return "global_batch = " + i(a.global_batch) +
               " is not divisible by the data-parallel degree " + i(a.data) +
               " (micro_batch is omitted, so it would be global_batch/data); allowed: a "
               "multiple of " +
               i(a.data) + ", or set training.micro_batch";
    case Rule::MicroBatchDividesStep:
        return "global_batch = " + i(a.global_batch) + " is not a multiple of micro_batch*data = " +
               i(a.micro_batch) + "*" + i(a.data) + " = " + i(a.product) +
               ", so gradient accumulation steps would not be whole; allowed: micro_batch with "
               "micro_batch*data dividing " +
               i(a.global_batch);
    case Rule::PrecisionUnsupported:
        return "\"" + a.precision + "\" is not supported by the GPU \"" + a.gpu_name +
               "\" (its peak_tflops." + a.precision + " is 0); allowed: " + a.supported;
    case Rule::StragglerMissing:
    case Rule::ThermalGpuMissing:
        return "GPU " + i(a.gpu) + " does not exist: the cluster has " + i(a.gpus) +
               " GPUs; allowed: 0 to " + i(a.gpus - 1);
    case Rule::StragglerTwice:
    case Rule::ThermalGpuTwice:
        return "GPU " + i(a.gpu) + " is already listed at " + a.earlier_path +
               "; allowed: each GPU once";
    case Rule::SteadyBelowAmbient:
        return "steady-state temperature " + num(a.steady_c) + " C is below ambient_c = " +
               num(a.ambient_c) + " C; allowed: at least ambient_c";
    case Rule::GpuSteadyBelowAmbient:
        return num(a.steady_c) + " C is below ambient_c = " + num(a.ambient_c) +
               " C; allowed: at least ambient_c";
    case Rule::ThermalNeverThrottles:
        return "no GPU gets hotter than " + num(a.hottest_c) + " C, the throttling threshold is " +
               num(a.throttle_c) + " C: thermal throttling has no effect";
    case Rule::LoaderInProcess:
        return "0 workers: the training process loads each batch itself, one at a time "
               "(PyTorch num_workers = 0)";
    case Rule::CheckpointOutlastsGap:
        return "a checkpoint every " + num(a.interval_s) + " s, but writing one takes " +
               num(a.write_s) + " s (" + num(a.checkpoint_gb) + " GB at " + num(a.write_gbps) +
               " GB/s): more time goes to checkpoints than to training";
    case Rule::CheckpointBeyondMtbf:
        return "a checkpoint every " + num(a.interval_s) + " s, but with " + i(a.gpus) +
               " GPUs one fails every " + num(a.mtbf_s) +
               " s on average: most work between checkpoints is lost";
    case Rule::FailuresOutpaceRestart:
        return "with " + i(a.gpus) + " GPUs one fails every " + num(a.mtbf_s) +
               " s on average, before a restart and a checkpoint (" + num(a.recovery_s) +
               " s) are done: the job hardly progresses";
    }
    return "invalid plan";
}

void fillDerivedPlan(Scenario &s)
{
    if (s.isCollective())
        return;
    ParallelSpec &p = s.parallel;
    if (p.data == 0)
        p.data = static_cast<int>(s.hardware.gpuCount() /
                                  (int64_t(p.tensor) * p.pipeline * p.context));
    if (s.training.micro_batch == 0 && p.data > 0) // (a draft's degrees may not divide)
        s.training.micro_batch = s.training.global_batch / p.data;
}

int64_t modelLayerCount(const ModelSpec &model)
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

} // namespace scalescope
