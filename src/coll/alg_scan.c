/* coll/alg_scan.c — scan and exscan as a chain (libNBC's, the paper's Iscan): rank r
 * receives the prefix of ranks 0..r-1 from r - 1, combines it with its own data, and sends
 * the prefix of 0..r on to r + 1. n - 1 steps, each rank busy in two of them: the pattern
 * that the odd-even placement of progress threads (Eq. 2) was made for. */
#include "coll/alg.h"

void loom__alg_scan_chain(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    size_t count = a->scount;
    struct loom_datatype *type = a->stype;
    loom__sched_keep_op(s, a->op);
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (!a->in_place)
        loom__sched_copy(s, a->sbuf, count, type, a->rbuf, count, type);
    if (me > 0) {
        void *prefix = loom__sched_scratch(s, count, type);
        loom__sched_recv(s, prefix, count, type, me - 1);
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_reduce(s, prefix, a->rbuf, count, type); /* 0..r-1 op r */
    }
    if (me < n - 1)
        loom__sched_send(s, a->rbuf, count, type, me + 1);
}

void loom__alg_exscan_chain(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    size_t count = a->scount;
    struct loom_datatype *type = a->stype;
    const void *mine = a->in_place ? a->rbuf : a->sbuf;
    loom__sched_keep_op(s, a->op);
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (me == 0) { /* rbuf is undefined on rank 0 */
        if (n > 1)
            loom__sched_send(s, mine, count, type, 1);
        return;
    }
    void *own = (void *)mine;
    if (me < n - 1) {
        /* the prefix to pass on is rbuf op mine: build it in a copy of mine, since rbuf
         * (which may hold mine, in place) receives the prefix of 0..r-1 */
        own = loom__sched_scratch(s, count, type);
        loom__sched_copy(s, mine, count, type, own, count, type);
    }
    loom__sched_recv(s, a->rbuf, count, type, me - 1);
    if (me < n - 1) {
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_reduce(s, a->rbuf, own, count, type); /* 0..r-1 op r */
        loom__sched_send(s, own, count, type, me + 1);
    }
}
