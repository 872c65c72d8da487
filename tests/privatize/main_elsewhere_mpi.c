/* tests/privatize/main_elsewhere_mpi.c — the MPI half of main_elsewhere.c. */
#include <mpi.h>

static int rank_of_app = -1; /* per rank */

int app_start(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_of_app);
    return rank_of_app;
}

int app_size(void)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

long app_sum(long mine)
{
    long total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    return total;
}

void app_end(void)
{
    MPI_Finalize();
}
