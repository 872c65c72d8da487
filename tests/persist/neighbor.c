/* Persistent neighbor collectives (MPI_Neighbor_<coll>_init, MPI 4.1 chapter 8): the five of them
 * made once on a communicator with a process topology, then started several times, one at a
 * time in order, all at once by MPI_Startall, and one at a time in reverse order, completed
 * by Waitall, by Waits in reverse order and by Test loops. Between starts the send buffers
 * get new values and the receive buffers are reset: every run must read the buffers as they
 * are at its start and fill every neighbour's block (MPI_PROC_NULL blocks stay untouched).
 * The count, displacement and type arrays given at init are scribbled on and freed, and the
 * derived types freed, right after the inits: the requests keep what they need.
 *
 * Topologies: a periodic ring (1 and 2 ranks make both neighbours the same rank), a 2-D grid
 * periodic in one dimension, a graph ring with self-loops, a distributed graph with
 * asymmetric edges (r -> r+1, r+3). The alltoall carries BIG ints per block (above the eager
 * limit). On the distributed graph the communicator is freed right after the inits, and
 * a persistent allreduce and bcast on a duplicate of MPI_COMM_WORLD are also started after
 * their communicator was freed, and nonblocking collectives pending when their communicator
 * is freed complete: MPI_Comm_free only marks it for deallocation. */
#include "coll_check.h"

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define BIG 2048
#else
#define BIG 20000 /* ints: above the eager limit */
#endif
#define MAXN 8 /* neighbours at most */
#define UNTOUCHED (-1)
#define STARTS 6
#define NREQ 5

