// A calibration profile's figures against what the model uses without it: the datasheet of
// the GPU it was measured on, and for NCCL collectives the model's own prediction from the
// scenario's datasheet links. Records only; the Calibration tab and the report after Apply
// render them (app/gui/profile_library).
#pragma once

#include "comm/collective.h"
#include "hardware/calibration.h"
#include "hardware/hardware.h"
#include "hardware/precision.h"

#include <optional>
#include <string>
#include <vector>

namespace scalescope
{

enum class CalibrationFigure {
    GemmPeak,        // TFLOP/s, per precision
    MemoryBandwidth, // GB/s
    HostToDevice,    // GB/s, pinned
    DeviceToHost,    // GB/s, pinned
    LaunchOverhead,  // µs, GPU side
    HostLaunch,      // µs, the CPU time of one launch call
    SyncRoundTrip,   // µs, an empty kernel and cudaStreamSynchronize
    PeerToPeer,      // GB/s, the best pair
    CollectiveBusBandwidth, // GB/s, NCCL bus bandwidth (peak), per collective
};

/// The shape and size the model predicted a collective's datasheet figure for.
struct CollectivePrediction {
    std::string link; // the scenario's intra-node link name
    int gpus = 0;
    int nodes = 1;
    double bytes = 0;
    bool operator==(const CollectivePrediction &) const = default;
};

struct FigureComparison {
    CalibrationFigure figure = CalibrationFigure::GemmPeak;
    Precision precision = Precision::FP16;     // GemmPeak
    CollectiveOp op = CollectiveOp::AllReduce; // CollectiveBusBandwidth
    double datasheet = 0;                      // 0 = no datasheet figure
    std::vector<double> measured;              // per profile; 0 = not measured
    std::optional<CollectivePrediction> predicted_for; // where a collective's figure comes from
    bool operator==(const FigureComparison &) const = default;
};

/// The figures measured by one or more profiles (columns), a row wherever a profile measured
/// it or a datasheet has it. `sheet` is the catalog GPU the first profile was measured on
/// (null: no GPU datasheet column); `links` the scenario's hardware, whose datasheet links
/// (calibration left out) predict the collectives on the first profile's largest measured
/// size and shape (null: no prediction).
std::vector<FigureComparison>
compareCalibration(const std::vector<const CalibrationProfile *> &profiles, const GpuSpec *sheet,
                   const HardwareSpec *links);

/// GPUs a profile measured: its GPU entries, or the ranks of its collectives (an imported
/// nccl-tests log has no GPU entries).
int profileGpuCount(const CalibrationProfile &profile);

} // namespace scalescope
