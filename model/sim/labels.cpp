#include "sim/labels.h"

namespace scalescope
{

const char *segmentKindName(SegmentKind k)
{
    switch (k) {
    case SegmentKind::Compute:
        return "compute";
    case SegmentKind::TpComm:
        return "tp_comm";
    case SegmentKind::DpComm:
        return "dp_comm";
    case SegmentKind::PpComm:
        return "pp_comm";
    case SegmentKind::Bubble:
        return "bubble";
    case SegmentKind::Wait:
        return "wait";
    case SegmentKind::DataLoad:
        return "data_loading";
    case SegmentKind::Optimizer:
        return "optimizer";
    case SegmentKind::EpComm:
        return "ep_comm";
    case SegmentKind::CpComm:
        return "cp_comm";
    }
    return "?";
}

namespace
{
/// The kind as the timeline's legend names it ("PP send/recv"; views/palette.h kindName).
const char *segmentKindTitle(SegmentKind k)
{
    switch (k) {
    case SegmentKind::Compute:
        return "Compute";
    case SegmentKind::TpComm:
        return "TP comm";
    case SegmentKind::DpComm:
        return "DP comm";
    case SegmentKind::PpComm:
        return "PP send/recv";
    case SegmentKind::Bubble:
        return "Pipeline bubble";
    case SegmentKind::Wait:
        return "Waiting";
    case SegmentKind::DataLoad:
        return "Data loading";
    case SegmentKind::Optimizer:
        return "Optimizer";
    case SegmentKind::EpComm:
        return "Expert all-to-all";
    case SegmentKind::CpComm:
        return "Context exchange";
    }
    return "?";
}
} // namespace

const char *segmentCategory(SegmentKind k)
{
    switch (k) {
    case SegmentKind::Compute:
    case SegmentKind::Optimizer:
        return "compute";
    case SegmentKind::TpComm:
    case SegmentKind::DpComm:
    case SegmentKind::PpComm:
    case SegmentKind::EpComm:
    case SegmentKind::CpComm:
        return "communication";
    case SegmentKind::Bubble:
        return "bubble";
    case SegmentKind::Wait:
        return "wait";
    case SegmentKind::DataLoad:
        return "data";
    }
    return "?";
}

namespace
{
const char *fixedLabelText(LabelKind l)
{
    switch (l) {
    case LabelKind::Forward:
        return "forward";
    case LabelKind::Backward:
        return "backward";
    case LabelKind::RecomputeBackward:
        return "recompute + backward";
    case LabelKind::TpForward:
        return "tensor-parallel all-reduce (forward)";
    case LabelKind::TpBackward:
        return "tensor-parallel all-reduce (backward)";
    case LabelKind::SendActivations:
        return "send activations to next stage";
    case LabelKind::SendGradients:
        return "send gradients to previous stage";
    case LabelKind::GradAllReduce:
        return "gradient all-reduce (bucket)";
    case LabelKind::GradReduceScatter:
        return "gradient reduce-scatter (ZeRO)";
    case LabelKind::ParamAllGather:
        return "parameter all-gather (ZeRO)";
    case LabelKind::Zero3AllGather:
        return "parameter all-gather before use (ZeRO-3)";
    case LabelKind::Optimizer:
        return "optimizer step";
    case LabelKind::DataLoader:
        return "data loader";
    case LabelKind::WaitData:
        return "waiting for the data loader";
    case LabelKind::Bubble:
        return "pipeline bubble: waiting for another stage";
    case LabelKind::WaitTp:
        return "waiting for the slowest GPU of the tensor-parallel group";
    case LabelKind::ExposedDp:
        return "waiting for data-parallel communication (exposed)";
    case LabelKind::Idle:
        return "idle until the slowest GPU finishes the step";
    case LabelKind::WaitReplica:
        return "waiting for the slowest data-parallel replica";
    case LabelKind::SendBlocking:
        return "pipeline send in progress (blocking exchange)";
    case LabelKind::Receive:
        return "receiving from the neighbouring pipeline stage";
    case LabelKind::ReceiveTransfer:
        return "receive from the neighbouring stage";
    case LabelKind::ForwardHot:
        return "forward (thermal throttling: clocks reduced)";
    case LabelKind::BackwardHot:
        return "backward (thermal throttling: clocks reduced)";
    case LabelKind::RecomputeBackwardHot:
        return "recompute + backward (thermal throttling: clocks reduced)";
    case LabelKind::OptimizerHot:
        return "optimizer step (thermal throttling: clocks reduced)";
    case LabelKind::ExpertForward:
        return "expert dispatch + combine (all-to-all, forward)";
    case LabelKind::ExpertBackward:
        return "expert dispatch + combine (all-to-all, backward)";
    case LabelKind::WaitExpert:
        return "waiting for the busiest expert (routing imbalance)";
    case LabelKind::ContextForward:
        return "context-parallel key/value exchange (forward)";
    case LabelKind::ContextBackward:
        return "context-parallel key/value exchange (backward)";
    case LabelKind::WaitForGpu:
    case LabelKind::Merged:
    case LabelKind::Text:
        break;
    }
    return "";
}
} // namespace

std::string labelText(const SegmentLabel &label)
{
    switch (label.kind) {
    case LabelKind::WaitForGpu: {
        std::string cause;
        if (label.cause == WaitCause::ThermalThrottling)
            cause = ", thermal throttling";
        else if (label.cause == WaitCause::Straggler)
            cause = ", straggler";
        return "waiting for GPU " + std::to_string(label.gpu) + " (slowest data-parallel replica" +
               cause + ")";
    }
    case LabelKind::Merged:
        return std::string("several items merged, mostly ") + segmentKindTitle(label.merged_kind) +
               " (timeline simplified: items closer than its merge step stay merged at any zoom; the GPUs of "
               "the first data-parallel replica keep every item)";
    case LabelKind::Text:
        return {};
    default:
        return fixedLabelText(label.kind);
    }
}

} // namespace scalescope
