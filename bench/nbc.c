/* bench/nbc.c — overlap of nonblocking collectives with computation (Section 7 of the 2019
 * paper, IMB-NBC-like), for MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce and MPI_Iscan.
 *
 * A plain MPI program: standard calls only, so the same source builds with loomcc,
 * mpicc.mpich and mpicc.openmpi (bench/run_coll.py runs all three). All its state is in
 * locals: under loom every rank runs main() in the same process.
 *
 * For each collective, on a buffer of --bytes bytes (default 2 MiB, MPI_DOUBLE, MPI_SUM,
 * root 0), four times are measured; each repetition is started after an MPI_Barrier, every
 * rank times itself, and the repetition's value is the time of the SLOWEST rank (max over
 * ranks, reduced outside the timing); the printed value is the MEDIAN over --reps
 * repetitions:
 *   t_blocking     the blocking collective (MPI_Bcast, ...);
 *   t_nonblocking  the pure nonblocking time: MPI_Ixxx then MPI_Wait at once;
 *   t_comp         the computation alone;
 *   t_overlapped   MPI_Ixxx; compute; MPI_Wait.
 *   overlap        IMB-NBC's ratio (t_nonblocking + t_comp - t_overlapped) /
 *                  min(t_nonblocking, t_comp), clamped to [0, 1]: 1 = the collective was
 *                  entirely hidden behind the computation, 0 = serialized with it.
 *
 * Fixed total work (strong scaling, as in the paper): the computation per rank is
 *   C * N_max / N     microseconds,
 * N = ranks of this run, N_max = sysconf(_SC_NPROCESSORS_ONLN) (the machine's cores), so the
 * fewer the ranks, the longer each computes and the more cores are free for progress threads.
 * C is per collective: --comp-us gives it (one number for all, or coll=US,...), else it is
 * this run's t_blocking of that collective ("computation sized to the blocking time": at
 * N = N_max the computation equals the blocking time). A campaign over several N and runtimes
 * must pass the SAME C to every run (bench/run_coll.py takes it from its first run); the C in
 * effect is printed as a "# comp_us" comment.
 * The computation is a calibrated dependent arithmetic loop making no library call, so no MPI
 * library can sneak progress into it (as bench/overlap.c). Its speed (iterations per us) is
 * the fastest rank's calibration, or --iters-per-us (the driver passes its first run's value
 * to all others, so an MPI whose progress thread slows the calibration still gets the same
 * number of iterations).
 *
 * Output (stdout, rank 0): '#' comment lines (library, ranks, cores, C), a header, then CSV
 * lines `nbc_<coll>_<metric>_n<N>,<bytes>,<value>,<unit>` (unit us, or ratio for overlap).
 *
 * Usage: nbc [--quick] [--bytes B] [--reps R] [--comp-us US|coll=US,...] [--colls a,b,...]
 *            [--iters-per-us X]
 *   --quick  5 repetitions instead of 25 (a smoke test, noisy numbers)
 *   --colls  a subset of ibcast,ireduce,iallreduce,iscan */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"
#include <unistd.h>
#include "bench_mpi.h"

enum { IBCAST, IREDUCE, IALLREDUCE, ISCAN, NCOLL };
static const char *const coll_name[NCOLL] = {"ibcast", "ireduce", "iallreduce", "iscan"};

struct options {
    int quick;
    int reps;
    long bytes;
    int want[NCOLL];
    double comp_us[NCOLL]; /* C per collective; < 0: this run's t_blocking */
    double ipu;            /* loop iterations per us; <= 0: calibrate */
};

/* Burns about `us` microseconds of CPU without calling anything; returns the loop's value so
 * the caller can keep it alive. */
static double compute(double us, double iters_per_us)
{
    long n = (long)(us * iters_per_us);
    double x = 1.0;
    for (long i = 0; i < n; i++)
        x = x * 1.0000001 + 1e-9;
    return x;
}

/* Loop iterations per microsecond on this rank's core (best of 5). */
static double calibrate(volatile double *sink)
{
    const long n = 1L << 22;
    double best = 1e30;
    for (int k = 0; k < 5; k++) {
        double t0 = MPI_Wtime();
        *sink = compute((double)n, 1.0);
        double t = MPI_Wtime() - t0;
        if (t < best)
            best = t;
    }
    return (double)n / (best * 1e6);
}

