#include "comm/collective.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalescope
{

namespace
{

// Achievable fraction of a link's line rate for NCCL's SM-driven copies.
// NVLink: 128-byte payloads give ~20 of 25 GB/s per link (S. Jeaugey, nccl-tests #149;
// ~370 of 450 GB/s on H100, nccl-tests #212): 0.80.
// Point-to-point NVLink bridges (two PCIe cards): measured 116 of 300 GB/s all_reduce bus
// bandwidth on 2x H100 PCIe (NVIDIA/nccl #1161): 0.39.
// PCIe x16 through a switch: ~22-24 of 31.5 GB/s for PCIe 4 (nccl-tests results in NVIDIA's
// DGX/HGX PCIe topologies; Li et al., "Evaluating Modern GPU Interconnect", TPDS 2020): 0.75.
double intraEfficiency(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NVLinkSwitched:
        return 0.80;
    case LinkKind::NVLinkBridge:
        return 0.39;
    case LinkKind::PCIe:
        return 0.75;
    default:
        return 0.75;
    }
}

// NIC efficiency: InfiniBand ~0.9 of line rate for NCCL (24 GB/s per 200 Gb/s NIC quoted
// as the best case in nccl-tests #119, ~21.5 GB/s per NIC measured on 2x8 A100 with 4 HDR
// NICs); RoCE ~0.85 (congestion control and PFC pauses); TCP sockets ~0.5: kernel copies
// and one socket per connection leave NCCL's socket transport near half the line rate
// unless NCCL_NSOCKS_PERTHREAD/NCCL_SOCKET_NTHREADS are raised (NCCL environment docs).
double nicEfficiency(LinkKind kind)
{
    switch (kind) {
    case LinkKind::InfiniBand:
        return 0.90;
    case LinkKind::RoCE:
        return 0.85;
    case LinkKind::Ethernet:
        return 0.50;
    default:
        return 0.85;
    }
}

// Per-collective fixed cost (kernel launch + proxy/progress start), NCCL tuning.cc base
// latencies are ~4-7 us per protocol; nccl-tests small-size all_reduce on 8 GPUs ~ 10-20 us.
constexpr double kBaseLatency = 6e-6;
// NVLS (NVLink SHARP) all-reduce on NVSwitch gen3: ~275 GB/s algorithm bandwidth against a
// 450 GB/s line rate on 8x H100 (S. Jeaugey, nccl-tests #212): 0.61 of line rate, moving
// each byte once instead of 2(n-1)/n times.
constexpr double kNvlsEfficiency = 0.61;
// Tree all-reduce reaches ~90% of ring bandwidth between nodes (NCCL tuning.cc applies
// a tree correction below 1 at large sizes); it wins on latency: 2 log2(nodes) hops.
constexpr double kTreeBandwidthFactor = 0.9;

struct ProtocolTraits {
    double bandwidth; // fraction of the Simple protocol's bandwidth
    // Multipliers on a link's per-hop latency (the catalog's figures sit at NCCL's LL128
    // column, links.json) for a hop over NVLink, over PCIe and over the network.
    double nvlink, pcie, net;
};

// NCCL protocols (NCCL docs "NCCL_PROTO"): LL sends 8-byte flag+data words (50% efficiency,
// lowest latency); LL128 120 of 128 bytes (NVLink only); Simple full bandwidth, highest
// latency. The latency ratios are NCCL's own ring constants (src/graph/tuning.cc, hwLat, us
// per ring step for LL / LL128 / Simple): NVLink 0.6 / 1.9 / 3.4, PCIe 1.0 / 2.5 / 5.7,
// network 2.7 / 4.0 / 14.0, each divided by its LL128 figure.
ProtocolTraits traits(Protocol p)
{
    switch (p) {
    case Protocol::LL:
        return {0.5, 0.6 / 1.9, 1.0 / 2.5, 2.7 / 4.0};
    case Protocol::LL128:
        return {0.9375, 1.0, 1.0, 1.0};
    case Protocol::Simple:
        break;
    }
    return {1.0, 3.4 / 1.9, 5.7 / 2.5, 14.0 / 4.0};
}

} // namespace

