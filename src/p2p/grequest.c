/* p2p/grequest.c — generalized requests: the callbacks' calls and when each runs (the
 * protocol is in grequest.h). */
#include <stdlib.h>
#include "p2p/grequest.h"
#include "p2p/p2p.h"

static struct loom_grequest *of(struct loom_request *r)
{
    return (struct loom_grequest *)r;
}

/* The request's end (destroy in request.c): free_fn, unless a wait or test already ran it.
 * Its error has nobody to go to here (the request was freed by the user, or already
 * settled). */
static void gone(struct loom_request *r)
{
    struct loom_grequest *g = of(r);
    if (!g->freed && g->free_fn) {
        g->freed = 1;
        g->free_fn(g->extra_state);
    }
}

struct loom_request *loom__greq_new(MPI_Grequest_query_function *query_fn,
                                    MPI_Grequest_free_function *free_fn,
                                    MPI_Grequest_cancel_function *cancel_fn, void *extra_state)
{
    struct loom_grequest *g = malloc(sizeof *g); /* freed with its request (destroy) */
    if (!g)
        return NULL;
    loom__req_init_stack(&g->req, LOOM_REQ_GREQ);
    g->req.heap = 1; /* g is the request's memory: destroy frees it */
    g->req.comm = MPI_COMM_SELF; /* errors not tied to a communicator */
    g->req.on_complete = gone;
    loom__p2p_status_empty(&g->req.status, MPI_ANY_SOURCE); /* what query_fn leaves unset */
    g->query_fn = query_fn;
    g->free_fn = free_fn;
    g->cancel_fn = cancel_fn;
    g->extra_state = extra_state;
    g->freed = 0;
    return &g->req;
}

int loom__greq_query(struct loom_request *r, MPI_Status *status)
{
    struct loom_grequest *g = of(r);
    return g->query_fn ? g->query_fn(g->extra_state, status) : MPI_SUCCESS;
}

void loom__greq_settle_user(struct loom_request *r)
{
    struct loom_grequest *g = of(r);
    if (g->freed)
        return;
    /* the status the user's query_fn does not set reads as an empty one */
    int keep = r->status.MPI_ERROR;
    int err = loom__greq_query(r, &r->status);
    r->status.MPI_ERROR = keep;
    /* Only the owner settles, and only a complete request that the user still holds (not
     * RELEASED): no destroyer runs gone() concurrently. */
    g->freed = 1;
    int ferr = g->free_fn ? g->free_fn(g->extra_state) : MPI_SUCCESS;
    r->error = err != MPI_SUCCESS ? err : ferr;
}

int loom__greq_cancel(struct loom_request *r)
{
    struct loom_grequest *g = of(r);
    return g->cancel_fn ? g->cancel_fn(g->extra_state, loom__req_is_complete(r)) : MPI_SUCCESS;
}
