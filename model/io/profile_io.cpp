#include "io/profile_io.h"

#include "io/file_io.h"

#include "hardware/hardware.h"
#include "io/input_ranges.h"
#include "io/json_util.h"
#include "plan/scenario.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

#include <array>
#include <cmath>
#include <set>

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

constexpr std::array kPrecisions = {Precision::FP32, Precision::TF32, Precision::FP16,
                                    Precision::BF16, Precision::FP8};
constexpr std::array kCollectiveOps = {CollectiveOp::AllReduce, CollectiveOp::AllGather,
                                       CollectiveOp::ReduceScatter, CollectiveOp::Broadcast,
                                       CollectiveOp::AllToAll};

std::string str(int64_t n)
{
    return std::to_string(n);
}

QJsonValue text(const std::string &s)
{
    return QString::fromStdString(s);
}

/// Element `index` of `array` as an object reader named "parent[index]".
ObjectReader itemOf(const QJsonArray &array, qsizetype index, const std::string &arrayPath)
{
    const std::string path = json::indexPath(arrayPath, index);
    return ObjectReader(json::readObject(array[index], path), path);
}

/// A string that must say something.
std::string requiredText(const ObjectReader &r, std::string_view key)
{
    std::string value = r.requiredString(key);
    if (value.empty())
        fail(r.pathOf(key), "must not be empty; allowed: a non-empty string");
    return value;
}

std::string readCreated(const ObjectReader &r)
{
    const std::string created = r.requiredString("created");
    const QString given = QString::fromStdString(created);
    if (!QDateTime::fromString(given, Qt::ISODateWithMs).isValid())
        fail(r.pathOf("created"), json::describe(QJsonValue(given)) +
                                      " is not an ISO 8601 date and time; allowed: such as "
                                      "\"2026-11-30T10:00:00Z\"");
    return created;
}

void readHost(const ObjectReader &r, CalibrationProfile &p)
{
    r.allowKeys({"hostname", "cpu", "driver", "cuda_runtime", "nccl", "gpus_per_node", "nodes"});
    p.hostname = r.requiredString("hostname");
    p.cpu = r.optionalString("cpu", {});
    p.driver = r.optionalString("driver", {});
    p.cuda_runtime = r.optionalString("cuda_runtime", {});
    p.nccl = r.optionalString("nccl", {});
    p.gpus_per_node = static_cast<int>(r.requiredInt("gpus_per_node", kProfileGpusPerNodeRange));
    p.nodes = static_cast<int>(r.requiredInt("nodes", kProfileNodesRange));
}

std::vector<ProfileGemmPoint> readGemmPoints(const QJsonArray &points, const std::string &path)
{
    json::limitItems(points, path, kMaxProfileGemmPoints, "points");
    std::vector<ProfileGemmPoint> out;
    out.reserve(static_cast<size_t>(points.size()));
    for (qsizetype i = 0; i < points.size(); ++i) {
        const ObjectReader item = itemOf(points, i, path);
        item.allowKeys({"m", "n", "k", "tflops"});
        ProfileGemmPoint point;
        point.m = static_cast<double>(item.requiredInt("m", kGemmDimRange));
        point.n = static_cast<double>(item.requiredInt("n", kGemmDimRange));
        point.k = static_cast<double>(item.requiredInt("k", kGemmDimRange));
        point.tflops = item.requiredDouble("tflops", kTflopsRange);
        out.push_back(point);
    }
    return out;
}

void readCopyBandwidth(const ObjectReader &gpu, std::string_view key, double &pinned,
                       double &pageable)
{
    if (auto copy = gpu.optionalObject(key)) {
        copy->allowKeys({"pinned", "pageable"});
        pinned = copy->optionalDouble("pinned", kBandwidthRange, 0);
        pageable = copy->optionalDouble("pageable", kBandwidthRange, 0);
    }
}

