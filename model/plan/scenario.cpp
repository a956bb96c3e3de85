#include "plan/scenario.h"

#include <cmath>
#include <limits>

namespace scalescope
{

const char *scheduleName(Schedule s)
{
    switch (s) {
    case Schedule::GPipe:
        return "gpipe";
    case Schedule::OneFOneB:
        return "1f1b";
    case Schedule::Interleaved:
        return "interleaved";
    case Schedule::ZbH1:
        return "zb-h1";
    case Schedule::ZbV:
        return "zb-v";
    case Schedule::DualPipe:
        break;
    }
    return "dualpipe";
}

const char *contextAlgorithmName(ContextAlgorithm a)
{
    return a == ContextAlgorithm::Ring ? "ring" : "all_to_all";
}

const char *blockFormatName(BlockFormat f)
{
    switch (f) {
    case BlockFormat::MXFP8:
        return "mxfp8";
    case BlockFormat::NVFP4:
        return "nvfp4";
    case BlockFormat::None:
        break;
    }
    return "";
}

const char *memoryFormatName(MemoryFormat f)
{
    return f == MemoryFormat::NCHW ? "nchw" : "nhwc";
}

const char *recomputeModuleName(RecomputeModule m)
{
    switch (m) {
    case RecomputeModule::CoreAttn:
        return "core_attn";
    case RecomputeModule::Layernorm:
        return "layernorm";
    case RecomputeModule::MoeAct:
        return "moe_act";
    case RecomputeModule::MlaUpProj:
        return "mla_up_proj";
    case RecomputeModule::Mlp:
        return "mlp";
    case RecomputeModule::Moe:
        return "moe";
    case RecomputeModule::SharedExperts:
        return "shared_experts";
    }
    return "";
}

std::string recomputeModuleList(unsigned set)
{
    std::string out;
    for (const RecomputeModule m : kRecomputeModules) {
        if (hasModule(set, m))
            out += std::string(out.empty() ? "" : ", ") + recomputeModuleName(m);
    }
    return out;
}

const char *expertDispatcherName(ExpertDispatcher d)
{
    return d == ExpertDispatcher::DeepEP     ? "deepep"
           : d == ExpertDispatcher::HybridEP ? "hybridep"
                                             : "all_to_all";
}

bool splitsBackward(Schedule s)
{
    return s == Schedule::ZbH1 || s == Schedule::ZbV || s == Schedule::DualPipe;
}

int scheduleChunks(Schedule s)
{
    return s == Schedule::ZbV || s == Schedule::DualPipe ? 2 : 1;
}

double busBandwidthFactor(CollectiveOp op, int ranks)
{
    const double n = ranks < 1 ? 1.0 : static_cast<double>(ranks);
    switch (op) {
    case CollectiveOp::AllReduce:
        return 2.0 * (n - 1.0) / n;
    case CollectiveOp::AllGather:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::AllToAll:
        return (n - 1.0) / n;
    case CollectiveOp::Broadcast:
        break;
    }
    return 1.0;
}

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
