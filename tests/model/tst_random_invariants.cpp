// Seeded random-scenario invariants (issue 14): valid scenarios drawn from the built-in
// catalog, cluster shapes, plans and effects, checked against the definitions of
// spec/cli.md on the event simulation and on the closed form.
//
// Reproduce a run: SCALESCOPE_RANDOM_SEED=<seed> SCALESCOPE_RANDOM_CASES=<n>; every violation
// prints the scenario JSON (feed it to `scalescope-cli simulate --json`) and its figures
// (SCALESCOPE_RANDOM_PRINTED=<n> prints more in full). Every violation fails.
#include "testutil.h"

#include "plan/framework_rules.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace scalescope;
using namespace scalescope::test;

namespace
{

constexpr uint64_t kDefaultSeed = 0x5ca1e5c09e14ULL;
constexpr int kDefaultCases = 300;
constexpr double kSumTolerance = 1e-6;  // spec/cli.md, breakdown_s
constexpr double kBoundSlack = 1e-9;    // efficiency and MFU "at most 1"
constexpr double kMonotoneSlack = 1e-9; // step <= 1.0 x + 1e-9 relative
// Engine against closed form: what tst_invariants' analyticAgreesWithEngine allows
// (2-5 % without effects, 10 % with jitter and stragglers).
constexpr double kAgreeTolerance = 0.05;
constexpr double kAgreeToleranceEffects = 0.10;
// Violations printed in full per invariant (SCALESCOPE_RANDOM_PRINTED overrides).
const int kMaxPrinted = int(qEnvironmentVariableIsSet("SCALESCOPE_RANDOM_PRINTED")
                                ? qEnvironmentVariableIntValue("SCALESCOPE_RANDOM_PRINTED")
                                : 8);

uint64_t envOr(const char *name, uint64_t fallback)
{
    bool ok = false;
    const qulonglong v = qEnvironmentVariable(name).toULongLong(&ok, 0);
    return ok ? v : fallback;
}

class Gen
{
public:
    explicit Gen(uint64_t seed) : rng_(seed) {}

    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    double real(double lo, double hi)
    {
        return std::uniform_real_distribution<double>(lo, hi)(rng_);
    }
    double logUniform(double lo, double hi) { return std::exp(real(std::log(lo), std::log(hi))); }
    bool chance(double p) { return real(0, 1) < p; }
    template <class T> const T &pick(const std::vector<T> &v)
    {
        return v[size_t(uniform(0, int(v.size()) - 1))];
    }

private:
    std::mt19937_64 rng_;
};

std::vector<int> divisors(int n)
{
    std::vector<int> d;
    for (int i = 1; i <= n; ++i)
        if (n % i == 0)
            d.push_back(i);
    return d;
}

int64_t layerCount(const ModelSpec &m)
{
    switch (m.kind) {
    case ModelSpec::Kind::Transformer:
        return m.transformer.layers;
    case ModelSpec::Kind::LayerTable:
        return int64_t(m.table.size());
    case ModelSpec::Kind::Custom:
        break;
    }
    return m.custom.layers;
}

const char *const kSchedules[] = {"gpipe", "1f1b", "interleaved"};
const char *const kPrecisionNames[] = {"fp32", "tf32", "fp16", "bf16", "fp8"};
const char *const kRecomputes[] = {"none", "selective", "full"};

/// One random scenario as JSON text. Valid by construction as far as the generator knows
/// (degrees divide, micro-batches divide the batch, precision supported, framework able to
/// run the plan); a few are deliberately left to the parser to accept or refuse.
QByteArray randomScenario(Gen &g, const Catalog &cat)
{
    QJsonObject hw;
    const GpuSpec &gpu = g.pick(cat.gpus);
    hw["gpu"] = QString::fromStdString(gpu.id);
    const bool single = g.chance(0.1); // one GPU: the 1x check
    const int nodes = single || g.chance(0.5) ? 1 : g.uniform(2, 16);
    const int gpn = single ? 1 : g.uniform(1, 8);
    hw["nodes"] = nodes;
    hw["gpus_per_node"] = gpn;
    hw["intra_node"] = QString::fromStdString(g.pick(cat.intra_links).id);
    hw["inter_node"] = QString::fromStdString(g.pick(cat.inter_links).id);
    hw["nics_per_node"] = g.uniform(1, 8);
    const int gpus = nodes * gpn;

    // Model: a catalog preset or a small transformer.
    QJsonValue model;
    ModelSpec spec;
    if (g.chance(0.2)) {
        const int heads = g.pick(std::vector<int>{2, 4, 8, 12, 16});
        const int head_dim = g.pick(std::vector<int>{32, 64, 128});
        spec.kind = ModelSpec::Kind::Transformer;
        spec.transformer.layers = g.uniform(2, 24);
        spec.transformer.heads = heads;
        QJsonObject t;
        t["layers"] = int(spec.transformer.layers);
        t["hidden"] = heads * head_dim;
        t["heads"] = heads;
        t["seq_len"] = g.pick(std::vector<int>{128, 256, 512, 1024, 2048});
        t["vocab"] = g.uniform(1000, 60000);
        model = QJsonObject{{"transformer", t}};
    } else {
        spec = g.pick(cat.models);
        model = QString::fromStdString(spec.id);
    }
    const bool transformer = spec.kind == ModelSpec::Kind::Transformer;
    const int64_t layers = layerCount(spec);

    // Plan: tensor divides the GPU count (and the heads), pipeline the rest (within layers).
    std::vector<int> tensors;
    for (int t : divisors(gpus))
        if ((!transformer && t == 1) || (transformer && spec.transformer.heads % t == 0))
            tensors.push_back(t);
    const int tensor = g.chance(0.5) ? 1 : g.pick(tensors);
    std::vector<int> pipes;
    for (int p : divisors(gpus / tensor))
        if (p <= layers)
            pipes.push_back(p);
    const int pipeline = g.chance(0.5) ? 1 : g.pick(pipes);
    const int data = gpus / (tensor * pipeline);

    const int micro = transformer ? g.pick(std::vector<int>{1, 1, 2, 4, 8})
                                  : g.pick(std::vector<int>{8, 16, 32, 64, 128});
    int accumulation = g.uniform(1, 8);
    if (pipeline > 1 && g.chance(0.5))
        accumulation = pipeline * g.uniform(1, std::max(1, 16 / pipeline));
    const int64_t global = int64_t(micro) * data * accumulation;

    QJsonObject parallel;
    if (g.chance(0.7))
        parallel["data"] = data;
    if (tensor > 1 || g.chance(0.2))
        parallel["tensor"] = tensor;
    if (pipeline > 1 || g.chance(0.2))
        parallel["pipeline"] = pipeline;
    const int zero = g.chance(0.4) ? 0 : g.uniform(1, 3);
    if (zero > 0 || g.chance(0.2))
        parallel["zero"] = zero;
    int schedule = 1;
    if (pipeline > 1 || g.chance(0.1)) {
        schedule = g.uniform(0, 2);
        parallel["schedule"] = kSchedules[schedule];
    }
    if (schedule == 2 && accumulation % pipeline == 0 && g.chance(0.7)) {
        const int v = g.uniform(1, 4);
        if (int64_t(pipeline) * v <= layers)
            parallel["virtual_stages"] = v;
    }
    if (tensor > 1 && g.chance(0.5))
        parallel["sequence_parallel"] = true;
    if (g.chance(0.4))
        parallel["overlap"] = g.chance(0.5);
    if (g.chance(0.2))
        parallel["bucket_mb"] = g.pick(std::vector<int>{0, 5, 25, 100});
    const bool async = tensor == 1 && pipeline == 1 && zero == 0 && g.chance(0.05);
    if (async)
        parallel["update"] = "async";

    QJsonObject training;
    training["global_batch"] = qint64(global);
    if (accumulation > 1 || g.chance(0.8))
        training["micro_batch"] = micro;
    std::vector<int> precisions;
    for (int p = 0; p < kPrecisionCount; ++p)
        if (gpu.peak_tflops[size_t(p)] > 0)
            precisions.push_back(p);
    training["precision"] = kPrecisionNames[g.pick(precisions)];
    training["optimizer"] = g.chance(0.5) ? "adam" : "sgd";
    training["recompute"] = kRecomputes[g.uniform(0, 2)];
    if (g.chance(0.2))
        training["flash_attention"] = g.chance(0.5);
    // Framework: omitted, "auto", or a named stack; mostly one that can run the plan.
    if (g.chance(0.6)) {
        ParallelSpec p;
        p.data = data;
        p.tensor = tensor;
        p.pipeline = pipeline;
        p.zero = zero;
        p.update = async ? UpdateMode::Async : UpdateMode::Sync;
        std::vector<std::string> able{kFrameworkAuto};
        for (const FrameworkSpec &f : cat.frameworks)
            if (!frameworkRejects(f, p))
                able.push_back(f.id);
        std::string id = g.pick(able);
        if (g.chance(0.1))
            id = g.pick(cat.frameworks).id; // maybe one that cannot: the parser refuses it
        training["framework"] = QString::fromStdString(id);
    }

    QJsonObject effects;
    effects["seed"] = g.uniform(0, 1000000);
    if (g.chance(0.5))
        effects["jitter"] = g.real(0.005, 0.2);
    if (g.chance(0.2)) {
        QJsonArray list;
        const int first = g.uniform(0, gpus - 1);
        list.append(QJsonObject{{"gpu", first}, {"slowdown", g.real(1.0, 2.0)}});
        const int second = g.uniform(0, gpus - 1);
        if (second != first && g.chance(0.3))
            list.append(QJsonObject{{"gpu", second}, {"slowdown", g.real(1.0, 3.0)}});
        effects["stragglers"] = list;
    }
    if (g.chance(0.2)) {
        QJsonObject d;
        d["workers_per_gpu"] = g.uniform(0, 8);
        d["samples_per_s_per_worker"] = g.logUniform(5, 1e5);
        if (g.chance(0.2))
            d["prefetch_factor"] = g.uniform(1, 4);
        effects["data_loader"] = d;
    }
    if (g.chance(0.2)) {
        QJsonObject t;
        t["throttle_above_c"] = g.real(60, 95);
        t["clock_drop"] = g.real(0, 0.3);
        t["warmup_s"] = g.real(10, 300);
        const int cooling = g.uniform(0, 4);
        if (cooling == 1)
            t["cooling"] = g.pick(std::vector<QString>{"datacenter", "workstation", "poor"});
        else if (cooling == 2)
            t["steady_c"] = g.real(50, 100);
        if (g.chance(0.3)) // a hot spot
            t["gpus"] = QJsonArray{
                QJsonObject{{"gpu", g.uniform(0, gpus - 1)}, {"steady_c", g.real(85, 100)}}};
        if (g.chance(0.3))
            t["start_s"] = g.real(0, 600);
        effects["thermal"] = t;
    }

    QJsonObject root;
    root["scalescope"] = 1;
    root["hardware"] = hw;
    root["model"] = model;
    root["training"] = training;
    root["parallel"] = parallel;
    root["effects"] = effects;
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

struct Case {
    int index = 0;
    QByteArray json;
    Scenario scenario;
    std::shared_ptr<const SimContext> ctx;
    Summary engine, analytic;
    bool engine_ok = false;
    std::string engine_error;
    // Monotonicity: step times with a GPU of twice the peak and memory bandwidth, and with
    // both links at half their bandwidth. <= 0: not computed (plan refused).
    double engine_fast_gpu = 0, analytic_fast_gpu = 0;
    double engine_slow_links = 0, analytic_slow_links = 0;
    double reference_engine = 0; // simulatedSingleGpuStepTime (one-GPU jobs)

    bool jittered() const { return scenario.effects.jitter > 0; }
    bool perGpuEffects() const
    {
        return !scenario.effects.stragglers.empty() ||
               (scenario.effects.thermal.enabled && !scenario.effects.thermal.gpus.empty());
    }
    bool anyEffects() const
    {
        const EffectsSpec &e = scenario.effects;
        return e.jitter > 0 || !e.stragglers.empty() || e.thermal.enabled ||
               e.data_loader.enabled || scenario.parallel.update == UpdateMode::Async;
    }
};

QString figures(const Summary &s)
{
    const Breakdown &b = s.breakdown;
    return QStringLiteral("step %1 s, compute %2, comm_exposed %3, comm_total %4, bubble %5, "
                          "wait %6, data %7 (sum %8), speedup %9, efficiency %10, mfu %11, "
                          "single_gpu %12 s")
        .arg(s.step_time_s, 0, 'g', 12)
        .arg(b.compute, 0, 'g', 12)
        .arg(b.communication_exposed, 0, 'g', 12)
        .arg(b.communication_total, 0, 'g', 12)
        .arg(b.pipeline_bubble, 0, 'g', 12)
        .arg(b.wait, 0, 'g', 12)
        .arg(b.data_loading, 0, 'g', 12)
        .arg(breakdownSum(b), 0, 'g', 12)
        .arg(s.speedup, 0, 'g', 12)
        .arg(s.scaling_efficiency, 0, 'g', 12)
        .arg(s.mfu, 0, 'g', 12)
        .arg(s.single_gpu_step_s, 0, 'g', 12);
}

QString describe(const Case &c, const QString &what)
{
    return QStringLiteral("case %1: %2\n  scenario: %3\n  engine:   %4\n  analytic: %5")
        .arg(c.index)
        .arg(what, QString::fromUtf8(c.json), figures(c.engine), figures(c.analytic));
}

/// Collects the violations of one invariant; prints each (the first kMaxPrinted in full).
class Violations
{
public:
    explicit Violations(const char *invariant) : invariant_(invariant) {}
    void add(const Case &c, const QString &what)
    {
        const QString text = describe(c, what);
        if (first_.isEmpty())
            first_ = text;
        if (count_ < kMaxPrinted)
            qWarning("%s violated: %s", invariant_, qPrintable(text));
        else
            qWarning("%s violated: case %d: %s", invariant_, c.index, qPrintable(what));
        ++count_;
    }
    int count() const { return count_; }
    QString message(int checked) const
    {
        return QStringLiteral("%1: %2 of %3 cases violate it; first:\n%4")
            .arg(invariant_)
            .arg(count_)
            .arg(checked)
            .arg(first_);
    }

private:
    const char *invariant_;
    int count_ = 0;
    QString first_;
};

double relative(double a, double b)
{
    return std::abs(a / b - 1.0);
}

bool finiteNonNegative(double x)
{
    return std::isfinite(x) && x >= 0;
}

/// Every figure of a summary that must be finite and >= 0, by name.
std::vector<std::pair<const char *, double>> summaryFigures(const Summary &s)
{
    const Breakdown &b = s.breakdown;
    const MemoryBreakdown &m = s.memory;
    return {{"step_time_s", s.step_time_s},
            {"samples_per_s", s.samples_per_s},
            {"tokens_per_s", s.tokens_per_s},
            {"model_flops_per_step", s.model_flops_per_step},
            {"hardware_flops_per_step", s.hardware_flops_per_step},
            {"model_tflops_per_gpu", s.model_tflops_per_gpu},
            {"hardware_tflops_per_gpu", s.hardware_tflops_per_gpu},
            {"mfu", s.mfu},
            {"speedup", s.speedup},
            {"scaling_efficiency", s.scaling_efficiency},
            {"single_gpu_step_s", s.single_gpu_step_s},
            {"compute", b.compute},
            {"communication_exposed", b.communication_exposed},
            {"communication_total", b.communication_total},
            {"pipeline_bubble", b.pipeline_bubble},
            {"wait", b.wait},
            {"data_loading", b.data_loading},
            {"tp_comm", b.tp_comm},
            {"dp_comm", b.dp_comm},
            {"pp_comm", b.pp_comm},
            {"pp_exposed", b.pp_exposed},
            {"optimizer", b.optimizer},
            {"memory.parameters", m.parameters},
            {"memory.gradients", m.gradients},
            {"memory.optimizer_states", m.optimizer_states},
            {"memory.activations", m.activations},
            {"memory.total", m.total},
            {"memory.capacity", m.capacity},
            {"staleness_steps", s.staleness_steps},
            {"single_gpu_optimizer_s", s.single_gpu_optimizer_s},
            {"max_temperature_c", s.max_temperature_c},
            {"full_gpu_equivalents", s.full_gpu_equivalents},
            {"data_supply_samples_per_s", s.data_supply_samples_per_s},
            {"data_demand_samples_per_s", s.data_demand_samples_per_s},
            {"goodput", s.goodput},
            {"checkpoint_interval_s", s.checkpoint_interval_s}};
}

/// Engine step time of an edited scenario (0 when its plan is refused; -1 when it fails).
double engineStep(const Scenario &s)
{
    const auto ctx = makeContext(s);
    if (!ctx)
        return 0;
    const SimResult r = simulate(*ctx.value(), SimOptions{});
    return r.ok ? r.step_time_s : -1;
}

double analyticStep(const Scenario &s)
{
    const auto ctx = makeContext(s);
    return ctx ? analyticSummary(*ctx.value()).step_time_s : 0;
}

Scenario fasterGpu(Scenario s)
{
    for (double &p : s.hardware.gpu.peak_tflops)
        p *= 2;
    s.hardware.gpu.memory_bandwidth_gbps *= 2;
    return s;
}

Scenario slowerLinks(Scenario s)
{
    s.hardware.intra.bandwidth_gbps /= 2;
    s.hardware.inter.line_rate_gbit /= 2;
    return s;
}

} // namespace

class TestRandomInvariants : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void mostScenariosParse();
    void engineRuns();
    void figuresFiniteAndNonNegative();
    void breakdownSumsToStep();
    void efficiencyAndMfuAtMostOne();
    void oneGpuIsOneX();
    void fasterGpuNeverSlower();
    void slowerLinksNeverFaster();
    void engineAgreesWithClosedForm();

private:
    uint64_t seed_ = kDefaultSeed;
    int generated_ = 0;
    int refused_ = 0;
    std::vector<QString> refusals_;
    std::vector<Case> cases_;
};

