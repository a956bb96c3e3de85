#include "cli.h"

#include "fake_backend.h"
#include "nccl_tests_log.h"
#include "probe.h"

#include "io/file_io.h"
#include "io/profile_io.h"

#include <QFileInfo>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>

namespace scalescope::gpuprobe
{

namespace
{

const char *kUsage =
    R"(Usage: gpuprobe [OPTIONS]
       gpuprobe --from-nccl-tests LOG... [--output FILE]

Measures this machine's GPUs and writes a ScaleScope calibration profile (spec/profile.md):
dense GEMM throughput per precision and shape, device memory bandwidth, host<->device
bandwidth, kernel launch overhead, peer-to-peer bandwidth and latency, NCCL collectives,
and (on request) a thermal soak. Never changes clocks, power limits or modes.

Options:
  -o, --output FILE          profile to write (default: gpuprobe-profile.json)
      --quick                shorter run (about 30 s on one GPU): fewer shapes and sizes
      --tests LIST           comma-separated: gemm, memory, transfer, launch, p2p, nccl,
                             thermal, or all (default: all but thermal)
      --devices LIST         comma-separated CUDA device indices (default: all)
      --thermal SECONDS      add a thermal soak of SECONDS under GEMM load (NVML samples)
      --gemm-library NAME    cublaslt (default) or cublas
      --gemm-sizes LIST      square GEMM sizes to measure (default: 256 to 16384,
                             quick: 256,1024,4096,8192)
      --collective-timeout SECONDS  NCCL watchdog: a collective not complete after
                             SECONDS (default 30) is a hang; its communicator is aborted
                             (ncclCommAbort), the error recorded, the other tests go on
      --progress             machine-readable progress lines on stdout (see README.md)
      --from-nccl-tests LOG...  make the profile's collectives from nccl-tests output
                             (all_reduce_perf, all_gather_perf, ...); needs no GPU
      --fake-gpus N          use N simulated GPUs instead of the hardware (for tests of
                             programs that run gpuprobe); the profile's tool says so
  -h, --help                 this text
      --version              the version

Exit codes: 0 profile written; 1 profile written but it lists errors, or it could not be
written; 2 bad arguments or input (an option given twice, an --output that is one of
the LOG files); 3 no usable GPU (built without CUDA, no driver, no device), with the
reason on stderr (a profile saying so is still written).
)";

struct Options {
    ProbeOptions probe;
    std::string output = "gpuprobe-profile.json";
    bool progress = false;
    bool help = false, version = false;
    std::vector<std::string> nccl_logs;
    bool from_nccl_tests = false;
    int fake_gpus = 0;
    bool probe_options_given = false;
};

/// One line, safe for a terminal: line breaks and tabs become spaces (no line breaks
/// inside a field of the machine-readable stream), other control characters (ESC of a
/// terminal escape sequence, BEL, DEL) \xNN, so that a file name or a log's text cannot
/// forge lines or drive the terminal (issue 29). Every line gpuprobe prints goes through it.
std::string oneLine(const std::string &text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n' || c == '\r' || c == '\t') {
            out += ' ';
        } else if (byte < 0x20 || byte == 0x7F) {
            static const char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 15];
        } else {
            out += c;
        }
    }
    return out;
}

/// "gpuprobe: TEXT" on `err`, through oneLine().
void say(std::FILE *err, const std::string &text)
{
    std::fprintf(err, "gpuprobe: %s\n", oneLine(text).c_str());
}

class Reporter final : public ProbeListener
{
public:
    Reporter(std::FILE *out, std::FILE *err, bool machine) : out_(out), err_(err), machine_(machine)
    {
    }
    void progress(int done, int total, const std::string &test, const std::string &message) override
    {
        if (machine_)
            line(out_, "progress " + std::to_string(done) + " " + std::to_string(total) + " " +
                           token(test) + " " + message);
        else
            line(err_, "[" + std::to_string(done) + "/" + std::to_string(total) + "] " + test +
                           ": " + message);
    }
    void skipped(const std::string &test, const std::string &reason) override
    {
        line(machine_ ? out_ : err_,
             (machine_ ? "skipped " + token(test) + " " : "skipped " + test + ": ") + reason);
    }
    void error(const std::string &test, const std::string &message) override
    {
        line(machine_ ? out_ : err_,
             (machine_ ? "error " + token(test) + " " : "error " + test + ": ") + message);
    }
    void profile(const std::string &path)
    {
        if (machine_)
            line(out_, "profile " + path);
    }

private:
    static std::string token(const std::string &test)
    {
        std::string t = oneLine(test);
        for (char &c : t)
            if (c == ' ')
                c = '_';
        return t.empty() ? std::string("-") : t;
    }
    // A reader that went away (`| head -1`; SIGPIPE is ignored, main.cpp) fails the
    // stream with EPIPE: stop printing to it, and go on measuring and write the profile.
    static void line(std::FILE *f, const std::string &text)
    {
        if (std::ferror(f))
            return;
        std::fprintf(f, "%s\n", oneLine(text).c_str());
        std::fflush(f);
    }
    std::FILE *out_;
    std::FILE *err_;
    bool machine_;
};

