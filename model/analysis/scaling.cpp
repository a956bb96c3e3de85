#include "analysis/scaling.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace scalescope
{

double amdahlSpeedup(double serial_fraction, int gpus)
{
    const double n = std::max(1, gpus);
    return 1.0 / (serial_fraction + (1.0 - serial_fraction) / n);
}

double gustafsonSpeedup(double serial_fraction, int gpus)
{
    const double n = std::max(1, gpus);
    return n - serial_fraction * (n - 1.0);
}

AmdahlFit fitAmdahl(const std::vector<int> &gpus, const std::vector<double> &speedup)
{
    AmdahlFit fit;
    const size_t n = std::min(gpus.size(), speedup.size());
    std::vector<size_t> used;
    for (size_t i = 0; i < n; ++i)
        if (gpus[i] > 1 && speedup[i] > 0 && std::isfinite(speedup[i]))
            used.push_back(i);
    fit.points = static_cast<int>(used.size());
    if (used.size() < 2)
        return fit;
    Eigen::MatrixXd a(static_cast<Eigen::Index>(used.size()), 1);
    Eigen::VectorXd y(static_cast<Eigen::Index>(used.size()));
    for (size_t k = 0; k < used.size(); ++k) {
        const double inv_n = 1.0 / gpus[used[k]];
        a(static_cast<Eigen::Index>(k), 0) = 1.0 - inv_n;
        y(static_cast<Eigen::Index>(k)) = 1.0 / speedup[used[k]] - inv_n;
    }
    const Eigen::VectorXd s = a.colPivHouseholderQr().solve(y);
    fit.serial_fraction = std::clamp(s(0), 0.0, 1.0);
    double mean = 0;
    for (size_t i : used)
        mean += speedup[i];
    mean /= static_cast<double>(used.size());
    double ss_res = 0, ss_tot = 0;
    for (size_t i : used) {
        const double pred = amdahlSpeedup(fit.serial_fraction, gpus[i]);
        ss_res += (speedup[i] - pred) * (speedup[i] - pred);
        ss_tot += (speedup[i] - mean) * (speedup[i] - mean);
    }
    fit.r_squared = ss_tot > 0 ? 1.0 - ss_res / ss_tot : (ss_res < 1e-12 ? 1.0 : 0.0);
    fit.valid = true;
    return fit;
}

const char *speedupLossName(SpeedupLoss l)
{
    switch (l) {
    case SpeedupLoss::DpComm:
        return "dp_communication";
    case SpeedupLoss::TpComm:
        return "tp_communication";
    case SpeedupLoss::Bubble:
        return "pipeline_bubble";
    case SpeedupLoss::PointToPoint:
        return "point_to_point";
    case SpeedupLoss::Sync:
        return "stragglers_jitter";
    case SpeedupLoss::DataLoading:
        return "data_loading";
    case SpeedupLoss::Optimizer:
        return "optimizer";
    case SpeedupLoss::Compute:
        break;
    }
    return "compute_and_latency";
}

double SpeedupAttribution::total() const
{
    double t = 0;
    for (double x : loss_gpus)
        t += x;
    return t;
}

SpeedupAttribution attributeSpeedupLoss(int gpus, const Summary &s)
{
    SpeedupAttribution a;
    a.gpus = gpus;
    a.speedup = s.speedup;
    const double step = s.step_time_s;
    if (step <= 0 || gpus < 1)
        return a;
    const Breakdown &b = s.breakdown;
    const double n = gpus;
    // Excess time of each cause over the ideal step T1 / N (the breakdown sums to the step).
    const double dp_exposed = std::max(0.0, b.communication_exposed - b.tp_comm - b.pp_exposed);
    const double opt_excess = b.optimizer - s.single_gpu_optimizer_s / n;
    const double compute_excess =
        (b.compute - b.optimizer) - (s.single_gpu_step_s - s.single_gpu_optimizer_s) / n;
    const double excess[kSpeedupLossCount] = {dp_exposed,   b.tp_comm,     b.pipeline_bubble,
                                              b.pp_exposed, b.wait,        b.data_loading,
                                              opt_excess,   compute_excess};
    double sum = 0;
    for (int i = 0; i < kSpeedupLossCount; ++i) {
        double x = n * excess[i] / step;
        if (std::abs(x) < 1e-9 * n) // rounding of equal terms (one GPU): no loss
            x = 0;
        a.loss_gpus[static_cast<size_t>(i)] = x;
        sum += x;
    }
    // Rounding and breakdown terms outside the listed ones (communication_exposed below
    // its parts) go to compute so that the losses sum to gpus - speedup exactly.
    a.residual_gpus = (n - s.speedup) - sum;
    double &compute = a.loss_gpus[static_cast<size_t>(SpeedupLoss::Compute)];
    compute += a.residual_gpus;
    if (std::abs(compute) < 1e-9 * n)
        compute = 0;
    return a;
}

std::vector<SpeedupAttribution> attributeSpeedupLoss(const std::vector<SweepRow> &rows)
{
    std::vector<SpeedupAttribution> out;
    out.reserve(rows.size());
    for (const SweepRow &r : rows)
        out.push_back(attributeSpeedupLoss(r.gpus, r.summary));
    return out;
}

double gustafsonSerialFraction(const std::vector<int> &gpus, const std::vector<double> &speedup)
{
    // S = N - s (N - 1)  =>  s = (N - S) / (N - 1).
    double sum = 0;
    int count = 0;
    for (size_t i = 0; i < std::min(gpus.size(), speedup.size()); ++i) {
        if (gpus[i] <= 1 || !std::isfinite(speedup[i]))
            continue;
        sum += (gpus[i] - speedup[i]) / (gpus[i] - 1.0);
        ++count;
    }
    return count > 0 ? std::clamp(sum / count, 0.0, 1.0) : 0.0;
}

} // namespace scalescope
