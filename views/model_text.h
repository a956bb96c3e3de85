// The model's records in the current language (context "ModelText"): timeline segment labels
// (sim/labels.h), the bottleneck (analysis/summary.h) and the cost advice
// (analysis/economics.h). The model writes the same records in English for the CLI and its
// tests; without a translator these renderings equal that English exactly (tested).
#pragma once

#include "analysis/economics.h"
#include "analysis/summary.h"
#include "plan/scenario.h"
#include "sim/timeline.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace scalescope
{

/// A timeline label in the current language; a Text label (no record) is empty.
QString translatedLabel(const SegmentLabel &label);
/// The bottleneck sentence and those that follow it, in the current language.
QString translatedBottleneck(const Bottleneck &bottleneck);
/// "full recompute would fit it in 71.0 GiB, with a step 33% longer" for the summary's
/// memory remedy, empty where it fits or no single change fits it.
QString translatedRemedyClause(const Summary &summary);
/// One advice line in the current language.
QString translatedAdvice(const Advice &advice);
/// The model's memory error that verdicts near the capacity quote (kMemoryVerdictMargin,
/// analysis/memory.h) as a percentage in the current locale: "10".
QString memoryErrorPercent();
/// How far to trust a predicted throughput: the model's error on the published runs of the
/// summary's kind (analysis/track_record.h) as one sentence in the current language; empty
/// for a custom model or a collective.
QString trackRecordSentence(const Summary &summary);
/// `text` ended as a sentence, then `sentence` after it: a space between them, none after a
/// full-width stop (Chinese); `text` unchanged when `sentence` is empty.
QString withSentence(const QString &text, const QString &sentence);
/// What a scenario runs on, from its current hardware: "GPT-2 1.5B on 2 × 4 RTX 4090 (PCIe
/// 4.0, 25 GbE)" (one node: "… on 8 RTX 4090 (PCIe 4.0)"). A name written into a file goes
/// stale when the hardware is edited; this does not.
QString scenarioHeadline(const Scenario &scenario);

/// Translated timeline labels by label id, per timeline, translated on first use: painting
/// looks a label up by id. A label given as text only is shown as written. Holds weak
/// references only. GUI thread.
class ModelLabelCache
{
public:
    /// The translated label of `segment` of `timeline` (empty when the label is empty).
    const QString &label(const std::shared_ptr<const Timeline> &timeline, size_t segment);
    /// Forgets every translation (after a language change).
    void clear() { entries_.clear(); }

private:
    struct Entry {
        std::weak_ptr<const Timeline> timeline;
        std::vector<QString> texts; // by label id
        std::vector<uint8_t> done;  // by label id
    };
    Entry &entryFor(const std::shared_ptr<const Timeline> &timeline);

    std::vector<Entry> entries_;
    size_t last_ = 0;
};

} // namespace scalescope
