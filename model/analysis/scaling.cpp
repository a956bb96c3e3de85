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

} // namespace scalescope