void TestRandomInvariants::initTestCase()
{
    seed_ = envOr("SCALESCOPE_RANDOM_SEED", kDefaultSeed);
    generated_ = int(envOr("SCALESCOPE_RANDOM_CASES", kDefaultCases));
    qInfo("random scenarios: seed 0x%llx (SCALESCOPE_RANDOM_SEED), %d cases "
          "(SCALESCOPE_RANDOM_CASES)",
          static_cast<unsigned long long>(seed_), generated_);
    const Catalog &cat = builtinCatalog();
    QVERIFY(!cat.gpus.empty() && !cat.models.empty());
    Gen g(seed_);
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < generated_; ++i) {
        Case c;
        c.index = i;
        c.json = randomScenario(g, cat);
        Result<Scenario> parsed = parseScenario(c.json, cat);
        if (!parsed) {
            ++refused_;
            refusals_.push_back(QString::fromStdString(parsed.error().toString()));
            continue;
        }
        c.scenario = parsed.value();
        auto ctx = makeContext(c.scenario);
        if (!ctx) {
            ++refused_;
            refusals_.push_back(QStringLiteral("makeContext: ") +
                                QString::fromStdString(ctx.error().toString()));
            continue;
        }
        c.ctx = ctx.value();
        const SimResult r = simulate(*c.ctx, SimOptions{});
        c.engine_ok = r.ok;
        c.engine_error = r.error;
        if (r.ok)
            c.engine = summarize(*c.ctx, r);
        c.analytic = analyticSummary(*c.ctx);
        if (c.ctx->plan.gpus == 1)
            c.reference_engine = simulatedSingleGpuStepTime(*c.ctx);
        const Scenario fast = fasterGpu(c.scenario), slow = slowerLinks(c.scenario);
        c.engine_fast_gpu = engineStep(fast);
        c.analytic_fast_gpu = analyticStep(fast);
        c.engine_slow_links = engineStep(slow);
        c.analytic_slow_links = analyticStep(slow);
        cases_.push_back(std::move(c));
    }
    qInfo("%d of %d scenarios accepted, evaluated in %.1f s", int(cases_.size()), generated_,
          double(timer.elapsed()) / 1000.0);
}

