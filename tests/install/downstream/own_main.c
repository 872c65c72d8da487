/* The opt-out from main renaming: the program keeps its main and starts the ranks itself
 * with loom_run; linked with the bare library (loom::lib), without libloom-main. */
#define LOOM_NO_MAIN_RENAME
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

static int rank_main(int argc, char **argv)
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

int main(int argc, char **argv)
{
    return loom_run(argc, argv, rank_main);
}
