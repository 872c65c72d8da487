/* api/neighbor.c — neighbor collectives (MPI 4.1 §8.6): Neighbor_allgather(v),
 * Neighbor_alltoall(v,w), their nonblocking forms and their persistent forms (*_init: the
 * schedule is built once and rerun by each MPI_Start, docs/persistent.md). The communicator
 * must carry a process topology; counts, displacements and types are per neighbour (indegree
 * entries for the receive side, outdegree for the send side; NULL arrays are accepted for a
 * side without neighbours). MPI_IN_PLACE is not allowed (the standard has none for these
 * calls). The schedules are built by coll/neighbor.c and run by the collective engine. */
#include "api/api.h"
#include "api/topo.h"
#include "coll/check.h"
#include "coll/neighbor.h"
#include "coll/sched.h"
#include "comm/comm.h"
#include "comm/vtopo.h"
#include "dt/dt.h"

enum form { ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW };

/* One side of a v or w call: n counts (and displacements: displs or displs_w), of type, or of
 * types[n] for the w form; counts (and the v form's displacements) int, or MPI_Count (and
 * MPI_Aint) when wide. */
static int check_vec(const char *fn, MPI_Comm comm, const char *what, const void *buf,
                     const void *counts, const void *displs, MPI_Datatype type,
                     const MPI_Datatype types[], int w, int n, int wide)
{
    if (buf == MPI_IN_PLACE)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, not allowed "
                               "here", what);
    if (n == 0)
        return MPI_SUCCESS;
    if (!w) /* counts, displacements, type, NULL buffer holding data */
        return loom__coll_check_bufv(fn, comm, what, buf, counts, displs, wide, type, NULL, n);
    if (counts == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "the counts of %s are NULL", what);
    if (displs == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "the displacements of %s are NULL",
                               what);
    if (types == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "the types of %s are NULL", what);
    for (int i = 0; i < n; i++) {
        const char *why;
        long long k = (long long)loom__coll_count_at(counts, wide, (size_t)i);
        if (k < 0)
            return loom__api_error(comm, fn, MPI_ERR_COUNT, "count %lld for neighbour %d of %s "
                                   "is negative", k, i, what);
        if (loom__dt_check_usable(types[i], &why) != 0)
            return loom__api_error(comm, fn, MPI_ERR_TYPE, "%s: type for neighbour %d: %s",
                                   what, i, why);
        int rc = loom__coll_check_null(fn, comm, what, buf, k, types[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

typedef struct loom_sched *(*build_fn)(struct loom_comm *, MPI_Comm,
                                       const struct loom_neighbor_args *, int);

/* wide: the counts (and the v forms' displacements) are MPI_Count (and MPI_Aint): the
 * MPI_Xxx_c calls. */
static int neighbor(const char *fn, enum form f, const void *sendbuf, MPI_Count sendcount,
                    const void *sendcounts, const void *sdispls, MPI_Datatype sendtype,
                    const MPI_Datatype sendtypes[], void *recvbuf, MPI_Count recvcount,
                    const void *recvcounts, const void *rdispls, MPI_Datatype recvtype,
                    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                    MPI_Request *request, enum loom_coll_mode mode, int wide)
{
    struct loom_comm *c;
    int rc = mode == LOOM_COLL_PERSISTENT ? loom__coll_check_info(fn, comm, info) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        rc = loom__topo_get(fn, comm, 0, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    int nin, nout;
    loom__vtopo_degrees(c->topo, c->rank, &nin, &nout);
    int w = f == ALLTOALLW;
    if (f == ALLGATHER || f == ALLGATHERV || f == ALLTOALL)
        rc = loom__coll_check_buf(fn, comm, "sendbuf", sendbuf, sendcount, sendtype);
    else
        rc = check_vec(fn, comm, "sendbuf", sendbuf, sendcounts, sdispls, sendtype,
                       sendtypes, w, nout, wide);
    if (rc == MPI_SUCCESS) {
        if (f == ALLGATHER || f == ALLTOALL)
            rc = loom__coll_check_buf(fn, comm, "recvbuf", recvbuf, recvcount, recvtype);
        else
            rc = check_vec(fn, comm, "recvbuf", recvbuf, recvcounts, rdispls, recvtype,
                           recvtypes, w, nin, wide);
    }
    if (rc == MPI_SUCCESS && mode != LOOM_COLL_BLOCKING)
        rc = loom__coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    struct loom_neighbor_args a = {
        .sbuf = sendbuf, .rbuf = recvbuf,
        .scount = (size_t)(sendcount > 0 ? sendcount : 0),
        .rcount = (size_t)(recvcount > 0 ? recvcount : 0),
        .stype = w ? NULL : sendtype, .rtype = w ? NULL : recvtype,
        .scounts = sendcounts, .rcounts = recvcounts,
        .sdispls = w ? NULL : sdispls, .rdispls = w ? NULL : rdispls,
        .sdispls_w = w ? sdispls : NULL, .rdispls_w = w ? rdispls : NULL,
        .stypes = sendtypes, .rtypes = recvtypes, .wide = wide};
    static const build_fn builders[] = {
        [ALLGATHER] = loom__coll_build_neighbor_allgather,
        [ALLGATHERV] = loom__coll_build_neighbor_allgatherv,
        [ALLTOALL] = loom__coll_build_neighbor_alltoall,
        [ALLTOALLV] = loom__coll_build_neighbor_alltoallv,
        [ALLTOALLW] = loom__coll_build_neighbor_alltoallw};
    struct loom_sched *s = builders[f](c, comm, &a, mode != LOOM_COLL_BLOCKING);
    if (s == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    int mpi_err = MPI_SUCCESS;
    if (mode == LOOM_COLL_PERSISTENT) /* inactive until MPI_Start; kept until freed */
        rc = loom__sched_persist(s, request);
    else if (mode == LOOM_COLL_NONBLOCKING)
        rc = loom__sched_start(s, request);
    else
        rc = loom__sched_run(s, &mpi_err);
    if (rc != 0)
        return loom__api_error_code(comm, fn, rc);
    if (mpi_err != MPI_SUCCESS)
        return loom__api_error(comm, fn, mpi_err, "a message of the neighbor collective was "
                               "truncated: the neighbours disagree on counts or types");
    return MPI_SUCCESS;
}

int loom__mpi_neighbor_allgather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                   MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return neighbor(fn, ALLGATHER, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
                    recvcount, NULL, NULL, recvtype, NULL, comm, MPI_INFO_NULL, NULL,
                    LOOM_COLL_BLOCKING, 1);
}

int loom__mpi_ineighbor_allgather_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return neighbor(fn, ALLGATHER, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
                    recvcount, NULL, NULL, recvtype, NULL, comm, MPI_INFO_NULL, request,
                    LOOM_COLL_NONBLOCKING, 1);
}

int loom__mpi_neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Neighbor_allgatherv");
    return neighbor("MPI_Neighbor_allgatherv", ALLGATHERV, sendbuf, sendcount, NULL, NULL, sendtype,
                    NULL, recvbuf, 0, recvcounts, displs, recvtype, NULL, comm, MPI_INFO_NULL, NULL,
                    LOOM_COLL_BLOCKING, 0);
}

int loom__mpi_neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Neighbor_allgatherv_c");
    return neighbor("MPI_Neighbor_allgatherv_c", ALLGATHERV, sendbuf, sendcount, NULL, NULL,
                    sendtype, NULL, recvbuf, 0, recvcounts, displs, recvtype, NULL, comm,
                    MPI_INFO_NULL, NULL, LOOM_COLL_BLOCKING, 1);
}

int loom__mpi_ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, const int recvcounts[], const int displs[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ineighbor_allgatherv");
    return neighbor("MPI_Ineighbor_allgatherv", ALLGATHERV, sendbuf, sendcount, NULL, NULL,
                    sendtype, NULL, recvbuf, 0, recvcounts, displs, recvtype, NULL, comm,
                    MPI_INFO_NULL, request, LOOM_COLL_NONBLOCKING, 0);
}

int loom__mpi_ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
                                     MPI_Datatype sendtype, void *recvbuf,
                                     const MPI_Count recvcounts[], const MPI_Aint displs[],
                                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ineighbor_allgatherv_c");
    return neighbor("MPI_Ineighbor_allgatherv_c", ALLGATHERV, sendbuf, sendcount, NULL, NULL,
                    sendtype, NULL, recvbuf, 0, recvcounts, displs, recvtype, NULL, comm,
                    MPI_INFO_NULL, request, LOOM_COLL_NONBLOCKING, 1);
}

