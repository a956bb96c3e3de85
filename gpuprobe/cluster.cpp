#include "cluster.h"

#include <cstdlib>

#if GPUPROBE_HAVE_MPI
#include <mpi.h>
#endif

namespace scalescope::gpuprobe
{

namespace
{

int envInt(const char *name)
{
    const char *value = std::getenv(name);
    return value ? std::atoi(value) : 0;
}

#if GPUPROBE_HAVE_MPI
class MpiCluster final : public Cluster
{
public:
    MpiCluster()
    {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
        // Ranks sharing memory are one node (MPI 3.0, MPI_COMM_TYPE_SHARED).
        MPI_Comm local;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
        MPI_Comm_rank(local, &local_rank_);
        MPI_Comm_free(&local);
        int leader = local_rank_ == 0 ? 1 : 0;
        MPI_Allreduce(&leader, &nodes_, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    int localRank() const override { return local_rank_; }
    int nodes() const override { return nodes_; }
    void broadcast(void *data, size_t bytes) override
    {
        MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    double maxOverRanks(double value) override
    {
        double out = value;
        MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        return out;
    }
    double sumOverRanks(double value) override
    {
        double out = value;
        MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        return out;
    }

private:
    int rank_ = 0, size_ = 1, local_rank_ = 0, nodes_ = 1;
};
#endif

} // namespace

bool builtWithMpi()
{
    return GPUPROBE_HAVE_MPI != 0;
}

bool launchedByMpi()
{
    // Open MPI, MPICH/Hydra and PMI, PMIx, Slurm's srun.
    for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
        if (envInt(name) > 1)
            return true;
    return std::getenv("PMIX_RANK") && envInt("SLURM_NTASKS") > 1;
}

std::unique_ptr<Cluster> startCluster(int *argc, char ***argv, std::string *note)
{
    if (!launchedByMpi())
        return std::make_unique<Cluster>();
#if GPUPROBE_HAVE_MPI
    (void)note;
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided);
    return std::make_unique<MpiCluster>();
#else
    (void)argc;
    (void)argv;
    if (note)
        *note = "started by an MPI launcher, but gpuprobe was built without MPI: each rank "
                "measures alone";
    return std::make_unique<Cluster>();
#endif
}

void stopCluster(std::unique_ptr<Cluster> cluster)
{
#if GPUPROBE_HAVE_MPI
    const bool mpi = dynamic_cast<MpiCluster *>(cluster.get()) != nullptr;
    cluster.reset();
    if (mpi)
        MPI_Finalize();
#else
    cluster.reset();
#endif
}

} // namespace scalescope::gpuprobe
