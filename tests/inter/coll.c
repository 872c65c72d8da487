/* coll.c — collectives on an intercommunicator (inter_util.h's halves of world), blocking
 * and nonblocking, with the root in either group: the root passes MPI_ROOT, the other
 * members of its group MPI_PROC_NULL (their buffers stay untouched), the remote group the
 * root's rank. Every result is checked against what the remote group sent: rank r of the
 * low (h = 0) or high (h = 1) half contributes value(h, r, i) as element i. */
#include <stdlib.h>
#include <string.h>
#include "inter_util.h"

#define N 5          /* elements per block */
#define SENTINEL -77 /* what a buffer that must stay untouched holds */

static int value(int h, int r, int i)
{
    return 1000 * h + 100 * r + i;
}

/* Ranks are threads of one process and this test is not built with loomcc (whose plugin
 * gives each rank its own globals): each rank's state is thread-local. */
static _Thread_local struct halves H;
static _Thread_local int nb; /* 1: the nonblocking forms */

static void done(MPI_Request *r)
{
    if (nb)
        OK(MPI_Wait(r, MPI_STATUS_IGNORE));
}

static int *ints(int n, int v)
{
    int *p = malloc(sizeof *p * (size_t)(n > 0 ? n : 1));
    CHECK(p);
    for (int i = 0; i < n; i++)
        p[i] = v;
    return p;
}

static void mine(int *buf, int n)
{
    for (int i = 0; i < n; i++)
        buf[i] = value(H.high, H.lrank, i);
}

/* The root argument of the calling rank when the root is rank `root` of group `rh`. */
static int root_arg(int rh, int root)
{
    if (H.high != rh)
        return root;
    return H.lrank == root ? MPI_ROOT : MPI_PROC_NULL;
}

static void check_untouched(const int *buf, int n)
{
    for (int i = 0; i < n; i++)
        CHECK_INT(buf[i], SENTINEL);
}

static void test_bcast(int rh, int root)
{
    int *buf = ints(N, SENTINEL), ra = root_arg(rh, root);
    MPI_Request r;
    if (ra == MPI_ROOT)
        mine(buf, N);
    if (nb)
        OK(MPI_Ibcast(buf, N, MPI_INT, ra, H.inter, &r));
    else
        OK(MPI_Bcast(buf, N, MPI_INT, ra, H.inter));
    done(&r);
    if (ra == MPI_PROC_NULL)
        check_untouched(buf, N);
    else
        for (int i = 0; i < N; i++)
            CHECK_INT(buf[i], value(rh, root, i));
    free(buf);
}

/* A non-commutative operation: the left operand wins (the result is rank 0's data). */
static void first(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    memcpy(inout, in, sizeof(int) * (size_t)*len);
}

static void test_reduce(int rh, int root, MPI_Op op_first)
{
    int ra = root_arg(rh, root);
    int *s = ints(N, SENTINEL), *res = ints(N, SENTINEL), *res2 = ints(N, SENTINEL);
    MPI_Request r[2];
    if (ra != MPI_ROOT && ra != MPI_PROC_NULL)
        mine(s, N);
    if (nb) {
        OK(MPI_Ireduce(s, res, N, MPI_INT, MPI_SUM, ra, H.inter, &r[0]));
        OK(MPI_Ireduce(s, res2, N, MPI_INT, op_first, ra, H.inter, &r[1]));
        OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    } else {
        OK(MPI_Reduce(s, res, N, MPI_INT, MPI_SUM, ra, H.inter));
        OK(MPI_Reduce(s, res2, N, MPI_INT, op_first, ra, H.inter));
    }
    if (ra == MPI_ROOT) {
        for (int i = 0; i < N; i++) {
            int sum = 0;
            for (int j = 0; j < H.rsize; j++)
                sum += value(!H.high, j, i);
            CHECK_INT(res[i], sum);
            CHECK_INT(res2[i], value(!H.high, 0, i));
        }
    } else {
        check_untouched(res, N); /* recvbuf is significant at the root only */
        check_untouched(res2, N);
    }
    free(s);
    free(res);
    free(res2);
}

static void test_allreduce(MPI_Op op_first)
{
    int s[N], res[N], res2[N];
    mine(s, N);
    MPI_Request r[2];
    if (nb) {
        OK(MPI_Iallreduce(s, res, N, MPI_INT, MPI_SUM, H.inter, &r[0]));
        OK(MPI_Iallreduce(s, res2, N, MPI_INT, op_first, H.inter, &r[1]));
        OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    } else {
        OK(MPI_Allreduce(s, res, N, MPI_INT, MPI_SUM, H.inter));
        OK(MPI_Allreduce(s, res2, N, MPI_INT, op_first, H.inter));
    }
    for (int i = 0; i < N; i++) {
        int sum = 0;
        for (int j = 0; j < H.rsize; j++)
            sum += value(!H.high, j, i);
        CHECK_INT(res[i], sum);
        CHECK_INT(res2[i], value(!H.high, 0, i));
    }
}

/* Gather and Gatherv: remote rank j's block at the root holds j + 1 elements (v) or N,
 * placed from the end of the buffer backwards (v). */
