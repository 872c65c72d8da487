/* bench/persist.c — what a started persistent allreduce costs per iteration against the
 * nonblocking one it replaces: MPI_Start + MPI_Wait of an MPI_Allreduce_init request (its
 * schedule built once, reset and rerun by each start) versus MPI_Iallreduce + MPI_Wait (a
 * schedule built, run and freed per call).
 *
 * A plain MPI program (standard calls only, all its state in locals: under loom every rank
 * runs main() in the same process). For each size (--bytes, default 8 and 65536; MPI_DOUBLE
 * of that many bytes, at least one, MPI_SUM) and each form, a repetition is: MPI_Barrier,
 * then --iters iterations timed by every rank; its value is the SLOWEST rank's time per
 * iteration (max over ranks, reduced outside the timing). The two forms alternate repetition
 * by repetition, so drift hits both alike; printed is the MEDIAN over --reps repetitions.
 *
 * Output (stdout, rank 0): '#' comment lines, a header, then CSV lines
 * `persist_<form>_n<N>,<bytes>,<value>,<unit>`: form iallreduce or start (us per iteration),
 * and ratio (start / iallreduce, < 1: the persistent form is cheaper).
 *
 * Usage: persist [--bytes B[,B...]] [--iters K] [--reps R] */
#define _POSIX_C_SOURCE 200809L /* strtok_r in bench_util.h */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_mpi.h"
#include "bench_util.h"

#define MAX_SIZES 8

/* One repetition of one form: the slowest rank's microseconds per iteration. */
static double rep(int persistent, MPI_Request *preq, const double *s, double *r, int count,
                  int iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        MPI_Request q;
        if (persistent) {
            MPI_Start(preq);
            MPI_Wait(preq, MPI_STATUS_IGNORE);
        } else {
            MPI_Iallreduce(s, r, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
        }
    }
    double us = (MPI_Wtime() - t0) * 1e6 / iters, slowest = 0;
    MPI_Allreduce(&us, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long sizes[MAX_SIZES] = {8, 65536};
    int nsizes = 2, iters = 0, reps = 15;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--bytes") == 0 && i + 1 < argc) {
            nsizes = 0;
            for (char *p = argv[++i]; *p && nsizes < MAX_SIZES; p++) {
                sizes[nsizes++] = strtol(p, &p, 10);
                if (*p != ',')
                    break;
            }
        } else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc) {
            iters = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else {
            if (rank == 0)
                fprintf(stderr, "usage: persist [--bytes B[,B...]] [--iters K] [--reps R]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (reps < 1)
        reps = 1;
    if (rank == 0) {
        bench_print_library();
        printf("# ranks %d, reps %d (median of the slowest rank's us per iteration)\n", size,
               reps);
        printf("name,bytes,value,unit\n");
    }
    double *nb = malloc((size_t)reps * sizeof *nb), *ps = malloc((size_t)reps * sizeof *ps);
    for (int k = 0; k < nsizes; k++) {
        int count = (int)(sizes[k] / (long)sizeof(double));
        if (count < 1)
            count = 1;
        double *s = calloc((size_t)count, sizeof *s), *r = calloc((size_t)count, sizeof *r);
        if (!s || !r || !nb || !ps)
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (int i = 0; i < count; i++)
            s[i] = rank + i;
        int n = iters > 0 ? iters : sizes[k] <= 1024 ? 5000 : 500;
        MPI_Request preq;
        MPI_Allreduce_init(s, r, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &preq);
        rep(0, &preq, s, r, count, n / 10 + 1); /* warm both paths up */
        rep(1, &preq, s, r, count, n / 10 + 1);
        for (int i = 0; i < reps; i++) {
            nb[i] = rep(0, &preq, s, r, count, n);
            ps[i] = rep(1, &preq, s, r, count, n);
        }
        MPI_Request_free(&preq);
        double mnb = bench_median(nb, reps), mps = bench_median(ps, reps);
        if (rank == 0) {
            printf("persist_iallreduce_n%d,%ld,%.3f,us\n", size, sizes[k], mnb);
            printf("persist_start_n%d,%ld,%.3f,us\n", size, sizes[k], mps);
            printf("persist_ratio_n%d,%ld,%.3f,ratio\n", size, sizes[k], mps / mnb);
        }
        free(s);
        free(r);
    }
    free(nb);
    free(ps);
    MPI_Finalize();
    return 0;
}
