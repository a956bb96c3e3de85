// Fault coverage of the CUDA backend (hardening issue): every CUDA, cuBLAS, NCCL and NVML
// function that cuda_backend.cu and dynamic_libs.cpp call is in api_calls.h's table, the fake
// backend fails each one in turn where the real backend makes it, and the run records it and
// goes on; a missing cuBLAS (loaded at run time) skips the GEMM tests and nothing else; and
// the collective watchdog ends a hung NCCL collective with a clear message.
#include "api_calls.h"
#include "cli.h"
#include "dynamic_libs.h"
#include "fake_backend.h"
#include "probe.h"
#include "probe_test_util.h"

#include "io/profile_io.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <set>

using namespace scalescope;
using namespace scalescope::gpuprobe;

using scalescope::gpuprobe::test::figures;
using scalescope::gpuprobe::test::mentions;

namespace
{

class Recorder final : public ProbeListener
{
public:
    void progress(int d, int t, const std::string &, const std::string &) override
    {
        if (d < done || (total >= 0 && t != total))
            monotonic = false;
        done = d;
        total = t;
    }
    void skipped(const std::string &, const std::string &) override {}
    void error(const std::string &, const std::string &message) override
    {
        errors.push_back(message);
    }

    int done = 0, total = -1;
    bool monotonic = true;
    std::vector<std::string> errors;
};

/// Two MPI ranks as seen from rank 0 (the other rank agrees with everything): enough for the
/// runner to take the multi-rank path (ncclGetUniqueId, ncclCommInitRank).
class TwoRanks final : public Cluster
{
public:
    int size() const override { return 2; }
    int nodes() const override { return 2; }
};

/// Small sizes and every test, thermal included (NVML readings).
ProbeOptions tinyOptions()
{
    ProbeOptions o;
    o.quick = true;
    o.tests.assign(std::begin(kAllTests), std::end(kAllTests));
    o.memory_array_bytes = 4 << 20;
    o.transfer_bytes = 64 << 10;
    o.p2p_bytes = 1 << 20;
    o.collective_max_bytes = 64;
    o.gemm_sizes = {256};
    o.repetitions = 1;
    o.warmup = 1;
    o.min_batch_s = 0;
    o.launch_kernels = 2;
    o.p2p_small_copies = 2;
    o.thermal_s = 0.002;
    o.thermal_sample_s = 0.001;
    return o;
}

QString readSource(const char *name)
{
    QFile f(QStringLiteral(GPUPROBE_SOURCE_DIR "/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", name);
    return QString::fromUtf8(f.readAll());
}

QString withoutComments(QString text)
{
    static const QRegularExpression block(QStringLiteral("/\\*.*?\\*/"),
                                          QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression line(QStringLiteral("//[^\\n]*"));
    return text.remove(block).remove(line);
}

/// Names of the Backend interface's methods (some start with nccl or nvml).
std::set<QString> backendMethods()
{
    std::set<QString> names;
    static const QRegularExpression virt(QStringLiteral("virtual[^;(]*?\\b(\\w+)\\s*\\("));
    auto it = virt.globalMatch(withoutComments(readSource("backend.h")));
    while (it.hasNext())
        names.insert(it.next().captured(1));
    return names;
}

/// Every CUDA/cuBLAS/NCCL/NVML function the real backend calls: identifiers followed by "("
/// in cuda_backend.cu (less the Backend methods it overrides and its own helpers), and the
/// symbols dynamic_libs.cpp resolves with dlsym or names in its results (string literals).
std::set<QString> sourceCalls(std::set<QString> *helpers)
{
    std::set<QString> found;
    const std::set<QString> methods = backendMethods();
    const QString cuda = withoutComments(readSource("cuda_backend.cu"));
    static const QRegularExpression call(
        QStringLiteral("\\b((?:cuda|cublas|nccl|nvml)\\w*)\\s*\\("));
    // A definition of a helper of the file: "<type> name(" at the start of a line.
    static const QRegularExpression definition(
        QStringLiteral(
            "^\\s*(?:static\\s+|inline\\s+)*(?!return\\b|else\\b|case\\b)[A-Za-z_][\\w:]*\\s+"
            "((?:cuda|cublas|nccl|nvml)\\w*)\\s*\\("),
        QRegularExpression::MultilineOption);
    auto defs = definition.globalMatch(cuda);
    while (defs.hasNext()) {
        const QString name = defs.next().captured(1);
        if (!methods.count(name))
            helpers->insert(name);
    }
    auto it = call.globalMatch(cuda);
    while (it.hasNext()) {
        const QString name = it.next().captured(1);
        if (!methods.count(name) && !helpers->count(name))
            found.insert(name);
    }
    const QString libs = withoutComments(readSource("dynamic_libs.cpp"));
    static const QRegularExpression literal(
        QStringLiteral("\"((?:cuda|cublas|nccl|nvml)[A-Za-z0-9_]*)\""));
    auto lit = literal.globalMatch(libs);
    while (lit.hasNext())
        found.insert(lit.next().captured(1));
    auto direct = call.globalMatch(libs);
    while (direct.hasNext())
        found.insert(direct.next().captured(1));
    return found;
}

/// The run that reaches `fault_point`: the GEMM library, the NVML version, a hung collective
/// (for ncclAbort) or two ranks (ncclGetUniqueId, ncclInitRank) it needs.
struct Setup {
    FakeBackend::Config config;
    ProbeOptions options = tinyOptions();
    bool two_ranks = false;
};

Setup setupFor(const std::string &fault_point)
{
    Setup s;
    s.config.gpus = 2;
    if (fault_point.find("(cublas)") != std::string::npos)
        s.options.gemm_library = GemmLibrary::Cublas;
    if (fault_point.find("(legacy driver)") != std::string::npos)
        s.config.nvml_legacy_throttle = true;
    if (fault_point == "ncclAbort") {
        s.config.hang_collective = "all_gather";
        s.options.collective_timeout_s = 0.02;
    }
    if (fault_point == "ncclGetUniqueId" || fault_point == "ncclInitRank")
        s.two_ranks = true;
    return s;
}

ProbeResult runSetup(FakeBackend &fake, const Setup &s, Recorder *rec)
{
    Cluster one;
    TwoRanks two;
    return runProbe(fake, s.two_ranks ? static_cast<Cluster &>(two) : one, s.options, rec);
}

/// gpuprobeMain on fake backends made by `factory`: the exit code, and stdout then stderr in
/// `text`.
int runMain(const BackendFactory &factory, const std::vector<std::string> &args, std::string *text)
{
    Cluster one;
    std::FILE *out = std::tmpfile();
    std::FILE *err = std::tmpfile();
    const int code = gpuprobeMain(args, one, factory, out, err);
    text->clear();
    for (std::FILE *f : {out, err}) {
        std::rewind(f);
        char buffer[4096];
        size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
            text->append(buffer, n);
        std::fclose(f);
    }
    return code;
}

size_t countTest(const std::vector<ProfileNote> &notes, const std::string &test)
{
    return static_cast<size_t>(std::count_if(notes.begin(), notes.end(),
                                             [&](const ProfileNote &n) { return n.test == test; }));
}

} // namespace

class TestProbeFaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tableCoversEverySourceCall();
    void everyApiCallFailsInTurn();
    void missingCublasSkipsGemm();
    void cublasLoaderOnThisMachine();
    void hungCollectiveIsAborted();
    void watchdogFromTheCommandLine();
};

void TestProbeFaults::tableCoversEverySourceCall()
{
    std::set<QString> helpers;
    const std::set<QString> calls = sourceCalls(&helpers);
    qInfo("%zu library functions called by the CUDA backend; helpers skipped: %s", calls.size(),
          qPrintable(QStringList(helpers.begin(), helpers.end()).join(QLatin1Char(' '))));
    // The extraction itself works (a broken pattern would pass vacuously).
    for (const char *expected : {"cudaMalloc", "cublasLtMatmul", "cublasGemmEx", "ncclAllReduce",
                                 "ncclCommAbort", "ncclCommGetAsyncError", "cudaStreamQuery",
                                 "nvmlInit_v2", "nvmlDeviceGetCurrentClocksThrottleReasons"})
        QVERIFY2(calls.count(QLatin1String(expected)), expected);
    QVERIFY(calls.size() > 60);
    QVERIFY(helpers.count(QStringLiteral("cudaResult")));

    QStringList missing;
    for (const QString &name : calls)
        if (!isKnownApiCall(name.toStdString()))
            missing << name;
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("called by the CUDA backend but not in api_calls.cpp "
                                       "(no fault injection covers them): ") +
                        missing.join(QStringLiteral(", "))));
    // And no row is stale.
    QStringList stale;
    for (const ApiCall &api : apiCalls())
        if (!calls.count(QLatin1String(api.name)) && !stale.contains(QLatin1String(api.name)))
            stale << QLatin1String(api.name);
    QVERIFY2(stale.isEmpty(), qPrintable(QStringLiteral("rows for functions no longer called: ") +
                                         stale.join(QStringLiteral(", "))));
    // Every function that can fail has a fault point.
    for (const QString &name : calls) {
        bool injectable = false, text_only = false;
        for (const ApiCall &api : apiCalls()) {
            if (name != QLatin1String(api.name))
                continue;
            if (api.effect == FaultEffect::ErrorText)
                text_only = true;
            else
                injectable = injectable || api.fault_point[0] != '\0';
        }
        QVERIFY2(injectable || text_only, qPrintable(name));
    }
}

