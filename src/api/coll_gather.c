/* api/coll_gather.c — Gather, Gatherv, Allgather, Allgatherv and their nonblocking forms.
 * MPI_IN_PLACE as sendbuf: at the root for the gathers (its block is already in place), on
 * every rank for the allgathers. Arguments only significant at the root are checked there. */
#include "api/api.h"
#include "coll/check.h"
#include "comm/comm.h"
#include "dt/dt.h"

/* Gather (recvcounts NULL) and Gatherv; wide: the arrays are MPI_Count and MPI_Aint (the
 * MPI_Xxx_c calls), else int (coll/coll.h). */
static int gather(const char *fn, const void *sendbuf, MPI_Count sendcount,
                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  const void *recvcounts, const void *displs, MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request, int nb, int v, int wide)
{
    struct loom_comm *c;
    int is_root = 0, idle = 0;
    int rc = loom__coll_check_comm_any(fn, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_root_of(fn, comm, c, root, &is_root, &idle);
    if (rc != MPI_SUCCESS)
        return rc;
    /* on an intercommunicator the root gathers the remote group and sends nothing */
    int inter = loom__comm_is_inter(c), n = c->sh->peer_size;
    int in_place = is_root && !inter && sendbuf == MPI_IN_PLACE;
    if (!in_place && !(inter && (is_root || idle)))
        rc = loom__coll_check_buf(fn, comm, "sendbuf", sendbuf, sendcount, sendtype);
    if (rc == MPI_SUCCESS && is_root) {
        if (v)
            rc = loom__coll_check_bufv(fn, comm, "recvbuf", recvbuf, recvcounts, displs, wide,
                                       recvtype, NULL, n);
        else
            rc = loom__coll_check_buf(fn, comm, "recvbuf", recvbuf, recvcount, recvtype);
        if (rc == MPI_SUCCESS && !in_place && !inter)
            rc = loom__coll_check_alias(fn, comm, sendbuf, recvbuf,
                                        sendcount > 0 && sendtype->size > 0);
    }
    if (rc == MPI_SUCCESS && nb)
        rc = loom__coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    struct loom_coll_args a = {.sbuf = in_place ? NULL : sendbuf, .scount = (size_t)sendcount,
                               .stype = in_place ? NULL : sendtype, .rbuf = recvbuf,
                               .rcount = (size_t)recvcount, .rtype = is_root ? recvtype : NULL,
                               .rcounts = v ? recvcounts : NULL, .rdispls = v ? displs : NULL,
                               .wide = wide, .root = root, .in_place = in_place};
    if (inter && (is_root || idle)) { /* the send arguments are not significant */
        a.sbuf = NULL;
        a.stype = NULL;
    }
    return loom__coll_call_mode(fn, comm, v ? LOOM_COLL_GATHERV : LOOM_COLL_GATHER, c, &a,
                                request, nb);
}

/* Allgather (recvcounts NULL) and Allgatherv; wide as for gather. */
static int allgather(const char *fn, const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     const void *recvcounts, const void *displs, MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request, int nb, int v, int wide)
{
    struct loom_comm *c;
    int rc = loom__coll_check_comm_any(fn, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_in_place(fn, comm, c, "sendbuf", sendbuf);
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    if (!in_place)
        rc = loom__coll_check_buf(fn, comm, "sendbuf", sendbuf, sendcount, sendtype);
    if (rc == MPI_SUCCESS) {
        if (v)
            rc = loom__coll_check_bufv(fn, comm, "recvbuf", recvbuf, recvcounts, displs, wide,
                                       recvtype, NULL, c->sh->peer_size);
        else
            rc = loom__coll_check_buf(fn, comm, "recvbuf", recvbuf, recvcount, recvtype);
    }
    if (rc == MPI_SUCCESS && !in_place)
        rc = loom__coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    sendcount > 0 && sendtype->size > 0);
    if (rc == MPI_SUCCESS && nb)
        rc = loom__coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    struct loom_coll_args a = {.sbuf = in_place ? NULL : sendbuf, .scount = (size_t)sendcount,
                               .stype = in_place ? NULL : sendtype, .rbuf = recvbuf,
                               .rcount = (size_t)recvcount, .rtype = recvtype,
                               .rcounts = v ? recvcounts : NULL, .rdispls = v ? displs : NULL,
                               .wide = wide, .in_place = in_place};
    return loom__coll_call_mode(fn, comm, v ? LOOM_COLL_ALLGATHERV : LOOM_COLL_ALLGATHER, c, &a,
                                request, nb);
}

int loom__mpi_gather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return gather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL,
                  recvtype, root, comm, NULL, 0, 0, 1);
}

