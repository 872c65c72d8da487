/* bench/rma.c — one-sided communication (MPI 4.1 chapter 12): latency of the synchronization
 * and atomic calls, bandwidth of MPI_Put and MPI_Accumulate.
 *
 * A plain MPI program: it uses only standard MPI-3/4 calls, so the same source builds with
 * loomcc, mpicc.mpich and mpicc.openmpi (bench/run.py builds all three and compares them as
 * its programs rma, rma_fanin and rma_ring).
 *
 * Tests (CSV name, bytes, unit). A "latency" is the time of one iteration of the loop shown:
 *
 *   put_lock_shared   8 B  us    MPI_Win_lock(SHARED, t); MPI_Put 8 B; MPI_Win_flush;
 *                                MPI_Win_unlock
 *   put_lock_excl     8 B  us    the same with MPI_LOCK_EXCLUSIVE
 *   put_flush         8 B  us    MPI_Put 8 B; MPI_Win_flush   (inside one lock_all epoch)
 *   get_lock_shared   8 B  us    as put_lock_shared with MPI_Get
 *   get_lock_excl     8 B  us    as put_lock_excl with MPI_Get
 *   get_flush         8 B  us    MPI_Get 8 B; MPI_Win_flush   (inside one lock_all epoch)
 *   fetch_op          8 B  us    MPI_Fetch_and_op(MPI_SUM, one long long); MPI_Win_flush
 *   cas               8 B  us    MPI_Compare_and_swap(one long long); MPI_Win_flush
 *   call_floor        8 B  us    no MPI: two calls through function pointers, the first with
 *                                MPI_Put's arguments storing 8 bytes, the second with
 *                                MPI_Win_flush's loading a word (acquire): what the calls of
 *                                put_flush cost this machine before any work of the library
 *   fence             0 B  us    MPI_Win_fence(0), no operations (every rank of the window)
 *   lock_shared       0 B  us    MPI_Win_lock(SHARED, t); MPI_Win_unlock, no operations
 *   lock_excl         0 B  us    the same with MPI_LOCK_EXCLUSIVE
 *   lock_all          0 B  us    MPI_Win_lock_all; MPI_Win_unlock_all, no operations
 *   put_bw            S    MB/s  MPI_Put S bytes; MPI_Win_flush   (one lock_all epoch)
 *   put_bw_win        S    MB/s  W x MPI_Put S bytes; one MPI_Win_flush (W = 64, fewer above
 *                                1 MiB so that a window moves at most 64 MiB)
 *   acc_bw            S    MB/s  MPI_Accumulate(MPI_SUM) of S/8 MPI_DOUBLEs; MPI_Win_flush
 *   get_bw            S    MB/s  MPI_Get S bytes; MPI_Win_flush   (one lock_all epoch)
 *
 * Bandwidth sizes: 8 B, 32 B, ... (powers of 4) up to the largest size (default 4 MiB), plus
 * 1 MiB and the largest size itself. MB/s is 10^6 bytes per second.
 *
 * Who does what (-p; the window always comes from MPI_Win_allocate, disp_unit 1):
 *   pair   rank 0 is the origin, rank 1 the target; ranks above 1 take no part (they wait in
 *          the final MPI_Barrier). The default with 2 ranks.
 *   fanin  ranks 0..N-2 are origins, all on rank N-1, the target: each origin has its own
 *          slot of the target's window for puts and accumulates, and all of them hit the
 *          same two words for fetch_op and cas. The default with more than 2 ranks.
 *   ring   every rank is an origin on rank+1 (mod N) and the target of rank-1.
 * A rank that is only a target waits in MPI_Barrier / MPI_Allreduce while the origins work
 * (in MPI_Win_fence for the fence test, which every rank calls). A latency is the slowest
 * origin's mean time per iteration; a bandwidth is all origins' bytes over the slowest
 * origin's time (the aggregate into the targets).
 *
 * Method, per test and size: a calibration (batches of 1, 2, 4, ... iterations until the
 * slowest rank's batch takes 1 ms) sets N so that one timed run takes about 15 ms (so a point
 * takes about 120 ms); N/10 + 1 untimed warm-up iterations; then RUNS timed runs of N
 * iterations, each after an MPI_Barrier; the value printed is the MEDIAN over the runs. Every
 * rank runs the same counts (decided together with MPI_Allreduce), so the target knows what
 * to expect. The data is checked once per test, outside the timing: the target checks the
 * bytes each origin put, the origin the bytes it got, the target its counters after
 * fetch_op and cas and its doubles after acc_bw; a wrong byte aborts the program.
 *
 * Output (stdout, world rank 0): comment lines starting with '#', a header
 * `test,bytes,value,unit`, then one CSV line per test and size.
 *
 * Usage: rma [-q] [-r RUNS] [-t TESTS] [-m SIZE] [-M MAXBYTES] [-p pair|fanin|ring] [-w W]
 *   -q  quick: 3 runs of about 2 ms per point (a smoke test, noisy numbers)
 *   -r  timed runs per point (default 7)
 *   -t  comma-separated test names from the table above, or lat (the 13 latency tests), bw
 *       (the 4 bandwidth tests), all (default)
 *   -m  the bandwidth tests at this one size only (a multiple of 8)
 *   -M  the largest size of the bandwidth sweep (default 4194304)
 *   -p  who does what (above)
 *   -w  puts per flush in put_bw_win (default 64)
 *
 * Note for thread-based runtimes such as loom: every rank runs main() in the same process, so
 * this program keeps all its per-rank state in locals (the only globals are constant tables)
 * and never uses getopt (global optind). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

#define MAX_RUNS 101
#define MAX_WINDOW 1024
#define WINDOW_BYTES (64L << 20) /* put_bw_win: at most this many bytes per flush */
#define FOP_OFF 0                /* the long long of fetch_op, in every rank's window */
#define CAS_OFF 64               /* the long long of cas (its own cache line) */
#define DATA_OFF 4096            /* the first slot of put / get / accumulate data */
#define LAT_BYTES 8              /* the size of the latency tests' put and get */