void TestProbeFaults::everyApiCallFailsInTurn()
{
    // Reference figures per setup, to check that a failure the real backend ignores changes
    // nothing, and that a reported one only costs the figures of its measurement.
    std::map<std::string, size_t> clean_figures;
    int runs = 0;
    for (const ApiCall &api : apiCalls()) {
        if (api.effect == FaultEffect::ErrorText)
            continue;
        const std::string label = std::string(api.name) + " in " + api.fault_point;
        const Setup setup = setupFor(api.fault_point);
        const std::string setup_key = std::string(api.fault_point).find('(') == std::string::npos
                                          ? setup.two_ranks ? "two ranks" : "plain"
                                          : api.fault_point;
        if (!clean_figures.count(setup_key)) {
            FakeBackend clean(setup.config);
            Recorder rec;
            const ProbeResult r = runSetup(clean, setup, &rec);
            clean_figures[setup_key] = figures(r.profile);
        }

        FakeBackend fake(setup.config);
        // The first time the method makes the call: one failure, then the run goes on.
        fake.failApi(api.name, api.fault_point, 1);
        Recorder rec;
        const ProbeResult r = runSetup(fake, setup, &rec);
        ++runs;
        QVERIFY2(
            fake.injectedFaults() > 0,
            qPrintable(
                QStringLiteral("%1: the run never reached it").arg(QString::fromStdString(label))));
        const Result<CalibrationProfile> parsed = parseProfile(writeProbeProfile(r));
        QVERIFY2(parsed, qPrintable(QString::fromStdString(label)));
        const CalibrationProfile &p = parsed.value();
        QCOMPARE(fake.liveObjects(), size_t(0));
        QVERIFY(rec.monotonic);
        if (r.no_gpu_reason.empty())
            QCOMPARE(rec.done, rec.total);
        const auto recorded = [&](const std::string &text) {
            return mentions(p.errors, text) || mentions(p.skipped, text) ||
                   r.no_gpu_reason.find(text) != std::string::npos;
        };
        switch (api.effect) {
        case FaultEffect::Reported:
            QVERIFY2(
                recorded(std::string(api.name) + ": injected failure"),
                qPrintable(
                    QStringLiteral("%1 failed unrecorded").arg(QString::fromStdString(label))));
            break;
        case FaultEffect::LaunchError:
            QVERIFY2(recorded("<<<>>>: injected failure"),
                     qPrintable(QString::fromStdString(label)));
            break;
        case FaultEffect::Ignored:
            // Cleanup: the real backend ignores it; the run is the clean one.
            QVERIFY2(!recorded("injected failure"), qPrintable(QString::fromStdString(label)));
            QCOMPARE(figures(p), clean_figures[setup_key]);
            break;
        case FaultEffect::ErrorText:
            break;
        }
        if (api.effect != FaultEffect::Ignored && r.no_gpu_reason.empty()) {
            // It went on: at most the failing measurement's figures (and its GPU's) are missing.
            QVERIFY2(figures(p) > 0 &&
                         figures(p) + clean_figures[setup_key] / 2 + 4 >= clean_figures[setup_key],
                     qPrintable(QStringLiteral("%1: %2 of %3 figures")
                                    .arg(QString::fromStdString(label))
                                    .arg(figures(p))
                                    .arg(clean_figures[setup_key])));
        }
    }
    qInfo("%d runs, one per (call, fault point)", runs);
}

