/* bench/halo.c — the step of a halo exchange: every rank posts MPI_Irecv from both of its
 * neighbours on a ring, sends to both with blocking MPI_Send, then waits for its receives
 * (MPI_Waitall). That is the most common pattern of stencil codes across nodes, and it
 * differs from a ping-pong: the receive is posted before the message comes and the sender
 * goes on to its next send at once, so what a runtime does when a receive is posted (and
 * what it wakes) lies on the critical path.
 *
 * Output (CSV, stdout; rank 0): test,bytes,value,unit with test "halo", one row per size
 * (0 B, then 8 B x8 up to MAXBYTES): the time of one step, the median over RUNS timed runs of
 * each run's mean over its steps (rank 0's clock, after a barrier). Each step's data is
 * checked: a neighbour's message carries its rank, the step and the size.
 *
 * Usage: halo [-q] [-r RUNS] [-m MAXBYTES]
 *   -q  quick: 3 runs, a tenth of the steps (a smoke test, noisy numbers)
 *   -r  timed runs per size (default 7)
 *   -m  largest size (default 65536)
 * Every rank runs main() in one process under loom: state stays in locals, no getopt. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_mpi.h"
#include "bench_util.h"

/* Steps per timed run at size b: about the same bytes moved per run, at least 200 steps. */
static int steps_for(long b, int quick)
{
    long s = b < 64 ? 20000 : 20000 * 64 / b;
    if (s < 200)
        s = 200;
    return (int)(quick ? (s + 9) / 10 : s);
}

/* The int at the start of a message from `from` at step `step` of size b (when it has room). */
static int stamp(int from, int step, long b)
{
    return from * 1000003 + step * 31 + (int)(b % 1021);
}

static void check(const char *buf, long b, int from, int step, int me)
{
    int got;
    if (b < (long)sizeof got)
        return;
    memcpy(&got, buf, sizeof got);
    if (got != stamp(from, step, b)) {
        fprintf(stderr, "halo: rank %d, %ld bytes, step %d: message from rank %d reads %d, "
                "expected %d\n", me, b, step, from, got, stamp(from, step, b));
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

/* One run of `steps` steps at size b; returns rank 0's mean time per step in µs. */
static double run(long b, int steps, int me, int n, char *out, char *in_l, char *in_r)
{
    int left = (me + n - 1) % n, right = (me + 1) % n;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int s = 0; s < steps; s++) {
        MPI_Request rq[2];
        MPI_Irecv(in_l, (int)b, MPI_BYTE, left, 0, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(in_r, (int)b, MPI_BYTE, right, 1, MPI_COMM_WORLD, &rq[1]);
        int v = stamp(me, s, b);
        if (b >= (long)sizeof v)
            memcpy(out, &v, sizeof v);
        MPI_Send(out, (int)b, MPI_BYTE, right, 0, MPI_COMM_WORLD);
        MPI_Send(out, (int)b, MPI_BYTE, left, 1, MPI_COMM_WORLD);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        check(in_l, b, left, s, me);
        check(in_r, b, right, s, me);
    }
    return (MPI_Wtime() - t) / steps * 1e6;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n, quick = 0, runs = 7;
    long max = 65536;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-q")) {
            quick = 1;
            runs = 3;
        } else if (!strcmp(argv[i], "-r") && i + 1 < argc && atoi(argv[i + 1]) > 0) {
            runs = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-m") && i + 1 < argc && atol(argv[i + 1]) > 0) {
            max = atol(argv[++i]);
        } else {
            if (me == 0)
                fprintf(stderr, "usage: halo [-q] [-r RUNS] [-m MAXBYTES]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (n < 2) {
        if (me == 0)
            fprintf(stderr, "halo: needs at least 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    char *out = calloc(1, (size_t)max), *in_l = malloc((size_t)max), *in_r = malloc((size_t)max);
    double *t = malloc(sizeof *t * (size_t)runs);
    if (!out || !in_l || !in_r || !t)
        MPI_Abort(MPI_COMM_WORLD, 2);
    if (me == 0) {
        bench_print_library();
        printf("# %d ranks on a ring; runs per size: %d (value = median over runs of the "
               "per-run mean)\ntest,bytes,value,unit\n", n, runs);
    }
    for (long b = 0; b <= max; b = b ? b * 8 : 8) {
        int steps = steps_for(b, quick);
        run(b, steps / 10 + 1, me, n, out, in_l, in_r); /* warm-up */
        for (int r = 0; r < runs; r++)
            t[r] = run(b, steps, me, n, out, in_l, in_r);
        if (me == 0)
            printf("halo,%ld,%.4f,us\n", b, bench_median(t, runs));
    }
    free(out);
    free(in_l);
    free(in_r);
    free(t);
    MPI_Finalize();
    return 0;
}
