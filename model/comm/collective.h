// Collective and point-to-point communication cost on a cluster (alpha-beta model with
// NCCL-like algorithm and protocol choice).
#pragma once

#include "hardware/hardware.h"
#include "plan/plan.h"
#include "plan/scenario.h"

#include <string>
#include <vector>

namespace scalescope
{

enum class Protocol { Simple, LL128, LL };

struct CollectiveCost {
    double time_s = 0;
    CollectiveAlgo algorithm = CollectiveAlgo::Ring;
    Protocol protocol = Protocol::Simple;
    double algbw_gbps = 0; // nccl-tests definitions (doc/PERFORMANCE.md)
    double busbw_gbps = 0;
};

/// A measured collective point (calibration profile): replaces the model for that op and
/// group size, interpolated in size.
struct MeasuredCollective {
    CollectiveOp op = CollectiveOp::AllReduce;
    int gpus = 0;
    int nodes = 1;
    double bytes = 0;
    double time_s = 0;
};

class CommModel;

/// Bytes/s of one GPU's flow when GPUs without peer-to-peer stage their traffic through
/// host memory (NCCL SHM transport): bounded by the link, by a shared switch uplink
/// (hardware.pcie_topology) and by each CPU socket's memory bandwidth.
double hostStagedFlowBandwidth(const HardwareSpec &hw);

/// Collective times in one group, remembered per (op, size): a model's layers and buckets
/// use only a handful of sizes, and the engine asks for each once per replica.
class GroupCostCache
{
public:
    GroupCostCache(const CommModel &comm, const GroupShape &group) : comm_(comm), group_(group) {}
    double time(CollectiveOp op, double bytes);

private:
    struct Entry {
        CollectiveOp op;
        double bytes;
        double time_s;
    };
    const CommModel &comm_;
    GroupShape group_;
    std::vector<Entry> memo_;
};

/// Cost of one tensor-parallel exchange of `bytes` in a plan's tensor group: an all-reduce,
/// or an all-gather plus a reduce-scatter with sequence parallelism.
class TensorParallelCost
{
public:
    TensorParallelCost(const CommModel &comm, const Plan &plan);
    double operator()(double bytes);

private:
    const Plan &plan_;
    GroupCostCache cache_;
};

class CommModel
{
public:
    /// Datasheet figures, replaced by the measured ones of hw.calibration when present:
    /// its collectives (per op, GPU and node count, interpolated in size) and its
    /// peer-to-peer bandwidth.
    explicit CommModel(const HardwareSpec &hw);

    /// Cost of `op` over `bytes` (nccl-tests' size: the larger of input and output).
    CollectiveCost cost(CollectiveOp op, double bytes, const GroupShape &group,
                        CollectiveAlgo algo = CollectiveAlgo::Auto) const;
    /// Why `algo` cannot run `op` on `group` here ("" when it can). `cost` falls back to
    /// the ring for such requests; user-facing callers report this instead.
    std::string unsupportedReason(CollectiveOp op, const GroupShape &group,
                                  CollectiveAlgo algo) const;
    bool supports(CollectiveOp op, const GroupShape &group, CollectiveAlgo algo) const;
    /// One point-to-point transfer between two GPUs.
    double p2pTime(double bytes, bool crosses_nodes) const;
    /// An MoE dispatch (or combine): each rank of `g` sends `tokens` token vectors of
    /// `token_bytes` to `top_k` experts spread evenly over the group. NCCL's all-to-all sends
    /// every copy; DeepEP (`deepep`) sends a token once to each remote node holding one of its
    /// experts and forwards it over NVLink there; under group-limited routing (`groups`:
    /// the experts' groups and how many of them a token picks, {0, 0} for none) fewer
    /// remote nodes hold a token's experts.
    struct RouterGroups {
        double groups = 0;
        double picked = 0;
    };
    double expertAllToAllTime(double tokens, double top_k, double token_bytes, const GroupShape &g,
                              bool deepep, RouterGroups groups) const;
    /// The chance that a given node of `nodes` (the expert group's experts laid out in
    /// order over them) holds at least one of a token's `top_k` experts.
    static double nodeHitProbability(double nodes, double top_k, RouterGroups groups);

    /// Effective (achievable) bandwidths in bytes/s.
    double intraBandwidth() const { return intra_bw_; }
    /// The node's GPU-to-GPU traffic is staged through host memory (GPUs without
    /// peer-to-peer on PCIe, or virtual GPUs routed through the host).
    bool hostStaged() const { return host_staged_; }
    /// The node's GPUs reach each other over NVLink-class links (else PCIe).
    bool intraNvlink() const { return intra_nvlink_; }

    bool calibrated() const { return !measured_.empty() || intra_measured_; }
    void setMeasuredIntraBandwidth(double gbps);

    /// nccl-tests bus-bandwidth factor for op over n ranks.
    static double busFactor(CollectiveOp op, int n);

private:
    void applyProfile(const CalibrationProfile &profile);
    struct Candidate {
        double time_s;
        CollectiveAlgo algo;
        Protocol protocol;
    };
    double ringTime(CollectiveOp op, double bytes, const GroupShape &g, Protocol p) const;
    double treeTime(CollectiveOp op, double bytes, const GroupShape &g, Protocol p) const;
    double nvlsTime(CollectiveOp op, double bytes, const GroupShape &g) const;
    double hierarchicalTime(CollectiveOp op, double bytes, const GroupShape &g) const;
    double interBandwidthPerGroup(const GroupShape &g) const;
    const MeasuredCollective *measuredFor(CollectiveOp op, const GroupShape &g, double bytes,
                                          const MeasuredCollective **upper) const;

    int gpus_per_node_ = 1;
    int nics_per_node_ = 1;
    double intra_bw_ = 0; // bytes/s per GPU per direction, achievable by NCCL
    double local_bw_ = 0; // one GPU's memory bandwidth (a one-rank collective's copy)
    double intra_lat_ = 0;
    bool intra_nvlink_ = false; // NVLink-class hops inside a node (else PCIe) for latency
    double nic_bw_ = 0; // bytes/s per NIC, achievable
    double inter_lat_ = 0;
    bool nvls_ = false;
    bool host_staged_ = false;
    double nvls_bw_ = 0;
    std::vector<MeasuredCollective> measured_;
    bool intra_measured_ = false;
};

} // namespace scalescope
