#include "model_text.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <array>
#include <optional>

namespace scalescope
{

namespace
{

constexpr const char *kContext = "ModelText";

/// Which texts a template belongs to: whole texts (labels, bands), sentences the model may
/// join with spaces, and fragments the model embeds into sentences.
enum class Group : uint8_t {
    Label,    // timeline segment labels and the main wait (sim/simulator.cpp)
    Sentence, // bottleneck and advice sentences (summary.cpp, economics.cpp)
    LossKind, // "the largest loss is ..." (summary.cpp kLoss)
    Band,     // rule-of-thumb duration and frequency bands (CostVerdict, JSON report)
    Link,     // suffixes the model appends to link names (sim/simulator.cpp)
};
constexpr int kGroupCount = 5;

struct Source {
    const char *text;
    const char *comment;
};

/// One template. `caps` gives the kind of %1, %2, ... in turn:
///   n  a number as the model printed it (kept)
///   x  any text (kept)
///   l  a link name (kept; a suffix the model appended is translated)
///   L  a timeline label, k a loss kind, b a band (translated through that group).
struct TemplateDef {
    Group group;
    Source source;
    const char *caps;
};

// clang-format off
const TemplateDef kTemplates[] = {
    // Timeline labels (model/sim/simulator.cpp labelText and labelGroups).
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "forward", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "backward", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "recompute + backward", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "tensor-parallel all-reduce (forward)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "tensor-parallel all-reduce (backward)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "send activations to next stage", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "send gradients to previous stage", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "gradient all-reduce (bucket)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "gradient reduce-scatter (ZeRO)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "parameter all-gather (ZeRO)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "parameter all-gather before use (ZeRO-3)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "optimizer step", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "data loader", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "waiting for the data loader", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "pipeline bubble: waiting for another stage", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "waiting for the slowest GPU of the tensor-parallel group", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "waiting for data-parallel communication (exposed)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "idle until the slowest GPU finishes the step", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "waiting for the slowest data-parallel replica", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "pipeline send in progress (blocking exchange)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "receiving from the neighbouring pipeline stage", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "receive from the neighbouring stage", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "forward (thermal throttling: clocks reduced)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "backward (thermal throttling: clocks reduced)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "recompute + backward (thermal throttling: clocks reduced)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "optimizer step (thermal throttling: clocks reduced)", "timeline segment"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "waiting for GPU %1 (slowest data-parallel replica)", "timeline segment; %1 = GPU number"), "n"},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "waiting for GPU %1 (slowest data-parallel replica, thermal throttling)", "timeline segment; %1 = GPU number"), "n"},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "waiting for GPU %1 (slowest data-parallel replica, straggler)", "timeline segment; %1 = GPU number"), "n"},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "several items merged, mostly compute (timeline simplified: zoomed-out detail beyond the segment limit)", "timeline segment of a simplified timeline"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "several items merged, mostly tp_comm (timeline simplified: zoomed-out detail beyond the segment limit)", "timeline segment of a simplified timeline"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "several items merged, mostly dp_comm (timeline simplified: zoomed-out detail beyond the segment limit)", "timeline segment of a simplified timeline"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "several items merged, mostly pp_comm (timeline simplified: zoomed-out detail beyond the segment limit)", "timeline segment of a simplified timeline"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "several items merged, mostly bubble (timeline simplified: zoomed-out detail beyond the segment limit)", "timeline segment of a simplified timeline"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "several items merged, mostly wait (timeline simplified: zoomed-out detail beyond the segment limit)", "timeline segment of a simplified timeline"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "several items merged, mostly data_loading (timeline simplified: zoomed-out detail beyond the segment limit)", "timeline segment of a simplified timeline"), ""},
    {Group::Label, QT_TRANSLATE_NOOP3("ModelText", "several items merged, mostly optimizer (timeline simplified: zoomed-out detail beyond the segment limit)", "timeline segment of a simplified timeline"), ""},

    // Bottleneck sentence (model/analysis/summary.cpp bottleneckSentence).
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Nothing to simulate.", "bottleneck"), ""},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Compute-bound: the GPUs compute %1% of the step at %2% MFU.", "bottleneck"), "nn"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Compute-bound: the GPUs compute %1% of the step at %2% MFU; the largest loss is %3 (%4%).", "bottleneck; %3 = what is lost"), "nnkn"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Data-parallel gradient exchange over %1 is exposed for %2% of the step; larger batches per GPU or faster links hide it.", "bottleneck; %1 = link name"), "ln"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Tensor-parallel all-reduces over %1 take %2% of the step; they sit on the critical path of every layer.", "bottleneck; %1 = link name"), "ln"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Pipeline bubble: %1% of the step is idle with %2 micro-batches on %3 stages; more micro-batches or interleaving shrink it.", "bottleneck"), "nnn"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Synchronisation: GPUs wait %1% of the step for the slowest one (stragglers, jitter).", "bottleneck"), "n"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Synchronisation: GPUs wait %1% of the step for the slowest one (stragglers, jitter), mostly %2.", "bottleneck; %2 = a timeline label such as 'waiting for GPU 3 (...)'"), "nL"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "The data loader starves the GPUs for %1% of the step; add loader workers before adding GPUs.", "bottleneck"), "n"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Pipeline sends between stages block the GPUs for %1% of the step; fewer stages or faster links between them help.", "bottleneck"), "n"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "The GPUs run hot (above %1 C) and throttle their clocks by %2%.", "bottleneck, thermal"), "nn"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "%1 of %2 GPUs run hot (above %3 C) and throttle their clocks by %4%.", "bottleneck, thermal"), "nnnn"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Each GPU is a %1% slice of a physical GPU: the job runs like %2 whole GPUs.", "bottleneck, virtual GPUs"), "nn"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "It does not fit: %1 GB per GPU against %2 GB.", "bottleneck, memory"), "nn"},

    // Cost advice (model/analysis/economics.cpp costReport; the verdict is a record that
    // views/charts/cost_view.cpp renders with tr()).
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Linear scaling rule (Goyal et al. 2017): if the global batch grows k-fold to keep more GPUs busy, multiply the learning rate by k and warm it up over the first ~5 epochs; this scenario keeps the global batch at %1.", "cost advice"), "n"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Data loader: each GPU consumes about %1 samples/s; at %2 samples/s per worker it needs %3 workers (has %4).", "cost advice"), "nnnn"},
    {Group::Sentence, QT_TRANSLATE_NOOP3("ModelText", "Data loader: start with 4 workers per GPU (PyTorch rule of thumb) and raise until GPU utilisation stops rising, at most the CPU cores per GPU.", "cost advice"), ""},

    // Fragments.
    {Group::LossKind, QT_TRANSLATE_NOOP3("ModelText", "data-parallel exchange", "bottleneck: the largest loss is ..."), ""},
    {Group::LossKind, QT_TRANSLATE_NOOP3("ModelText", "tensor-parallel all-reduces", "bottleneck: the largest loss is ..."), ""},
    {Group::LossKind, QT_TRANSLATE_NOOP3("ModelText", "pipeline bubble", "bottleneck: the largest loss is ..."), ""},
    {Group::LossKind, QT_TRANSLATE_NOOP3("ModelText", "waiting for the slowest GPU", "bottleneck: the largest loss is ..."), ""},
    {Group::LossKind, QT_TRANSLATE_NOOP3("ModelText", "data loading", "bottleneck: the largest loss is ..."), ""},
    {Group::LossKind, QT_TRANSLATE_NOOP3("ModelText", "pipeline sends", "bottleneck: the largest loss is ..."), ""},
    {Group::Band, QT_TRANSLATE_NOOP3("ModelText", "under a day", "cost verdict: job duration on one GPU"), ""},
    {Group::Band, QT_TRANSLATE_NOOP3("ModelText", "1-3 days", "cost verdict: job duration on one GPU"), ""},
    {Group::Band, QT_TRANSLATE_NOOP3("ModelText", "3-14 days", "cost verdict: job duration on one GPU"), ""},
    {Group::Band, QT_TRANSLATE_NOOP3("ModelText", "over two weeks", "cost verdict: job duration on one GPU"), ""},
    {Group::Band, QT_TRANSLATE_NOOP3("ModelText", "under 50 GPU-hours a month", "cost verdict: usage"), ""},
    {Group::Band, QT_TRANSLATE_NOOP3("ModelText", "50-200 GPU-hours a month", "cost verdict: usage"), ""},
    {Group::Band, QT_TRANSLATE_NOOP3("ModelText", "over 200 GPU-hours a month", "cost verdict: usage"), ""},
    {Group::Link, QT_TRANSLATE_NOOP3("ModelText", "%1 (routed through host memory)", "link name of virtual GPUs; %1 = link name"), "x"},
};
// clang-format on

