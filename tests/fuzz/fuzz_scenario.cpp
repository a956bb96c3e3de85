// libFuzzer target: scenario files (model/io/scenario_io, spec/scenario.md).
// A parse error is expected; an accepted scenario must write back to a document that parses
// to the same text, and must get through validation (makeContext) and the analytic summary;
// small ones are simulated too (a bounded task graph keeps executions fast).
#include "fuzz_util.h"

#include "analysis/summary.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "io/spec_json.h"

using namespace scalescope;

namespace
{

void exercise(const Scenario &scenario)
{
    if (scenario.isCollective()) {
        if (scenario.hardware.gpuCount() <= 4096) {
            (void)checkCollective(scenario);
            (void)simulateCollective(scenario);
        }
        return;
    }
    const Result<std::shared_ptr<const SimContext>> ctx = makeContext(scenario);
    if (!ctx) {
        (void)ctx.error().toString();
        return;
    }
    const SimContext &c = *ctx.value();
    if (scenario.hardware.gpuCount() > 64 || modelLayerCount(scenario.model) > 16)
        return;
    (void)analyticSummary(c);
    SimOptions options;
    options.iterations = 1;
    options.max_tasks = 20000;
    const SimResult sim = simulate(c, options);
    if (sim.ok)
        (void)summarize(c, sim);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const Catalog &catalog = builtinCatalog();
    const QString &dir = fuzz::workDir();
    const Result<Scenario> parsed = parseScenario(fuzz::bytes(data, size), catalog, dir);
    if (!parsed) {
        (void)parsed.error().toString();
        return 0;
    }
    // parseScenario(writeScenario(s)) == s (scenario_io.h).
    const QByteArray written = writeScenario(parsed.value());
    const Result<Scenario> again = parseScenario(written, catalog, dir);
    if (!again)
        fuzz::finding("a written scenario does not parse",
                      again.error().toString() + "\n" + written.toStdString());
    const QByteArray rewritten = writeScenario(again.value());
    if (rewritten != written)
        fuzz::finding("a scenario changes when written and read back",
                      written.toStdString() + "\n---\n" + rewritten.toStdString());
    exercise(parsed.value());
    return 0;
}