double hostStagedFlowBandwidth(const HardwareSpec &hw)
{
    // Cards without peer-to-peer over PCIe (GeForce) stage every transfer through host
    // memory (NCCL SHM transport, NCCL docs "NCCL_P2P_DISABLE"): a GPU writes into a host
    // buffer over its link and the next GPU reads it over its own. Every GPU of a ring
    // sends one flow and receives one at once; a flow is bounded by its own link, by the
    // uplink it shares and by host memory:
    const double n = hw.gpus_per_node;
    const double link = hw.intra.bandwidth_gbps * 1e9;
    double flow = link * intraEfficiency(hw.intra.kind);
    if (hw.pcie_topology == PcieTopology::Switch) {
        // Behind one PCIe switch all flows share its x16 uplink to the CPU, and each byte
        // crosses it twice (down to host memory and back up).
        flow = std::min(flow, link / (2.0 * n));
    }
    // Host memory: each staged byte is written once and read once, by all flows of the
    // GPUs on that CPU socket at once; "on PCI systems the performance you get is usually
    // determined by the bandwidth your CPU and memory can deliver" (NCCL maintainer, NCCL
    // issue #1639: 8 RTX 5090 on two Xeon 8480+ reach 28 GB/s bus bandwidth). Nodes of
    // more than four GPUs are assumed two-socket, the GPUs split evenly; streaming kernels
    // reach ~0.75 of a socket's DRAM peak (STREAM Triad on two-socket EPYC and Xeon
    // servers, McCalpin's STREAM results).
    const double per_socket_gbps =
        hw.host_memory_gbps > 0 ? hw.host_memory_gbps : hw.intra.host_memory_gbps;
    if (per_socket_gbps > 0) {
        const double sockets = n > 4 ? 2.0 : 1.0;
        const double gpus_per_socket = std::ceil(n / sockets);
        flow = std::min(flow, 0.75 * per_socket_gbps * 1e9 / (2.0 * gpus_per_socket));
    }
    return flow;
}

CommModel::CommModel(const HardwareSpec &hw)
{
    gpus_per_node_ = hw.gpus_per_node;
    nics_per_node_ = std::max(1, hw.nics_per_node);
    intra_bw_ = hw.intra.bandwidth_gbps * 1e9 * intraEfficiency(hw.intra.kind);
    host_staged_ = !hw.gpu.pcie_p2p && hw.intra.kind == LinkKind::PCIe && hw.gpus_per_node > 1;
    if (host_staged_)
        intra_bw_ = std::min(intra_bw_, hostStagedFlowBandwidth(hw));
    intra_lat_ = hw.intra.latency_us * 1e-6;
    intra_nvlink_ = hw.intra.kind == LinkKind::NVLinkSwitched ||
                    hw.intra.kind == LinkKind::NVLinkBridge || hw.intra.kind == LinkKind::Custom;
    // Streaming copies reach ~0.8 of datasheet memory bandwidth (hardware/kernel_model.cpp).
    local_bw_ = hw.gpu.memory_bandwidth_gbps * 1e9 * 0.8;
    nic_bw_ = hw.inter.line_rate_gbit / 8.0 * 1e9 * nicEfficiency(hw.inter.kind);
    inter_lat_ = hw.inter.latency_us * 1e-6;
    nvls_ = hw.intra.switched && hw.intra.nvswitch_gen >= 3;
    nvls_bw_ = hw.intra.bandwidth_gbps * 1e9 * kNvlsEfficiency;
    if (hw.calibration)
        applyProfile(*hw.calibration);
}