std::optional<long long> wholeNumber(const std::string &text)
{
    if (text.empty())
        return std::nullopt;
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || *end != '\0')
        return std::nullopt;
    return v;
}

std::vector<std::string> splitList(const std::string &text)
{
    std::vector<std::string> items;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const size_t end = comma == std::string::npos ? text.size() : comma;
        items.push_back(text.substr(start, end - start));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return items;
}

/// A file name from the command line, its bytes kept (decodeFileName).
QString fileName(const std::string &name)
{
    return decodeFileName(QByteArray::fromStdString(name));
}

/// Parses the arguments; returns an error message ("--devices: ...") or "". Each option may
/// be given once (before, `-o a -o b` silently wrote b).
std::string parseArgs(const std::vector<std::string> &args, Options *o)
{
    bool tests_given = false, thermal_given = false;
    std::set<std::string> given;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        std::optional<std::string> inline_value;
        if (arg.rfind("--", 0) == 0) {
            const size_t eq = arg.find('=');
            if (eq != std::string::npos) {
                inline_value = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
            }
        }
        if (arg.rfind("-", 0) == 0 && arg != "-") {
            const std::string name = arg == "-o" ? "--output" : arg == "-h" ? "--help" : arg;
            if (!given.insert(name).second)
                return arg + ": given more than once; give each option once" +
                       (name == "--from-nccl-tests" ? " (it takes several LOG files)" : "");
        }
        const auto value = [&](std::string *out) -> std::string {
            if (inline_value) {
                *out = *inline_value;
                return {};
            }
            if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
                return arg + ": needs a value; see --help";
            *out = args[++i];
            return {};
        };
        std::string v;
        if (arg == "-h" || arg == "--help") {
            o->help = true;
        } else if (arg == "--version") {
            o->version = true;
        } else if (arg == "-o" || arg == "--output") {
            if (std::string e = value(&v); !e.empty())
                return e;
            if (v.empty())
                return arg + ": empty file name; allowed: a file path";
            o->output = v;
        } else if (arg == "--quick") {
            o->probe.quick = true;
            o->probe_options_given = true;
        } else if (arg == "--progress") {
            o->progress = true;
        } else if (arg == "--tests") {
            if (std::string e = value(&v); !e.empty())
                return e;
            o->probe.tests.clear();
            for (const std::string &name : splitList(v)) {
                if (name == "all") {
                    o->probe.tests.assign(std::begin(kAllTests), std::end(kAllTests));
                    continue;
                }
                const std::optional<TestId> t = testFromName(name);
                if (!t)
                    return "--tests: \"" + name +
                           "\" is not a test; allowed: gemm, memory, transfer, launch, p2p, "
                           "nccl, thermal, all";
                if (!o->probe.has(*t))
                    o->probe.tests.push_back(*t);
            }
            tests_given = true;
            o->probe_options_given = true;
        } else if (arg == "--devices") {
            if (std::string e = value(&v); !e.empty())
                return e;
            o->probe.devices.clear();
            for (const std::string &item : splitList(v)) {
                const std::optional<long long> d = wholeNumber(item);
                if (!d || *d < 0 || *d > 1023)
                    return "--devices: \"" + item +
                           "\" is not a device index; allowed: comma-separated whole numbers "
                           "0 to 1023";
                if (std::find(o->probe.devices.begin(), o->probe.devices.end(), int(*d)) ==
                    o->probe.devices.end())
                    o->probe.devices.push_back(static_cast<int>(*d));
            }
            o->probe_options_given = true;
        } else if (arg == "--thermal") {
            if (std::string e = value(&v); !e.empty())
                return e;
            char *end = nullptr;
            const double s = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !std::isfinite(s) || s < 1 || s > 86400)
                return "--thermal: \"" + v + "\" is not a duration; allowed: 1 to 86400 seconds";
            o->probe.thermal_s = s;
            thermal_given = true;
            o->probe_options_given = true;
        } else if (arg == "--collective-timeout") {
            if (std::string e = value(&v); !e.empty())
                return e;
            char *end = nullptr;
            const double s = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !std::isfinite(s) || s <= 0 || s > 86400)
                return "--collective-timeout: \"" + v +
                       "\" is not a duration; allowed: more than 0 up to 86400 seconds";
            o->probe.collective_timeout_s = s;
            o->probe_options_given = true;
        } else if (arg == "--gemm-sizes") {
            if (std::string e = value(&v); !e.empty())
                return e;
            o->probe.gemm_sizes.clear();
            for (const std::string &item : splitList(v)) {
                const std::optional<long long> n = wholeNumber(item);
                if (!n || *n < 16 || *n > 65536)
                    return "--gemm-sizes: \"" + item +
                           "\" is not a matrix size; allowed: comma-separated whole numbers 16 "
                           "to 65536 (square m = n = k)";
                o->probe.gemm_sizes.push_back(*n);
            }
            o->probe_options_given = true;
        } else if (arg == "--gemm-library") {
            if (std::string e = value(&v); !e.empty())
                return e;
            if (v == "cublaslt")
                o->probe.gemm_library = GemmLibrary::CublasLt;
            else if (v == "cublas")
                o->probe.gemm_library = GemmLibrary::Cublas;
            else
                return "--gemm-library: \"" + v + "\" is not a library; allowed: cublaslt, cublas";
            o->probe_options_given = true;
        } else if (arg == "--fake-gpus") {
            if (std::string e = value(&v); !e.empty())
                return e;
            const std::optional<long long> n = wholeNumber(v);
            if (!n || *n < 0 || *n > 16)
                return "--fake-gpus: \"" + v + "\" is not a GPU count; allowed: 0 to 16";
            o->fake_gpus = static_cast<int>(*n);
            if (o->fake_gpus == 0)
                o->fake_gpus = -1; // a fake machine without GPUs
        } else if (arg == "--from-nccl-tests") {
            if (inline_value)
                o->nccl_logs.push_back(*inline_value);
            while (i + 1 < args.size() && args[i + 1].rfind("-", 0) != 0)
                o->nccl_logs.push_back(args[++i]);
            if (o->nccl_logs.empty())
                return "--from-nccl-tests: needs at least one log file";
            o->from_nccl_tests = true;
        } else if (arg.rfind("-", 0) == 0) {
            return arg + ": unknown option; see --help";
        } else {
            return "\"" + arg + "\": unexpected argument; see --help";
        }
    }
    if (thermal_given && !tests_given)
        o->probe.tests.push_back(TestId::Thermal);
    if (o->from_nccl_tests && o->probe_options_given)
        return "--from-nccl-tests: cannot be combined with --quick, --tests, --devices, "
               "--thermal, --gemm-library or --collective-timeout (it measures nothing)";
    return {};
}

