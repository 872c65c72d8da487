/* Neighbor collectives, every form, blocking and nonblocking (Wait, Test loop, two at once),
 * on Cartesian grids (a periodic ring, where 1 and 2 ranks make both neighbours the same
 * rank; a 2-D grid periodic in one dimension; a 3-D grid with periodic dimensions of size 1,
 * whose neighbours are the rank itself), a graph ring with self-loops, and a distributed
 * graph with asymmetric edges (r -> r+1, r+3), and a graph without edges. Expected blocks are computed here from
 * neighbour lists made by hand: on a grid, block i of the receiver holds block i^1 of the
 * sender (MPI 4.1 Example 8.10); on graphs, the k-th edge from s to r carries the sender's
 * block of its k-th edge to r. MPI_PROC_NULL blocks must stay untouched. */
#include <stdlib.h>
#include "comm_check.h"

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define BIG 4096
#else
#define BIG 40000 /* ints: above the eager limit */
#endif
#define MAXN 16   /* neighbours at most */
#define UNTOUCHED (-1)

enum kind { CART, GRAPH, DIST, EMPTY };
struct topo {
    enum kind kind;
    int nd, dims[3], periods[3];
};
static _Thread_local int rank, size; /* ranks are threads: globals are shared */
static _Thread_local struct topo T;

static int mod(int a)
{
    return ((a % size) + size) % size;
}

/* Neighbour lists of r, by hand. Returns indegree; *nout gets the outdegree. */
static int lists(int r, int *in, int *out, int *nout)
{
    if (T.kind == GRAPH) {
        in[0] = out[0] = mod(r + 1);
        in[1] = out[1] = r;
        in[2] = out[2] = mod(r - 1);
        *nout = 3;
        return 3;
    }
    if (T.kind == EMPTY) {
        *nout = 0;
        return 0;
    }
    if (T.kind == DIST) {
        in[0] = mod(r - 3), in[1] = mod(r - 1);
        out[0] = mod(r + 1), out[1] = mod(r + 3);
        *nout = 2;
        return 2;
    }
    int c[3], stride = 1;
    for (int d = T.nd - 1, q = r; d >= 0; d--) {
        c[d] = q % T.dims[d];
        q /= T.dims[d];
    }
    for (int d = T.nd - 1; d >= 0; d--) {
        for (int s = 0; s < 2; s++) {
            int to = c[d] + (s ? 1 : -1), nb;
            if (to < 0 || to >= T.dims[d])
                nb = T.periods[d] ? r + ((to + T.dims[d]) % T.dims[d] - c[d]) * stride
                                  : MPI_PROC_NULL;
            else
                nb = r + (to - c[d]) * stride;
            in[2 * d + s] = out[2 * d + s] = nb;
        }
        stride *= T.dims[d];
    }
    *nout = 2 * T.nd;
    return 2 * T.nd;
}

/* The sender's block that lands in block i of r (sender in[i]). */
static int sender_block(int r, const int *in, int i)
{
    if (T.kind == CART)
        return i ^ 1;
    int s = in[i], k = 0;
    for (int j = 0; j < i; j++)
        k += in[j] == s;
    int sin[MAXN], sout[MAXN], snout;
    lists(s, sin, sout, &snout);
    for (int j = 0; j < snout; j++)
        if (sout[j] == r && k-- == 0)
            return j;
    CHECK(!"no matching edge");
    return -1;
}

static int val(int s, int j, int e)
{
    return s * 100000 + j * 1000 + e;
}
static int cnt(int s, int j)
{
    return 1 + (s + j) % 3;
}

enum mode { BLOCKING, WAIT, TEST };

