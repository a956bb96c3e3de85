// Scaling laws fitted to a sweep: Amdahl's serial fraction (least squares) and the
// Gustafson view of the same fraction.
#pragma once

#include "analysis/sweep.h"

#include <array>
#include <vector>

namespace scalescope
{

struct AmdahlFit {
    bool valid = false;         // at least two points with gpus > 1 and positive speed-up
    double serial_fraction = 0; // s in [0, 1]
    double r_squared = 0;       // of the fitted speed-ups against the measured ones
    int points = 0;
};

/// Amdahl's law (Amdahl 1967; Hennessy & Patterson, "Computer Architecture", Eq. 1.x):
/// S(N) = 1 / (s + (1 - s) / N).
double amdahlSpeedup(double serial_fraction, int gpus);
/// Gustafson's law (Gustafson 1988, "Reevaluating Amdahl's law"): scaled speed-up
/// S(N) = N - s (N - 1) when the work grows with N.
double gustafsonSpeedup(double serial_fraction, int gpus);

/// Least-squares fit of s over the points (Eigen QR). Amdahl rewritten as
/// 1/S - 1/N = s (1 - 1/N) is linear in s (the Karp-Flatt form, Karp & Flatt 1990), so the
/// fit is one column; s is clamped to [0, 1]. Points with gpus <= 1 carry no information.
AmdahlFit fitAmdahl(const std::vector<int> &gpus, const std::vector<double> &speedup);

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
};
inline constexpr int kSpeedupLossCount = 8;
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