void TestProbeFaults::missingCublasSkipsGemm()
{
    // No libcublas.so.13 (a machine without the CUDA toolkit's libraries): each GEMM test is
    // skipped once, naming the library, the thermal test has no load, everything else runs.
    const std::string reason = "cuBLAS unavailable: dlopen(libcublas.so.13): libcublas.so.13: "
                               "cannot open shared object file";
    for (const GemmLibrary library : {GemmLibrary::CublasLt, GemmLibrary::Cublas}) {
        FakeBackend::Config config;
        config.gpus = 2;
        config.cublas = false;
        FakeBackend fake(config);
        ProbeOptions o = tinyOptions();
        o.gemm_library = library;
        Recorder rec;
        Cluster one;
        const ProbeResult r = runProbe(fake, one, o, &rec);
        QVERIFY(r.no_gpu_reason.empty());
        const Result<CalibrationProfile> parsed = parseProfile(writeProbeProfile(r));
        QVERIFY(parsed);
        const CalibrationProfile &p = parsed.value();
        QVERIFY2(p.errors.empty(), p.errors.empty() ? "" : p.errors.front().text.c_str());
        for (int pi = 0; pi < kPrecisionCount; ++pi) {
            const std::string test = std::string("gemm.") + precisionName(Precision(pi));
            QCOMPARE(countTest(p.skipped, test), size_t(1));
        }
        QCOMPARE(countTest(p.skipped, "thermal"), size_t(1));
        for (const ProfileNote &n : p.skipped)
            QCOMPARE(n.text, n.test == "thermal" ? "no GEMM load: " + reason : reason);
        QCOMPARE(p.skipped.size(), size_t(kPrecisionCount + 1));
        // No GEMM was set up; the other tests measured as usual.
        for (const std::string &call : fake.calls())
            QVERIFY2(call.rfind("cublas", 0) != 0, call.c_str());
        QCOMPARE(p.gpus.size(), size_t(2));
        for (const ProfileGpu &g : p.gpus) {
            for (const auto &points : g.gemm_tflops)
                QVERIFY(points.empty());
            QVERIFY(g.memory_bandwidth_gbps > 0 && g.h2d_pinned_gbps > 0 &&
                    g.launch_overhead_us > 0);
            QVERIFY(g.thermal_samples.empty());
        }
        QVERIFY(!p.p2p.empty());
        QVERIFY(!p.collectives.empty());
        QVERIFY(rec.monotonic);
        QCOMPARE(rec.done, rec.total);
        QCOMPARE(fake.liveObjects(), size_t(0));
    }

    // The program: skips are not failures (exit 0), and each is printed with its reason.
    const auto factory = [] {
        FakeBackend::Config config;
        config.gpus = 2;
        config.cublas = false;
        return std::unique_ptr<Backend>(std::make_unique<FakeBackend>(config));
    };
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::string text;
    QCOMPARE(runMain(factory,
                     {"--quick", "--tests", "gemm,memory", "-o",
                      dir.filePath(QStringLiteral("profile.json")).toStdString()},
                     &text),
             int(kExitOk));
    QVERIFY2(text.find("skipped gemm.bf16: " + reason) != std::string::npos, text.c_str());
}