enum kind { CART, GRAPH, DIST };
struct topo {
    enum kind kind;
    int nd, dims[2], periods[2];
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
    if (T.kind == DIST) {
        in[0] = mod(r - 3), in[1] = mod(r - 1);
        out[0] = mod(r + 1), out[1] = mod(r + 3);
        *nout = 2;
        return 2;
    }
    int c[2], stride = 1;
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

/* The sender's block that lands in block i of r (sender in[i]): on a grid block i^1 (MPI 4.1
 * Example 8.10); on graphs the k-th edge from s to r carries s's block of its k-th edge to r. */
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

/* Element e of sender s's block j in run `run`: tells every run, sender, block and element
 * apart. */
static int value(int s, int j, int e, int run)
{
    return run * 10000000 + s * 100000 + j * 1000 + e;
}
static int cnt(int s, int j)
{
    return 1 + (s + j) % 3;
}

/* One topology's five persistent requests and their buffers (addresses fixed at init). */
struct set {
    int nin, nout, in[MAXN], out[MAXN], jof[MAXN];
    MPI_Request req[NREQ];
    int ag_s[3], ag_r[3 * MAXN];              /* allgather: 3 ints */
    int agv_s[3], agv_r[5 * MAXN], agv_c[MAXN]; /* allgatherv: 1 + rank % 3 ints, at 5i+1 */
    int *a2a_s, *a2a_r;                       /* alltoall: BIG ints per block */
    int v_s[4 * MAXN], v_r[4 * MAXN];         /* alltoallv: cnt(s, j) ints, blocks backwards */
    int w_s[4 * MAXN], w_r[4 * MAXN];         /* alltoallw: the same, received as one type */
};

/* A heap copy of a[n], scribbled on and freed (drop) right after the init. */
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

static void init(struct set *x, MPI_Comm comm)
{
    x->nin = lists(rank, x->in, x->out, &x->nout);
    int nin = x->nin, nout = x->nout;
    for (int i = 0; i < nin; i++)
        x->jof[i] = x->in[i] == MPI_PROC_NULL ? -1 : sender_block(rank, x->in, i);
    x->a2a_s = malloc((size_t)(nout * BIG + 1) * sizeof(int));
    x->a2a_r = malloc((size_t)(nin * BIG + 1) * sizeof(int));
    CHECK(x->a2a_s && x->a2a_r);
    MPI_Info info; /* hints are accepted and ignored; the info may be freed at once */
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));

    OK(MPI_Neighbor_allgather_init(x->ag_s, 3, MPI_INT, x->ag_r, 3, MPI_INT, comm, info,
                                   &x->req[0]));
    int rd[MAXN] = {0};
    for (int i = 0; i < nin; i++) {
        x->agv_c[i] = x->in[i] == MPI_PROC_NULL ? 2 : 1 + x->in[i] % 3;
        rd[i] = 5 * i + 1;
    }
    int *hc = copy(x->agv_c, nin), *hd = copy(rd, nin);
    OK(MPI_Neighbor_allgatherv_init(x->agv_s, 1 + rank % 3, MPI_INT, x->agv_r, hc, hd, MPI_INT,
                                    comm, MPI_INFO_NULL, &x->req[1]));
    drop(hc, nin), drop(hd, nin);
    MPI_Datatype big; /* the alltoall's blocks as one derived type, freed after the init */
    OK(MPI_Type_contiguous(BIG, MPI_INT, &big));
    OK(MPI_Type_commit(&big));
    OK(MPI_Neighbor_alltoall_init(x->a2a_s, 1, big, x->a2a_r, BIG, MPI_INT, comm, info,
                                  &x->req[2]));
    OK(MPI_Type_free(&big));

    int sc[MAXN] = {0}, sd[MAXN] = {0}, rc[MAXN] = {0}, rcw[MAXN] = {0};
    MPI_Aint sdw[MAXN], rdw[MAXN];
    MPI_Datatype st[MAXN], rt[MAXN], contig[3];
    for (int c = 0; c < 3; c++) {
        OK(MPI_Type_contiguous(c + 1, MPI_INT, &contig[c]));
        OK(MPI_Type_commit(&contig[c]));
    }
    for (int j = 0; j < nout; j++) {
        sc[j] = cnt(rank, j);
        sd[j] = 4 * (nout - 1 - j); /* blocks laid out backwards */
        sdw[j] = (MPI_Aint)sd[j] * (MPI_Aint)sizeof(int);
        st[j] = MPI_INT;
    }
    for (int i = 0; i < nin; i++) {
        int c = x->jof[i] < 0 ? 2 : cnt(x->in[i], x->jof[i]);
        rc[i] = c;
        rcw[i] = 1;
        rt[i] = contig[c - 1];
        rd[i] = 4 * i + 1;
        rdw[i] = (MPI_Aint)rd[i] * (MPI_Aint)sizeof(int);
    }
    int *hsc = copy(sc, nout), *hsd = copy(sd, nout), *hrc = copy(rc, nin), *hrd = copy(rd, nin);
    OK(MPI_Neighbor_alltoallv_init(x->v_s, hsc, hsd, MPI_INT, x->v_r, hrc, hrd, MPI_INT, comm,
                                   MPI_INFO_NULL, &x->req[3]));
    drop(hrc, nin), drop(hrd, nin);
    hrc = copy(rcw, nin);
    MPI_Datatype *hst = malloc(MAXN * sizeof *hst), *hrt = malloc(MAXN * sizeof *hrt);
    MPI_Aint *hsdw = malloc(MAXN * sizeof *hsdw), *hrdw = malloc(MAXN * sizeof *hrdw);
    CHECK(hst && hrt && hsdw && hrdw);
    for (int j = 0; j < nout; j++)
        hst[j] = st[j], hsdw[j] = sdw[j];
    for (int i = 0; i < nin; i++)
        hrt[i] = rt[i], hrdw[i] = rdw[i];
    OK(MPI_Neighbor_alltoallw_init(x->w_s, hsc, hsdw, hst, x->w_r, hrc, hrdw, hrt, comm, info,
                                   &x->req[4]));
    drop(hsc, nout), drop(hsd, nout), drop(hrc, nin);
    for (int i = 0; i < MAXN; i++)
        hst[i] = hrt[i] = MPI_DATATYPE_NULL, hsdw[i] = hrdw[i] = -1;
    free(hst), free(hrt), free(hsdw), free(hrdw);
    for (int c = 0; c < 3; c++)
        OK(MPI_Type_free(&contig[c]));
    OK(MPI_Info_free(&info));
    for (int k = 0; k < NREQ; k++)
        CHECK(x->req[k] != MPI_REQUEST_NULL);
}

