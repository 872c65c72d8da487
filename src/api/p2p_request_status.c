/* api/p2p_request_status.c — MPI 4.1's MPI_Request_get_status_all, _any and _some: Testall,
 * Testany and Testsome that neither free nor deactivate the requests (one keypoint each, then
 * loom__api_request_peek on every request). */
#include "api/p2p_args.h"

/* The array arguments of the three calls; then one keypoint when a request is not done. */
static int check_array(const char *fn, int count, MPI_Request requests[])
{
    if (count < 0)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_COUNT, "count %d is negative", count);
    if (count > 0 && requests == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "array_of_requests is NULL");
    int pending = 0;
    for (int i = 0; i < count; i++) {
        MPI_Request r = requests[i];
        if (r != MPI_REQUEST_NULL && !loom__object_is(r, LOOM_MAGIC_REQUEST))
            return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST,
                                   "request %d is not a valid request (freed?)", i);
        pending |= r != MPI_REQUEST_NULL && !loom__req_is_complete(r);
    }
    if (pending && loom__wait_progress)
        loom__wait_progress(); /* a keypoint, as in MPI_Testall */
    return MPI_SUCCESS;
}

static MPI_Status *status_at(MPI_Status *statuses, int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

int loom__mpi_request_get_status_all(int count, MPI_Request array_of_requests[], int *flag,
                                     MPI_Status *array_of_statuses)
{
    static const char fn[] = "MPI_Request_get_status_all";
    LOOM_API_ENTER(fn);
    int rc = check_array(fn, count, array_of_requests);
    if (rc == MPI_SUCCESS && flag == NULL)
        rc = loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "flag is NULL");
    if (rc == MPI_SUCCESS && count > 0)
        rc = loom__p2p_check_status(fn, MPI_COMM_WORLD, array_of_statuses,
                                    "array_of_statuses");
    if (rc != MPI_SUCCESS)
        return rc;
    /* Statuses are written only when every request is done, as MPI_Testall does. */
    int all = 1, active, done;
    for (int i = 0; i < count && all; i++) {
        rc = loom__api_request_peek(fn, array_of_requests[i], &active, &done, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        all = done;
    }
    *flag = all;
    for (int i = 0; i < count && all; i++) {
        rc = loom__api_request_peek(fn, array_of_requests[i], &active, &done,
                                    status_at(array_of_statuses, i));
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int loom__mpi_request_get_status_any(int count, MPI_Request array_of_requests[], int *index,
                                     int *flag, MPI_Status *status)
{
    static const char fn[] = "MPI_Request_get_status_any";
    LOOM_API_ENTER(fn);
    int rc = check_array(fn, count, array_of_requests);
    if (rc == MPI_SUCCESS && (index == NULL || flag == NULL))
        rc = loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "%s is NULL",
                             index == NULL ? "index" : "flag");
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check_status(fn, MPI_COMM_WORLD, status, "status");
    if (rc != MPI_SUCCESS)
        return rc;
    int any_active = 0, active, done;
    for (int i = 0; i < count; i++) {
        rc = loom__api_request_peek(fn, array_of_requests[i], &active, &done, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        any_active |= active;
        if (active && done) {
            *index = i;
            *flag = 1;
            return loom__api_request_peek(fn, array_of_requests[i], &active, &done, status);
        }
    }
    *index = MPI_UNDEFINED;
    *flag = !any_active; /* no active request: done, with an empty status */
    if (!any_active && status != MPI_STATUS_IGNORE) {
        MPI_Status st;
        loom__p2p_status_empty(&st, MPI_ANY_SOURCE);
        loom__p2p_status_out(status, &st);
    }
    return MPI_SUCCESS;
}

int loom__mpi_request_get_status_some(int incount, MPI_Request array_of_requests[], int *outcount,
                                      int array_of_indices[], MPI_Status *array_of_statuses)
{
    static const char fn[] = "MPI_Request_get_status_some";
    LOOM_API_ENTER(fn);
    int rc = check_array(fn, incount, array_of_requests);
    if (rc == MPI_SUCCESS && outcount == NULL)
        rc = loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "outcount is NULL");
    if (rc == MPI_SUCCESS && incount > 0 && array_of_indices == NULL)
        rc = loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "array_of_indices is NULL");
    if (rc == MPI_SUCCESS && incount > 0)
        rc = loom__p2p_check_status(fn, MPI_COMM_WORLD, array_of_statuses,
                                    "array_of_statuses");
    if (rc != MPI_SUCCESS)
        return rc;
    int n = 0, any_active = 0, active, done;
    for (int i = 0; i < incount; i++) {
        rc = loom__api_request_peek(fn, array_of_requests[i], &active, &done, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        any_active |= active;
        if (!active || !done)
            continue;
        rc = loom__api_request_peek(fn, array_of_requests[i], &active, &done,
                                    status_at(array_of_statuses, n));
        if (rc != MPI_SUCCESS)
            return rc;
        array_of_indices[n++] = i;
    }
    *outcount = any_active ? n : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
