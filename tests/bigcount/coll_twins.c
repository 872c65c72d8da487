/* Every big-count collective MPI_Xxx_c gives what its int twin gives, on ordinary counts:
 * blocking, nonblocking (I...) and persistent (..._init, started twice). Each case runs the
 * int call into one buffer and the _c call into another (both first filled with a sentinel,
 * so that untouched gaps count too), checks the int result against the values the pattern
 * asks for, and the _c result byte for byte against the int one. The v and w forms use
 * counts that differ per rank and displacements that leave gaps and reverse the order. */
#include "coll_run.h"

enum { MAXN = 64, BUF = 4096, SENTINEL = -7 };
static _Thread_local int me, n; /* ranks are threads: globals are shared */
static _Thread_local MPI_Comm w;

/* The value element i of rank r's contribution holds (for peer p where it matters). */
static int pat(int r, int p, int i)
{
    return r * 10000 + p * 100 + i;
}

/* The counts and displacements of a v call, both widths: counts[r] = (r + shift) % 3 + 1,
 * blocks laid out in reverse rank order with a gap of one element between them. */
struct vec {
    int ic[MAXN], id[MAXN];
    MPI_Count cc[MAXN];
    MPI_Aint cd[MAXN];
    int total; /* elements the layout spans */
};

static void make_vec(struct vec *v, int shift, int bytes)
{
    int off = 1;
    for (int r = n - 1; r >= 0; r--) {
        v->ic[r] = (r + shift) % 3 + 1;
        v->id[r] = bytes ? off * (int)sizeof(int) : off;
        v->cc[r] = v->ic[r];
        v->cd[r] = v->id[r];
        off += v->ic[r] + 1;
    }
    v->total = off;
}

static int elem(const struct vec *v, int r, int bytes)
{
    return bytes ? v->id[r] / (int)sizeof(int) : v->id[r];
}

/* ---- the cases: run the call of width `wide` into out, check it when !wide ---- */

static void t_bcast(int mode, int wide, int *out)
{
    int root = n - 1, K = 5;
    if (me == root)
        for (int i = 0; i < K; i++)
            out[i] = pat(root, 0, i);
    RUN(mode, wide, Bcast, Ibcast, (out, K, MPI_INT, root, w), (out, K, MPI_INT, root, w));
    for (int i = 0; i < K; i++)
        CHECK_INT(out[i], pat(root, 0, i));
}

static void t_gather(int mode, int wide, int *out)
{
    int root = n / 2, K = 3, s[3];
    for (int i = 0; i < K; i++)
        s[i] = pat(me, 0, i);
    RUN(mode, wide, Gather, Igather, (s, K, MPI_INT, out, K, MPI_INT, root, w),
        (s, K, MPI_INT, out, K, MPI_INT, root, w));
    for (int r = 0; me == root && r < n; r++)
        for (int i = 0; i < K; i++)
            CHECK_INT(out[r * K + i], pat(r, 0, i));
}

static void t_gatherv(int mode, int wide, int *out)
{
    struct vec v;
    make_vec(&v, 0, 0);
    int root = 0, k = (me % 3) + 1, s[3];
    for (int i = 0; i < k; i++)
        s[i] = pat(me, 0, i);
    RUN(mode, wide, Gatherv, Igatherv, (s, k, MPI_INT, out, v.ic, v.id, MPI_INT, root, w),
        (s, k, MPI_INT, out, v.cc, v.cd, MPI_INT, root, w));
    for (int r = 0; me == root && r < n; r++)
        for (int i = 0; i < v.ic[r]; i++)
            CHECK_INT(out[v.id[r] + i], pat(r, 0, i));
}

static void t_scatter(int mode, int wide, int *out)
{
    int root = n - 1, K = 4, s[MAXN * 4];
    for (int r = 0; r < n; r++)
        for (int i = 0; i < K; i++)
            s[r * K + i] = pat(root, r, i);
    RUN(mode, wide, Scatter, Iscatter, (s, K, MPI_INT, out, K, MPI_INT, root, w),
        (s, K, MPI_INT, out, K, MPI_INT, root, w));
    for (int i = 0; i < K; i++)
        CHECK_INT(out[i], pat(root, me, i));
}

static void t_scatterv(int mode, int wide, int *out)
{
    struct vec v;
    make_vec(&v, 1, 0);
    int root = n / 2, s[BUF];
    for (int r = 0; r < n; r++)
        for (int i = 0; i < v.ic[r]; i++)
            s[v.id[r] + i] = pat(root, r, i);
    int k = v.ic[me];
    RUN(mode, wide, Scatterv, Iscatterv, (s, v.ic, v.id, MPI_INT, out, k, MPI_INT, root, w),
        (s, v.cc, v.cd, MPI_INT, out, k, MPI_INT, root, w));
    for (int i = 0; i < k; i++)
        CHECK_INT(out[i], pat(root, me, i));
}

