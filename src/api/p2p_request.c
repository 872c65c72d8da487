/* api/p2p_request.c — MPI_Request_free, MPI_Request_get_status, MPI_Cancel. */
#include "api/p2p_args.h"
#include "p2p/grequest.h"

/* A partitioned request started and not yet complete: may be neither freed nor cancelled. */
static int partitioned_in_flight(struct loom_request *r)
{
    return (r->kind == LOOM_REQ_PSEND || r->kind == LOOM_REQ_PRECV) && r->active &&
           !loom__req_is_complete(r);
}

int loom__mpi_request_free(MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Request_free");
    if (request == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Request_free", MPI_ERR_ARG, "request is NULL");
    if (*request == MPI_REQUEST_NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Request_free", MPI_ERR_REQUEST,
                               "request is MPI_REQUEST_NULL");
    if (!loom__object_is(*request, LOOM_MAGIC_REQUEST))
        return loom__api_error(MPI_COMM_WORLD, "MPI_Request_free", MPI_ERR_REQUEST,
                               "not a valid request (freed?)");
    struct loom_request *r = *request;
    /* MPI 4.1, 3.7.3: freeing an active persistent collective request is erroneous (its
     * schedule is the request's and must not outlive it running) */
    if (r->kind == LOOM_REQ_COLL && r->persistent && r->active)
        return loom__api_error(r->comm, "MPI_Request_free", MPI_ERR_REQUEST,
                               "persistent collective request is active (complete it first)");
    /* MPI 4.1, chapter 4: freeing a partitioned request that is active and not complete is
     * erroneous (its buffer and channel are in use by the peer until the round ends) */
    if (partitioned_in_flight(r))
        return loom__api_error(r->comm, "MPI_Request_free", MPI_ERR_REQUEST,
                               "partitioned request is active (complete it first)");
    /* The operation goes on; whoever completes it frees the request. */
    loom__req_release(*request);
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

int loom__api_request_peek(const char *fn, MPI_Request request, int *active, int *flag,
                           MPI_Status *status)
{
    /* The handle is checked before any field of it is read. */
    if (request != MPI_REQUEST_NULL && !loom__object_is(request, LOOM_MAGIC_REQUEST))
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST,
                               "not a valid request (freed?)");
    if (request == MPI_REQUEST_NULL || (request->persistent && !request->active)) {
        MPI_Status st;
        loom__p2p_status_empty(&st, MPI_ANY_SOURCE);
        loom__p2p_status_out(status, &st);
        *active = 0;
        *flag = 1;
        return MPI_SUCCESS;
    }
    *active = 1;
    *flag = loom__req_is_complete(request);
    if (*flag && request->kind == LOOM_REQ_GREQ) {
        /* a generalized request's status is its query_fn's (the request stays as it is) */
        MPI_Status st = request->status;
        int err = loom__greq_query(request, &st);
        loom__p2p_status_out(status, &st);
        if (err != MPI_SUCCESS)
            return loom__api_error(request->comm, fn, err, "query_fn returned error %d", err);
        return MPI_SUCCESS;
    }
    if (*flag)
        loom__p2p_status_out(status, &request->status);
    return MPI_SUCCESS;
}

int loom__mpi_request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    static const char fn[] = "MPI_Request_get_status";
    LOOM_API_ENTER(fn);
    if (flag == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "flag is NULL");
    int rc = loom__p2p_check_status(fn, MPI_COMM_WORLD, status, "status");
    if (rc != MPI_SUCCESS)
        return rc;
    int active;
    if (request != MPI_REQUEST_NULL && loom__object_is(request, LOOM_MAGIC_REQUEST) &&
        !loom__req_is_complete(request) && loom__wait_progress)
        loom__wait_progress(); /* a keypoint, as in MPI_Test */
    return loom__api_request_peek(fn, request, &active, flag, status);
}

int loom__mpi_cancel(MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Cancel");
    if (request == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Cancel", MPI_ERR_ARG, "request is NULL");
    if (*request == MPI_REQUEST_NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Cancel", MPI_ERR_REQUEST,
                               "request is MPI_REQUEST_NULL");
    struct loom_request *r = *request;
    if (!loom__object_is(r, LOOM_MAGIC_REQUEST))
        return loom__api_error(MPI_COMM_WORLD, "MPI_Cancel", MPI_ERR_REQUEST,
                               "not a valid request (freed?)");
    if (r->persistent && !r->active)
        return loom__api_error(r->comm, "MPI_Cancel", MPI_ERR_REQUEST,
                               "persistent request is not active");
    if (partitioned_in_flight(r)) /* MPI 4.1, chapter 4: erroneous */
        return loom__api_error(r->comm, "MPI_Cancel", MPI_ERR_REQUEST,
                               "partitioned request is active (it cannot be cancelled)");
    if (r->kind == LOOM_REQ_GREQ) { /* the user's operation: its cancel_fn decides */
        int err = loom__greq_cancel(r);
        if (err != MPI_SUCCESS)
            return loom__api_error(r->comm, "MPI_Cancel", err, "cancel_fn returned error %d",
                                   err);
        return MPI_SUCCESS;
    }
    /* Receives still unmatched are cancelled. Sends are not: the standard allows an
     * implementation to refuse, and a send in loom is matched or queued at once. */
    if (r->kind == LOOM_REQ_RECV && !loom__req_is_complete(r))
        loom__p2p_cancel_recv(r);
    return MPI_SUCCESS;
}
