/* coll/alg_all.c — everyone to everyone: allgather(v) (ring, linear) and alltoall(v,w)
 * (pairwise, linear). One description of "the block for/from peer r" per collective, and one
 * builder per algorithm over it. */
#include "coll/alg.h"

/* ---- allgather(v) ---- */

static void allgather_ring(struct loom_sched *s, enum loom_coll_kind k,
                           const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    loom__coll_own_into_place(s, k, a);
    for (int j = 0; j < n - 1; j++) {
        if (j > 0)
            loom__sched_round(s, LOOM_ROUND_NONE, 0);
        struct loom_coll_blk out = loom__coll_rblock(k, a, (me - j + n) % n);
        struct loom_coll_blk in = loom__coll_rblock(k, a, (me - j - 1 + n) % n);
        loom__sched_send(s, out.p, out.c, out.t, (me + 1) % n);
        loom__sched_recv(s, in.p, in.c, in.t, (me - 1 + n) % n);
    }
}

static void allgather_linear(struct loom_sched *s, enum loom_coll_kind k,
                             const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    loom__coll_own_into_place(s, k, a); /* local operations run before the sends start */
    struct loom_coll_blk mine = loom__coll_rblock(k, a, me);
    for (int r = 0; r < n; r++) {
        if (r == me)
            continue;
        struct loom_coll_blk in = loom__coll_rblock(k, a, r);
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
static struct loom_coll_blk *send_blocks(struct loom_sched *s, enum loom_coll_kind k,
                               const struct loom_coll_args *a)
{
    int n = s->size;
    struct loom_coll_blk *sb = loom__sched_bytes(s, (size_t)n * sizeof *sb);
    if (s->nomem)
        return NULL;
    for (int r = 0; r < n; r++) {
        if (!a->in_place) {
            sb[r] = loom__coll_sblock(k, a, r);
            continue;
        }
        struct loom_coll_blk rb = loom__coll_rblock(k, a, r);
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
    struct loom_coll_blk *sb = send_blocks(s, k, a);
    if (!sb)
        return;
    if (!a->in_place) {
        struct loom_coll_blk rb = loom__coll_rblock(k, a, me);
        loom__sched_copy(s, sb[me].p, sb[me].c, sb[me].t, rb.p, rb.c, rb.t);
    }
    for (int j = 1; j < n; j++) {
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        int dst = (me + j) % n, src = (me - j + n) % n;
        struct loom_coll_blk rb = loom__coll_rblock(k, a, src);
        loom__sched_recv(s, rb.p, rb.c, rb.t, src);
        loom__sched_send(s, sb[dst].p, sb[dst].c, sb[dst].t, dst);
    }
}

static void alltoall_linear(struct loom_sched *s, enum loom_coll_kind k,
                            const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    struct loom_coll_blk *sb = send_blocks(s, k, a);
    if (!sb)
        return;
    for (int j = 0; j < n; j++) {
        int r = (me + j) % n; /* everyone starts with a different peer */
        struct loom_coll_blk rb = loom__coll_rblock(k, a, r);
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
