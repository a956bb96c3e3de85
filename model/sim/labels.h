// What a timeline segment is: its kind (colour) and its label as a record (DESIGN.md section 1:
// the model returns label ids, the views render them with tr(), the CLI in English).
#pragma once

#include <cstdint>
#include <string>

namespace scalescope
{

enum class SegmentKind : uint8_t {
    Compute,
    TpComm,
    DpComm,
    PpComm,
    Bubble,
    Wait,
    DataLoad,
    Optimizer,
    EpComm, // expert dispatch and combine (all-to-all)
    CpComm, // context-parallel attention exchange
};
inline constexpr int kSegmentKindCount = 10;
const char *segmentKindName(SegmentKind k);
/// Chrome-trace category of a kind: compute | communication | wait | bubble | data.
const char *segmentCategory(SegmentKind k);

/// The labels the engine gives segments (sim/sim_graph.cpp, sim/sim_gaps.cpp).
enum class LabelKind : uint8_t {
    Forward,
    Backward,
    RecomputeBackward,
    TpForward,
    TpBackward,
    SendActivations,
    SendGradients,
    GradAllReduce,
    GradReduceScatter,
    ParamAllGather,
    Zero3AllGather,
    Optimizer,
    DataLoader,
    WaitData,
    Bubble,
    WaitTp,
    ExposedDp,
    Idle,
    WaitReplica,
    SendBlocking,
    Receive,
    ReceiveTransfer,
    ForwardHot,
    BackwardHot,
    RecomputeBackwardHot,
    OptimizerHot,
    ExpertForward,  // dispatch + combine all-to-all (forward)
    ExpertBackward, // their gradients (backward)
    WaitExpert,     // waiting for the busiest expert
    ContextForward, // context-parallel key/value exchange (forward)
    ContextBackward,
    // Labels with values (the fixed ones above take none):
    WaitForGpu, // waiting for GPU `gpu`, the slowest data-parallel replica, for `cause`
    Merged,     // several items merged, mostly `merged_kind` (a simplified timeline)
    Text,       // a label given as text only (TimelineBuilder::internLabel(std::string))
};
/// The labels without values, Forward .. ContextBackward.
inline constexpr int kFixedLabelCount = static_cast<int>(LabelKind::ContextBackward) + 1;

/// Why the GPU a WaitForGpu label names was the slowest.
enum class WaitCause : uint8_t { None, ThermalThrottling, Straggler };

struct SegmentLabel {
    LabelKind kind = LabelKind::Text;
    WaitCause cause = WaitCause::None;              // WaitForGpu
    SegmentKind merged_kind = SegmentKind::Compute; // Merged
    int32_t gpu = -1;                               // WaitForGpu
    bool operator==(const SegmentLabel &) const = default;
};

/// The English text of a label ("waiting for GPU 3 (slowest data-parallel replica,
/// straggler)"), what the CLI, the trace JSON and Timeline::label() give; "" for Text.
std::string labelText(const SegmentLabel &label);

} // namespace scalescope