static void t_allgather(int mode, int wide, int *out)
{
    int K = 2, s[2] = {pat(me, 0, 0), pat(me, 0, 1)};
    RUN(mode, wide, Allgather, Iallgather, (s, K, MPI_INT, out, K, MPI_INT, w),
        (s, K, MPI_INT, out, K, MPI_INT, w));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < K; i++)
            CHECK_INT(out[r * K + i], pat(r, 0, i));
}

static void t_allgatherv(int mode, int wide, int *out)
{
    struct vec v;
    make_vec(&v, 2, 0);
    int k = v.ic[me], s[3];
    for (int i = 0; i < k; i++)
        s[i] = pat(me, 0, i);
    RUN(mode, wide, Allgatherv, Iallgatherv, (s, k, MPI_INT, out, v.ic, v.id, MPI_INT, w),
        (s, k, MPI_INT, out, v.cc, v.cd, MPI_INT, w));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < v.ic[r]; i++)
            CHECK_INT(out[v.id[r] + i], pat(r, 0, i));
}

static void t_alltoall(int mode, int wide, int *out)
{
    int K = 3, s[MAXN * 3];
    for (int r = 0; r < n; r++)
        for (int i = 0; i < K; i++)
            s[r * K + i] = pat(me, r, i);
    RUN(mode, wide, Alltoall, Ialltoall, (s, K, MPI_INT, out, K, MPI_INT, w),
        (s, K, MPI_INT, out, K, MPI_INT, w));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < K; i++)
            CHECK_INT(out[r * K + i], pat(r, me, i));
}

/* alltoallv / alltoallw: rank s sends (s + r) % 3 + 1 elements to rank r. */
static void a2a_vecs(struct vec *sv, struct vec *rv, int bytes)
{
    int off = 1;
    for (int r = n - 1; r >= 0; r--) { /* send side: to r */
        sv->ic[r] = (me + r) % 3 + 1;
        sv->id[r] = bytes ? off * (int)sizeof(int) : off;
        sv->cc[r] = sv->ic[r];
        sv->cd[r] = sv->id[r];
        off += sv->ic[r] + 2;
    }
    sv->total = off;
    off = 0;
    for (int r = 0; r < n; r++) { /* receive side: from r, in order, gaps of one */
        rv->ic[r] = (r + me) % 3 + 1;
        rv->id[r] = bytes ? off * (int)sizeof(int) : off;
        rv->cc[r] = rv->ic[r];
        rv->cd[r] = rv->id[r];
        off += rv->ic[r] + 1;
    }
    rv->total = off;
}

static void t_alltoallv(int mode, int wide, int *out)
{
    struct vec sv, rv;
    a2a_vecs(&sv, &rv, 0);
    int s[BUF];
    for (int r = 0; r < n; r++)
        for (int i = 0; i < sv.ic[r]; i++)
            s[sv.id[r] + i] = pat(me, r, i);
    RUN(mode, wide, Alltoallv, Ialltoallv,
        (s, sv.ic, sv.id, MPI_INT, out, rv.ic, rv.id, MPI_INT, w),
        (s, sv.cc, sv.cd, MPI_INT, out, rv.cc, rv.cd, MPI_INT, w));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < rv.ic[r]; i++)
            CHECK_INT(out[rv.id[r] + i], pat(r, me, i));
}

static void t_alltoallw(int mode, int wide, int *out)
{
    struct vec sv, rv;
    a2a_vecs(&sv, &rv, 1); /* byte displacements */
    int s[BUF];
    MPI_Datatype types[MAXN];
    for (int r = 0; r < n; r++) {
        types[r] = MPI_INT;
        for (int i = 0; i < sv.ic[r]; i++)
            s[elem(&sv, r, 1) + i] = pat(me, r, i);
    }
    RUN(mode, wide, Alltoallw, Ialltoallw,
        (s, sv.ic, sv.id, types, out, rv.ic, rv.id, types, w),
        (s, sv.cc, sv.cd, types, out, rv.cc, rv.cd, types, w));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < rv.ic[r]; i++)
            CHECK_INT(out[elem(&rv, r, 1) + i], pat(r, me, i));
}

static void t_reduce(int mode, int wide, int *out)
{
    int root = n - 1, K = 4, s[4];
    for (int i = 0; i < K; i++)
        s[i] = me * 3 + i;
    RUN(mode, wide, Reduce, Ireduce, (s, out, K, MPI_INT, MPI_SUM, root, w),
        (s, out, K, MPI_INT, MPI_SUM, root, w));
    for (int i = 0; me == root && i < K; i++)
        CHECK_INT(out[i], 3 * n * (n - 1) / 2 + n * i);
}

static void t_allreduce(int mode, int wide, int *out)
{
    int K = 5, s[5];
    for (int i = 0; i < K; i++)
        s[i] = me + i * 7;
    RUN(mode, wide, Allreduce, Iallreduce, (s, out, K, MPI_INT, MPI_MAX, w),
        (s, out, K, MPI_INT, MPI_MAX, w));
    for (int i = 0; i < K; i++)
        CHECK_INT(out[i], n - 1 + i * 7);
}

