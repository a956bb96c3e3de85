// Translation of the English texts the model library produces: timeline segment labels, the
// bottleneck sentence and main wait (analysis/summary.cpp), the cost verdict and advice
// (analysis/economics.cpp). The model stays English (the CLI and its tests depend on it); the
// GUI matches every sentence template of the model against a pattern whose captured numbers
// and names fill a translated template (context "ModelText"). Sentences the model joins with
// a space are matched one by one. Text no pattern covers is returned unchanged.
#pragma once

#include "sim/timeline.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace scalescope
{

/// `english` in the current language (installed translators), or unchanged when it is not
/// model text. Without a translator the result equals `english` exactly.
QString translateModelText(const QString &english);
QString translateModelText(const std::string &english);

/// Whether every part of `english` is a known model template (what translateModelText
/// translates). `templates_used`, when given, receives the English source templates matched.
bool isKnownModelText(const QString &english, QStringList *templates_used = nullptr);

/// Every English source template of the table, in table order (for coverage tests).
QStringList modelTextTemplates();

/// Translated timeline labels by label id, per timeline, translated on first use: painting
/// looks a label up instead of matching patterns. Holds weak references only. GUI thread.
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
