// Scaling laws fitted to a sweep: Amdahl's serial fraction (least squares) and the
// Gustafson view of the same fraction.
#pragma once

#include <vector>

namespace scalescope
{

struct AmdahlFit {
    bool valid = false;          // at least two points with gpus > 1 and positive speed-up
    double serial_fraction = 0;  // s in [0, 1]
    double r_squared = 0;        // of the fitted speed-ups against the measured ones
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

} // namespace scalescope
