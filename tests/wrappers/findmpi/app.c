/* Built with FindMPI's MPI::MPI_C: the flags FindMPI read from loom's mpicc bring the
 * privatization plugin, so the global is per rank; each rank checks it kept its own value
 * (not when loom has no plugin: LOOMWR_NO_PLUGIN, from tests/wrappers/run.sh). */
#include <mpi.h>
#include <stdio.h>

int mine;

int main(int argc, char **argv)
{
    int rank, size, bad, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = 1000 + rank;
    MPI_Barrier(MPI_COMM_WORLD);
#ifdef LOOMWR_NO_PLUGIN
    bad = 0;
#else
    bad = mine != 1000 + rank;
#endif
    MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (total == 0)
        printf("findmpi-c %d of %d\n", rank, size);
    else if (bad)
        printf("rank %d: global %d, expected %d\n", rank, mine, 1000 + rank);
    MPI_Finalize();
    return total != 0;
}
