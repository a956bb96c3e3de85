// Built without the CUDA toolkit: the program still runs, reports "built without CUDA" and
// exits with 3; --from-nccl-tests and --fake-gpus work as usual.
#include "cli.h"
#include "fake_backend.h"

namespace scalescope::gpuprobe
{

std::unique_ptr<Backend> makeCudaBackend()
{
    FakeBackend::Config config;
    config.gpus = 0;
    config.init_call = "build";
    config.init_failure = "built without CUDA";
    return std::make_unique<FakeBackend>(config);
}

bool builtWithCuda()
{
    return false;
}

} // namespace scalescope::gpuprobe
