/* coll/inter.c — collectives on an intercommunicator: schedules on the hidden union of both
 * groups (comm/inter.c), whose collective context reaches every member of either group.
 *
 * Every member of both groups builds one schedule on the union per call, even a member with
 * nothing to do (MPI_PROC_NULL in the root's group): the union handle's collective counter,
 * which makes the tag, then stays the same on all members. Peers are written as the union's
 * ranks of the local or remote group's ranks. The algorithms are linear (correctness first):
 *   rooted calls (bcast, reduce, gather(v), scatter(v)): the root (MPI_ROOT) talks to every
 *     rank of the remote group; the other members of its group do nothing;
 *   allgather(v), alltoall(v,w): every rank talks to every rank of the remote group;
 *   allreduce, reduce_scatter(_block): every rank sends its data to the remote group's rank
 *     0, which reduces it (in rank order: non-commutative operations hold) and hands the
 *     result (or its pieces) to its own group. */
#include "coll/alg.h"
#include "core/error.h"
#include "comm/comm.h"

/* The calling rank's view of the pair: sizes and where each group starts in the union. */
struct pair {
    int L, R;        /* local and remote group sizes */
    int lrank;       /* rank in the local group */
    int loff, roff;  /* union rank of local / remote rank 0 */
};

static struct pair pair_of(const struct loom_comm *c)
{
    struct pair p = {c->sh->size, c->sh->peer_size, c->rank, 0, 0};
    if (c->sh->inter_first)
        p.roff = p.L;
    else
        p.loff = p.R;
    return p;
}

static void bcast(struct loom_sched *s, const struct pair *p, const struct loom_coll_args *a)
{
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (a->root == MPI_ROOT) {
        for (int j = 0; j < p->R; j++)
            loom__sched_send(s, a->rbuf, a->rcount, a->rtype, p->roff + j);
    } else if (a->root != MPI_PROC_NULL) {
        loom__sched_recv(s, a->rbuf, a->rcount, a->rtype, p->roff + a->root);
    }
}

/* Receive one contribution of count elements of type from every rank of the remote group
 * (in one round), then reduce them into `result` in rank order: d0 op (d1 op (...)). */
static void reduce_remote(struct loom_sched *s, const struct pair *p, void *result,
                          size_t count, struct loom_datatype *type)
{
    const void **data = loom__sched_bytes(s, (size_t)p->R * sizeof *data);
    if (s->nomem)
        return;
    for (int j = 0; j < p->R; j++) {
        void *d = loom__sched_scratch(s, count, type);
        data[j] = d;
        loom__sched_recv(s, d, count, type, p->roff + j);
    }
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    loom__sched_copy(s, data[p->R - 1], count, type, result, count, type);
    for (int j = p->R - 2; j >= 0; j--)
        loom__sched_reduce(s, data[j], result, count, type);
}

static void reduce(struct loom_sched *s, const struct pair *p, const struct loom_coll_args *a)
{
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (a->root == MPI_ROOT) {
        loom__sched_keep_op(s, a->op);
        reduce_remote(s, p, a->rbuf, a->scount, a->stype);
    } else if (a->root != MPI_PROC_NULL) {
        loom__sched_send(s, a->sbuf, a->scount, a->stype, p->roff + a->root);
    }
}

/* allreduce (counts 0: the whole vector to everyone) and reduce_scatter (counts 1: the local
 * group's counts a->rcounts, piece i to local rank i). */
static void reduce_to_group(struct loom_sched *s, const struct pair *p,
                            const struct loom_coll_args *a, int counts)
{
    size_t n = a->scount;
    struct loom_datatype *type = a->stype;
    loom__sched_keep_op(s, a->op);
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    loom__sched_send(s, a->sbuf, n, type, p->roff);
    if (p->lrank != 0) {
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_recv(s, a->rbuf, counts ? loom__coll_count(a, LOOM_COLL_RECV, p->lrank) : n,
                         type, p->loff);
        return;
    }
    /* the local leader: the remote group's data, reduced, then handed out in the same round
     * (a round's local operations run before its sends) */
    void *result = counts ? loom__sched_scratch(s, n, type) : a->rbuf;
    reduce_remote(s, p, result, n, type);
    size_t off = 0;
    for (int i = 0; i < p->L; i++) {
        size_t c = counts ? loom__coll_count(a, LOOM_COLL_RECV, i) : n;
        void *piece = counts ? loom__elem(result, off, type) : result;
        if (i == 0 && counts)
            loom__sched_copy(s, piece, c, type, a->rbuf, c, type);
        else if (i != 0)
            loom__sched_send(s, piece, c, type, p->loff + i);
        off += counts ? c : 0;
    }
}

