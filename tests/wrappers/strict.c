/* Built through mpicc with -Wall -Wextra -Werror -pedantic: mpi.h must not warn. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, sum = 0, one = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size)
        printf("rank %d: sum %d, expected %d\n", rank, sum, size);
    else
        printf("strict c %d of %d\n", rank, size);
    MPI_Finalize();
    return sum != size;
}
