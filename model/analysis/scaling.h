// Scaling laws fitted to a sweep: Amdahl's serial fraction (least squares) and the
// Gustafson view of the same fraction.
#pragma once

#include "analysis/sweep.h"

#include <array>
#include <vector>

namespace scalescope
{

/// Why a sweep has, or has not, an Amdahl fit (a record: the views render it with tr()).
enum class AmdahlFitStatus {
    NotComputed,  // no fit was attempted (weak scaling: Gustafson's view applies instead)
    TooFewPoints, // fewer than kAmdahlMinPoints sweep points with more than one GPU
    PoorFit,      // R-squared below kAmdahlMinRSquared: the curve is not Amdahl-shaped
    Accepted,     // fitted, and the fit describes the curve
};

/// A one-parameter fit needs at least three points beyond N = 1: with two, one residual
/// degree of freedom is left and R-squared says almost nothing (N = 1 is S = 1 by
/// definition and carries no information).
inline constexpr int kAmdahlMinPoints = 3;
/// Threshold of R-squared (on the speed-ups) for reporting a fit. Not a cited constant but
/// a stated choice: below 0.9, more than a tenth of the variation of the speed-up across
/// the sweep is left unexplained by Amdahl's law, and its serial fraction and ceiling 1/s
/// would be extrapolations of a law the curve does not follow (a peak and a fall, a
/// memory or batch limit, superlinear compute).
inline constexpr double kAmdahlMinRSquared = 0.9;

struct AmdahlFit {
    AmdahlFitStatus status = AmdahlFitStatus::NotComputed;
    bool valid = false;         // status == Accepted: the fit may be drawn and quoted
    double serial_fraction = 0; // s in [0, 1] (also set, not reported, for PoorFit)
    double r_squared = 0;       // of the fitted speed-ups against the simulated ones
    int points = 0;             // points with gpus > 1 and a positive finite speed-up
    double max_speedup = 0;     // highest speed-up among those points
};

/// Amdahl's law (Amdahl 1967; Hennessy & Patterson, "Computer Architecture", Eq. 1.x):
/// S(N) = 1 / (s + (1 - s) / N).
double amdahlSpeedup(double serial_fraction, int gpus);
/// Gustafson's law (Gustafson 1988, "Reevaluating Amdahl's law"): scaled speed-up
/// S(N) = N - s (N - 1) when the work grows with N.
double gustafsonSpeedup(double serial_fraction, int gpus);

/// Least-squares fit of s to the speed-ups (Eigen). Start: Amdahl rewritten as
/// 1/S - 1/N = s (1 - 1/N), linear in s (the Karp-Flatt form, Karp & Flatt 1990), each row
/// weighted by S^2 so that its residual approximates the residual of S itself; then
/// Gauss-Newton on the residuals S_i - S(N_i; s) (Nocedal & Wright, "Numerical
/// Optimization", Sec. 10.3). s is clamped to [0, 1]. Points with gpus <= 1 carry no
/// information and are left out of the fit and of R-squared. R-squared is the
/// coefficient of determination of the speed-ups, 1 - SS_res / SS_tot (Draper & Smith,
/// "Applied Regression Analysis", Sec. 1.3). The fit is Accepted only with at least
/// kAmdahlMinPoints points and R-squared >= kAmdahlMinRSquared.
AmdahlFit fitAmdahl(const std::vector<int> &gpus, const std::vector<double> &speedup);

/// The fitted ceiling 1/s of an accepted fit, or 0 when none may be shown: no accepted fit,
/// s = 0 (no serial part), or 1/s below `highest_plotted_speedup` (a ceiling the plotted
/// curve already passes is not a ceiling).
double amdahlCeiling(const AmdahlFit &fit, double highest_plotted_speedup);

/// Whether a run needs more memory per GPU than it has (a known capacity only).
inline bool exceedsCapacity(const MemoryBreakdown &m)
{
    return m.capacity > 0 && m.total > m.capacity;
}

/// Memory per GPU of the speed-up reference: the same model and global batch on one GPU
/// (no data, tensor or pipeline parallelism, no ZeRO sharding, the global batch as
/// gradient accumulation of the plan's micro-batch), with memoryPerGpu's formulas.
MemoryBreakdown singleGpuReferenceMemory(const SimContext &ctx);

/// Where the missing speed-up went, in GPUs: ideal speed-up (gpus) minus the achieved one,
/// split by cause. Each cause's share of the step beyond the ideal time (single-GPU step /
/// gpus) is converted to GPUs as gpus x excess / step_time, so the losses sum exactly to
/// gpus - speedup (a negative compute loss means faster per-GPU compute than on one GPU).
enum class SpeedupLoss {
    DpComm,       // exposed data-parallel communication
    TpComm,       // tensor-parallel collectives on the critical path
    Bubble,       // pipeline fill and drain
    PointToPoint, // blocking pipeline sends / receives
    Sync,         // waiting for the slowest GPU: stragglers, jitter, thermal throttling
    DataLoading,  // starved by the data loader
    Optimizer,    // optimizer step not divided by the GPUs (replicated without ZeRO)
    Compute,      // per-GPU compute beyond 1/gpus of the single-GPU work (smaller GEMMs,
                  // launch and host-issue latency of more, smaller kernels)
    ExpertComm,      // expert dispatch and combine on the critical path
    ContextComm,     // context-parallel attention exchange on the critical path
    ExpertImbalance, // waiting for the busiest expert
};
inline constexpr int kSpeedupLossCount = 11;
const char *speedupLossName(SpeedupLoss l);

struct SpeedupAttribution {
    int gpus = 0;
    double speedup = 0;
    std::array<double, kSpeedupLossCount> loss_gpus{}; // sums to gpus - speedup
    /// What the breakdown left unexplained (folded into Compute); ~0 when the breakdown
    /// sums to the step time.
    double residual_gpus = 0;
    double total() const;
};

SpeedupAttribution attributeSpeedupLoss(int gpus, const Summary &s);
/// One entry per sweep row (data for a stacked chart).
std::vector<SpeedupAttribution> attributeSpeedupLoss(const std::vector<SweepRow> &rows);

/// Gustafson's view of a sweep: the serial fraction s that explains each row's scaled
/// speed-up S = N - s (N - 1) (Gustafson 1988), averaged over the rows with gpus > 1.
double gustafsonSerialFraction(const std::vector<int> &gpus, const std::vector<double> &speedup);

} // namespace scalescope
