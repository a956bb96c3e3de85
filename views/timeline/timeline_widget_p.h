// What the files of TimelineWidget share (timeline_widget.cpp, timeline_paint.cpp,
// timeline_tooltip.cpp, timeline_input.cpp); private to views/timeline.
#pragma once

#include "model_text.h"

namespace scalescope::timeline_detail
{

/// The model's segment labels in the current language, by label id (GUI thread; shared by
/// every timeline widget, cleared on a language change).
ModelLabelCache &labelTexts();

} // namespace scalescope::timeline_detail
