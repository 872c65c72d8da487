/* api/coll_scatter.c — Scatter, Scatterv and their nonblocking forms. MPI_IN_PLACE as recvbuf
 * at the root (its block stays in sendbuf). Arguments only significant at the root are
 * checked there. */
#include "api/api.h"
#include "coll/check.h"
#include "comm/comm.h"
#include "dt/dt.h"

/* Scatter (sendcounts NULL) and Scatterv; wide: the arrays are MPI_Count and MPI_Aint (the
 * MPI_Xxx_c calls), else int (coll/coll.h). */
static int scatter(const char *fn, const void *sendbuf, MPI_Count sendcount,
                   const void *sendcounts, const void *displs, MPI_Datatype sendtype,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request *request, int nb, int v, int wide)
{
    struct loom_comm *c;
    int is_root = 0, idle = 0;
    int rc = loom__coll_check_comm_any(fn, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_root_of(fn, comm, c, root, &is_root, &idle);
    if (rc != MPI_SUCCESS)
        return rc;
    /* on an intercommunicator the root scatters to the remote group and receives nothing */
    int inter = loom__comm_is_inter(c);
    int in_place = is_root && !inter && recvbuf == MPI_IN_PLACE;
    if (is_root) {
        if (v)
            rc = loom__coll_check_bufv(fn, comm, "sendbuf", sendbuf, sendcounts, displs, wide,
                                       sendtype, NULL, c->sh->peer_size);
        else
            rc = loom__coll_check_buf(fn, comm, "sendbuf", sendbuf, sendcount, sendtype);
    }
    if (rc == MPI_SUCCESS && !in_place && !(inter && (is_root || idle)))
        rc = loom__coll_check_buf(fn, comm, "recvbuf", recvbuf, recvcount, recvtype);
    if (rc == MPI_SUCCESS && is_root && !in_place && !inter)
        rc = loom__coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    recvcount > 0 && recvtype->size > 0);
    if (rc == MPI_SUCCESS && nb)
        rc = loom__coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    struct loom_coll_args a = {.sbuf = sendbuf, .scount = (size_t)sendcount,
                               .stype = is_root ? sendtype : NULL,
                               .scounts = v ? sendcounts : NULL, .sdispls = v ? displs : NULL,
                               .rbuf = in_place ? NULL : recvbuf, .rcount = (size_t)recvcount,
                               .rtype = in_place ? NULL : recvtype, .root = root,
                               .in_place = in_place, .wide = wide};
    if (inter && (is_root || idle)) { /* the receive arguments are not significant */
        a.rbuf = NULL;
        a.rtype = NULL;
    }
    return loom__coll_call_mode(fn, comm, v ? LOOM_COLL_SCATTERV : LOOM_COLL_SCATTER, c, &a,
                                request, nb);
}

int loom__mpi_scatter_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return scatter(fn, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, NULL, 0, 0, 1);
}

int loom__mpi_iscatter_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return scatter(fn, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, request, 1, 0, 1);
}

int loom__mpi_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Scatterv");
    return scatter("MPI_Scatterv", sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, NULL, 0, 1, 0);
}

int loom__mpi_scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Scatterv_c");
    return scatter("MPI_Scatterv_c", sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, NULL, 0, 1, 1);
}

int loom__mpi_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                        MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                        int root, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Iscatterv");
    return scatter("MPI_Iscatterv", sendbuf, 0, sendcounts, displs, sendtype, recvbuf,
                   recvcount, recvtype, root, comm, request, 1, 1, 0);
}

int loom__mpi_iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                          MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Iscatterv_c");
    return scatter("MPI_Iscatterv_c", sendbuf, 0, sendcounts, displs, sendtype, recvbuf,
                   recvcount, recvtype, root, comm, request, 1, 1, 1);
}

/* ---- persistent forms (MPI 4): built once, run by each MPI_Start ---- */

int loom__mpi_scatter_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    int rc = loom__coll_check_info(fn, comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return scatter(fn, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, request, LOOM_COLL_PERSISTENT, 0, 1);
}

int loom__mpi_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                            MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Scatterv_init");
    int rc = loom__coll_check_info("MPI_Scatterv_init", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return scatter("MPI_Scatterv_init", sendbuf, 0, sendcounts, displs, sendtype, recvbuf,
                   recvcount, recvtype, root, comm, request, LOOM_COLL_PERSISTENT, 1, 0);
}

int loom__mpi_scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Scatterv_init_c");
    int rc = loom__coll_check_info("MPI_Scatterv_init_c", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return scatter("MPI_Scatterv_init_c", sendbuf, 0, sendcounts, displs, sendtype, recvbuf,
                   recvcount, recvtype, root, comm, request, LOOM_COLL_PERSISTENT, 1, 1);
}