void CommModel::applyProfile(const CalibrationProfile &profile)
{
    // Measured peer-to-peer copies use the copy engines (256-byte payloads); NCCL's SM
    // copies reach ~0.9 of that (S. Jeaugey, nccl-tests #149: 128-byte SM payloads).
    std::vector<double> p2p;
    for (const ProfileP2P &p : profile.p2p)
        if (p.access && p.bandwidth_gbps > 0)
            p2p.push_back(p.bandwidth_gbps);
    if (!p2p.empty()) {
        std::nth_element(p2p.begin(), p2p.begin() + static_cast<long>(p2p.size() / 2), p2p.end());
        setMeasuredIntraBandwidth(0.9 * p2p[p2p.size() / 2]);
    }
    for (const ProfileCollective &c : profile.collectives) {
        MeasuredCollective m;
        bool known = true;
        if (c.op == "all_reduce")
            m.op = CollectiveOp::AllReduce;
        else if (c.op == "all_gather")
            m.op = CollectiveOp::AllGather;
        else if (c.op == "reduce_scatter")
            m.op = CollectiveOp::ReduceScatter;
        else if (c.op == "broadcast")
            m.op = CollectiveOp::Broadcast;
        else if (c.op == "all_to_all")
            m.op = CollectiveOp::AllToAll;
        else
            known = false;
        if (!known || c.time_s <= 0 || c.bytes <= 0)
            continue;
        m.gpus = c.gpus;
        m.nodes = std::max(1, c.nodes);
        m.bytes = c.bytes;
        m.time_s = c.time_s;
        measured_.push_back(m);
    }
}

void CommModel::setMeasuredIntraBandwidth(double gbps)
{
    if (gbps > 0) {
        intra_bw_ = gbps * 1e9;
        intra_measured_ = true;
    }
}

double CommModel::busFactor(CollectiveOp op, int n)
{
    return busBandwidthFactor(op, n);
}

double CommModel::interBandwidthPerGroup(const GroupShape &g) const
{
    // All groups of this kind on a node cross the network at once and share its NICs;
    // one GPU cannot use more NICs than the node has per GPU of the group.
    return nic_bw_ * nics_per_node_ / std::max(1, g.concurrent);
}

double CommModel::ringTime(CollectiveOp op, double bytes, const GroupShape &g, Protocol p) const
{
    const int n = g.ranks;
    const ProtocolTraits tr = traits(p);
    // Ring bottleneck: the slowest hop. Inside a node every GPU sends on its own link;
    // between nodes each ring crossing shares the node's NICs (Patarasuk & Yuan 2009,
    // bandwidth-optimal all-reduce; NCCL rings one per channel/NIC).
    double bw = std::numeric_limits<double>::infinity();
    if (g.ranks_per_node > 1)
        bw = std::min(bw, intra_bw_);
    if (g.nodes > 1)
        bw = std::min(bw, interBandwidthPerGroup(g));
    bw *= tr.bandwidth;
    // One step of the ring in n crosses the network per node, the others a link inside it.
    const double intra_hop = intra_lat_ * (intra_nvlink_ ? tr.nvlink : tr.pcie);
    const double hop =
        g.nodes > 1 ? (g.nodes * inter_lat_ * tr.net + (n - g.nodes) * intra_hop) / n : intra_hop;
    double steps = 0, volume = 0;
    switch (op) {
    case CollectiveOp::AllReduce: // reduce-scatter + all-gather: 2(n-1) steps of S/n
        steps = 2.0 * (n - 1);
        volume = 2.0 * (n - 1) / n * bytes;
        break;
    case CollectiveOp::AllGather:
    case CollectiveOp::ReduceScatter:
        steps = n - 1;
        volume = (n - 1.0) / n * bytes;
        break;
    case CollectiveOp::Broadcast: // pipelined chain
        steps = n - 1;
        volume = bytes;
        break;
    case CollectiveOp::AllToAll: {
        // Each rank sends (n-1)/n of its buffer; across nodes the node's NICs carry what
        // its members send off-node (Thakur et al. 2005, pairwise exchange).
        const double off_node = g.nodes > 1 ? bytes * (n - g.ranks_per_node) / n : 0.0;
        const double on_node = bytes * (g.ranks_per_node - 1.0) / n;
        double t = 0;
        if (on_node > 0)
            t = std::max(t, on_node / (intra_bw_ * tr.bandwidth));
        if (off_node > 0)
            // The node's members send off-node together through their share of the NICs.
            t = std::max(t,
                         off_node * g.ranks_per_node / (interBandwidthPerGroup(g) * tr.bandwidth));
        return kBaseLatency + (n - 1) * hop + t;
    }
    }
    return kBaseLatency + steps * hop + volume / bw;
}

