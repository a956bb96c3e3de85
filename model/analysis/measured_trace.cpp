// Kernel classes by name (measured_trace.h): spec/cli.md, section "trace".
#include "analysis/measured_trace.h"

#include <string_view>
#include <utility>

namespace scalescope
{

const char *commKindName(CommKind kind)
{
    switch (kind) {
    case CommKind::None:
        return "";
    case CommKind::AllReduce:
        return "AllReduce";
    case CommKind::AllGather:
        return "AllGather";
    case CommKind::ReduceScatter:
        return "ReduceScatter";
    case CommKind::AllToAll:
        return "AllToAll";
    case CommKind::Broadcast:
        return "Broadcast";
    case CommKind::SendRecv:
        return "SendRecv";
    case CommKind::Other:
        return "Other";
    }
    return "";
}

namespace
{

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Case-insensitive substring test; `word` is lower case.
bool containsNoCase(std::string_view text, std::string_view word)
{
    if (word.size() > text.size())
        return false;
    for (size_t i = 0; i + word.size() <= text.size(); ++i) {
        size_t j = 0;
        while (j < word.size() && lower(text[i + j]) == word[j])
            ++j;
        if (j == word.size())
            return true;
    }
    return false;
}

// spec/cli.md "trace": a DeepEP kernel's name contains `deep_ep::` or `dpsk::ep::` followed
// by `intranode::`, `internode::` or `internode_ll::` (DeepSeek's DeepEP, its public and
// internal namespaces; case as written).
bool isDeepEp(std::string_view name)
{
    static constexpr std::string_view kPrefixes[] = {"deep_ep::", "dpsk::ep::"};
    static constexpr std::string_view kSpaces[] = {"intranode::", "internode::", "internode_ll::"};
    for (std::string_view prefix : kPrefixes) {
        for (size_t at = name.find(prefix); at != std::string_view::npos;
             at = name.find(prefix, at + 1)) {
            const std::string_view rest = name.substr(at + prefix.size());
            for (std::string_view space : kSpaces) {
                if (rest.substr(0, space.size()) == space)
                    return true;
            }
        }
    }
    return false;
}

} // namespace

KernelClass classifyKernel(const char *name, size_t length)
{
    const std::string_view n(name, length);
    // spec/cli.md "trace": an nccl kernel's kind is the first of these its name contains (any
    // case); failing those SendRecv when it names Send or Recv, else Other.
    if (containsNoCase(n, "nccl")) {
        static constexpr std::pair<std::string_view, CommKind> kWords[] = {
            {"allreduce", CommKind::AllReduce},
            {"allgather", CommKind::AllGather},
            {"reducescatter", CommKind::ReduceScatter},
            {"alltoall", CommKind::AllToAll},
            {"broadcast", CommKind::Broadcast},
            {"send", CommKind::SendRecv},
            {"recv", CommKind::SendRecv}};
        for (const auto &[word, kind] : kWords) {
            if (containsNoCase(n, word))
                return {ActivityClass::Communication, kind};
        }
        return {ActivityClass::Communication, CommKind::Other};
    }
    // spec/cli.md "trace": DeepEP kernels are AllToAll.
    if (isDeepEp(n))
        return {ActivityClass::Communication, CommKind::AllToAll};
    return {ActivityClass::Compute, CommKind::None};
}

HostWait hostWaitOf(const char *name, size_t length)
{
    // The calls that return only once the GPU work they wait for is done (CUDA Runtime API
    // reference, "Device Management", "Stream Management", "Event Management", "Memory
    // Management": cudaMemcpy is synchronous for most kinds of transfer; driver API alike).
    static constexpr std::pair<std::string_view, HostWait> kCalls[] = {
        {"cudaDeviceSynchronize", HostWait::Device},
        {"cuCtxSynchronize", HostWait::Device},
        {"cudaStreamSynchronize", HostWait::Stream},
        {"cuStreamSynchronize", HostWait::Stream},
        {"cudaEventSynchronize", HostWait::Event},
        {"cuEventSynchronize", HostWait::Event},
        {"cudaMemcpy", HostWait::Memcpy},
        {"cudaMemcpy2D", HostWait::Memcpy},
        {"cuMemcpyDtoH_v2", HostWait::Memcpy},
        {"cuMemcpyHtoD_v2", HostWait::Memcpy},
        {"cudaEventQuery", HostWait::Poll},
        {"cudaStreamQuery", HostWait::Poll},
        {"cuEventQuery", HostWait::Poll},
        {"cuStreamQuery", HostWait::Poll}};
    const std::string_view n(name, length);
    for (const auto &[call, wait] : kCalls) {
        if (n == call)
            return wait;
    }
    return HostWait::None;
}

} // namespace scalescope