enum test_id {
    T_PUT_LOCK_SHARED, T_PUT_LOCK_EXCL, T_PUT_FLUSH,
    T_GET_LOCK_SHARED, T_GET_LOCK_EXCL, T_GET_FLUSH,
    T_FETCH_OP, T_CAS, T_CALL_FLOOR,
    T_FENCE, T_LOCK_SHARED, T_LOCK_EXCL, T_LOCK_ALL,
    T_PUT_BW, T_PUT_BW_WIN, T_ACC_BW, T_GET_BW,
    NTESTS
};
#define FIRST_BW T_PUT_BW

static const char *const test_names[NTESTS] = {
    "put_lock_shared", "put_lock_excl", "put_flush",
    "get_lock_shared", "get_lock_excl", "get_flush",
    "fetch_op", "cas", "call_floor",
    "fence", "lock_shared", "lock_excl", "lock_all",
    "put_bw", "put_bw_win", "acc_bw", "get_bw",
};

enum pattern { P_PAIR, P_FANIN, P_RING };
static const char *const pattern_names[3] = {"pair", "fanin", "ring"};

struct options {
    int quick;
    int runs;
    int want[NTESTS];
    long one_size;  /* -m: only this size, 0 for the sweep */
    long max_bytes; /* the largest bandwidth size (and the slot size) */
    int pattern;    /* -1 until chosen from the rank count */
    int window;
    double run_s;   /* target time of one timed run */
    double cal_s;   /* calibration batch target */
};

