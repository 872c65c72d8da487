/* api/barrier.c — MPI_Barrier and MPI_Ibarrier: a schedule of the collectives layer
 * (dissemination unless LOOM_COLL_BARRIER_ALGO says otherwise). */
#include "api/api.h"
#include "coll/check.h"
#include "comm/comm.h"
#include "p2p/inbox.h"

static int barrier(const char *fn, MPI_Comm comm, MPI_Request *request, int nb)
{
    struct loom_comm *c;
    int rc = loom__coll_check_comm_any(fn, comm, &c);
    if (rc == MPI_SUCCESS && nb)
        rc = loom__coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    /* On an intercommunicator: a barrier of the union of both groups (no member of either
     * leaves before every member of the other has entered), on its hidden handle. */
    if (loom__comm_is_inter(c))
        c = c->all;
    struct loom_coll_args a = {0};
    return loom__coll_call_mode(fn, comm, LOOM_COLL_BARRIER, c, &a, request, nb);
}

int loom__mpi_barrier(MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Barrier");
    int rc = barrier("MPI_Barrier", comm, NULL, 0);
    /* Small messages sent to us before the others entered wait in our rings of cells (p2p/
     * inbox.h) until we drain them: do it now, so that a receive the user freed with
     * MPI_Request_free is complete once the barrier returns, as a program written for MPICH
     * (where every call makes progress) expects. */
    if (rc == MPI_SUCCESS && loom__p2p_cells)
        loom__inbox_poll();
    return rc;
}

int loom__mpi_ibarrier(MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ibarrier");
    return barrier("MPI_Ibarrier", comm, request, 1);
}

/* ---- persistent forms (MPI 4): built once, run by each MPI_Start ---- */

int loom__mpi_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Barrier_init");
    int rc = loom__coll_check_info("MPI_Barrier_init", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return barrier("MPI_Barrier_init", comm, request, LOOM_COLL_PERSISTENT);
}