static void blocking(int c, double *sb, double *rb, int count)
{
    switch (c) {
    case IBCAST: MPI_Bcast(sb, count, MPI_DOUBLE, 0, MPI_COMM_WORLD); break;
    case IREDUCE: MPI_Reduce(sb, rb, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); break;
    case IALLREDUCE: MPI_Allreduce(sb, rb, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    default: MPI_Scan(sb, rb, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    }
}

static void start(int c, double *sb, double *rb, int count, MPI_Request *req)
{
    switch (c) {
    case IBCAST: MPI_Ibcast(sb, count, MPI_DOUBLE, 0, MPI_COMM_WORLD, req); break;
    case IREDUCE:
        MPI_Ireduce(sb, rb, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, req);
        break;
    case IALLREDUCE:
        MPI_Iallreduce(sb, rb, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, req);
        break;
    default: MPI_Iscan(sb, rb, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, req); break;
    }
}

enum mode { BLOCKING, NONBLOCKING, COMP, OVERLAPPED };

/* One repetition: the slowest rank's time (us) of `mode` with `comp_us` of computation. */
static double one(enum mode mode, int c, double *sb, double *rb, int count, double comp_us,
                  double ipu, volatile double *sink)
{
    MPI_Request req;
    double t, slowest;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    switch (mode) {
    case BLOCKING: blocking(c, sb, rb, count); break;
    case NONBLOCKING:
        start(c, sb, rb, count, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
    case COMP: *sink = compute(comp_us, ipu); break;
    default:
        start(c, sb, rb, count, &req);
        *sink = compute(comp_us, ipu);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
    }
    t = (MPI_Wtime() - t0) * 1e6;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

static double measure(enum mode mode, int c, double *sb, double *rb, int count, double comp_us,
                      double ipu, volatile double *sink, double *t, int reps)
{
    for (int r = 0; r < reps; r++)
        t[r] = one(mode, c, sb, rb, count, comp_us, ipu, sink);
    return bench_median(t, reps);
}

/* Fills o from argv; NULL, or why the arguments are wrong. */
static const char *parse(int argc, char **argv, struct options *o)
{
    o->quick = 0;
    o->reps = 25;
    o->bytes = 2L << 20;
    o->ipu = 0;
    for (int c = 0; c < NCOLL; c++) {
        o->want[c] = 1;
        o->comp_us[c] = -1;
    }
    int reps_set = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--quick") || !strcmp(a, "-q")) {
            o->quick = 1;
        } else if (!strcmp(a, "--bytes") && i + 1 < argc) {
            o->bytes = atol(argv[++i]);
            if (o->bytes < 8 || o->bytes / 8 > 0x7fffffffL)
                return "--bytes takes a size from 8 bytes to 16 GiB";
        } else if (!strcmp(a, "--reps") && i + 1 < argc) {
            o->reps = atoi(argv[++i]);
            reps_set = 1;
            if (o->reps < 1)
                return "--reps takes a positive count";
        } else if (!strcmp(a, "--colls") && i + 1 < argc) {
            if (bench_parse_names(argv[++i], coll_name, NCOLL, o->want))
                return "--colls takes names among ibcast,ireduce,iallreduce,iscan";
        } else if (!strcmp(a, "--iters-per-us") && i + 1 < argc) {
            o->ipu = atof(argv[++i]);
            if (o->ipu <= 0)
                return "--iters-per-us takes a positive number";
        } else if (!strcmp(a, "--comp-us") && i + 1 < argc) {
            char list[512];
            snprintf(list, sizeof list, "%s", argv[++i]);
            for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
                 tok = strtok_r(NULL, ",", &save)) {
                char *eq = strchr(tok, '=');
                if (!eq) {
                    double v = atof(tok);
                    if (v <= 0)
                        return "--comp-us takes a positive number of microseconds";
                    for (int c = 0; c < NCOLL; c++)
                        o->comp_us[c] = v;
                    continue;
                }
                *eq = '\0';
                int c = 0;
                while (c < NCOLL && strcmp(tok, coll_name[c]))
                    c++;
                if (c == NCOLL || atof(eq + 1) <= 0)
                    return "--comp-us takes US or coll=US,... (coll among ibcast,ireduce,"
                           "iallreduce,iscan; US > 0)";
                o->comp_us[c] = atof(eq + 1);
            }
        } else {
            return "unknown argument";
        }
    }
    if (o->quick && !reps_set)
        o->reps = 5;
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, size;
    struct options o;
    volatile double sink = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *why = parse(argc, argv, &o);
    if (why) {
        if (rank == 0)
            fprintf(stderr, "nbc: %s\nusage: nbc [--quick] [--bytes B] [--reps R] "
                            "[--comp-us US|coll=US,...] [--colls a,b,...]\n", why);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncores < 1)
        ncores = 1;
    int count = (int)(o.bytes / 8);
    double *sb = malloc(sizeof(double) * (size_t)count);
    double *rb = malloc(sizeof(double) * (size_t)count);
    double *t = malloc(sizeof(double) * (size_t)o.reps);
    if (!sb || !rb || !t) {
        fprintf(stderr, "nbc: rank %d: out of memory for %ld bytes\n", rank, o.bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < count; i++)
        sb[i] = rb[i] = rank + 1;

    /* The loop's speed: the fastest rank's calibration (the least disturbed one), the same on
     * every rank; or --iters-per-us, so that every run of a campaign does the same work. */
    double ipu = o.ipu;
    if (ipu <= 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        double mine = calibrate(&sink);
        MPI_Allreduce(&mine, &ipu, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }

    if (rank == 0) {
        bench_print_library();
        printf("# ranks: %d, cores (N_max): %ld, buffer: %ld bytes, repetitions: %d "
               "(value = median over repetitions of the slowest rank's time)\n",
               size, ncores, o.bytes, o.reps);
        printf("# iters_per_us %.4f (%s)\n", ipu, o.ipu > 0 ? "given" : "calibrated");
        printf("test,bytes,value,unit\n");
        fflush(stdout);
    }

    for (int c = 0; c < NCOLL; c++) {
        if (!o.want[c])
            continue;
        for (int w = 0; w < 3; w++) /* warm-up: first touch, connections, schedules */
            one(NONBLOCKING, c, sb, rb, count, 0, ipu, &sink);
        one(BLOCKING, c, sb, rb, count, 0, ipu, &sink);
        double tb = measure(BLOCKING, c, sb, rb, count, 0, ipu, &sink, t, o.reps);
        double tn = measure(NONBLOCKING, c, sb, rb, count, 0, ipu, &sink, t, o.reps);
        double cref = o.comp_us[c] > 0 ? o.comp_us[c] : tb;
        double cus = cref * (double)ncores / (double)size;
        double tc = measure(COMP, c, sb, rb, count, cus, ipu, &sink, t, o.reps);
        double to = measure(OVERLAPPED, c, sb, rb, count, cus, ipu, &sink, t, o.reps);
        double lo = tn < tc ? tn : tc;
        double ov = lo > 0 ? (tn + tc - to) / lo : 0;
        if (ov < 0)
            ov = 0;
        if (ov > 1)
            ov = 1;
        if (rank == 0) {
            const char *n = coll_name[c];
            printf("# comp_us %s=%.2f (C; per rank C*%ld/%d = %.2f us)\n", n, cref, ncores,
                   size, cus);
            printf("nbc_%s_t_blocking_n%d,%ld,%.2f,us\n", n, size, o.bytes, tb);
            printf("nbc_%s_t_nonblocking_n%d,%ld,%.2f,us\n", n, size, o.bytes, tn);
            printf("nbc_%s_t_comp_n%d,%ld,%.2f,us\n", n, size, o.bytes, tc);
            printf("nbc_%s_t_overlapped_n%d,%ld,%.2f,us\n", n, size, o.bytes, to);
            printf("nbc_%s_overlap_n%d,%ld,%.3f,ratio\n", n, size, o.bytes, ov);
            fflush(stdout);
        }
    }
    free(sb);
    free(rb);
    free(t);
    MPI_Finalize();
    return 0;
}