void TestProbeFaults::cublasLoaderOnThisMachine()
{
    // The real loader, no GPU needed: where cuBLAS is installed every entry point resolves
    // (a misspelt symbol fails here) and a call returns through the loaded status names;
    // elsewhere the failure names the library it could not open.
#if defined(__SANITIZE_ADDRESS__)
    // Under LeakSanitizer the real cuBLAS is reported for its own static pools, which it
    // never frees (seen in CI: 145,600 bytes in libcublasLt); the ordinary build runs this.
    QSKIP("built with AddressSanitizer: the real cuBLAS's own never-freed allocations would "
          "be reported as leaks; this check runs in the ordinary build");
#endif
    CublasLibrary cublas;
    std::string sonames;
    const CallStatus s = cublas.load(&sonames);
    if (!s.ok()) {
        qInfo("no cuBLAS here: %s: %s", s.call.c_str(), s.message.c_str());
        QVERIFY2(s.call.rfind("dlopen(libcublas", 0) == 0, s.call.c_str());
        QVERIFY(s.message.find("also tried libcublas.so.12, libcublas.so.11") != std::string::npos);
        QVERIFY(!cublas.loaded());
        return;
    }
    qInfo("loaded %s", sonames.c_str());
    QVERIFY(cublas.loaded());
    QVERIFY2(sonames.rfind("libcublas.so.", 0) == 0, sonames.c_str());
    std::string again;
    QVERIFY(cublas.load(&again).ok());
    QCOMPARE(again, sonames);
    // cublasLtCreate works without a GPU on some versions and fails on others; either way
    // the result comes back through the loaded library.
    void *handle = nullptr;
    const CallStatus created = cublas.ltCreate(&handle);
    if (created.ok()) {
        QVERIFY(handle);
        QVERIFY(cublas.ltDestroy(handle).ok());
    } else {
        qInfo("%s: %s", created.call.c_str(), created.message.c_str());
        QCOMPARE(created.call, std::string("cublasLtCreate"));
        QVERIFY2(created.message.rfind("CUBLAS_STATUS_", 0) == 0, created.message.c_str());
    }
}

