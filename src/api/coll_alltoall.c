/* api/coll_alltoall.c — Alltoall, Alltoallv, Alltoallw and their nonblocking forms.
 * MPI_IN_PLACE as sendbuf: the data to send is taken from recvbuf, laid out as the receive
 * arguments say (the send count and type arguments are ignored). */
#include "api/api.h"
#include "coll/check.h"
#include "comm/comm.h"
#include "dt/dt.h"

enum form { PLAIN, V, W };

/* wide: the arrays are MPI_Count and MPI_Aint (the MPI_Xxx_c calls), else int (coll.h). */
static int alltoall(const char *fn, enum form f, const void *sendbuf, MPI_Count sendcount,
                    const void *sendcounts, const void *sdispls, MPI_Datatype sendtype,
                    const MPI_Datatype sendtypes[], void *recvbuf, MPI_Count recvcount,
                    const void *recvcounts, const void *rdispls, MPI_Datatype recvtype,
                    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request, int nb,
                    int wide)
{
    struct loom_comm *c;
    int rc = loom__coll_check_comm_any(fn, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_in_place(fn, comm, c, "sendbuf", sendbuf);
    if (rc != MPI_SUCCESS)
        return rc;
    int n = c->sh->peer_size; /* the remote group's on an intercommunicator */
    int in_place = sendbuf == MPI_IN_PLACE;
    if (!in_place) {
        if (f == PLAIN)
            rc = loom__coll_check_buf(fn, comm, "sendbuf", sendbuf, sendcount, sendtype);
        else if (f == W && sendtypes == NULL)
            rc = loom__api_error(comm, fn, MPI_ERR_ARG, "sendtypes is NULL");
        else
            rc = loom__coll_check_bufv(fn, comm, "sendbuf", sendbuf, sendcounts, sdispls, wide,
                                       sendtype, f == W ? sendtypes : NULL, n);
    }
    if (rc == MPI_SUCCESS) {
        if (f == PLAIN)
            rc = loom__coll_check_buf(fn, comm, "recvbuf", recvbuf, recvcount, recvtype);
        else if (f == W && recvtypes == NULL)
            rc = loom__api_error(comm, fn, MPI_ERR_ARG, "recvtypes is NULL");
        else
            rc = loom__coll_check_bufv(fn, comm, "recvbuf", recvbuf, recvcounts, rdispls, wide,
                                       recvtype, f == W ? recvtypes : NULL, n);
    }
    if (rc == MPI_SUCCESS && !in_place)
        rc = loom__coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    f == PLAIN ? sendcount > 0 && sendtype->size > 0 : 1);
    if (rc == MPI_SUCCESS && nb)
        rc = loom__coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    struct loom_coll_args a = {
        .sbuf = in_place ? NULL : sendbuf, .scount = (size_t)sendcount,
        .stype = in_place || f == W ? NULL : sendtype,
        .scounts = in_place ? NULL : sendcounts, .sdispls = in_place ? NULL : sdispls,
        .stypes = in_place || f != W ? NULL : sendtypes,
        .rbuf = recvbuf, .rcount = (size_t)recvcount, .rtype = f == W ? NULL : recvtype,
        .rcounts = recvcounts, .rdispls = rdispls, .rtypes = f == W ? recvtypes : NULL,
        .in_place = in_place, .wide = wide};
    enum loom_coll_kind kind = f == PLAIN ? LOOM_COLL_ALLTOALL
                               : f == V   ? LOOM_COLL_ALLTOALLV
                                          : LOOM_COLL_ALLTOALLW;
    return loom__coll_call_mode(fn, comm, kind, c, &a, request, nb);
}

int loom__mpi_alltoall_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return alltoall(fn, PLAIN, sendbuf, sendcount, NULL, NULL, sendtype, NULL,
                    recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, NULL, 0, 1);
}

int loom__mpi_ialltoall_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return alltoall(fn, PLAIN, sendbuf, sendcount, NULL, NULL, sendtype, NULL,
                    recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request, 1, 1);
}

int loom__mpi_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Alltoallv");
    return alltoall("MPI_Alltoallv", V, sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                    recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, NULL, 0, 0);
}

int loom__mpi_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Alltoallv_c");
    return alltoall("MPI_Alltoallv_c", V, sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                    recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, NULL, 0, 1);
}

int loom__mpi_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ialltoallv");
    return alltoall("MPI_Ialltoallv", V, sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                    recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, request, 1, 0);
}

int loom__mpi_ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                           const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ialltoallv_c");
    return alltoall("MPI_Ialltoallv_c", V, sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                    recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, request, 1, 1);
}

int loom__mpi_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Alltoallw");
    return alltoall("MPI_Alltoallw", W, sendbuf, 0, sendcounts, sdispls, NULL, sendtypes,
                    recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm, NULL, 0, 0);
}

int loom__mpi_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Alltoallw_c");
    return alltoall("MPI_Alltoallw_c", W, sendbuf, 0, sendcounts, sdispls, NULL, sendtypes,
                    recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm, NULL, 0, 1);
}

int loom__mpi_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                         const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                         MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ialltoallw");
    return alltoall("MPI_Ialltoallw", W, sendbuf, 0, sendcounts, sdispls, NULL, sendtypes,
                    recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm, request, 1, 0);
}

int loom__mpi_ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                           const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ialltoallw_c");
    return alltoall("MPI_Ialltoallw_c", W, sendbuf, 0, sendcounts, sdispls, NULL, sendtypes,
                    recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm, request, 1, 1);
}

/* ---- persistent forms (MPI 4): built once, run by each MPI_Start ---- */

int loom__mpi_alltoall_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    int rc = loom__coll_check_info(fn, comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return alltoall(fn, PLAIN, sendbuf, sendcount, NULL, NULL, sendtype, NULL,
                    recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request,
                    LOOM_COLL_PERSISTENT, 1);
}

int loom__mpi_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Alltoallv_init");
    int rc = loom__coll_check_info("MPI_Alltoallv_init", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return alltoall("MPI_Alltoallv_init", V, sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                    recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, request,
                    LOOM_COLL_PERSISTENT, 0);
}

int loom__mpi_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Alltoallv_init_c");
    int rc = loom__coll_check_info("MPI_Alltoallv_init_c", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return alltoall("MPI_Alltoallv_init_c", V, sendbuf, 0, sendcounts, sdispls, sendtype, NULL,
                    recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, request,
                    LOOM_COLL_PERSISTENT, 1);
}

int loom__mpi_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Alltoallw_init");
    int rc = loom__coll_check_info("MPI_Alltoallw_init", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return alltoall("MPI_Alltoallw_init", W, sendbuf, 0, sendcounts, sdispls, NULL, sendtypes,
                    recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm, request,
                    LOOM_COLL_PERSISTENT, 0);
}

int loom__mpi_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Alltoallw_init_c");
    int rc = loom__coll_check_info("MPI_Alltoallw_init_c", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return alltoall("MPI_Alltoallw_init_c", W, sendbuf, 0, sendcounts, sdispls, NULL, sendtypes,
                    recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm, request,
                    LOOM_COLL_PERSISTENT, 1);
}