ProfileThermalSample readThermalSample(const ObjectReader &r)
{
    r.allowKeys({"t_s", "sm_clock_mhz", "temperature_c", "power_w", "throttle"});
    ProfileThermalSample s;
    s.t_s = r.requiredDouble("t_s", kSampleTimeRange);
    s.sm_clock_mhz = r.requiredDouble("sm_clock_mhz", kClockRange);
    s.temperature_c = r.requiredDouble("temperature_c", kTemperatureRange);
    s.power_w = r.requiredDouble("power_w", kPowerRange);
    const QJsonArray reasons = r.optionalArray("throttle");
    json::limitItems(reasons, r.pathOf("throttle"), kMaxProfileThrottleReasons, "reasons");
    for (qsizetype i = 0; i < reasons.size(); ++i) {
        const std::string path = json::indexPath(r.pathOf("throttle"), i);
        std::string reason = json::readString(reasons[i], path);
        if (reason.empty())
            fail(path, "must not be empty; allowed: an NVML throttle reason such as "
                       "\"sw_power_cap\"");
        s.throttle.push_back(std::move(reason));
    }
    return s;
}

ProfileGpu readGpu(const ObjectReader &r)
{
    r.allowKeys({"index", "name", "uuid", "pci_bus_id", "compute_capability", "sm_count",
                 "memory_bytes", "gemm_tflops", "memory_bandwidth_gbps", "h2d_gbps", "d2h_gbps",
                 "launch_overhead_us", "host_launch_us", "sync_round_trip_us", "thermal"});
    ProfileGpu g;
    g.index = static_cast<int>(r.requiredInt("index", kDeviceIndexRange));
    g.name = requiredText(r, "name");
    g.uuid = r.optionalString("uuid", {});
    g.pci_bus_id = r.optionalString("pci_bus_id", {});
    g.compute_capability = r.optionalString("compute_capability", {});
    static const QRegularExpression kCapability(QStringLiteral("^[0-9]+\\.[0-9]+$"));
    if (r.has("compute_capability") &&
        !kCapability.match(QString::fromStdString(g.compute_capability)).hasMatch())
        fail(r.pathOf("compute_capability"),
             json::describe(r.value("compute_capability")) +
                 " is not a compute capability; allowed: major.minor such as \"9.0\"");
    g.sm_count = static_cast<int>(r.optionalInt("sm_count", kSmCountRange, 0));
    g.memory_bytes = static_cast<double>(r.optionalInt("memory_bytes", kMemoryBytesRange, 0));

    if (auto gemm = r.optionalObject("gemm_tflops")) {
        std::array<std::string_view, kPrecisionCount> names;
        for (Precision p : kPrecisions)
            names[static_cast<size_t>(p)] = precisionName(p);
        gemm->allowKeys(names);
        for (Precision p : kPrecisions) {
            const char *key = precisionName(p);
            if (gemm->has(key))
                g.gemm_tflops[static_cast<size_t>(p)] =
                    readGemmPoints(gemm->requiredArray(key), gemm->pathOf(key));
        }
    }
    g.memory_bandwidth_gbps =
        r.optionalDouble("memory_bandwidth_gbps", kDeviceMemoryBandwidthRange, 0);
    readCopyBandwidth(r, "h2d_gbps", g.h2d_pinned_gbps, g.h2d_pageable_gbps);
    readCopyBandwidth(r, "d2h_gbps", g.d2h_pinned_gbps, g.d2h_pageable_gbps);
    g.launch_overhead_us = r.optionalDouble("launch_overhead_us", kMicrosecondsRange, 0);
    g.host_launch_us = r.optionalDouble("host_launch_us", kMicrosecondsRange, 0);
    g.sync_round_trip_us = r.optionalDouble("sync_round_trip_us", kMicrosecondsRange, 0);

    if (auto thermal = r.optionalObject("thermal")) {
        thermal->allowKeys({"duration_s", "samples"});
        g.thermal_duration_s = thermal->requiredDouble("duration_s", kDurationRange);
        const QJsonArray samples = thermal->requiredArray("samples");
        json::limitItems(samples, thermal->pathOf("samples"), kMaxProfileThermalSamples, "samples");
        g.thermal_samples.reserve(static_cast<size_t>(samples.size()));
        for (qsizetype i = 0; i < samples.size(); ++i)
            g.thermal_samples.push_back(
                readThermalSample(itemOf(samples, i, thermal->pathOf("samples"))));
    }
    return g;
}