static void test_gather(int rh, int root, int v)
{
    int ra = root_arg(rh, root), R = H.rsize;
    int *counts = ints(R, 0), *displs = ints(R, 0), total = 0;
    for (int j = R - 1; j >= 0; j--) {
        counts[j] = v ? j + 1 : N;
        displs[j] = total;
        total += counts[j];
    }
    int *s = ints(N, 0), *res = ints(total, SENTINEL);
    mine(s, N);
    int scount = v ? H.lrank + 1 : N;
    MPI_Request r;
    if (v && nb)
        OK(MPI_Igatherv(s, scount, MPI_INT, res, counts, displs, MPI_INT, ra, H.inter, &r));
    else if (v)
        OK(MPI_Gatherv(s, scount, MPI_INT, res, counts, displs, MPI_INT, ra, H.inter));
    else if (nb)
        OK(MPI_Igather(s, N, MPI_INT, res, N, MPI_INT, ra, H.inter, &r));
    else
        OK(MPI_Gather(s, N, MPI_INT, res, N, MPI_INT, ra, H.inter));
    done(&r);
    if (ra == MPI_ROOT) {
        for (int j = 0; j < R; j++)
            for (int i = 0; i < counts[j]; i++)
                CHECK_INT(res[(v ? displs[j] : j * N) + i], value(!H.high, j, i));
    } else {
        check_untouched(res, total);
    }
    free(counts);
    free(displs);
    free(s);
    free(res);
}

static void test_scatter(int rh, int root, int v)
{
    int ra = root_arg(rh, root), R = H.rsize;
    int *counts = ints(R, 0), *displs = ints(R, 0), total = 0;
    for (int j = R - 1; j >= 0; j--) {
        counts[j] = v ? j + 1 : N;
        displs[j] = total;
        total += counts[j];
    }
    int *s = ints(total, 0), *res = ints(N, SENTINEL);
    if (ra == MPI_ROOT) /* remote rank j's block: what j would contribute itself */
        for (int j = 0; j < R; j++)
            for (int i = 0; i < counts[j]; i++)
                s[(v ? displs[j] : j * N) + i] = value(!H.high, j, i);
    int rcount = v ? H.lrank + 1 : N;
    MPI_Request r;
    if (v && nb)
        OK(MPI_Iscatterv(s, counts, displs, MPI_INT, res, rcount, MPI_INT, ra, H.inter, &r));
    else if (v)
        OK(MPI_Scatterv(s, counts, displs, MPI_INT, res, rcount, MPI_INT, ra, H.inter));
    else if (nb)
        OK(MPI_Iscatter(s, N, MPI_INT, res, N, MPI_INT, ra, H.inter, &r));
    else
        OK(MPI_Scatter(s, N, MPI_INT, res, N, MPI_INT, ra, H.inter));
    done(&r);
    if (ra == MPI_ROOT || ra == MPI_PROC_NULL) {
        check_untouched(res, N);
    } else {
        for (int i = 0; i < rcount; i++)
            CHECK_INT(res[i], value(H.high, H.lrank, i));
        if (v)
            check_untouched(res + rcount, N - rcount > 0 ? N - rcount : 0);
    }
    free(counts);
    free(displs);
    free(s);
    free(res);
}

/* Allgather(v): every rank gets the remote group's blocks (v: j + 1 elements from j). */
static void test_allgather(int v)
{
    int R = H.rsize;
    int *counts = ints(R, 0), *displs = ints(R, 0), total = 0;
    for (int j = R - 1; j >= 0; j--) {
        counts[j] = v ? j + 1 : N;
        displs[j] = total;
        total += counts[j];
    }
    int s[N], *res = ints(total, SENTINEL);
    mine(s, N);
    int scount = v ? H.lrank + 1 : N;
    MPI_Request r;
    if (v && nb)
        OK(MPI_Iallgatherv(s, scount, MPI_INT, res, counts, displs, MPI_INT, H.inter, &r));
    else if (v)
        OK(MPI_Allgatherv(s, scount, MPI_INT, res, counts, displs, MPI_INT, H.inter));
    else if (nb)
        OK(MPI_Iallgather(s, N, MPI_INT, res, N, MPI_INT, H.inter, &r));
    else
        OK(MPI_Allgather(s, N, MPI_INT, res, N, MPI_INT, H.inter));
    done(&r);
    for (int j = 0; j < R; j++)
        for (int i = 0; i < counts[j]; i++)
            CHECK_INT(res[(v ? displs[j] : j * N) + i], value(!H.high, j, i));
    free(counts);
    free(displs);
    free(res);
}

/* Alltoall(v,w): the block for remote rank j holds value(h, r, 10 * j + i); form 0 plain,
 * 1 v (j + 1 elements each way... as many as the receiver expects), 2 w (byte displs). */
