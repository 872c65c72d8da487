/* api/coll_bcast.c — MPI_Bcast, MPI_Ibcast, MPI_Bcast_init: one implementation each for the
 * int call and its big-count twin MPI_Xxx_c (the count only widens, docs/bindings.md). */
#include "api/api.h"
#include "coll/check.h"
#include "comm/comm.h"

static int bcast(const char *fn, void *buf, MPI_Count count, MPI_Datatype type, int root,
                 MPI_Comm comm, MPI_Request *request, int nb)
{
    struct loom_comm *c;
    int is_root, idle = 0;
    int rc = loom__coll_check_comm_any(fn, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_root_of(fn, comm, c, root, &is_root, &idle);
    if (rc == MPI_SUCCESS && !idle)
        rc = loom__coll_check_buf(fn, comm, "buffer", buf, count, type);
    if (rc == MPI_SUCCESS && nb)
        rc = loom__coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    struct loom_coll_args a = {.rbuf = buf, .rcount = (size_t)count, .rtype = type,
                               .root = root};
    if (idle) /* nothing of it is significant, nor checked */
        a = (struct loom_coll_args){.root = root};
    return loom__coll_call_mode(fn, comm, LOOM_COLL_BCAST, c, &a, request, nb);
}

int loom__mpi_bcast_c(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype,
                      int root, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return bcast(fn, buffer, count, datatype, root, comm, NULL, 0);
}

int loom__mpi_ibcast_c(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype,
                       int root, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return bcast(fn, buffer, count, datatype, root, comm, request, 1);
}

/* ---- persistent forms (MPI 4): built once, run by each MPI_Start ---- */

int loom__mpi_bcast_init_c(const char *fn, void *buffer, MPI_Count count, MPI_Datatype datatype,
                           int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    int rc = loom__coll_check_info(fn, comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return bcast(fn, buffer, count, datatype, root, comm, request,
                 LOOM_COLL_PERSISTENT);
}
