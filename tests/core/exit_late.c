/* A rank calling exit(code) after MPI_Finalize ends only itself: the others go on and print,
 * and the job's status is that code. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Finalize();
    if (rank == size - 1 && size > 1)
        exit(5);
    if (rank == 0) {
        printf("rank 0 still running after the exit of rank %d\n", size - 1);
        fflush(stdout);
    }
    return size > 1 ? 0 : 5;
}
