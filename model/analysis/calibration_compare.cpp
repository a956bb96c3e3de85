#include "analysis/calibration_compare.h"

#include <algorithm>

namespace scalescope
{

namespace
{
FigureComparison figureRow(CalibrationFigure figure, double datasheet = 0)
{
    FigureComparison row;
    row.figure = figure;
    row.datasheet = datasheet;
    return row;
}
} // namespace

std::vector<FigureComparison>
compareCalibration(const std::vector<const CalibrationProfile *> &profiles, const GpuSpec *sheet,
                   const HardwareSpec *links)
{
    std::vector<FigureComparison> rows;
    if (profiles.empty())
        return rows;
    const CalibrationProfile &first = *profiles.front();
    auto add = [&](FigureComparison row, auto &&measure) {
        bool any = false;
        for (const CalibrationProfile *p : profiles) {
            const double v = measure(*p);
            any = any || v > 0;
            row.measured.push_back(v);
        }
        if (any || row.datasheet > 0)
            rows.push_back(std::move(row));
    };
    const auto firstGpu = [](const CalibrationProfile &p, double ProfileGpu::*field) {
        return p.gpus.empty() ? 0.0 : p.gpus.front().*field;
    };
    for (int pi = 0; pi < kPrecisionCount; ++pi) {
        const auto prec = static_cast<Precision>(pi);
        FigureComparison row = figureRow(CalibrationFigure::GemmPeak, sheet ? sheet->peak(prec) : 0);
        row.precision = prec;
        add(std::move(row), [pi](const CalibrationProfile &p) {
            double best = 0;
            for (const ProfileGpu &g : p.gpus)
                for (const ProfileGemmPoint &pt : g.gemm_tflops[static_cast<size_t>(pi)])
                    best = std::max(best, pt.tflops);
            return best;
        });
    }
    {
        FigureComparison row = figureRow(CalibrationFigure::MemoryBandwidth,
                                         sheet ? sheet->memory_bandwidth_gbps : 0);
        add(std::move(row), [&](const CalibrationProfile &p) {
            return firstGpu(p, &ProfileGpu::memory_bandwidth_gbps);
        });
    }
    // Pinned copies have no datasheet figure in the catalog (the link's is the bound).
    add(figureRow(CalibrationFigure::HostToDevice), [&](const CalibrationProfile &p) {
        return firstGpu(p, &ProfileGpu::h2d_pinned_gbps);
    });
    add(figureRow(CalibrationFigure::DeviceToHost), [&](const CalibrationProfile &p) {
        return firstGpu(p, &ProfileGpu::d2h_pinned_gbps);
    });
    {
        FigureComparison row = figureRow(CalibrationFigure::LaunchOverhead,
                                         sheet ? sheet->launch_overhead_us : 0);
        add(std::move(row), [&](const CalibrationProfile &p) {
            return firstGpu(p, &ProfileGpu::launch_overhead_us);
        });
    }
    // Host-side costs (no datasheet gives them; docs/model.md, Software stacks).
    add(figureRow(CalibrationFigure::HostLaunch), [&](const CalibrationProfile &p) {
        return firstGpu(p, &ProfileGpu::host_launch_us);
    });
    add(figureRow(CalibrationFigure::SyncRoundTrip), [&](const CalibrationProfile &p) {
        return firstGpu(p, &ProfileGpu::sync_round_trip_us);
    });
    add(figureRow(CalibrationFigure::PeerToPeer), [](const CalibrationProfile &p) {
        double best = 0;
        for (const ProfileP2P &x : p.p2p)
            best = std::max(best, x.bandwidth_gbps);
        return best;
    });
    for (const CollectiveOp op :
         {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter}) {
        const std::string name = collectiveOpName(op);
        // What the model assumes without the profile: its datasheet links, on the shape and
        // at the largest size the first profile measured.
        FigureComparison row = figureRow(CalibrationFigure::CollectiveBusBandwidth);
        row.op = op;
        const ProfileCollective *largest = nullptr;
        for (const ProfileCollective &c : first.collectives)
            if (c.op == name && c.gpus > 1 && (!largest || c.bytes > largest->bytes))
                largest = &c;
        if (links && largest) {
            HardwareSpec hw = *links;
            hw.calibration.reset();
            const CommModel comm(hw);
            GroupShape g;
            g.ranks = largest->gpus;
            g.nodes = std::max(1, largest->nodes);
            g.ranks_per_node = std::max(1, largest->gpus / g.nodes);
            row.datasheet = comm.cost(op, largest->bytes, g).busbw_gbps;
            if (row.datasheet > 0)
                row.predicted_for =
                    CollectivePrediction{links->intra.name, largest->gpus, g.nodes, largest->bytes};
        }
        add(std::move(row), [&name](const CalibrationProfile &p) {
            double best = 0;
            for (const ProfileCollective &c : p.collectives)
                if (c.op == name)
                    best = std::max(best, c.busbw_gbps);
            return best;
        });
    }
    return rows;
}

int profileGpuCount(const CalibrationProfile &profile)
{
    int n = static_cast<int>(profile.gpus.size());
    for (const ProfileCollective &c : profile.collectives)
        n = std::max(n, c.gpus);
    return n;
}

} // namespace scalescope
