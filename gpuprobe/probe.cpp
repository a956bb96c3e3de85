// The probe's test names, options and host facts (probe.h), and runProbe, which hands the
// run to the Runner (runner.h).
#include "probe.h"

#include "runner.h"

#include <QDateTime>
#include <QFile>
#include <QSysInfo>

#include <algorithm>

namespace scalescope::gpuprobe
{

const char *testName(TestId test)
{
    switch (test) {
    case TestId::Gemm:
        return "gemm";
    case TestId::Memory:
        return "memory";
    case TestId::Transfer:
        return "transfer";
    case TestId::Launch:
        return "launch";
    case TestId::P2P:
        return "p2p";
    case TestId::Nccl:
        return "nccl";
    case TestId::Thermal:
        return "thermal";
    }
    return "?";
}

std::optional<TestId> testFromName(std::string_view name)
{
    for (TestId t : kAllTests)
        if (name == testName(t))
            return t;
    return std::nullopt;
}

bool ProbeOptions::has(TestId t) const
{
    return std::find(tests.begin(), tests.end(), t) != tests.end();
}

std::string isoNow()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
}

std::string localHostname()
{
    const std::string name = QSysInfo::machineHostName().toStdString();
    return name.empty() ? std::string("unknown") : name;
}

std::string localCpuName()
{
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (cpuinfo.open(QIODevice::ReadOnly | QIODevice::Text)) {
        while (!cpuinfo.atEnd()) {
            const QByteArray line = cpuinfo.readLine();
            if (line.startsWith("model name")) {
                const int colon = line.indexOf(':');
                if (colon >= 0)
                    return line.mid(colon + 1).trimmed().toStdString();
            }
        }
    }
    return QSysInfo::currentCpuArchitecture().toStdString();
}

ProbeResult runProbe(Backend &backend, Cluster &cluster, const ProbeOptions &options,
                     ProbeListener *listener)
{
    probe_detail::Runner runner(backend, cluster, options, listener);
    return runner.run();
}

} // namespace scalescope::gpuprobe
