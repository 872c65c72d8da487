/* coll/neighbor.c — the schedules of the neighbor collectives (coll/neighbor.h): one round,
 * a receive per incoming edge and a send per outgoing edge, MPI_PROC_NULL edges skipped.
 * One description of "the block of neighbour i" per form, one builder over it. */
#include "coll/alg.h"
#include "coll/neighbor.h"
#include "coll/sched.h"
#include "comm/comm.h"
#include "comm/vtopo.h"

enum form { ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW };

static struct loom_coll_blk at_bytes(const void *buf, MPI_Aint off, size_t count,
                                     struct loom_datatype *type)
{
    return (struct loom_coll_blk){(char *)buf + off, count, type};
}

/* The receive block of incoming edge i. */
static struct loom_coll_blk rblock(enum form f, const struct loom_neighbor_args *a, int i)
{
    switch (f) {
    case ALLGATHER:
    case ALLTOALL:
        return (struct loom_coll_blk){loom__elem(a->rbuf, (size_t)i * a->rcount, a->rtype),
                                      a->rcount, a->rtype};
    case ALLGATHERV:
    case ALLTOALLV:
        return (struct loom_coll_blk){
            loom__elem(a->rbuf, (size_t)loom__coll_displ_at(a->rdispls, a->wide, (size_t)i),
                       a->rtype),
            loom__coll_count_at(a->rcounts, a->wide, (size_t)i), a->rtype};
    default:
        return at_bytes(a->rbuf, a->rdispls_w[i],
                        loom__coll_count_at(a->rcounts, a->wide, (size_t)i), a->rtypes[i]);
    }
}

/* The send block of outgoing edge i. */
static struct loom_coll_blk sblock(enum form f, const struct loom_neighbor_args *a, int i)
{
    switch (f) {
    case ALLGATHER:
    case ALLGATHERV:
        return (struct loom_coll_blk){(void *)a->sbuf, a->scount, a->stype};
    case ALLTOALL:
        return (struct loom_coll_blk){loom__elem(a->sbuf, (size_t)i * a->scount, a->stype),
                                      a->scount, a->stype};
    case ALLTOALLV:
        return (struct loom_coll_blk){
            loom__elem(a->sbuf, (size_t)loom__coll_displ_at(a->sdispls, a->wide, (size_t)i),
                       a->stype),
            loom__coll_count_at(a->scounts, a->wide, (size_t)i), a->stype};
    default:
        return at_bytes(a->sbuf, a->sdispls_w[i],
                        loom__coll_count_at(a->scounts, a->wide, (size_t)i), a->stypes[i]);
    }
}

/* The i-th receive to post: on a Cartesian grid, +1 before -1 in each dimension (see the
 * header: block s of the sender lands in block s^1 of the receiver). */
static int post_order(const struct loom_vtopo *t, int i)
{
    return t->kind == MPI_CART ? i ^ 1 : i;
}

static struct loom_sched *build(enum form f, struct loom_comm *c, MPI_Comm h,
                                const struct loom_neighbor_args *a, int keep)
{
    const struct loom_vtopo *t = c->topo;
    struct loom_sched *s = loom__sched_new(c, h);
    if (s == NULL)
        return NULL;
    int nin, nout;
    loom__vtopo_degrees(t, c->rank, &nin, &nout);
    int *in = loom__sched_bytes(s, (size_t)(nin + nout + 1) * sizeof *in);
    if (s->nomem)
        goto out_nomem;
    int *out = in + nin;
    loom__vtopo_neighbors(t, c->rank, in, out);
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    for (int k = 0; k < nin; k++) {
        int i = post_order(t, k);
        if (in[i] == MPI_PROC_NULL)
            continue;
        struct loom_coll_blk b = rblock(f, a, i);
        loom__sched_recv(s, b.p, b.c, b.t, in[i]);
        if (keep)
            loom__sched_keep_type(s, b.t);
    }
    for (int i = 0; i < nout; i++) {
        if (out[i] == MPI_PROC_NULL)
            continue;
        struct loom_coll_blk b = sblock(f, a, i);
        loom__sched_send(s, b.p, b.c, b.t, out[i]);
        if (keep)
            loom__sched_keep_type(s, b.t);
    }
    if (!s->nomem)
        return s;
out_nomem:
    loom__sched_free(s);
    return NULL;
}

struct loom_sched *loom__coll_build_neighbor_allgather(struct loom_comm *c, MPI_Comm h,
                                                       const struct loom_neighbor_args *a,
                                                       int keep)
{
    return build(ALLGATHER, c, h, a, keep);
}

struct loom_sched *loom__coll_build_neighbor_allgatherv(struct loom_comm *c, MPI_Comm h,
                                                        const struct loom_neighbor_args *a,
                                                        int keep)
{
    return build(ALLGATHERV, c, h, a, keep);
}

struct loom_sched *loom__coll_build_neighbor_alltoall(struct loom_comm *c, MPI_Comm h,
                                                      const struct loom_neighbor_args *a,
                                                      int keep)
{
    return build(ALLTOALL, c, h, a, keep);
}

struct loom_sched *loom__coll_build_neighbor_alltoallv(struct loom_comm *c, MPI_Comm h,
                                                       const struct loom_neighbor_args *a,
                                                       int keep)
{
    return build(ALLTOALLV, c, h, a, keep);
}

struct loom_sched *loom__coll_build_neighbor_alltoallw(struct loom_comm *c, MPI_Comm h,
                                                       const struct loom_neighbor_args *a,
                                                       int keep)
{
    return build(ALLTOALLW, c, h, a, keep);
}