static void test_alltoall(int form)
{
    int R = H.rsize;
    int *sc = ints(R, 0), *sd = ints(R, 0), *rc = ints(R, 0), *rd = ints(R, 0);
    MPI_Datatype *types = malloc(sizeof *types * (size_t)R);
    CHECK(types);
    int stotal = 0, rtotal = 0;
    for (int j = 0; j < R; j++) {
        sc[j] = form ? j + 1 : N;             /* remote j expects j + 1 from everyone */
        rc[j] = form ? H.lrank + 1 : N;       /* we expect lrank + 1 from everyone */
        sd[j] = form == 2 ? stotal * (int)sizeof(int) : stotal;
        rd[j] = form == 2 ? rtotal * (int)sizeof(int) : rtotal;
        stotal += sc[j];
        rtotal += rc[j];
        types[j] = MPI_INT;
    }
    int *s = ints(stotal, 0), *res = ints(rtotal, SENTINEL);
    for (int j = 0, o = 0; j < R; o += sc[j], j++)
        for (int i = 0; i < sc[j]; i++)
            s[o + i] = value(H.high, H.lrank, 10 * j + i);
    MPI_Request r;
    if (form == 0 && nb)
        OK(MPI_Ialltoall(s, N, MPI_INT, res, N, MPI_INT, H.inter, &r));
    else if (form == 0)
        OK(MPI_Alltoall(s, N, MPI_INT, res, N, MPI_INT, H.inter));
    else if (form == 1 && nb)
        OK(MPI_Ialltoallv(s, sc, sd, MPI_INT, res, rc, rd, MPI_INT, H.inter, &r));
    else if (form == 1)
        OK(MPI_Alltoallv(s, sc, sd, MPI_INT, res, rc, rd, MPI_INT, H.inter));
    else if (nb)
        OK(MPI_Ialltoallw(s, sc, sd, types, res, rc, rd, types, H.inter, &r));
    else
        OK(MPI_Alltoallw(s, sc, sd, types, res, rc, rd, types, H.inter));
    done(&r);
    for (int j = 0, o = 0; j < R; o += rc[j], j++)
        for (int i = 0; i < rc[j]; i++)
            CHECK_INT(res[o + i], value(!H.high, j, 10 * H.lrank + i));
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(types);
    free(s);
    free(res);
}

/* Reduce_scatter(_block): both groups' vectors have n = sum of the counts elements; local
 * rank i gets counts[i] of the remote group's sum. Counts: i + 1 (or `block` each), the
 * same n on both sides (block: n = lsize * block must match: only when both halves are the
 * same size). */
static void test_reduce_scatter(int block)
{
    int L = H.lsize, n = 0;
    if (block && H.lsize != H.rsize)
        return; /* both groups' n must agree: lsize * block == rsize * block */
    int *counts = ints(L, 0);
    if (block) {
        for (int i = 0; i < L; i++)
            counts[i] = N;
    } else {
        /* n must be the same in both groups: give the whole surplus to local rank 0 */
        int want = H.n * 2;
        for (int i = 1; i < L; i++)
            counts[i] = 1;
        counts[0] = want - (L - 1);
    }
    for (int i = 0; i < L; i++)
        n += counts[i];
    int *s = ints(n, 0), *res = ints(counts[H.lrank], SENTINEL);
    for (int k = 0; k < n; k++)
        s[k] = value(H.high, H.lrank, k);
    MPI_Request r;
    if (block && nb)
        OK(MPI_Ireduce_scatter_block(s, res, N, MPI_INT, MPI_SUM, H.inter, &r));
    else if (block)
        OK(MPI_Reduce_scatter_block(s, res, N, MPI_INT, MPI_SUM, H.inter));
    else if (nb)
        OK(MPI_Ireduce_scatter(s, res, counts, MPI_INT, MPI_SUM, H.inter, &r));
    else
        OK(MPI_Reduce_scatter(s, res, counts, MPI_INT, MPI_SUM, H.inter));
    done(&r);
    int off = 0;
    for (int i = 0; i < H.lrank; i++)
        off += counts[i];
    for (int k = 0; k < counts[H.lrank]; k++) {
        int sum = 0;
        for (int j = 0; j < H.rsize; j++)
            sum += value(!H.high, j, off + k);
        CHECK_INT(res[k], sum);
    }
    free(counts);
    free(s);
    free(res);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    if (world_size() >= 2) {
        halves_make(&H, 2);
        MPI_Op op_first;
        OK(MPI_Op_create(first, 0, &op_first));
        for (nb = 0; nb < 2; nb++) {
            for (int rh = 0; rh < 2; rh++) {
                int rsize = rh == H.high ? H.lsize : H.rsize; /* the root group's size */
                for (int root = 0; root < rsize; root += rsize > 1 ? rsize - 1 : 1) {
                    test_bcast(rh, root);
                    test_reduce(rh, root, op_first);
                    test_gather(rh, root, 0);
                    test_gather(rh, root, 1);
                    test_scatter(rh, root, 0);
                    test_scatter(rh, root, 1);
                }
            }
            test_allreduce(op_first);
            test_allgather(0);
            test_allgather(1);
            test_alltoall(0);
            test_alltoall(1);
            test_alltoall(2);
            test_reduce_scatter(0);
            test_reduce_scatter(1);
        }
        OK(MPI_Op_free(&op_first));
        halves_free(&H);
    }
    OK(MPI_Finalize());
    return 0;
}
