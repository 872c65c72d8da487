/* Built with loom::loom and loom::privatize: the global is per rank. Every rank stores its own
 * value, waits for all to have stored, and prints "downstream R of N" in rank order only if it
 * reads its own value back. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int mine;

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = 1000 + rank;
    MPI_Barrier(MPI_COMM_WORLD);
    if (mine != 1000 + rank) {
        fprintf(stderr, "rank %d: the global is %d, expected %d\n", rank, mine, 1000 + rank);
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