/* New send values for run `run`; every receive block reset. */
static void fill(struct set *x, int run)
{
    for (int e = 0; e < 3; e++)
        x->ag_s[e] = x->agv_s[e] = value(rank, 0, e, run);
    for (int j = 0; j < x->nout; j++) {
        for (int e = 0; e < BIG; e++)
            x->a2a_s[j * BIG + e] = value(rank, j, e, run);
        int sd = 4 * (x->nout - 1 - j);
        for (int e = 0; e < 4; e++)
            x->v_s[sd + e] = x->w_s[sd + e] = e < cnt(rank, j) ? value(rank, j, e, run) : -7;
    }
    for (int i = 0; i < 3 * MAXN; i++)
        x->ag_r[i] = UNTOUCHED;
    for (int i = 0; i < 5 * MAXN; i++)
        x->agv_r[i] = UNTOUCHED;
    for (int i = 0; i < 4 * MAXN; i++)
        x->v_r[i] = x->w_r[i] = UNTOUCHED;
    for (int i = 0; i < x->nin * BIG; i++)
        x->a2a_r[i] = UNTOUCHED;
}

static void check(const struct set *x, int run)
{
    for (int i = 0; i < x->nin; i++) {
        int s = x->in[i], j = x->jof[i], null = s == MPI_PROC_NULL;
        for (int e = 0; e < 3; e++)
            CHECK_INT(x->ag_r[3 * i + e], null ? UNTOUCHED : value(s, 0, e, run));
        for (int e = 0; e < 5; e++) {
            int k = e - 1;
            CHECK_INT(x->agv_r[5 * i + e],
                      !null && k >= 0 && k < x->agv_c[i] ? value(s, 0, k, run) : UNTOUCHED);
        }
        for (int e = 0; e < BIG; e++)
            if (x->a2a_r[i * BIG + e] != (null ? UNTOUCHED : value(s, j, e, run)))
                CHECK_INT(x->a2a_r[i * BIG + e], null ? UNTOUCHED : value(s, j, e, run));
        int c = null ? 0 : cnt(s, j);
        for (int e = 0; e < 4; e++) {
            int k = e - 1, want = k >= 0 && k < c ? value(s, j, k, run) : UNTOUCHED;
            CHECK_INT(x->v_r[4 * i + e], want);
            CHECK_INT(x->w_r[4 * i + e], want);
        }
    }
}

