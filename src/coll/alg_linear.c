/* coll/alg_linear.c — the linear algorithms: the root talks to every rank in one round
 * (bcast, reduce, gather(v), scatter(v)), and the barriers (dissemination and linear).
 *
 * In one address space a linear round is cheaper than it looks: a receive posted before its
 * send is matched by the sender, which copies into it itself, so a root's n - 1 posted
 * receives are filled by n - 1 threads at once. */
#include "coll/alg.h"

void loom__alg_barrier_dissemination(struct loom_sched *s)
{
    int n = s->size, me = s->me;
    for (int k = 1; k < n; k <<= 1) {
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_send(s, NULL, 0, MPI_BYTE, (me + k) % n);
        loom__sched_recv(s, NULL, 0, MPI_BYTE, (me - k + n) % n);
    }
}

void loom__alg_barrier_linear(struct loom_sched *s)
{
    int n = s->size, me = s->me;
    if (n == 1)
        return;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (me == 0) {
        for (int r = 1; r < n; r++)
            loom__sched_recv(s, NULL, 0, MPI_BYTE, r);
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        for (int r = 1; r < n; r++)
            loom__sched_send(s, NULL, 0, MPI_BYTE, r);
    } else {
        loom__sched_send(s, NULL, 0, MPI_BYTE, 0);
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_recv(s, NULL, 0, MPI_BYTE, 0);
    }
}

void loom__alg_bcast_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (me != a->root) {
        loom__sched_recv(s, a->rbuf, a->rcount, a->rtype, a->root);
        return;
    }
    for (int r = 0; r < n; r++)
        if (r != me)
            loom__sched_send(s, a->rbuf, a->rcount, a->rtype, r);
}

void loom__alg_reduce_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    const void *input = a->in_place ? a->rbuf : a->sbuf;
    size_t count = a->scount;
    struct loom_datatype *type = a->stype;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (me != a->root) {
        loom__sched_send(s, input, count, type, a->root);
        return;
    }
    loom__sched_keep_op(s, a->op);
    /* every rank's data, the root's own included (copied: the result overwrites rbuf) */
    const void **data = loom__sched_bytes(s, (size_t)n * sizeof *data);
    if (s->nomem)
        return;
    for (int r = 0; r < n; r++) {
        if (r == me && !a->in_place) {
            data[r] = input;
            continue;
        }
        void *d = loom__sched_scratch(s, count, type);
        data[r] = d;
        if (r == me)
            loom__sched_copy(s, input, count, type, d, count, type);
        else
            loom__sched_recv(s, d, count, type, r);
    }
    /* rbuf = d0 op (d1 op (... op d(n-1))): the lower rank is always the `in` side */
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    loom__sched_copy(s, data[n - 1], count, type, a->rbuf, count, type);
    for (int r = n - 2; r >= 0; r--)
        loom__sched_reduce(s, data[r], a->rbuf, count, type);
}

static void gather_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (me != a->root) {
        loom__sched_send(s, a->sbuf, a->scount, a->stype, a->root);
        return;
    }
    for (int r = 0; r < n; r++) {
        /* gather(v): count and place of rank r's block at the root */
        size_t c = loom__coll_count(a, LOOM_COLL_RECV, r);
        void *dst = loom__elem(a->rbuf, (size_t)loom__coll_displ(a, LOOM_COLL_RECV, r),
                               a->rtype);
        if (r != me)
            loom__sched_recv(s, dst, c, a->rtype, r);
        else if (!a->in_place)
            loom__sched_copy(s, a->sbuf, a->scount, a->stype, dst, c, a->rtype);
    }
}

void loom__alg_gather_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    gather_linear(s, a);
}

void loom__alg_gatherv_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    gather_linear(s, a);
}

static void scatter_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, me = s->me;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (me != a->root) {
        loom__sched_recv(s, a->rbuf, a->rcount, a->rtype, a->root);
        return;
    }
    for (int r = 0; r < n; r++) {
        size_t c = loom__coll_count(a, LOOM_COLL_SEND, r);
        const void *src =
            loom__elem(a->sbuf, (size_t)loom__coll_displ(a, LOOM_COLL_SEND, r), a->stype);
        if (r != me)
            loom__sched_send(s, src, c, a->stype, r);
        else if (!a->in_place)
            loom__sched_copy(s, src, c, a->stype, a->rbuf, a->rcount, a->rtype);
    }
}

void loom__alg_scatter_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    scatter_linear(s, a);
}

void loom__alg_scatterv_linear(struct loom_sched *s, const struct loom_coll_args *a)
{
    scatter_linear(s, a);
}
