/* Every collective, blocking and nonblocking (Wait and Test loops), with counts 0, 1, odd and
 * large (about 1 MB per rank), every root position that matters, MPI_IN_PLACE wherever the
 * standard allows it, against a sequential reference computed here. Integers and MPI_SUM
 * (types and operations are covered by types_ops.c). Re-run under every progress policy,
 * split-tree setting and forced algorithm (CMakeLists.txt). */
#include "coll_check.h"

static _Thread_local int rank, size; /* ranks are threads: globals are shared */
/* the large count: 1 MB of ints; 96 KB under the sanitizers (still above the eager limit
 * and the copy chunk), which make every copy and every fill loop far slower */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define BIG (24 * 1024)
#else
#define BIG (256 * 1024)
#endif

static int *ints(long n)
{
    int *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    CHECK(p != NULL);
    return p;
}

static void fill(int *p, long n, int r, long off)
{
    for (long i = 0; i < n; i++)
        p[i] = val(r, off + i);
}

static void what(char *buf, size_t len, const char *coll, int mode, long count, int root,
                 int in_place)
{
    snprintf(buf, len, "%s %s count %ld root %d%s (rank %d of %d)", coll, mode_name[mode],
             count, root, in_place ? " in place" : "", rank, size);
}

static void test_bcast(int mode, long count, int root)
{
    int *buf = ints(count), *want = ints(count);
    fill(want, count, root, 0);
    if (rank == root)
        fill(buf, count, root, 0);
    else
        memset(buf, 0xff, (size_t)count * sizeof *buf);
    COLL(mode, Bcast, bcast, buf, (int)count, MPI_INT, root, MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, "bcast", mode, count, root, 0);
    CHECK_INTS(buf, want, count, w);
    free(buf);
    free(want);
}

static void sum_ref(int *want, long n, long off)
{
    for (long i = 0; i < n; i++) {
        want[i] = 0;
        for (int r = 0; r < size; r++)
            want[i] += val(r, off + i);
    }
}

static void test_reduce(int mode, long count, int root, int in_place, int alias)
{
    int *s = ints(count), *d = ints(count), *want = ints(count);
    fill(s, count, rank, 0);
    sum_ref(want, count, 0);
    const void *sb = s;
    void *rb = d;
    if (rank == root && in_place) {
        fill(d, count, rank, 0);
        sb = MPI_IN_PLACE;
    }
    if (rank != root && alias)
        rb = s; /* not significant on non-roots: aliasing is accepted */
    COLL(mode, Reduce, reduce, sb, rb, (int)count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, "reduce", mode, count, root, in_place);
    if (rank == root)
        CHECK_INTS(d, want, count, w);
    free(s);
    free(d);
    free(want);
}

static void test_allreduce(int mode, long count, int in_place)
{
    int *s = ints(count), *d = ints(count), *want = ints(count);
    fill(s, count, rank, 0);
    fill(d, count, rank, 0);
    sum_ref(want, count, 0);
    COLL(mode, Allreduce, allreduce, in_place ? MPI_IN_PLACE : s, d, (int)count, MPI_INT,
         MPI_SUM, MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, "allreduce", mode, count, -1, in_place);
    CHECK_INTS(d, want, count, w);
    free(s);
    free(d);
    free(want);
}

static void test_scan(int mode, long count, int in_place, int ex)
{
    int *s = ints(count), *d = ints(count), *want = ints(count);
    fill(s, count, rank, 0);
    fill(d, count, rank, 0);
    for (long i = 0; i < count; i++) {
        want[i] = 0;
        for (int r = 0; r < rank + !ex; r++)
            want[i] += val(r, i);
    }
    if (ex)
        COLL(mode, Exscan, exscan, in_place ? MPI_IN_PLACE : s, d, (int)count, MPI_INT, MPI_SUM,
             MPI_COMM_WORLD);
    else
        COLL(mode, Scan, scan, in_place ? MPI_IN_PLACE : s, d, (int)count, MPI_INT, MPI_SUM,
             MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, ex ? "exscan" : "scan", mode, count, -1, in_place);
    if (!ex || rank > 0) /* exscan's recvbuf is undefined on rank 0 */
        CHECK_INTS(d, want, count, w);
    free(s);
    free(d);
    free(want);
}

