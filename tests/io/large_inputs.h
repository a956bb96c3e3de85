// Large inputs whose parse was once quadratic (minutes). The unit tests check that the
// parser still gives the right answer on them; bench_parser prints how long it takes
// (DESIGN.md section 6: speed is a printed figure, never a timed pass/fail test).
#pragma once

#include <QByteArray>

namespace scalescope::test
{

/// {"items": [200 000 objects of 20 keys each]}: one pass over the text (about 36 MB).
inline QByteArray manyKeysDocument(int objects = 200000)
{
    QByteArray json = "{\"items\": [";
    for (int i = 0; i < objects; ++i) {
        json += i ? ",{" : "{";
        for (int k = 0; k < 20; ++k)
            json += (k ? ",\"key" : "\"key") + QByteArray::number(k) + "\":1";
        json += "}";
    }
    json += "]}";
    return json;
}

/// The largest cluster (131 072 GPUs) with every GPU listed as a straggler, the last
/// listing repeating GPU 7: the error is at effects.stragglers[131071].gpu.
inline QByteArray allGpuStragglersScenario()
{
    const int gpus = 131072;
    QByteArray list = "[";
    for (int i = 0; i < gpus - 1; ++i)
        list += (i ? ",{\"gpu\":" : "{\"gpu\":") + QByteArray::number(i) + ",\"slowdown\":1.5}";
    list += ",{\"gpu\":7,\"slowdown\":2}]";
    return R"({ "scalescope": 1,
      "hardware": { "gpu": "a100-sxm4-80gb", "nodes": 2048, "gpus_per_node": 64 },
      "collective": { "op": "all_reduce", "bytes": 1024 },
      "effects": { "stragglers": )" +
           list + "} }";
}

/// A calibration profile of 1000 GPUs and 200 000 peer-to-peer entries, the last naming
/// GPU 1000 (not listed): the error is at p2p[200000].dst.
inline QByteArray manyP2PProfile()
{
    QByteArray gpus = "[";
    for (int i = 0; i < 1000; ++i)
        gpus +=
            (i ? "," : "") + QByteArray("{\"index\":") + QByteArray::number(i) + ",\"name\":\"g\"}";
    gpus += "]";
    QByteArray p2p = "[";
    for (int i = 0; i < 200000; ++i)
        p2p += (i ? "," : "") + QByteArray("{\"src\":") + QByteArray::number(i % 1000) +
               ",\"dst\":" + QByteArray::number((i + 1) % 1000) + ",\"access\":true}";
    p2p += ",{\"src\":0,\"dst\":1000,\"access\":true}]";
    return QByteArray(R"({ "scalescope_profile": 1, "created": "2026-11-30T10:00:00Z",
  "tool": "test", "host": { "hostname": "h", "gpus_per_node": 1, "nodes": 1 })") +
           ", \"gpus\": " + gpus + ", \"p2p\": " + p2p + "}";
}

} // namespace scalescope::test