static void gather(struct loom_sched *s, const struct pair *p, const struct loom_coll_args *a)
{
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (a->root == MPI_ROOT) {
        for (int j = 0; j < p->R; j++)
            loom__sched_recv(s,
                             loom__elem(a->rbuf, (size_t)loom__coll_displ(a, LOOM_COLL_RECV, j),
                                        a->rtype),
                             loom__coll_count(a, LOOM_COLL_RECV, j), a->rtype, p->roff + j);
    } else if (a->root != MPI_PROC_NULL) {
        loom__sched_send(s, a->sbuf, a->scount, a->stype, p->roff + a->root);
    }
}

static void scatter(struct loom_sched *s, const struct pair *p, const struct loom_coll_args *a)
{
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (a->root == MPI_ROOT) {
        for (int j = 0; j < p->R; j++)
            loom__sched_send(s,
                             loom__elem(a->sbuf, (size_t)loom__coll_displ(a, LOOM_COLL_SEND, j),
                                        a->stype),
                             loom__coll_count(a, LOOM_COLL_SEND, j), a->stype, p->roff + j);
    } else if (a->root != MPI_PROC_NULL) {
        loom__sched_recv(s, a->rbuf, a->rcount, a->rtype, p->roff + a->root);
    }
}

/* allgather(v) and alltoall(v,w): a block to and from every rank of the remote group. */
static void everyone(struct loom_sched *s, const struct pair *p, enum loom_coll_kind k,
                     const struct loom_coll_args *a)
{
    int gather = k == LOOM_COLL_ALLGATHER || k == LOOM_COLL_ALLGATHERV;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    for (int j = 0; j < p->R; j++) {
        struct loom_coll_blk r = loom__coll_rblock(k, a, j);
        loom__sched_recv(s, r.p, r.c, r.t, p->roff + j);
        if (gather) {
            loom__sched_send(s, a->sbuf, a->scount, a->stype, p->roff + j);
        } else {
            struct loom_coll_blk b = loom__coll_sblock(k, a, j);
            loom__sched_send(s, b.p, b.c, b.t, p->roff + j);
        }
    }
}

/* What a nonblocking call's schedule keeps alive: its types (a type per remote rank for
 * alltoallw). */
static void keep_types(struct loom_sched *s, const struct pair *p, const struct loom_coll_args *a)
{
    loom__sched_keep_type(s, a->stype);
    loom__sched_keep_type(s, a->rtype);
    for (int j = 0; j < p->R; j++) {
        if (a->stypes)
            loom__sched_keep_type(s, a->stypes[j]);
        if (a->rtypes)
            loom__sched_keep_type(s, a->rtypes[j]);
    }
}

struct loom_sched *loom__coll_inter_build(enum loom_coll_kind kind, struct loom_comm *c,
                                          MPI_Comm h, const struct loom_coll_args *a, int keep,
                                          int *rc)
{
    struct pair p = pair_of(c);
    struct loom_sched *s = loom__sched_new(c->all, h);
    *rc = LOOM_ERR_NOMEM;
    if (!s)
        return NULL;
    if (keep)
        keep_types(s, &p, a);
    switch (kind) {
    case LOOM_COLL_BCAST:
        bcast(s, &p, a);
        break;
    case LOOM_COLL_REDUCE:
        reduce(s, &p, a);
        break;
    case LOOM_COLL_ALLREDUCE:
        reduce_to_group(s, &p, a, 0);
        break;
    case LOOM_COLL_REDUCE_SCATTER:
    case LOOM_COLL_REDUCE_SCATTER_BLOCK:
        reduce_to_group(s, &p, a, 1);
        break;
    case LOOM_COLL_GATHER:
    case LOOM_COLL_GATHERV:
        gather(s, &p, a);
        break;
    case LOOM_COLL_SCATTER:
    case LOOM_COLL_SCATTERV:
        scatter(s, &p, a);
        break;
    case LOOM_COLL_ALLGATHER:
    case LOOM_COLL_ALLGATHERV:
    case LOOM_COLL_ALLTOALL:
    case LOOM_COLL_ALLTOALLV:
    case LOOM_COLL_ALLTOALLW:
        everyone(s, &p, kind, a);
        break;
    default: /* scan, exscan: not defined on intercommunicators (refused by the API);
              * barrier: run on the union itself (api/barrier.c) */
        loom__sched_free(s);
        *rc = LOOM_ERR_COMM;
        return NULL;
    }
    return s;
}