/// What --output must not be: one of the inputs (an nccl-tests log, compared by device
/// and inode, so ./run.log and symlinks are caught) nor, with --progress, the standard
/// output that receives the progress lines.
WriteGuard outputGuard(const Options &o)
{
    WriteGuard guard;
    for (const std::string &log : o.nccl_logs)
        guard.inputs.append(fileName(log));
    guard.stdout_in_use = o.progress;
    return guard;
}

/// kExitOk, or the message on `err` and kExitBadArguments (refused) or kExitFailure.
int outputOutcome(const WriteResult &written, std::FILE *err)
{
    if (written)
        return kExitOk;
    say(err, "--output: " + written.error.toStdString());
    return written.refused ? kExitBadArguments : kExitFailure;
}

/// Writes the profile to --output through the one guarded writer.
int writeOutput(const Options &o, const QByteArray &profile, std::FILE *err)
{
    return outputOutcome(writeFileSafely(fileName(o.output), profile, outputGuard(o)), err);
}

int fromNcclTests(const Options &o, Reporter &reporter, std::FILE *err)
{
    std::vector<NcclTestsLog> logs;
    int done = 0;
    const int total = static_cast<int>(o.nccl_logs.size());
    for (const std::string &file : o.nccl_logs) {
        const Result<QByteArray> data =
            readFileLimited(fileName(file), kMaxNcclTestsLogBytes, "nccl-tests log");
        if (!data) {
            say(err, data.error().toString());
            return kExitBadArguments;
        }
        Result<NcclTestsLog> log = parseNcclTestsLog(data.value(), file);
        if (!log) {
            say(err, log.error().toString());
            return kExitBadArguments;
        }
        reporter.progress(++done, total, "nccl-tests",
                          file + ": " + std::to_string(log.value().collectives.size()) + " rows");
        logs.push_back(std::move(log).value());
    }
    // Logs of different clusters are not one profile: where two logs name their GPUs'
    // models (nccl-tests' device lines), they must name the same ones. Before, an H100 and
    // a V100 log were merged into one profile without a word (issue 14).
    for (size_t i = 1; i < logs.size(); ++i)
        for (size_t j = 0; j < i; ++j) {
            const auto &a = logs[j].gpu_models, &b = logs[i].gpu_models;
            if (a.empty() || b.empty() || a == b)
                continue;
            const auto names = [](const std::vector<std::string> &v) {
                std::string s;
                for (const std::string &x : v)
                    s += (s.empty() ? "" : ", ") + x;
                return s;
            };
            say(err, "--from-nccl-tests: " + o.nccl_logs[j] + " ran on " + names(a) + ", " +
                         o.nccl_logs[i] + " on " + names(b) +
                         "; allowed: logs of one cluster (the same GPU models)");
            return kExitBadArguments;
        }
    // Each log is within a profile's limits; together they may not be (profile_io.h).
    size_t rows = 0, notes = 0;
    for (const NcclTestsLog &log : logs) {
        rows += log.collectives.size();
        notes += log.errors.size();
    }
    if (rows > size_t(kMaxProfileCollectives) || notes > size_t(kMaxProfileNotes)) {
        std::fprintf(err,
                     "gpuprobe: --from-nccl-tests: the logs hold %zu result rows and %zu wrong "
                     "rows together; allowed in one profile: at most %lld and %lld\n",
                     rows, notes, static_cast<long long>(kMaxProfileCollectives),
                     static_cast<long long>(kMaxProfileNotes));
        return kExitBadArguments;
    }
    const CalibrationProfile profile = profileFromNcclTests(
        logs, o.nccl_logs, std::string("gpuprobe ") + kVersion + " (from nccl-tests)");
    if (const int code = writeOutput(o, writeProfile(profile), err); code != kExitOk)
        return code;
    reporter.profile(o.output);
    say(err, "wrote " + o.output + " (" + std::to_string(profile.collectives.size()) +
                 " collective figures from " + std::to_string(total) + " logs)");
    return profile.errors.empty() ? kExitOk : kExitFailure;
}

} // namespace