ProfileP2P readP2P(const ObjectReader &r, const std::set<int> &gpuIndices)
{
    r.allowKeys({"src", "dst", "access", "bandwidth_gbps", "latency_us"});
    ProfileP2P p;
    const auto readEnd = [&](std::string_view key) {
        const int index = static_cast<int>(r.requiredInt(key, kDeviceIndexRange));
        if (!gpuIndices.empty() && !gpuIndices.count(index)) {
            // Listed only here: building it for every entry made large profiles quadratic.
            std::string indices;
            for (int listed : gpuIndices)
                indices += (indices.empty() ? "" : ", ") + str(listed);
            fail(r.pathOf(key),
                 str(index) + " is not the index of a GPU listed in \"gpus\"; allowed: " + indices);
        }
        return index;
    };
    p.src = readEnd("src");
    p.dst = readEnd("dst");
    if (p.src == p.dst)
        fail(r.pathOf("dst"), str(p.dst) + " is the same GPU as src; allowed: another GPU");
    p.access = r.requiredBool("access");
    p.bandwidth_gbps = r.optionalDouble("bandwidth_gbps", kBandwidthRange, 0);
    p.latency_us = r.optionalDouble("latency_us", kMicrosecondsRange, 0);
    return p;
}

ProfileCollective readCollective(const ObjectReader &r)
{
    r.allowKeys({"op", "gpus", "nodes", "bytes", "time_s", "algbw_gbps", "busbw_gbps"});
    ProfileCollective c;
    c.op = collectiveOpName(r.requiredEnum<CollectiveOp>("op", kCollectiveOps, collectiveOpName));
    c.gpus = static_cast<int>(r.requiredInt("gpus", kCollectiveGpusRange));
    c.nodes = static_cast<int>(r.optionalInt("nodes", kProfileNodesRange, 1));
    if (c.nodes > c.gpus)
        fail(r.pathOf("nodes"), str(c.nodes) + " nodes for " + str(c.gpus) +
                                    " GPUs; allowed: at most the GPU count " + str(c.gpus));
    c.bytes = static_cast<double>(r.requiredInt("bytes", kCollectiveBytesRange));
    c.time_s = r.requiredDouble("time_s", kCollectiveTimeRange);
    c.algbw_gbps = r.requiredDouble("algbw_gbps", kBandwidthRange);
    c.busbw_gbps = r.requiredDouble("busbw_gbps", kBandwidthRange);
    return c;
}

ProfileNote readNote(const ObjectReader &r, const char *textKey)
{
    r.allowKeys({"test", textKey});
    ProfileNote note;
    note.test = requiredText(r, "test");
    note.text = r.requiredString(textKey);
    return note;
}

ProfileFrameworkHost readFrameworkHost(const ObjectReader &r)
{
    r.allowKeys({"framework", "op_us"});
    ProfileFrameworkHost f;
    f.framework = requiredText(r, "framework");
    // Its catalog entry is checked where a scenario applies the profile (the catalog is the
    // scenario's, io/scenario_io.cpp); here only its form.
    static const QRegularExpression kId(QStringLiteral("^[a-z0-9][a-z0-9.-]*$"));
    if (!kId.match(QString::fromStdString(f.framework)).hasMatch() || f.framework == "auto")
        fail(r.pathOf("framework"),
             "\"" + f.framework +
                 "\" is not a software stack id; allowed: an id of 'scalescope-cli catalog "
                 "frameworks' other than auto");
    // The catalog's range for host.op_us (io/spec_json.cpp), zero excluded: a stack issues
    // every operation from its host thread.
    f.op_us = r.requiredDouble("op_us", RealRange::positive(10000));
    return f;
}

