#include "analysis/reliability.h"

#include "sim/simulator.h"

#include <algorithm>
#include <cmath>

namespace scalescope
{

double youngInterval(double checkpoint_write_s, double mtbf_s)
{
    // Young 1974: tau_opt = sqrt(2 delta M).
    return std::sqrt(2.0 * checkpoint_write_s * mtbf_s);
}

double dalyInterval(double checkpoint_write_s, double mtbf_s)
{
    const double d = checkpoint_write_s, m = mtbf_s;
    if (d >= 2.0 * m)
        return m;
    // Daly 2006, higher-order optimum.
    const double x = d / (2.0 * m);
    return std::sqrt(2.0 * d * m) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - d;
}

double checkpointGoodput(double interval_s, double checkpoint_write_s, double restart_s,
                         double mtbf_s)
{
    if (interval_s <= 0 || mtbf_s <= 0)
        return 0;
    // Daly 2006 complete model: T_w / T_s = M e^(R/M) (e^((tau+delta)/M) - 1) / tau, in
    // logarithms: the ratio overflowed (goodput 0) where failures merely outpace the
    // checkpoints by a few hundred times; now only a goodput below 1e-308 reads as 0.
    const double m = mtbf_s;
    const double x = (interval_s + checkpoint_write_s) / m;
    const double log_expm1 = x > 30 ? x + std::log1p(-std::exp(-x)) : std::log(std::expm1(x));
    const double log_ratio = std::log(m) + restart_s / m + log_expm1 - std::log(interval_s);
    return std::isfinite(log_ratio) ? std::min(1.0, std::exp(-log_ratio)) : 0.0;
}

CheckpointPlan checkpointPlan(const FailureSpec &f, int gpus, double default_checkpoint_bytes)
{
    CheckpointPlan c;
    // Independent exponential failures: the job fails at the sum of the GPUs' rates.
    c.system_mtbf_s = f.mtbf_hours_per_gpu * 3600.0 / std::max(1, gpus);
    c.checkpoint_bytes = f.checkpoint_bytes > 0 ? f.checkpoint_bytes : default_checkpoint_bytes;
    c.checkpoint_write_s = c.checkpoint_bytes / (f.checkpoint_write_gbps * 1e9);
    c.interval_young_s = youngInterval(c.checkpoint_write_s, c.system_mtbf_s);
    c.interval_daly_s = dalyInterval(c.checkpoint_write_s, c.system_mtbf_s);
    c.interval_s =
        f.checkpoint_interval_s > 0 ? f.checkpoint_interval_s : std::max(c.interval_daly_s, 1e-3);
    c.goodput = checkpointGoodput(c.interval_s, c.checkpoint_write_s, f.restart_s, c.system_mtbf_s);
    c.failures_per_day = 86400.0 / c.system_mtbf_s;
    return c;
}

double checkpointBytesOf(const SimContext &ctx, const MemoryBreakdown &m)
{
    // Weights and optimizer states of one model copy: every GPU holds 1/(tensor x pipeline)
    // of them, ZeRO shards them further over the data-parallel group.
    const Plan &p = ctx.plan;
    const double mp = static_cast<double>(p.tensor) * p.pipeline;
    const double weights = m.parameters * mp * (p.zero >= 3 ? p.data : 1);
    const double states = m.optimizer_states * mp * (p.zero >= 1 ? p.data : 1);
    return weights + states;
}

} // namespace scalescope
