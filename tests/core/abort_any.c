/* MPI_Abort from the last rank ends the job with its code while rank 0 waits in
 * MPI_Finalize (and others block in a barrier). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1)
        MPI_Abort(MPI_COMM_WORLD, 9);
    if (rank == 0)
        MPI_Finalize();
    else
        MPI_Barrier(MPI_COMM_WORLD);
    return 0;
}
