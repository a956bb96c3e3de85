// Economics of a training run (the scenario's `cost` section): time to train, energy, owning
// against renting, break-even usage and a verdict: the waiting the scenario's GPUs save, valued
// at the day rate, against what they add a month (hardware or cloud time, and the migration
// spread over the amortisation period), beside the claims' rule of thumb (task duration x
// frequency -> 1 / 2 / 4 / 8+ GPUs) and why the two differ. No verdict without the prices it
// needs. Pure C++.
#pragma once

#include "analysis/summary.h"
#include "analysis/sweep.h"
#include "plan/scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scalescope
{

/// Board power as a function of utilisation: linear between idle and TDP (Fan, Weber &
/// Barroso, "Power provisioning for a warehouse-sized computer", ISCA 2007). Idle share of
/// TDP: an assumption (0.3; an idle data-centre GPU draws 60-100 W of 300-700 W).
inline constexpr double kIdlePowerShare = 0.3;
double boardPowerW(double tdp_w, double utilisation);

/// What the cost verdict decides (CostVerdict::decision).
enum class CostDecision : uint8_t {
    NoVerdict,        // a price or the work the comparison needs is 0 (CostVerdict::missing)
    AtReference,      // the run is its reference (one GPU, or the fewest that fit): only owning
                      // against renting is decided
    MoreGpusPay,      // the waiting they save is worth more than what they add a month
    MoreGpusDoNotPay, // they add more a month than the waiting they save is worth
    DoesNotFit,       // the scenario's plan does not fit in memory, by more than the model's
                      // memory error: it cannot run at all
};

/// The cheaper way to get the GPUs for the month's work.
enum class CostVenue : uint8_t { Own, Rent };

/// Inputs the comparison needs; a bit each in CostVerdict::missing when 0.
enum class CostInput : uint8_t {
    GpuPrice,   // gpu_price_usd (owning)
    CloudPrice, // cloud_price_per_gpu_hour (renting)
    PowerPrice, // power_price_per_kwh (the energy of owning)
    DayRate,    // day_rate_usd (the value of the waiting saved; more than one GPU only)
    Work,       // the work of one run (tokens, epochs x samples or steps)
};
inline constexpr int kCostInputCount = 5;

/// The rule of thumb's bands (claims.md 16): duration of the job on one GPU ...
enum class DurationBand : uint8_t { UnderADay, OneToThreeDays, ThreeToFourteenDays, OverTwoWeeks };
/// ... and GPU-hours a month on one GPU.
enum class UsageBand : uint8_t { Under50, From50To200, Over200 };
const char *durationBandName(DurationBand band); // "under a day", ... (English, for JSON)
const char *usageBandName(UsageBand band);       // "under 50 GPU-hours a month", ...

/// Why the comparison's decision on the GPU count differs from the rule of thumb's.
enum class RuleGap : uint8_t {
    None,          // they agree (or there is no comparison)
    WaitingValued, // the rule suggests fewer GPUs (it counts GPU-hours, not the user's time),
                   // but the waiting they save is worth more than what they add
    CostOutweighs, // the rule suggests this many GPUs or more, but what they add (hardware or
                   // cloud time, migration) is worth more than the waiting they save
};

/// The verdict as a record: the decision, the numbers it compares (USD a month) and the rule
/// of thumb beside it. Views and the CLI turn it into sentences.
struct CostVerdict {
    CostDecision decision = CostDecision::NoVerdict;
    uint8_t missing = 0; // bits 1 << CostInput: inputs that are 0 (decision NoVerdict)
    bool isMissing(CostInput input) const { return missing & (1u << unsigned(input)); }

    // The comparison (scenario's GPUs against the reference's, CostReport::reference_gpus, for
    // the same work, a month).
    CostVenue venue = CostVenue::Rent;           // cheaper for the scenario's GPUs
    CostVenue reference_venue = CostVenue::Rent; // cheaper for the reference's GPUs
    double waiting_saved_h_per_month = 0;
    double hour_value_usd = 0;               // day_rate_usd / 8 working hours
    double waiting_value_usd_per_month = 0;  // waiting saved x hour value
    double gpus_cost_usd_per_month = 0;      // the scenario's GPUs, the cheaper venue
    double reference_cost_usd_per_month = 0; // the reference's GPUs, the cheaper venue
    double hardware_extra_usd_per_month = 0; // gpus_cost - reference_cost
    double migration_usd_per_month = 0;      // migration days x day rate / amortisation months
    double extra_cost_usd_per_month = 0;     // hardware_extra + migration
    double net_usd_per_month = 0;            // waiting_value - extra_cost

    // The rule of thumb (claims.md 16: job duration x frequency -> 1 / 2 / 4 / 8+ GPUs;
    // owning pays over about 200 hours a month).
    DurationBand duration = DurationBand::UnderADay;
    UsageBand usage = UsageBand::Under50;
    int recommended_gpus = 1; // 1, 2, 4 or 8 (8 = "8+")
    bool rule_own = false;    // the rule's venue: own above kRuleOwnHoursPerMonth of use
    RuleGap gap = RuleGap::None;
    bool venue_differs = false; // the rule's venue differs from the prices' break-even

    bool more_gpus_worth_it = false; // decision == MoreGpusPay
    bool own = false;                // venue == Own
};

/// Rule of thumb (claims.md 16): owning pays over about 200 hours of use a month.
inline constexpr double kRuleOwnHoursPerMonth = 200;
/// Waiting is valued at the day rate over a working day of 8 hours (an assumption,
/// docs/scenario.md: day_rate / 8 per hour).
inline constexpr double kHoursPerWorkDay = 8;

/// Advice lines of the cost report (CostReport::advice).
enum class AdviceKind : uint8_t {
    LinearScalingRule, // raise the learning rate with the global batch (Goyal et al. 2017)
    LoaderWorkers,     // the loader workers each GPU needs (effects.data_loader)
    LoaderRuleOfThumb, // 4 workers per GPU to start with (no loader described)
};

/// One advice line as a record: adviceText() writes it in English (the CLI and its JSON), the
/// GUI in its language (views/model_text.h).
struct Advice {
    AdviceKind kind = AdviceKind::LinearScalingRule;
    double global_batch = 0;             // LinearScalingRule
    double samples_per_s_per_gpu = 0;    // LoaderWorkers: what each GPU consumes
    double samples_per_s_per_worker = 0; // LoaderWorkers
    int workers_needed = 0;              // LoaderWorkers, per GPU
    int workers_per_gpu = 0;             // LoaderWorkers: what the scenario has
};
std::string adviceText(const Advice &advice);
/// How advice writes its figures (samples/s, the batch), in English and in the GUI alike.
std::string adviceNumber(double x); // 949.6 -> "950"

/// A GPU count of the scaling sweep as the verdict weighs it (CostReport::best).
struct SweepCostChoice {
    int gpus = 0;
    double time_to_train_h = 0;
    double cost_usd_per_month = 0; // its GPUs for the month's work, the cheaper venue
    /// Waiting saved against the reference, valued, less what its GPUs add (0 for the
    /// reference itself): the figure the verdict compares counts by.
    double net_usd_per_month = 0;
    double faster_than_scenario = 0; // the scenario's time to train over this count's
    double gain_usd_per_month = 0;   // net_usd_per_month over the scenario's own
};

struct CostReport {
    int gpus = 1;
    double steps_per_run = 0;
    double step_time_s = 0;           // the engine's step on the scenario's GPUs
    double goodput = 1;               // useful share of the time (failures and checkpoints)
    double time_to_train_h = 0;       // wall time of one run on the scenario's GPUs (goodput incl.)
    double memory_total_bytes = 0;    // per GPU, the most loaded (DoesNotFit says it)
    double memory_capacity_bytes = 0;
    /// Over the capacity by less than the model's memory error (MemoryBreakdown::
    /// verdictWithinError): the run may fit, so the verdict is given as if it ran, and said so.
    bool may_not_fit = false;
    /// The run the scenario is compared with: the speed-up reference's (one GPU, or the
    /// fewest GPUs that hold the model), and the same run's time on it.
    int reference_gpus = 1;
    double reference_time_h = 0;
    double gpu_hours_per_run = 0;     // time_to_train_h x gpus
    double usage_hours_per_month = 0; // machine hours per month (runs x time_to_train_h)
    double utilisation = 0;           // busy share of the step (compute / step time)
    double power_per_gpu_w = 0;
    bool energy_known = false;      // the GPU's board power (TDP) is known
    double energy_kwh_per_step = 0; // GPUs x power x step time x PUE (no failure rework)
    double energy_kwh_per_run = 0;  // GPUs x power x time x PUE
    double energy_cost_per_run_usd = 0;
    double capital_usd = 0;             // GPUs + servers
    double own_cost_per_month_usd = 0;  // amortised capital + energy of the runs
    double rent_cost_per_month_usd = 0; // GPU-hours x cloud price
    double own_cost_per_run_usd = 0;
    double rent_cost_per_run_usd = 0;
    double break_even_hours_per_month =
        0; // machine hours/month above which owning pays (inf: never)
    double migration_cost_usd = 0;
    double hours_saved_per_month = 0; // waiting time saved against the reference's GPUs
    CostVerdict verdict;
    /// The count of the scaling sweep that pays best, where it is not the scenario's own
    /// (strong scaling, counts whose plan fits in memory, a verdict with prices): "8 pay
    /// off, but 4 are 1.45x faster and half the price" (weighSweep).
    std::optional<SweepCostChoice> best;
    std::vector<Advice> advice; // records; adviceText() and the GUI write them
};

/// Steps of one run of `cost.training` (tokens, epochs x samples, or steps).
double stepsPerRun(const CostSpec &cost, double global_batch, double tokens_per_sample);

/// What the scenario's GPUs are compared with: the run of the evaluation's speed-up
/// reference (analysis/speedup_reference.h, costBaseline()): one GPU, or N0 GPUs, the fewest
/// that hold the model. step_time_s < 0: one GPU at the summary's single_gpu_step_s (a
/// model that one GPU holds).
struct CostBaseline {
    int gpus = 1;
    double step_time_s = -1;
};

/// The report of the scenario's cost section from its summary. The utilisation is the
/// compute share of the step (breakdown.compute / step_time_s): the GPU is taken to draw
/// near TDP while computing and idle power while it waits or only communicates.
CostReport costReport(const Scenario &scenario, const Summary &summary,
                      const CostBaseline &baseline = {});
/// The same with `cost` in place of the scenario's section (the cost tab's figures for a
/// scenario without one).
CostReport costReport(const Scenario &scenario, const CostSpec &cost, const Summary &summary,
                      const CostBaseline &baseline = {});

/// Weighs the counts of a strong-scaling sweep (`rows`, each with its summary) as the
/// scenario's own verdict weighs its count, against the same baseline, and sets
/// `report.best` to the count that pays best when that is not the scenario's (never a
/// count whose plan does not fit in memory).
void weighSweep(CostReport &report, const Scenario &scenario, const std::vector<SweepRow> &rows,
                const CostBaseline &baseline);

} // namespace scalescope
