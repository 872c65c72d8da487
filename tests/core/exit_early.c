/* A rank calling exit(code) before MPI_Finalize ends the whole job with that code, while the
 * other ranks wait in MPI_Finalize. */
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1)
        exit(7);
    MPI_Finalize();
    return 0;
}
