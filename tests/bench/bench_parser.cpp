// Benchmarks of the parsers on the large inputs that were once quadratic (tests/io
// large_inputs.h). They print figures and never fail on time (DESIGN.md section 6); the
// unit tests check the answers on the same inputs.
#include "io/catalog_io.h"
#include "io/json_util.h"
#include "io/profile_io.h"
#include "io/scenario_io.h"
#include "large_inputs.h"

#include <QElapsedTimer>
#include <QTest>

#include <cstdio>

using namespace scalescope;

namespace
{

template <typename F> double timedMs(F &&f)
{
    QElapsedTimer timer;
    timer.start();
    f();
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

double megabytes(const QByteArray &b)
{
    return static_cast<double>(b.size()) / (1 << 20);
}

} // namespace

class BenchParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void manyKeys()
    {
        const QByteArray json = test::manyKeysDocument();
        bool parsed = false;
        const double ms = timedMs([&] {
            parsed = bool(json::guard<bool>([&] {
                json::parseObjectDocument(json);
                return true;
            }));
        });
        QVERIFY(parsed);
        std::printf("BENCH parse_ms 200000 objects x 20 keys (%.1f MB): %.1f ms (%.1f MB/s)\n",
                    megabytes(json), ms, megabytes(json) / (ms / 1000));
    }

    void allGpuStragglers()
    {
        const QByteArray json = test::allGpuStragglersScenario();
        bool refused = false;
        const double ms = timedMs([&] { refused = !parseScenario(json, builtinCatalog()); });
        QVERIFY(refused);
        std::printf("BENCH parse_ms 131072 stragglers, duplicate last (%.1f MB): %.1f ms\n",
                    megabytes(json), ms);
    }

    void manyP2P()
    {
        const QByteArray json = test::manyP2PProfile();
        bool refused = false;
        const double ms = timedMs([&] { refused = !parseProfile(json); });
        QVERIFY(refused);
        std::printf("BENCH parse_ms profile 1000 GPUs, 200000 p2p (%.1f MB): %.1f ms\n",
                    megabytes(json), ms);
    }
};

QTEST_GUILESS_MAIN(BenchParser)
#include "bench_parser.moc"
