// writeProbeProfile (probe.h): the model's profile document with the probe's method and its
// extra figures under "x-gpuprobe".
#include "probe.h"

#include "io/profile_io.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace scalescope::gpuprobe
{

QByteArray writeProbeProfile(const ProbeResult &result)
{
    QByteArray doc = writeProfile(result.profile);
    const ProbeDetails &d = result.details;
    QJsonObject x;
    x.insert(QStringLiteral("bandwidth_convention"),
             QStringLiteral("memory_bandwidth_gbps counts bytes read plus bytes written "
                            "(BabelStream): the better of copy (2 arrays) and triad (3 arrays); "
                            "h2d, d2h and p2p count the bytes copied once"));
    x.insert(QStringLiteral("method"),
             QStringLiteral("median of %1 timed repetitions after %2 warm-up runs, CUDA events; "
                            "random data; every figure checked (copies compared, GEMMs against a "
                            "double-precision reference on 256 sampled entries, collectives "
                            "against known sums)")
                 .arg(d.repetitions)
                 .arg(d.warmup));
    const std::string library = d.cublas_libraries.empty()
                                    ? d.gemm_library
                                    : d.gemm_library + " (" + d.cublas_libraries + ")";
    x.insert(QStringLiteral("gemm"),
             QStringLiteral("%1, C = op(A) B with A transposed (TN), fp32 accumulation; fp8 is "
                            "E4M3 inputs with a bf16 result")
                 .arg(QString::fromStdString(library)));
    x.insert(QStringLiteral("launch_overhead"),
             QStringLiteral("back-to-back empty kernels on one stream, per kernel"));
    x.insert(QStringLiteral("p2p"),
             QStringLiteral("one cudaMemcpyPeerAsync of the buffer (bandwidth) and of 8 bytes "
                            "(latency); with peer access on where possible, access = "
                            "cudaDeviceCanAccessPeer; p2p_peer_access_off holds the staged "
                            "figures with peer access off"));
    QJsonArray memory;
    for (const ProbeDetails::Memory &m : d.memory)
        memory.append(QJsonObject{{QStringLiteral("gpu"), m.gpu},
                                  {QStringLiteral("array_bytes"), m.array_bytes},
                                  {QStringLiteral("copy_gbps"), m.copy_gbps},
                                  {QStringLiteral("triad_gbps"), m.triad_gbps}});
    x.insert(QStringLiteral("memory"), memory);
    QJsonArray off;
    for (const ProbeDetails::PeerOff &o : d.p2p_peer_access_off)
        off.append(QJsonObject{{QStringLiteral("src"), o.src},
                               {QStringLiteral("dst"), o.dst},
                               {QStringLiteral("bandwidth_gbps"), o.bandwidth_gbps},
                               {QStringLiteral("latency_us"), o.latency_us}});
    x.insert(QStringLiteral("p2p_peer_access_off"), off);

    // The model's writer has no place for extension keys: add "x-gpuprobe" as the last
    // member of the top-level object ("x-..." keys are allowed by spec/profile.md).
    QByteArray extra = QJsonDocument(x).toJson(QJsonDocument::Indented).trimmed();
    extra.replace("\n", "\n    ");
    const qsizetype close = doc.lastIndexOf('}');
    if (close < 0)
        return doc;
    qsizetype last = close - 1;
    while (last >= 0 && (doc[last] == ' ' || doc[last] == '\n'))
        --last;
    const bool empty = last >= 0 && doc[last] == '{';
    doc.insert(last + 1, QByteArray(empty ? "\n" : ",\n") + "    \"x-gpuprobe\": " + extra);
    return doc;
}

} // namespace scalescope::gpuprobe
