/* A tiny MPI program for the packaging tests: every rank checks the size it was told to
 * expect (argv[1]) and prints "downstream R of N" in rank order. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, want = argc > 1 ? atoi(argv[1]) : 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != want) {
        fprintf(stderr, "rank %d: MPI_Comm_size got %d, expected %d\n", rank, size, want);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    for (int r = 0; r < size; r++) {
        if (r == rank)
            printf("downstream %d of %d\n", rank, size);
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