/// Two sentences the model joined with a space (a translation may drop the space).
const Source kJoin = QT_TRANSLATE_NOOP3("ModelText", "%1 %2", "two sentences in a row");

const char *const kNumberRegex = R"([-+]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|inf|nan))";

struct Compiled {
    const TemplateDef *def = nullptr;
    QRegularExpression whole; // the whole text
    QRegularExpression part;  // from an offset (AnchorAtOffsetMatchOption)
};

class Table
{
public:
    Table()
    {
        for (const TemplateDef &def : kTemplates) {
            const QString body = bodyOf(def, true);
            Compiled c;
            c.def = &def;
            c.whole = QRegularExpression(QStringLiteral("\\A(?:%1)\\z").arg(body));
            c.part = QRegularExpression(QStringLiteral("(?:%1)").arg(body));
            c.whole.optimize();
            c.part.optimize();
            Q_ASSERT(c.whole.isValid() && c.part.isValid());
            groups_[static_cast<size_t>(def.group)].push_back(std::move(c));
        }
    }

    const std::vector<Compiled> &group(Group g) const { return groups_[static_cast<size_t>(g)]; }

private:
    static std::optional<Group> groupOfCap(char cap)
    {
        switch (cap) {
        case 'L':
            return Group::Label;
        case 'k':
            return Group::LossKind;
        case 'b':
            return Group::Band;
        default:
            return std::nullopt;
        }
    }

