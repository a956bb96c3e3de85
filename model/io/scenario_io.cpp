// Scenario files (spec/scenario.md): the reader, one function per section with the range of
// each key, and the writer. About 700 lines on purpose: each section's reader and writer sit
// beside the names and ranges they share; the x- keys are in scenario_extensions.cpp.
#include "io/scenario_io.h"

#include "io/file_io.h"

#include "io/input_ranges.h"
#include "io/json_util.h"
#include "io/profile_io.h"
#include "io/scenario_extensions.h"
#include "io/spec_json.h"
#include "plan/framework_rules.h"
#include "plan/rules.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string_view>

namespace scalescope
{

namespace
{

using json::fail;
using json::IntRange;
using json::ObjectReader;
using json::OrderedObject;
using json::RealRange;
using namespace json; // the range table (io/input_ranges.h)

constexpr int kScenarioVersion = 1;
constexpr const char *kDefaultIntraLink = "pcie4";
constexpr const char *kDefaultInterLink = "ib-hdr-200";

constexpr std::array kPcieTopologies = {PcieTopology::Switch, PcieTopology::RootPorts};
constexpr std::array kMemoryFormats = {MemoryFormat::NHWC, MemoryFormat::NCHW};
constexpr std::array kFp8Scalings = {Fp8Scaling::Delayed, Fp8Scaling::Current,
                                     Fp8Scaling::Tensorwise, Fp8Scaling::Rowwise};
constexpr std::array kLoaderPipelines = {LoaderPipeline::Pil, LoaderPipeline::PilSimd,
                                         LoaderPipeline::DaliCpu, LoaderPipeline::DaliGpu};

constexpr std::array kPrecisions = {Precision::FP32, Precision::TF32, Precision::FP16,
                                    Precision::BF16, Precision::FP8};
constexpr std::array kOptimizers = {Optimizer::SGD, Optimizer::Adam};
constexpr std::array kRecomputes = {Recompute::None, Recompute::Selective, Recompute::Full};
constexpr std::array kSchedules = {Schedule::GPipe, Schedule::OneFOneB, Schedule::Interleaved,
                                   Schedule::ZbH1,  Schedule::ZbV,      Schedule::DualPipe};
constexpr std::array kContextAlgorithms = {ContextAlgorithm::Ring, ContextAlgorithm::AllToAll};
constexpr std::array kExpertDispatchers = {ExpertDispatcher::AllToAll, ExpertDispatcher::DeepEP,
                                           ExpertDispatcher::HybridEP};
constexpr std::array kUpdateModes = {UpdateMode::Sync, UpdateMode::Async};
constexpr std::array kCollectiveOps = {CollectiveOp::AllReduce, CollectiveOp::AllGather,
                                       CollectiveOp::ReduceScatter, CollectiveOp::Broadcast,
                                       CollectiveOp::AllToAll};
constexpr std::array kCollectiveAlgos = {CollectiveAlgo::Auto, CollectiveAlgo::Ring,
                                         CollectiveAlgo::Tree, CollectiveAlgo::NVLS,
                                         CollectiveAlgo::Hierarchical};

const char *optimizerName(Optimizer o)
{
    return o == Optimizer::SGD ? "sgd" : "adam";
}

const char *recomputeName(Recompute r)
{
    switch (r) {
    case Recompute::None:
        return "none";
    case Recompute::Selective:
        return "selective";
    case Recompute::Full:
        break;
    }
    return "full";
}

const char *updateModeName(UpdateMode u)
{
    return u == UpdateMode::Sync ? "sync" : "async";
}

QJsonValue name(const char *text)
{
    return QString::fromUtf8(text);
}

QJsonValue text(const std::string &s)
{
    return QString::fromStdString(s);
}

std::string str(int64_t n)
{
    return std::to_string(n);
}

// ---------------------------------------------------------------------------------------
// Reading

/// A catalog id (string) or an inline object read by `read`.
template <typename Spec, typename Read>
Spec readCatalogOrInline(const QJsonValue &value, const std::string &path,
                         const std::vector<Spec> &entries, const char *what, Read read)
{
    std::vector<std::string> ids;
    for (const Spec &entry : entries)
        ids.push_back(entry.id);
    const std::string allowed =
        "; allowed: a catalog id (" + json::joinNames(ids) + ") or an inline object";
    if (value.isObject())
        return read(ObjectReader(value.toObject(), path), json::Origin::Scenario);
    if (!value.isString())
        fail(path, "expected a string or an object, got " + json::describe(value) + allowed);
    const std::string id = value.toString().toStdString();
    for (const Spec &entry : entries) {
        if (entry.id == id)
            return entry;
    }
    fail(path, std::string("unknown ") + what + " " + json::describe(value) + allowed);
}

std::string readCalibrationPath(const ObjectReader &hardware, const QString &baseDir)
{
    const std::string path = hardware.pathOf("calibration");
    const QString given = QString::fromStdString(hardware.requiredString("calibration"));
    if (given.isEmpty())
        fail(path, "must not be empty; allowed: the path of a calibration profile");
    // Relative to the scenario file's folder (the working directory without one).
    const QString resolved = QDir::cleanPath(QDir(baseDir).absoluteFilePath(given));
    if (!QFileInfo(resolved).isFile())
        fail(path, "no such file: " + json::describe(given) + " (looked for \"" +
                       resolved.toStdString() + "\"); allowed: the path of a calibration profile");
    return resolved.toStdString();
}

/// Loads the profile at `file`; its errors name the file and the key path inside it.
std::shared_ptr<const CalibrationProfile> readCalibration(const ObjectReader &hardware,
                                                          const std::string &file)
{
    Result<CalibrationProfile> profile = loadProfileFile(QString::fromStdString(file));
    if (!profile.ok()) {
        const InputError &inner = profile.error();
        const bool namesFile = inner.path.empty() && inner.message.find(file) != std::string::npos;
        fail(hardware.pathOf("calibration"),
             namesFile ? inner.message : file + ": " + inner.toString());
    }
    return std::make_shared<const CalibrationProfile>(std::move(profile).value());
}

/// hardware.power_limit_w (a share of the GPU's TDP), nvlink_domain (whole nodes) and
/// cpu_cores.
void readPowerDomainCores(const ObjectReader &r, HardwareSpec &hw)
{
    if (r.has("power_limit_w")) {
        if (hw.gpu.tdp_w <= 0)
            fail(r.pathOf("power_limit_w"),
                 "the GPU states no tdp_w, so a power cap has nothing to scale; allowed: "
                 "a GPU with tdp_w");
        hw.power_limit_w = r.requiredDouble(
            "power_limit_w", RealRange::closed(lowestPowerLimit(hw.gpu), hw.gpu.tdp_w));
    }
    hw.nvlink_domain = static_cast<int>(r.optionalInt("nvlink_domain", kNvlinkDomainRange, 0));
    // The domain is the platform's (an NVL72 rack: 72) whatever the job's size; a job
    // smaller than it runs inside one (HardwareSpec::communicationView).
    if (hw.nvlink_domain > 0 && hw.nvlink_domain % hw.gpus_per_node != 0)
        fail(r.pathOf("nvlink_domain"),
             "must be a multiple of gpus_per_node = " + str(hw.gpus_per_node) +
                 " (whole trays), got " + str(hw.nvlink_domain));
    hw.cpu_cores = static_cast<int>(r.optionalInt("cpu_cores", kCpuCoresRange, 0));
}

HardwareSpec readHardware(const ObjectReader &r, const Catalog &catalog, const QString &baseDir)
{
    r.allowKeys({"gpu", "nodes", "gpus_per_node", "intra_node", "inter_node", "nics_per_node",
                 "pcie_topology", "host_memory_gbps", "power_limit_w", "nvlink_domain",
                 "cpu_cores", "calibration"});
    HardwareSpec hw;
    r.require("gpu");
    hw.gpu =
        readCatalogOrInline(r.value("gpu"), r.pathOf("gpu"), catalog.gpus, "GPU", json::readGpu);
    hw.nodes = static_cast<int>(r.optionalInt("nodes", kNodesRange, 1));
    hw.gpus_per_node = static_cast<int>(r.optionalInt("gpus_per_node", kGpusPerNodeRange, 1));
    const auto valueOr = [&](const char *key, const char *fallback) {
        return r.has(key) ? r.value(key) : name(fallback);
    };
    hw.intra = readCatalogOrInline(valueOr("intra_node", kDefaultIntraLink), r.pathOf("intra_node"),
                                   catalog.intra_links, "intra-node link", json::readIntraLink);
    hw.inter = readCatalogOrInline(valueOr("inter_node", kDefaultInterLink), r.pathOf("inter_node"),
                                   catalog.inter_links, "inter-node network", json::readInterLink);
    hw.nics_per_node = static_cast<int>(r.optionalInt("nics_per_node", kNicsPerNodeRange, 1));
    hw.pcie_topology = r.optionalEnum<PcieTopology>("pcie_topology", kPcieTopologies,
                                                    pcieTopologyName, PcieTopology::Switch);
    hw.host_memory_gbps =
        r.optionalDouble("host_memory_gbps", kHostMemoryRange, hw.host_memory_gbps);
    readPowerDomainCores(r, hw);
    if (r.has("calibration")) {
        hw.calibration_path = readCalibrationPath(r, baseDir);
        hw.calibration = readCalibration(r, hw.calibration_path);
        // A stack's measured host time must name a stack this catalog has (it overrides
        // that stack's host.op_us, plan/plan.cpp).
        for (size_t i = 0; i < hw.calibration->framework_host.size(); ++i) {
            const std::string &id = hw.calibration->framework_host[i].framework;
            if (!catalog.findFramework(id) && !catalog.frameworks.empty()) {
                std::vector<std::string> ids;
                for (const FrameworkSpec &f : catalog.frameworks)
                    ids.push_back(f.id);
                fail(r.pathOf("calibration"),
                     hw.calibration_path + ": framework_host[" + std::to_string(i) +
                         "].framework: unknown framework \"" + id +
                         "\"; allowed: " + json::joinNames(ids));
            }
        }
    }
    return hw;
}

/// training.precision: a Precision, or a block format (`mxfp8`, `nvfp4`) that runs as FP8.
void readPrecision(const ObjectReader &r, TrainingSpec &t)
{
    const TrainingSpec defaults;
    std::vector<std::string> extra;
    for (const BlockFormat f : {BlockFormat::MXFP8, BlockFormat::NVFP4}) {
        extra.emplace_back(blockFormatName(f));
        if (r.has("precision") && r.value("precision").toString() == QLatin1String(extra.back())) {
            t.precision = Precision::FP8;
            t.block_format = f;
            return;
        }
    }
    t.precision = r.optionalEnum<Precision>("precision", kPrecisions, precisionName,
                                            defaults.precision, extra);
}

TrainingSpec readTraining(const ObjectReader &r)
{
    r.allowKeys({"global_batch", "micro_batch", "precision", "optimizer", "recompute",
                 "flash_attention", "compile", "memory_format", "fp8_recipe", "framework",
                 "seq_len", "mtp_depth", "activation_offload_layers", "recompute_modules"});
    const TrainingSpec defaults;
    TrainingSpec t;
    t.global_batch = r.requiredInt("global_batch", kGlobalBatchRange);
    t.micro_batch = r.optionalInt("micro_batch", {1, t.global_batch}, 0);
    readPrecision(r, t);
    t.seq_len = r.optionalInt("seq_len", kSeqLenRange, 0);
    t.mtp_depth = r.optionalInt("mtp_depth", kMtpDepthRange, -1);
    t.activation_offload_layers =
        r.optionalInt("activation_offload_layers", kOffloadLayersRange, 0);
    t.optimizer =
        r.optionalEnum<Optimizer>("optimizer", kOptimizers, optimizerName, defaults.optimizer);
    t.recompute =
        r.optionalEnum<Recompute>("recompute", kRecomputes, recomputeName, defaults.recompute);
    if (r.has("recompute_modules")) {
        // A list of Megatron-Core's module names, each at most once; an empty list would
        // recompute nothing under "selective", which is recompute "none".
        const QJsonArray list = r.requiredArray("recompute_modules");
        const std::string path = r.pathOf("recompute_modules");
        std::vector<std::string> names;
        for (const RecomputeModule m : kRecomputeModules)
            names.emplace_back(recomputeModuleName(m));
        if (list.isEmpty())
            fail(path, "empty list; allowed: one or more of " + json::joinNames(names) +
                           " (or recompute \"none\")");
        for (qsizetype i = 0; i < list.size(); ++i) {
            const std::string at = path + "[" + std::to_string(i) + "]";
            const RecomputeModule m = json::readEnum<RecomputeModule>(
                list.at(i), at, kRecomputeModules, recomputeModuleName);
            if (hasModule(t.recompute_modules, m))
                fail(at, std::string("\"") + recomputeModuleName(m) +
                             "\" is listed twice; allowed: each module once");
            t.recompute_modules |= static_cast<unsigned>(m);
        }
    }
    if (r.has("flash_attention"))
        t.flash_attention = r.optionalBool("flash_attention", false);
    t.compile = r.optionalBool("compile", defaults.compile);
    t.memory_format = r.optionalEnum<MemoryFormat>("memory_format", kMemoryFormats,
                                                   memoryFormatName, defaults.memory_format);
    if (r.has("fp8_recipe")) {
        t.fp8_recipe = r.optionalEnum<Fp8Scaling>("fp8_recipe", kFp8Scalings, fp8ScalingName,
                                                  defaults.fp8_recipe);
        if (t.precision != Precision::FP8 || t.block_format != BlockFormat::None)
            fail(r.pathOf("fp8_recipe"),
                 "applies to precision fp8 only (mxfp8 and nvfp4 scale per block); precision is " +
                     std::string(t.block_format != BlockFormat::None
                                     ? blockFormatName(t.block_format)
                                     : precisionName(t.precision)));
    }
    t.framework = r.optionalString("framework", kFrameworkAuto);
    return t;
}

/// Checks that training.framework names a catalog entry (or "auto"), and hands the scenario
/// the catalog's stacks: which of them runs the plan is derived when a plan is made (stackOf,
/// plan/framework_rules.h), never stored here.
void readStacks(Scenario &s, const ObjectReader &training, const Catalog &catalog)
{
    const TrainingSpec &t = s.training;
    if (t.framework != kFrameworkAuto && !catalog.findFramework(t.framework)) {
        std::vector<std::string> ids{kFrameworkAuto};
        for (const FrameworkSpec &f : catalog.frameworks)
            ids.push_back(f.id);
        fail(training.pathOf("framework"),
             "unknown framework \"" + t.framework + "\"; allowed: " + json::joinNames(ids));
    }
    s.stacks = stackTableOf(catalog);
}

ParallelSpec readParallel(const ObjectReader &r, int gpus)
{
    r.allowKeys({"data", "tensor", "pipeline", "zero", "schedule", "virtual_stages", "overlap",
                 "bucket_mb", "sequence_parallel", "update", "tp_overlap", "context",
                 "context_algorithm", "expert", "expert_tensor", "expert_dispatcher",
                 "expert_overlap", "pipeline_counts_embedding", "pipeline_counts_loss"});
    const ParallelSpec defaults;
    const IntRange degree{1, gpus};
    ParallelSpec p;
    p.data = static_cast<int>(r.optionalInt("data", degree, 0));
    p.tensor = static_cast<int>(r.optionalInt("tensor", degree, defaults.tensor));
    p.pipeline = static_cast<int>(r.optionalInt("pipeline", degree, defaults.pipeline));
    p.zero = static_cast<int>(r.optionalInt("zero", kZeroRange, defaults.zero));
    p.schedule = r.optionalEnum<Schedule>("schedule", kSchedules, scheduleName, defaults.schedule);
    p.virtual_stages = static_cast<int>(
        r.optionalInt("virtual_stages", kVirtualStagesRange, defaults.virtual_stages));
    if (r.has("overlap"))
        p.overlap = r.optionalBool("overlap", true);
    if (r.has("bucket_mb"))
        p.bucket_mb = r.optionalDouble("bucket_mb", kBucketMbRange, 0);
    p.sequence_parallel = r.optionalBool("sequence_parallel", defaults.sequence_parallel);
    p.update = r.optionalEnum<UpdateMode>("update", kUpdateModes, updateModeName, defaults.update);
    if (r.has("tp_overlap"))
        p.tp_overlap = r.requiredBool("tp_overlap");
    p.context = static_cast<int>(r.optionalInt("context", degree, defaults.context));
    if (r.has("context_algorithm"))
        p.context_algorithm = r.requiredEnum<ContextAlgorithm>(
            "context_algorithm", kContextAlgorithms, contextAlgorithmName);
    p.expert = static_cast<int>(r.optionalInt("expert", degree, defaults.expert));
    p.expert_tensor =
        static_cast<int>(r.optionalInt("expert_tensor", degree, defaults.expert_tensor));
    if (r.has("expert_dispatcher"))
        p.expert_dispatcher = r.requiredEnum<ExpertDispatcher>(
            "expert_dispatcher", kExpertDispatchers, expertDispatcherName);
    p.expert_overlap = r.optionalBool("expert_overlap", defaults.expert_overlap);
    p.pipeline_counts_embedding =
        r.optionalBool("pipeline_counts_embedding", defaults.pipeline_counts_embedding);
    p.pipeline_counts_loss = r.optionalBool("pipeline_counts_loss", defaults.pipeline_counts_loss);
    return p;
}

/// Rules across keys (plan/rules.h): the first error is the parser's; then the data degree
/// and micro_batch the scenario leaves out are derived.
void checkAndResolve(Scenario &s, bool precision_given, std::vector<RuleFinding> *draft)
{
    if (draft) {
        // A draft keeps the scenario as written and hands the findings back; what a broken
        // plan leaves out stays left out (the window derives it once the plan is whole).
        *draft = checkRules(s);
        if (!firstError(*draft))
            fillDerivedPlan(s);
        return;
    }
    if (const auto error = firstError(checkRules(s))) {
        const bool defaulted = error->rule == Rule::PrecisionUnsupported && !precision_given;
        fail(error->path, (defaulted ? "the default " : "") + ruleMessage(*error));
    }
    fillDerivedPlan(s);
}

CollectiveSpec readCollective(const ObjectReader &r)
{
    r.allowKeys({"op", "bytes", "algorithm"});
    CollectiveSpec c;
    c.op = r.requiredEnum<CollectiveOp>("op", kCollectiveOps, collectiveOpName);
    c.bytes = static_cast<double>(r.requiredInt("bytes", kCollectiveBytesRange));
    c.algorithm = r.optionalEnum<CollectiveAlgo>("algorithm", kCollectiveAlgos, collectiveAlgoName,
                                                 c.algorithm);
    return c;
}

EffectsSpec readEffects(const ObjectReader &r, int gpus)
{
    r.allowKeys(
        {"seed", "jitter", "stragglers", "thermal", "data_loader", "virtual_gpu", "failures",
         "expert_imbalance"});
    EffectsSpec e;
    e.seed = static_cast<uint64_t>(r.optionalInt("seed", kSeedRange, int64_t(e.seed)));
    e.jitter = r.optionalDouble("jitter", kJitterRange, e.jitter);
    e.expert_imbalance =
        r.optionalDouble("expert_imbalance", kExpertImbalanceRange, e.expert_imbalance);

    const std::string stragglersPath = r.pathOf("stragglers");
    const QJsonArray stragglers = r.optionalArray("stragglers");
    json::limitItems(stragglers, stragglersPath, gpus, "stragglers (each GPU once)");
    for (qsizetype i = 0; i < stragglers.size(); ++i) {
        const std::string path = json::indexPath(stragglersPath, i);
        const ObjectReader item(json::readObject(stragglers[i], path), path);
        item.allowKeys({"gpu", "slowdown"});
        StragglerSpec straggler;
        // Whether the GPU exists, and is listed once, is a rule (plan/rules.h).
        straggler.gpu = static_cast<int>(item.requiredInt("gpu", kGpuIndexRange));
        straggler.slowdown = item.requiredDouble("slowdown", kSlowdownRange);
        e.stragglers.push_back(straggler);
    }

    if (auto thermal = r.optionalObject("thermal")) {
        thermal->allowKeys({"throttle_above_c", "clock_drop", "warmup_s", "ambient_c", "steady_c",
                            "cooling", "gpus", "start_s"});
        ThermalSpec &th = e.thermal;
        th.enabled = true;
        th.throttle_above_c =
            thermal->optionalDouble("throttle_above_c", kThrottleRange, th.throttle_above_c);
        th.clock_drop = thermal->optionalDouble("clock_drop", kClockDropRange, th.clock_drop);
        th.warmup_s = thermal->optionalDouble("warmup_s", kWarmupRange, th.warmup_s);
        th.ambient_c = thermal->optionalDouble("ambient_c", kAmbientRange, th.ambient_c);
        if (thermal->has("steady_c") && thermal->has("cooling"))
            fail(thermal->pathOf("cooling"),
                 "given together with steady_c; allowed: either a cooling preset or steady_c");
        if (thermal->has("steady_c"))
            th.steady_c = thermal->requiredDouble("steady_c", kSteadyRange);
        if (thermal->has("cooling")) {
            const std::string cooling = thermal->requiredString("cooling");
            if (cooling == "datacenter")
                th.steady_c = kCoolingDatacenterC;
            else if (cooling == "workstation")
                th.steady_c = kCoolingWorkstationC;
            else if (cooling == "poor")
                th.steady_c = kCoolingPoorC;
            else
                fail(thermal->pathOf("cooling"), "unknown value " +
                                                     json::describe(thermal->value("cooling")) +
                                                     "; allowed: datacenter, workstation, poor");
        }
        const std::string gpusPath = thermal->pathOf("gpus");
        const QJsonArray list = thermal->optionalArray("gpus");
        json::limitItems(list, gpusPath, gpus, "GPUs (each GPU once)");
        for (qsizetype i = 0; i < list.size(); ++i) {
            const std::string path = json::indexPath(gpusPath, i);
            const ObjectReader item(json::readObject(list[i], path), path);
            item.allowKeys({"gpu", "steady_c"});
            ThermalGpuSpec g;
            g.gpu = static_cast<int>(item.requiredInt("gpu", kGpuIndexRange));
            g.steady_c = item.requiredDouble("steady_c", kSteadyRange);
            th.gpus.push_back(g);
        }
        if (thermal->has("start_s"))
            th.start_s = thermal->requiredDouble("start_s", kStartRange);
    }
    if (auto vgpu = r.optionalObject("virtual_gpu")) {
        vgpu->allowKeys({"fraction", "host_routed"});
        VirtualGpuSpec &v = e.virtual_gpu;
        v.enabled = true;
        v.fraction = vgpu->requiredDouble("fraction", kFractionRange);
        v.host_routed = vgpu->optionalBool("host_routed", v.host_routed);
    }
    if (auto failures = r.optionalObject("failures")) {
        failures->allowKeys({"mtbf_hours_per_gpu", "checkpoint_bytes", "checkpoint_write_gbps",
                             "restart_s", "checkpoint_interval_s"});
        FailureSpec &f = e.failures;
        f.enabled = true;
        f.mtbf_hours_per_gpu = failures->requiredDouble("mtbf_hours_per_gpu", kMtbfRange);
        f.checkpoint_bytes =
            failures->optionalDouble("checkpoint_bytes", kCheckpointBytesRange, f.checkpoint_bytes);
        f.checkpoint_write_gbps = failures->optionalDouble("checkpoint_write_gbps", kWriteGbpsRange,
                                                           f.checkpoint_write_gbps);
        f.restart_s = failures->optionalDouble("restart_s", kRestartRange, f.restart_s);
        f.checkpoint_interval_s = failures->optionalDouble("checkpoint_interval_s", kIntervalRange,
                                                           f.checkpoint_interval_s);
    }
    if (auto loader = r.optionalObject("data_loader")) {
        loader->allowKeys(
            {"workers_per_gpu", "samples_per_s_per_worker", "pipeline", "prefetch_factor"});
        DataLoaderSpec &dl = e.data_loader;
        dl.enabled = true;
        dl.workers_per_gpu =
            static_cast<int>(loader->requiredInt("workers_per_gpu", kWorkersRange));
        if (loader->has("pipeline")) {
            // A pipeline from the catalog instead of a measured rate (effects/loader.cpp).
            loader->forbid("samples_per_s_per_worker",
                           "not allowed together with \"pipeline\", whose catalog gives the "
                           "cost per sample; allowed: one of the two");
            dl.pipeline = loader->optionalEnum<LoaderPipeline>(
                "pipeline", kLoaderPipelines, loaderPipelineName, LoaderPipeline::Pil);
        } else {
            dl.samples_per_s_per_worker =
                loader->requiredDouble("samples_per_s_per_worker", kSamplesPerWorkerRange);
        }
        dl.prefetch_factor =
            static_cast<int>(loader->optionalInt("prefetch_factor", kPrefetchRange, 2));
    }
    return e;
}

CostSpec readCost(const ObjectReader &r, bool has_tokens)
{
    r.allowKeys({"gpu_price_usd", "server_price_usd", "amortisation_years", "power_price_per_kwh",
                 "pue", "cloud_price_per_gpu_hour", "training", "runs_per_month", "migration_days",
                 "day_rate_usd"});
    CostSpec c;
    c.gpu_price_usd = r.requiredDouble("gpu_price_usd", kPriceRange);
    c.server_price_usd = r.optionalDouble("server_price_usd", kPriceRange, c.server_price_usd);
    c.amortisation_years =
        r.optionalDouble("amortisation_years", kYearsRange, c.amortisation_years);
    c.power_price_per_kwh =
        r.optionalDouble("power_price_per_kwh", kKwhPriceRange, c.power_price_per_kwh);
    c.pue = r.optionalDouble("pue", kPueRange, c.pue);
    c.cloud_price_per_gpu_hour = r.requiredDouble("cloud_price_per_gpu_hour", kHourPriceRange);
    const ObjectReader work = r.requiredObject("training");
    work.allowKeys({"tokens", "epochs", "samples_per_epoch", "steps"});
    const int given = int(work.has("tokens")) + int(work.has("epochs")) + int(work.has("steps"));
    if (given != 1)
        fail(work.path(), "give exactly one of tokens, epochs (with samples_per_epoch) or steps; "
                          "got " +
                              str(given));
    if (work.has("tokens")) {
        if (!has_tokens)
            fail(work.pathOf("tokens"),
                 "this model has no tokens; allowed: epochs with samples_per_epoch, or steps");
        c.tokens = work.requiredDouble("tokens", kWorkRange);
    } else if (work.has("epochs")) {
        c.epochs = work.requiredDouble("epochs", kWorkRange);
        c.samples_per_epoch = work.requiredDouble("samples_per_epoch", kWorkRange);
    } else {
        c.steps = work.requiredDouble("steps", kWorkRange);
    }
    c.runs_per_month = r.optionalDouble("runs_per_month", kRunsRange, c.runs_per_month);
    c.migration_days = r.optionalDouble("migration_days", kDaysRange, c.migration_days);
    c.day_rate_usd = r.optionalDouble("day_rate_usd", kDayRateRange, c.day_rate_usd);
    return c;
}

/// A catalog input pipeline decodes images: the model must state its input.
/// training.seq_len and mtp_depth act on the model (a catalog model trained at another
/// length, DeepSeek-V3 run without its MTP module): they exist only for transformers.
void applyTrainingToModel(Scenario &s, const ObjectReader &training)
{
    for (const char *key : {"seq_len", "mtp_depth"})
        if (training.has(key) && s.model.kind != ModelSpec::Kind::Transformer)
            fail(training.pathOf(key), "this model is not a transformer; allowed: seq_len and "
                                       "mtp_depth only with a transformer model");
    if (s.training.seq_len > 0)
        s.model.transformer.seq_len = s.training.seq_len;
    if (s.training.mtp_depth >= 0)
        s.model.transformer.mtp_depth = s.training.mtp_depth;
}

void checkLoaderInput(const Scenario &s, const ObjectReader &effects)
{
    if (s.effects.data_loader.pipeline == LoaderPipeline::None || s.isCollective() ||
        s.model.input_elements_per_sample > 0)
        return;
    fail(effects.pathOf("data_loader") + ".pipeline",
         "decodes images, and the model states no image input (input_elements_per_sample); "
         "allowed: samples_per_s_per_worker for this model");
}

Scenario readScenario(const QJsonObject &root, const Catalog &catalog, const QString &baseDir,
                      std::vector<RuleFinding> *draft)
{
    const ObjectReader doc(root, "");
    doc.requireVersion("scalescope", kScenarioVersion);
    doc.allowKeys({"scalescope", "name", "hardware", "model", "training", "parallel", "collective",
                   "effects", "cost"});
    Scenario s;
    bool precisionGiven = true;
    s.name = doc.optionalString("name", {});
    s.hardware = readHardware(doc.requiredObject("hardware"), catalog, baseDir);
    const int gpus = s.hardware.gpuCount();

    if (doc.has("collective")) {
        for (const char *key : {"model", "training", "parallel"})
            doc.forbid(key, std::string("not allowed together with \"collective\": a "
                                        "collective-only scenario has no ") +
                                key +
                                "; allowed: either \"collective\" or \"model\", "
                                "\"training\" and \"parallel\"");
        s.collective = readCollective(doc.requiredObject("collective"));
    } else {
        doc.require("model");
        s.model = readCatalogOrInline(doc.value("model"), doc.pathOf("model"), catalog.models,
                                      "model", json::readModel);
        const ObjectReader training = doc.requiredObject("training");
        s.training = readTraining(training);
        precisionGiven = training.has("precision");
        applyTrainingToModel(s, training);
        const ObjectReader parallel =
            doc.optionalObject("parallel").value_or(ObjectReader(QJsonObject(), "parallel"));
        s.parallel = readParallel(parallel, gpus);
        readStacks(s, training, catalog);
    }
    if (auto effects = doc.optionalObject("effects")) {
        s.effects = readEffects(*effects, gpus);
        checkLoaderInput(s, *effects);
    }
    if (auto cost = doc.optionalObject("cost")) {
        if (s.isCollective())
            fail(cost->path(), "a collective-only scenario has no training run to cost; allowed: "
                               "\"cost\" with \"model\", \"training\" and \"parallel\"");
        s.cost = readCost(*cost, s.model.kind == ModelSpec::Kind::Transformer);
    }
    checkAndResolve(s, precisionGiven, draft);
    return s;
}

// ---------------------------------------------------------------------------------------
// Writing

template <typename Spec, typename Write>
void addCatalogOrInline(OrderedObject &out, const char *key, const Spec &spec, Write write)
{
    if (spec.id.empty())
        out.add(key, write(spec, json::Keys::NonDefault));
    else
        out.add(key, text(spec.id));
}

OrderedObject writeHardware(const HardwareSpec &hw, const QString &calibration)
{
    OrderedObject out;
    addCatalogOrInline(out, "gpu", hw.gpu, json::writeGpu);
    out.add("nodes", hw.nodes).add("gpus_per_node", hw.gpus_per_node);
    addCatalogOrInline(out, "intra_node", hw.intra, json::writeIntraLink);
    addCatalogOrInline(out, "inter_node", hw.inter, json::writeInterLink);
    out.add("nics_per_node", hw.nics_per_node);
    if (hw.pcie_topology != PcieTopology::Switch)
        out.add("pcie_topology", name(pcieTopologyName(hw.pcie_topology)));
    if (hw.host_memory_gbps > 0)
        out.add("host_memory_gbps", hw.host_memory_gbps);
    if (hw.power_limit_w > 0)
        out.add("power_limit_w", hw.power_limit_w);
    if (hw.nvlink_domain > 0)
        out.add("nvlink_domain", hw.nvlink_domain);
    if (hw.cpu_cores > 0)
        out.add("cpu_cores", hw.cpu_cores);
    if (!hw.calibration_path.empty())
        out.add("calibration", calibration);
    return out;
}

OrderedObject writeTraining(const TrainingSpec &t)
{
    OrderedObject out;
    out.add("global_batch", qint64(t.global_batch));
    if (t.micro_batch > 0)
        out.add("micro_batch", qint64(t.micro_batch));
    out.add("precision", name(t.block_format != BlockFormat::None ? blockFormatName(t.block_format)
                                                                   : precisionName(t.precision)))
        .add("optimizer", name(optimizerName(t.optimizer)))
        .add("recompute", name(recomputeName(t.recompute)));
    if (t.recompute_modules != 0)
        out.add("recompute_modules", recomputeModulesJson(t.recompute_modules));
    if (t.flash_attention)
        out.add("flash_attention", *t.flash_attention);
    if (t.compile)
        out.add("compile", true);
    if (t.memory_format != MemoryFormat::NHWC)
        out.add("memory_format", name(memoryFormatName(t.memory_format)));
    if (t.fp8_recipe != Fp8Scaling::Stack)
        out.add("fp8_recipe", name(fp8ScalingName(t.fp8_recipe)));
    if (t.framework != kFrameworkAuto)
        out.add("framework", text(t.framework));
    if (t.seq_len > 0)
        out.add("seq_len", qint64(t.seq_len));
    if (t.mtp_depth >= 0)
        out.add("mtp_depth", qint64(t.mtp_depth));
    if (t.activation_offload_layers > 0)
        out.add("activation_offload_layers", qint64(t.activation_offload_layers));
    return out;
}

OrderedObject writeParallel(const ParallelSpec &p)
{
    OrderedObject out;
    if (p.data > 0)
        out.add("data", p.data);
    out.add("tensor", p.tensor)
        .add("pipeline", p.pipeline)
        .add("zero", p.zero)
        .add("schedule", name(scheduleName(p.schedule)))
        .add("virtual_stages", p.virtual_stages);
    // Left to the stack where the scenario is silent (plan/framework_rules.h, stackOf).
    if (p.overlap)
        out.add("overlap", *p.overlap);
    if (p.bucket_mb)
        out.add("bucket_mb", *p.bucket_mb);
    out.add("sequence_parallel", p.sequence_parallel)
        .add("update", name(updateModeName(p.update)));
    if (p.tp_overlap)
        out.add("tp_overlap", *p.tp_overlap);
    const ParallelSpec defaults;
    if (p.context != defaults.context)
        out.add("context", p.context);
    if (p.context_algorithm)
        out.add("context_algorithm", name(contextAlgorithmName(*p.context_algorithm)));
    if (p.expert != defaults.expert)
        out.add("expert", p.expert);
    if (p.expert_tensor != defaults.expert_tensor)
        out.add("expert_tensor", p.expert_tensor);
    if (p.expert_dispatcher)
        out.add("expert_dispatcher", name(expertDispatcherName(*p.expert_dispatcher)));
    if (p.expert_overlap)
        out.add("expert_overlap", true);
    if (p.pipeline_counts_embedding)
        out.add("pipeline_counts_embedding", true);
    if (p.pipeline_counts_loss)
        out.add("pipeline_counts_loss", true);
    return out;
}

OrderedObject writeCollective(const CollectiveSpec &c)
{
    OrderedObject out;
    out.add("op", name(collectiveOpName(c.op)))
        .add("bytes", c.bytes)
        .add("algorithm", name(collectiveAlgoName(c.algorithm)));
    return out;
}

/// Only what differs from the defaults (no effects: an empty object).
OrderedObject writeEffects(const EffectsSpec &e)
{
    const EffectsSpec defaults;
    OrderedObject out;
    if (e.seed != defaults.seed)
        out.add("seed", qint64(e.seed));
    if (e.jitter != defaults.jitter)
        out.add("jitter", e.jitter);
    if (e.expert_imbalance != defaults.expert_imbalance)
        out.add("expert_imbalance", e.expert_imbalance);
    if (!e.stragglers.empty()) {
        std::vector<OrderedObject> stragglers;
        for (const StragglerSpec &straggler : e.stragglers) {
            OrderedObject item;
            item.add("gpu", straggler.gpu).add("slowdown", straggler.slowdown);
            stragglers.push_back(std::move(item));
        }
        out.add("stragglers", std::move(stragglers));
    }
    if (e.thermal.enabled) {
        OrderedObject thermal;
        const ThermalSpec th_defaults;
        thermal.add("throttle_above_c", e.thermal.throttle_above_c)
            .add("clock_drop", e.thermal.clock_drop)
            .add("warmup_s", e.thermal.warmup_s);
        if (e.thermal.ambient_c != th_defaults.ambient_c)
            thermal.add("ambient_c", e.thermal.ambient_c);
        if (e.thermal.steady_c)
            thermal.add("steady_c", *e.thermal.steady_c);
        if (!e.thermal.gpus.empty()) {
            std::vector<OrderedObject> list;
            for (const ThermalGpuSpec &g : e.thermal.gpus) {
                OrderedObject item;
                item.add("gpu", g.gpu).add("steady_c", g.steady_c);
                list.push_back(std::move(item));
            }
            thermal.add("gpus", std::move(list));
        }
        if (e.thermal.start_s)
            thermal.add("start_s", *e.thermal.start_s);
        out.add("thermal", std::move(thermal));
    }
    if (e.data_loader.enabled) {
        OrderedObject loader;
        loader.add("workers_per_gpu", e.data_loader.workers_per_gpu);
        if (e.data_loader.pipeline != LoaderPipeline::None)
            loader.add("pipeline", name(loaderPipelineName(e.data_loader.pipeline)));
        else
            loader.add("samples_per_s_per_worker", e.data_loader.samples_per_s_per_worker);
        if (e.data_loader.prefetch_factor != DataLoaderSpec().prefetch_factor)
            loader.add("prefetch_factor", e.data_loader.prefetch_factor);
        out.add("data_loader", std::move(loader));
    }
    if (e.virtual_gpu.enabled) {
        OrderedObject v;
        v.add("fraction", e.virtual_gpu.fraction).add("host_routed", e.virtual_gpu.host_routed);
        out.add("virtual_gpu", std::move(v));
    }
    if (e.failures.enabled) {
        OrderedObject f;
        f.add("mtbf_hours_per_gpu", e.failures.mtbf_hours_per_gpu)
            .add("checkpoint_bytes", e.failures.checkpoint_bytes)
            .add("checkpoint_write_gbps", e.failures.checkpoint_write_gbps)
            .add("restart_s", e.failures.restart_s)
            .add("checkpoint_interval_s", e.failures.checkpoint_interval_s);
        out.add("failures", std::move(f));
    }
    return out;
}

OrderedObject writeCost(const CostSpec &c)
{
    OrderedObject out;
    out.add("gpu_price_usd", c.gpu_price_usd)
        .add("server_price_usd", c.server_price_usd)
        .add("amortisation_years", c.amortisation_years)
        .add("power_price_per_kwh", c.power_price_per_kwh)
        .add("pue", c.pue)
        .add("cloud_price_per_gpu_hour", c.cloud_price_per_gpu_hour);
    OrderedObject work;
    if (c.tokens > 0)
        work.add("tokens", c.tokens);
    else if (c.epochs > 0)
        work.add("epochs", c.epochs).add("samples_per_epoch", c.samples_per_epoch);
    else
        work.add("steps", c.steps);
    out.add("training", std::move(work))
        .add("runs_per_month", c.runs_per_month)
        .add("migration_days", c.migration_days)
        .add("day_rate_usd", c.day_rate_usd);
    return out;
}

} // namespace

namespace
{
Result<Scenario> parseDocument(const QByteArray &json, const Catalog &catalog,
                               const QString &baseDir, std::vector<RuleFinding> *draft)
{
    if (json.size() > kMaxScenarioFileBytes)
        return InputError{"", "a scenario document of " + std::to_string(json.size()) +
                                  " bytes is larger than the limit; allowed: at most " +
                                  std::to_string(kMaxScenarioFileBytes) + " bytes"};
    return json::guard<Scenario>([&] {
        const QJsonObject root = json::parseObjectDocument(json);
        Scenario s = readScenario(root, catalog, baseDir, draft);
        s.extensions = readExtensions(json, root, s);
        return s;
    });
}
} // namespace

Result<Scenario> parseScenario(const QByteArray &json, const Catalog &catalog,
                               const QString &baseDir)
{
    return parseDocument(json, catalog, baseDir, nullptr);
}

Result<ScenarioDraft> parseScenarioDraft(const QByteArray &json, const Catalog &catalog,
                                         const QString &baseDir)
{
    ScenarioDraft d;
    Result<Scenario> s = parseDocument(json, catalog, baseDir, &d.findings);
    if (!s)
        return s.error();
    d.scenario = std::move(s).value();
    return d;
}

Result<Scenario> loadScenarioFile(const QString &path, const Catalog &catalog)
{
    const Result<QByteArray> data = readFileLimited(path, kMaxScenarioFileBytes, "scenario file");
    if (!data)
        return data.error();
    return parseScenario(data.value(), catalog, QFileInfo(path).absolutePath());
}

QJsonArray recomputeModulesJson(unsigned set)
{
    QJsonArray modules;
    for (const RecomputeModule m : kRecomputeModules) {
        if (hasModule(set, m))
            modules.append(QLatin1String(recomputeModuleName(m)));
    }
    return modules;
}

QByteArray writeScenario(const Scenario &scenario, const QString &targetDir)
{
    OrderedObject root;
    root.add("scalescope", kScenarioVersion);
    if (!scenario.name.empty())
        root.add("name", text(scenario.name));
    root.add("hardware", writeHardware(scenario.hardware, calibrationText(scenario, targetDir)));
    if (scenario.collective) {
        root.add("collective", writeCollective(*scenario.collective));
    } else {
        addCatalogOrInline(root, "model", scenario.model, json::writeModel);
        root.add("training", writeTraining(scenario.training));
        root.add("parallel", writeParallel(scenario.parallel));
    }
    OrderedObject effects = writeEffects(scenario.effects);
    if (!effects.empty())
        root.add("effects", std::move(effects));
    if (scenario.cost)
        root.add("cost", writeCost(*scenario.cost));
    return addExtensions(root.toJson(), scenario.extensions);
}

bool saveScenarioFile(const QString &path, const Scenario &scenario, QString *error)
{
    return writeFileAtomically(path, writeScenario(scenario, QFileInfo(path).absolutePath()),
                               error);
}

} // namespace scalescope
