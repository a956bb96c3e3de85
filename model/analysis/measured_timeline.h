// A measured run drawn as the model's timeline (sim/timeline.h): the same flat arrays the
// Gantt view draws, so measured and predicted rows are the same kind of data (DESIGN.md
// section 2, "A measured trace is read into the same timeline structure the views draw").
#pragma once

#include "analysis/measured_critical_path.h"
#include "analysis/measured_run.h"
#include "analysis/measured_trace.h"
#include "sim/timeline.h"

#include <vector>

namespace scalescope
{

/// One GPU per trace (in the order given; `ranks[i]` measured from `traces[i]`), its rows:
/// - Compute: the union of its compute kernels (kernels on several streams drawn once);
/// - Collective: the union of its collective kernels (every kind but SendRecv), DpComm;
///   stretches where only all-to-all kernels ran are EpComm ("all-to-all kernels");
/// - PointToPoint: the union of its SendRecv kernels, PpComm.
/// Copies (memcpy, memset) are not drawn: the timeline has no row for them (its Receive row
/// is the model's pipeline receive, and the views name it so); their time is in the figures.
/// Times are seconds from the start of the rank's first step window (each rank aligned at a
/// step start), over its step windows only. Segments carry text labels ("compute kernels",
/// "collective kernels", "send/recv kernels") and the step's index as micro-batch.
/// `paths[i]`, rank i's critical paths (measured_critical_path.h, computed once by the
/// caller, who also reads them), are the timeline's critical path on the rows of that rank's
/// compute and communication kernels; fewer entries than ranks: none for the others.
Timeline measuredTimeline(const std::vector<const KinetoTrace *> &traces,
                          const std::vector<MeasuredRank> &ranks,
                          const std::vector<std::vector<MeasuredCriticalPath>> &paths);

} // namespace scalescope