    /// The regular expression of a template: literal text escaped, each %N a group of its kind
    /// (capturing only at the top level; nested groups are matched again on their own).
    static QString bodyOf(const TemplateDef &def, bool capturing)
    {
        const QString source = QString::fromUtf8(def.source.text);
        const QString open = capturing ? QStringLiteral("(") : QStringLiteral("(?:");
        const auto cap_count = static_cast<int>(std::char_traits<char>::length(def.caps));
        QString regex, literal;
        int expected = 1;
        for (qsizetype i = 0; i < source.size(); ++i) {
            const QChar c = source[i];
            if (c == QLatin1Char('%') && i + 1 < source.size() &&
                source[i + 1] >= QLatin1Char('1') && source[i + 1] <= QLatin1Char('9')) {
                const int n = source[i + 1].digitValue();
                Q_ASSERT(n == expected && n <= cap_count); // English templates number in order
                ++expected;
                regex += QRegularExpression::escape(literal);
                literal.clear();
                const char cap = def.caps[n - 1];
                if (cap == 'n') {
                    regex += open + QLatin1String(kNumberRegex) + QLatin1Char(')');
                } else if (const std::optional<Group> g = groupOfCap(cap)) {
                    QStringList alternatives;
                    for (const TemplateDef &inner : kTemplates)
                        if (inner.group == *g)
                            alternatives.append(bodyOf(inner, false));
                    regex += open + QStringLiteral("(?:") + alternatives.join(QLatin1Char('|')) +
                             QStringLiteral("))");
                } else {
                    regex += open + QStringLiteral(".+?)"); // x, l
                }
                ++i;
            } else {
                literal += c;
            }
        }
        Q_ASSERT(expected == cap_count + 1);
        regex += QRegularExpression::escape(literal);
        return regex;
    }

    std::array<std::vector<Compiled>, kGroupCount> groups_;
};

const Table &table()
{
    static const Table t;
    return t;
}

QString translated(const Source &s)
{
    return QCoreApplication::translate(kContext, s.text, s.comment);
}

/// `format` with %1..%9 replaced by `args` in one pass (an argument holding "%2" stays).
QString substitute(const QString &format, const QStringList &args)
{
    QString out;
    out.reserve(format.size() + 32);
    for (qsizetype i = 0; i < format.size(); ++i) {
        if (format[i] == QLatin1Char('%') && i + 1 < format.size()) {
            const int n = format[i + 1].digitValue();
            if (n >= 1 && n <= args.size()) {
                out += args[n - 1];
                ++i;
                continue;
            }
        }
        out += format[i];
    }
    return out;
}

std::optional<QString> translateWhole(Group g, const QString &text, QStringList *used);