static void start_and_complete(MPI_Request *req, int run)
{
    switch (run % 3) {
    case 0: /* in order, Waitall */
        for (int k = 0; k < NREQ; k++)
            OK(MPI_Start(&req[k]));
        OK(MPI_Waitall(NREQ, req, MPI_STATUSES_IGNORE));
        break;
    case 1: /* all at once, Waits in reverse */
        OK(MPI_Startall(NREQ, req));
        for (int k = NREQ - 1; k >= 0; k--)
            OK(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
        break;
    default: /* in reverse, Test loops */
        for (int k = NREQ - 1; k >= 0; k--)
            OK(MPI_Start(&req[k]));
        for (int k = 0; k < NREQ; k++) {
            int flag = 0;
            while (!flag)
                OK(MPI_Test(&req[k], &flag, MPI_STATUS_IGNORE));
        }
    }
    for (int k = 0; k < NREQ; k++) /* persistent: the handles stay */
        CHECK(req[k] != MPI_REQUEST_NULL);
}

/* Make the five on comm (freed right after the inits when free_comm), run them STARTS
 * times, free them. */
static void run_all(MPI_Comm comm, int free_comm)
{
    struct set *x = calloc(1, sizeof *x);
    CHECK(x != NULL);
    init(x, comm);
    if (free_comm)
        OK(MPI_Comm_free(&comm));
    for (int run = 0; run < STARTS; run++) {
        fill(x, run);
        start_and_complete(x->req, run);
        check(x, run);
    }
    for (int k = 0; k < NREQ; k++) {
        OK(MPI_Request_free(&x->req[k]));
        CHECK(x->req[k] == MPI_REQUEST_NULL);
    }
    free(x->a2a_s), free(x->a2a_r), free(x);
    if (!free_comm)
        OK(MPI_Comm_free(&comm));
}

/* Any persistent collective survives its communicator's MPI_Comm_free: allreduce and bcast
 * made on a duplicate of MPI_COMM_WORLD, freed before the first start. */
static void coll_after_comm_free(void)
{
    MPI_Comm dup;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int s = 0, r = 0, b[4];
    MPI_Request req[2];
    OK(MPI_Allreduce_init(&s, &r, 1, MPI_INT, MPI_SUM, dup, MPI_INFO_NULL, &req[0]));
    OK(MPI_Bcast_init(b, 4, MPI_INT, size - 1, dup, MPI_INFO_NULL, &req[1]));
    OK(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL);
    for (int run = 0; run < STARTS; run++) {
        s = rank + run;
        r = -1;
        for (int e = 0; e < 4; e++)
            b[e] = rank == size - 1 ? value(run, e, 0, 0) : UNTOUCHED;
        OK(MPI_Startall(2, req));
        OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        CHECK_INT(r, size * (size - 1) / 2 + size * run);
        for (int e = 0; e < 4; e++)
            CHECK_INT(b[e], value(run, e, 0, 0));
    }
    OK(MPI_Request_free(&req[0]));
    OK(MPI_Request_free(&req[1]));
}

/* Pending nonblocking collectives complete normally after MPI_Comm_free: an iallreduce of BIG
 * ints and an ineighbor_alltoall on a ring, the communicators freed before the waits; and an
 * ibarrier whose request the program freed, then the communicator: the thread that
 * completes it lets the contexts go. */
static void nonblocking_after_comm_free(void)
{
    MPI_Comm dup, ring;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){size}, (int[]){1}, 0, &ring));
    int *s = malloc(BIG * sizeof *s), *r = malloc(BIG * sizeof *r), ns[2], nr[2];
    CHECK(s && r);
    for (int e = 0; e < BIG; e++)
        s[e] = rank + e, r[e] = -1;
    ns[0] = 10 * rank, ns[1] = 10 * rank + 1, nr[0] = nr[1] = -1;
    MPI_Request req[3];
    OK(MPI_Iallreduce(s, r, BIG, MPI_INT, MPI_SUM, dup, &req[0]));
    OK(MPI_Ineighbor_alltoall(ns, 1, MPI_INT, nr, 1, MPI_INT, ring, &req[1]));
    OK(MPI_Comm_free(&dup));
    OK(MPI_Comm_free(&ring));
    OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    for (int e = 0; e < BIG; e++)
        if (r[e] != size * (size - 1) / 2 + size * e)
            CHECK_INT(r[e], size * (size - 1) / 2 + size * e);
    CHECK_INT(nr[0], 10 * ((rank - 1 + size) % size) + 1);
    CHECK_INT(nr[1], 10 * ((rank + 1) % size));
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Ibarrier(dup, &req[2]));
    OK(MPI_Request_free(&req[2]));
    OK(MPI_Comm_free(&dup));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    free(s), free(r);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Comm c;

    T = (struct topo){CART, 1, {size, 0}, {1, 0}};
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, T.dims, T.periods, 0, &c));
    run_all(c, 0);

    T = (struct topo){CART, 2, {0, 0}, {1, 0}};
    OK(MPI_Dims_create(size, 2, T.dims));
    OK(MPI_Cart_create(MPI_COMM_WORLD, 2, T.dims, T.periods, 0, &c));
    run_all(c, 0);

    T = (struct topo){GRAPH, 0, {0, 0}, {0, 0}};
    int index[8], edges[24];
    for (int r = 0; r < size; r++) {
        int l[MAXN], o[MAXN], no, n = lists(r, l, o, &no);
        for (int i = 0; i < n; i++)
            edges[3 * r + i] = l[i];
        index[r] = 3 * (r + 1);
    }
    OK(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &c));
    run_all(c, 0);

    T = (struct topo){DIST, 0, {0, 0}, {0, 0}};
    int in[MAXN], out[MAXN], nout, nin = lists(rank, in, out, &nout);
    for (int free_comm = 0; free_comm < 2; free_comm++) {
        OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, in, MPI_UNWEIGHTED, nout, out,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c));
        run_all(c, free_comm);
    }
    coll_after_comm_free();
    nonblocking_after_comm_free();
    OK(MPI_Finalize());
    return 0;
}