int loom__mpi_neighbor_alltoall_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return neighbor(fn, ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
                    recvcount, NULL, NULL, recvtype, NULL, comm, MPI_INFO_NULL, NULL,
                    LOOM_COLL_BLOCKING, 1);
}

int loom__mpi_ineighbor_alltoall_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return neighbor(fn, ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
                    recvcount, NULL, NULL, recvtype, NULL, comm, MPI_INFO_NULL, request,
                    LOOM_COLL_NONBLOCKING, 1);
}

int loom__mpi_neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Neighbor_alltoallv");
    return neighbor("MPI_Neighbor_alltoallv", ALLTOALLV, sendbuf, 0, sendcounts, sdispls, sendtype,
                    NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, MPI_INFO_NULL,
                    NULL, LOOM_COLL_BLOCKING, 0);
}

int loom__mpi_neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Neighbor_alltoallv_c");
    return neighbor("MPI_Neighbor_alltoallv_c", ALLTOALLV, sendbuf, 0, sendcounts, sdispls,
                    sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm,
                    MPI_INFO_NULL, NULL, LOOM_COLL_BLOCKING, 1);
}

int loom__mpi_ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ineighbor_alltoallv");
    return neighbor("MPI_Ineighbor_alltoallv", ALLTOALLV, sendbuf, 0, sendcounts, sdispls, sendtype,
                    NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, MPI_INFO_NULL,
                    request, LOOM_COLL_NONBLOCKING, 0);
}

