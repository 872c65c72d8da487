/* A member's contribution of at most 16 bytes (LOOM_SHM_TINY) to a small shm collective rides
 * in the first line of its entry in the slot, beside the flag its readers wait on; a larger
 * one goes through its inline buffers (up to 2 KiB), a still larger one stays in the user's
 * buffer. Each of the entry's two buffer positions serves every other collective, so here the
 * size of each call is drawn at random among all three kinds (0, 1, 8, 15 and 16 bytes; 17,
 * 40 and 2048; 2049 and 4096), and every collective with a small contribution takes its turn:
 * bcast, gather, scatter, allgather, alltoall, reduce and allreduce (on doubles, and on
 * double complex, whose 16-byte elements a reduction folds straight out of the entry). Ranks
 * lag now and then (a few yields before a call), so writers run ahead of their readers. Every
 * result is checked: a position read with the wrong kind of contribution, or written again
 * too early, shows up as a wrong byte or sum. */
#include <complex.h>
#include <sched.h>
#include "coll_check.h"

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define ITERS 600
#else
#define ITERS 4000
#endif
#define MAXB 4096
#define MAXN 8

static const int sizes[] = {0, 1, 8, 15, 16, 17, 40, 2048, 2049, 4096};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

enum { BCAST, GATHER, SCATTER, ALLGATHER, ALLTOALL, REDUCE, ALLREDUCE, ALLREDUCE_Z, NKIND };
static const char *const kind_name[NKIND] = {"bcast",    "gather",   "scatter",
                                             "allgather", "alltoall", "reduce",
                                             "allreduce", "allreduce (double complex)"};

/* Byte i of rank r's block for destination d in iteration it. */
static unsigned char byte(int r, int d, int it, int i)
{
    return (unsigned char)(r * 31 + d * 7 + it * 13 + i);
}

static void fail(int me, int kind, int it, int bytes, int at, int got, int want)
{
    fprintf(stderr, "rank %d: %s %d of %d bytes: byte/element %d is %d, expected %d\n", me,
            kind_name[kind], it, bytes, at, got, want);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The block collectives: every byte each rank ends with is checked. */
static void blocks(int kind, int it, int bytes, int me, int n)
{
    static _Thread_local unsigned char s[MAXN * MAXB], r[MAXN * MAXB];
    int root = it % n;
    memset(r, 0xee, sizeof r);
    for (int d = 0; d < n; d++)
        for (int i = 0; i < bytes; i++)
            s[d * bytes + i] = byte(me, kind == BCAST ? 0 : d, it, i);
    if (kind == BCAST && me == root)
        memcpy(r, s, (size_t)bytes);
    switch (kind) {
    case BCAST: OK(MPI_Bcast(r, bytes, MPI_BYTE, root, MPI_COMM_WORLD)); break;
    case GATHER:
        OK(MPI_Gather(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, root, MPI_COMM_WORLD));
        break;
    case SCATTER:
        OK(MPI_Scatter(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, root, MPI_COMM_WORLD));
        break;
    case ALLGATHER:
        OK(MPI_Allgather(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, MPI_COMM_WORLD));
        break;
    default: OK(MPI_Alltoall(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, MPI_COMM_WORLD)); break;
    }
    if (kind == GATHER && me != root)
        return; /* a non-root receives nothing */
    /* block j of r: rank j's block for us (alltoall), rank j's block (gather, allgather),
     * or the root's (bcast, scatter) */
    int nblocks = kind == BCAST || kind == SCATTER ? 1 : n;
    for (int j = 0; j < nblocks; j++)
        for (int i = 0; i < bytes; i++) {
            unsigned char want = kind == BCAST     ? byte(root, 0, it, i)
                                 : kind == SCATTER ? byte(root, me, it, i)
                                 : kind == ALLTOALL ? byte(j, me, it, i)
                                                    : byte(j, 0, it, i);
            if (r[j * bytes + i] != want)
                fail(me, kind, it, bytes, j * bytes + i, r[j * bytes + i], want);
        }
}

/* The reductions: sums of small integers, exact in any order. */
static void reductions(int kind, int it, int bytes, int me, int n)
{
    static _Thread_local double x[MAXB / 8], y[MAXB / 8];
    static _Thread_local double complex zx[MAXB / 16], zy[MAXB / 16];
    int root = it % n;
    if (kind == ALLREDUCE_Z) {
        int c = bytes / 16;
        for (int i = 0; i < c; i++)
            zx[i] = (double)(me + i + it % 5) + I * (double)(2 * me - i);
        OK(MPI_Allreduce(zx, zy, c, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
        for (int i = 0; i < c; i++) {
            double re = 0, im = 0;
            for (int r = 0; r < n; r++) {
                re += r + i + it % 5;
                im += 2 * r - i;
            }
            if (creal(zy[i]) != re || cimag(zy[i]) != im)
                fail(me, kind, it, bytes, i, (int)creal(zy[i]), (int)re);
        }
        return;
    }
    int c = bytes / 8;
    for (int i = 0; i < c; i++) {
        x[i] = me * 3 + i + it % 7;
        y[i] = -1;
    }
    if (kind == REDUCE)
        OK(MPI_Reduce(x, y, c, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD));
    else
        OK(MPI_Allreduce(x, y, c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    if (kind == REDUCE && me != root)
        return;
    for (int i = 0; i < c; i++) {
        double want = 0;
        for (int r = 0; r < n; r++)
            want += r * 3 + i + it % 7;
        if (y[i] != want)
            fail(me, kind, it, bytes, i, (int)y[i], (int)want);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n > MAXN) {
        if (me == 0)
            fprintf(stderr, "at most %d ranks\n", MAXN);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    unsigned seed = 12345; /* the same draws on every rank */
    for (int it = 0; it < ITERS; it++) {
        seed = seed * 1103515245u + 12345u;
        int bytes = sizes[(seed >> 16) % NSIZES];
        int kind = (int)((seed >> 8) % NKIND);
        if (me != it % n && (it + me) % 5 == 0)
            for (int y = 0; y < 3; y++)
                sched_yield(); /* lag behind the others */
        if (kind >= REDUCE)
            reductions(kind, it, bytes, me, n);
        else
            blocks(kind, it, bytes, me, n);
    }
    if (me == 0)
        printf("shm_tiny: %d collectives of 0 .. %d bytes checked on %d ranks\n", ITERS, MAXB,
               n);
    MPI_Finalize();
    return 0;
}