void TestRandomInvariants::mostScenariosParse()
{
    for (size_t i = 0; i < refusals_.size() && i < 10; ++i)
        qInfo("refused: %s", qPrintable(refusals_[i]));
    QVERIFY2(cases_.size() >= size_t(std::ceil(0.7 * generated_)),
             qPrintable(QStringLiteral("only %1 of %2 generated scenarios accepted")
                            .arg(cases_.size())
                            .arg(generated_)));
}

void TestRandomInvariants::engineRuns()
{
    Violations v("the event simulation runs every valid scenario");
    for (const Case &c : cases_) {
        if (!c.engine_ok)
            v.add(
                c,
                QStringLiteral("simulate failed: %1").arg(QString::fromStdString(c.engine_error)));
        else if (c.engine_fast_gpu < 0 || c.engine_slow_links < 0)
            v.add(c, QStringLiteral("simulate failed on the edited scenario (2x GPU %1, "
                                    "half links %2)")
                         .arg(c.engine_fast_gpu)
                         .arg(c.engine_slow_links));
    }
    QVERIFY2(v.count() == 0, qPrintable(v.message(int(cases_.size()))));
}

void TestRandomInvariants::figuresFiniteAndNonNegative()
{
    Violations v("every figure finite and >= 0, step time > 0");
    for (const Case &c : cases_) {
        for (const auto &[evaluator, s] :
             {std::pair<const char *, const Summary *>{"engine", &c.engine},
              {"analytic", &c.analytic}}) {
            if (std::string(evaluator) == "engine" && !c.engine_ok)
                continue;
            QStringList bad;
            for (const auto &[name, x] : summaryFigures(*s))
                if (!finiteNonNegative(x))
                    bad << QStringLiteral("%1 = %2").arg(name).arg(x, 0, 'g', 12);
            if (!(s->step_time_s > 0))
                bad << QStringLiteral("step_time_s = %1").arg(s->step_time_s);
            if (!bad.isEmpty())
                v.add(c, QStringLiteral("%1: %2").arg(evaluator, bad.join(", ")));
        }
    }
    QVERIFY2(v.count() == 0, qPrintable(v.message(int(cases_.size()))));
}

