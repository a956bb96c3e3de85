// Shared helpers for the model tests: scenarios from JSON text on the built-in catalog.
#pragma once

#include "analysis/summary.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QTest>

#include <memory>

namespace scalescope::test
{

inline Scenario scenarioFrom(const char *json)
{
    Result<Scenario> s = parseScenario(QByteArray(json), builtinCatalog());
    if (!s)
        qFatal("test scenario does not parse: %s", s.error().toString().c_str());
    return s.value();
}

inline std::shared_ptr<const SimContext> contextFrom(const Scenario &s)
{
    Result<std::shared_ptr<const SimContext>> ctx = makeContext(s);
    if (!ctx)
        qFatal("test scenario has no plan: %s", ctx.error().toString().c_str());
    return ctx.value();
}

inline Summary simulateSummary(const Scenario &s, SimOptions options = {})
{
    const auto ctx = contextFrom(s);
    const SimResult r = simulate(*ctx, options);
    if (!r.ok)
        qFatal("simulation failed: %s", r.error.c_str());
    return summarize(*ctx, r);
}

inline double breakdownSum(const Breakdown &b)
{
    return b.compute + b.communication_exposed + b.pipeline_bubble + b.wait + b.data_loading;
}

} // namespace scalescope::test