static void test_gather(int mode, long count, int root, int in_place)
{
    int *s = ints(count), *d = ints(count * size), *want = ints(count * size);
    fill(s, count, rank, 0);
    for (int r = 0; r < size; r++)
        fill(want + r * count, count, r, 0);
    memset(d, 0xff, (size_t)(count * size) * sizeof *d);
    const void *sb = s;
    if (rank == root && in_place) {
        fill(d + rank * count, count, rank, 0);
        sb = MPI_IN_PLACE;
    }
    COLL(mode, Gather, gather, sb, (int)count, MPI_INT, d, (int)count, MPI_INT, root,
         MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, "gather", mode, count, root, in_place);
    if (rank == root)
        CHECK_INTS(d, want, count * size, w);
    free(s);
    free(d);
    free(want);
}

/* v variants: rank r's block holds count + r ints, placed with a gap of 3 */
static void vlayout(long count, int *counts, int *displs, long *total)
{
    long t = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = (int)(count ? count + r : 0);
        displs[r] = (int)t;
        t += counts[r] + 3;
    }
    *total = t;
}

static void test_gatherv(int mode, long count, int root, int in_place)
{
    int counts[64], displs[64];
    long total;
    vlayout(count, counts, displs, &total);
    int *s = ints(counts[rank]), *d = ints(total), *want = ints(total);
    fill(s, counts[rank], rank, 0);
    memset(d, 0xff, (size_t)total * sizeof *d);
    memset(want, 0xff, (size_t)total * sizeof *want);
    for (int r = 0; r < size; r++)
        fill(want + displs[r], counts[r], r, 0);
    const void *sb = s;
    if (rank == root && in_place) {
        fill(d + displs[rank], counts[rank], rank, 0);
        sb = MPI_IN_PLACE;
    }
    COLL(mode, Gatherv, gatherv, sb, counts[rank], MPI_INT, d, counts, displs, MPI_INT, root,
         MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, "gatherv", mode, count, root, in_place);
    if (rank == root)
        CHECK_INTS(d, want, total, w);
    free(s);
    free(d);
    free(want);
}

static void test_scatter(int mode, long count, int root, int in_place)
{
    int *s = ints(count * size), *d = ints(count), *want = ints(count);
    for (int r = 0; r < size; r++)
        fill(s + r * count, count, root, r * count);
    fill(want, count, root, rank * count);
    memset(d, 0xff, (size_t)count * sizeof *d);
    void *rb = d;
    if (rank == root && in_place)
        rb = MPI_IN_PLACE;
    COLL(mode, Scatter, scatter, s, (int)count, MPI_INT, rb, (int)count, MPI_INT, root,
         MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, "scatter", mode, count, root, in_place);
    if (rb != MPI_IN_PLACE)
        CHECK_INTS(d, want, count, w);
    else
        CHECK_INTS(s + rank * count, want, count, w); /* untouched */
    free(s);
    free(d);
    free(want);
}

static void test_scatterv(int mode, long count, int root, int in_place)
{
    int counts[64], displs[64];
    long total;
    vlayout(count, counts, displs, &total);
    int *s = ints(total), *d = ints(counts[rank]), *want = ints(counts[rank]);
    for (int r = 0; r < size; r++)
        fill(s + displs[r], counts[r], root, r * 100000L);
    fill(want, counts[rank], root, rank * 100000L);
    memset(d, 0xff, (size_t)counts[rank] * sizeof *d);
    void *rb = rank == root && in_place ? MPI_IN_PLACE : d;
    COLL(mode, Scatterv, scatterv, s, counts, displs, MPI_INT, rb, counts[rank], MPI_INT, root,
         MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, "scatterv", mode, count, root, in_place);
    if (rb != MPI_IN_PLACE)
        CHECK_INTS(d, want, counts[rank], w);
    free(s);
    free(d);
    free(want);
}

