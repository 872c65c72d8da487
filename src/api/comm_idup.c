/* api/comm_idup.c — MPI_Comm_idup and MPI_Comm_idup_with_info (comm/idup.c): the new handle
 * is returned at once and may be used once the request completes. */
#include "api/api.h"
#include "comm/comm.h"

static int idup(const char *fn, MPI_Comm comm, MPI_Info info, int use_info, MPI_Comm *newcomm,
                MPI_Request *request)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    if (use_info && info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return loom__api_error(comm, fn, MPI_ERR_INFO, "%s", loom__info_invalid_reason(info));
    if (newcomm == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "newcomm is NULL");
    if (request == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "request is NULL");
    struct loom_comm *nc;
    int rc = loom__comm_idup(c, comm, info, use_info, &nc, request);
    if (rc < 0)
        return loom__api_error_code(comm, fn, rc);
    if (rc > 0) {
        *newcomm = MPI_COMM_NULL;
        *request = MPI_REQUEST_NULL;
        int cls = rc <= MPI_ERR_LASTCODE ? rc : MPI_ERR_OTHER;
        return loom__api_error(comm, fn, cls, "an attribute copy callback returned error %d",
                               rc);
    }
    *newcomm = nc;
    return MPI_SUCCESS;
}

int loom__mpi_comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Comm_idup");
    return idup("MPI_Comm_idup", comm, MPI_INFO_NULL, 0, newcomm, request);
}

int loom__mpi_comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                                  MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Comm_idup_with_info");
    return idup("MPI_Comm_idup_with_info", comm, info, 1, newcomm, request);
}
