#include "palette.h"

#include <QCoreApplication>

namespace scalescope
{

QColor kindColor(SegmentKind kind)
{
    // Okabe-Ito inspired, distinguishable with common colour-vision deficiencies.
    switch (kind) {
    case SegmentKind::Compute:
        return QColor(0x2f, 0x6f, 0xb5);
    case SegmentKind::TpComm:
        return QColor(0xe6, 0x9f, 0x00);
    case SegmentKind::DpComm:
        return QColor(0xd5, 0x5e, 0x00);
    case SegmentKind::PpComm:
        return QColor(0xcc, 0x79, 0xa7);
    case SegmentKind::Bubble:
        return QColor(0xbd, 0xbd, 0xbd);
    case SegmentKind::Wait:
        return QColor(0xd6, 0x27, 0x28);
    case SegmentKind::DataLoad:
        return QColor(0x00, 0x9e, 0x73);
    case SegmentKind::Optimizer:
        return QColor(0x56, 0xb4, 0xe9);
    }
    return Qt::black;
}

QString kindName(SegmentKind kind)
{
    switch (kind) {
    case SegmentKind::Compute:
        return QCoreApplication::translate("Palette", "Compute");
    case SegmentKind::TpComm:
        return QCoreApplication::translate("Palette", "TP comm");
    case SegmentKind::DpComm:
        return QCoreApplication::translate("Palette", "DP comm");
    case SegmentKind::PpComm:
        return QCoreApplication::translate("Palette", "PP send/recv");
    case SegmentKind::Bubble:
        return QCoreApplication::translate("Palette", "Pipeline bubble");
    case SegmentKind::Wait:
        return QCoreApplication::translate("Palette", "Waiting");
    case SegmentKind::DataLoad:
        return QCoreApplication::translate("Palette", "Data loading");
    case SegmentKind::Optimizer:
        return QCoreApplication::translate("Palette", "Optimizer");
    }
    return {};
}

QString kindDescription(SegmentKind kind)
{
    switch (kind) {
    case SegmentKind::Compute:
        return QCoreApplication::translate("Palette", "Forward and backward kernels");
    case SegmentKind::TpComm:
        return QCoreApplication::translate("Palette",
                                           "Tensor-parallel all-reduce / all-gather per layer");
    case SegmentKind::DpComm:
        return QCoreApplication::translate("Palette",
                                           "Data-parallel gradient all-reduce / ZeRO traffic");
    case SegmentKind::PpComm:
        return QCoreApplication::translate("Palette",
                                           "Pipeline point-to-point activations and gradients");
    case SegmentKind::Bubble:
        return QCoreApplication::translate("Palette",
                                           "Idle: the pipeline schedule has no work here");
    case SegmentKind::Wait:
        return QCoreApplication::translate("Palette",
                                           "Idle: waiting for another GPU or a transfer");
    case SegmentKind::DataLoad:
        return QCoreApplication::translate("Palette", "Idle: waiting for the data loader");
    case SegmentKind::Optimizer:
        return QCoreApplication::translate("Palette", "Optimizer step (weights update)");
    }
    return {};
}

QColor breakdownColor(BreakdownPart part)
{
    switch (part) {
    case BreakdownPart::Compute:
        return kindColor(SegmentKind::Compute);
    case BreakdownPart::CommunicationExposed:
        return kindColor(SegmentKind::DpComm);
    case BreakdownPart::PipelineBubble:
        return kindColor(SegmentKind::Bubble);
    case BreakdownPart::Wait:
        return kindColor(SegmentKind::Wait);
    case BreakdownPart::DataLoading:
        return kindColor(SegmentKind::DataLoad);
    }
    return Qt::black;
}

QString breakdownName(BreakdownPart part)
{
    switch (part) {
    case BreakdownPart::Compute:
        return QCoreApplication::translate("Palette", "Compute");
    case BreakdownPart::CommunicationExposed:
        return QCoreApplication::translate("Palette", "Exposed communication");
    case BreakdownPart::PipelineBubble:
        return QCoreApplication::translate("Palette", "Pipeline bubble");
    case BreakdownPart::Wait:
        return QCoreApplication::translate("Palette", "Waiting");
    case BreakdownPart::DataLoading:
        return QCoreApplication::translate("Palette", "Data loading");
    }
    return {};
}

} // namespace scalescope