void TestRandomInvariants::breakdownSumsToStep()
{
    Violations v("compute + communication_exposed + pipeline_bubble + wait + data_loading = "
                 "step_time_s within 1e-6 relative");
    for (const Case &c : cases_) {
        if (c.engine_ok &&
            !(relative(breakdownSum(c.engine.breakdown), c.engine.step_time_s) <= kSumTolerance))
            v.add(c, QStringLiteral("engine: sum %1 step %2")
                         .arg(breakdownSum(c.engine.breakdown), 0, 'g', 12)
                         .arg(c.engine.step_time_s, 0, 'g', 12));
        if (!(relative(breakdownSum(c.analytic.breakdown), c.analytic.step_time_s) <=
              kSumTolerance))
            v.add(c, QStringLiteral("analytic: sum %1 step %2")
                         .arg(breakdownSum(c.analytic.breakdown), 0, 'g', 12)
                         .arg(c.analytic.step_time_s, 0, 'g', 12));
    }
    QVERIFY2(v.count() == 0, qPrintable(v.message(int(cases_.size()))));
}

void TestRandomInvariants::efficiencyAndMfuAtMostOne()
{
    Violations v("scaling_efficiency <= 1 and mfu <= 1");
    for (const Case &c : cases_) {
        for (const bool engine : {true, false}) {
            if (engine && !c.engine_ok)
                continue;
            const Summary &s = engine ? c.engine : c.analytic;
            const char *evaluator = engine ? "engine" : "analytic";
            // A jittered engine run keeps its draws as float factors (sim/simulation_p.h):
            // its step and its reference agree to float precision, 2^-24 relative.
            const double slack = engine && c.jittered() ? 1e-7 : kBoundSlack;
            if (!(s.scaling_efficiency <= 1 + slack))
                v.add(c,
                        QStringLiteral("%1: scaling_efficiency %2 > 1")
                            .arg(evaluator)
                            .arg(s.scaling_efficiency, 0, 'g', 12));
            if (!(s.mfu <= 1 + kBoundSlack))
                v.add(c,
                        QStringLiteral("%1: mfu %2 > 1").arg(evaluator).arg(s.mfu, 0, 'g', 12));
        }
    }
    QVERIFY2(v.count() == 0, qPrintable(v.message(int(cases_.size()))));
}

