/* greq_state.h — the extra state of the generalized requests of tests/persist: what each
 * callback saw, counted atomically (a callback may run on the thread that completes the
 * request), and what each should return. */
#ifndef PERSIST_GREQ_STATE_H
#define PERSIST_GREQ_STATE_H
#include <stdatomic.h>
#include <mpi.h>

struct greq {
    _Atomic int queries, frees, cancels, cancel_complete;
    _Atomic int queries_at_free; /* how many queries had run when free_fn ran */
    int source, tag, count;            /* what query_fn reports */
    int query_err, free_err, cancel_err; /* what each callback returns */
    _Atomic int cancelled;             /* set by cancel_fn, reported by query_fn */
};

static int greq_query(void *extra, MPI_Status *st)
{
    struct greq *g = extra;
    atomic_fetch_add(&g->queries, 1);
    st->MPI_SOURCE = g->source;
    st->MPI_TAG = g->tag;
    MPI_Status_set_elements(st, MPI_INT, g->count);
    MPI_Status_set_cancelled(st, atomic_load(&g->cancelled));
    return g->query_err;
}

static int greq_free(void *extra)
{
    struct greq *g = extra;
    atomic_store(&g->queries_at_free, atomic_load(&g->queries));
    atomic_fetch_add(&g->frees, 1);
    return g->free_err;
}

static int greq_cancel(void *extra, int complete)
{
    struct greq *g = extra;
    atomic_fetch_add(&g->cancels, 1);
    atomic_store(&g->cancel_complete, complete);
    atomic_store(&g->cancelled, 1);
    return g->cancel_err;
}

static inline void greq_init(struct greq *g, int source, int tag, int count)
{
    atomic_init(&g->queries, 0);
    atomic_init(&g->frees, 0);
    atomic_init(&g->cancels, 0);
    atomic_init(&g->cancel_complete, -1);
    atomic_init(&g->queries_at_free, -1);
    atomic_init(&g->cancelled, 0);
    g->source = source;
    g->tag = tag;
    g->count = count;
    g->query_err = g->free_err = g->cancel_err = MPI_SUCCESS;
}

static inline int greq_start(struct greq *g, MPI_Request *r)
{
    return MPI_Grequest_start(greq_query, greq_free, greq_cancel, g, r);
}
#endif
