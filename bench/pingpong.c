/* bench/pingpong.c — point-to-point latency and streaming bandwidth between two ranks.
 *
 * A plain MPI program: it uses only standard calls, so the same source builds with loomcc,
 * mpicc.mpich and mpicc.openmpi (bench/run.py does all three and compares them).
 *
 *   latency    half the round-trip time of MPI_Send/MPI_Recv ping-pong between ranks 0 and 1,
 *              for 0 B and 1 B .. 4 MiB (powers of two), in microseconds.
 *   bandwidth  rank 0 posts a window of MPI_Isend, rank 1 the matching MPI_Irecv; both
 *              MPI_Waitall, then rank 1 sends a 4-byte ack. Bytes moved / time, in MB/s
 *              (10^6 bytes per second), for 1 KiB .. 4 MiB. The window is 64 messages, fewer
 *              above 1 MiB so that one window is at most 64 MiB (32 at 2 MiB, 16 at 4 MiB).
 *              As in osu_bw, every message of a window uses the same send buffer and the same
 *              receive buffer, so the numbers compare with the usual published ones; with -d
 *              each receive of a window gets a buffer of its own (what an application would
 *              do: two threads copying into one buffer at once fight over its cache lines).
 *
 * Method: for each size, a few untimed warm-up iterations, then RUNS timed runs of N
 * iterations each (N shrinks as the size grows, so each run moves about the same number of
 * bytes); the value printed is the MEDIAN over the runs of the per-run mean. The data of each
 * size is checked once, outside the timed loops (rank 1 checks what rank 0 sent, rank 0 what
 * rank 1 sent back), and the program aborts if a byte is wrong.
 *
 * Output (stdout, rank 0): comment lines starting with '#', a header `test,bytes,value,unit`,
 * then one CSV line per test and size.
 *
 * Usage: pingpong [-q] [-d] [-p] [-r RUNS] [-t lat|bw|all] [-m MAXBYTES] [-s STEP]
 *   -q  quick: 3 runs, a tenth of the iterations (a smoke test, noisy numbers)
 *   -r  timed runs per size (default 7)
 *   -t  which test (default all)
 *   -m  largest size (default 4194304)
 *   -d  bandwidth: a distinct receive buffer for each message of a window (test "bandwidth_d")
 *   -p  latency: each side posts its receive (MPI_Irecv) before the message can come, then
 *       sends or waits (MPI_Wait), so the message always finds its receive posted (test
 *       "latency_posted")
 *   -s  latency: sizes 0, STEP, 2 STEP, ... up to MAXBYTES instead of the powers of two (to
 *       find where one protocol hands over to the next)
 *
 * Note for thread-based runtimes such as loom: every rank runs main() in the same process, so
 * this program keeps all its state in locals and never uses getopt (global optind). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WINDOW 64
#define WINDOW_BYTES (64u << 20) /* at most this many bytes in flight in one window */
#define TAG_PING 1
#define TAG_PONG 2
#define TAG_DATA 3
#define TAG_ACK 4

struct options {
    int quick;
    int runs;
    int do_lat;
    int do_bw;
    int distinct;
    int posted;
    size_t max_bytes;
    size_t step; /* latency sizes: 0 for powers of two, else every `step` bytes */
};

/* Fills o from argv; NULL, or why the arguments are wrong. */
static const char *parse(int argc, char **argv, struct options *o)
{
    o->quick = 0;
    o->runs = 7;
    o->do_lat = o->do_bw = 1;
    o->distinct = 0;
    o->posted = 0;
    o->max_bytes = (size_t)4 << 20;
    o->step = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-q") == 0) {
            o->quick = 1;
            o->runs = 3;
        } else if (strcmp(a, "-d") == 0) {
            o->distinct = 1;
        } else if (strcmp(a, "-p") == 0) {
            o->posted = 1;
        } else if (strcmp(a, "-r") == 0 && i + 1 < argc) {
            o->runs = atoi(argv[++i]);
            if (o->runs < 1)
                return "-r takes a positive count";
        } else if (strcmp(a, "-t") == 0 && i + 1 < argc) {
            const char *t = argv[++i];
            o->do_lat = strcmp(t, "lat") == 0 || strcmp(t, "all") == 0;
            o->do_bw = strcmp(t, "bw") == 0 || strcmp(t, "all") == 0;
            if (!o->do_lat && !o->do_bw)
                return "-t takes lat, bw or all";
        } else if (strcmp(a, "-m") == 0 && i + 1 < argc) {
            long long m = atoll(argv[++i]);
            if (m < 1 || m > INT32_MAX)
                return "-m takes a byte count in 1..2^31-1";
            o->max_bytes = (size_t)m;
        } else if (strcmp(a, "-s") == 0 && i + 1 < argc) {
            long long step = atoll(argv[++i]);
            if (step < 1 || step > INT32_MAX)
                return "-s takes a byte count in 1..2^31-1";
            o->step = (size_t)step;
        } else {
            return "unknown argument";
        }
    }
    return NULL;
}