/* One rank's view of the benchmark: its window, its role, its buffers. */
struct ctx {
    const struct options *o;
    MPI_Comm comm;        /* the window's communicator */
    MPI_Win win;
    unsigned char *base;  /* this rank's window memory */
    int rank, size;       /* in comm */
    int origin;           /* this rank issues operations */
    int target;           /* its target (rank in comm), when origin */
    MPI_Aint slot_disp;   /* its slot at the target */
    int n_origins;        /* origins in comm */
    int n_slots;          /* origins that target this rank */
    long slot_bytes;      /* slot stride in the window */
    unsigned char *buf;   /* origin buffer: what it puts, its accumulate doubles */
    unsigned char *res;   /* origin buffer: what it gets */
    long long cas_expect; /* cas: the value this origin believes is at the target */
    long cas_ok;          /* cas: this origin's successful swaps */
    long long fetched;    /* fetch_op: the last value fetched */
};

/* Fills o from argv; NULL, or why the arguments are wrong. */
static const char *parse(int argc, char **argv, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->runs = 7;
    o->max_bytes = 4L << 20;
    o->pattern = -1;
    o->window = 64;
    o->run_s = 0.015;
    o->cal_s = 0.001;
    for (int t = 0; t < NTESTS; t++)
        o->want[t] = 1;
    int runs_set = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-q") == 0) {
            o->quick = 1;
        } else if (strcmp(a, "-r") == 0 && i + 1 < argc) {
            o->runs = atoi(argv[++i]);
            runs_set = 1;
            if (o->runs < 1 || o->runs > MAX_RUNS)
                return "-r takes a count from 1 to 101";
        } else if (strcmp(a, "-t") == 0 && i + 1 < argc) {
            const char *t = argv[++i];
            if (strcmp(t, "all") == 0 || strcmp(t, "lat") == 0 || strcmp(t, "bw") == 0) {
                for (int k = 0; k < NTESTS; k++)
                    o->want[k] = t[0] == 'a' || (t[0] == 'l') == (k < FIRST_BW);
            } else if (bench_parse_names(t, test_names, NTESTS, o->want)) {
                return "-t takes test names (see the comment at the top of bench/rma.c), lat, "
                       "bw or all";
            }
        } else if (strcmp(a, "-m") == 0 && i + 1 < argc) {
            o->one_size = atol(argv[++i]);
            if (o->one_size < 8 || o->one_size > (1L << 30) || o->one_size % 8)
                return "-m takes a multiple of 8 from 8 to 2^30";
            o->max_bytes = o->one_size;
        } else if (strcmp(a, "-M") == 0 && i + 1 < argc) {
            o->max_bytes = atol(argv[++i]);
            if (o->max_bytes < 8 || o->max_bytes > (1L << 30) || o->max_bytes % 8)
                return "-M takes a multiple of 8 from 8 to 2^30";
        } else if (strcmp(a, "-p") == 0 && i + 1 < argc) {
            const char *p = argv[++i];
            o->pattern = -1;
            for (int k = 0; k < 3; k++)
                if (strcmp(p, pattern_names[k]) == 0)
                    o->pattern = k;
            if (o->pattern < 0)
                return "-p takes pair, fanin or ring";
        } else if (strcmp(a, "-w") == 0 && i + 1 < argc) {
            o->window = atoi(argv[++i]);
            if (o->window < 1 || o->window > MAX_WINDOW)
                return "-w takes a count from 1 to 1024";
        } else {
            return "unknown argument";
        }
    }
    if (o->quick) {
        o->run_s = 0.002;
        o->cal_s = 0.0002;
        if (!runs_set)
            o->runs = 3;
    }
    if (o->one_size && o->max_bytes < o->one_size)
        o->max_bytes = o->one_size;
    return NULL;
}

/* Byte i of the data `who` (a rank in the window's communicator) puts or serves at size
 * `size`: depends on all three, so a stale slot or a transfer of the wrong size fails. */
static unsigned char pattern(long size, int who, long i)
{
    return (unsigned char)((i * 131u) ^ ((unsigned long)size * 7u) ^ (unsigned)(who * 0x5a + 1) ^
                           (i >> 8));
}

static void fill(unsigned char *b, long size, int who)
{
    for (long i = 0; i < size; i++)
        b[i] = pattern(size, who, i);
}

