// A measured run's figures from its Kineto traces (measured_trace.h, read by io/kineto_trace.h),
// with the definitions of spec/cli.md, section "trace: a measured run, and the prediction beside
// it": steps from ProfilerStep#N through launch correlation, unions of intervals, exposed
// communication, idle, medians and numpy-style p90 over all (rank, step) pairs.
#pragma once

#include "analysis/measured_trace.h"
#include "plan/error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalescope
{

struct Summary;

/// The figures of one step, as `per_step_s` and `step_time_s.median` name them; the
/// measured run's medians and the model's predicted step both fill one.
struct StepFigures {
    double step_time_s = 0;
    double compute_s = 0;
    double communication_s = 0;
    double communication_exposed_s = 0;
    double copies_s = 0;
    double idle_s = 0;
    std::array<double, kCommKindCount> kind_s{};
    std::array<bool, kCommKindCount> kind_present{};
};

/// One step of one rank: its window [start_us, end_us) and the figures measured inside it
/// (the union of each kind's kernels inside the window; `kind_present`: a kernel of that kind
/// starts inside the window).
struct MeasuredStep : StepFigures {
    int64_t number = -1; // N of ProfilerStep#N; -1 for the one step of a trace without steps
    double start_us = 0, end_us = 0;
};

/// What the definitions met on the way (for notes and --json diagnostics).
struct MeasuredRankNotes {
    size_t activities_without_launch = 0;
    size_t activities_outside_steps = 0;
    size_t annotations = 0;
    size_t annotations_without_gpu_work = 0;
    bool whole_trace_is_one_step = false;
};

struct MeasuredRank {
    std::string path; // the file, as messages name it
    int64_t rank = 0;
    std::string device;
    std::optional<std::string> gpu; // deviceProperties name of the device
    size_t kernels = 0;
    std::vector<MeasuredStep> steps; // in time order
    MeasuredRankNotes notes;
};

/// One rank's steps and figures.
MeasuredRank measureRank(const KinetoTrace &trace);

/// The spec's statistics: the median (mean of the two middle values of an even count) and
/// numpy's default linear percentile. Empty input gives 0.
double medianOf(std::vector<double> values);
double percentileOf(std::vector<double> values, double q);

/// All ranks together (spec/cli.md "trace", --json).
struct MeasuredRun {
    int ranks = 0;
    std::optional<std::string> gpu; // shared by every rank, else none
    int steps = 0;                  // steps of a rank, the largest
    double step_min_s = 0, step_max_s = 0, step_p90_s = 0;
    StepFigures median; // medians over all (rank, step) pairs
    size_t kernels = 0;
};

/// Combines ranks; two ranks with the same number are an error naming both files.
Result<MeasuredRun> combineRanks(const std::vector<MeasuredRank> &ranks);

/// The model's step in the same terms (spec/cli.md "trace", --scenario): compute, the
/// communication total and exposed, idle = pipeline bubble + wait + data loading, and the
/// step time; the model has no copies (0) and no kinds.
StepFigures predictedFigures(const Summary &summary);

/// One figure of the comparison, named as in --json ("step_time_s", "compute", ...).
struct StepComparison {
    const char *name = "";
    double measured = 0;
    double predicted = 0;
    std::optional<double> ratio; // measured / predicted, when predicted > 0
};
std::vector<StepComparison> compareFigures(const StepFigures &measured,
                                           const StepFigures &predicted);
/// The figure whose ratio is farthest from 1 (|log ratio| largest), among figures the model
/// predicts (predicted > 0) or that the run spends more than 1% of its step on; none when
/// nothing compares.
std::optional<StepComparison> largestDisagreement(const std::vector<StepComparison> &figures,
                                                  double measured_step_s);

/// How a figure disagrees, as the sentence naming the largest disagreement words it (the
/// CLI's and the window's): measured more than predicted (by `ratio`), predicted more than
/// measured (by 1 / ratio), predicted where the run measured none, measured where the
/// model predicts none.
enum class Disagreement { MeasuredMore, PredictedMore, MeasuredNone, NotPredicted };
Disagreement disagreementOf(const StepComparison &c);

} // namespace scalescope
