/* api/grequest.c — MPI_Grequest_start and MPI_Grequest_complete (generalized requests,
 * p2p/grequest.h). Completion, status, cancel and free go through the request calls
 * (api/p2p_wait.c, api/p2p_request.c). Errors not tied to a communicator are raised on
 * MPI_COMM_SELF. */
#include "api/p2p_args.h"
#include "p2p/grequest.h"

int loom__mpi_grequest_start(MPI_Grequest_query_function *query_fn,
                             MPI_Grequest_free_function *free_fn,
                             MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                             MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Grequest_start");
    static const char fn[] = "MPI_Grequest_start";
    if (request == NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "request is NULL");
    if (query_fn == NULL || free_fn == NULL || cancel_fn == NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "%s is NULL",
                               query_fn == NULL ? "query_fn"
                               : free_fn == NULL ? "free_fn"
                                                 : "cancel_fn");
    struct loom_request *r = loom__greq_new(query_fn, free_fn, cancel_fn, extra_state);
    if (r == NULL)
        return loom__api_error_code(MPI_COMM_SELF, fn, LOOM_ERR_NOMEM);
    *request = r;
    return MPI_SUCCESS;
}

int loom__mpi_grequest_complete(MPI_Request request)
{
    LOOM_API_ENTER("MPI_Grequest_complete");
    static const char fn[] = "MPI_Grequest_complete";
    if (request == MPI_REQUEST_NULL || !loom__object_is(request, LOOM_MAGIC_REQUEST))
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_REQUEST, "%s",
                               request == MPI_REQUEST_NULL
                                   ? "request is MPI_REQUEST_NULL"
                                   : "not a valid request (freed?)");
    if (request->kind != LOOM_REQ_GREQ)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_REQUEST,
                               "not a generalized request");
    if (loom__req_is_complete(request))
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_REQUEST, "already completed");
    /* the completer's side of the protocol: may free the request (freed by the user) */
    loom__req_complete(request);
    return MPI_SUCCESS;
}
