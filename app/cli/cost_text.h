// The cost verdict (a record, analysis/economics.h) in English: the decision with the numbers
// it compares, and the rule of thumb beside it with why they differ (cost_text.cpp).
#pragma once

#include "cli/command.h"

#include "analysis/economics.h"

#include <QJsonObject>

namespace scalescope::cli
{

/// The cost report as JSON (io/report_io.h costToJson), its verdict with the sentence, the
/// missing inputs and the rule of thumb.
QJsonObject costReportJson(const CostReport &report);
/// The cost report's lines of `simulate`'s text output.
void printCostText(Output &out, const CostReport &c);

} // namespace scalescope::cli
