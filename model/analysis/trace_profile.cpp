// A calibration profile fitted from measured traces (trace_profile.h).
#include "analysis/trace_profile.h"

#include "analysis/measured_run.h"
#include "hardware/precision.h"
#include "plan/collective_op.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>

namespace scalescope
{

namespace
{

constexpr double kSecondsPerUs = 1e-6; // Kineto's ts and dur are microseconds

// PyTorch's c10d names of collectives as record_param_comms writes them in "Collective name"
// (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp, the RECORD_PARAM_COMMS calls).
std::optional<CollectiveOp> collectiveOf(std::string_view name)
{
    if (name == "allreduce" || name == "allreduce_coalesced" || name == "all_reduce")
        return CollectiveOp::AllReduce;
    if (name == "allgather" || name == "_allgather_base" || name == "all_gather" ||
        name == "allgather_into_tensor_coalesced" || name == "allgather_coalesced")
        return CollectiveOp::AllGather;
    if (name == "reduce_scatter" || name == "_reduce_scatter_base" ||
        name == "reduce_scatter_tensor_coalesced" || name == "reducescatter")
        return CollectiveOp::ReduceScatter;
    if (name == "broadcast")
        return CollectiveOp::Broadcast;
    if (name == "all_to_all" || name == "alltoall" || name == "alltoall_base")
        return CollectiveOp::AllToAll;
    return std::nullopt; // send, recv, barrier, gather, scatter: no nccl-tests bus bandwidth
}

// nccl-tests' size of a collective (doc/PERFORMANCE.md): the all-reduce and broadcast
// buffer; all-gather's received and reduce-scatter's sent buffer (count x ranks);
// all-to-all's sent buffer.
double collectiveBytes(CollectiveOp op, const TraceCollectiveRecord &c)
{
    const double elements = op == CollectiveOp::AllGather ? c.out_elements : c.in_elements;
    return elements * c.element_bytes;
}

} // namespace

TraceProfileFit fitTraceProfile(const std::vector<const KinetoTrace *> &traces,
                                const TraceProfileOptions &options)
{
    TraceProfileFit fit;
    CalibrationProfile &p = fit.profile;
    p.created = options.created;
    p.tool = "scalescope-cli trace";
    p.hostname = options.hostname;
    p.gpus_per_node = std::max(0, options.gpus_per_node);
    fit.nodes_known = options.gpus_per_node > 0;

    // Collective bus bandwidth by size.
    std::map<std::tuple<int, int, double>, std::vector<double>> collective_times;
    int64_t world = 0;
    for (const KinetoTrace *t : traces) {
        world = std::max(world, t->world_size);
        if (p.nccl.empty())
            p.nccl = t->nccl_version;
        for (const TraceCollectiveRecord &c : t->collectives) {
            const auto op = collectiveOf(c.collective);
            const TraceActivity &a = t->activities[c.activity];
            const double time_s = (a.end_us - a.start_us) * kSecondsPerUs;
            if (!op || c.group_size < 2 || c.element_bytes <= 0 || time_s <= 0)
                continue;
            const double bytes = std::round(collectiveBytes(*op, c));
            if (!(bytes >= 1 && bytes <= 1e13))
                continue;
            collective_times[{static_cast<int>(*op), c.group_size, bytes}].push_back(time_s);
            ++fit.collective_samples;
        }
    }
    for (const auto &[key, times] : collective_times) {
        const auto &[op_index, gpus, bytes] = key;
        const CollectiveOp op = static_cast<CollectiveOp>(op_index);
        ProfileCollective c;
        c.op = collectiveOpName(op);
        c.gpus = gpus;
        c.nodes = fit.nodes_known
                      ? std::min(gpus, (gpus + options.gpus_per_node - 1) / options.gpus_per_node)
                      : 1;
        c.bytes = bytes;
        c.time_s = medianOf(times);
        // nccl-tests doc/PERFORMANCE.md: algbw = size / time; busbw = algbw x factor.
        c.algbw_gbps = bytes / c.time_s / 1e9;
        c.busbw_gbps = c.algbw_gbps * busBandwidthFactor(op, gpus);
        if (c.time_s > 1e6 || c.algbw_gbps > 1e6 || c.busbw_gbps > 1e6)
            continue;
        p.collectives.push_back(c);
    }
    if (fit.collective_samples == 0)
        fit.notes.push_back("collectives: no NCCL kernel records its collective, size and group "
                            "(PyTorch 2.1+ writes them on the kernel's args)");
    else if (!fit.nodes_known)
        fit.notes.push_back("collectives: the trace does not say how many nodes a collective "
                            "spans; written as one node (give --scenario for its gpus_per_node)");
    if (world > 0 && p.gpus_per_node > 0)
        p.nodes =
            static_cast<int>(std::max<int64_t>(1, (world + p.gpus_per_node - 1) / p.gpus_per_node));
    else
        p.nodes = 1;

    ProfileGpu gpu;
    gpu.index = 0;
    // GEMM efficiency where shapes were recorded: the kernels launched inside the operator
    // (their launch on the operator's thread, inside its [ts, ts + dur)) are its GPU time.
    std::map<std::tuple<std::string, double, double, double>, std::vector<double>> gemm_tflops;
    for (const KinetoTrace *t : traces) {
        if (t->gemms.empty())
            continue;
        if (gpu.name.empty() && t->has_gpu_name)
            gpu.name = t->gpu_name;
        // The operators by thread and start (a GEMM operator holds no other GEMM operator).
        std::vector<size_t> order(t->gemms.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        const auto key = [&](size_t i) {
            return std::make_pair(t->gemms[i].thread, t->gemms[i].start_us);
        };
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
        std::vector<double> gpu_us(t->gemms.size(), 0);
        for (const TraceActivity &a : t->activities) {
            if (!a.kernel || a.correlation == kNoCorrelation)
                continue;
            const auto l =
                std::lower_bound(t->launches.begin(), t->launches.end(), a.correlation,
                                 [](const TraceLaunch &x, int64_t c) { return x.correlation < c; });
            if (l == t->launches.end() || l->correlation != a.correlation)
                continue;
            const auto it = std::upper_bound(
                order.begin(), order.end(), std::make_pair(l->thread, l->start_us),
                [&](const std::pair<int32_t, double> &v, size_t i) { return v < key(i); });
            if (it == order.begin())
                continue;
            const TraceGemmRecord &g = t->gemms[*(it - 1)];
            if (g.thread == l->thread && l->start_us < g.end_us)
                gpu_us[*(it - 1)] += a.end_us - a.start_us;
        }
        for (size_t i = 0; i < t->gemms.size(); ++i) {
            const TraceGemmRecord &g = t->gemms[i];
            if (gpu_us[i] <= 0)
                continue;
            // 2 m n k floating-point operations per GEMM (one multiply and one add each).
            const double tflops = 2 * g.m * g.n * g.k / (gpu_us[i] * kSecondsPerUs) / 1e12;
            if (tflops > 0 && tflops <= 1e5 && g.m <= 1e7 && g.n <= 1e7 && g.k <= 1e7) {
                gemm_tflops[{g.precision, g.m, g.n, g.k}].push_back(tflops);
                ++fit.gemm_samples;
            }
        }
    }
    for (const auto &[key, values] : gemm_tflops) {
        const auto &[precision, m, n, k] = key;
        for (int i = 0; i < kPrecisionCount; ++i) {
            const Precision pr = static_cast<Precision>(i);
            if (precision == precisionName(pr)) {
                auto &points = gpu.gemm_tflops[static_cast<size_t>(pr)];
                if (points.size() < 10000)
                    points.push_back({m, n, k, medianOf(values)});
            }
        }
    }
    if (fit.gemm_samples == 0)
        fit.notes.push_back("gemm_tflops: no GEMM operator with recorded shapes launched a timed "
                            "kernel (profile with record_shapes=True)");

    // The host's time to issue one kernel launch (profile.md host_launch_us).
    std::vector<double> launches;
    for (const KinetoTrace *t : traces) {
        for (float us : t->launch_host_us)
            launches.push_back(us);
        if (gpu.name.empty() && t->has_gpu_name)
            gpu.name = t->gpu_name;
    }
    fit.launch_samples = launches.size();
    if (!launches.empty())
        gpu.host_launch_us = std::min(1e6, medianOf(std::move(launches)));
    else
        fit.notes.push_back("host_launch_us: no cudaLaunchKernel event");

    if (fit.gemm_samples > 0 || fit.launch_samples > 0) {
        if (gpu.name.empty())
            gpu.name = "unknown (the trace has no deviceProperties)";
        p.gpus.push_back(std::move(gpu));
    }
    for (const std::string &note : fit.notes)
        p.skipped.push_back({"trace", note});
    return fit;
}

} // namespace scalescope
