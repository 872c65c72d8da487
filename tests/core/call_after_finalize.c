/* An MPI call after MPI_Finalize is reported the same way. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return 0;
}