static void check(const unsigned char *b, long size, int who, const char *test, int rank)
{
    for (long i = 0; i < size; i++)
        if (b[i] != pattern(size, who, i)) {
            fprintf(stderr, "rma: %s, %ld bytes: rank %d sees byte %ld = %u, expected %u\n", test,
                    size, rank, i, b[i], pattern(size, who, i));
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
}

/* The origin whose slot k of this rank's window is (a rank in comm). */
static int slot_owner(const struct ctx *c, int k)
{
    switch (c->o->pattern) {
    case P_PAIR:
        return 0;
    case P_FANIN:
        return k;
    default:
        return (c->rank + c->size - 1) % c->size;
    }
}

static int is_put(int t)
{
    return t == T_PUT_LOCK_SHARED || t == T_PUT_LOCK_EXCL || t == T_PUT_FLUSH || t == T_PUT_BW ||
           t == T_PUT_BW_WIN;
}

static int is_get(int t)
{
    return t == T_GET_LOCK_SHARED || t == T_GET_LOCK_EXCL || t == T_GET_FLUSH || t == T_GET_BW;
}

/* Tests whose loop runs inside one lock_all epoch of the origin. */
static int in_lock_all(int t)
{
    return t == T_PUT_FLUSH || t == T_GET_FLUSH || t == T_FETCH_OP || t == T_CAS ||
           t == T_PUT_BW || t == T_PUT_BW_WIN || t == T_ACC_BW || t == T_GET_BW;
}

/* Puts per flush in put_bw_win at `bytes`. */
static int window_of(const struct ctx *c, long bytes)
{
    int w = c->o->window;
    while (w > 1 && (long)w * bytes > WINDOW_BYTES)
        w /= 2;
    return w;
}

/* call_floor's two functions: the work of an MPI_Put of 8 bytes and of an MPI_Win_flush
 * that finds nothing in flight, with none of the checks, called as a program calls a library
 * (not inlined: through pointers the compiler cannot see through). */
typedef int (*floor_put_fn)(const void *, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype,
                            void *);
typedef int (*floor_flush_fn)(int, void *);

static __attribute__((noinline)) int floor_put(const void *o, int ocount, MPI_Datatype ot,
                                               int rank, MPI_Aint disp, int tcount,
                                               MPI_Datatype tt, void *dst)
{
    (void)ocount, (void)ot, (void)rank, (void)disp, (void)tcount, (void)tt;
    memcpy(dst, o, LAT_BYTES);
    return 0;
}

static __attribute__((noinline)) int floor_flush(int rank, void *pending)
{
    (void)rank;
    return __atomic_load_n((long *)pending, __ATOMIC_ACQUIRE) != 0;
}

/* n iterations of test t by this rank (an origin, or any rank for fence). */
static void ops(struct ctx *c, int t, long bytes, long n)
{
    MPI_Win win = c->win;
    int tg = c->target;
    MPI_Aint d = c->slot_disp;
    const long long one = 1;
    switch (t) {
    case T_PUT_LOCK_SHARED:
    case T_PUT_LOCK_EXCL: {
        int type = t == T_PUT_LOCK_SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
        for (long i = 0; i < n; i++) {
            MPI_Win_lock(type, tg, 0, win);
            MPI_Put(c->buf, LAT_BYTES, MPI_BYTE, tg, d, LAT_BYTES, MPI_BYTE, win);
            MPI_Win_flush(tg, win);
            MPI_Win_unlock(tg, win);
        }
        break;
    }
    case T_GET_LOCK_SHARED:
    case T_GET_LOCK_EXCL: {
        int type = t == T_GET_LOCK_SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
        for (long i = 0; i < n; i++) {
            MPI_Win_lock(type, tg, 0, win);
            MPI_Get(c->res, LAT_BYTES, MPI_BYTE, tg, d, LAT_BYTES, MPI_BYTE, win);
            MPI_Win_flush(tg, win);
            MPI_Win_unlock(tg, win);
        }
        break;
    }
    case T_PUT_FLUSH:
        for (long i = 0; i < n; i++) {
            MPI_Put(c->buf, LAT_BYTES, MPI_BYTE, tg, d, LAT_BYTES, MPI_BYTE, win);
            MPI_Win_flush(tg, win);
        }
        break;
    case T_GET_FLUSH:
        for (long i = 0; i < n; i++) {
            MPI_Get(c->res, LAT_BYTES, MPI_BYTE, tg, d, LAT_BYTES, MPI_BYTE, win);
            MPI_Win_flush(tg, win);
        }
        break;
    case T_FETCH_OP:
        for (long i = 0; i < n; i++) {
            MPI_Fetch_and_op(&one, &c->fetched, MPI_LONG_LONG, tg, FOP_OFF, MPI_SUM, win);
            MPI_Win_flush(tg, win);
        }
        break;
    case T_CAS:
        for (long i = 0; i < n; i++) {
            long long next = c->cas_expect + 1, seen = 0;
            MPI_Compare_and_swap(&next, &c->cas_expect, &seen, MPI_LONG_LONG, tg, CAS_OFF, win);
            MPI_Win_flush(tg, win);
            if (seen == c->cas_expect) {
                c->cas_ok++;
                c->cas_expect = next;
            } else {
                c->cas_expect = seen; /* another origin got there first: retry from there */
            }
        }
        break;
    case T_CALL_FLOOR: {
        floor_put_fn volatile put = floor_put;
        floor_flush_fn volatile flush = floor_flush;
        long pending = 0;
        for (long i = 0; i < n; i++) {
            put(c->buf, LAT_BYTES, MPI_BYTE, tg, d, LAT_BYTES, MPI_BYTE, c->res);
            flush(tg, &pending);
        }
        break;
    }
    case T_FENCE:
        for (long i = 0; i < n; i++)
            MPI_Win_fence(0, win);
        break;
    case T_LOCK_SHARED:
    case T_LOCK_EXCL: {
        int type = t == T_LOCK_SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
        for (long i = 0; i < n; i++) {
            MPI_Win_lock(type, tg, 0, win);
            MPI_Win_unlock(tg, win);
        }
        break;
    }
    case T_LOCK_ALL:
        for (long i = 0; i < n; i++) {
            MPI_Win_lock_all(0, win);
            MPI_Win_unlock_all(win);
        }
        break;
    case T_PUT_BW:
        for (long i = 0; i < n; i++) {
            MPI_Put(c->buf, (int)bytes, MPI_BYTE, tg, d, (int)bytes, MPI_BYTE, win);
            MPI_Win_flush(tg, win);
        }
        break;
    case T_PUT_BW_WIN: {
        int w = window_of(c, bytes);
        for (long i = 0; i < n; i++) {
            for (int k = 0; k < w; k++)
                MPI_Put(c->buf, (int)bytes, MPI_BYTE, tg, d, (int)bytes, MPI_BYTE, win);
            MPI_Win_flush(tg, win);
        }
        break;
    }
    case T_ACC_BW: {
        int count = (int)(bytes / 8);
        for (long i = 0; i < n; i++) {
            MPI_Accumulate(c->buf, count, MPI_DOUBLE, tg, d, count, MPI_DOUBLE, MPI_SUM, win);
            MPI_Win_flush(tg, win);
        }
        break;
    }
    case T_GET_BW:
        for (long i = 0; i < n; i++) {
            MPI_Get(c->res, (int)bytes, MPI_BYTE, tg, d, (int)bytes, MPI_BYTE, win);
            MPI_Win_flush(tg, win);
        }
        break;
    }
}

/* Before test t at `bytes`: every target sets its window under a lock of its own (its slots
 * zeroed, or filled with its pattern for the gets; its counters zeroed), every origin its
 * buffers; then a barrier. */
static void prepare(struct ctx *c, int t, long bytes)
{
    if (c->n_slots) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c->rank, 0, c->win);
        for (int k = 0; k < c->n_slots; k++) {
            unsigned char *s = c->base + DATA_OFF + (size_t)k * (size_t)c->slot_bytes;
            if (is_get(t))
                fill(s, bytes, c->rank);
            else
                memset(s, 0, (size_t)bytes);
        }
        memset(c->base + FOP_OFF, 0, sizeof(long long));
        memset(c->base + CAS_OFF, 0, sizeof(long long));
        MPI_Win_unlock(c->rank, c->win);
    }
    if (c->origin) {
        if (t == T_ACC_BW) {
            double *v = (double *)c->buf;
            for (long i = 0; i < bytes / 8; i++)
                v[i] = 1.0;
        } else {
            fill(c->buf, bytes, c->rank);
        }
        memset(c->res, 0, (size_t)(t == T_GET_BW ? bytes : LAT_BYTES));
        c->cas_expect = 0;
        c->cas_ok = 0;
        c->fetched = -1;
    }
    MPI_Barrier(c->comm);
}