double CommModel::treeTime(CollectiveOp op, double bytes, const GroupShape &g, Protocol p) const
{
    // NCCL double binary tree between nodes, chain inside nodes (Sanders et al. 2009;
    // NCCL 2.4 release notes): bandwidth as a ring slightly derated, latency logarithmic.
    const ProtocolTraits tr = traits(p);
    double bw = std::numeric_limits<double>::infinity();
    if (g.ranks_per_node > 1)
        bw = std::min(bw, intra_bw_);
    if (g.nodes > 1)
        bw = std::min(bw, interBandwidthPerGroup(g));
    bw *= tr.bandwidth * kTreeBandwidthFactor;
    const double depth = std::ceil(std::log2(std::max(2, g.nodes)));
    const double intra_hop = intra_lat_ * (intra_nvlink_ ? tr.nvlink : tr.pcie);
    const double lat = 2.0 * (depth * inter_lat_ * tr.net + (g.ranks_per_node - 1) * intra_hop);
    const double factor = op == CollectiveOp::AllReduce ? 2.0 * (g.ranks - 1.0) / g.ranks : 1.0;
    return kBaseLatency + lat + factor * bytes / bw;
}

double CommModel::nvlsTime(CollectiveOp op, double bytes, const GroupShape &g) const
{
    // NVLink SHARP: the switch reduces (all-reduce) or multicasts (all-gather): each GPU
    // moves the data once.
    const double factor = op == CollectiveOp::AllReduce ? 1.0 : (g.ranks - 1.0) / g.ranks;
    return kBaseLatency + 2.0 * intra_lat_ + factor * bytes / nvls_bw_;
}

double CommModel::hierarchicalTime(CollectiveOp op, double bytes, const GroupShape &g) const
{
    // Reduce-scatter inside the node, all-reduce of each shard across nodes (one ring per
    // local rank, sharing the NICs), all-gather inside the node (Jia et al. 2018,
    // "Highly scalable deep learning training system with mixed-precision", Sec. 3.3).
    GroupShape local{g.ranks_per_node, g.ranks_per_node, 1, 1};
    GroupShape across{g.nodes, 1, g.nodes, g.concurrent * g.ranks_per_node};
    const double shard = bytes / g.ranks_per_node;
    double t = 0;
    if (op == CollectiveOp::AllReduce) {
        t += ringTime(CollectiveOp::ReduceScatter, bytes, local, Protocol::Simple);
        t += ringTime(CollectiveOp::AllReduce, shard, across, Protocol::Simple);
        t += ringTime(CollectiveOp::AllGather, bytes, local, Protocol::Simple);
    } else {
        t += ringTime(op, bytes, local, Protocol::Simple);
        t += ringTime(op, shard, across, Protocol::Simple);
    }
    return t;
}

const MeasuredCollective *CommModel::measuredFor(CollectiveOp op, const GroupShape &g, double bytes,
                                                 const MeasuredCollective **upper) const
{
    const MeasuredCollective *lo = nullptr, *hi = nullptr;
    for (const MeasuredCollective &m : measured_) {
        if (m.op != op || m.gpus != g.ranks || m.nodes != g.nodes)
            continue;
        if (m.bytes <= bytes && (!lo || m.bytes > lo->bytes))
            lo = &m;
        if (m.bytes >= bytes && (!hi || m.bytes < hi->bytes))
            hi = &m;
    }
    *upper = hi;
    return lo;
}

