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

namespace
{

/// Sum of squared residuals of the speed-ups under serial fraction `s`.
double speedupResiduals(const std::vector<int> &gpus, const std::vector<double> &speedup,
                        const std::vector<size_t> &used, double s)
{
    double ss = 0;
    for (size_t i : used) {
        const double r = speedup[i] - amdahlSpeedup(s, gpus[i]);
        ss += r * r;
    }
    return ss;
}

} // namespace

AmdahlFit fitAmdahl(const std::vector<int> &gpus, const std::vector<double> &speedup)
{
    AmdahlFit fit;
    const size_t n = std::min(gpus.size(), speedup.size());
    std::vector<size_t> used;
    for (size_t i = 0; i < n; ++i)
        if (gpus[i] > 1 && speedup[i] > 0 && std::isfinite(speedup[i]))
            used.push_back(i);
    fit.points = static_cast<int>(used.size());
    for (size_t i : used)
        fit.max_speedup = std::max(fit.max_speedup, speedup[i]);
    if (fit.points < kAmdahlMinPoints) {
        fit.status = AmdahlFitStatus::TooFewPoints;
        return fit;
    }
    const auto rows = static_cast<Eigen::Index>(used.size());
    // Start: the Karp-Flatt form 1/S - 1/N = s (1 - 1/N), rows weighted by S^2 (a residual
    // e of 1/S is a residual of about -S^2 e of S), solved by Householder QR.
    Eigen::MatrixXd a(rows, 1);
    Eigen::VectorXd y(rows);
    for (Eigen::Index k = 0; k < rows; ++k) {
        const size_t i = used[static_cast<size_t>(k)];
        const double inv_n = 1.0 / gpus[i];
        const double w = speedup[i] * speedup[i];
        a(k, 0) = w * (1.0 - inv_n);
        y(k) = w * (1.0 / speedup[i] - inv_n);
    }
    double s = std::clamp(a.colPivHouseholderQr().solve(y)(0), 0.0, 1.0);
    // Gauss-Newton on r_i = S_i - 1 / (s + (1 - s) / N_i), dr_i/ds = (1 - 1/N_i) S(N_i)^2,
    // with step halving so that the sum of squares never grows (Nocedal & Wright, Sec. 10.3).
    double ss = speedupResiduals(gpus, speedup, used, s);
    for (int iteration = 0; iteration < 50; ++iteration) {
        Eigen::MatrixXd jacobian(rows, 1);
        Eigen::VectorXd residual(rows);
        for (Eigen::Index k = 0; k < rows; ++k) {
            const size_t i = used[static_cast<size_t>(k)];
            const double predicted = amdahlSpeedup(s, gpus[i]);
            jacobian(k, 0) = (1.0 - 1.0 / gpus[i]) * predicted * predicted;
            residual(k) = speedup[i] - predicted;
        }
        const double step = jacobian.colPivHouseholderQr().solve(-residual)(0);
        if (!std::isfinite(step))
            break;
        double factor = 1.0, next = s, next_ss = ss;
        for (int halving = 0; halving < 30; ++halving, factor *= 0.5) {
            next = std::clamp(s + factor * step, 0.0, 1.0);
            next_ss = speedupResiduals(gpus, speedup, used, next);
            if (next_ss <= ss)
                break;
        }
        if (next_ss > ss)
            break;
        const bool converged = std::abs(next - s) < 1e-13;
        s = next;
        ss = next_ss;
        if (converged)
            break;
    }
    fit.serial_fraction = s;
    // Coefficient of determination of the speed-ups: R^2 = 1 - SS_res / SS_tot (Draper &
    // Smith, "Applied Regression Analysis", Sec. 1.3), over the fitted points only.
    double mean = 0;
    for (size_t i : used)
        mean += speedup[i];
    mean /= static_cast<double>(used.size());
    double ss_tot = 0;
    for (size_t i : used)
        ss_tot += (speedup[i] - mean) * (speedup[i] - mean);
    fit.r_squared = ss_tot > 0 ? 1.0 - ss / ss_tot : (ss < 1e-12 ? 1.0 : 0.0);
    fit.valid = fit.r_squared >= kAmdahlMinRSquared;
    fit.status = fit.valid ? AmdahlFitStatus::Accepted : AmdahlFitStatus::PoorFit;
    return fit;
}

double amdahlCeiling(const AmdahlFit &fit, double highest_plotted_speedup)
{
    if (!fit.valid || fit.serial_fraction <= 0)
        return 0;
    // Amdahl's S(N) tends to 1/s as N grows (Amdahl 1967): the asymptote of the fitted law.
    const double ceiling = 1.0 / fit.serial_fraction;
    return ceiling >= std::max(fit.max_speedup, highest_plotted_speedup) ? ceiling : 0;
}

MemoryBreakdown singleGpuReferenceMemory(const SimContext &ctx)
{
    Plan one = ctx.plan;
    one.gpus = one.nodes = one.gpus_per_node = 1;
    one.data = one.tensor = one.pipeline = one.virtual_stages = 1;
    one.context = one.expert = one.expert_tensor = 1;
    one.expert_overlap = false;
    one.zero = 0;
    one.sequence_parallel = false;
    one.micro_batch = std::max<int64_t>(1, one.micro_batch);
    // The global batch as gradient accumulation on the one GPU (spec/cli.md: the reference
    // runs the same global batch).
    one.micro_batches =
        std::max<int64_t>(1, (one.global_batch + one.micro_batch - 1) / one.micro_batch);
    const WorkloadCost w =
        buildWorkloadCost(ctx.scenario.model, one, ctx.compute, ctx.plan.flash_attention);
    return memoryPerGpu(one, w, ctx.memory_capacity_bytes);
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
    case SpeedupLoss::ExpertComm:
        return "expert_all_to_all";
    case SpeedupLoss::ContextComm:
        return "context_exchange";
    case SpeedupLoss::ExpertImbalance:
        return "expert_imbalance";
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
    const double dp_exposed = std::max(0.0, b.communication_exposed - b.tp_comm - b.pp_exposed -
                                                b.ep_comm - b.cp_comm);
    const double opt_excess = b.optimizer - s.single_gpu_optimizer_s / n;
    const double compute_excess =
        (b.compute - b.optimizer) - (s.single_gpu_step_s - s.single_gpu_optimizer_s) / n;
    const double excess[kSpeedupLossCount] = {
        dp_exposed, b.tp_comm,  b.pipeline_bubble, b.pp_exposed,   b.wait - b.expert_wait,
        b.data_loading, opt_excess, compute_excess, b.ep_comm, b.cp_comm, b.expert_wait};
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
