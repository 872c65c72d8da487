/* bench/memcpy_ceiling.c — the bandwidth ceiling of a one-copy message between two cores.
 *
 * A one-copy transfer between two ranks on two cores is a memcpy by one core of bytes that
 * the other core has just written. This program measures exactly that, with no MPI: thread A
 * (bound to one core) writes a source buffer, hands it over, and thread B (bound to another
 * core) copies it into its own destination buffer; only B's memcpy is timed. It is the
 * number bench/run.py divides pingpong's bandwidth by.
 *
 *   memcpy        the cross-core copy above, in MB/s (10^6 bytes per second)
 *   memcpy_local  for context: B copies a source buffer it wrote itself (data already in
 *                 B's caches), back to back with no hand-over, timed as one batch per run:
 *                 the single-core memcpy rate
 *   latency_floor the ideal one-copy ping-pong, in microseconds: A copies its buffer into
 *                 B's and raises a flag; B, seeing it, copies its buffer into A's and raises
 *                 another; half the round trip. What a shared-memory MPI could reach if a
 *                 send were one memcpy and one flag (receives already posted), so the floor
 *                 under pingpong's latency.
 *
 * Sizes: 1 B .. 4 MiB (powers of two; latency_floor also 0 B). Each size: a warm-up, then RUNS runs of N copies (N
 * shrinks as the size grows); a run's value of `memcpy` is bytes copied / summed copy time,
 * where each copy's time has the clock's own cost (measured at start) taken off; the value printed is
 * the MEDIAN over the runs. Below a few KiB the clock's resolution dominates: use the numbers
 * from 1 KiB up. Output: '#' comments, a header `test,bytes,value,unit`, one CSV line per
 * test and size.
 *
 * Usage: memcpy_ceiling [-q] [-p] [-r RUNS] [-m MAXBYTES] [-c CPU_A,CPU_B]
 *   The two CPUs default to the first two allowed CPUs that sit on different cores
 *   (from /sys/devices/system/cpu/cpuN/topology).
 *   -p  phase probe: latency_floor at 0 B only, 5 short runs (a few milliseconds). A virtual
 *       machine's host may move its vCPUs between placements (a core's two threads, one core
 *       complex, two) from one minute to the next, and every runtime's small-message figures
 *       move with the core-to-core latency; bench/run.py runs the probe before and after each
 *       MPI run, so that a report compares runs made in the same phase. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"
#include <time.h>

struct shared {
    /* Hand-over flag: A stores `seq` (release) once the source is written; B loads it
     * (acquire), copies, then stores -seq (release) so A may write again (A loads it with
     * acquire). Padded so it shares no cache line with the buffers' pointers. */
    _Alignas(64) atomic_long turn;
    _Alignas(64) unsigned char *src;  /* written by A, read by B (ordered by `turn`) */
    unsigned char *dst;               /* B only */
    unsigned char *own;               /* B only: the source of memcpy_local */
    size_t max_bytes;
    int runs;
    int quick;
    int cpu_a, cpu_b;
    double clock_cost;                /* seconds, set before the threads start */
    /* latency_floor: A's and B's buffers, and one flag per direction, each a sequence number
     * stored with release by its writer and loaded with acquire by the other thread. */
    unsigned char *a_src, *a_dst, *b_src, *b_dst;
    _Alignas(64) atomic_long ping;    /* A -> B */
    _Alignas(64) atomic_long pong;    /* B -> A */
};

