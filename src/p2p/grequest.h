/* p2p/grequest.h — generalized requests (MPI_Grequest_start, MPI 4.1 section 13.2): a request
 * whose operation the user runs and completes (MPI_Grequest_complete), with three callbacks:
 * query (fill the status), free (release the user's state), cancel.
 *
 * The request is a heap request of kind LOOM_REQ_GREQ embedded first in struct loom_grequest,
 * so the request protocol of request.h applies unchanged: MPI_Grequest_complete is the
 * completer (loom__req_complete, any thread of the rank), MPI_Request_free the release;
 * whoever sets the second bit destroys it, and its on_complete hook calls free_fn if nobody
 * has yet: so a request freed before completion gets its free_fn from MPI_Grequest_complete,
 * as the standard says. A wait or test that completes it first "settles" it: query_fn into
 * the request's status, then free_fn, their error becoming the request's error; both run on
 * the owner's thread that completes it, once. Fields other than the request's are set before
 * the request is published and then read-only, except `freed`, written by whoever runs free_fn
 * (the owner settling it, or the destroyer: never both, see loom__greq_settle). */
#ifndef LOOM_P2P_GREQUEST_H
#define LOOM_P2P_GREQUEST_H
#include "mpi.h"
#include "p2p/request.h"

struct loom_grequest {
    struct loom_request req; /* first: the request's memory is the grequest's */
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
    int freed; /* free_fn has run */
};

/* A new generalized request of the calling rank, active, or NULL (ENOMEM). */
struct loom_request *loom__greq_new(MPI_Grequest_query_function *query_fn,
                                    MPI_Grequest_free_function *free_fn,
                                    MPI_Grequest_cancel_function *cancel_fn, void *extra_state);
/* A complete generalized request is about to be retired by a wait or test: run query_fn into
 * its status and free_fn, and make the first error they return the request's error. Once;
 * no-op for other kinds (checked inline: every wait and test of every request comes here).
 * Owner's thread. */
void loom__greq_settle_user(struct loom_request *r);
static inline void loom__greq_settle(struct loom_request *r)
{
    if (r->kind == LOOM_REQ_GREQ)
        loom__greq_settle_user(r);
}
/* query_fn into *status (MPI_Request_get_status on a complete one); its error code. */
int loom__greq_query(struct loom_request *r, MPI_Status *status);
/* cancel_fn with complete = whether MPI_Grequest_complete was called; its error code. */
int loom__greq_cancel(struct loom_request *r);
#endif
