/* Persistent collectives: every MPI_<Coll>_init, started ITERS times with the data changed
 * between starts, each result checked against the sequential answer for that start. Starts
 * are completed in turn by MPI_Wait, an MPI_Test loop, MPI_Waitall and an MPI_Testall loop, so
 * every completion call sees a persistent collective; the request stays the same handle
 * (persistent) and is freed inactive at the end. The reductions run at a small count and at
 * one past the recursive-doubling threshold (scratch kept by the schedule between starts),
 * and in place. */
#include "coll_check.h"

#define ITERS 5
#define SMALL 5
#define LARGE 5000 /* 20 KB of ints: reduce-then-bcast allreduce, with scratch */

/* (no globals: the ranks are threads of one process, and this program is not built with
 * loomcc's privatizing plugin) */
static int comm_rank(void)
{
    int r;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &r));
    return r;
}

static int comm_size(void)
{
    int n;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    return n;
}

/* The value of element i of rank r's contribution at start `it`. */
static int v(int r, long i, int it)
{
    return val(r, i) + it * 100000;
}

/* Complete a started persistent request in one of four ways (by start number). */
static void finish(MPI_Request *r, int it)
{
    MPI_Request keep = *r;
    int flag = 0;
    switch (it % 4) {
    case 0:
        OK(MPI_Wait(r, MPI_STATUS_IGNORE));
        break;
    case 1:
        while (!flag)
            OK(MPI_Test(r, &flag, MPI_STATUS_IGNORE));
        break;
    case 2:
        OK(MPI_Waitall(1, r, MPI_STATUSES_IGNORE));
        break;
    default:
        while (!flag)
            OK(MPI_Testall(1, r, &flag, MPI_STATUSES_IGNORE));
    }
    CHECK(*r == keep); /* persistent: the handle stays */
}

static void run(MPI_Request *r, int it)
{
    OK(MPI_Start(r));
    finish(r, it);
}