static void test_allgather(int mode, long count, int in_place)
{
    int *s = ints(count), *d = ints(count * size), *want = ints(count * size);
    fill(s, count, rank, 0);
    for (int r = 0; r < size; r++)
        fill(want + r * count, count, r, 0);
    memset(d, 0xff, (size_t)(count * size) * sizeof *d);
    if (in_place)
        fill(d + rank * count, count, rank, 0);
    COLL(mode, Allgather, allgather, in_place ? MPI_IN_PLACE : s, (int)count, MPI_INT, d,
         (int)count, MPI_INT, MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, "allgather", mode, count, -1, in_place);
    CHECK_INTS(d, want, count * size, w);
    free(s);
    free(d);
    free(want);
}

static void test_allgatherv(int mode, long count, int in_place)
{
    int counts[64], displs[64];
    long total;
    vlayout(count, counts, displs, &total);
    int *s = ints(counts[rank]), *d = ints(total), *want = ints(total);
    fill(s, counts[rank], rank, 0);
    memset(d, 0xff, (size_t)total * sizeof *d);
    memset(want, 0xff, (size_t)total * sizeof *want);
    for (int r = 0; r < size; r++)
        fill(want + displs[r], counts[r], r, 0);
    if (in_place)
        fill(d + displs[rank], counts[rank], rank, 0);
    COLL(mode, Allgatherv, allgatherv, in_place ? MPI_IN_PLACE : s, counts[rank], MPI_INT, d,
         counts, displs, MPI_INT, MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, "allgatherv", mode, count, -1, in_place);
    CHECK_INTS(d, want, total, w);
    free(s);
    free(d);
    free(want);
}

/* alltoall: the block rank r sends to rank q holds val(r, q * count + i) */
static void test_alltoall(int mode, long count, int in_place)
{
    int *s = ints(count * size), *d = ints(count * size), *want = ints(count * size);
    for (int q = 0; q < size; q++) {
        fill(s + q * count, count, rank, q * count);
        fill(want + q * count, count, q, rank * count);
    }
    if (in_place)
        memcpy(d, s, (size_t)(count * size) * sizeof *d);
    COLL(mode, Alltoall, alltoall, in_place ? MPI_IN_PLACE : s, (int)count, MPI_INT, d,
         (int)count, MPI_INT, MPI_COMM_WORLD);
    char w[128];
    what(w, sizeof w, "alltoall", mode, count, -1, in_place);
    CHECK_INTS(d, want, count * size, w);
    free(s);
    free(d);
    free(want);
}

/* alltoallv/w: rank r sends (r + q) % 3 + count ints to q (0 when count is 0) */
static int vcount(int r, int q, long count)
{
    return count ? (int)((r + q) % 3 + count) : 0;
}

static void test_alltoallv(int mode, long count, int in_place, int w_form)
{
    int sc[64], sd[64], rc[64], rd[64], sdb[64], rdb[64];
    MPI_Datatype types[64];
    long st = 0, rt = 0;
    for (int q = 0; q < size; q++) {
        sc[q] = vcount(rank, q, count);
        rc[q] = vcount(q, rank, count);
        sd[q] = (int)st;
        rd[q] = (int)rt;
        sdb[q] = (int)(st * (long)sizeof(int));
        rdb[q] = (int)(rt * (long)sizeof(int));
        types[q] = MPI_INT;
        st += sc[q] + 1;
        rt += rc[q] + 2;
    }
    int *s = ints(st), *d = ints(rt), *want = ints(rt);
    memset(d, 0xff, (size_t)rt * sizeof *d);
    memset(want, 0xff, (size_t)rt * sizeof *want);
    for (int q = 0; q < size; q++) {
        fill(s + sd[q], sc[q], rank, q * 100000L);
        fill(want + rd[q], rc[q], q, rank * 100000L);
    }
    if (in_place) { /* in place: the send data sits in recvbuf, laid out as received */
        for (int q = 0; q < size; q++)
            fill(d + rd[q], rc[q], rank, q * 100000L);
        /* with the receive layout, rank sends rc[q] ints to q: valid since rc[q] == sc[q]
         * when (r + q) % 3 is symmetric, which it is */
    }
    char w[128];
    if (w_form) {
        COLL(mode, Alltoallw, alltoallw, in_place ? MPI_IN_PLACE : s, sc, sdb, types, d, rc,
             rdb, types, MPI_COMM_WORLD);
        what(w, sizeof w, "alltoallw", mode, count, -1, in_place);
    } else {
        COLL(mode, Alltoallv, alltoallv, in_place ? MPI_IN_PLACE : s, sc, sd, MPI_INT, d, rc,
             rd, MPI_INT, MPI_COMM_WORLD);
        what(w, sizeof w, "alltoallv", mode, count, -1, in_place);
    }
    CHECK_INTS(d, want, rt, w);
    free(s);
    free(d);
    free(want);
}

