#include "nccl_tests_log.h"

#include "probe.h"

#include "io/profile_io.h"

#include <QFileInfo>
#include <QList>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace scalescope::gpuprobe
{

namespace
{

struct Row {
    int line = 0;
    double size = 0;
    double count = 0;
    std::string type;
    std::string redop; // empty when the layout has no redop column
    long long root = -1;
    double time_us = 0;
    double algbw = 0, busbw = 0; // as printed (2 decimals)
    double wrong = 0;            // #wrong (or old versions' max error)
    bool wrong_is_count = true;
};

struct Section {
    int first_line = 0;
    std::string op; // from the text ("all_reduce_perf"); empty if unknown
    int op_line = 0;
    std::set<int> ranks;
    std::set<std::string> hosts;
    std::string first_host;
    std::set<std::string> gpu_models;
    int threads = 0, gpus_per_thread = 0;
    std::vector<Row> rows;
};

Section startSection(int line, const std::string &op, int op_line)
{
    Section s;
    s.first_line = line;
    s.op = op;
    s.op_line = op_line;
    return s;
}

/// Column positions of one layout.
struct Layout {
    int columns = 0;
    int size = 0, count = 1, type = 2, redop = -1, root = -1, time = 3, algbw = 4, busbw = 5,
        wrong = 6;
};

std::optional<Layout> layoutFromHeader(const QStringList &names)
{
    Layout l;
    l.columns = static_cast<int>(names.size());
    l.redop = l.root = l.time = l.algbw = l.busbw = l.wrong = -1;
    for (int i = 0; i < l.columns; ++i) {
        const QString &n = names[i];
        const auto first = [&](int &slot) {
            if (slot < 0)
                slot = i;
        };
        if (n == QLatin1String("size"))
            l.size = i;
        else if (n == QLatin1String("count"))
            l.count = i;
        else if (n == QLatin1String("type"))
            l.type = i;
        else if (n == QLatin1String("redop"))
            first(l.redop);
        else if (n == QLatin1String("root"))
            first(l.root);
        else if (n == QLatin1String("time"))
            first(l.time);
        else if (n == QLatin1String("algbw"))
            first(l.algbw);
        else if (n == QLatin1String("busbw"))
            first(l.busbw);
        else if (n == QLatin1String("#wrong") || n == QLatin1String("wrong") ||
                 n == QLatin1String("error"))
            first(l.wrong);
    }
    if (l.size != 0 || l.count != 1 || l.type != 2 || l.time < 0 || l.algbw < 0 || l.busbw < 0)
        return std::nullopt;
    return l;
}

/// Layouts nccl-tests has printed without a header to go by.
std::optional<Layout> layoutFromColumns(int columns)
{
    Layout l;
    l.columns = columns;
    switch (columns) {
    case 13: // size count type redop root | time algbw busbw #wrong | in-place (v2.10+)
        l.redop = 3;
        l.root = 4;
        l.time = 5;
        break;
    case 12: // size count type redop | time algbw busbw error | in-place (older)
        l.redop = 3;
        l.time = 4;
        break;
    case 11: // size count type | time algbw busbw error | in-place (older all_gather)
        l.time = 3;
        break;
    default:
        return std::nullopt;
    }
    l.algbw = l.time + 1;
    l.busbw = l.time + 2;
    l.wrong = l.time + 3;
    return l;
}

double typeBytes(const std::string &type)
{
    static const std::map<std::string, double> kSizes = {
        {"int8", 1},    {"uint8", 1},  {"char", 1},   {"fp8_e4m3", 1}, {"fp8_e5m2", 1},
        {"f8e4m3", 1},  {"f8e5m2", 1}, {"half", 2},   {"float16", 2},  {"bfloat16", 2},
        {"bf16", 2},    {"int32", 4},  {"uint32", 4}, {"int", 4},      {"float", 4},
        {"float32", 4}, {"int64", 8},  {"uint64", 8}, {"double", 8},   {"float64", 8}};
    const auto it = kSizes.find(type);
    return it == kSizes.end() ? 0 : it->second;
}

/// "all_reduce" for the names nccl-tests' programs and people use; "" for others.
std::string opFromName(const QString &name)
{
    const QString n = name.toLower();
    if (n == QLatin1String("all_reduce") || n == QLatin1String("allreduce"))
        return "all_reduce";
    if (n == QLatin1String("all_gather") || n == QLatin1String("allgather"))
        return "all_gather";
    if (n == QLatin1String("reduce_scatter") || n == QLatin1String("reducescatter"))
        return "reduce_scatter";
    if (n == QLatin1String("broadcast"))
        return "broadcast";
    if (n == QLatin1String("alltoall") || n == QLatin1String("all_to_all"))
        return "all_to_all";
    return "unsupported:" + n.toStdString();
}

const QRegularExpression &programPattern()
{
    static const QRegularExpression re(QStringLiteral(
        "\\b(all_reduce|allreduce|all_gather|allgather|reduce_scatter|reducescatter|alltoall|"
        "all_to_all|broadcast|sendrecv|reduce|gather|scatter|hypercube)_perf\\b"));
    return re;
}

CollectiveOp opEnum(const std::string &op)
{
    if (op == "all_gather")
        return CollectiveOp::AllGather;
    if (op == "reduce_scatter")
        return CollectiveOp::ReduceScatter;
    if (op == "broadcast")
        return CollectiveOp::Broadcast;
    if (op == "all_to_all")
        return CollectiveOp::AllToAll;
    return CollectiveOp::AllReduce;
}

bool parseNumber(const QString &token, double *value)
{
    bool ok = false;
    *value = token.toDouble(&ok);
    return ok && std::isfinite(*value);
}

std::string num(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", value);
    return text;
}

InputError lineError(const std::string &file, int line, const std::string &message)
{
    return InputError{file + ":" + std::to_string(line), message};
}

} // namespace

Result<NcclTestsLog> parseNcclTestsLog(const QByteArray &text, const std::string &file_name)
{
    const std::string file = file_name.empty() ? std::string("nccl-tests log") : file_name;
    if (text.size() > kMaxNcclTestsLogBytes)
        return InputError{file, "is " + std::to_string(text.size()) +
                                    " bytes, larger than the limit; allowed: at most " +
                                    std::to_string(kMaxNcclTestsLogBytes) + " bytes"};
    if (text.contains('\0'))
        return InputError{file, "is not a text file (it contains NUL bytes); allowed: the text "
                                "output of nccl-tests (all_reduce_perf and friends)"};

    static const QRegularExpression kRank(
        QStringLiteral("^#\\s*Rank\\s+(\\d+)\\s+(?:Group\\s+\\d+\\s+)?Pid\\s+\\d+\\s+on\\s+(\\S+)"
                       "\\s+device\\s+\\d+(?:\\s+\\[[^\\]]*\\]\\s+(\\S.*?))?\\s*$"));
    static const QRegularExpression kThreads(
        QStringLiteral("^#\\s*nThread\\s+(\\d+)\\s+nGpus\\s+(\\d+)"));
    static const QRegularExpression kSpaces(QStringLiteral("\\s+"));
    static const QRegularExpression kInteger(QStringLiteral("^\\d+$"));

    std::vector<Section> sections;
    std::string pending_op;
    int pending_line = 0;
    std::optional<Layout> header;
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype li = 0; li < lines.size(); ++li) {
        const int line = static_cast<int>(li) + 1;
        const QString s = QString::fromUtf8(lines[li]).trimmed();
        if (s.isEmpty())
            continue;
        if (const QRegularExpressionMatch m = programPattern().match(s); m.hasMatch()) {
            const std::string op = opFromName(m.captured(1));
            if (!sections.empty() && sections.back().rows.empty() && sections.back().op.empty()) {
                sections.back().op = op;
                sections.back().op_line = line;
            } else {
                pending_op = op;
                pending_line = line;
            }
        }
        if (s.startsWith(QLatin1Char('#'))) {
            if (const QRegularExpressionMatch m = kThreads.match(s); m.hasMatch()) {
                Section next = startSection(line, pending_op, pending_line);
                next.threads = m.captured(1).toInt();
                next.gpus_per_thread = m.captured(2).toInt();
                pending_op.clear();
                sections.push_back(std::move(next));
                header.reset();
                continue;
            }
            if (const QRegularExpressionMatch m = kRank.match(s); m.hasMatch()) {
                if (sections.empty())
                    sections.push_back(startSection(line, pending_op, pending_line));
                Section &sec = sections.back();
                bool rank_ok = false;
                const int rank = m.captured(1).toInt(&rank_ok);
                if (!rank_ok || rank >= kMaxProfileCollectiveGpus)
                    return lineError(file, line,
                                     "rank " + m.captured(1).left(24).toStdString() +
                                         " is out of range; allowed: 0 to " +
                                         std::to_string(kMaxProfileCollectiveGpus - 1));
                sec.ranks.insert(rank);
                if (m.captured(2).size() > kMaxNcclTestsHostChars)
                    return lineError(file, line,
                                     "a host name of " + std::to_string(m.captured(2).size()) +
                                         " characters; allowed: at most " +
                                         std::to_string(kMaxNcclTestsHostChars));
                const std::string host = m.captured(2).toStdString();
                if (sec.hosts.empty())
                    sec.first_host = host;
                sec.hosts.insert(host);
                // The GPU model nccl-tests names after the bus id ("NVIDIA H100 80GB HBM3").
                if (const QString gpu = m.captured(3); !gpu.isEmpty())
                    sec.gpu_models.insert(gpu.left(kMaxNcclTestsHostChars).toStdString());
                continue;
            }
            const QStringList names = s.mid(1).trimmed().split(kSpaces, Qt::SkipEmptyParts);
            if (names.size() >= 2 && names[0] == QLatin1String("size") &&
                names[1] == QLatin1String("count")) {
                header = layoutFromHeader(names);
                if (!header)
                    return lineError(file, line,
                                     "a column header without size, count, type, time, algbw "
                                     "and busbw; allowed: nccl-tests' header");
            }
            continue;
        }
        const QStringList tokens = s.split(kSpaces, Qt::SkipEmptyParts);
        if (!kInteger.match(tokens[0]).hasMatch())
            continue; // NCCL_DEBUG output, shell prompts, mpirun warnings
        const std::optional<Layout> layout =
            header ? header : layoutFromColumns(static_cast<int>(tokens.size()));
        const std::string shown = s.left(80).toStdString();
        if (!layout || layout->columns != tokens.size())
            return lineError(file, line,
                             "\"" + shown + "\" has " + std::to_string(tokens.size()) +
                                 " columns; allowed: an nccl-tests result row (size count type "
                                 "[redop [root]] time algbw busbw #wrong, out-of-place then "
                                 "in-place)" +
                                 (header ? ", as many columns as its header" : ""));
        Row row;
        row.line = line;
        // A header may lack the #wrong column (wrong = -1): nothing reported wrong.
        const QString wrong = layout->wrong >= 0 ? tokens[layout->wrong] : QStringLiteral("N/A");
        bool ok = parseNumber(tokens[layout->size], &row.size) &&
                  parseNumber(tokens[layout->count], &row.count) &&
                  parseNumber(tokens[layout->time], &row.time_us) &&
                  parseNumber(tokens[layout->algbw], &row.algbw) &&
                  parseNumber(tokens[layout->busbw], &row.busbw);
        if (ok && wrong != QLatin1String("N/A")) {
            ok = parseNumber(wrong, &row.wrong);
            row.wrong_is_count =
                !wrong.contains(QLatin1Char('e')) && !wrong.contains(QLatin1Char('.'));
        }
        row.type = tokens[layout->type].toStdString();
        if (layout->redop >= 0)
            row.redop = tokens[layout->redop].toStdString();
        if (layout->root >= 0) {
            double root = -1;
            ok = ok && parseNumber(tokens[layout->root], &root) && root == std::trunc(root) &&
                 root >= -1 && root < double(kMaxProfileCollectiveGpus);
            row.root = ok ? static_cast<long long>(root) : -1;
        }
        if (!ok || row.time_us < 0 || row.size < 0 || row.count < 0 ||
            row.size != std::trunc(row.size) || row.count != std::trunc(row.count))
            return lineError(file, line,
                             "\"" + shown +
                                 "\" is not a valid result row; allowed: whole "
                                 "size and count, times and bandwidths as numbers");
        if (row.size > double(kMaxProfileCollectiveBytes))
            return lineError(file, line,
                             "size " + num(row.size) + " bytes is out of range; allowed: 0 to " +
                                 std::to_string(kMaxProfileCollectiveBytes));
        if (row.time_us * 1e-6 > kMaxProfileCollectiveTimeS)
            return lineError(file, line,
                             "time " + num(row.time_us) + " us is out of range; allowed: 0 to " +
                                 num(kMaxProfileCollectiveTimeS * 1e6) + " us");
        if (row.size > 0 && row.count == 0)
            return lineError(file, line,
                             "\"" + shown + "\" has a size but count 0; allowed: count >= 1");
        if (typeBytes(row.type) == 0)
            return lineError(file, line,
                             "unknown data type \"" + row.type +
                                 "\"; allowed: nccl-tests types (float, half, bfloat16, double, "
                                 "int8, uint8, int32, uint32, int64, uint64, fp8_e4m3, fp8_e5m2)");
        if (row.size == 0 || row.time_us == 0)
            continue; // nccl-tests prints 0-byte rows when the size does not divide
        // The profile's bandwidth range: the algbw recomputed from size and time (busbw is
        // at most twice that).
        if (row.size / (row.time_us * 1e-6) / 1e9 * 2 > kMaxProfileBandwidthGbps)
            return lineError(file, line,
                             "size " + num(row.size) + " bytes in " + num(row.time_us) +
                                 " us is faster than any network; allowed: at most " +
                                 num(kMaxProfileBandwidthGbps / 2) + " GB/s");
        if (sections.empty())
            sections.push_back(startSection(line, pending_op, pending_line));
        sections.back().rows.push_back(row);
    }

    NcclTestsLog log;
    const std::string from_file = [&] {
        const QString base = QFileInfo(QString::fromStdString(file_name)).fileName();
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("(all_reduce|allreduce|all_gather|allgather|reduce_"
                                              "scatter|reducescatter|alltoall|"
                                              "all_to_all|broadcast)"))
                .match(base);
        return m.hasMatch() ? opFromName(m.captured(1)) : std::string();
    }();
    for (Section &sec : sections) {
        if (sec.rows.empty())
            continue;
        const Row &big =
            *std::max_element(sec.rows.begin(), sec.rows.end(),
                              [](const Row &a, const Row &b) { return a.size < b.size; });
        // Ranks: the devices nccl-tests lists, else threads x GPUs of one process, else the
        // printed busbw / algbw ratio.
        int64_t n = static_cast<int64_t>(sec.ranks.size());
        if (n == 0 && sec.threads > 0)
            n = int64_t(sec.threads) * sec.gpus_per_thread;
        const double q = big.size / (big.count * typeBytes(big.type));
        const bool reduces = !big.redop.empty() && big.redop != "none";

        std::string op = sec.op.empty() ? from_file : sec.op;
        if (op.rfind("unsupported:", 0) == 0)
            return lineError(file, sec.op_line,
                             "\"" + op.substr(12) +
                                 "_perf\" is not a collective a profile holds; allowed: "
                                 "all_reduce, all_gather, reduce_scatter, broadcast, alltoall");
        if (op.empty()) {
            if (std::abs(q - 1) < 1e-9)
                op = reduces && big.root < 0 ? "all_reduce"
                                             : (!reduces && big.root >= 0 ? "broadcast" : "");
            else if (q > 1.5)
                op = reduces ? "reduce_scatter" : "all_gather";
            if (op.empty())
                return lineError(
                    file, big.line,
                    "cannot tell which collective this is; allowed: a log that "
                    "names its program (all_reduce_perf ...) or a file named after it");
        }
        const CollectiveOp cop = opEnum(op);
        const bool per_rank = cop == CollectiveOp::AllGather || cop == CollectiveOp::ReduceScatter;
        if (per_rank && n == 0 && q > 1.5 && q <= double(kMaxProfileCollectiveGpus))
            n = std::llround(q);
        if (n == 0 && big.algbw >= 1) { // from busbw = algbw * factor
            const double r = big.busbw / big.algbw;
            if (cop == CollectiveOp::AllReduce && r < 1.99)
                n = std::llround(2.0 / (2.0 - r));
            else if ((per_rank || cop == CollectiveOp::AllToAll) && r < 0.999)
                n = std::llround(1.0 / (1.0 - r));
        }
        if (n <= 0)
            return lineError(file, big.line,
                             "cannot tell how many GPUs took part; allowed: a log with "
                             "nccl-tests' \"# Using devices\" lines");
        if (n > kMaxProfileCollectiveGpus)
            return lineError(file, sec.first_line,
                             std::to_string(n) + " GPUs took part; allowed: at most " +
                                 std::to_string(kMaxProfileCollectiveGpus));
        if (per_rank && std::abs(q - n) > 1e-6 * n)
            return lineError(file, big.line,
                             op + " of " + std::to_string(n) + " GPUs should report size = " +
                                 std::to_string(n) + " x count x type size, but this row has " +
                                 num(q) + "x; allowed: rows of " + op);
        if (cop == CollectiveOp::AllReduce && std::abs(q - 1) > 1e-9)
            return lineError(file, big.line,
                             "all_reduce should report size = count x type size, but this row "
                             "has " +
                                 num(q) + "x; allowed: all_reduce rows");
        const double factor = busBandwidthFactor(cop, static_cast<int>(n));
        // Every row is of this run (issue 29: a log mixing two runs without the second's
        // "# nThread" line filed 8-GPU rows as 16 GPUs, and listed a size twice): its busbw /
        // algbw is the factor of the run's GPU count (nccl-tests' PERFORMANCE.md; rows below
        // 1 GB/s are too rounded to tell), and each size of one type, operation and root is
        // measured once.
        std::map<std::tuple<double, std::string, std::string, long long>, int> seen;
        for (const Row &row : sec.rows) {
            const auto [first, fresh] =
                seen.try_emplace({row.size, row.type, row.redop, row.root}, row.line);
            if (!fresh)
                return lineError(file, row.line,
                                 "size " + std::to_string(static_cast<long long>(row.size)) +
                                     " bytes (" + row.type +
                                     ") is listed twice in one run, "
                                     "first at line " +
                                     std::to_string(first->second) +
                                     "; allowed: each size once per run (a log of several runs "
                                     "keeps each run's \"# nThread\" line)");
            if (row.algbw >= 1 && factor > 0 &&
                std::abs(row.busbw / row.algbw - factor) > 0.02 * factor + 0.01)
                return lineError(file, row.line,
                                 "busbw / algbw = " + num(row.busbw / row.algbw) + ", but " + op +
                                     " on " + std::to_string(n) + " GPUs gives " + num(factor) +
                                     "; allowed: rows of one run on " + std::to_string(n) +
                                     " GPUs (a device list that matches the run; a log of "
                                     "several runs keeps each run's \"# nThread\" line)");
        }
        const int64_t nodes =
            std::max<int64_t>(1, std::min<int64_t>(n, static_cast<int64_t>(sec.hosts.size())));
        if (nodes > kMaxProfileNodes)
            return lineError(file, sec.first_line,
                             std::to_string(nodes) + " nodes; allowed: at most " +
                                 std::to_string(kMaxProfileNodes));
        if ((n + nodes - 1) / nodes > kMaxProfileGpusPerNode)
            return lineError(file, sec.first_line,
                             std::to_string(n) + " GPUs on " + std::to_string(nodes) +
                                 " node(s) would be more than " +
                                 std::to_string(kMaxProfileGpusPerNode) +
                                 " GPUs per node; allowed: a log whose \"# Using devices\" "
                                 "lines name the hosts");
        if (log.hostname.empty())
            log.hostname = sec.first_host;
        for (const std::string &g : sec.gpu_models)
            if (std::find(log.gpu_models.begin(), log.gpu_models.end(), g) == log.gpu_models.end())
                log.gpu_models.push_back(g);
        log.gpus = std::max(log.gpus, static_cast<int>(n));
        log.nodes = std::max(log.nodes, static_cast<int>(nodes));
        for (const Row &row : sec.rows) {
            if (row.wrong > 0 && (row.wrong_is_count || row.wrong > 1e-2)) {
                log.errors.push_back(
                    {"nccl." + op, "nccl-tests reported wrong results (" + num(row.wrong) +
                                       ") at " + std::to_string(static_cast<long long>(row.size)) +
                                       " bytes (" + file + ":" + std::to_string(row.line) +
                                       "); figure not written"});
                continue;
            }
            ProfileCollective c;
            c.op = op;
            c.gpus = static_cast<int>(n);
            c.nodes = static_cast<int>(nodes);
            c.bytes = row.size;
            c.time_s = row.time_us * 1e-6;
            c.algbw_gbps = row.size / c.time_s / 1e9;
            c.busbw_gbps = c.algbw_gbps * factor;
            log.collectives.push_back(c);
        }
    }
    if (log.collectives.size() > size_t(kMaxProfileCollectives) ||
        log.errors.size() > size_t(kMaxProfileNotes))
        return InputError{file, std::to_string(log.collectives.size()) + " result rows and " +
                                    std::to_string(log.errors.size()) +
                                    " wrong ones are too many for a profile; allowed: at most " +
                                    std::to_string(kMaxProfileCollectives) + " and " +
                                    std::to_string(kMaxProfileNotes)};
    if (log.collectives.empty() && log.errors.empty())
        return InputError{file, "holds no nccl-tests result rows; allowed: the text output of "
                                "all_reduce_perf, all_gather_perf, reduce_scatter_perf, "
                                "broadcast_perf or alltoall_perf"};
    return log;
}

CalibrationProfile profileFromNcclTests(const std::vector<NcclTestsLog> &logs,
                                        const std::vector<std::string> &file_names,
                                        const std::string &tool)
{
    CalibrationProfile p;
    p.created = isoNow();
    p.tool = tool;
    p.nodes = 1;
    for (const NcclTestsLog &log : logs) {
        if (p.hostname.empty())
            p.hostname = log.hostname;
        p.nodes = std::max(p.nodes, log.nodes);
        p.gpus_per_node = std::max(p.gpus_per_node, (log.gpus + log.nodes - 1) / log.nodes);
        p.collectives.insert(p.collectives.end(), log.collectives.begin(), log.collectives.end());
        p.errors.insert(p.errors.end(), log.errors.begin(), log.errors.end());
    }
    if (p.hostname.empty())
        p.hostname = "unknown (nccl-tests log)";
    std::string files;
    for (const std::string &f : file_names)
        files += (files.empty() ? "" : ", ") +
                 QFileInfo(QString::fromStdString(f)).fileName().toStdString();
    p.skipped.push_back(
        {"gpu", "made from nccl-tests logs (" + files + "): collectives only, no GPU measured"});
    return p;
}

} // namespace scalescope::gpuprobe
