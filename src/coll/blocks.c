/* coll/blocks.c — where peer r's block lies in a call's receive or send buffer, for the
 * everyone-to-everyone collectives (allgather(v), alltoall(v,w)): one description shared by
 * their schedules (alg_all.c) and their shm forms (shm_all.c). */
#include "coll/alg.h"

/* The receive block of peer r (allgather(v): the block holding r's data). */
struct loom_coll_blk loom__coll_rblock(enum loom_coll_kind k, const struct loom_coll_args *a, int r)
{
    struct loom_coll_blk b = {NULL, 0, a->rtype};
    switch (k) {
    case LOOM_COLL_ALLGATHER:
    case LOOM_COLL_ALLTOALL:
        b.c = a->rcount;
        b.p = loom__elem(a->rbuf, (size_t)r * a->rcount, a->rtype);
        break;
    case LOOM_COLL_ALLGATHERV:
    case LOOM_COLL_ALLTOALLV:
        b.c = loom__coll_count(a, LOOM_COLL_RECV, r);
        b.p = loom__elem(a->rbuf, (size_t)loom__coll_displ(a, LOOM_COLL_RECV, r), a->rtype);
        break;
    default: /* alltoallw: byte displacements, a type per peer */
        b.t = a->rtypes[r];
        b.c = loom__coll_count(a, LOOM_COLL_RECV, r);
        b.p = (char *)a->rbuf + loom__coll_displ(a, LOOM_COLL_RECV, r);
        break;
    }
    return b;
}

/* The send block for peer r (alltoall family; not in place). */
struct loom_coll_blk loom__coll_sblock(enum loom_coll_kind k, const struct loom_coll_args *a, int r)
{
    struct loom_coll_blk b = {NULL, 0, a->stype};
    switch (k) {
    case LOOM_COLL_ALLTOALL:
        b.c = a->scount;
        b.p = loom__elem(a->sbuf, (size_t)r * a->scount, a->stype);
        break;
    case LOOM_COLL_ALLTOALLV:
        b.c = loom__coll_count(a, LOOM_COLL_SEND, r);
        b.p = loom__elem(a->sbuf, (size_t)loom__coll_displ(a, LOOM_COLL_SEND, r), a->stype);
        break;
    default:
        b.t = a->stypes[r];
        b.c = loom__coll_count(a, LOOM_COLL_SEND, r);
        b.p = (char *)a->sbuf + loom__coll_displ(a, LOOM_COLL_SEND, r);
        break;
    }
    return b;
}

void loom__coll_own_into_place(struct loom_sched *s, enum loom_coll_kind k,
                               const struct loom_coll_args *a)
{
    if (a->in_place)
        return;
    struct loom_coll_blk me = loom__coll_rblock(k, a, s->me);
    loom__sched_copy(s, a->sbuf, a->scount, a->stype, me.p, me.c, me.t);
}
