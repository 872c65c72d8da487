/* coll/alg_all.c — everyone to everyone: allgather(v) (ring, linear) and alltoall(v,w)
 * (pairwise, linear). One description of "the block for/from peer r" per collective, and one
 * builder per algorithm over it. */
#include "coll/alg.h"

struct blk {
    void *p;
    size_t c;
    struct loom_datatype *t;
};

/* The receive block of peer r (allgather(v): the block holding r's data). */
static struct blk rblock(enum loom_coll_kind k, const struct loom_coll_args *a, int r)
{
    struct blk b = {NULL, 0, a->rtype};
    switch (k) {
    case LOOM_COLL_ALLGATHER:
    case LOOM_COLL_ALLTOALL:
        b.c = a->rcount;
        b.p = loom__elem(a->rbuf, (size_t)r * a->rcount, a->rtype);
        break;
    case LOOM_COLL_ALLGATHERV:
    case LOOM_COLL_ALLTOALLV:
        b.c = (size_t)a->rcounts[r];
        b.p = loom__elem(a->rbuf, (size_t)a->rdispls[r], a->rtype);
        break;
    default: /* alltoallw: byte displacements, a type per peer */
        b.t = a->rtypes[r];
        b.c = (size_t)a->rcounts[r];
        b.p = (char *)a->rbuf + a->rdispls[r];
        break;
    }
    return b;
}

/* The send block for peer r (alltoall family; not in place). */
static struct blk sblock(enum loom_coll_kind k, const struct loom_coll_args *a, int r)
{
    struct blk b = {NULL, 0, a->stype};
    switch (k) {
    case LOOM_COLL_ALLTOALL:
        b.c = a->scount;
        b.p = loom__elem(a->sbuf, (size_t)r * a->scount, a->stype);
        break;
    case LOOM_COLL_ALLTOALLV:
        b.c = (size_t)a->scounts[r];
        b.p = loom__elem(a->sbuf, (size_t)a->sdispls[r], a->stype);
        break;
    default:
        b.t = a->stypes[r];
        b.c = (size_t)a->scounts[r];
        b.p = (char *)a->sbuf + a->sdispls[r];
        break;
    }
    return b;
}

/* ---- allgather(v) ---- */

static void own_into_place(struct loom_sched *s, enum loom_coll_kind k,
                           const struct loom_coll_args *a)
{
    if (a->in_place)
        return;
    struct blk me = rblock(k, a, s->me);
    loom__sched_copy(s, a->sbuf, a->scount, a->stype, me.p, me.c, me.t);
}

static void allgather_ring(struct loom_sched *s, enum loom_coll_kind k,
                           const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    own_into_place(s, k, a);
    for (int j = 0; j < n - 1; j++) {
        if (j > 0)
            loom__sched_round(s, LOOM_ROUND_NONE, 0);
        struct blk out = rblock(k, a, (me - j + n) % n);
        struct blk in = rblock(k, a, (me - j - 1 + n) % n);
        loom__sched_send(s, out.p, out.c, out.t, (me + 1) % n);
        loom__sched_recv(s, in.p, in.c, in.t, (me - 1 + n) % n);
    }
}

static void allgather_linear(struct loom_sched *s, enum loom_coll_kind k,
                             const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    own_into_place(s, k, a); /* local operations run before the sends start */
    struct blk mine = rblock(k, a, me);
    for (int r = 0; r < n; r++) {
        if (r == me)
            continue;
        struct blk in = rblock(k, a, r);
        loom__sched_recv(s, in.p, in.c, in.t, r);
        loom__sched_send(s, mine.p, mine.c, mine.t, r);
    }
}

void loom__alg_allgather_ring(struct loom_sched *s, const struct loom_coll_args *a)
{
    allgather_ring(s, LOOM_COLL_ALLGATHER, a);
}
void loom__alg_allgather_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    allgather_linear(s, LOOM_COLL_ALLGATHER, a);
}
void loom__alg_allgatherv_ring(struct loom_sched *s, const struct loom_coll_args *a)
{
    allgather_ring(s, LOOM_COLL_ALLGATHERV, a);
}
void loom__alg_allgatherv_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    allgather_linear(s, LOOM_COLL_ALLGATHERV, a);
}

/* ---- alltoall(v,w) ---- */

/* The send blocks: the user's, or (in place) copies of the receive blocks taken in the
 * first round, before anything lands in the receive buffer. */
static struct blk *send_blocks(struct loom_sched *s, enum loom_coll_kind k,
                               const struct loom_coll_args *a)
{
    int n = s->size;
    struct blk *sb = loom__sched_bytes(s, (size_t)n * sizeof *sb);
    if (s->nomem)
        return NULL;
    for (int r = 0; r < n; r++) {
        if (!a->in_place) {
            sb[r] = sblock(k, a, r);
            continue;
        }
        struct blk rb = rblock(k, a, r);
        sb[r] = rb;
        if (r == s->me)
            continue; /* stays where it is */
        sb[r].p = loom__sched_scratch(s, rb.c, rb.t);
        loom__sched_copy(s, rb.p, rb.c, rb.t, sb[r].p, rb.c, rb.t);
    }
    return sb;
}

static void alltoall_pairwise(struct loom_sched *s, enum loom_coll_kind k,
                              const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    struct blk *sb = send_blocks(s, k, a);
    if (!sb)
        return;
    if (!a->in_place) {
        struct blk rb = rblock(k, a, me);
        loom__sched_copy(s, sb[me].p, sb[me].c, sb[me].t, rb.p, rb.c, rb.t);
    }
    for (int j = 1; j < n; j++) {
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        int dst = (me + j) % n, src = (me - j + n) % n;
        struct blk rb = rblock(k, a, src);
        loom__sched_recv(s, rb.p, rb.c, rb.t, src);
        loom__sched_send(s, sb[dst].p, sb[dst].c, sb[dst].t, dst);
    }
}

static void alltoall_linear(struct loom_sched *s, enum loom_coll_kind k,
                            const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    struct blk *sb = send_blocks(s, k, a);
    if (!sb)
        return;
    for (int j = 0; j < n; j++) {
        int r = (me + j) % n; /* everyone starts with a different peer */
        struct blk rb = rblock(k, a, r);
        if (r == me) {
            if (!a->in_place)
                loom__sched_copy(s, sb[me].p, sb[me].c, sb[me].t, rb.p, rb.c, rb.t);
            continue;
        }
        loom__sched_recv(s, rb.p, rb.c, rb.t, r);
        loom__sched_send(s, sb[r].p, sb[r].c, sb[r].t, r);
    }
}

void loom__alg_alltoall_pairwise(struct loom_sched *s, const struct loom_coll_args *a)
{
    alltoall_pairwise(s, LOOM_COLL_ALLTOALL, a);
}
void loom__alg_alltoall_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    alltoall_linear(s, LOOM_COLL_ALLTOALL, a);
}
void loom__alg_alltoallv_pairwise(struct loom_sched *s, const struct loom_coll_args *a)
{
    alltoall_pairwise(s, LOOM_COLL_ALLTOALLV, a);
}
void loom__alg_alltoallv_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    alltoall_linear(s, LOOM_COLL_ALLTOALLV, a);
}
void loom__alg_alltoallw_pairwise(struct loom_sched *s, const struct loom_coll_args *a)
{
    alltoall_pairwise(s, LOOM_COLL_ALLTOALLW, a);
}
void loom__alg_alltoallw_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    alltoall_linear(s, LOOM_COLL_ALLTOALLW, a);
}