/* After test t (every origin has closed its epochs): `issued` is how many operations each
 * origin issued (the same for all). Each target checks its window, each origin what it got. */
static void verify(struct ctx *c, int t, long bytes, long issued)
{
    const char *name = test_names[t];
    long cas_total = c->origin ? c->cas_ok : 0;
    if (t == T_CAS)
        MPI_Allreduce(MPI_IN_PLACE, &cas_total, 1, MPI_LONG, MPI_SUM, c->comm);
    else
        MPI_Barrier(c->comm);
    if (c->origin && is_get(t))
        check(c->res, t == T_GET_BW ? bytes : LAT_BYTES, c->target, name, c->rank);
    if (c->origin && t == T_FETCH_OP && (c->fetched < 0 || c->fetched >= issued * c->n_origins)) {
        fprintf(stderr, "rma: fetch_op: rank %d fetched %lld (expected 0..%ld)\n", c->rank,
                c->fetched, issued * c->n_origins - 1);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (c->n_slots && (is_put(t) || t == T_ACC_BW || t == T_FETCH_OP || t == T_CAS)) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c->rank, 0, c->win);
        long long v;
        if (t == T_FETCH_OP) {
            /* each origin that targets this rank added `issued` ones */
            memcpy(&v, c->base + FOP_OFF, sizeof v);
            if (v != (long long)c->n_slots * issued) {
                fprintf(stderr, "rma: fetch_op: rank %d counts %lld, expected %lld\n", c->rank,
                        v, (long long)c->n_slots * issued);
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
        } else if (t == T_CAS) {
            /* pair, fanin: every origin's successful swaps landed here; ring: this rank's
             * one origin met no other, so each of its swaps succeeded */
            memcpy(&v, c->base + CAS_OFF, sizeof v);
            long want = c->o->pattern == P_RING ? issued : cas_total;
            if (v != want) {
                fprintf(stderr, "rma: cas: rank %d holds %lld, expected %ld\n", c->rank, v,
                        want);
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
        } else {
            for (int k = 0; k < c->n_slots; k++) {
                unsigned char *s = c->base + DATA_OFF + (size_t)k * (size_t)c->slot_bytes;
                if (t == T_ACC_BW) {
                    const double *d = (const double *)s;
                    for (long i = 0; i < bytes / 8; i++)
                        if (d[i] != (double)issued) {
                            fprintf(stderr, "rma: acc_bw, %ld bytes: rank %d slot %d "
                                    "double %ld = %g, expected %ld\n", bytes, c->rank, k, i,
                                    d[i], issued);
                            MPI_Abort(MPI_COMM_WORLD, 3);
                        }
                } else {
                    check(s, bytes, slot_owner(c, k), name, c->rank);
                }
            }
        }
        MPI_Win_unlock(c->rank, c->win);
    }
    MPI_Barrier(c->comm);
}

/* Test t at `bytes` on every rank of comm: returns the median over the runs (the same on
 * every rank). */
static double measure(struct ctx *c, int t, long bytes)
{
    const struct options *o = c->o;
    int active = c->origin || t == T_FENCE;
    int per_iter = t == T_PUT_BW_WIN ? window_of(c, bytes) : 1; /* operations per iteration */
    double v[MAX_RUNS];
    long issued = 0;

    prepare(c, t, bytes);
    if (c->origin && in_lock_all(t))
        MPI_Win_lock_all(0, c->win);

    /* Calibration: double the batch until the slowest rank's takes cal_s. */
    long n = 1;
    double dt;
    for (;;) {
        double t0 = MPI_Wtime();
        if (active)
            ops(c, t, bytes, n);
        dt = MPI_Wtime() - t0;
        issued += n;
        MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, c->comm);
        if (dt >= o->cal_s || n >= (1L << 40))
            break;
        n *= dt < o->cal_s / 64 ? 8 : 2;
    }
    double iters_d = (double)n * o->run_s / (dt > 0 ? dt : 1e-9);
    long iters = iters_d < 1 ? 1 : iters_d > 1e12 ? (long)1e12 : (long)iters_d;

    /* Warm-up, then the timed runs. */
    long warm = iters / 10 + 1;
    if (active)
        ops(c, t, bytes, warm);
    issued += warm;
    for (int r = 0; r < o->runs; r++) {
        MPI_Barrier(c->comm);
        double t0 = MPI_Wtime();
        if (active)
            ops(c, t, bytes, iters);
        dt = MPI_Wtime() - t0;
        issued += iters;
        MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, c->comm);
        if (t >= FIRST_BW)
            v[r] = (double)c->n_origins * (double)iters * per_iter * (double)bytes / dt / 1e6;
        else
            v[r] = dt / (double)iters * 1e6;
    }

    if (c->origin && in_lock_all(t))
        MPI_Win_unlock_all(c->win);
    if (t == T_FENCE)
        MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win); /* no epoch left open for the locks */
    verify(c, t, bytes, issued * per_iter);
    return bench_median(v, o->runs);
}