int loom__mpi_igather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return gather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL,
                  recvtype, root, comm, request, 1, 0, 1);
}

int loom__mpi_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Gatherv");
    return gather("MPI_Gatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                  recvtype, root, comm, NULL, 0, 1, 0);
}

int loom__mpi_gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Gatherv_c");
    return gather("MPI_Gatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                  recvtype, root, comm, NULL, 0, 1, 1);
}

int loom__mpi_igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Igatherv");
    return gather("MPI_Igatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                  recvtype, root, comm, request, 1, 1, 0);
}

int loom__mpi_igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Igatherv_c");
    return gather("MPI_Igatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                  recvtype, root, comm, request, 1, 1, 1);
}

int loom__mpi_allgather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                     NULL, recvtype, comm, NULL, 0, 0, 1);
}

int loom__mpi_iallgather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                     NULL, recvtype, comm, request, 1, 0, 1);
}

int loom__mpi_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Allgatherv");
    return allgather("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                     displs, recvtype, comm, NULL, 0, 1, 0);
}

int loom__mpi_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Allgatherv_c");
    return allgather("MPI_Allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                     displs, recvtype, comm, NULL, 0, 1, 1);
}

int loom__mpi_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Iallgatherv");
    return allgather("MPI_Iallgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                     displs, recvtype, comm, request, 1, 1, 0);
}

int loom__mpi_iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Iallgatherv_c");
    return allgather("MPI_Iallgatherv_c", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                     displs, recvtype, comm, request, 1, 1, 1);
}

/* ---- persistent forms (MPI 4): built once, run by each MPI_Start ---- */

int loom__mpi_gather_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    int rc = loom__coll_check_info(fn, comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return gather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL,
                  recvtype, root, comm, request, LOOM_COLL_PERSISTENT, 0, 1);
}

int loom__mpi_gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Gatherv_init");
    int rc = loom__coll_check_info("MPI_Gatherv_init", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return gather("MPI_Gatherv_init", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                  recvtype, root, comm, request, LOOM_COLL_PERSISTENT, 1, 0);
}

int loom__mpi_gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Gatherv_init_c");
    int rc = loom__coll_check_info("MPI_Gatherv_init_c", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return gather("MPI_Gatherv_init_c", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                  displs, recvtype, root, comm, request, LOOM_COLL_PERSISTENT, 1, 1);
}

int loom__mpi_allgather_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    int rc = loom__coll_check_info(fn, comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return allgather(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                     NULL, recvtype, comm, request, LOOM_COLL_PERSISTENT, 0, 1);
}

int loom__mpi_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Allgatherv_init");
    int rc = loom__coll_check_info("MPI_Allgatherv_init", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return allgather("MPI_Allgatherv_init", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                     displs, recvtype, comm, request, LOOM_COLL_PERSISTENT, 1, 0);
}

int loom__mpi_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Allgatherv_init_c");
    int rc = loom__coll_check_info("MPI_Allgatherv_init_c", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return allgather("MPI_Allgatherv_init_c", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                     displs, recvtype, comm, request, LOOM_COLL_PERSISTENT, 1, 1);
}
