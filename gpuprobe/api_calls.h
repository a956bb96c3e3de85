// The table of every CUDA runtime, cuBLAS(Lt), NCCL and NVML function the real backend
// (cuda_backend.cu, dynamic_libs.cpp) calls, each with the Backend method ("fault point")
// that makes it and what a failure of it does. The fake backend fails calls by these names
// (FakeBackend::failApi), and tests/gpuprobe/tst_probe_faults.cpp checks both directions:
// every such call in the two source files is listed here, and failing each listed call
// makes a run that records it and goes on. A new call added without a row fails that test.
#pragma once

#include <string_view>
#include <vector>

namespace scalescope::gpuprobe
{

enum class FaultEffect {
    /// The method returns the failure, named after this call; the run records it.
    Reported,
    /// The failure of a kernel launch, read by cudaGetLastError right after it: recorded
    /// under the kernel's name ("copy<<<>>>").
    LaunchError,
    /// Cleanup (free, destroy, shutdown): the failure is ignored on purpose; the run goes on.
    Ignored,
    /// Only turns an error code that is already being reported into text (or clears it);
    /// there is nothing to fail.
    ErrorText,
};

struct ApiCall {
    const char *name;        // the library function ("cudaMalloc", "ncclAllReduce")
    const char *library;     // "cuda", "cublas", "nccl" or "nvml"
    const char *fault_point; // the Backend method, with a variant in parentheses
    FaultEffect effect;
};

/// Every row; one call may have several rows (one per method that makes it).
const std::vector<ApiCall> &apiCalls();
/// Whether `name` has a row.
bool isKnownApiCall(std::string_view name);
const char *faultEffectName(FaultEffect effect);

} // namespace scalescope::gpuprobe