/* Byte i of the message of size `size` sent by `who` (0 or 1): depends on all three, so a
 * stale buffer or a message of the wrong size does not pass the check. */
static unsigned char pattern(size_t size, int who, size_t i)
{
    return (unsigned char)((i * 131u) ^ (size * 7u) ^ (unsigned)(who * 0x5a) ^ (i >> 8));
}

static void fill(unsigned char *b, size_t size, int who)
{
    for (size_t i = 0; i < size; i++)
        b[i] = pattern(size, who, i);
}

static void check(const unsigned char *b, size_t size, int who, const char *test, int rank)
{
    for (size_t i = 0; i < size; i++) {
        if (b[i] != pattern(size, who, i)) {
            fprintf(stderr, "pingpong: %s, %zu bytes: rank %d got byte %zu = %u, expected %u\n",
                    test, size, rank, i, b[i], pattern(size, who, i));
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Iterations per timed run: about `budget` bytes per run, between lo and hi. */
static long iterations(size_t size, double budget, long lo, long hi)
{
    double n = size ? budget / (double)size : (double)hi;
    if (n > (double)hi)
        n = (double)hi;
    if (n < (double)lo)
        n = (double)lo;
    return (long)n;
}

/* One ping-pong round trip; rank 0 starts it. With `posted`, each side's receive is posted
 * before its peer can send. */
static void round_trip(int rank, void *sbuf, void *rbuf, int n, int posted)
{
    if (posted) {
        MPI_Request q;
        MPI_Irecv(rbuf, n, MPI_BYTE, 1 - rank, rank == 0 ? TAG_PONG : TAG_PING, MPI_COMM_WORLD,
                  &q);
        if (rank == 0) {
            MPI_Send(sbuf, n, MPI_BYTE, 1, TAG_PING, MPI_COMM_WORLD);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
        } else {
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, n, MPI_BYTE, 0, TAG_PONG, MPI_COMM_WORLD);
        }
    } else if (rank == 0) {
        MPI_Send(sbuf, n, MPI_BYTE, 1, TAG_PING, MPI_COMM_WORLD);
        MPI_Recv(rbuf, n, MPI_BYTE, 1, TAG_PONG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(rbuf, n, MPI_BYTE, 0, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(sbuf, n, MPI_BYTE, 0, TAG_PONG, MPI_COMM_WORLD);
    }
}

static void latency(int rank, const struct options *o, unsigned char *sbuf, unsigned char *rbuf)
{
    double *t = malloc(sizeof *t * (size_t)o->runs);
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 4);
    for (size_t size = 0; size <= o->max_bytes; size = o->step ? size + o->step
                                                    : size ? size * 2 : 1) {
        int n = (int)size;
        long iters = iterations(size, o->quick ? 16e6 : 256e6, o->quick ? 4 : 40,
                                o->quick ? 1000 : 10000);
        long warm = iters / 10 + 2;

        /* Check once: rank 0's bytes arrive at rank 1 and rank 1's come back. */
        fill(sbuf, size, rank);
        memset(rbuf, 0xee, size);
        round_trip(rank, sbuf, rbuf, n, o->posted);
        check(rbuf, size, 1 - rank, o->posted ? "latency_posted" : "latency", rank);

        for (int r = 0; r < o->runs; r++) {
            for (long i = 0; i < warm; i++)
                round_trip(rank, sbuf, rbuf, n, o->posted);
            double t0 = MPI_Wtime();
            for (long i = 0; i < iters; i++)
                round_trip(rank, sbuf, rbuf, n, o->posted);
            double t1 = MPI_Wtime();
            t[r] = (t1 - t0) / (2.0 * (double)iters) * 1e6;
        }
        if (rank == 0) {
            printf("%s,%zu,%.4f,us\n", o->posted ? "latency_posted" : "latency", size,
                   median(t, o->runs));
            fflush(stdout);
        }
    }
    free(t);
}

/* GCC (12+) takes MPI_STATUSES_IGNORE, a cast of a small integer, for a zero-size array and
 * warns at MPI_Waitall; the call is correct. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

/* One window: rank 0 sends `window` messages, rank 1 receives them and acks. */
static void window_once(int rank, unsigned char *sbuf, unsigned char *rbuf, int n, int window,
                        size_t stride)
{
    MPI_Request req[MAX_WINDOW];
    int ack = 0;
    if (rank == 0) {
        for (int w = 0; w < window; w++)
            MPI_Isend(sbuf, n, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, &req[w]);
        MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
        MPI_Recv(&ack, 1, MPI_INT, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        for (int w = 0; w < window; w++)
            MPI_Irecv(rbuf + (size_t)w * stride, n, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD,
                      &req[w]);
        MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
        MPI_Send(&ack, 1, MPI_INT, 0, TAG_ACK, MPI_COMM_WORLD);
    }
}

static void bandwidth(int rank, const struct options *o, unsigned char *sbuf,
                      unsigned char *rbuf)
{
    double *bw = malloc(sizeof *bw * (size_t)o->runs);
    if (!bw)
        MPI_Abort(MPI_COMM_WORLD, 4);
    for (size_t size = 1024; size <= o->max_bytes; size *= 2) {
        int n = (int)size;
        int window = MAX_WINDOW;
        while (window > 1 && (size_t)window * size > WINDOW_BYTES)
            window /= 2;
        long iters = iterations(size * (size_t)window, o->quick ? 64e6 : 1024e6,
                                o->quick ? 2 : 8, o->quick ? 200 : 2000);
        long warm = iters / 10 + 1;
        size_t stride = o->distinct ? size : 0;

        /* Check once, with a single message outside the timed loop. */
        if (rank == 0)
            fill(sbuf, size, 0);
        else
            memset(rbuf, 0xee, size);
        window_once(rank, sbuf, rbuf, n, 1, 0);
        if (rank == 1)
            check(rbuf, size, 0, "bandwidth", rank);

        for (int r = 0; r < o->runs; r++) {
            for (long i = 0; i < warm; i++)
                window_once(rank, sbuf, rbuf, n, window, stride);
            double t0 = MPI_Wtime();
            for (long i = 0; i < iters; i++)
                window_once(rank, sbuf, rbuf, n, window, stride);
            double t1 = MPI_Wtime();
            bw[r] = (double)size * (double)window * (double)iters / (t1 - t0) / 1e6;
        }
        if (rank == 0) {
            printf("%s,%zu,%.1f,MB/s\n", o->distinct ? "bandwidth_d" : "bandwidth", size,
                   median(bw, o->runs));
            fflush(stdout);
        }
    }
    free(bw);
}

int main(int argc, char **argv)
{
    int rank, size;
    struct options o;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *bad = parse(argc, argv, &o);
    if (!bad && size < 2)
        bad = "needs 2 ranks (ranks above 1 stay idle)";
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "pingpong: %s\nusage: pingpong [-q] [-d] [-p] [-r RUNS] "
                            "[-t lat|bw|all] [-m MAXBYTES] [-s STEP]\n", bad);
        MPI_Finalize();
        return 2;
    }

    if (rank <= 1) {
        /* Page-aligned buffers, touched before any timing. */
        size_t cap = o.max_bytes < 64 ? 64 : o.max_bytes;
        unsigned char *sbuf = aligned_alloc(4096, (cap + 4095) & ~(size_t)4095);
        /* With -d, rank 1 receives a window into distinct buffers: up to 64 MiB. */
        size_t rcap = o.distinct && rank == 1 && o.do_bw ? WINDOW_BYTES : cap;
        if (rcap < cap)
            rcap = cap;
        unsigned char *rbuf = aligned_alloc(4096, (rcap + 4095) & ~(size_t)4095);
        if (!sbuf || !rbuf)
            MPI_Abort(MPI_COMM_WORLD, 4);
        memset(sbuf, 1, cap);
        memset(rbuf, 2, rcap);
        if (rank == 0) {
            char lib[MPI_MAX_LIBRARY_VERSION_STRING];
            int len = 0;
            MPI_Get_library_version(lib, &len);
            for (int i = 0; i < len && lib[i]; i++) /* first line only */
                if (lib[i] == '\n') {
                    lib[i] = 0;
                    break;
                }
            printf("# library: %s\n", lib);
            printf("# runs per size: %d (value = median over runs of the per-run mean)%s\n",
                   o.runs, o.quick ? ", quick" : "");
            printf("test,bytes,value,unit\n");
            fflush(stdout);
        }
        if (o.do_lat)
            latency(rank, &o, sbuf, rbuf);
        if (o.do_bw)
            bandwidth(rank, &o, sbuf, rbuf);
        free(sbuf);
        free(rbuf);
    }
    MPI_Finalize();
    return 0;
}