void TestProbeFaults::hungCollectiveIsAborted()
{
    FakeBackend::Config config;
    config.gpus = 8;
    config.hang_collective = "all_reduce";
    ProbeOptions o = tinyOptions();
    o.collective_max_bytes = 64 << 20;
    o.collective_timeout_s = 0.25;
    FakeBackend fake(config);
    Recorder rec;
    Cluster one;
    const ProbeResult r = runProbe(fake, one, o, &rec);

    const Result<CalibrationProfile> parsed = parseProfile(writeProbeProfile(r));
    QVERIFY(parsed);
    const CalibrationProfile &p = parsed.value();
    // The first all_reduce hangs: reported once, clearly, with its size, GPUs and limit.
    const std::string expected = "all_reduce of 8 bytes on 8 GPUs did not complete within "
                                 "0.25 s; NCCL communicator aborted (ncclCommAbort)";
    QVERIFY2(mentions(p.errors, expected),
             p.errors.empty() ? "no error" : p.errors.front().text.c_str());
    QCOMPARE(std::count_if(p.errors.begin(), p.errors.end(),
                           [](const ProfileNote &n) {
                               return n.text.find("did not complete") != std::string::npos;
                           }),
             std::ptrdiff_t(1));
    QVERIFY(std::find(rec.errors.begin(), rec.errors.end(), expected) != rec.errors.end());
    // No collective figure after the abort; every other test ran (thermal comes after nccl).
    QVERIFY(p.collectives.empty());
    QCOMPARE(p.gpus.size(), size_t(8));
    for (const ProfileGpu &g : p.gpus) {
        QVERIFY(g.memory_bandwidth_gbps > 0);
        QVERIFY(!g.thermal_samples.empty());
    }
    QVERIFY(!p.p2p.empty());
    QVERIFY(rec.monotonic);
    QCOMPARE(rec.done, rec.total);
    QCOMPARE(fake.liveObjects(), size_t(0));

    // A larger collective that hangs is named with its size.
    FakeBackend::Config late = config;
    late.hang_collective = "reduce_scatter";
    FakeBackend fake2(late);
    o.collective_timeout_s = 0.1;
    const ProbeResult r2 = runProbe(fake2, one, o, nullptr);
    QVERIFY(mentions(r2.profile.errors, "reduce_scatter of "));
    QVERIFY(mentions(r2.profile.errors, " on 8 GPUs did not complete within 0.1 s; NCCL "
                                        "communicator aborted (ncclCommAbort)"));
    QVERIFY(!r2.profile.collectives.empty()); // all_reduce and all_gather were measured

    // An asynchronous NCCL error found while waiting aborts the communicator at once.
    FakeBackend::Config two;
    two.gpus = 2;
    FakeBackend broken(two);
    broken.failApi("ncclCommGetAsyncError", "ncclQuery", 1);
    o.collective_timeout_s = 30;
    const ProbeResult r3 = runProbe(broken, one, o, nullptr);
    QVERIFY(!mentions(r3.profile.errors, "did not complete")); // not the 30 s deadline
    QVERIFY(mentions(r3.profile.errors,
                     "all_reduce of 8 bytes on 2 GPUs failed: ncclCommGetAsyncError: injected "
                     "failure; NCCL communicator aborted (ncclCommAbort)"));
    QVERIFY(r3.profile.collectives.empty()); // nothing after the abort
    QCOMPARE(broken.liveObjects(), size_t(0));
}

