/* api/barrier.c — MPI_Barrier, for now one rendezvous of the communicator's members
 * (comm/rendezvous.c); the collectives layer will give it a schedule of its own. */
#include "api/api.h"
#include "comm/comm.h"

int MPI_Barrier(MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Barrier");
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        return loom__api_error(comm, "MPI_Barrier", MPI_ERR_COMM, "%s",
                               loom__comm_invalid_reason(comm));
    int rc = loom__comm_exchange(c, NULL, 0, NULL);
    if (rc != 0)
        return loom__api_error_code(comm, "MPI_Barrier", rc);
    return MPI_SUCCESS;
}