CollectiveCost CommModel::cost(CollectiveOp op, double bytes, const GroupShape &g,
                               CollectiveAlgo algo) const
{
    CollectiveCost c;
    if (bytes <= 0)
        return c;
    if (g.ranks <= 1) {
        // One rank: NCCL still launches the kernel, which copies the buffer out of place
        // (nccl-tests' default): a read and a write at memory bandwidth.
        c.time_s = kBaseLatency + (local_bw_ > 0 ? 2.0 * bytes / local_bw_ : 0.0);
        c.algbw_gbps = bytes / c.time_s / 1e9;
        c.busbw_gbps = c.algbw_gbps * busFactor(op, 1);
        return c;
    }

    const MeasuredCollective *hi = nullptr;
    const MeasuredCollective *lo = measuredFor(op, g, bytes, &hi);
    if (lo || hi) {
        // Calibrated: interpolate measured times linearly in size; beyond the measured
        // range, extrapolate at the nearest point's bus bandwidth.
        double t;
        if (lo && hi && hi->bytes > lo->bytes) {
            const double f = (bytes - lo->bytes) / (hi->bytes - lo->bytes);
            t = lo->time_s + f * (hi->time_s - lo->time_s);
        } else {
            const MeasuredCollective *m = lo ? lo : hi;
            t = m->time_s * bytes / m->bytes;
            if (!lo) // below the smallest measured size: latency bound
                t = m->time_s;
        }
        c.time_s = t;
        c.algorithm = CollectiveAlgo::Auto;
    } else {
        // At most 3 algorithms x 3 protocols: no allocation on this hot path.
        Candidate options[9] = {};
        int count = 0;
        const bool multi_node = g.nodes > 1;
        const bool nvlink = intra_bw_ > 0 && (g.ranks_per_node > 1);
        auto consider = [&](CollectiveAlgo a) {
            for (Protocol p : {Protocol::Simple, Protocol::LL128, Protocol::LL}) {
                if (p == Protocol::LL128 && !(nvlink && !multi_node))
                    continue; // LL128 needs NVLink-class ordering guarantees
                double t = 0;
                switch (a) {
                case CollectiveAlgo::Ring:
                    t = ringTime(op, bytes, g, p);
                    break;
                case CollectiveAlgo::Tree:
                    t = treeTime(op, bytes, g, p);
                    break;
                case CollectiveAlgo::NVLS:
                    if (p != Protocol::Simple)
                        continue;
                    t = nvlsTime(op, bytes, g);
                    break;
                case CollectiveAlgo::Hierarchical:
                    if (p != Protocol::Simple)
                        continue;
                    t = hierarchicalTime(op, bytes, g);
                    break;
                case CollectiveAlgo::Auto:
                    continue;
                }
                options[count++] = {t, a, p};
            }
        };
        const bool nvls_ok = supports(op, g, CollectiveAlgo::NVLS);
        const bool tree_ok = supports(op, g, CollectiveAlgo::Tree) && multi_node;
        const bool hier_ok = supports(op, g, CollectiveAlgo::Hierarchical);
        switch (algo) {
        case CollectiveAlgo::Auto:
            // NCCL's tuner picks the fastest algorithm/protocol pair by its cost model
            // (NCCL src/graph/tuning.cc); hierarchical is not an NCCL algorithm and is
            // only used when asked for.
            consider(CollectiveAlgo::Ring);
            if (tree_ok)
                consider(CollectiveAlgo::Tree);
            if (nvls_ok)
                consider(CollectiveAlgo::NVLS);
            break;
        case CollectiveAlgo::Ring:
            consider(CollectiveAlgo::Ring);
            break;
        case CollectiveAlgo::Tree:
            consider(op == CollectiveOp::AllReduce ? CollectiveAlgo::Tree : CollectiveAlgo::Ring);
            break;
        case CollectiveAlgo::NVLS:
            consider(nvls_ok ? CollectiveAlgo::NVLS : CollectiveAlgo::Ring);
            break;
        case CollectiveAlgo::Hierarchical:
            consider(hier_ok ? CollectiveAlgo::Hierarchical : CollectiveAlgo::Ring);
            break;
        }
        const auto best =
            std::min_element(options, options + count, [](const Candidate &a, const Candidate &b) {
                return a.time_s < b.time_s;
            });
        c.time_s = best->time_s;
        c.algorithm = best->algo;
        c.protocol = best->protocol;
    }
    c.algbw_gbps = bytes / c.time_s / 1e9;
    c.busbw_gbps = c.algbw_gbps * busFactor(op, g.ranks);
    return c;
}

