// gpuprobe: measures this machine's GPUs and writes a ScaleScope calibration profile.
#include "cli.h"

#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
    using namespace scalescope::gpuprobe;
    // A reader that goes away (`gpuprobe --progress | head -1`) must not kill the run
    // before it writes the profile: writes to it fail with EPIPE instead (cli.cpp).
    std::signal(SIGPIPE, SIG_IGN);
    std::string note;
    std::unique_ptr<Cluster> cluster = startCluster(&argc, &argv, &note);
    if (!note.empty())
        std::fprintf(stderr, "gpuprobe: %s\n", note.c_str());
    const std::vector<std::string> args(argv + 1, argv + argc);
    const int code = gpuprobeMain(args, *cluster, makeCudaBackend, stdout, stderr);
    stopCluster(std::move(cluster));
    return code;
}