static void test_reduce_scatter(int mode, long count, int in_place, int block)
{
    int counts[64];
    long total = 0, off = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = (int)(block ? count : (count ? count + r : 0));
        if (r < rank)
            off += counts[r];
        total += counts[r];
    }
    int *s = ints(total), *d = ints(in_place ? total : counts[rank]), *want = ints(counts[rank]);
    fill(s, total, rank, 0);
    sum_ref(want, counts[rank], off);
    if (in_place)
        fill(d, total, rank, 0);
    const void *sb = in_place ? MPI_IN_PLACE : s;
    char w[128];
    if (block) {
        COLL(mode, Reduce_scatter_block, reduce_scatter_block, sb, d, (int)count, MPI_INT,
             MPI_SUM, MPI_COMM_WORLD);
        what(w, sizeof w, "reduce_scatter_block", mode, count, -1, in_place);
    } else {
        COLL(mode, Reduce_scatter, reduce_scatter, sb, d, counts, MPI_INT, MPI_SUM,
             MPI_COMM_WORLD);
        what(w, sizeof w, "reduce_scatter", mode, count, -1, in_place);
    }
    CHECK_INTS(d, want, counts[rank], w);
    free(s);
    free(d);
    free(want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64);
    const long counts[] = {0, 1, 7, BIG};
    int roots[] = {0, size - 1, size / 2};
    /* each case runs once, the way of running it (blocking, Wait, Test loop) taking turns,
     * so every collective meets every way over the counts */
    int turn = 0;
#define NEXT (turn++ % MODE_COUNT_)
    OK(MPI_Barrier(MPI_COMM_WORLD));
    COLL(MODE_WAIT, Barrier, barrier, MPI_COMM_WORLD);
    COLL(MODE_TEST, Barrier, barrier, MPI_COMM_WORLD);
    for (int c = 0; c < 4; c++) {
        long n = counts[c];
        long per = c == 3 ? BIG / size : n; /* per-rank blocks: BIG ints in all */
        for (int k = 0; k < 3; k++) {
            int root = roots[k];
            if (k > 0 && root == roots[0])
                continue;
            test_bcast(NEXT, n, root);
            test_reduce(NEXT, n, root, k == 1, k == 2);
            test_reduce(NEXT, n, root, 0, 0);
            test_gather(NEXT, per, root, k == 1);
            test_gatherv(NEXT, per, root, k == 1);
            test_scatter(NEXT, per, root, k == 1);
            test_scatterv(NEXT, per, root, k == 1);
        }
        for (int ip = 0; ip < 2; ip++) {
            test_allreduce(NEXT, n, ip);
            test_scan(NEXT, n, ip, 0);
            test_scan(NEXT, n, ip, 1);
            test_allgather(NEXT, per, ip);
            test_allgatherv(NEXT, per, ip);
            test_alltoall(NEXT, per, ip);
            test_alltoallv(NEXT, per, ip, 0);
            test_alltoallv(NEXT, per, ip, 1);
            test_reduce_scatter(NEXT, per, ip, 0);
            test_reduce_scatter(NEXT, per, ip, 1);
        }
    }
    MPI_Finalize();
    return 0;
}