static void t_allreduce_in_place(int mode, int wide, int *out)
{
    int K = 3;
    for (int i = 0; i < K; i++)
        out[i] = me + i;
    RUN(mode, wide, Allreduce, Iallreduce, (MPI_IN_PLACE, out, K, MPI_INT, MPI_SUM, w),
        (MPI_IN_PLACE, out, K, MPI_INT, MPI_SUM, w));
    if (mode == PERSISTENT) /* started twice on its own result */
        for (int i = 0; i < K; i++)
            CHECK_INT(out[i], n * (n * (n - 1) / 2 + n * i));
    else
        for (int i = 0; i < K; i++)
            CHECK_INT(out[i], n * (n - 1) / 2 + n * i);
}

static void t_reduce_scatter(int mode, int wide, int *out)
{
    int ic[MAXN], total = 0, s[BUF];
    MPI_Count cc[MAXN];
    for (int r = 0; r < n; r++) {
        ic[r] = cc[r] = r % 3 + 1;
        total += ic[r];
    }
    for (int j = 0; j < total; j++)
        s[j] = me + j;
    RUN(mode, wide, Reduce_scatter, Ireduce_scatter, (s, out, ic, MPI_INT, MPI_SUM, w),
        (s, out, cc, MPI_INT, MPI_SUM, w));
    int off = 0;
    for (int r = 0; r < me; r++)
        off += ic[r];
    for (int i = 0; i < ic[me]; i++)
        CHECK_INT(out[i], n * (n - 1) / 2 + n * (off + i));
}

static void t_reduce_scatter_block(int mode, int wide, int *out)
{
    int K = 2, s[MAXN * 2];
    for (int j = 0; j < K * n; j++)
        s[j] = me * j;
    RUN(mode, wide, Reduce_scatter_block, Ireduce_scatter_block,
        (s, out, K, MPI_INT, MPI_SUM, w), (s, out, K, MPI_INT, MPI_SUM, w));
    for (int i = 0; i < K; i++)
        CHECK_INT(out[i], (me * K + i) * (n * (n - 1) / 2));
}

static void t_scan(int mode, int wide, int *out)
{
    int K = 3, s[3];
    for (int i = 0; i < K; i++)
        s[i] = me + 1 + i;
    RUN(mode, wide, Scan, Iscan, (s, out, K, MPI_INT, MPI_SUM, w),
        (s, out, K, MPI_INT, MPI_SUM, w));
    for (int i = 0; i < K; i++)
        CHECK_INT(out[i], (me + 1) * (me + 2) / 2 + (me + 1) * i);
}

static void t_exscan(int mode, int wide, int *out)
{
    int K = 3, s[3];
    for (int i = 0; i < K; i++)
        s[i] = me + 1 + i;
    RUN(mode, wide, Exscan, Iexscan, (s, out, K, MPI_INT, MPI_SUM, w),
        (s, out, K, MPI_INT, MPI_SUM, w));
    for (int i = 0; me > 0 && i < K; i++) /* rank 0's recvbuf is undefined */
        CHECK_INT(out[i], me * (me + 1) / 2 + me * i);
}

static const struct {
    const char *name;
    void (*run)(int mode, int wide, int *out);
    int exscan; /* rank 0's result is undefined: not compared */
} cases[] = {
    {"bcast", t_bcast, 0},
    {"gather", t_gather, 0},
    {"gatherv", t_gatherv, 0},
    {"scatter", t_scatter, 0},
    {"scatterv", t_scatterv, 0},
    {"allgather", t_allgather, 0},
    {"allgatherv", t_allgatherv, 0},
    {"alltoall", t_alltoall, 0},
    {"alltoallv", t_alltoallv, 0},
    {"alltoallw", t_alltoallw, 0},
    {"reduce", t_reduce, 0},
    {"allreduce", t_allreduce, 0},
    {"allreduce in place", t_allreduce_in_place, 0},
    {"reduce_scatter", t_reduce_scatter, 0},
    {"reduce_scatter_block", t_reduce_scatter_block, 0},
    {"scan", t_scan, 0},
    {"exscan", t_exscan, 1},
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    w = MPI_COMM_WORLD;
    MPI_Comm_rank(w, &me);
    MPI_Comm_size(w, &n);
    CHECK(n <= MAXN);
    static _Thread_local int a[BUF], b[BUF];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int mode = 0; mode < NMODES; mode++) {
            for (int i = 0; i < BUF; i++)
                a[i] = b[i] = SENTINEL;
            cases[k].run(mode, 0, a);
            cases[k].run(mode, 1, b);
            if (cases[k].exscan && me == 0)
                continue;
            for (int i = 0; i < BUF; i++) {
                if (a[i] != b[i]) {
                    fprintf(stderr, "rank %d: %s (%s): element %d is %d with the int call, %d "
                            "with the _c call\n", me, cases[k].name, modes[mode], i, a[i], b[i]);
                    fflush(NULL);
                    _exit(99);
                }
            }
        }
    }
    MPI_Finalize();
    return 0;
}