void TestRandomInvariants::oneGpuIsOneX()
{
    // spec/cli.md: one GPU is 1x and 100 % by definition (its reference leaves out only the
    // per-GPU effects, so without stragglers and hot spots the job is its own reference).
    Violations v("one GPU without stragglers or hot spots: speedup == 1");
    int checked = 0;
    for (const Case &c : cases_) {
        if (c.ctx->plan.gpus != 1 || c.perGpuEffects())
            continue;
        ++checked;
        if (c.engine_ok && !(std::abs(c.engine.speedup - 1.0) <= 1e-9))
            v.add(c, QStringLiteral("engine: speedup %1").arg(c.engine.speedup, 0, 'g', 12));
        if (!(std::abs(c.analytic.speedup - 1.0) <= 1e-9))
            v.add(c, QStringLiteral("analytic: speedup %1").arg(c.analytic.speedup, 0, 'g', 12));
        // summarize() takes a one-GPU job as its own reference; the reference the engine
        // simulates for it (simulatedSingleGpuStepTime) must be that same step. Under jitter
        // the reference is the draws' expectation, not this job's one draw of them, so only
        // the speed-up above is asserted.
        if (c.engine_ok && !c.jittered() &&
            !(relative(c.reference_engine, c.engine.step_time_s) <= 1e-9))
            v.add(c,
                    QStringLiteral("engine: simulatedSingleGpuStepTime %1 != step %2")
                        .arg(c.reference_engine, 0, 'g', 12)
                        .arg(c.engine.step_time_s, 0, 'g', 12));
    }
    qInfo("%d one-GPU scenarios checked", checked);
    QVERIFY2(v.count() == 0, qPrintable(v.message(checked)));
}

