// JSON and CSV output of results (spec/cli.md) and the Chrome trace of a timeline.
#pragma once

#include "analysis/economics.h"
#include "analysis/planner.h"
#include "analysis/scaling.h"
#include "analysis/summary.h"
#include "io/file_io.h"
#include "sim/timeline.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace scalescope
{

QJsonObject summaryToJson(const Summary &s);
QJsonObject collectiveToJson(const CollectiveSummary &c);
/// The `cost` object of simulate --json.
QJsonObject costToJson(const CostReport &c);
/// The `attribution` object of a sweep --json row: losses in GPUs by cause, and total.
QJsonObject attributionToJson(const SpeedupAttribution &a);
/// plan --json.
QJsonObject planSearchToJson(const PlanSearchResult &r, int gpus);

/// Chrome Trace Event format: one process per node, one thread per GPU and stream, one
/// complete event ("ph": "X") per segment; times in microseconds.
QByteArray timelineToChromeTrace(const Timeline &t, const QString &title);

} // namespace scalescope