struct floor_arg {
    struct shared *s;
    int role; /* 0: A, 1: B */
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The median cost of one back-to-back pair of clock reads. */
static double clock_cost(void)
{
    double d[2001];
    for (int i = 0; i < 2001; i++) {
        double t0 = now();
        d[i] = now() - t0;
    }
    return bench_median(d, 2001);
}

/* Spin until *flag == want (acquire: what the other thread wrote before its release store
 * is visible). On a quiet machine the other thread answers within the spins; on a busy one
 * it may be descheduled, and yielding keeps the run from taking minutes. */
static void await_value(atomic_long *flag, long want)
{
    for (unsigned spins = 0; atomic_load_explicit(flag, memory_order_acquire) != want;)
        if (++spins > 100000) {
            sched_yield();
            spins = 0;
        }
}

static int bind_self(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* memcpy tests: copies per run, about 512 MB per run between 32 and 20000 copies. */
static long copies_per_run(const struct shared *s, size_t size)
{
    double n = (s->quick ? 32e6 : 512e6) / (double)size;
    long hi = s->quick ? 2000 : 20000, lo = s->quick ? 4 : 32;
    return n > (double)hi ? hi : n < (double)lo ? lo : (long)n;
}

static long total_copies(const struct shared *s, size_t size)
{
    long n = copies_per_run(s, size);
    return n / 10 + 2 + n * (long)s->runs; /* warm-up + runs */
}

/* Thread A: for each size and copy, write the source, then hand it to B. */
static void *writer(void *arg)
{
    struct shared *s = arg;
    long seq = 0;
    if (bind_self(s->cpu_a) != 0)
        fprintf(stderr, "memcpy_ceiling: cannot bind thread A to CPU %d\n", s->cpu_a);
    for (size_t size = 1; size <= s->max_bytes; size *= 2) {
        long n = total_copies(s, size);
        for (long i = 0; i < n; i++) {
            await_value(&s->turn, -seq);
            memset(s->src, (int)((seq + 1) & 0xff), size);
            seq++;
            atomic_store_explicit(&s->turn, seq, memory_order_release);
        }
    }
    return NULL;
}

/* Thread B: copy what A wrote; time each memcpy. Prints the results. */
static void *copier(void *arg)
{
    struct shared *s = arg;
    long seq = 0;
    double *v = malloc(sizeof *v * (size_t)s->runs);
    double *w = malloc(sizeof *w * (size_t)s->runs);
    if (!v || !w || bind_self(s->cpu_b) != 0) {
        fprintf(stderr, "memcpy_ceiling: cannot bind thread B to CPU %d\n", s->cpu_b);
        exit(1);
    }
    for (size_t size = 1; size <= s->max_bytes; size *= 2) {
        long n = copies_per_run(s, size), warm = n / 10 + 2;
        for (int r = -1; r < s->runs; r++) {
            long count = r < 0 ? warm : n;
            double spent = 0;
            for (long i = 0; i < count; i++) {
                seq++;
                await_value(&s->turn, seq);
                double t0 = now();
                memcpy(s->dst, s->src, size);
                double t1 = now();
                spent += t1 - t0 - s->clock_cost;
                if (s->dst[size - 1] != (unsigned char)(seq & 0xff)) {
                    fprintf(stderr, "memcpy_ceiling: %zu bytes: byte %u, expected %u\n", size,
                            s->dst[size - 1], (unsigned)(seq & 0xff));
                    exit(1);
                }
                atomic_store_explicit(&s->turn, -seq, memory_order_release);
            }
            if (r >= 0)
                v[r] = spent > 0 ? (double)size * (double)count / spent / 1e6 : 0;
        }
        /* memcpy_local: B's own, cache-warm source; no hand-over. */
        memset(s->own, 3, size);
        for (int r = -1; r < s->runs; r++) {
            double t0 = now();
            for (long i = 0; i < n; i++) {
                memcpy(s->dst, s->own, size);
                __asm__ __volatile__("" : : "r"(s->dst) : "memory");
            }
            double spent = now() - t0 - s->clock_cost;
            if (r >= 0)
                w[r] = spent > 0 ? (double)size * (double)n / spent / 1e6 : 0;
        }
        printf("memcpy,%zu,%.1f,MB/s\n", size, bench_median(v, s->runs));
        printf("memcpy_local,%zu,%.1f,MB/s\n", size, bench_median(w, s->runs));
        fflush(stdout);
    }
    free(v);
    free(w);
    return NULL;
}

/* latency_floor: both threads run this; A (role 0) times and prints. */
static void *floor_thread(void *arg)
{
    struct floor_arg *fa = arg;
    struct shared *s = fa->s;
    long seq = 0;
    double *v = malloc(sizeof *v * (size_t)s->runs);
    if (!v || bind_self(fa->role ? s->cpu_b : s->cpu_a) != 0) {
        fprintf(stderr, "memcpy_ceiling: cannot bind or allocate (latency_floor)\n");
        exit(1);
    }
    for (size_t size = 0; size <= s->max_bytes; size = size ? size * 2 : 1) {
        /* The iteration counts of pingpong's latency test. */
        double n = size ? (s->quick ? 16e6 : 256e6) / (double)size : 1e9;
        long hi = s->quick ? 1000 : 10000, lo = s->quick ? 4 : 40;
        long iters = n > (double)hi ? hi : n < (double)lo ? lo : (long)n;
        long warm = iters / 10 + 2;
        for (int r = 0; r < s->runs; r++) {
            double t0 = 0;
            for (long i = -warm; i < iters; i++) {
                if (i == 0)
                    t0 = now();
                seq++;
                if (fa->role == 0) {
                    memcpy(s->b_dst, s->a_src, size);
                    atomic_store_explicit(&s->ping, seq, memory_order_release);
                    await_value(&s->pong, seq);
                } else {
                    await_value(&s->ping, seq);
                    memcpy(s->a_dst, s->b_src, size);
                    atomic_store_explicit(&s->pong, seq, memory_order_release);
                }
            }
            v[r] = (now() - t0) / (2.0 * (double)iters) * 1e6;
        }
        if (fa->role == 0) {
            if (size && s->b_dst[size - 1] != s->a_src[size - 1]) {
                fprintf(stderr, "memcpy_ceiling: latency_floor %zu bytes: bad copy\n", size);
                exit(1);
            }
            printf("latency_floor,%zu,%.4f,us\n", size, bench_median(v, s->runs));
            fflush(stdout);
        }
    }
    free(v);
    return NULL;
}

/* Runs a(arg_a) and b(arg_b) in two threads until both return; 0, or 1 if they could not
 * start (said on stderr). */
static int run_pair(void *(*a)(void *), void *arg_a, void *(*b)(void *), void *arg_b)
{
    pthread_t ta, tb;
    if (pthread_create(&ta, NULL, a, arg_a) != 0 || pthread_create(&tb, NULL, b, arg_b) != 0) {
        fprintf(stderr, "memcpy_ceiling: cannot start threads\n");
        return 1;
    }
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    return 0;
}

/* The first two allowed CPUs on different cores (package_id, core_id); -1 if none. */
static void pick_cpus(int *a, int *b)
{
    cpu_set_t set;
    long pkg_a = -1, core_a = -1;
    *a = *b = -1;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE && *b < 0; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        long pkg = -1, core = -1;
        char path[128];
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%ld", &pkg) != 1)
                pkg = -1;
            fclose(f);
        }
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", c);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%ld", &core) != 1)
                core = -1;
            fclose(f);
        }
        if (*a < 0) {
            *a = c;
            pkg_a = pkg;
            core_a = core;
        } else if (pkg != pkg_a || core != core_a || core < 0) {
            *b = c;
        }
    }
}

