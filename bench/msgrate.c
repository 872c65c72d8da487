/* bench/msgrate.c — message rate of small nonblocking messages between pairs of ranks, in the
 * manner of osu_mbw_mr (written for loom; nothing copied).
 *
 * A plain MPI program: only standard calls, all state in locals and no getopt, so the same
 * source builds with loomcc, mpicc.mpich and mpicc.openmpi (bench/run.py runs all three).
 *
 * The first half of the ranks send, the second half receive: rank i (i < N/2) is paired with
 * rank i + N/2, and with an odd N the last rank only joins the barriers. One iteration: each
 * sender posts a window of W MPI_Isend (same buffer, same tag) and MPI_Waitall; its receiver
 * posts the W matching MPI_Irecv and MPI_Waitall, then sends a 4-byte ack, which the sender
 * receives before its next window. So every pair always has at most W messages in flight and
 * the rate includes what it costs to post, match and complete each one.
 *
 * Per size (8 B .. 4 KiB, powers of two): warm-up iterations, then RUNS timed runs of ITERS
 * iterations after a barrier; a run's rate is the messages of all pairs over the slowest
 * sender's time (MPI_Reduce of the times, MPI_MAX); the value printed is the MEDIAN over the
 * runs, in millions of messages per second (test `msgrate`). The data of each size is checked
 * once, before the timed runs: every message of a window carries its index, and a wrong byte
 * aborts the job.
 *
 * Output (stdout, rank 0): comment lines starting with '#', a header `test,bytes,value,unit`,
 * then one CSV line per size.
 *
 * Usage: msgrate [-q] [-r RUNS] [-w WINDOW] [-m MAXBYTES]
 *   -q  quick: 3 runs, a tenth of the iterations (a smoke test, noisy numbers)
 *   -r  timed runs per size (default 11)
 *   -w  messages per window (default 64, at most 1024)
 *   -m  largest size (default 4096) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WINDOW 1024
#define TAG_DATA 7
#define TAG_ACK 8

struct options {
    int runs, window, iters_scale;
    size_t max_bytes;
};

/* Fills o from argv; NULL, or why the arguments are wrong. */
static const char *parse(int argc, char **argv, struct options *o)
{
    o->runs = 11;
    o->window = 64;
    o->iters_scale = 10;
    o->max_bytes = 4096;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-q") == 0) {
            o->runs = 3;
            o->iters_scale = 1;
        } else if (strcmp(a, "-r") == 0 && i + 1 < argc) {
            if ((o->runs = atoi(argv[++i])) < 1)
                return "-r takes a positive count";
        } else if (strcmp(a, "-w") == 0 && i + 1 < argc) {
            o->window = atoi(argv[++i]);
            if (o->window < 1 || o->window > MAX_WINDOW)
                return "-w takes a count from 1 to 1024";
        } else if (strcmp(a, "-m") == 0 && i + 1 < argc) {
            long m = atol(argv[++i]);
            if (m < 1 || m > (1L << 20))
                return "-m takes a size from 1 to 1048576";
            o->max_bytes = (size_t)m;
        } else {
            return "usage: msgrate [-q] [-r RUNS] [-w WINDOW] [-m MAXBYTES]";
        }
    }
    return NULL;
}

