/* scale.c — what a job costs as it grows: start, a message to every neighbour or to every
 * rank, finalize, and the memory of the whole process.
 *
 * Usage: scale [ring|all]   (default ring)
 *   ring  every rank sends 8 bytes to its right neighbour and receives from its left one
 *         (each rank touches one pair: the cheapest traffic a job has);
 *   all   every rank sends 8 bytes to every other rank (all pairs touched: what per-pair
 *         state costs at its worst).
 * The driver (bench/run_scale.py) passes SCALE_T0, its wall clock (CLOCK_REALTIME seconds)
 * just before it started the job, and times the job's end itself. Rank 0 prints CSV lines:
 *   start,<ranks>,<seconds>,s       from SCALE_T0 to every rank being past MPI_Init
 *                                   (a barrier after it)
 *   traffic,<ranks>,<seconds>,s     the exchange above, barrier to barrier
 *   rss,<ranks>,<KiB>,KiB           the process's peak resident memory, before MPI_Finalize
 *   t_finalize_start,<ranks>,<seconds since the epoch>,s   when rank 0 enters MPI_Finalize
 * For one process per rank (MPICH, Open MPI) rss is rank 0's own; loom runs one process for
 * the whole job, so its rss covers every rank.
 * A plain MPI program: all state is in locals (under loom every rank runs main in the same
 * process). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    double started = wall();
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int all = argc > 1 && strcmp(argv[1], "all") == 0;
    const char *t0 = getenv("SCALE_T0");

    double t1 = MPI_Wtime();
    long out = rank, in = -1;
    if (!all) {
        MPI_Sendrecv(&out, 1, MPI_LONG, (rank + 1) % size, 0, &in, 1, MPI_LONG,
                     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (in != (rank + size - 1) % size)
            MPI_Abort(MPI_COMM_WORLD, 2);
    } else {
        long *got = malloc(sizeof *got * (size_t)size);
        MPI_Request *req = malloc(sizeof *req * 2 * (size_t)size);
        if (!got || !req)
            MPI_Abort(MPI_COMM_WORLD, 3);
        for (int p = 0; p < size; p++)
            MPI_Irecv(&got[p], 1, MPI_LONG, p, 0, MPI_COMM_WORLD, &req[p]);
        for (int p = 0; p < size; p++)
            MPI_Isend(&out, 1, MPI_LONG, p, 0, MPI_COMM_WORLD, &req[size + p]);
        MPI_Waitall(2 * size, req, MPI_STATUSES_IGNORE);
        for (int p = 0; p < size; p++)
            if (got[p] != p)
                MPI_Abort(MPI_COMM_WORLD, 2);
        free(got);
        free(req);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t2 = MPI_Wtime();

    if (rank == 0) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        if (t0)
            printf("start,%d,%.6f,s\n", size, started - atof(t0));
        printf("traffic,%d,%.6f,s\n", size, t2 - t1);
        printf("rss,%d,%ld,KiB\n", size, ru.ru_maxrss);
        printf("t_finalize_start,%d,%.6f,s\n", size, wall());
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
