/* The big-count neighbor collectives MPI_Neighbor_xxx_c (blocking, I..., ..._init) give what
 * their int twins give, on a periodic ring (a 1-D Cartesian topology: neighbour 0 is rank
 * - 1, neighbour 1 is rank + 1; at 1 and 2 ranks both are the same rank, where block s of
 * the sender lands in block s^1 of the receiver, MPI 4.1 Example 8.10) and on a distributed
 * graph where rank r receives from r - 1 and r - 2 and sends to r + 1 and r + 2. Both results
 * are checked against the pattern and compared byte for byte (gaps included). */
#include "coll_run.h"

enum { BUF = 256, SENTINEL = -7 };
static _Thread_local int me, n;
static _Thread_local MPI_Comm w;
static _Thread_local int src[2], dst[2]; /* in-neighbours, out-neighbours */

static int pat(int r, int j, int i)
{
    return r * 10000 + j * 100 + i;
}

/* what rank s sends to its out-neighbour j (alltoallv / w) and to everyone (allgatherv) */
static int cnt(int s, int j)
{
    return (s + j) % 3 + 1;
}

/* The out-neighbour index j of sender s through which it reaches me as my in-neighbour k. */
static int via(MPI_Comm c, int k)
{
    int topo;
    MPI_Topo_test(c, &topo);
    if (topo == MPI_CART)
        return k ^ 1; /* my left neighbour reaches me through its right edge */
    return k;         /* dist graph: r - 1 reaches me through its edge 0 (+1), r - 2 edge 1 */
}

static void t_allgather(int mode, int wide, int *out)
{
    int s[2] = {pat(me, 0, 0), pat(me, 0, 1)};
    RUN(mode, wide, Neighbor_allgather, Ineighbor_allgather, (s, 2, MPI_INT, out, 2, MPI_INT, w),
        (s, 2, MPI_INT, out, 2, MPI_INT, w));
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 2; i++)
            CHECK_INT(out[k * 2 + i], pat(src[k], 0, i));
}

static void t_allgatherv(int mode, int wide, int *out)
{
    int s[3], k0 = cnt(me, 0);
    for (int i = 0; i < k0; i++)
        s[i] = pat(me, 0, i);
    int ic[2], id[2];
    MPI_Count cc[2];
    MPI_Aint cd[2];
    for (int k = 0, off = 1; k < 2; k++) { /* reversed, with gaps */
        int kk = 1 - k;
        ic[kk] = cnt(src[kk], 0);
        id[kk] = off;
        cc[kk] = ic[kk];
        cd[kk] = id[kk];
        off += ic[kk] + 1;
    }
    RUN(mode, wide, Neighbor_allgatherv, Ineighbor_allgatherv,
        (s, k0, MPI_INT, out, ic, id, MPI_INT, w), (s, k0, MPI_INT, out, cc, cd, MPI_INT, w));
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < ic[k]; i++)
            CHECK_INT(out[id[k] + i], pat(src[k], 0, i));
}

static void t_alltoall(int mode, int wide, int *out)
{
    int s[6];
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 3; i++)
            s[j * 3 + i] = pat(me, j, i);
    RUN(mode, wide, Neighbor_alltoall, Ineighbor_alltoall, (s, 3, MPI_INT, out, 3, MPI_INT, w),
        (s, 3, MPI_INT, out, 3, MPI_INT, w));
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 3; i++)
            CHECK_INT(out[k * 3 + i], pat(src[k], via(w, k), i));
}

/* alltoallv (bytes 0) and alltoallw (bytes 1): the send side's blocks reversed with gaps of
 * two, the receive side's in order with gaps of one. */
struct sides {
    int sc[2], sd[2], rc[2], rd[2];
    MPI_Count csc[2], crc[2];
    MPI_Aint csd[2], crd[2];
};

static void layout(struct sides *x, int bytes)
{
    int unit = bytes ? (int)sizeof(int) : 1;
    for (int j = 1, off = 0; j >= 0; j--) {
        x->sc[j] = cnt(me, j);
        x->sd[j] = off * unit;
        off += x->sc[j] + 2;
    }
    for (int k = 0, off = 0; k < 2; k++) {
        x->rc[k] = cnt(src[k], via(w, k));
        x->rd[k] = off * unit;
        off += x->rc[k] + 1;
    }
    for (int k = 0; k < 2; k++) {
        x->csc[k] = x->sc[k];
        x->crc[k] = x->rc[k];
        x->csd[k] = x->sd[k];
        x->crd[k] = x->rd[k];
    }
}

static void t_alltoallv(int mode, int wide, int *out)
{
    struct sides x;
    layout(&x, 0);
    int s[16];
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < x.sc[j]; i++)
            s[x.sd[j] + i] = pat(me, j, i);
    RUN(mode, wide, Neighbor_alltoallv, Ineighbor_alltoallv,
        (s, x.sc, x.sd, MPI_INT, out, x.rc, x.rd, MPI_INT, w),
        (s, x.csc, x.csd, MPI_INT, out, x.crc, x.crd, MPI_INT, w));
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < x.rc[k]; i++)
            CHECK_INT(out[x.rd[k] + i], pat(src[k], via(w, k), i));
}

static void t_alltoallw(int mode, int wide, int *out)
{
    struct sides x;
    layout(&x, 1);
    int s[16];
    MPI_Datatype t[2] = {MPI_INT, MPI_INT};
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < x.sc[j]; i++)
            s[x.sd[j] / (int)sizeof(int) + i] = pat(me, j, i);
    /* the int form's displacements are MPI_Aint already: only the counts widen */
    MPI_Aint sd[2] = {x.sd[0], x.sd[1]}, rd[2] = {x.rd[0], x.rd[1]};
    RUN(mode, wide, Neighbor_alltoallw, Ineighbor_alltoallw,
        (s, x.sc, sd, t, out, x.rc, rd, t, w), (s, x.csc, x.csd, t, out, x.crc, x.crd, t, w));
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < x.rc[k]; i++)
            CHECK_INT(out[x.rd[k] / (int)sizeof(int) + i], pat(src[k], via(w, k), i));
}

static void (*const cases[])(int, int, int *) = {t_allgather, t_allgatherv, t_alltoall,
                                                 t_alltoallv, t_alltoallw};
static const char *const names[] = {"allgather", "allgatherv", "alltoall", "alltoallv",
                                    "alltoallw"};

static void run_all(const char *topo)
{
    static _Thread_local int a[BUF], b[BUF];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int mode = 0; mode < NMODES; mode++) {
            for (int i = 0; i < BUF; i++)
                a[i] = b[i] = SENTINEL;
            cases[k](mode, 0, a);
            cases[k](mode, 1, b);
            for (int i = 0; i < BUF; i++) {
                if (a[i] != b[i]) {
                    fprintf(stderr, "rank %d: %s neighbor_%s (%s): element %d is %d with the "
                            "int call, %d with the _c call\n", me, topo, names[k], modes[mode],
                            i, a[i], b[i]);
                    fflush(NULL);
                    _exit(99);
                }
            }
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int dims[1] = {n}, periods[1] = {1};
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &w));
    src[0] = dst[0] = (me + n - 1) % n;
    src[1] = dst[1] = (me + 1) % n;
    run_all("ring");
    OK(MPI_Comm_free(&w));

    src[0] = (me + n - 1) % n;
    src[1] = (me + 2 * n - 2) % n;
    dst[0] = (me + 1) % n;
    dst[1] = (me + 2) % n;
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 2, dst,
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &w));
    run_all("dist graph");
    OK(MPI_Comm_free(&w));
    MPI_Finalize();
    return 0;
}