void TestRandomInvariants::fasterGpuNeverSlower()
{
    Violations v("a GPU with twice the peak TFLOP/s and memory bandwidth is never slower");
    int checked = 0;
    for (const Case &c : cases_) {
        if (c.engine_ok && c.engine_fast_gpu > 0) {
            ++checked;
            if (!(c.engine_fast_gpu <= c.engine.step_time_s * (1 + kMonotoneSlack)))
                v.add(c,
                        QStringLiteral("engine: 2x GPU step %1 > step %2")
                            .arg(c.engine_fast_gpu, 0, 'g', 12)
                            .arg(c.engine.step_time_s, 0, 'g', 12));
        }
        if (c.analytic_fast_gpu > 0 &&
            !(c.analytic_fast_gpu <= c.analytic.step_time_s * (1 + kMonotoneSlack)))
            v.add(c,
                    QStringLiteral("analytic: 2x GPU step %1 > step %2")
                        .arg(c.analytic_fast_gpu, 0, 'g', 12)
                        .arg(c.analytic.step_time_s, 0, 'g', 12));
    }
    QVERIFY2(v.count() == 0, qPrintable(v.message(checked)));
}

void TestRandomInvariants::slowerLinksNeverFaster()
{
    Violations v("intra- and inter-node bandwidth halved is never faster");
    int checked = 0;
    for (const Case &c : cases_) {
        if (c.engine_ok && c.engine_slow_links > 0) {
            ++checked;
            if (!(c.engine_slow_links >= c.engine.step_time_s * (1 - kMonotoneSlack)))
                v.add(c,
                        QStringLiteral("engine: half-bandwidth step %1 < step %2")
                            .arg(c.engine_slow_links, 0, 'g', 12)
                            .arg(c.engine.step_time_s, 0, 'g', 12));
        }
        if (c.analytic_slow_links > 0 &&
            !(c.analytic_slow_links >= c.analytic.step_time_s * (1 - kMonotoneSlack)))
            v.add(c,
                    QStringLiteral("analytic: half-bandwidth step %1 < step %2")
                        .arg(c.analytic_slow_links, 0, 'g', 12)
                        .arg(c.analytic.step_time_s, 0, 'g', 12));
    }
    QVERIFY2(v.count() == 0, qPrintable(v.message(checked)));
}

