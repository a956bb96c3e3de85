#include "palette.h"

#include <QCoreApplication>

namespace scalescope
{

namespace
{
PaletteMode g_palette_mode = PaletteMode::Screen; // GUI thread only

// The projector palette: the same hues (so a slide looks like the window), darker and more
// saturated, every colour at least 3:1 against white (WCAG 2.1 non-text contrast), and the
// pale ones (bubble grey, optimizer blue) replaced by mid tones that survive a washed-out
// beamer.
QColor projectorKindColor(SegmentKind kind)
{
    switch (kind) {
    case SegmentKind::Compute:
        return QColor(0x0b, 0x4f, 0xa8);
    case SegmentKind::TpComm:
        return QColor(0xc7, 0x82, 0x00);
    case SegmentKind::DpComm:
        return QColor(0xcc, 0x4a, 0x00);
    case SegmentKind::PpComm:
        return QColor(0xa6, 0x2f, 0x86);
    case SegmentKind::Bubble:
        return QColor(0x75, 0x75, 0x75);
    case SegmentKind::Wait:
        return QColor(0xc4, 0x00, 0x14);
    case SegmentKind::DataLoad:
        return QColor(0x00, 0x7a, 0x52);
    case SegmentKind::Optimizer:
        return QColor(0x1f, 0x8f, 0xc9);
    case SegmentKind::EpComm:
        return QColor(0x5c, 0x3c, 0x92);
    case SegmentKind::CpComm:
        return QColor(0x6b, 0x6b, 0x00);
    }
    return Qt::black;
}
} // namespace

void setPaletteMode(PaletteMode mode)
{
    g_palette_mode = mode;
}

PaletteMode paletteMode()
{
    return g_palette_mode;
}

QPalette projectorPalette()
{
    QPalette p;
    const QColor white(Qt::white), black(Qt::black);
    for (const QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(group, QPalette::Window, white);
        p.setColor(group, QPalette::Base, white);
        p.setColor(group, QPalette::AlternateBase, QColor(0xf0, 0xf0, 0xf0));
        p.setColor(group, QPalette::WindowText, black);
        p.setColor(group, QPalette::Text, black);
        p.setColor(group, QPalette::ButtonText, black);
        p.setColor(group, QPalette::Button, QColor(0xe8, 0xe8, 0xe8));
        p.setColor(group, QPalette::BrightText, white);
        p.setColor(group, QPalette::PlaceholderText, QColor(0x40, 0x40, 0x40));
        p.setColor(group, QPalette::Light, white);
        p.setColor(group, QPalette::Midlight, QColor(0xc0, 0xc0, 0xc0));
        p.setColor(group, QPalette::Mid, QColor(0x50, 0x50, 0x50));
        p.setColor(group, QPalette::Dark, QColor(0x30, 0x30, 0x30));
        p.setColor(group, QPalette::Shadow, black);
        p.setColor(group, QPalette::Highlight, QColor(0x00, 0x3d, 0xa5));
        p.setColor(group, QPalette::HighlightedText, white);
        p.setColor(group, QPalette::ToolTipBase, QColor(0xff, 0xff, 0xdc));
        p.setColor(group, QPalette::ToolTipText, black);
        p.setColor(group, QPalette::Link, QColor(0x00, 0x3d, 0xa5));
    }
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x60, 0x60, 0x60));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x60, 0x60, 0x60));
    p.setColor(QPalette::Disabled, QPalette::Window, white);
    p.setColor(QPalette::Disabled, QPalette::Base, QColor(0xf4, 0xf4, 0xf4));
    return p;
}

QColor kindColor(SegmentKind kind)
{
    if (g_palette_mode == PaletteMode::Projector)
        return projectorKindColor(kind);
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
    case SegmentKind::EpComm:
        return QColor(0x8e, 0x6b, 0xc4);
    case SegmentKind::CpComm:
        return QColor(0xa6, 0xa6, 0x1e);
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
    case SegmentKind::EpComm:
        return QCoreApplication::translate("Palette", "Expert all-to-all");
    case SegmentKind::CpComm:
        return QCoreApplication::translate("Palette", "Context exchange");
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
    case SegmentKind::EpComm:
        return QCoreApplication::translate(
            "Palette", "Mixture of experts: tokens dispatched to their experts and combined back");
    case SegmentKind::CpComm:
        return QCoreApplication::translate(
            "Palette", "Context parallelism: key/value blocks passed around the sequence's GPUs");
    }
    return {};
}

QColor breakdownColor(BreakdownPart part)
{
    switch (part) {
    case BreakdownPart::Compute:
        return kindColor(SegmentKind::Compute);
    case BreakdownPart::TpCommunication:
        return kindColor(SegmentKind::TpComm);
    case BreakdownPart::DpCommunication:
        return kindColor(SegmentKind::DpComm);
    case BreakdownPart::PpCommunication:
        return kindColor(SegmentKind::PpComm);
    case BreakdownPart::PipelineBubble:
        return kindColor(SegmentKind::Bubble);
    case BreakdownPart::Wait:
        return kindColor(SegmentKind::Wait);
    case BreakdownPart::DataLoading:
        return kindColor(SegmentKind::DataLoad);
    case BreakdownPart::ExpertCommunication:
        return kindColor(SegmentKind::EpComm);
    case BreakdownPart::ContextCommunication:
        return kindColor(SegmentKind::CpComm);
    }
    return Qt::black;
}

QString breakdownName(BreakdownPart part)
{
    switch (part) {
    case BreakdownPart::Compute:
        return QCoreApplication::translate("Palette", "Compute");
    case BreakdownPart::TpCommunication:
        return QCoreApplication::translate("Palette", "Tensor-parallel communication");
    case BreakdownPart::DpCommunication:
        return QCoreApplication::translate("Palette", "Exposed data-parallel communication");
    case BreakdownPart::PpCommunication:
        return QCoreApplication::translate("Palette", "Exposed pipeline communication");
    case BreakdownPart::PipelineBubble:
        return QCoreApplication::translate("Palette", "Pipeline bubble");
    case BreakdownPart::Wait:
        return QCoreApplication::translate("Palette", "Waiting");
    case BreakdownPart::DataLoading:
        return QCoreApplication::translate("Palette", "Data loading");
    case BreakdownPart::ExpertCommunication:
        return QCoreApplication::translate("Palette", "Exposed expert all-to-all");
    case BreakdownPart::ContextCommunication:
        return QCoreApplication::translate("Palette", "Exposed context exchange");
    }
    return {};
}

} // namespace scalescope
