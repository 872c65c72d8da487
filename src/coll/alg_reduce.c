/* coll/alg_reduce.c — reductions to everyone: allreduce (recursive doubling, reduce then
 * broadcast) and reduce_scatter (reduce then scatterv, linear).
 *
 * Non-commutative operations: every reduction below combines the data of a lower block of
 * ranks (the `in` side) with that of the next higher block (the `inout` side), so the result
 * is the rank-order reduction the standard asks for. */
#include "coll/alg.h"

/* Recursive doubling (MPICH's layout for n not a power of two): the first 2*rem ranks pair
 * up, even ranks hand their data to the odd one above and sit out; the remaining pof2 ranks
 * exchange with the partner `mask` apart and reduce, log2(pof2) times; the odd ranks then
 * hand the result back. A "new rank" numbering keeps blocks of consecutive ranks together. */
void loom__alg_allreduce_recursive_doubling(struct loom_sched *s,
                                            const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    size_t count = a->scount;
    struct loom_datatype *type = a->stype;
    loom__sched_keep_op(s, a->op);
    int pof2 = 1;
    while (pof2 * 2 <= n)
        pof2 *= 2;
    int rem = n - pof2;
    /* acc starts as the input in rbuf */
    void *acc = a->rbuf;
    void *tmp = loom__sched_scratch(s, count, type);
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (!a->in_place)
        loom__sched_copy(s, a->sbuf, count, type, acc, count, type);
    int newrank;
    int pending = 0, pending_lower = 0; /* tmp holds a partner's data to reduce */
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            loom__sched_send(s, acc, count, type, me + 1);
            newrank = -1;
        } else {
            loom__sched_recv(s, tmp, count, type, me - 1);
            pending = 1;
            pending_lower = 1;
            newrank = me / 2;
        }
    } else {
        newrank = me - rem;
    }
    if (newrank >= 0) {
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int newdst = newrank ^ mask;
            int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
            loom__sched_round(s, LOOM_ROUND_NONE, 0);
            if (pending) {
                if (pending_lower) {
                    loom__sched_reduce(s, tmp, acc, count, type);
                } else {
                    loom__sched_reduce(s, acc, tmp, count, type);
                    void *t = acc;
                    acc = tmp;
                    tmp = t;
                }
            }
            loom__sched_send(s, acc, count, type, dst);
            loom__sched_recv(s, tmp, count, type, dst);
            pending = 1;
            pending_lower = dst < me;
        }
    }
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (pending) {
        if (pending_lower) {
            loom__sched_reduce(s, tmp, acc, count, type);
        } else {
            loom__sched_reduce(s, acc, tmp, count, type);
            void *t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    if (me < 2 * rem) {
        if (me % 2)
            loom__sched_send(s, acc, count, type, me - 1);
        else
            loom__sched_recv(s, a->rbuf, count, type, me + 1);
    }
    if (acc != a->rbuf) {
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_copy(s, acc, count, type, a->rbuf, count, type);
    }
}

void loom__alg_allreduce_reduce_bcast(struct loom_sched *s, const struct loom_coll_args *a)
{
    const void *input = a->in_place ? a->rbuf : a->sbuf;
    loom__tree_reduce(s, input, a->rbuf, a->scount, a->stype, a->op, 0, 1);
    loom__tree_bcast(s, a->rbuf, a->scount, a->stype, 0);
}

/* Offsets (in elements) of each rank's block: off[r] = sum of counts[0..r-1]; off[n] = total. */
static size_t *offsets(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size;
    size_t *off = loom__sched_bytes(s, (size_t)(n + 1) * sizeof *off);
    if (s->nomem)
        return NULL;
    off[0] = 0;
    for (int r = 0; r < n; r++)
        off[r + 1] = off[r] + loom__coll_count(a, LOOM_COLL_RECV, r);
    return off;
}

void loom__alg_reduce_scatter_reduce_scatterv(struct loom_sched *s,
                                              const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    struct loom_datatype *type = a->stype;
    size_t *off = offsets(s, a);
    if (!off)
        return;
    const void *input = a->in_place ? a->rbuf : a->sbuf;
    void *all = me == 0 ? loom__sched_scratch(s, off[n], type) : NULL;
    loom__tree_reduce(s, input, all, off[n], type, a->op, 0, 0);
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (me != 0) {
        loom__sched_recv(s, a->rbuf, loom__coll_count(a, LOOM_COLL_RECV, me), type, 0);
        return;
    }
    for (int r = 1; r < n; r++)
        loom__sched_send(s, loom__elem(all, off[r], type), off[r + 1] - off[r], type, r);
    loom__sched_copy(s, all, off[1], type, a->rbuf, off[1], type);
}

/* Every rank sends block r of its input to rank r, receives its own block from everyone,
 * and reduces the n blocks in rank order. */
void loom__alg_reduce_scatter_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    struct loom_datatype *type = a->stype;
    size_t *off = offsets(s, a);
    const void **data = loom__sched_bytes(s, (size_t)n * sizeof *data);
    if (!off || s->nomem)
        return;
    loom__sched_keep_op(s, a->op);
    const void *input = a->in_place ? a->rbuf : a->sbuf;
    size_t mine = off[me + 1] - off[me];
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    for (int r = 0; r < n; r++) {
        const void *blk = loom__elem(input, off[r], type);
        if (r == me) {
            if (a->in_place) { /* rbuf is about to hold the result: keep our block apart */
                void *d = loom__sched_scratch(s, mine, type);
                loom__sched_copy(s, blk, mine, type, d, mine, type);
                data[r] = d;
            } else {
                data[r] = blk;
            }
            continue;
        }
        void *d = loom__sched_scratch(s, mine, type);
        data[r] = d;
        loom__sched_recv(s, d, mine, type, r);
        loom__sched_send(s, blk, off[r + 1] - off[r], type, r);
    }
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    loom__sched_copy(s, data[n - 1], mine, type, a->rbuf, mine, type);
    for (int r = n - 2; r >= 0; r--)
        loom__sched_reduce(s, data[r], a->rbuf, mine, type);
}
