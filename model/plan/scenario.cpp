#include "plan/scenario.h"

namespace scalescope
{

const char *collectiveOpName(CollectiveOp op)
{
    switch (op) {
    case CollectiveOp::AllReduce:
        return "all_reduce";
    case CollectiveOp::AllGather:
        return "all_gather";
    case CollectiveOp::ReduceScatter:
        return "reduce_scatter";
    case CollectiveOp::Broadcast:
        return "broadcast";
    case CollectiveOp::AllToAll:
        return "all_to_all";
    }
    return "unknown";
}

const char *collectiveAlgoName(CollectiveAlgo a)
{
    switch (a) {
    case CollectiveAlgo::Auto:
        return "auto";
    case CollectiveAlgo::Ring:
        return "ring";
    case CollectiveAlgo::Tree:
        return "tree";
    case CollectiveAlgo::NVLS:
        return "nvls";
    case CollectiveAlgo::Hierarchical:
        return "hierarchical";
    }
    return "unknown";
}

} // namespace scalescope
