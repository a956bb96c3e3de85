// Colours and translated names of timeline segment kinds, shared by every view so that the
// timeline, its legend and the breakdown charts agree.
#pragma once

#include "sim/timeline.h"

#include <QColor>
#include <QString>

namespace scalescope
{

QColor kindColor(SegmentKind kind);
/// Translated short name ("Compute", "DP comm", ...).
QString kindName(SegmentKind kind);
/// Translated one-line explanation for legends and tooltips.
QString kindDescription(SegmentKind kind);

/// Colours of the breakdown categories (spec/cli.md breakdown_s).
enum class BreakdownPart { Compute, CommunicationExposed, PipelineBubble, Wait, DataLoading };
inline constexpr int kBreakdownPartCount = 5;
QColor breakdownColor(BreakdownPart part);
QString breakdownName(BreakdownPart part);

} // namespace scalescope