bool CommModel::supports(CollectiveOp op, const GroupShape &g, CollectiveAlgo algo) const
{
    const bool reducing_or_gathering = op == CollectiveOp::AllReduce ||
                                       op == CollectiveOp::AllGather ||
                                       op == CollectiveOp::ReduceScatter;
    switch (algo) {
    case CollectiveAlgo::Auto:
    case CollectiveAlgo::Ring:
        return true;
    case CollectiveAlgo::Tree:
        return op == CollectiveOp::AllReduce;
    case CollectiveAlgo::NVLS:
        return nvls_ && g.nodes <= 1 && reducing_or_gathering;
    case CollectiveAlgo::Hierarchical:
        return g.nodes > 1 && g.ranks_per_node > 1 && reducing_or_gathering;
    }
    return true;
}

std::string CommModel::unsupportedReason(CollectiveOp op, const GroupShape &g,
                                         CollectiveAlgo algo) const
{
    if (supports(op, g, algo))
        return {};
    const bool reducing_or_gathering = op == CollectiveOp::AllReduce ||
                                       op == CollectiveOp::AllGather ||
                                       op == CollectiveOp::ReduceScatter;
    switch (algo) {
    case CollectiveAlgo::Auto:
    case CollectiveAlgo::Ring:
        return {};
    case CollectiveAlgo::Tree:
        // NCCL implements trees for all-reduce only (NCCL docs, NCCL_ALGO).
        if (op != CollectiveOp::AllReduce)
            return "tree runs all_reduce only (as in NCCL); use ring or auto";
        return {};
    case CollectiveAlgo::NVLS:
        if (!nvls_)
            return "nvls needs NVLink switches of generation 3 or later (nvlink4, nvlink5)";
        if (g.nodes > 1)
            return "nvls works inside one node; this group spans " + std::to_string(g.nodes) +
                   " nodes";
        if (!reducing_or_gathering)
            return "nvls runs all_reduce, all_gather and reduce_scatter only";
        return {};
    case CollectiveAlgo::Hierarchical:
        if (g.nodes <= 1 || g.ranks_per_node <= 1)
            return "hierarchical needs several nodes with several GPUs each";
        if (!reducing_or_gathering)
            return "hierarchical runs all_reduce, all_gather and reduce_scatter only";
        return {};
    }
    return {};
}

double GroupCostCache::time(CollectiveOp op, double bytes)
{
    for (const Entry &e : memo_)
        if (e.op == op && e.bytes == bytes)
            return e.time_s;
    const double t = comm_.cost(op, bytes, group_).time_s;
    memo_.push_back({op, bytes, t});
    return t;
}

TensorParallelCost::TensorParallelCost(const CommModel &comm, const Plan &plan)
    : plan_(plan), cache_(comm, plan.tensorGroup())
{
}

double TensorParallelCost::operator()(double bytes)
{
    if (plan_.tensor <= 1 || bytes <= 0)
        return 0;
    // Megatron-LM: two all-reduces per layer and pass (Shoeybi et al. 2019); with sequence
    // parallelism each becomes an all-gather + reduce-scatter (Korthikanti et al. 2022).
    if (plan_.sequence_parallel)
        return cache_.time(CollectiveOp::AllGather, bytes) +
               cache_.time(CollectiveOp::ReduceScatter, bytes);
    return cache_.time(CollectiveOp::AllReduce, bytes);
}

