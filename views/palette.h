// Colours and translated names of timeline segment kinds, shared by every view so that the
// timeline, its legend and the breakdown charts agree. Two palettes: the screen palette and
// a high-contrast projector palette for presentation mode (projectors wash out pale colours
// and thin lines: no light grey or light blue, darker text on pure white).
#pragma once

#include "sim/timeline.h"

#include <QColor>
#include <QPalette>
#include <QString>

namespace scalescope
{

enum class PaletteMode { Screen, Projector };
/// Selects the colours kindColor() and breakdownColor() return from now on (GUI thread).
/// Views read them when they paint (the timeline) or when they are built (charts): build
/// the charts of a projector page after switching.
void setPaletteMode(PaletteMode mode);
PaletteMode paletteMode();
/// The widget palette of presentation mode: black text on white, a dark mid tone for grid
/// and frame lines, a saturated highlight.
QPalette projectorPalette();

QColor kindColor(SegmentKind kind);
/// Translated short name ("Compute", "DP comm", ...).
QString kindName(SegmentKind kind);
/// Translated one-line explanation for legends and tooltips.
QString kindDescription(SegmentKind kind);

/// Colours of the breakdown categories (spec/cli.md breakdown_s).
/// The parts of a step in the Breakdown chart; exposed communication by parallelism, in the
/// timeline's colours (tensor, data, pipeline).
enum class BreakdownPart {
    Compute,
    TpCommunication, // tensor-parallel collectives (on the critical path)
    DpCommunication, // exposed data-parallel communication
    PpCommunication, // exposed pipeline sends and receives
    PipelineBubble,
    Wait,
    DataLoading,
    ExpertCommunication,  // exposed expert dispatch and combine (all-to-all)
    ContextCommunication, // exposed context-parallel key/value exchange
};
inline constexpr int kBreakdownPartCount = 9;
QColor breakdownColor(BreakdownPart part);
QString breakdownName(BreakdownPart part);

} // namespace scalescope
