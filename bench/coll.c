/* bench/coll.c — latency of blocking collectives: Barrier, Bcast, Reduce, Allreduce,
 * Allgather, Alltoall, Gather, Scatter, from 8 B to 4 MiB.
 *
 * A plain MPI program: standard calls only, so the same source builds with loomcc,
 * mpicc.mpich and mpicc.openmpi (bench/run_coll.py runs all three, on 2 ranks and on 4 ranks
 * oversubscribed). All its state is in locals: under loom every rank runs main() in the same
 * process.
 *
 * Sizes follow the OSU benchmarks' conventions: bytes = the whole buffer for Bcast, Reduce
 * and Allreduce (MPI_FLOAT, MPI_SUM, root 0), bytes contributed by each rank for Allgather
 * and Gather, bytes sent to each rank for Alltoall and Scatter (MPI_CHAR, root 0); Barrier is reported at 0 bytes. Sizes are
 * powers of 4 from 8 B to 2 MiB, then 4 MiB (12 sizes).
 *
 * Method: per size, 2 untimed warm-up calls, then an estimate of one call's time sets the
 * batch length `iters` so that one batch takes about 5 ms (1..10000 calls; the same on every
 * rank, since it comes from the slowest rank's time). Each of --reps repetitions is an
 * MPI_Barrier, then `iters` back-to-back calls timed by every rank; the repetition's value is
 * the SLOWEST rank's mean time per call (max over ranks, reduced outside the timing); the
 * printed value is the MEDIAN over the repetitions, in microseconds.
 *
 * Output (stdout, rank 0): '#' comment lines, a header, then CSV lines
 * `coll_<name>,<bytes>,<us>,us`.
 *
 * Usage: coll [--quick] [--reps R] [--max BYTES] [--colls barrier,bcast,...]
 *   --quick  3 repetitions, batches of about 0.5 ms (a smoke test, noisy numbers) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"
#include "bench_mpi.h"

enum { BARRIER, BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, GATHER, SCATTER, NCOLL };
static const char *const coll_name[NCOLL] = {"barrier",  "bcast",    "reduce", "allreduce",
                                             "allgather", "alltoall", "gather", "scatter"};

static void call(int c, char *sb, char *rb, long bytes)
{
    int n = (int)bytes;
    switch (c) {
    case BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
    case BCAST: MPI_Bcast(sb, n, MPI_CHAR, 0, MPI_COMM_WORLD); break;
    case REDUCE: MPI_Reduce(sb, rb, n / 4, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD); break;
    case ALLREDUCE: MPI_Allreduce(sb, rb, n / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); break;
    case ALLGATHER: MPI_Allgather(sb, n, MPI_CHAR, rb, n, MPI_CHAR, MPI_COMM_WORLD); break;
    case ALLTOALL: MPI_Alltoall(sb, n, MPI_CHAR, rb, n, MPI_CHAR, MPI_COMM_WORLD); break;
    case GATHER: MPI_Gather(sb, n, MPI_CHAR, rb, n, MPI_CHAR, 0, MPI_COMM_WORLD); break;
    default: MPI_Scatter(sb, n, MPI_CHAR, rb, n, MPI_CHAR, 0, MPI_COMM_WORLD); break;
    }
}

/* The slowest rank's mean time (us) per call over a batch of `iters` calls. */
static double batch(int c, char *sb, char *rb, long bytes, int iters)
{
    double t, slowest;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        call(c, sb, rb, bytes);
    t = (MPI_Wtime() - t0) * 1e6 / iters;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

int main(int argc, char **argv)
{
    int rank, size;
    struct bench_sweep o;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *why = bench_parse_sweep(argc, argv, coll_name, NCOLL,
                                        "--colls takes names among barrier,bcast,reduce,"
                                        "allreduce,allgather,alltoall,gather,scatter",
                                        &o);
    if (why) {
        if (rank == 0)
            fprintf(stderr, "coll: %s\nusage: coll [--quick] [--reps R] [--max BYTES] "
                            "[--colls barrier,bcast,...]\n", why);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* Allgather, Alltoall and Gather need size * max_bytes on the receive side (Alltoall and
     * Scatter on the send side). */
    size_t big = (size_t)o.max_bytes * (size_t)size;
    char *sb = malloc(big), *rb = malloc(big);
    double *t = malloc(sizeof(double) * (size_t)o.reps);
    if (!sb || !rb || !t) {
        fprintf(stderr, "coll: rank %d: out of memory for %zu bytes\n", rank, big);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* small floats, so sums stay finite; also fine as MPI_CHAR */
    for (size_t i = 0; i < big / sizeof(float); i++)
        ((float *)sb)[i] = 1.0f;
    memset(rb, 0, big);

    long sizes[16];
    int nsizes = bench_sweep_sizes(o.max_bytes, sizes);

    if (rank == 0) {
        bench_print_library();
        printf("# ranks: %d, repetitions: %d, batches of about %.0f us (value = median over "
               "repetitions of the slowest rank's mean time per call)\n",
               size, o.reps, o.batch_us);
        printf("test,bytes,value,unit\n");
        fflush(stdout);
    }

    for (int c = 0; c < NCOLL; c++) {
        if (!o.want[c])
            continue;
        for (int s = 0; s < (c == BARRIER ? 1 : nsizes); s++) {
            long bytes = c == BARRIER ? 0 : sizes[s];
            call(c, sb, rb, bytes); /* warm-up: first touch, connections */
            call(c, sb, rb, bytes);
            double est = batch(c, sb, rb, bytes, 1);
            double want = o.batch_us / (est > 0.01 ? est : 0.01);
            int iters = want < 1 ? 1 : want > 10000 ? 10000 : (int)want;
            for (int r = 0; r < o.reps; r++)
                t[r] = batch(c, sb, rb, bytes, iters);
            if (rank == 0) {
                double med = bench_median(t, o.reps);
                printf("coll_%s,%ld,%.3f,us\n", coll_name[c], bytes, med);
                fflush(stdout);
            }
        }
    }
    free(sb);
    free(rb);
    free(t);
    MPI_Finalize();
    return 0;
}