CalibrationProfile readProfile(const QJsonObject &root)
{
    const ObjectReader doc(root, "");
    doc.requireVersion("scalescope_profile", kProfileVersion);
    doc.allowKeys({"scalescope_profile", "created", "tool", "host", "gpus", "p2p", "collectives",
                   "framework_host", "skipped", "errors"});
    CalibrationProfile p;
    p.version = kProfileVersion;
    p.created = readCreated(doc);
    p.tool = requiredText(doc, "tool");
    readHost(doc.requiredObject("host"), p);

    std::set<int> gpuIndices;
    const QJsonArray gpus = doc.optionalArray("gpus");
    json::limitItems(gpus, "gpus", kMaxProfileGpus, "GPUs");
    for (qsizetype i = 0; i < gpus.size(); ++i) {
        const ObjectReader item = itemOf(gpus, i, "gpus");
        ProfileGpu gpu = readGpu(item);
        if (!gpuIndices.insert(gpu.index).second)
            fail(item.pathOf("index"),
                 "GPU " + str(gpu.index) + " is listed twice; allowed: each index once");
        p.gpus.push_back(std::move(gpu));
    }
    const QJsonArray p2p = doc.optionalArray("p2p");
    json::limitItems(p2p, "p2p", kMaxProfileP2P, "peer-to-peer entries");
    for (qsizetype i = 0; i < p2p.size(); ++i)
        p.p2p.push_back(readP2P(itemOf(p2p, i, "p2p"), gpuIndices));
    const QJsonArray collectives = doc.optionalArray("collectives");
    json::limitItems(collectives, "collectives", kMaxProfileCollectives, "collectives");
    for (qsizetype i = 0; i < collectives.size(); ++i)
        p.collectives.push_back(readCollective(itemOf(collectives, i, "collectives")));
    const QJsonArray stacks = doc.optionalArray("framework_host");
    json::limitItems(stacks, "framework_host", kMaxProfileFrameworkHost, "software stacks");
    std::set<std::string> stackIds;
    for (qsizetype i = 0; i < stacks.size(); ++i) {
        const ObjectReader item = itemOf(stacks, i, "framework_host");
        ProfileFrameworkHost f = readFrameworkHost(item);
        if (!stackIds.insert(f.framework).second)
            fail(item.pathOf("framework"),
                 "\"" + f.framework + "\" is listed twice; allowed: each software stack once");
        p.framework_host.push_back(std::move(f));
    }
    const QJsonArray skipped = doc.optionalArray("skipped");
    json::limitItems(skipped, "skipped", kMaxProfileNotes, "notes");
    for (qsizetype i = 0; i < skipped.size(); ++i)
        p.skipped.push_back(readNote(itemOf(skipped, i, "skipped"), "reason"));
    const QJsonArray errors = doc.optionalArray("errors");
    json::limitItems(errors, "errors", kMaxProfileNotes, "notes");
    for (qsizetype i = 0; i < errors.size(); ++i)
        p.errors.push_back(readNote(itemOf(errors, i, "errors"), "message"));
    return p;
}

// ---------------------------------------------------------------------------------------
// Writing

/// Whole numbers stored as double (bytes, GEMM sizes) are written as integers.
QJsonValue whole(double value)
{
    return QJsonValue(static_cast<qint64>(std::llround(value)));
}

void addText(OrderedObject &out, const char *key, const std::string &value)
{
    if (!value.empty())
        out.add(key, text(value));
}

void addMeasured(OrderedObject &out, const char *key, double value)
{
    if (value != 0)
        out.add(key, value);
}

OrderedObject writeCopyBandwidth(double pinned, double pageable)
{
    OrderedObject out;
    addMeasured(out, "pinned", pinned);
    addMeasured(out, "pageable", pageable);
    return out;
}

