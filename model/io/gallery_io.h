// The claims gallery (resources/scenarios, shared/claims.md): scenario files that carry an
// "x-gallery" object with the claim number, a bilingual title and explanation, the GPU
// counts the scaling chart should show, the one view a slide shows and its zoom:
//   "x-gallery": {"claim": 2, "title": {"en": ..., "zh_CN": ...},
//                 "explanation": {"en": ..., "zh_CN": ...}, "sweep": [1, 2, 4, 8, 16],
//                 "view": "timeline" | "scaling" | "breakdown" | "memory" | "cost",
//                 "zoom": "step"}
// "view" (default "timeline") names the tab the explanation talks about: presentation mode
// shows it alone under the text, the window switches to it. "zoom" (default "step"): the
// timeline shows one whole training step, refitted on every slide.
#pragma once

#include "plan/error.h"
#include "plan/scenario.h"

#include <QString>

#include <vector>

namespace scalescope
{

/// The view a gallery slide shows (the tab its explanation talks about).
enum class GalleryView { Timeline, Scaling, Breakdown, Memory, Cost };
inline constexpr GalleryView kGalleryViews[] = {GalleryView::Timeline, GalleryView::Scaling,
                                                GalleryView::Breakdown, GalleryView::Memory,
                                                GalleryView::Cost};
/// "timeline", "scaling", "breakdown", "memory", "cost" (the --tab names).
const char *galleryViewName(GalleryView view);

/// What the timeline of a slide spans: "step" = one whole training step (the only zoom so
/// far; the key exists so that a slide can later ask for more).
enum class GalleryZoom { Step };
inline constexpr GalleryZoom kGalleryZooms[] = {GalleryZoom::Step};
const char *galleryZoomName(GalleryZoom zoom);

struct GalleryEntry {
    QString path; // the file it came from (a real path or a ":/gallery/..." resource)
    int claim = 0;
    QString title_en, title_zh;
    QString explanation_en, explanation_zh;
    std::vector<int> sweep; // GPU counts for the scaling chart; empty = the viewer decides
    GalleryView view = GalleryView::Timeline;
    GalleryZoom zoom = GalleryZoom::Step;
    Scenario scenario;

    /// The title in `lang` ("zh_CN", "zh", "zh-CN" choose Chinese; anything else English).
    QString title(const QString &lang) const;
    /// The explanation in `lang`, chosen as title() does.
    QString explanation(const QString &lang) const;
};

/// Largest claim number accepted in "x-gallery.claim".
inline constexpr int kMaxGalleryClaim = 99;

/// Parses the "x-gallery" object of one scenario document. Returns an entry without
/// `path`, or an InputError at "x-gallery.<key>". A document without "x-gallery" is an
/// error at "x-gallery" ("missing"); loadGallery skips such files instead.
Result<GalleryEntry> parseGalleryEntry(const QByteArray &json, const QString &baseDir = QString());

/// Reads every *.json file of `dir` (a real folder or a Qt resource folder such as
/// ":/gallery"), keeps those with an "x-gallery" object, parses each with the scenario
/// parser, and returns them sorted by claim, then file name. The first file that does not
/// parse fails the whole gallery with an error whose path starts with the file name
/// ("claim03-comm.json: x-gallery.title.en: ..."). A missing folder is an error too.
Result<std::vector<GalleryEntry>> loadGallery(const QString &dir);

} // namespace scalescope
