// The `gpuprobe` program: options, the run, the profile file and the exit code.
#pragma once

#include "backend.h"
#include "cluster.h"

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace scalescope::gpuprobe
{

/// Exit codes (README.md).
enum ExitCode : int {
    kExitOk = 0,
    kExitFailure = 1,      // the profile lists errors, or could not be written
    kExitBadArguments = 2, // bad options or unreadable input (nccl-tests logs)
    kExitNoGpu = 3,        // built without CUDA, no driver, no device
};

/// The real backend (CUDA); without CUDA one whose init says "built without CUDA".
std::unique_ptr<Backend> makeCudaBackend();
bool builtWithCuda();

using BackendFactory = std::function<std::unique_ptr<Backend>()>;

/// Runs the program on `args` (without the program name). Progress lines go to `out`
/// (with --progress), messages to `err`. `factory` makes the backend (tests inject one).
int gpuprobeMain(const std::vector<std::string> &args, Cluster &cluster,
                 const BackendFactory &factory, std::FILE *out, std::FILE *err);

} // namespace scalescope::gpuprobe