double CommModel::nodeHitProbability(double nodes, double top_k, RouterGroups groups)
{
    // Without groups the top_k experts are spread evenly over the nodes.
    const double spread = 1.0 - std::pow(1.0 - 1.0 / nodes, top_k);
    const double G = groups.groups, g = groups.picked;
    if (G <= 1 || g <= 0 || g >= G)
        return spread;
    // Group-limited routing (DeepSeek-V3 report, Sec. 2.1.2: node-limited routing, each
    // token sent to at most M = 4 nodes; DeepSeek-V2 report, Sec. 2.1.3): a token picks g
    // of the G groups, then its top_k experts among the picked groups' experts, taken here
    // as spread evenly over them. Megatron-Core places the experts in order over the
    // expert-parallel ranks and those in order over the nodes, so groups map onto nodes.
    const double per_node = G / nodes;
    if (per_node >= 1.0 && std::abs(per_node - std::round(per_node)) < 1e-9) {
        // Each node holds q whole groups; j of them picked (hypergeometric), the node then
        // receives a share j/g of the token's experts.
        const int q = static_cast<int>(std::round(per_node));
        const auto lchoose = [](double n, double k) {
            return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
        };
        double p = 0;
        for (int j = 1; j <= q && j <= g; ++j) {
            if (g - j > G - q)
                continue;
            const double pj = std::exp(lchoose(q, j) + lchoose(G - q, g - j) - lchoose(G, g));
            p += pj * (1.0 - std::pow(1.0 - j / g, top_k));
        }
        return p;
    }
    const double spans = nodes / G;
    if (spans > 1.0 && std::abs(spans - std::round(spans)) < 1e-9) {
        // Each group spans s nodes: the node's group is picked with chance g/G, and then
        // the token's experts lie on g x s nodes.
        return g / G * (1.0 - std::pow(1.0 - 1.0 / (g * spans), top_k));
    }
    return spread; // groups that straddle nodes: no node bound to count on
}

double CommModel::expertAllToAllTime(double tokens, double top_k, double token_bytes,
                                     const GroupShape &g, bool deepep, RouterGroups groups) const
{
    if (g.ranks <= 1 || tokens <= 0)
        return 0;
    const double n = g.ranks;
    const double copies = tokens * top_k * token_bytes;
    // Experts spread evenly over the group: (ranks_per_node - 1)/n of the copies stay on
    // this node (another GPU), (n - ranks_per_node)/n leave it (Thakur et al. 2005).
    // Group-limited routing does not change that share: every node is as likely to hold a
    // picked group, so an all-to-all that sends every copy moves the same bytes.
    const double on_node = copies * (g.ranks_per_node - 1.0) / n;
    double off_node = g.nodes > 1 ? copies * (n - g.ranks_per_node) / n : 0.0;
    double latency = (n - 1.0) * (g.nodes > 1 ? inter_lat_ : intra_lat_);
    if (deepep) {
        // DeepEP's normal kernels (deepseek-ai/DeepEP README; DeepSeek-V3 report, Sec.
        // 3.2.2): one RDMA transfer per (token, remote node) then NVLink forwarding; with
        // top_k picks over `nodes` nodes each remote node holds one of a token's experts
        // with chance 1 - (1 - 1/nodes)^k, less under group-limited routing
        // (nodeHitProbability). The kernels issue all peers at once: one network and one
        // NVLink latency.
        if (g.nodes > 1) {
            const double nodes = g.nodes;
            off_node =
                tokens * token_bytes * (nodes - 1.0) * nodeHitProbability(nodes, top_k, groups);
        }
        latency = (g.nodes > 1 ? inter_lat_ : 0.0) + intra_lat_;
    }
    double t = 0;
    if (on_node > 0)
        t = std::max(t, on_node / intra_bw_);
    if (off_node > 0)
        // The node's members send off-node together through their share of the NICs.
        t = std::max(t, off_node * g.ranks_per_node / interBandwidthPerGroup(g));
    return kBaseLatency + latency + t;
}

double CommModel::p2pTime(double bytes, bool crosses_nodes) const
{
    if (bytes <= 0)
        return 0;
    if (crosses_nodes) {
        // Every GPU of the node sends its stage boundary at the same time: each gets its
        // share of the node's NICs, at most one NIC's worth.
        const double share = nic_bw_ * nics_per_node_ / std::max(1, gpus_per_node_);
        return kBaseLatency + inter_lat_ + bytes / std::min(nic_bw_, share);
    }
    return kBaseLatency + intra_lat_ + bytes / intra_bw_;
}

} // namespace scalescope
