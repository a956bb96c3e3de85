#include "model_text.h"

#include "palette.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include <array>

namespace scalescope
{

namespace
{

constexpr const char *kContext = "ModelText";

struct Source {
    const char *text;
    const char *comment;
};

// The English source texts are the model's (sim/labels.cpp, analysis/summary.cpp
// bottleneckText, analysis/economics.cpp adviceText) with each figure a placeholder; a
// changed word there fails tst_model_text instead of leaving English in the Chinese window.
// clang-format off

/// Labels without values, in LabelKind order.
const Source kFixedLabels[] = {
    QT_TRANSLATE_NOOP3("ModelText", "forward", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "backward", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "recompute + backward", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "tensor-parallel all-reduce (forward)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "tensor-parallel all-reduce (backward)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "send activations to next stage", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "send gradients to previous stage", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "gradient all-reduce (bucket)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "gradient reduce-scatter (ZeRO)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "parameter all-gather (ZeRO)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "parameter all-gather before use (ZeRO-3)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "optimizer step", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "data loader", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "waiting for the data loader", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "pipeline bubble: waiting for another stage", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "waiting for the slowest GPU of the tensor-parallel group", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "waiting for data-parallel communication (exposed)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "idle until the slowest GPU finishes the step", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "waiting for the slowest data-parallel replica", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "pipeline send in progress (blocking exchange)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "receiving from the neighbouring pipeline stage", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "receive from the neighbouring stage", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "forward (thermal throttling: clocks reduced)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "backward (thermal throttling: clocks reduced)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "recompute + backward (thermal throttling: clocks reduced)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "optimizer step (thermal throttling: clocks reduced)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "expert dispatch + combine (all-to-all, forward)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "expert dispatch + combine (all-to-all, backward)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "waiting for the busiest expert (routing imbalance)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "context-parallel key/value exchange (forward)", "timeline segment"),
    QT_TRANSLATE_NOOP3("ModelText", "context-parallel key/value exchange (backward)", "timeline segment"),
};
static_assert(std::size(kFixedLabels) == kFixedLabelCount);

/// WaitForGpu labels, by WaitCause; %1 = GPU number.
const Source kWaitForGpu[] = {
    QT_TRANSLATE_NOOP3("ModelText", "waiting for GPU %1 (slowest data-parallel replica)", "timeline segment; %1 = GPU number"),
    QT_TRANSLATE_NOOP3("ModelText", "waiting for GPU %1 (slowest data-parallel replica, thermal throttling)", "timeline segment; %1 = GPU number"),
    QT_TRANSLATE_NOOP3("ModelText", "waiting for GPU %1 (slowest data-parallel replica, straggler)", "timeline segment; %1 = GPU number"),
};

/// Merged segments of a simplified timeline; %1 = the legend's name of the dominant kind.
const Source kMerged = QT_TRANSLATE_NOOP3("ModelText", "several items merged, mostly %1 (timeline simplified: items closer than its merge step stay merged at any zoom; the GPUs of the first data-parallel replica keep every item)", "timeline segment of a simplified timeline; %1 = a legend entry such as 'PP send/recv'");

// The bottleneck (BottleneckKind, then the sentences that follow it).
const Source kNothingToSimulate = QT_TRANSLATE_NOOP3("ModelText", "Nothing to simulate.", "bottleneck");
const Source kComputeBound = QT_TRANSLATE_NOOP3("ModelText", "Compute-bound: the GPUs compute %1% of the step at %2% MFU.", "bottleneck");
const Source kComputeBoundLoss = QT_TRANSLATE_NOOP3("ModelText", "Compute-bound: the GPUs compute %1% of the step at %2% MFU; the largest loss is %3 (%4%).", "bottleneck; %3 = what is lost");
const Source kHostBound = QT_TRANSLATE_NOOP3("ModelText", "Host-bound: %1 issues each operation in %2 us, longer than the GPU runs it: %3% of the compute time is the host's, at %4% MFU; larger micro-batches, fused kernels or CUDA graphs hide it.", "bottleneck; %1 = software stack name");
const Source kDpExchange = QT_TRANSLATE_NOOP3("ModelText", "Data-parallel gradient exchange over %1 is exposed for %2% of the step; larger batches per GPU or faster links hide it.", "bottleneck; %1 = link name");
const Source kTpAllReduce = QT_TRANSLATE_NOOP3("ModelText", "Tensor-parallel all-reduces over %1 take %2% of the step; they sit on the critical path of every layer.", "bottleneck; %1 = link name");
const Source kHostStagedNote = QT_TRANSLATE_NOOP3("ModelText", "The GPUs have no peer-to-peer access: every transfer is staged through host memory.", "bottleneck, after the data- or tensor-parallel sentence");
const Source kPipelineBubble = QT_TRANSLATE_NOOP3("ModelText", "Pipeline bubble: %1% of the step is idle with %2 micro-batches on %3 stages; more micro-batches or interleaving shrink it.", "bottleneck");
const Source kSynchronisation = QT_TRANSLATE_NOOP3("ModelText", "Synchronisation: GPUs wait %1% of the step for the slowest one (stragglers, jitter).", "bottleneck");
const Source kSynchronisationMostly = QT_TRANSLATE_NOOP3("ModelText", "Synchronisation: GPUs wait %1% of the step for the slowest one (stragglers, jitter), mostly %2.", "bottleneck; %2 = a timeline label such as 'waiting for GPU 3 (...)'");
const Source kDataLoader = QT_TRANSLATE_NOOP3("ModelText", "The data loader starves the GPUs for %1% of the step; add loader workers before adding GPUs.", "bottleneck");
const Source kPipelineSends = QT_TRANSLATE_NOOP3("ModelText", "Pipeline sends between stages block the GPUs for %1% of the step; fewer stages or faster links between them help.", "bottleneck");
const Source kThermalAll = QT_TRANSLATE_NOOP3("ModelText", "The GPUs run hot (above %1 °C) and throttle their clocks by %2%.", "bottleneck, thermal");
const Source kThermalSome = QT_TRANSLATE_NOOP3("ModelText", "%1 of %2 GPUs run hot (above %3 °C) and throttle their clocks by %4%.", "bottleneck, thermal");
const Source kVirtualGpu = QT_TRANSLATE_NOOP3("ModelText", "Each GPU is a %1% slice of a physical GPU: the job gets %2x the compute of one whole GPU.", "bottleneck, virtual GPUs");
const Source kExpertAllToAll = QT_TRANSLATE_NOOP3("ModelText", "Expert all-to-all (token dispatch and combine) over %1 is exposed for %2% of the step; %3.", "bottleneck; %1 = link name, %3 = what would hide it");
// The remedies a run does not use yet, and how they join (model/analysis/bottleneck.cpp).
const Source kExpertOverlapRemedy = QT_TRANSLATE_NOOP3("ModelText", "overlap with another micro-batch", "bottleneck: a remedy for the experts' all-to-all");
const Source kPerNodeDispatchRemedy = QT_TRANSLATE_NOOP3("ModelText", "DeepEP's per-node dispatch", "bottleneck: a remedy for the experts' all-to-all");
const Source kExpertsInDomainRemedy = QT_TRANSLATE_NOOP3("ModelText", "experts inside the NVLink domain", "bottleneck: a remedy for the experts' all-to-all");
const Source kOneRemedy = QT_TRANSLATE_NOOP3("ModelText", "%1 hides it", "bottleneck: one remedy");
const Source kTwoRemedies = QT_TRANSLATE_NOOP3("ModelText", "%1 or %2 hide it", "bottleneck: two remedies");
const Source kThreeRemedies = QT_TRANSLATE_NOOP3("ModelText", "%1, %2 or %3 hide it", "bottleneck: three remedies");
const Source kNoRemedyLeft = QT_TRANSLATE_NOOP3("ModelText", "faster links between the experts' GPUs shorten it", "bottleneck: every remedy already in use");
const Source kContextExchange = QT_TRANSLATE_NOOP3("ModelText", "Context-parallel key/value exchange over %1 is exposed for %2% of the step; longer sequences per GPU or a context group inside the node hide it behind attention.", "bottleneck; %1 = link name");
const Source kExpertImbalance = QT_TRANSLATE_NOOP3("ModelText", "Routing imbalance: GPUs wait %1% of the step for the busiest expert; balanced routing (auxiliary loss or bias) or a capacity factor shortens it.", "bottleneck");
const Source kOutOfMemory = QT_TRANSLATE_NOOP3("ModelText", "It does not fit: %1 GiB per GPU against %2 GiB.", "bottleneck, memory");
const Source kOutOfMemoryRemedy = QT_TRANSLATE_NOOP3("ModelText", "It does not fit: %1 GiB per GPU against %2 GiB; %3 would fit it in %4 GiB, %5.", "bottleneck, memory; %3 = a change such as 'full recompute', %5 = its cost such as 'with a step 12% longer'");
const Source kMayNotFit = QT_TRANSLATE_NOOP3("ModelText", "It may not fit: %1 GiB per GPU against %2 GiB, within the model's %3% memory error.", "bottleneck, memory near the capacity; %3 = the model's memory error in percent");
const Source kMayNotFitRemedy = QT_TRANSLATE_NOOP3("ModelText", "It may not fit: %1 GiB per GPU against %2 GiB, within the model's %3% memory error; %4 would fit it in %5 GiB, %6.", "bottleneck, memory near the capacity; %3 = the model's memory error in percent, %4 = a change such as 'full recompute', %6 = its cost such as 'with a step 12% longer'");
const Source kRemedySelective = QT_TRANSLATE_NOOP3("ModelText", "selective recompute", "bottleneck, memory remedy");
const Source kRemedyUpProjections = QT_TRANSLATE_NOOP3("ModelText", "recomputing MLA's up-projections (recompute_modules mla_up_proj)", "bottleneck, memory remedy");
const Source kRemedyFull = QT_TRANSLATE_NOOP3("ModelText", "full recompute", "bottleneck, memory remedy");
const Source kRemedyZero = QT_TRANSLATE_NOOP3("ModelText", "ZeRO stage %1", "bottleneck, memory remedy");
const Source kRemedyMicroBatch = QT_TRANSLATE_NOOP3("ModelText", "micro-batch %1", "bottleneck, memory remedy");
const Source kRemedyClause = QT_TRANSLATE_NOOP3("ModelText", "%1 would fit it in %2 GiB, %3", "memory remedy: %1 = a change such as 'full recompute', %3 = its cost");
const Source kRemedySame = QT_TRANSLATE_NOOP3("ModelText", "at the same step time", "bottleneck, memory remedy's cost");
const Source kRemedyLonger = QT_TRANSLATE_NOOP3("ModelText", "with a step %1% longer", "bottleneck, memory remedy's cost");
const Source kRemedyShorter = QT_TRANSLATE_NOOP3("ModelText", "with a step %1% shorter", "bottleneck, memory remedy's cost");

/// What "the largest loss is ..." names, by StepLoss.
const Source kLosses[] = {
    QT_TRANSLATE_NOOP3("ModelText", "data-parallel exchange", "bottleneck: the largest loss is ..."),
    QT_TRANSLATE_NOOP3("ModelText", "tensor-parallel all-reduces", "bottleneck: the largest loss is ..."),
    QT_TRANSLATE_NOOP3("ModelText", "pipeline bubble", "bottleneck: the largest loss is ..."),
    QT_TRANSLATE_NOOP3("ModelText", "waiting for the slowest GPU", "bottleneck: the largest loss is ..."),
    QT_TRANSLATE_NOOP3("ModelText", "data loading", "bottleneck: the largest loss is ..."),
    QT_TRANSLATE_NOOP3("ModelText", "pipeline sends", "bottleneck: the largest loss is ..."),
    QT_TRANSLATE_NOOP3("ModelText", "expert all-to-all", "bottleneck: the largest loss is ..."),
    QT_TRANSLATE_NOOP3("ModelText", "context-parallel exchange", "bottleneck: the largest loss is ..."),
    QT_TRANSLATE_NOOP3("ModelText", "waiting for the busiest expert", "bottleneck: the largest loss is ..."),
};

// Cost advice (AdviceKind).
const Source kLinearScalingRule = QT_TRANSLATE_NOOP3("ModelText", "Linear scaling rule (Goyal et al. 2017): if the global batch grows k-fold to keep more GPUs busy, multiply the learning rate by k and warm it up over the first ~5 epochs; this scenario keeps the global batch at %1.", "cost advice");
const Source kLoaderWorkers = QT_TRANSLATE_NOOP3("ModelText", "Data loader: each GPU consumes about %1 samples/s; at %2 samples/s per worker it needs %3 workers (has %4).", "cost advice");
const Source kLoaderRuleOfThumb = QT_TRANSLATE_NOOP3("ModelText", "Data loader: start with 4 workers per GPU (PyTorch rule of thumb) and raise until GPU utilisation stops rising, at most the CPU cores per GPU.", "cost advice");

/// Two sentences in a row (a translation may drop the space).
const Source kJoin = QT_TRANSLATE_NOOP3("ModelText", "%1 %2", "two sentences in a row");

// clang-format on

QString translated(const Source &s)
{
    return QCoreApplication::translate(kContext, s.text, s.comment);
}

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
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

QString translated(const Source &s, const QStringList &args)
{
    return substitute(translated(s), args);
}

QString percent(double fraction)
{
    return qs(bottleneckPercent(fraction));
}

/// The main sentence of a bottleneck.
QString mainSentence(const Bottleneck &b)
{
    switch (b.kind) {
    case BottleneckKind::NothingToSimulate:
        return translated(kNothingToSimulate);
    case BottleneckKind::ComputeBound:
        if (b.largest_loss)
            return translated(kComputeBoundLoss,
                              {percent(b.compute_share), qs(bottleneckMfuPercent(b.mfu)),
                               translated(kLosses[static_cast<size_t>(*b.largest_loss)]),
                               percent(b.share)});
        return translated(kComputeBound,
                          {percent(b.compute_share), qs(bottleneckMfuPercent(b.mfu))});
    case BottleneckKind::HostBound:
        return translated(kHostBound, {qs(b.stack), qs(bottleneckNumber(b.host_op_us)),
                                       percent(b.host_share), qs(bottleneckMfuPercent(b.mfu))});
    case BottleneckKind::DpExchange:
        return translated(kDpExchange, {qs(b.link), percent(b.share)});
    case BottleneckKind::TpAllReduce:
        return translated(kTpAllReduce, {qs(b.link), percent(b.share)});
    case BottleneckKind::PipelineBubble:
        return translated(kPipelineBubble, {percent(b.share), QString::number(b.micro_batches),
                                            QString::number(b.stages)});
    case BottleneckKind::Synchronisation:
        if (b.main_wait)
            return translated(kSynchronisationMostly,
                              {percent(b.share), translatedLabel(*b.main_wait)});
        return translated(kSynchronisation, {percent(b.share)});
    case BottleneckKind::DataLoader:
        return translated(kDataLoader, {percent(b.share)});
    case BottleneckKind::PipelineSends:
        return translated(kPipelineSends, {percent(b.share)});
    case BottleneckKind::ExpertAllToAll: {
        QStringList remedies;
        if (!b.expert_overlap)
            remedies << translated(kExpertOverlapRemedy);
        if (!b.per_node_dispatch)
            remedies << translated(kPerNodeDispatchRemedy);
        if (!b.experts_in_domain)
            remedies << translated(kExpertsInDomainRemedy);
        const Source &join = remedies.size() == 1   ? kOneRemedy
                             : remedies.size() == 2 ? kTwoRemedies
                             : remedies.size() == 3 ? kThreeRemedies
                                                    : kNoRemedyLeft;
        return translated(kExpertAllToAll,
                          {qs(b.link), percent(b.share), translated(join, remedies)});
    }
    case BottleneckKind::ContextExchange:
        return translated(kContextExchange, {qs(b.link), percent(b.share)});
    case BottleneckKind::ExpertImbalance:
        return translated(kExpertImbalance, {percent(b.share)});
    }
    return {};
}

/// The change that makes a plan fit ("full recompute"), in the GUI's language.
QString remedyChange(const Bottleneck::OutOfMemory &m)
{
    using Remedy = Bottleneck::OutOfMemory::Remedy;
    QString change;
    switch (m.remedy) {
    case Remedy::SelectiveRecompute:
        change = translated(kRemedySelective);
        break;
    case Remedy::UpProjections:
        change = translated(kRemedyUpProjections);
        break;
    case Remedy::FullRecompute:
        change = translated(kRemedyFull);
        break;
    case Remedy::ZeroStage:
        change = translated(kRemedyZero, {QString::number(m.remedy_value)});
        break;
    case Remedy::MicroBatch:
        change = translated(kRemedyMicroBatch, {QString::number(m.remedy_value)});
        break;
    case Remedy::None:
        break;
    }
    return change;
}

/// What it does to the step ("with a step 12% longer").
QString remedyCost(const Bottleneck::OutOfMemory &m)
{
    const double delta = remedyStepChange(m);
    const int sign = remedyCostSign(delta);
    return sign == 0 ? translated(kRemedySame)
                     : translated(sign > 0 ? kRemedyLonger : kRemedyShorter,
                                  {qs(bottleneckPercent(std::abs(delta)))});
}

} // namespace

QString translatedLabel(const SegmentLabel &label)
{
    switch (label.kind) {
    case LabelKind::WaitForGpu:
        return translated(kWaitForGpu[static_cast<size_t>(label.cause)],
                          {QString::number(label.gpu)});
    case LabelKind::Merged:
        return translated(kMerged, {kindName(label.merged_kind)});
    case LabelKind::Text:
        return {};
    default:
        return translated(kFixedLabels[static_cast<size_t>(label.kind)]);
    }
}

QString translatedBottleneck(const Bottleneck &b)
{
    QString text = mainSentence(b);
    const auto then = [&text](const QString &next) { text = translated(kJoin, {text, next}); };
    if (b.host_staged)
        then(translated(kHostStagedNote));
    if (b.thermal) {
        const Bottleneck::Thermal &t = *b.thermal;
        if (t.throttled_gpus == t.gpus)
            then(translated(kThermalAll,
                            {QString::number(t.throttle_above_c), percent(t.clock_drop)}));
        else
            then(translated(kThermalSome,
                            {QString::number(t.throttled_gpus), QString::number(t.gpus),
                             QString::number(t.throttle_above_c), percent(t.clock_drop)}));
    }
    if (b.virtual_gpu)
        then(translated(kVirtualGpu, {percent(b.virtual_gpu->fraction),
                                      qs(bottleneckNumber(b.virtual_gpu->full_gpu_equivalents))}));
    if (b.out_of_memory) {
        const Bottleneck::OutOfMemory &m = *b.out_of_memory;
        using Remedy = Bottleneck::OutOfMemory::Remedy;
        const QString total = qs(bottleneckGiB(m.total_bytes));
        const QString capacity = qs(bottleneckGiB(m.capacity_bytes));
        const QString margin = qs(bottleneckPercent(kMemoryVerdictMargin));
        if (m.remedy == Remedy::None)
            then(m.within_error ? translated(kMayNotFit, {total, capacity, margin})
                                : translated(kOutOfMemory, {total, capacity}));
        else if (m.within_error)
            then(translated(kMayNotFitRemedy,
                            {total, capacity, margin, remedyChange(m),
                             qs(bottleneckGiB(m.remedy_need_bytes)), remedyCost(m)}));
        else
            then(translated(kOutOfMemoryRemedy,
                            {total, capacity, remedyChange(m),
                             qs(bottleneckGiB(m.remedy_need_bytes)), remedyCost(m)}));
    }
    return text;
}

QString memoryErrorPercent()
{
    return QLocale().toString(100.0 * kMemoryVerdictMargin, 'f', 0);
}

QString trackRecordSentence(const Summary &summary)
{
    if (!summary.run_kind)
        return {};
    // In RunKind's order; translated with the disambiguation "track record".
    static constexpr const char *kSentences[] = {
        QT_TRANSLATE_NOOP("ModelText", "On %1 published runs of dense transformers, the model's "
                                       "throughput was off by %2% on average (median %3%, worst "
                                       "%4%)."),
        QT_TRANSLATE_NOOP("ModelText", "On %1 published long-context runs (context parallelism), "
                                       "the model's throughput was off by %2% on average (median "
                                       "%3%, worst %4%)."),
        QT_TRANSLATE_NOOP("ModelText", "On %1 published mixture-of-experts runs, the model's "
                                       "throughput was off by %2% on average (median %3%, worst "
                                       "%4%)."),
        QT_TRANSLATE_NOOP("ModelText", "On %1 published CNN runs, the model's throughput was off "
                                       "by %2% on average (median %3%, worst %4%)."),
    };
    const TrackRecord t = trackRecord(*summary.run_kind);
    const auto pct = [](double share) { return QLocale().toString(100.0 * share, 'f', 1); };
    return QCoreApplication::translate(kContext, kSentences[static_cast<int>(*summary.run_kind)],
                                       "track record")
        .arg(QLocale().toString(t.runs), pct(t.mean_error), pct(t.median_error),
             pct(t.worst_error));
}

QString withSentence(const QString &text, const QString &sentence)
{
    constexpr QChar kFullStop(0x3002);
    if (sentence.isEmpty())
        return text; // nothing to add: the text as it was
    QString out = text;
    if (!out.isEmpty() && !out.endsWith(QLatin1Char('.')) && !out.endsWith(kFullStop))
        out = QCoreApplication::translate(kContext, "%1.", "a sentence ending").arg(out);
    if (!out.isEmpty() && !out.endsWith(kFullStop))
        out += QLatin1Char(' ');
    return out + sentence;
}

QString translatedRemedyClause(const Summary &summary)
{
    const auto &oom = summary.bottleneck.out_of_memory;
    if (!oom || oom->remedy == Bottleneck::OutOfMemory::Remedy::None)
        return {};
    return translated(kRemedyClause, {remedyChange(*oom), qs(bottleneckGiB(oom->remedy_need_bytes)),
                                      remedyCost(*oom)});
}

QString translatedAdvice(const Advice &a)
{
    switch (a.kind) {
    case AdviceKind::LinearScalingRule:
        return translated(kLinearScalingRule, {qs(adviceNumber(a.global_batch))});
    case AdviceKind::LoaderWorkers:
        return translated(kLoaderWorkers,
                          {qs(adviceNumber(a.samples_per_s_per_gpu)),
                           qs(adviceNumber(a.samples_per_s_per_worker)),
                           QString::number(a.workers_needed), QString::number(a.workers_per_gpu)});
    case AdviceKind::LoaderRuleOfThumb:
        return translated(kLoaderRuleOfThumb);
    }
    return {};
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
        const SegmentLabel &record = timeline->labelRecordOf(id);
        e.texts[id] = record.kind == LabelKind::Text ? qs(timeline->labelTextOf(id))
                                                     : translatedLabel(record);
        e.done[id] = 1;
    }
    return e.texts[id];
}

QString scenarioHeadline(const Scenario &scenario)
{
    const HardwareSpec &hw = scenario.hardware;
    QString what = qs(scenario.model.name);
    if (scenario.isCollective())
        what = QCoreApplication::translate(kContext, "A collective", "scenario headline");
    else if (what.isEmpty())
        what = qs(!scenario.model.id.empty() ? scenario.model.id : scenario.name);
    if (hw.nodes > 1)
        return QCoreApplication::translate(kContext, "%1 on %2 × %3 %4 (%5, %6)",
                                           "scenario headline; %2 nodes × %3 GPUs per node, %4 "
                                           "GPU, %5 link inside a node, %6 network")
            .arg(what, QLocale().toString(hw.nodes), QLocale().toString(hw.gpus_per_node),
                 qs(hw.gpu.name), qs(hw.intra.name), qs(hw.inter.name));
    return QCoreApplication::translate(kContext, "%1 on %2 %3 (%4)",
                                       "scenario headline; %2 GPUs, %3 GPU, %4 link inside the "
                                       "node")
        .arg(what, QLocale().toString(hw.gpus_per_node), qs(hw.gpu.name), qs(hw.intra.name));
}

} // namespace scalescope
