/* Under the default handler (MPI_ERRORS_ARE_FATAL) an operation not defined on the type
 * prints "loom: rank 0: MPI_Reduce_local: MPI_LAND is not defined on MPI_DOUBLE" and the job
 * ends with status 1. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        double a = 1, b = 2;
        MPI_Reduce_local(&a, &b, 1, MPI_DOUBLE, MPI_LAND);
    }
    MPI_Finalize();
    return 0;
}