static void check_bcast(void)
{
    int rank = comm_rank(), size = comm_size();
    int root = size - 1, buf[SMALL], want[SMALL];
    MPI_Request r;
    OK(MPI_Bcast_init(buf, SMALL, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int it = 0; it < ITERS; it++) {
        for (int i = 0; i < SMALL; i++) {
            want[i] = v(root, i, it);
            buf[i] = rank == root ? want[i] : -1;
        }
        run(&r, it);
        CHECK_INTS(buf, want, SMALL, "bcast_init");
    }
    OK(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL);
}

/* Reduce, Allreduce, Scan, Exscan of n ints; in_place: recvbuf holds the input. */
static void check_reduction(const char *what, int kind, int n, int in_place)
{
    int rank = comm_rank(), size = comm_size();
    int root = size / 2;
    int *s = malloc((size_t)n * sizeof *s), *rb = malloc((size_t)n * sizeof *rb);
    int *want = malloc((size_t)n * sizeof *want);
    CHECK(s && rb && want);
    const void *sb = in_place ? MPI_IN_PLACE : s;
    MPI_Request r;
    switch (kind) {
    case 0:
        OK(MPI_Reduce_init(rank == root ? sb : s, rb, n, MPI_INT, MPI_SUM, root,
                           MPI_COMM_WORLD, MPI_INFO_NULL, &r));
        break;
    case 1:
        OK(MPI_Allreduce_init(sb, rb, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
        break;
    case 2:
        OK(MPI_Scan_init(sb, rb, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
        break;
    default:
        OK(MPI_Exscan_init(sb, rb, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    }
    for (int it = 0; it < ITERS; it++) {
        int upto = kind == 2 ? rank + 1 : kind == 3 ? rank : size;
        for (int i = 0; i < n; i++) {
            int mine = v(rank, i, it);
            if (in_place && (kind != 0 || rank == root))
                rb[i] = mine;
            else
                rb[i] = -1;
            s[i] = mine;
            want[i] = 0;
            for (int q = 0; q < upto; q++)
                want[i] += v(q, i, it);
        }
        run(&r, it);
        if ((kind == 0 && rank != root) || (kind == 3 && rank == 0))
            continue; /* recvbuf not significant */
        CHECK_INTS(rb, want, n, what);
    }
    OK(MPI_Request_free(&r));
    free(s);
    free(rb);
    free(want);
}

static void check_gathers(void)
{
    int rank = comm_rank(), size = comm_size();
    int n = size, C = SMALL, root = 0;
    int *s = malloc(sizeof(int) * (size_t)(n * (C + 2) + 1));
    int *rb = malloc(sizeof(int) * (size_t)(n * (C + 2) + 1));
    int *want = malloc(sizeof(int) * (size_t)(n * (C + 2) + 1));
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    CHECK(s && rb && want && counts && displs);
    /* v-forms: rank q brings q % 3 + 1 ints, at displacement q * (C + 2) (gaps stay -1) */
    for (int q = 0; q < n; q++) {
        counts[q] = q % 3 + 1;
        displs[q] = q * (C + 2);
    }
    int total = n * (C + 2), mine = counts[rank];
    MPI_Request r[6];
    OK(MPI_Gather_init(s, C, MPI_INT, rb, C, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &r[0]));
    OK(MPI_Allgather_init(s, C, MPI_INT, rb, C, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    OK(MPI_Gatherv_init(s, mine, MPI_INT, rb, counts, displs, MPI_INT, root, MPI_COMM_WORLD,
                        MPI_INFO_NULL, &r[2]));
    OK(MPI_Allgatherv_init(s, mine, MPI_INT, rb, counts, displs, MPI_INT, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &r[3]));
    OK(MPI_Scatter_init(s, C, MPI_INT, rb, C, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                        &r[4]));
    OK(MPI_Scatterv_init(s, counts, displs, MPI_INT, rb, mine, MPI_INT, root, MPI_COMM_WORLD,
                         MPI_INFO_NULL, &r[5]));
    static const char *const names[6] = {"gather_init",    "allgather_init", "gatherv_init",
                                         "allgatherv_init", "scatter_init",  "scatterv_init"};
    for (int it = 0; it < ITERS; it++) {
        for (int k = 0; k < 6; k++) {
            int v_form = k == 2 || k == 3 || k == 5, scatter = k >= 4;
            int all = k == 1 || k == 3;
            for (int i = 0; i < total; i++)
                rb[i] = want[i] = -1;
            if (!scatter) {
                for (int i = 0; i < C; i++)
                    s[i] = v(rank, i, it + k);
                for (int q = 0; q < n; q++)
                    for (int i = 0; i < (v_form ? counts[q] : C); i++)
                        want[(v_form ? displs[q] : q * C) + i] = v(q, i, it + k);
                if (!all && rank != root)
                    for (int i = 0; i < total; i++)
                        want[i] = -1; /* nothing lands off the root */
            } else {
                for (int q = 0; q < n; q++)
                    for (int i = 0; i < (v_form ? counts[q] : C); i++)
                        s[(v_form ? displs[q] : q * C) + i] = v(q, i, it + k);
                for (int i = 0; i < (v_form ? mine : C); i++)
                    want[i] = v(rank, i, it + k);
            }
            run(&r[k], it);
            CHECK_INTS(rb, want, total, names[k]);
        }
    }
    for (int k = 0; k < 6; k++)
        OK(MPI_Request_free(&r[k]));
    free(s);
    free(rb);
    free(want);
    free(counts);
    free(displs);
}

/* The value rank `from` sends rank `to`, element i, start it. */
static int a2a(int from, int to, int i, int it)
{
    return from * 100 + to + i * 10000 + it * 1000000;
}

static void check_alltoalls(void)
{
    int rank = comm_rank(), size = comm_size();
    int n = size, C = 3;
    int *s = malloc(sizeof(int) * (size_t)(n * C)), *rb = malloc(sizeof(int) * (size_t)(n * C));
    int *want = malloc(sizeof(int) * (size_t)(n * C));
    int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
    int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    int *sdb = malloc(sizeof(int) * (size_t)n), *rdb = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)n);
    CHECK(s && rb && want && sc && sd && rc && rd && sdb && rdb && types);
    /* v/w forms: rank a sends rank b (a + b) % C + 1 ints, in blocks C apart */
    for (int q = 0; q < n; q++) {
        sc[q] = (rank + q) % C + 1;
        rc[q] = (q + rank) % C + 1;
        sd[q] = rd[q] = q * C;
        sdb[q] = rdb[q] = q * C * (int)sizeof(int);
        types[q] = MPI_INT;
    }
    MPI_Request r[3];
    OK(MPI_Alltoall_init(s, C, MPI_INT, rb, C, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    OK(MPI_Alltoallv_init(s, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD,
                          MPI_INFO_NULL, &r[1]));
    OK(MPI_Alltoallw_init(s, sc, sdb, types, rb, rc, rdb, types, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &r[2]));
    static const char *const names[3] = {"alltoall_init", "alltoallv_init", "alltoallw_init"};
    for (int it = 0; it < ITERS; it++) {
        for (int k = 0; k < 3; k++) {
            for (int q = 0; q < n; q++) {
                for (int i = 0; i < C; i++) {
                    s[q * C + i] = a2a(rank, q, i, it + k);
                    rb[q * C + i] = -1;
                    want[q * C + i] = k == 0 || i < rc[q] ? a2a(q, rank, i, it + k) : -1;
                }
            }
            run(&r[k], it);
            CHECK_INTS(rb, want, n * C, names[k]);
        }
    }
    for (int k = 0; k < 3; k++)
        OK(MPI_Request_free(&r[k]));
    free(s);
    free(rb);
    free(want);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sdb);
    free(rdb);
    free(types);
}

static void check_reduce_scatters(void)
{
    int rank = comm_rank(), size = comm_size();
    int n = size, B = 2;
    int *counts = malloc(sizeof(int) * (size_t)n);
    CHECK(counts);
    int total = 0, off = 0;
    for (int q = 0; q < n; q++) {
        counts[q] = q % 3 + 1;
        if (q < rank)
            off += counts[q];
        total += counts[q];
    }
    int big = total > n * B ? total : n * B;
    int *s = malloc(sizeof(int) * (size_t)big), *rb = malloc(sizeof(int) * (size_t)big);
    int *want = malloc(sizeof(int) * (size_t)big);
    CHECK(s && rb && want);
    MPI_Request r[2];
    OK(MPI_Reduce_scatter_init(s, rb, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &r[0]));
    OK(MPI_Reduce_scatter_block_init(s, rb, B, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                     MPI_INFO_NULL, &r[1]));
    for (int it = 0; it < ITERS; it++) {
        for (int k = 0; k < 2; k++) {
            int mine = k == 0 ? counts[rank] : B, first = k == 0 ? off : rank * B;
            for (int i = 0; i < big; i++) {
                s[i] = v(rank, i, it + k);
                rb[i] = -1;
            }
            for (int i = 0; i < mine; i++) {
                want[i] = 0;
                for (int q = 0; q < n; q++)
                    want[i] += v(q, first + i, it + k);
            }
            run(&r[k], it);
            CHECK_INTS(rb, want, mine,
                       k == 0 ? "reduce_scatter_init" : "reduce_scatter_block_init");
        }
    }
    OK(MPI_Request_free(&r[0]));
    OK(MPI_Request_free(&r[1]));
    free(counts);
    free(s);
    free(rb);
    free(want);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MPI_Request b;
    OK(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &b));
    /* never started: inactive, acts as complete */
    int flag = 0;
    OK(MPI_Test(&b, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 1);
    for (int it = 0; it < ITERS; it++)
        run(&b, it);

    check_bcast();
    static const char *const names[4] = {"reduce_init", "allreduce_init", "scan_init",
                                         "exscan_init"};
    for (int kind = 0; kind < 4; kind++) {
        check_reduction(names[kind], kind, SMALL, 0);
        check_reduction(names[kind], kind, SMALL, 1);
    }
    check_reduction("allreduce_init large", 1, LARGE, 0);
    check_reduction("allreduce_init large in place", 1, LARGE, 1);
    check_reduction("reduce_init large", 0, LARGE, 0);
    check_gathers();
    check_alltoalls();
    check_reduce_scatters();

    OK(MPI_Request_free(&b));
    OK(MPI_Finalize());
    return 0;
}
