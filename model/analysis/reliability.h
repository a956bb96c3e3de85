// Failures and checkpointing over a long run: the optimal checkpoint interval (Young 1974,
// Daly 2006) and the goodput it leaves.
#pragma once

#include "analysis/memory.h"
#include "plan/scenario.h"

namespace scalescope
{

struct SimContext;

struct CheckpointPlan {
    double system_mtbf_s = 0;      // MTBF of the whole job: per-GPU MTBF / GPUs
    double checkpoint_bytes = 0;   // written at every checkpoint
    double checkpoint_write_s = 0; // delta: time to write one checkpoint
    double interval_young_s = 0;   // sqrt(2 delta M)
    double interval_daly_s = 0;    // Daly's higher-order optimum
    double interval_s = 0;         // the interval used (given, or Daly's optimum)
    double goodput = 1;            // useful compute / wall time
    double failures_per_day = 0;
};

/// Young 1974 ("A first order approximation to the optimum checkpoint interval", CACM
/// 17(9)): tau = sqrt(2 delta M).
double youngInterval(double checkpoint_write_s, double mtbf_s);
/// Daly 2006 ("A higher order estimate of the optimum checkpoint interval for restart
/// dumps", FGCS 22(3)): tau = sqrt(2 delta M)[1 + sqrt(delta/(2M))/3 +
/// delta/(18 M)] - delta for delta < 2M, else M.
double dalyInterval(double checkpoint_write_s, double mtbf_s);
/// Daly 2006 complete model of the expected wall time under exponential failures:
/// T_w = M e^(R/M) (e^((tau+delta)/M) - 1) T_s / tau, so goodput = T_s / T_w.
double checkpointGoodput(double interval_s, double checkpoint_write_s, double restart_s,
                         double mtbf_s);

CheckpointPlan checkpointPlan(const FailureSpec &f, int gpus, double default_checkpoint_bytes);

/// Bytes of one checkpoint when the scenario does not give them: one copy of the model
/// states (weights and optimizer states; gradients are not saved).
double checkpointBytesOf(const SimContext &ctx, const MemoryBreakdown &m);

} // namespace scalescope
