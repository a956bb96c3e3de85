// The processes taking part in a multi-node run: one (the default), or the ranks of an MPI
// job started with mpirun, which exchange NCCL's unique id and the slowest rank's time.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace scalescope::gpuprobe
{

class Cluster
{
public:
    virtual ~Cluster() = default;
    virtual int rank() const { return 0; }
    virtual int size() const { return 1; }
    /// Rank within this node (picks the GPU) and the node count.
    virtual int localRank() const { return 0; }
    virtual int nodes() const { return 1; }
    /// Copies `bytes` from rank 0 to every rank.
    virtual void broadcast(void * /*data*/, size_t /*bytes*/) {}
    /// The largest `value` over all ranks (the slowest rank sets a collective's time).
    virtual double maxOverRanks(double value) { return value; }
    /// The sum of `value` over all ranks (failed checks, agreed on by every rank).
    virtual double sumOverRanks(double value) { return value; }
};

/// Starts MPI when the program runs under mpirun/srun (Open MPI, MPICH, PMIx or Slurm
/// variables set) and gpuprobe was built with MPI; otherwise a one-process cluster.
/// `note` receives why MPI is not used when the launch looks like an MPI one.
std::unique_ptr<Cluster> startCluster(int *argc, char ***argv, std::string *note);
/// Ends MPI if startCluster started it.
void stopCluster(std::unique_ptr<Cluster> cluster);
/// Whether this build can run across nodes (MPI found at configure time).
bool builtWithMpi();
/// Whether the environment says this process was started by an MPI launcher with more
/// than one rank.
bool launchedByMpi();

} // namespace scalescope::gpuprobe
