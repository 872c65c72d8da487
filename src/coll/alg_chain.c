/* coll/alg_chain.c — bcast and reduce as a chain in rank order (Open MPI's "chain", one of
 * the algorithms the 2018 paper's Figs. 5-10 run flat and level by level; issue 6).
 *
 * bcast: relative rank vr = (rank - root) mod n receives from vr - 1 and sends to vr + 1:
 * n - 1 steps in a row, each rank busy once receiving and once sending. reduce: the data flows
 * the other way, from the far end of the chain to the root; each rank combines its own data
 * with the partial result of the ranks behind it. For a non-commutative operation the chain
 * is ranks n - 1 -> ... -> 0 in rank order (each step is mine op partial-of-the-higher-ranks),
 * then rank 0 hands the result to the root; a commutative one chains the relative ranks
 * towards the root and saves that hop.
 *
 * Why no pipelining in segments: the members of one call may describe the same stream with
 * different datatypes (a contiguous pair of ints at the root, single ints elsewhere), and a
 * segment must end on an element boundary of every member's type, which no member can see.
 * So one message per step: the chain's value is its depth (n - 1), which is what the
 * hierarchy shortens (docs/hierarchy.md). */
#include "coll/alg.h"

void loom__alg_bcast_chain(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, root = a->root, vr = (s->me - root + n) % n;
    if (n == 1)
        return;
    if (vr > 0) {
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_recv(s, a->rbuf, a->rcount, a->rtype, (vr - 1 + root) % n);
    }
    if (vr < n - 1) {
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_send(s, a->rbuf, a->rcount, a->rtype, (vr + 1 + root) % n);
    }
}

void loom__alg_reduce_chain(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, me = s->me, root = a->root;
    const void *input = a->in_place ? a->rbuf : a->sbuf;
    size_t count = a->scount;
    struct loom_datatype *type = a->stype;
    if (n == 1) {
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_copy(s, input, count, type, a->rbuf, count, type);
        return;
    }
    loom__sched_keep_op(s, a->op);
    /* the chain's end, where the result appears: the root, or rank 0 (rank order) */
    int end = a->op->commutative ? root : 0;
    int vr = (me - end + n) % n;
    int prev = (vr + 1 + end) % n, next = (vr - 1 + end) % n; /* from / towards the end */
    if (vr == n - 1) { /* the far end: its own data starts the chain */
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_send(s, input, count, type, next);
        if (me == root) /* (non-commutative, root n - 1): the result comes back from 0 */
            loom__sched_recv(s, a->rbuf, count, type, end);
        return;
    }
    /* partial = mine op (what the ranks behind sent): it lands in a scratch buffer, or in the
     * root's rbuf when the root ends the chain and its input is elsewhere */
    void *acc = (vr == 0 && me == root && !a->in_place) ? a->rbuf
                                                        : loom__sched_scratch(s, count, type);
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    loom__sched_recv(s, acc, count, type, prev);
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    loom__sched_reduce(s, input, acc, count, type); /* input is the lower side */
    if (vr > 0) {
        loom__sched_send(s, acc, count, type, next);
        if (me == root) /* non-commutative: rank 0 ends the chain and sends the result */
            loom__sched_recv(s, a->rbuf, count, type, end);
        return;
    }
    if (me == root)
        loom__sched_copy(s, acc, count, type, a->rbuf, count, type);
    else
        loom__sched_send(s, acc, count, type, root);
}