static void finish(enum mode m, MPI_Request *req)
{
    if (m == WAIT) {
        OK(MPI_Wait(req, MPI_STATUS_IGNORE));
    } else if (m == TEST) {
        int flag = 0;
        while (!flag)
            OK(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
    }
    if (m != BLOCKING)
        CHECK(*req == MPI_REQUEST_NULL);
}

/* A heap copy of a[n], to free (after scribbling on it) right after a nonblocking start:
 * the call must not read its arrays later. */
static int *copy(const int *a, int n)
{
    int *b = malloc((size_t)(n > 0 ? n : 1) * sizeof *b);
    CHECK(b != NULL);
    for (int i = 0; i < n; i++)
        b[i] = a[i];
    return b;
}
static void drop(int *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = -12345;
    free(a);
}

static void allgather(MPI_Comm comm, enum mode m)
{
    int in[MAXN], out[MAXN], nout, nin = lists(rank, in, out, &nout);
    int sbuf[3], rbuf[3 * MAXN];
    for (int e = 0; e < 3; e++)
        sbuf[e] = val(rank, 0, e);
    for (int i = 0; i < 3 * nin; i++)
        rbuf[i] = UNTOUCHED;
    MPI_Request req;
    if (m == BLOCKING)
        OK(MPI_Neighbor_allgather(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, comm));
    else
        OK(MPI_Ineighbor_allgather(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, comm, &req));
    finish(m, &req);
    for (int i = 0; i < nin; i++)
        for (int e = 0; e < 3; e++)
            CHECK_INT(rbuf[3 * i + e], in[i] == MPI_PROC_NULL ? UNTOUCHED : val(in[i], 0, e));
}

static void allgatherv(MPI_Comm comm, enum mode m)
{
    int in[MAXN], out[MAXN], nout, nin = lists(rank, in, out, &nout);
    int sbuf[3], rbuf[5 * MAXN], rc[MAXN], rd[MAXN];
    int sc = 1 + rank % 3;
    for (int e = 0; e < sc; e++)
        sbuf[e] = val(rank, 0, e);
    for (int i = 0; i < 5 * nin; i++)
        rbuf[i] = UNTOUCHED;
    for (int i = 0; i < nin; i++) {
        rc[i] = in[i] == MPI_PROC_NULL ? 2 : 1 + in[i] % 3;
        rd[i] = 5 * i + 1;
    }
    int *hc = copy(rc, nin), *hd = copy(rd, nin);
    MPI_Request req;
    if (m == BLOCKING)
        OK(MPI_Neighbor_allgatherv(sbuf, sc, MPI_INT, rbuf, hc, hd, MPI_INT, comm));
    else
        OK(MPI_Ineighbor_allgatherv(sbuf, sc, MPI_INT, rbuf, hc, hd, MPI_INT, comm, &req));
    drop(hc, nin), drop(hd, nin);
    finish(m, &req);
    for (int i = 0; i < nin; i++)
        for (int e = 0; e < 5; e++) {
            int got = rbuf[5 * i + e], k = e - 1;
            int want = in[i] != MPI_PROC_NULL && k >= 0 && k < rc[i] ? val(in[i], 0, k)
                                                                     : UNTOUCHED;
            CHECK_INT(got, want);
        }
}

static void alltoall(MPI_Comm comm, enum mode m, int count)
{
    int in[MAXN], out[MAXN], nout, nin = lists(rank, in, out, &nout);
    int *sbuf = malloc((size_t)(nout * count + 1) * sizeof *sbuf);
    int *rbuf = malloc((size_t)(nin * count + 1) * sizeof *rbuf);
    CHECK(sbuf && rbuf);
    for (int j = 0; j < nout; j++)
        for (int e = 0; e < count; e++)
            sbuf[j * count + e] = val(rank, j, e);
    for (int i = 0; i < nin * count; i++)
        rbuf[i] = UNTOUCHED;
    MPI_Request req;
    if (m == BLOCKING)
        OK(MPI_Neighbor_alltoall(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm));
    else
        OK(MPI_Ineighbor_alltoall(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, &req));
    finish(m, &req);
    for (int i = 0; i < nin; i++) {
        int j = in[i] == MPI_PROC_NULL ? -1 : sender_block(rank, in, i);
        for (int e = 0; e < count; e++)
            CHECK_INT(rbuf[i * count + e], j < 0 ? UNTOUCHED : val(in[i], j, e));
    }
    free(sbuf), free(rbuf);
}

/* alltoallv (w = 0) or alltoallw (w = 1: received as one contiguous type of the count) */
static void alltoallvw(MPI_Comm comm, enum mode m, int w, MPI_Datatype *contig)
{
    int in[MAXN], out[MAXN], nout, nin = lists(rank, in, out, &nout);
    int sbuf[4 * MAXN], rbuf[4 * MAXN], sc[MAXN], sd[MAXN], rc[MAXN], rd[MAXN], jof[MAXN];
    MPI_Aint sdw[MAXN], rdw[MAXN];
    MPI_Datatype st[MAXN], rt[MAXN];
    for (int j = 0; j < nout; j++) {
        sc[j] = cnt(rank, j);
        sd[j] = 4 * (nout - 1 - j); /* blocks laid out backwards */
        sdw[j] = (MPI_Aint)sd[j] * (MPI_Aint)sizeof(int);
        st[j] = MPI_INT;
        for (int e = 0; e < 4; e++)
            sbuf[sd[j] + e] = e < sc[j] ? val(rank, j, e) : -7;
    }
    for (int i = 0; i < 4 * nin; i++)
        rbuf[i] = UNTOUCHED;
    for (int i = 0; i < nin; i++) {
        jof[i] = in[i] == MPI_PROC_NULL ? -1 : sender_block(rank, in, i);
        int c = jof[i] < 0 ? 2 : cnt(in[i], jof[i]);
        rc[i] = w ? 1 : c;
        rt[i] = w ? contig[c - 1] : MPI_INT;
        rd[i] = 4 * i + 1;
        rdw[i] = (MPI_Aint)rd[i] * (MPI_Aint)sizeof(int);
    }
    int *hsc = copy(sc, nout), *hrc = copy(rc, nin), *hsd = copy(sd, nout), *hrd = copy(rd, nin);
    MPI_Datatype *hst = malloc((MAXN) * sizeof *hst), *hrt = malloc((MAXN) * sizeof *hrt);
    MPI_Aint *hsdw = malloc(MAXN * sizeof *hsdw), *hrdw = malloc(MAXN * sizeof *hrdw);
    CHECK(hst && hrt && hsdw && hrdw);
    for (int j = 0; j < nout; j++)
        hst[j] = st[j], hsdw[j] = sdw[j];
    for (int i = 0; i < nin; i++)
        hrt[i] = rt[i], hrdw[i] = rdw[i];
    MPI_Request req;
    if (w && m == BLOCKING)
        OK(MPI_Neighbor_alltoallw(sbuf, hsc, hsdw, hst, rbuf, hrc, hrdw, hrt, comm));
    else if (w)
        OK(MPI_Ineighbor_alltoallw(sbuf, hsc, hsdw, hst, rbuf, hrc, hrdw, hrt, comm, &req));
    else if (m == BLOCKING)
        OK(MPI_Neighbor_alltoallv(sbuf, hsc, hsd, MPI_INT, rbuf, hrc, hrd, MPI_INT, comm));
    else
        OK(MPI_Ineighbor_alltoallv(sbuf, hsc, hsd, MPI_INT, rbuf, hrc, hrd, MPI_INT, comm,
                                   &req));
    drop(hsc, nout), drop(hrc, nin), drop(hsd, nout), drop(hrd, nin);
    for (int i = 0; i < MAXN; i++)
        hst[i] = hrt[i] = MPI_DATATYPE_NULL, hsdw[i] = hrdw[i] = -1;
    free(hst), free(hrt), free(hsdw), free(hrdw);
    finish(m, &req);
    for (int i = 0; i < nin; i++) {
        int c = jof[i] < 0 ? 0 : cnt(in[i], jof[i]);
        for (int e = 0; e < 4; e++) {
            int k = e - rd[i] + 4 * i;
            int want = k >= 0 && k < c ? val(in[i], jof[i], k) : UNTOUCHED;
            CHECK_INT(rbuf[4 * i + e], want);
        }
    }
}

/* Two nonblocking calls at once on one communicator, completed in reverse order. */
static void two_at_once(MPI_Comm comm)
{
    int in[MAXN], out[MAXN], nout, nin = lists(rank, in, out, &nout);
    int a = val(rank, 0, 1), b = val(rank, 0, 2), ra[MAXN], rb[MAXN];
    for (int i = 0; i < nin; i++)
        ra[i] = rb[i] = UNTOUCHED;
    MPI_Request r[2];
    OK(MPI_Ineighbor_allgather(&a, 1, MPI_INT, ra, 1, MPI_INT, comm, &r[0]));
    OK(MPI_Ineighbor_allgather(&b, 1, MPI_INT, rb, 1, MPI_INT, comm, &r[1]));
    OK(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    for (int i = 0; i < nin; i++) {
        CHECK_INT(ra[i], in[i] == MPI_PROC_NULL ? UNTOUCHED : val(in[i], 0, 1));
        CHECK_INT(rb[i], in[i] == MPI_PROC_NULL ? UNTOUCHED : val(in[i], 0, 2));
    }
}

static void all_forms(MPI_Comm comm, MPI_Datatype *contig)
{
    for (int m = BLOCKING; m <= TEST; m++) {
        allgather(comm, (enum mode)m);
        allgatherv(comm, (enum mode)m);
        alltoall(comm, (enum mode)m, 2);
        alltoall(comm, (enum mode)m, BIG);
        alltoallvw(comm, (enum mode)m, 0, contig);
        alltoallvw(comm, (enum mode)m, 1, contig);
    }
    two_at_once(comm);
}

static void on_cart(int nd, const int *dims, const int *periods, MPI_Datatype *contig)
{
    T = (struct topo){CART, nd, {0}, {0}};
    for (int d = 0; d < nd; d++)
        T.dims[d] = dims[d], T.periods[d] = periods[d];
    MPI_Comm c;
    OK(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &c));
    all_forms(c, contig);
    OK(MPI_Comm_free(&c));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    rank = world_rank();
    size = world_size();
    MPI_Datatype contig[3];
    for (int c = 0; c < 3; c++) {
        OK(MPI_Type_contiguous(c + 1, MPI_INT, &contig[c]));
        OK(MPI_Type_commit(&contig[c]));
    }
    on_cart(1, (int[]){size}, (int[]){1}, contig);
    int d2[2] = {0, 0};
    OK(MPI_Dims_create(size, 2, d2));
    on_cart(2, d2, (int[]){1, 0}, contig);
    on_cart(3, (int[]){size, 1, 1}, (int[]){0, 1, 1}, contig);

    T = (struct topo){GRAPH, 0, {0}, {0}};
    int index[8], edges[24];
    for (int r = 0; r < size; r++) {
        int l[MAXN], o[MAXN], no, n = lists(r, l, o, &no);
        for (int i = 0; i < n; i++)
            edges[3 * r + i] = l[i];
        index[r] = 3 * (r + 1);
    }
    MPI_Comm g;
    OK(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g));
    all_forms(g, contig);
    OK(MPI_Comm_free(&g));

    T = (struct topo){DIST, 0, {0}, {0}};
    int in[MAXN], out[MAXN], nout, nin = lists(rank, in, out, &nout);
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, in, MPI_UNWEIGHTED, nout, out,
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
    all_forms(g, contig);
    MPI_Comm dup; /* a dup runs the same collectives */
    OK(MPI_Comm_dup(g, &dup));
    OK(MPI_Comm_free(&g));
    all_forms(dup, contig);
    OK(MPI_Comm_free(&dup));

    /* no neighbours at all: the calls complete and touch nothing */
    T = (struct topo){EMPTY, 0, {0}, {0}};
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_UNWEIGHTED, 0, NULL,
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
    all_forms(g, contig);
    OK(MPI_Comm_free(&g));
    for (int c = 0; c < 3; c++)
        OK(MPI_Type_free(&contig[c]));
    MPI_Finalize();
    return 0;
}