QString translateMatch(const Compiled &c, const QRegularExpressionMatch &m, QStringList *used)
{
    if (used)
        used->append(QString::fromUtf8(c.def->source.text));
    QStringList args;
    const auto count = static_cast<int>(std::char_traits<char>::length(c.def->caps));
    for (int k = 0; k < count; ++k) {
        const QString captured = m.captured(k + 1);
        switch (c.def->caps[k]) {
        case 'n':
        case 'x':
            args.append(captured);
            break;
        case 'l':
            args.append(translateWhole(Group::Link, captured, used).value_or(captured));
            break;
        case 'L':
            args.append(translateWhole(Group::Label, captured, used).value_or(captured));
            break;
        case 'k':
            args.append(translateWhole(Group::LossKind, captured, used).value_or(captured));
            break;
        case 'b':
            args.append(translateWhole(Group::Band, captured, used).value_or(captured));
            break;
        default:
            Q_ASSERT(false);
            args.append(captured);
        }
    }
    return substitute(translated(c.def->source), args);
}

std::optional<QString> translateWhole(Group g, const QString &text, QStringList *used)
{
    for (const Compiled &c : table().group(g)) {
        const QRegularExpressionMatch m = c.whole.match(text);
        if (m.hasMatch())
            return translateMatch(c, m, used);
    }
    return std::nullopt;
}

/// Sentences from `pos` to the end, each a Sentence template, separated by one space.
std::optional<QString> translateSentences(const QString &text, qsizetype pos, QStringList *used)
{
    for (const Compiled &c : table().group(Group::Sentence)) {
        const QRegularExpressionMatch m =
            c.part.match(text, pos, QRegularExpression::NormalMatch,
                         QRegularExpression::AnchorAtOffsetMatchOption);
        if (!m.hasMatch())
            continue;
        const qsizetype end = m.capturedEnd();
        if (end == text.size())
            return translateMatch(c, m, used);
        if (text[end] != QLatin1Char(' ') || end + 1 >= text.size())
            continue;
        const qsizetype mark = used ? used->size() : 0;
        if (const std::optional<QString> rest = translateSentences(text, end + 1, used))
            return substitute(translated(kJoin), {translateMatch(c, m, used), *rest});
        if (used)
            used->resize(mark);
    }
    return std::nullopt;
}

std::optional<QString> translateKnown(const QString &english, QStringList *used)
{
    if (english.isEmpty())
        return std::nullopt;
    for (Group g : {Group::Label, Group::Band})
        if (std::optional<QString> t = translateWhole(g, english, used))
            return t;
    return translateSentences(english, 0, used);
}

} // namespace

QString translateModelText(const QString &english)
{
    return translateKnown(english, nullptr).value_or(english);
}

QString translateModelText(const std::string &english)
{
    return translateModelText(QString::fromStdString(english));
}

bool isKnownModelText(const QString &english, QStringList *templates_used)
{
    QStringList used;
    const bool known = translateKnown(english, &used).has_value();
    if (templates_used && known)
        templates_used->append(used);
    return known;
}

QStringList modelTextTemplates()
{
    QStringList all;
    for (const TemplateDef &def : kTemplates)
        all.append(QString::fromUtf8(def.source.text));
    return all;
}

ModelLabelCache::Entry &ModelLabelCache::entryFor(const std::shared_ptr<const Timeline> &timeline)
{
    // Same owner = same timeline: the weak reference keeps the control block, so its address
    // cannot be reused by another timeline while the entry exists.
    auto same = [&timeline](const Entry &e) {
        return !e.timeline.owner_before(timeline) && !timeline.owner_before(e.timeline);
    };
    if (last_ < entries_.size() && same(entries_[last_]))
        return entries_[last_];
    for (size_t i = 0; i < entries_.size(); ++i)
        if (same(entries_[i])) {
            last_ = i;
            return entries_[i];
        }
    // A new timeline: drop the entries of timelines that are gone.
    std::erase_if(entries_, [](const Entry &e) { return e.timeline.expired(); });
    entries_.push_back(Entry{timeline, {}, {}});
    last_ = entries_.size() - 1;
    return entries_.back();
}

const QString &ModelLabelCache::label(const std::shared_ptr<const Timeline> &timeline,
                                      size_t segment)
{
    Entry &e = entryFor(timeline);
    const uint32_t id = timeline->labelId(segment);
    if (id >= e.texts.size()) {
        e.texts.resize(id + 1);
        e.done.resize(id + 1, 0);
    }
    if (!e.done[id]) {
        e.texts[id] = translateModelText(timeline->label(segment));
        e.done[id] = 1;
    }
    return e.texts[id];
}

} // namespace scalescope
