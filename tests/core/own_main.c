/* The opt-out: a program that keeps its own main (LOOM_NO_MAIN_RENAME) and starts the ranks
 * with loom_run(); the job status comes back as loom_run's result. */
#define LOOM_NO_MAIN_RENAME
#include <stdio.h>
#include <mpi.h>
#include "check.h"

static int ranks_main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    return rank == 1 ? 4 : 0;
}

int main(int argc, char **argv)
{
    int status = loom_run(argc, argv, ranks_main);
    printf("loom_run returned %d\n", status);
    return status == 4 ? 0 : 1;
}