int main(int argc, char **argv)
{
    struct shared s;
    memset(&s, 0, sizeof s);
    atomic_init(&s.turn, 0);
    s.max_bytes = (size_t)4 << 20;
    s.runs = 7;
    s.cpu_a = s.cpu_b = -1;
    int probe = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-q") == 0) {
            s.quick = 1;
            s.runs = 3;
        } else if (strcmp(argv[i], "-p") == 0) {
            probe = 1;
            s.quick = 1;
            s.runs = 5;
            s.max_bytes = 0;
        } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            s.runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) {
            s.max_bytes = (size_t)atoll(argv[++i]);
        } else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%d,%d", &s.cpu_a, &s.cpu_b) != 2) {
                fprintf(stderr, "memcpy_ceiling: -c takes CPU_A,CPU_B\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: memcpy_ceiling [-q] [-p] [-r RUNS] [-m MAXBYTES] [-c A,B]\n");
            return 2;
        }
    }
    if (s.runs < 1 || (s.max_bytes < 1 && !probe)) {
        fprintf(stderr, "memcpy_ceiling: -r and -m take positive numbers\n");
        return 2;
    }
    if (s.cpu_a < 0)
        pick_cpus(&s.cpu_a, &s.cpu_b);
    if (s.cpu_a < 0 || s.cpu_b < 0) {
        fprintf(stderr, "memcpy_ceiling: needs two CPUs on different cores\n");
        return 2;
    }
    /* whole pages, and one at least (the probe's 0 B: aligned_alloc(.., 0) may give NULL) */
    size_t cap = s.max_bytes ? (s.max_bytes + 4095) & ~(size_t)4095 : 4096;
    s.src = aligned_alloc(4096, cap);
    s.dst = aligned_alloc(4096, cap);
    s.own = aligned_alloc(4096, cap);
    if (!s.src || !s.dst || !s.own) {
        fprintf(stderr, "memcpy_ceiling: out of memory\n");
        return 1;
    }
    memset(s.src, 0, cap);
    memset(s.dst, 0, cap);
    memset(s.own, 0, cap);
    s.clock_cost = clock_cost();
    printf("# thread A (writes) on CPU %d, thread B (copies) on CPU %d; clock cost %.1f ns\n",
           s.cpu_a, s.cpu_b, s.clock_cost * 1e9);
    printf("# runs per size: %d (value = median over runs)%s\n", s.runs,
           s.quick ? ", quick" : "");
    printf("test,bytes,value,unit\n");
    fflush(stdout);

    if (!probe && run_pair(writer, &s, copier, &s) != 0)
        return 1;

    /* latency_floor, with a fresh pair of threads on the same CPUs. */
    s.a_src = aligned_alloc(4096, cap);
    s.a_dst = aligned_alloc(4096, cap);
    s.b_src = aligned_alloc(4096, cap);
    s.b_dst = aligned_alloc(4096, cap);
    if (!s.a_src || !s.a_dst || !s.b_src || !s.b_dst) {
        fprintf(stderr, "memcpy_ceiling: out of memory\n");
        return 1;
    }
    memset(s.a_src, 0x5a, cap);
    memset(s.a_dst, 0, cap);
    memset(s.b_src, 0xa5, cap);
    memset(s.b_dst, 0, cap);
    atomic_init(&s.ping, 0);
    atomic_init(&s.pong, 0);
    struct floor_arg fa = {&s, 0}, fb = {&s, 1};
    if (run_pair(floor_thread, &fa, floor_thread, &fb) != 0)
        return 1;
    free(s.a_src);
    free(s.a_dst);
    free(s.b_src);
    free(s.b_dst);
    free(s.src);
    free(s.dst);
    free(s.own);
    return 0;
}