int loom__mpi_ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                                    const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ineighbor_alltoallv_c");
    return neighbor("MPI_Ineighbor_alltoallv_c", ALLTOALLV, sendbuf, 0, sendcounts, sdispls,
                    sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm,
                    MPI_INFO_NULL, request, LOOM_COLL_NONBLOCKING, 1);
}

int loom__mpi_neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Neighbor_alltoallw");
    return neighbor("MPI_Neighbor_alltoallw", ALLTOALLW, sendbuf, 0, sendcounts, sdispls, NULL,
                    sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm,
                    MPI_INFO_NULL, NULL, LOOM_COLL_BLOCKING, 0);
}

int loom__mpi_neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Neighbor_alltoallw_c");
    return neighbor("MPI_Neighbor_alltoallw_c", ALLTOALLW, sendbuf, 0, sendcounts, sdispls, NULL,
                    sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm,
                    MPI_INFO_NULL, NULL, LOOM_COLL_BLOCKING, 1);
}

int loom__mpi_ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                  const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                  void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                  const MPI_Datatype recvtypes[], MPI_Comm comm,
                                  MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ineighbor_alltoallw");
    return neighbor("MPI_Ineighbor_alltoallw", ALLTOALLW, sendbuf, 0, sendcounts, sdispls, NULL,
                    sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm,
                    MPI_INFO_NULL, request, LOOM_COLL_NONBLOCKING, 0);
}

int loom__mpi_ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                                    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                    void *recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                    MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ineighbor_alltoallw_c");
    return neighbor("MPI_Ineighbor_alltoallw_c", ALLTOALLW, sendbuf, 0, sendcounts, sdispls, NULL,
                    sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm,
                    MPI_INFO_NULL, request, LOOM_COLL_NONBLOCKING, 1);
}

/* ---- persistent forms (MPI 4): built once, rerun by each MPI_Start ---- */

int loom__mpi_neighbor_allgather_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                        MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return neighbor(fn, ALLGATHER, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
                    recvcount, NULL, NULL, recvtype, NULL, comm, info, request,
                    LOOM_COLL_PERSISTENT, 1);
}

int loom__mpi_neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void *recvbuf, const int recvcounts[], const int displs[],
                                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                       MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Neighbor_allgatherv_init");
    const char *fn = "MPI_Neighbor_allgatherv_init";
    return neighbor(fn, ALLGATHERV, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0,
                    recvcounts, displs, recvtype, NULL, comm, info, request, LOOM_COLL_PERSISTENT,
                    0);
}

int loom__mpi_neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                                         MPI_Datatype sendtype, void *recvbuf,
                                         const MPI_Count recvcounts[], const MPI_Aint displs[],
                                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Neighbor_allgatherv_init_c");
    const char *fn = "MPI_Neighbor_allgatherv_init_c";
    return neighbor(fn, ALLGATHERV, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0,
                    recvcounts, displs, recvtype, NULL, comm, info, request, LOOM_COLL_PERSISTENT,
                    1);
}

int loom__mpi_neighbor_alltoall_init_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                       MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return neighbor(fn, ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf,
                    recvcount, NULL, NULL, recvtype, NULL, comm, info, request,
                    LOOM_COLL_PERSISTENT, 1);
}

int loom__mpi_neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                      const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[], const int rdispls[],
                                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                      MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Neighbor_alltoallv_init");
    const char *fn = "MPI_Neighbor_alltoallv_init";
    return neighbor(fn, ALLTOALLV, sendbuf, 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0,
                    recvcounts, rdispls, recvtype, NULL, comm, info, request, LOOM_COLL_PERSISTENT,
                    0);
}

int loom__mpi_neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                        const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                        void *recvbuf, const MPI_Count recvcounts[],
                                        const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Neighbor_alltoallv_init_c");
    const char *fn = "MPI_Neighbor_alltoallv_init_c";
    return neighbor(fn, ALLTOALLV, sendbuf, 0, sendcounts, sdispls, sendtype, NULL, recvbuf, 0,
                    recvcounts, rdispls, recvtype, NULL, comm, info, request, LOOM_COLL_PERSISTENT,
                    1);
}

int loom__mpi_neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                      const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                      void *recvbuf, const int recvcounts[],
                                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Neighbor_alltoallw_init");
    const char *fn = "MPI_Neighbor_alltoallw_init";
    return neighbor(fn, ALLTOALLW, sendbuf, 0, sendcounts, sdispls, NULL, sendtypes, recvbuf, 0,
                    recvcounts, rdispls, NULL, recvtypes, comm, info, request, LOOM_COLL_PERSISTENT,
                    0);
}

int loom__mpi_neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                        const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                        void *recvbuf, const MPI_Count recvcounts[],
                                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Neighbor_alltoallw_init_c");
    const char *fn = "MPI_Neighbor_alltoallw_init_c";
    return neighbor(fn, ALLTOALLW, sendbuf, 0, sendcounts, sdispls, NULL, sendtypes, recvbuf, 0,
                    recvcounts, rdispls, NULL, recvtypes, comm, info, request, LOOM_COLL_PERSISTENT,
                    1);
}