OrderedObject writeGpu(const ProfileGpu &g)
{
    OrderedObject out;
    out.add("index", g.index).add("name", text(g.name));
    addText(out, "uuid", g.uuid);
    addText(out, "pci_bus_id", g.pci_bus_id);
    addText(out, "compute_capability", g.compute_capability);
    if (g.sm_count > 0)
        out.add("sm_count", g.sm_count);
    if (g.memory_bytes > 0)
        out.add("memory_bytes", whole(g.memory_bytes));

    OrderedObject gemm;
    for (Precision p : kPrecisions) {
        const auto &points = g.gemm_tflops[static_cast<size_t>(p)];
        if (points.empty())
            continue;
        std::vector<OrderedObject> list;
        for (const ProfileGemmPoint &point : points) {
            OrderedObject item;
            item.add("m", whole(point.m))
                .add("n", whole(point.n))
                .add("k", whole(point.k))
                .add("tflops", point.tflops);
            list.push_back(std::move(item));
        }
        gemm.add(precisionName(p), std::move(list));
    }
    if (!gemm.empty())
        out.add("gemm_tflops", std::move(gemm));
    addMeasured(out, "memory_bandwidth_gbps", g.memory_bandwidth_gbps);
    OrderedObject h2d = writeCopyBandwidth(g.h2d_pinned_gbps, g.h2d_pageable_gbps);
    if (!h2d.empty())
        out.add("h2d_gbps", std::move(h2d));
    OrderedObject d2h = writeCopyBandwidth(g.d2h_pinned_gbps, g.d2h_pageable_gbps);
    if (!d2h.empty())
        out.add("d2h_gbps", std::move(d2h));
    addMeasured(out, "launch_overhead_us", g.launch_overhead_us);
    addMeasured(out, "host_launch_us", g.host_launch_us);
    addMeasured(out, "sync_round_trip_us", g.sync_round_trip_us);

    if (g.thermal_duration_s > 0 || !g.thermal_samples.empty()) {
        std::vector<OrderedObject> samples;
        for (const ProfileThermalSample &s : g.thermal_samples) {
            QJsonArray throttle;
            for (const std::string &reason : s.throttle)
                throttle.append(text(reason));
            OrderedObject item;
            item.add("t_s", s.t_s)
                .add("sm_clock_mhz", s.sm_clock_mhz)
                .add("temperature_c", s.temperature_c)
                .add("power_w", s.power_w)
                .add("throttle", throttle);
            samples.push_back(std::move(item));
        }
        OrderedObject thermal;
        thermal.add("duration_s", g.thermal_duration_s).add("samples", std::move(samples));
        out.add("thermal", std::move(thermal));
    }
    return out;
}

OrderedObject writeP2P(const ProfileP2P &p)
{
    OrderedObject out;
    out.add("src", p.src).add("dst", p.dst).add("access", p.access);
    addMeasured(out, "bandwidth_gbps", p.bandwidth_gbps);
    addMeasured(out, "latency_us", p.latency_us);
    return out;
}

OrderedObject writeCollective(const ProfileCollective &c)
{
    OrderedObject out;
    out.add("op", text(c.op))
        .add("gpus", c.gpus)
        .add("nodes", c.nodes)
        .add("bytes", whole(c.bytes))
        .add("time_s", c.time_s)
        .add("algbw_gbps", c.algbw_gbps)
        .add("busbw_gbps", c.busbw_gbps);
    return out;
}

std::vector<OrderedObject> writeNotes(const std::vector<ProfileNote> &notes, const char *textKey)
{
    std::vector<OrderedObject> out;
    for (const ProfileNote &note : notes) {
        OrderedObject item;
        item.add("test", text(note.test)).add(textKey, text(note.text));
        out.push_back(std::move(item));
    }
    return out;
}

} // namespace

Result<CalibrationProfile> parseProfile(const QByteArray &json)
{
    if (json.size() > kMaxProfileFileBytes)
        return InputError{"", "a calibration profile of " + std::to_string(json.size()) +
                                  " bytes is larger than the limit; allowed: at most " +
                                  std::to_string(kMaxProfileFileBytes) + " bytes"};
    return json::guard<CalibrationProfile>(
        [&] { return readProfile(json::parseObjectDocument(json)); });
}

Result<CalibrationProfile> loadProfileFile(const QString &path, ReadKinds kinds)
{
    const Result<QByteArray> data =
        readFileLimited(path, kMaxProfileFileBytes, "calibration profile", kinds);
    if (!data)
        return data.error();
    Result<CalibrationProfile> result = parseProfile(data.value());
    if (result.ok())
        result.value().path = QFileInfo(path).absoluteFilePath().toStdString();
    return result;
}

