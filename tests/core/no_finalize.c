/* A rank whose main returns without MPI_Finalize is finalized for it, with a warning, and
 * the other ranks do not hang in theirs. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        return 0;
    MPI_Finalize();
    return 0;
}