/* The bandwidth sizes: 8 B x4 up to max, 1 MiB, max; or the one size of -m. */
static int sizes_of(const struct options *o, long sizes[40])
{
    int n = 0;
    if (o->one_size) {
        sizes[n++] = o->one_size;
        return n;
    }
    for (long b = 8; b <= o->max_bytes; b *= 4)
        sizes[n++] = b;
    if ((1L << 20) <= o->max_bytes)
        sizes[n++] = 1L << 20;
    sizes[n++] = o->max_bytes;
    for (int i = 1; i < n; i++) /* insertion sort: 1 MiB may sit out of order */
        for (int j = i; j > 0 && sizes[j - 1] > sizes[j]; j--) {
            long x = sizes[j];
            sizes[j] = sizes[j - 1];
            sizes[j - 1] = x;
        }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || sizes[m - 1] != sizes[i])
            sizes[m++] = sizes[i];
    return m;
}

int main(int argc, char **argv)
{
    int wrank, wsize;
    struct options o;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    const char *bad = parse(argc, argv, &o);
    if (!bad && wsize < 2)
        bad = "needs at least 2 ranks";
    if (!bad && o.pattern < 0)
        o.pattern = wsize == 2 ? P_PAIR : P_FANIN;
    if (bad) {
        if (wrank == 0)
            fprintf(stderr, "rma: %s\nusage: rma [-q] [-r RUNS] [-t TESTS] [-m SIZE] "
                            "[-M MAXBYTES] [-p pair|fanin|ring] [-w W]\n", bad);
        MPI_Finalize();
        return 2;
    }

    struct ctx c;
    memset(&c, 0, sizeof c);
    c.o = &o;
    /* pair: a communicator of ranks 0 and 1; the others wait in the final barrier. */
    MPI_Comm_split(MPI_COMM_WORLD, o.pattern == P_PAIR && wrank > 1 ? MPI_UNDEFINED : 0, wrank,
                   &c.comm);
    if (c.comm != MPI_COMM_NULL) {
        MPI_Comm_rank(c.comm, &c.rank);
        MPI_Comm_size(c.comm, &c.size);
        c.slot_bytes = (o.max_bytes + 4095) & ~4095L;
        switch (o.pattern) {
        case P_PAIR:
            c.origin = c.rank == 0;
            c.target = 1;
            c.n_origins = 1;
            c.n_slots = c.rank == 1;
            c.slot_disp = DATA_OFF;
            break;
        case P_FANIN:
            c.origin = c.rank < c.size - 1;
            c.target = c.size - 1;
            c.n_origins = c.size - 1;
            c.n_slots = c.rank == c.size - 1 ? c.size - 1 : 0;
            c.slot_disp = DATA_OFF + (MPI_Aint)c.rank * c.slot_bytes;
            break;
        default:
            c.origin = 1;
            c.target = (c.rank + 1) % c.size;
            c.n_origins = c.size;
            c.n_slots = 1;
            c.slot_disp = DATA_OFF;
            break;
        }
        MPI_Aint win_bytes = DATA_OFF + (MPI_Aint)c.n_slots * c.slot_bytes;
        MPI_Win_allocate(win_bytes, 1, MPI_INFO_NULL, c.comm, &c.base, &c.win);
        /* Touch the window (under a lock of its own) and the buffers before any timing. */
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c.rank, 0, c.win);
        memset(c.base, 0, (size_t)win_bytes);
        MPI_Win_unlock(c.rank, c.win);
        if (c.origin) {
            size_t cap = (size_t)c.slot_bytes;
            c.buf = aligned_alloc(4096, cap);
            c.res = aligned_alloc(4096, cap);
            if (!c.buf || !c.res)
                MPI_Abort(MPI_COMM_WORLD, 4);
            memset(c.buf, 1, cap);
            memset(c.res, 2, cap);
        }

        if (wrank == 0) {
            char lib[MPI_MAX_LIBRARY_VERSION_STRING];
            int len = 0;
            MPI_Get_library_version(lib, &len);
            lib[strcspn(lib, "\n")] = 0; /* the first line: MPICH's goes on for a page */
            printf("# library: %s\n", lib);
            if (o.pattern == P_PAIR)
                printf("# pattern: pair: rank 0 is the origin, rank 1 the target (%d ranks)\n",
                       wsize);
            else if (o.pattern == P_FANIN)
                printf("# pattern: fanin: ranks 0..%d are origins, all on rank %d (%d ranks)\n",
                       c.size - 2, c.size - 1, c.size);
            else
                printf("# pattern: ring: each of the %d ranks is an origin on rank+1\n", c.size);
            printf("# runs per point: %d of about %.0f ms (value = median over the runs)%s\n",
                   o.runs, o.run_s * 1e3, o.quick ? ", quick" : "");
            printf("test,bytes,value,unit\n");
            fflush(stdout);
        }

        long sizes[40];
        int nsizes = sizes_of(&o, sizes);
        for (int t = 0; t < NTESTS; t++) {
            if (!o.want[t])
                continue;
            if (t < FIRST_BW) {
                long b = t >= T_FENCE && t <= T_LOCK_ALL ? 0 : LAT_BYTES;
                double v = measure(&c, t, b);
                if (wrank == 0) {
                    printf("%s,%ld,%.4f,us\n", test_names[t], b, v);
                    fflush(stdout);
                }
                continue;
            }
            for (int s = 0; s < nsizes; s++) {
                double v = measure(&c, t, sizes[s]);
                if (wrank == 0) {
                    printf("%s,%ld,%.1f,MB/s\n", test_names[t], sizes[s], v);
                    fflush(stdout);
                }
            }
        }

        MPI_Win_free(&c.win);
        MPI_Comm_free(&c.comm);
        free(c.buf);
        free(c.res);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