QByteArray writeProfile(const CalibrationProfile &p)
{
    OrderedObject root;
    root.add("scalescope_profile", kProfileVersion)
        .add("created", text(p.created))
        .add("tool", text(p.tool));
    OrderedObject host;
    host.add("hostname", text(p.hostname));
    addText(host, "cpu", p.cpu);
    addText(host, "driver", p.driver);
    addText(host, "cuda_runtime", p.cuda_runtime);
    addText(host, "nccl", p.nccl);
    host.add("gpus_per_node", p.gpus_per_node).add("nodes", p.nodes);
    root.add("host", std::move(host));

    std::vector<OrderedObject> gpus;
    for (const ProfileGpu &g : p.gpus)
        gpus.push_back(writeGpu(g));
    root.add("gpus", std::move(gpus));
    std::vector<OrderedObject> p2p;
    for (const ProfileP2P &link : p.p2p)
        p2p.push_back(writeP2P(link));
    root.add("p2p", std::move(p2p));
    std::vector<OrderedObject> collectives;
    for (const ProfileCollective &c : p.collectives)
        collectives.push_back(writeCollective(c));
    root.add("collectives", std::move(collectives));
    if (!p.framework_host.empty()) {
        std::vector<OrderedObject> stacks;
        for (const ProfileFrameworkHost &f : p.framework_host) {
            OrderedObject item;
            item.add("framework", text(f.framework)).add("op_us", f.op_us);
            stacks.push_back(std::move(item));
        }
        root.add("framework_host", std::move(stacks));
    }
    root.add("skipped", writeNotes(p.skipped, "reason"));
    root.add("errors", writeNotes(p.errors, "message"));
    return root.toJson();
}

bool saveProfileFile(const QString &path, const CalibrationProfile &profile, QString *error)
{
    return writeFileAtomically(path, writeProfile(profile), error);
}

// The fitted profile as profile.md writes it, each fitted figure marked "x-source": "trace"
// (an x- key, which every profile reader accepts: docs/trace.md), with the traces it came
// from and the samples each figure rests on.
QByteArray writeTraceFittedProfile(const CalibrationProfile &profile,
                                   const TraceFitSamples &samples,
                                   const std::vector<QString> &trace_names)
{
    QJsonObject root = QJsonDocument::fromJson(writeProfile(profile)).object();
    const QString trace = QStringLiteral("trace");
    QJsonArray collectives = root.value(QStringLiteral("collectives")).toArray();
    for (qsizetype i = 0; i < collectives.size(); ++i) {
        QJsonObject c = collectives.at(i).toObject();
        c[QStringLiteral("x-source")] = trace;
        collectives[i] = c;
    }
    if (!collectives.isEmpty())
        root[QStringLiteral("collectives")] = collectives;
    QJsonArray gpus = root.value(QStringLiteral("gpus")).toArray();
    if (!gpus.isEmpty()) {
        QJsonObject g = gpus.at(0).toObject();
        QJsonObject marks;
        if (g.contains(QStringLiteral("gemm_tflops")))
            marks[QStringLiteral("gemm_tflops")] = trace;
        if (g.contains(QStringLiteral("host_launch_us")))
            marks[QStringLiteral("host_launch_us")] = trace;
        g[QStringLiteral("x-source")] = marks;
        gpus[0] = g;
        root[QStringLiteral("gpus")] = gpus;
    }
    QJsonObject source;
    source[QStringLiteral("kind")] = QStringLiteral("measured trace");
    QJsonArray names;
    for (const QString &n : trace_names)
        names.append(n);
    source[QStringLiteral("traces")] = names;
    QJsonObject counts;
    counts[QStringLiteral("collectives")] = static_cast<double>(samples.collectives);
    counts[QStringLiteral("gemm")] = static_cast<double>(samples.gemm);
    counts[QStringLiteral("launches")] = static_cast<double>(samples.launches);
    source[QStringLiteral("samples")] = counts;
    root[QStringLiteral("x-source")] = source;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace scalescope
