// Run-length arithmetic and duration text for the cost tab (no Qt widgets). The time, energy
// and money of a run are model/analysis/economics.h's (costReport): the tab computes none.
#pragma once

#include <QString>

#include <cstdint>

namespace scalescope
{

/// Steps that train `tokens` tokens: tokens / (global_batch * seq_len), rounded up;
/// 0 when the batch or sequence length is not positive.
double stepsForTokens(double tokens, int64_t global_batch, int64_t seq_len);

/// A duration for people: "850 ms", "42 s", "12.5 min", "3.2 h", "4.5 days".
QString formatRunDuration(double seconds);

} // namespace scalescope