/* One iteration of a sender (peer >= 0 receives) or of a receiver (peer is the sender). */
static void sender_iteration(char *buf, size_t bytes, int window, int peer, MPI_Request *req)
{
    for (int k = 0; k < window; k++)
        MPI_Isend(buf, (int)bytes, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, &req[k]);
    MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
    int ack;
    MPI_Recv(&ack, 1, MPI_INT, peer, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void receiver_iteration(char *bufs, size_t stride, size_t bytes, int window, int peer,
                               MPI_Request *req)
{
    for (int k = 0; k < window; k++)
        MPI_Irecv(bufs + (size_t)k * stride, (int)bytes, MPI_CHAR, peer, TAG_DATA,
                  MPI_COMM_WORLD, &req[k]);
    MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
    int ack = 0;
    MPI_Send(&ack, 1, MPI_INT, peer, TAG_ACK, MPI_COMM_WORLD);
}

/* Checks the data path once: message k of the window carries bytes equal to (k + size) & 0x7f.
 * Each receive has a buffer of its own here, so every message is seen. */
static void check_size(char *sbuf, char *rbufs, size_t stride, size_t bytes, int window,
                       int sender, int peer, MPI_Request *req)
{
    if (sender) {
        for (int k = 0; k < window; k++) {
            memset(sbuf + (size_t)k * stride, (int)((k + bytes) & 0x7f), bytes);
            MPI_Isend(sbuf + (size_t)k * stride, (int)bytes, MPI_CHAR, peer, TAG_DATA,
                      MPI_COMM_WORLD, &req[k]);
        }
        MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
        return;
    }
    memset(rbufs, 0xff, (size_t)window * stride);
    for (int k = 0; k < window; k++)
        MPI_Irecv(rbufs + (size_t)k * stride, (int)bytes, MPI_CHAR, peer, TAG_DATA,
                  MPI_COMM_WORLD, &req[k]);
    MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
    for (int k = 0; k < window; k++)
        for (size_t b = 0; b < bytes; b++)
            if (rbufs[(size_t)k * stride + b] != (char)((k + bytes) & 0x7f)) {
                fprintf(stderr, "msgrate: %zu B, message %d byte %zu is wrong\n", bytes, k, b);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct options o;
    const char *why = parse(argc, argv, &o);
    if (why || size < 2) {
        if (rank == 0)
            fprintf(stderr, "msgrate: %s\n", why ? why : "needs at least 2 ranks");
        MPI_Finalize();
        return 1;
    }
    int pairs = size / 2;
    int sender = rank < pairs, receiver = rank >= pairs && rank < 2 * pairs;
    int peer = sender ? rank + pairs : receiver ? rank - pairs : -1;
    size_t stride = (o.max_bytes + 63) & ~(size_t)63;
    char *sbuf = malloc((size_t)o.window * stride), *rbufs = malloc((size_t)o.window * stride);
    MPI_Request *req = malloc(sizeof *req * (size_t)o.window);
    double *rate = malloc(sizeof *rate * (size_t)o.runs);
    if (!sbuf || !rbufs || !req || !rate)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(sbuf, 1, (size_t)o.window * stride);
    if (rank == 0) {
        printf("# msgrate: %d pair(s), window %d, %d runs per size\n", pairs, o.window, o.runs);
        printf("test,bytes,value,unit\n");
    }
    for (size_t bytes = 8; bytes <= o.max_bytes; bytes *= 2) {
        if (peer >= 0)
            check_size(sbuf, rbufs, stride, bytes, o.window, sender, peer, req);
        /* About the same time per size: fewer iterations as messages grow. */
        int iters = o.iters_scale * (bytes <= 1024 ? 100 : 50);
        for (int run = -1; run < o.runs; run++) { /* run -1: warm-up, not kept */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int it = 0; it < iters; it++) {
                if (sender)
                    sender_iteration(sbuf, bytes, o.window, peer, req);
                else if (receiver)
                    receiver_iteration(rbufs, 0, bytes, o.window, peer, req);
            }
            double t = sender ? MPI_Wtime() - t0 : 0, slowest = 0;
            MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (run >= 0)
                rate[run] = (double)pairs * iters * o.window / slowest / 1e6;
        }
        if (rank == 0) {
            qsort(rate, (size_t)o.runs, sizeof *rate, cmp_double);
            double med = o.runs % 2 ? rate[o.runs / 2]
                                    : 0.5 * (rate[o.runs / 2 - 1] + rate[o.runs / 2]);
            printf("msgrate,%zu,%.4f,Mmsg/s\n", bytes, med);
            fflush(stdout);
        }
    }
    free(rate);
    free(req);
    free(rbufs);
    free(sbuf);
    MPI_Finalize();
    return 0;
}
