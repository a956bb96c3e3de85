// The cost verdict in English (cost_text.h): the decision with the numbers it compares, and
// the rule of thumb beside it with why they differ.
#include "cli/cost_text.h"

#include "cli/commands.h"

#include "io/report_io.h"

#include <QJsonArray>
#include <QStringList>

#include <cmath>

namespace scalescope::cli
{

namespace
{

QString gpusText(int gpus)
{
    return gpus >= 8 ? QStringLiteral("8+ GPUs")
                     : (gpus <= 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(gpus));
}

/// The run the cost is compared with: "one GPU", or "2 GPUs, the fewest that fit".
QString referenceText(const CostReport &c)
{
    return c.reference_gpus <= 1
               ? QStringLiteral("one GPU")
               : QStringLiteral("%1 GPUs, the fewest that fit").arg(c.reference_gpus);
}

/// The count of the sweep that pays best, where it is not the scenario's (CostReport::best).
QString bestText(const CostReport &c)
{
    if (!c.best)
        return {};
    const SweepCostChoice &b = *c.best;
    return QStringLiteral(" Best on the scaling sweep: %1 GPUs, %2x as fast as %3, %4 a month "
                          "(net $%5 a month against %6).")
        .arg(QString::number(b.gpus), fixed(b.faster_than_scenario, 2), QString::number(c.gpus),
             QStringLiteral("$") + fixed(b.cost_usd_per_month, 0), fixed(b.net_usd_per_month, 0),
             referenceText(c));
}

QString venueText(CostVenue venue)
{
    return venue == CostVenue::Own ? QStringLiteral("owning")
                                   : QStringLiteral("renting in the cloud");
}

QStringList missingCostInputs(const CostVerdict &v)
{
    static const char *const names[kCostInputCount] = {
        "the GPU price (gpu_price_usd)", "the cloud price (cloud_price_per_gpu_hour)",
        "the power price (power_price_per_kwh)", "the day rate (day_rate_usd)",
        "the work per run (training)"};
    QStringList list;
    for (int i = 0; i < kCostInputCount; ++i)
        if (v.isMissing(static_cast<CostInput>(i)))
            list.append(QString::fromLatin1(names[i]));
    return list;
}

QString costVerdictSentence(const CostReport &c)
{
    const CostVerdict &v = c.verdict;
    // Goodput 0: no comparison of costs, the run does not end (economics.cpp).
    if (!std::isfinite(c.time_to_train_h) && v.decision != CostDecision::NoVerdict)
        return QStringLiteral("%1 GPUs do not pay off: the run never ends on them, failures "
                              "come faster than checkpoints (goodput 0).")
            .arg(c.gpus);
    const QString usage =
        QStringLiteral("%1 h a month against a break-even of %2")
            .arg(fixed(c.usage_hours_per_month, 0),
                 std::isfinite(c.break_even_hours_per_month)
                     ? fixed(c.break_even_hours_per_month, 0) + QStringLiteral(" h")
                     : QStringLiteral("never"));
    switch (v.decision) {
    case CostDecision::NoVerdict:
        return QStringLiteral("No verdict: the cost section lacks ") +
               missingCostInputs(v).join(QStringLiteral(", ")) + QStringLiteral(" (0).");
    case CostDecision::AtReference:
        return QStringLiteral("%1: %2 h per run; %3 is cheaper (%4).")
            .arg(c.reference_gpus <= 1 ? QStringLiteral("One GPU")
                                       : QStringLiteral("%1 GPUs, the fewest that fit")
                                             .arg(c.reference_gpus),
                 fixed(c.time_to_train_h, 1), venueText(v.venue), usage) +
               bestText(c);
    case CostDecision::DoesNotFit:
        return QStringLiteral("%1 GPUs: not worth it, the plan does not fit in memory (%2 of %3 "
                              "GiB per GPU).%4")
            .arg(c.gpus)
            .arg(fixed(c.memory_total_bytes / kBytesPerGiB, 1),
                 fixed(c.memory_capacity_bytes / kBytesPerGiB, 1), bestText(c));
    case CostDecision::MoreGpusPay:
    case CostDecision::MoreGpusDoNotPay:
        break;
    }
    return QStringLiteral("%1 GPUs %2 against %11: they save %3 h of waiting a month, worth $%4 "
                          "at $%5 an hour, against $%6 a month more ($%7 of hardware or cloud "
                          "time, $%8 of migration spread over the amortisation period); %9 is "
                          "cheaper (%10).")
        .arg(QString::number(c.gpus),
             v.decision == CostDecision::MoreGpusPay ? QStringLiteral("pay off")
                                                     : QStringLiteral("do not pay off"),
             fixed(v.waiting_saved_h_per_month, 0), fixed(v.waiting_value_usd_per_month, 0),
             fixed(v.hour_value_usd, 0), fixed(v.extra_cost_usd_per_month, 0),
             fixed(v.hardware_extra_usd_per_month, 0), fixed(v.migration_usd_per_month, 0),
             venueText(v.venue), usage, referenceText(c)) +
           bestText(c);
}

// The verdict, and where the plan may not fit in memory (over the capacity by less than the
// model's memory error), that it is given as if the run ran.
QString costVerdictText(const CostReport &c)
{
    QString text = costVerdictSentence(c);
    if (c.may_not_fit && c.verdict.decision != CostDecision::NoVerdict)
        text += QStringLiteral(" It may not fit in memory (%1 of %2 GiB per GPU, within the "
                               "model's %3% memory error): the verdict takes it as running.")
                    .arg(fixed(c.memory_total_bytes / kBytesPerGiB, 1),
                         fixed(c.memory_capacity_bytes / kBytesPerGiB, 1),
                         fixed(100.0 * kMemoryVerdictMargin, 0));
    return text;
}

QString costRuleText(const CostReport &c)
{
    const CostVerdict &v = c.verdict;
    QString text =
        QStringLiteral("the job takes %1 on %5, %2: %3, %4")
            .arg(QString::fromLatin1(durationBandName(v.duration)),
                 QString::fromLatin1(usageBandName(v.usage)), gpusText(v.recommended_gpus),
                 v.rule_own ? QStringLiteral("owning (over 200 h a month)")
                            : QStringLiteral("renting (200 h a month or less)"));
    if (v.gap == RuleGap::WaitingValued)
        text += QStringLiteral("; the verdict differs because the rule counts GPU-hours, not the "
                               "waiting the GPUs save");
    else if (v.gap == RuleGap::CostOutweighs)
        text += QStringLiteral("; the verdict differs because the GPUs add more a month than the "
                               "waiting they save is worth");
    if (v.venue_differs)
        text += QStringLiteral("; at these prices owning pays above %1")
                    .arg(std::isfinite(c.break_even_hours_per_month)
                             ? fixed(c.break_even_hours_per_month, 0) + QStringLiteral(" h a month")
                             : QStringLiteral("no usage"));
    return text + QLatin1Char('.');
}

} // namespace

QJsonObject costReportJson(const CostReport &report)
{
    const CostReport &c = report;
    QJsonObject o = costToJson(c);
    const CostVerdict &v = c.verdict;
    QJsonObject j = o[QStringLiteral("verdict")].toObject();
    j[QStringLiteral("sentence")] = costVerdictText(c);
    static const char *const decisions[] = {"no_verdict", "at_reference", "more_gpus_pay",
                                            "more_gpus_do_not_pay", "does_not_fit"};
    static const char *const gaps[] = {"none", "waiting_valued", "cost_outweighs"};
    static const char *const inputs[kCostInputCount] = {"gpu_price_usd", "cloud_price_per_gpu_hour",
                                                        "power_price_per_kwh", "day_rate_usd",
                                                        "training"};
    j[QStringLiteral("decision")] = QLatin1String(decisions[static_cast<int>(v.decision)]);
    j[QStringLiteral("may_not_fit")] = c.may_not_fit;
    QJsonArray missing;
    for (int i = 0; i < kCostInputCount; ++i)
        if (v.isMissing(static_cast<CostInput>(i)))
            missing.append(QLatin1String(inputs[i]));
    j[QStringLiteral("missing")] = missing;
    j[QStringLiteral("venue")] =
        v.venue == CostVenue::Own ? QStringLiteral("own") : QStringLiteral("rent");
    j[QStringLiteral("reference_venue")] =
        v.reference_venue == CostVenue::Own ? QStringLiteral("own") : QStringLiteral("rent");
    j[QStringLiteral("waiting_saved_h_per_month")] = v.waiting_saved_h_per_month;
    j[QStringLiteral("hour_value_usd")] = v.hour_value_usd;
    j[QStringLiteral("waiting_value_usd_per_month")] = v.waiting_value_usd_per_month;
    j[QStringLiteral("gpus_cost_usd_per_month")] = v.gpus_cost_usd_per_month;
    j[QStringLiteral("reference_cost_usd_per_month")] = v.reference_cost_usd_per_month;
    j[QStringLiteral("hardware_extra_usd_per_month")] = v.hardware_extra_usd_per_month;
    j[QStringLiteral("migration_usd_per_month")] = v.migration_usd_per_month;
    j[QStringLiteral("extra_cost_usd_per_month")] = v.extra_cost_usd_per_month;
    j[QStringLiteral("net_usd_per_month")] = v.net_usd_per_month;
    j[QStringLiteral("rule_own")] = v.rule_own;
    j[QStringLiteral("rule_gap")] = QLatin1String(gaps[static_cast<int>(v.gap)]);
    j[QStringLiteral("venue_differs")] = v.venue_differs;
    j[QStringLiteral("rule_of_thumb")] = QStringLiteral("Rule of thumb: ") + costRuleText(c);
    o[QStringLiteral("verdict")] = j;
    return o;
}

void printCostText(Output &out, const CostReport &c)
{
    if (!std::isfinite(c.time_to_train_h))
        out.line(QStringLiteral("  time to train       never on %1 GPUs: failures come faster than "
                                "checkpoints (goodput 0); %2 h on %3")
                     .arg(c.gpus)
                     .arg(fmt(c.reference_time_h, 4), referenceText(c)));
    else if (c.gpus <= c.reference_gpus) // the run is its own reference
        out.line(QStringLiteral("  time to train       %1 h on %2 GPUs")
                     .arg(fmt(c.time_to_train_h, 4))
                     .arg(c.gpus));
    else
        out.line(QStringLiteral("  time to train       %1 h on %2 GPUs (%3 h on %4)")
                     .arg(fmt(c.time_to_train_h, 4))
                     .arg(c.gpus)
                     .arg(fmt(c.reference_time_h, 4), referenceText(c)));
    // A run that never ends has no energy or cost per run (JSON: null, report_io.cpp); the
    // text says so instead of printing "inf" (issue 29: every printed figure is finite).
    const auto perRun = [&](double x, int decimals, bool money) {
        if (!std::isfinite(x))
            return QStringLiteral("unbounded");
        return (money ? QStringLiteral("$") : QString()) +
               (decimals < 0 ? fmt(x, 4) : fixed(x, decimals));
    };
    out.line(QStringLiteral("  energy              %1 kWh per run (%2), %3 W per GPU at %4% "
                            "utilisation")
                 .arg(perRun(c.energy_kwh_per_run, -1, false),
                      perRun(c.energy_cost_per_run_usd, 0, true), fixed(c.power_per_gpu_w, 0),
                      fixed(100.0 * c.utilisation, 0)));
    out.line(QStringLiteral("  own vs rent         %1 vs %2 a month; break-even %3 h a month")
                 .arg(perRun(c.own_cost_per_month_usd, 0, true),
                      perRun(c.rent_cost_per_month_usd, 0, true),
                      std::isfinite(c.break_even_hours_per_month)
                          ? fixed(c.break_even_hours_per_month, 0)
                          : QStringLiteral("never")));
    out.line(QStringLiteral("  verdict             %1").arg(costVerdictText(c)));
    out.line(QStringLiteral("  rule of thumb       %1").arg(costRuleText(c)));
    for (const Advice &a : c.advice)
        out.line(QStringLiteral("  advice              %1").arg(QString::fromStdString(adviceText(a))));
}

} // namespace scalescope::cli
