/* The big-count collectives on an intercommunicator (the lower half of the ranks against the
 * upper half) give what their int twins give: rooted calls with MPI_ROOT / MPI_PROC_NULL /
 * a remote root, the v and w forms with arrays over the remote group, reduce_scatter with
 * counts over the local group; blocking, nonblocking and persistent. Each result is compared
 * byte for byte with the int call's, and each rank that receives checks the values. */
#include "coll_run.h"

enum { MAXN = 64, BUF = 1024, SENTINEL = -7 };
static _Thread_local int me, n, lme, ln, rn, low; /* low: in the lower half */
static _Thread_local MPI_Comm w;

static int pat(int r, int p, int i) /* r: a world rank */
{
    return r * 10000 + p * 100 + i;
}

/* the world rank of the remote group's rank j */
static int remote_world(int j)
{
    return low ? n / 2 + j : j;
}

static void t_bcast(int mode, int wide, int *out)
{
    /* the lower half's rank 0 broadcasts to the upper half */
    int root = low ? (lme == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int s[4];
    for (int i = 0; i < 4; i++)
        s[i] = pat(0, 0, i);
    int *buf = low ? s : out;
    RUN(mode, wide, Bcast, Ibcast, (buf, 4, MPI_INT, root, w), (buf, 4, MPI_INT, root, w));
    for (int i = 0; !low && i < 4; i++)
        CHECK_INT(out[i], pat(0, 0, i));
}

static void t_gatherv(int mode, int wide, int *out)
{
    /* the upper half's rank 0 gathers the lower half, block j of j % 3 + 1 elements, reversed */
    int root = low ? 0 : (lme == 0 ? MPI_ROOT : MPI_PROC_NULL);
    int ic[MAXN], id[MAXN], s[3], k = lme % 3 + 1;
    MPI_Count cc[MAXN];
    MPI_Aint cd[MAXN];
    for (int j = rn - 1, off = 0; j >= 0; j--) {
        cc[j] = ic[j] = j % 3 + 1;
        cd[j] = id[j] = off;
        off += ic[j] + 1;
    }
    for (int i = 0; i < k; i++)
        s[i] = pat(me, 0, i);
    RUN(mode, wide, Gatherv, Igatherv, (s, k, MPI_INT, out, ic, id, MPI_INT, root, w),
        (s, k, MPI_INT, out, cc, cd, MPI_INT, root, w));
    for (int j = 0; root == MPI_ROOT && j < rn; j++)
        for (int i = 0; i < ic[j]; i++)
            CHECK_INT(out[id[j] + i], pat(remote_world(j), 0, i));
}

static void t_scatterv(int mode, int wide, int *out)
{
    /* the lower half's last rank scatters to the upper half */
    int root = low ? (lme == ln - 1 ? MPI_ROOT : MPI_PROC_NULL) : n / 2 - 1;
    int ic[MAXN], id[MAXN], s[BUF];
    MPI_Count cc[MAXN];
    MPI_Aint cd[MAXN];
    for (int j = 0, off = 2; j < rn; j++) {
        cc[j] = ic[j] = (j + 1) % 3 + 1;
        cd[j] = id[j] = off;
        off += ic[j] + 2;
        for (int i = 0; i < ic[j]; i++)
            s[id[j] + i] = pat(me, j, i);
    }
    int k = (lme + 1) % 3 + 1;
    RUN(mode, wide, Scatterv, Iscatterv, (s, ic, id, MPI_INT, out, k, MPI_INT, root, w),
        (s, cc, cd, MPI_INT, out, k, MPI_INT, root, w));
    for (int i = 0; !low && i < k; i++)
        CHECK_INT(out[i], pat(n / 2 - 1, lme, i));
}

static void t_allgatherv(int mode, int wide, int *out)
{
    int ic[MAXN], id[MAXN], s[3], k = lme % 3 + 1;
    MPI_Count cc[MAXN];
    MPI_Aint cd[MAXN];
    for (int j = 0, off = 1; j < rn; j++) {
        cc[j] = ic[j] = j % 3 + 1;
        cd[j] = id[j] = off;
        off += ic[j] + 1;
    }
    for (int i = 0; i < k; i++)
        s[i] = pat(me, 0, i);
    RUN(mode, wide, Allgatherv, Iallgatherv, (s, k, MPI_INT, out, ic, id, MPI_INT, w),
        (s, k, MPI_INT, out, cc, cd, MPI_INT, w));
    for (int j = 0; j < rn; j++)
        for (int i = 0; i < ic[j]; i++)
            CHECK_INT(out[id[j] + i], pat(remote_world(j), 0, i));
}

/* alltoallv (bytes 0) / alltoallw (bytes 1): local rank a sends (a + b) % 3 + 1 elements to
 * remote rank b */
static void a2a(int mode, int wide, int *out, int bytes)
{
    int unit = bytes ? (int)sizeof(int) : 1;
    int sc[MAXN], sd[MAXN], rc[MAXN], rd[MAXN], s[BUF];
    MPI_Count csc[MAXN], crc[MAXN];
    MPI_Aint csd[MAXN], crd[MAXN];
    MPI_Datatype t[MAXN];
    for (int j = rn - 1, off = 0; j >= 0; j--) {
        csc[j] = sc[j] = (lme + j) % 3 + 1;
        csd[j] = sd[j] = off * unit;
        for (int i = 0; i < sc[j]; i++)
            s[off + i] = pat(me, j, i);
        off += sc[j] + 2;
    }
    for (int j = 0, off = 0; j < rn; j++) {
        crc[j] = rc[j] = (j + lme) % 3 + 1;
        crd[j] = rd[j] = off * unit;
        off += rc[j] + 1;
        t[j] = MPI_INT;
    }
    if (bytes)
        RUN(mode, wide, Alltoallw, Ialltoallw, (s, sc, sd, t, out, rc, rd, t, w),
            (s, csc, csd, t, out, crc, crd, t, w));
    else
        RUN(mode, wide, Alltoallv, Ialltoallv, (s, sc, sd, MPI_INT, out, rc, rd, MPI_INT, w),
            (s, csc, csd, MPI_INT, out, crc, crd, MPI_INT, w));
    for (int j = 0; j < rn; j++)
        for (int i = 0; i < rc[j]; i++)
            CHECK_INT(out[rd[j] / unit + i], pat(remote_world(j), lme, i));
}

static void t_alltoallv(int mode, int wide, int *out)
{
    a2a(mode, wide, out, 0);
}

static void t_alltoallw(int mode, int wide, int *out)
{
    a2a(mode, wide, out, 1);
}

static void t_allreduce(int mode, int wide, int *out)
{
    int s[3] = {me, me + 1, me * 2};
    RUN(mode, wide, Allreduce, Iallreduce, (s, out, 3, MPI_INT, MPI_SUM, w),
        (s, out, 3, MPI_INT, MPI_SUM, w));
    int base = low ? n / 2 : 0, sum = 0; /* the remote group's world ranks */
    for (int j = 0; j < rn; j++)
        sum += base + j;
    CHECK_INT(out[0], sum);
    CHECK_INT(out[2], 2 * sum);
}

static void t_reduce_scatter(int mode, int wide, int *out)
{
    /* both groups reduce 12 elements: the remote group's sum, scattered over the local group */
    enum { T = 12 };
    int ic[MAXN], s[T];
    MPI_Count cc[MAXN];
    for (int i = 0, left = T; i < ln; i++) {
        cc[i] = ic[i] = i == ln - 1 ? left : T / ln;
        left -= ic[i];
    }
    for (int j = 0; j < T; j++)
        s[j] = me + j;
    RUN(mode, wide, Reduce_scatter, Ireduce_scatter, (s, out, ic, MPI_INT, MPI_SUM, w),
        (s, out, cc, MPI_INT, MPI_SUM, w));
    int base = low ? n / 2 : 0, sum = 0;
    for (int j = 0; j < rn; j++)
        sum += base + j;
    for (int i = 0; i < ic[lme]; i++)
        CHECK_INT(out[i], sum + rn * (lme * (T / ln) + i));
}

static void (*const cases[])(int, int, int *) = {t_bcast, t_gatherv, t_scatterv, t_allgatherv,
                                                 t_alltoallv, t_alltoallw, t_allreduce,
                                                 t_reduce_scatter};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n < 2) { /* an intercommunicator needs two groups */
        MPI_Finalize();
        return 0;
    }
    low = me < n / 2;
    MPI_Comm half;
    OK(MPI_Comm_split(MPI_COMM_WORLD, low, me, &half));
    OK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? n / 2 : 0, 7, &w));
    MPI_Comm_rank(w, &lme);
    MPI_Comm_size(w, &ln);
    MPI_Comm_remote_size(w, &rn);
    static _Thread_local int a[BUF], b[BUF];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int mode = 0; mode < NMODES; mode++) {
            for (int i = 0; i < BUF; i++)
                a[i] = b[i] = SENTINEL;
            cases[k](mode, 0, a);
            cases[k](mode, 1, b);
            for (int i = 0; i < BUF; i++) {
                if (a[i] != b[i]) {
                    fprintf(stderr, "rank %d: case %zu (%s): element %d is %d with the int "
                            "call, %d with the _c call\n", me, k, modes[mode], i, a[i], b[i]);
                    fflush(NULL);
                    _exit(99);
                }
            }
        }
    }
    OK(MPI_Comm_free(&w));
    OK(MPI_Comm_free(&half));
    MPI_Finalize();
    return 0;
}
