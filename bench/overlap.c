/* overlap.c — how much of a nonblocking transfer hides behind computation.
 *
 * The method of the PIOMan paper (Trahay & Denis 2009, Section V.C) and of OSU's overlap
 * benchmarks: for each message size, first measure T_comm, the time of the transfer alone on
 * the measured side (start, then wait at once); then size a computation to T_comm and measure
 * T_total = start; compute; wait. Then
 *     overlap = 1 - (T_total - T_comp) / T_comm
 * 1 means the transfer was entirely hidden, 0 that it was serialized with the computation.
 * Sides: computation on the sender (rank 0: Isend, compute, Wait; rank 1 receives with
 * MPI_Recv), on the receiver (rank 1: Irecv, compute, Wait; rank 0 sends with MPI_Send), and
 * on both (each posts, computes, waits; the slower side is reported).
 * The computation is a calibrated arithmetic loop that makes no library call, so no MPI
 * library can sneak progress into it. Times are medians over repetitions.
 * A plain MPI program: builds unchanged against loom, MPICH and Open MPI; 2 ranks.
 * Output: CSV lines "overlap_<side>,<bytes>,<value>,<unit>" for value = overlap (ratio),
 * t_comm and t_total (us). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

static volatile double sink;
static double iters_per_us;

/* Burn about `us` microseconds of CPU without calling anything. */
static void compute(double us)
{
    long n = (long)(us * iters_per_us);
    double x = 1.0;
    for (long i = 0; i < n; i++)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

static void calibrate(void)
{
    long n = 1 << 22;
    double best = 1e30;
    for (int k = 0; k < 5; k++) {
        double t0 = MPI_Wtime();
        iters_per_us = 1; /* compute(n) does n iterations */
        compute((double)n);
        double t = MPI_Wtime() - t0;
        if (t < best)
            best = t;
    }
    iters_per_us = (double)n / (best * 1e6);
}

enum side { SENDER, RECEIVER, BOTH };
static const char *side_name[] = {"sender", "receiver", "both"};

/* One timed exchange; returns this rank's time (us) of start..wait with `comp_us` of
 * computation in between on the sides that compute. */
static double exchange(enum side side, char *buf, int n, double comp_us, int rank,
                       double *comp_out)
{
    MPI_Request req;
    double t0, t, c0, c = 0;
    int computes = side == BOTH || (side == SENDER && rank == 0) || (side == RECEIVER && rank == 1);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (rank == 0) {
        if (computes) {
            MPI_Isend(buf, n, MPI_CHAR, 1, 9, MPI_COMM_WORLD, &req);
            c0 = MPI_Wtime();
            compute(comp_us);
            c = MPI_Wtime() - c0;
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Send(buf, n, MPI_CHAR, 1, 9, MPI_COMM_WORLD);
        }
    } else {
        if (computes) {
            MPI_Irecv(buf, n, MPI_CHAR, 0, 9, MPI_COMM_WORLD, &req);
            c0 = MPI_Wtime();
            compute(comp_us);
            c = MPI_Wtime() - c0;
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, n, MPI_CHAR, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    t = (MPI_Wtime() - t0) * 1e6;
    /* the reported time is the measured side's (the slower one for BOTH) */
    /* the slower computing side's total, and its own measured computation time */
    double mine[2] = {computes ? t : 0, c * 1e6}, other[2];
    MPI_Sendrecv(mine, 2, MPI_DOUBLE, 1 - rank, 10, other, 2, MPI_DOUBLE, 1 - rank, 10,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double *w = mine[0] >= other[0] ? mine : other;
    if (comp_out)
        *comp_out = w[1];
    return w[0];
}

int main(int argc, char **argv)
{
    int rank, size, reps = 30;
    static const int sizes[] = {32 * 1024, 1024 * 1024, 4 * 1024 * 1024};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "overlap: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--quick"))
            reps = 5;
    calibrate();
    double *t = malloc(sizeof(double) * (size_t)reps);
    char *buf = malloc(sizes[2]);
    memset(buf, rank, sizes[2]);
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        for (int w = 0; w < 3; w++) /* warm-up: first touch, matching structures */
            exchange(SENDER, buf, n, 0, rank, NULL);
        for (int side = SENDER; side <= BOTH; side++) {
            for (int r = 0; r < reps; r++)
                t[r] = exchange(side, buf, n, 0, rank, NULL);
            double t_comm = bench_median(t, reps);
            /* each repetition's overlap from its own measured computation time */
            for (int r = 0; r < reps; r++) {
                double comp;
                double total = exchange(side, buf, n, t_comm, rank, &comp);
                t[r] = 1.0 - (total - comp) / t_comm;
            }
            double overlap = bench_median(t, reps);
            if (overlap < 0)
                overlap = 0;
            if (overlap > 1)
                overlap = 1;
            for (int r = 0; r < reps; r++)
                t[r] = exchange(side, buf, n, t_comm, rank, NULL);
            double t_total = bench_median(t, reps);
            if (rank == 0) {
                printf("overlap_%s,%d,%.3f,ratio\n", side_name[side], n, overlap);
                printf("t_comm_%s,%d,%.2f,us\n", side_name[side], n, t_comm);
                printf("t_total_%s,%d,%.2f,us\n", side_name[side], n, t_total);
                fflush(stdout);
            }
        }
    }
    free(t);
    free(buf);
    MPI_Finalize();
    return 0;
}