void TestProbeFaults::watchdogFromTheCommandLine()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string out_path = dir.filePath(QStringLiteral("profile.json")).toStdString();
    const auto factory = [] {
        FakeBackend::Config config;
        config.gpus = 4;
        config.hang_collective = "all_gather";
        return std::unique_ptr<Backend>(std::make_unique<FakeBackend>(config));
    };
    const auto run = [&](const std::vector<std::string> &args, std::string *text) {
        return runMain(factory, args, text);
    };
    std::string text;
    QCOMPARE(run({"--help"}, &text), int(kExitOk));
    QVERIFY(text.find("--collective-timeout SECONDS") != std::string::npos);
    QCOMPARE(run({"--collective-timeout", "0"}, &text), int(kExitBadArguments));
    QVERIFY(text.find("--collective-timeout: \"0\" is not a duration") != std::string::npos);
    QCOMPARE(run({"--collective-timeout", "soon"}, &text), int(kExitBadArguments));

    QElapsedTimer wall;
    wall.start();
    const int code = run({"--quick", "--tests", "memory,nccl,thermal", "--thermal", "1",
                          "--collective-timeout", "0.5", "-o", out_path},
                         &text);
    qInfo("gpuprobe with a hung all_gather: exit %d after %lld ms", code,
          static_cast<long long>(wall.elapsed()));
    QCOMPARE(code, int(kExitFailure)); // the profile is written and lists the error
    QVERIFY2(text.find("error nccl.all_gather: all_gather of ") != std::string::npos &&
                 text.find(" on 4 GPUs did not complete within 0.5 s; NCCL communicator aborted "
                           "(ncclCommAbort)") != std::string::npos,
             text.c_str());
    QFile f(QString::fromStdString(out_path));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const Result<CalibrationProfile> p = parseProfile(f.readAll());
    QVERIFY(p);
    QVERIFY(mentions(p.value().errors, "did not complete within 0.5 s"));
    QVERIFY(!p.value().gpus.front().thermal_samples.empty()); // the next test still ran
}

QTEST_GUILESS_MAIN(TestProbeFaults)
#include "tst_probe_faults.moc"
