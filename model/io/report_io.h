// JSON and CSV output of results (spec/cli.md) and the Chrome trace of a timeline.
#pragma once

#include "analysis/economics.h"
#include "analysis/planner.h"
#include "analysis/scaling.h"
#include "analysis/speedup_reference.h"
#include "analysis/summary.h"
#include "analysis/sweep.h"
#include "analysis/what_if.h"
#include "io/file_io.h"
#include "sim/timeline.h"

#include <QByteArray>
#include <QJsonArray>
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
/// The `amdahl` object of a strong-scaling sweep --json: status (accepted, poor_fit,
/// too_few_points), points, r_squared; serial_fraction and ceiling_speedup (1/s, 0 when the
/// curve already passes it or s = 0) only when accepted.
QJsonObject amdahlToJson(const AmdahlFit &fit);
/// plan --json.
QJsonObject planSearchToJson(const PlanSearchResult &r, int gpus);

/// Exposed communication as a share of the step (sweep's communication_share).
double communicationShare(const Summary &s);
/// sweep --csv: gpus, step_time_s, samples_per_s, speedup, scaling_efficiency,
/// communication_share (spec/cli.md), one row per GPU count. `detailed` (the window's export)
/// appends tokens_per_s, mfu, the breakdown in seconds, memory_per_gpu_gb and closed_form
/// (1 where the closed form answered). Where one GPU cannot hold the model (`reference`
/// rebased), reference_gpus, speedup_from_reference and efficiency_from_reference follow:
/// the figures the window and `simulate` show (analysis/speedup_reference.h).
/// Locale-independent.
QByteArray sweepToCsv(const std::vector<SweepRow> &rows, bool detailed,
                      const SpeedupReference *reference = nullptr);

/// The `speedup_reference` object of simulate --json and sweep --json: gpus (N0),
/// one_gpu_on_paper, its speedup against one GPU and step time; the one-GPU memory.
QJsonObject speedupReferenceToJson(const SpeedupReference &r);
/// One run's figures against it (`from_reference`): kind (one_gpu, against_one, rebased,
/// fewest, on_paper), from_gpus, speedup, ideal, scaling_efficiency.
QJsonObject speedupFiguresToJson(const SpeedupFigures &f);
/// The kind's name in those objects.
const char *speedupFiguresKindName(SpeedupFigures::Kind kind);

/// The `critical_path` object of simulate --json (sim/critical_path.h): tasks (on the path
/// over the measured steps), span_s and seconds_by_kind per step: compute, optimizer, tp_comm,
/// dp_comm, pp_comm, ep_comm, cp_comm, data_loading, wait (the busiest expert), slowest_gpu
/// (jittered work beyond its calm length) and idle, which sum to span_s.
QJsonObject criticalPathToJson(const CriticalPath &path);
/// The `what_if` list of simulate --json: {cause, step_time_s, gain_s}, largest gain first.
QJsonArray whatIfToJson(const std::vector<WhatIfGain> &gains);

/// Chrome Trace Event format: one process per node, one thread per GPU and stream, one
/// complete event ("ph": "X") per segment; times in microseconds.
QByteArray timelineToChromeTrace(const Timeline &t, const QString &title);

} // namespace scalescope