int gpuprobeMain(const std::vector<std::string> &args, Cluster &cluster,
                 const BackendFactory &factory, std::FILE *out, std::FILE *err)
{
    Options o;
    if (const std::string e = parseArgs(args, &o); !e.empty()) {
        say(err, e);
        return kExitBadArguments;
    }
    if (o.help) {
        std::fputs(kUsage, out);
        return kExitOk;
    }
    if (o.version) {
        std::fprintf(out, "gpuprobe %s (%s, %s)\n", kVersion,
                     builtWithCuda() ? "CUDA" : "built without CUDA",
                     builtWithMpi() ? "MPI" : "no MPI");
        return kExitOk;
    }
    // Refused before the work: --output one of the logs, or the stdout of --progress.
    if (const int code = outputOutcome(checkWriteTarget(fileName(o.output), outputGuard(o)), err);
        code != kExitOk)
        return code;
    Reporter reporter(out, err, o.progress);
    if (o.from_nccl_tests)
        return fromNcclTests(o, reporter, err);

    std::unique_ptr<Backend> backend;
    if (o.fake_gpus != 0) {
        FakeBackend::Config config;
        config.gpus = std::max(0, o.fake_gpus);
        o.probe.tool += " (fake GPUs)";
        // Fake runs are for tests: keep them fast.
        o.probe.memory_array_bytes = 8u << 20;
        o.probe.transfer_bytes = 8u << 20;
        o.probe.p2p_bytes = 8u << 20;
        o.probe.collective_max_bytes = 64u << 20;
        o.probe.thermal_sample_s = std::min(o.probe.thermal_sample_s, o.probe.thermal_s / 4);
        backend = std::make_unique<FakeBackend>(config);
    } else {
        backend = factory();
    }
    ProbeResult result = runProbe(*backend, cluster, o.probe, &reporter);
    backend.reset();
    if (!result.argument_error.empty()) {
        say(err, result.argument_error);
        return kExitBadArguments;
    }
    if (result.secondary_rank)
        return result.profile.errors.empty() ? kExitOk : kExitFailure;

    if (const int code = writeOutput(o, writeProbeProfile(result), err); code != kExitOk)
        return code;
    reporter.profile(o.output);
    if (!result.no_gpu_reason.empty()) {
        say(err, "no usable GPU: " + result.no_gpu_reason);
        return kExitNoGpu;
    }
    const CalibrationProfile &p = result.profile;
    say(err, "wrote " + o.output + " (" + std::to_string(p.gpus.size()) + " GPU(s), " +
                 std::to_string(p.collectives.size()) + " collective figures, " +
                 std::to_string(p.skipped.size()) + " skipped, " + std::to_string(p.errors.size()) +
                 " errors)");
    return p.errors.empty() ? kExitOk : kExitFailure;
}

} // namespace scalescope::gpuprobe