void TestRandomInvariants::engineAgreesWithClosedForm()
{
    // Reported as a distribution, not asserted: on random plans many cases fall outside
    // tst_invariants' tolerances (see the issue 14 report). Cases with effects compare a
    // seeded draw with an expectation, so they are reported apart.
    std::map<QString, std::vector<double>> groups;
    int over = 0, printed = 0;
    for (const Case &c : cases_) {
        if (!c.engine_ok)
            continue;
        const double d = relative(c.analytic.step_time_s, c.engine.step_time_s);
        const bool fx = c.anyEffects();
        const Plan &p = c.ctx->plan;
        groups[fx ? QStringLiteral("with effects") : QStringLiteral("no effects")].push_back(d);
        if (!fx)
            groups[QStringLiteral("no effects, zero %1%2")
                       .arg(p.data > 1 ? p.zero : 0)
                       .arg(p.pipeline > 1 ? ", pipeline" : "")]
                .push_back(d);
        if (d > (fx ? kAgreeToleranceEffects : kAgreeTolerance)) {
            ++over;
            if (!fx && printed++ < kMaxPrinted)
                qInfo("engine and closed form differ by %.1f %% without effects: %s", 100 * d,
                      qPrintable(describe(c, QString())));
        }
    }
    for (auto &[name, v] : groups) {
        std::sort(v.begin(), v.end());
        const auto q = [&](double p) { return 100 * v[size_t(p * double(v.size() - 1))]; };
        qInfo("engine vs closed form, %s (%zu cases): |analytic/engine - 1| median %.2f %%, "
              "p90 %.2f %%, max %.2f %%",
              qPrintable(name), v.size(), q(0.5), q(0.9), q(1.0));
    }
    qInfo("%d of %zu cases beyond tst_invariants' tolerance (%.0f %% without effects, %.0f %% "
          "with effects)",
          over, cases_.size(), 100 * kAgreeTolerance, 100 * kAgreeToleranceEffects);
}

QTEST_GUILESS_MAIN(TestRandomInvariants)
#include "tst_random_invariants.moc"
