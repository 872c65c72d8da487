/* api/coll_reduce.c — the reductions: Reduce, Allreduce, Reduce_scatter(_block), Scan,
 * Exscan and their nonblocking forms. MPI_IN_PLACE as sendbuf where the standard allows it
 * (Reduce: at the root only); sendbuf == recvbuf otherwise is MPI_ERR_BUFFER, except on
 * non-root ranks of Reduce, where recvbuf is not significant (MPICH and Open MPI accept it,
 * and programs rely on it). */
#include <stdint.h>
#include "api/api.h"
#include "coll/check.h"
#include "comm/comm.h"
#include "dt/dt.h"

/* sendbuf (or MPI_IN_PLACE when in_place_ok) and recvbuf of count elements, and the op. */
static int check_pair(const char *fn, MPI_Comm comm, const void *sendbuf, void *recvbuf,
                      MPI_Count count, MPI_Datatype type, MPI_Op op, int in_place_ok)
{
    int rc = MPI_SUCCESS;
    if (!(in_place_ok && sendbuf == MPI_IN_PLACE))
        rc = loom__coll_check_buf(fn, comm, "sendbuf", sendbuf, count, type);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_buf(fn, comm, "recvbuf", recvbuf, count, type);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_alias(fn, comm, sendbuf, recvbuf, count > 0 && type->size > 0);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_op(fn, comm, op, type);
    return rc;
}

static int reduce(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                  MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request,
                  int nb)
{
    struct loom_comm *c;
    int is_root = 0, idle = 0;
    int rc = loom__coll_check_comm_any(fn, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_root_of(fn, comm, c, root, &is_root, &idle);
    if (rc != MPI_SUCCESS)
        return rc;
    int inter = loom__comm_is_inter(c);
    if (idle) {
        /* another member of the root's group (intercommunicator): nothing is significant */
    } else if (is_root && inter) { /* the root receives only */
        rc = loom__coll_check_buf(fn, comm, "recvbuf", recvbuf, count, type);
        if (rc == MPI_SUCCESS)
            rc = loom__coll_check_op(fn, comm, op, type);
    } else if (is_root) {
        rc = check_pair(fn, comm, sendbuf, recvbuf, count, type, op, 1);
    } else {
        rc = loom__coll_check_buf(fn, comm, "sendbuf", sendbuf, count, type);
        if (rc == MPI_SUCCESS)
            rc = loom__coll_check_op(fn, comm, op, type);
    }
    if (rc == MPI_SUCCESS && nb)
        rc = loom__coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = is_root && !inter && sendbuf == MPI_IN_PLACE;
    struct loom_coll_args a = {.sbuf = in_place ? NULL : sendbuf, .rbuf = recvbuf,
                               .scount = (size_t)count, .stype = type, .rcount = (size_t)count,
                               .rtype = type, .op = op, .root = root, .in_place = in_place};
    if (idle) /* nothing of it is significant, nor checked */
        a = (struct loom_coll_args){.root = root};
    else if (is_root && inter) /* sendbuf is not significant */
        a.sbuf = NULL;
    return loom__coll_call_mode(fn, comm, LOOM_COLL_REDUCE, c, &a, request, nb);
}

/* Allreduce, Scan, Exscan: the same arguments on every rank. */
static int everyone(const char *fn, enum loom_coll_kind kind, const void *sendbuf,
                    void *recvbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request, int nb)
{
    struct loom_comm *c;
    /* scan and exscan are not defined on intercommunicators */
    int rc = kind == LOOM_COLL_ALLREDUCE ? loom__coll_check_comm_any(fn, comm, &c)
                                         : loom__coll_check_comm(fn, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_in_place(fn, comm, c, "sendbuf", sendbuf);
    if (rc == MPI_SUCCESS)
        rc = check_pair(fn, comm, sendbuf, recvbuf, count, type, op, 1);
    if (rc == MPI_SUCCESS && nb)
        rc = loom__coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    struct loom_coll_args a = {.sbuf = in_place ? NULL : sendbuf, .rbuf = recvbuf,
                               .scount = (size_t)count, .stype = type, .rcount = (size_t)count,
                               .rtype = type, .op = op, .in_place = in_place};
    return loom__coll_call_mode(fn, comm, kind, c, &a, request, nb);
}

/* Reduce_scatter(_block): recvcounts given (int, or MPI_Count when wide), or one count for
 * every rank (block). */
static int reduce_scatter(const char *fn, enum loom_coll_kind kind, const void *sendbuf,
                          void *recvbuf, const void *recvcounts, MPI_Count block,
                          MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request,
                          int nb, int wide)
{
    struct loom_comm *c;
    int rc = loom__coll_check_comm_any(fn, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_in_place(fn, comm, c, "sendbuf", sendbuf);
    if (rc != MPI_SUCCESS)
        return rc;
    int n = c->sh->size; /* the local group's on an intercommunicator */
    if (kind == LOOM_COLL_REDUCE_SCATTER && recvcounts == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "recvcounts is NULL");
    if (kind == LOOM_COLL_REDUCE_SCATTER_BLOCK && block < 0)
        return loom__api_error(comm, fn, MPI_ERR_COUNT, "recvcount %lld is negative", block);
    /* the send buffer holds the sum of the counts: it may pass INT_MAX even in the int calls,
     * but not what a buffer can hold */
    const long long most = PTRDIFF_MAX;
    long long total = 0;
    for (int r = 0; kind == LOOM_COLL_REDUCE_SCATTER && r < n; r++) {
        long long k = (long long)loom__coll_count_at(recvcounts, wide, (size_t)r);
        if (k < 0)
            return loom__api_error(comm, fn, MPI_ERR_COUNT, "recvcounts[%d] = %lld is negative",
                                   r, k);
        if (k > most - total)
            return loom__api_error(comm, fn, MPI_ERR_COUNT, "the counts add up to more than "
                                   "a buffer can hold");
        total += k;
    }
    if (kind == LOOM_COLL_REDUCE_SCATTER_BLOCK) {
        if (block > most / n)
            return loom__api_error(comm, fn, MPI_ERR_COUNT, "recvcount %lld times %d ranks is "
                                   "more than a buffer can hold", block, n);
        total = block * n;
    }
    MPI_Count mine = kind == LOOM_COLL_REDUCE_SCATTER
                         ? (MPI_Count)loom__coll_count_at(recvcounts, wide, (size_t)c->rank)
                         : block;
    if (sendbuf != MPI_IN_PLACE)
        rc = loom__coll_check_buf(fn, comm, "sendbuf", sendbuf, total, type);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_buf(fn, comm, "recvbuf", recvbuf,
                                  sendbuf == MPI_IN_PLACE ? total : mine, type);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_alias(fn, comm, sendbuf, recvbuf, mine > 0 && type->size > 0);
    if (rc == MPI_SUCCESS)
        rc = loom__coll_check_op(fn, comm, op, type);
    if (rc == MPI_SUCCESS && nb)
        rc = loom__coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    /* the block form has no array: every rank's count is rcount (loom__coll_count) */
    int in_place = sendbuf == MPI_IN_PLACE;
    struct loom_coll_args a = {.sbuf = in_place ? NULL : sendbuf, .rbuf = recvbuf,
                               .scount = (size_t)total, .stype = type, .rcount = (size_t)mine,
                               .rtype = type,
                               .rcounts = kind == LOOM_COLL_REDUCE_SCATTER ? recvcounts : NULL,
                               .wide = wide, .op = op, .in_place = in_place};
    return loom__coll_call_mode(fn, comm, kind, c, &a, request, nb);
}

int loom__mpi_reduce_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return reduce(fn, sendbuf, recvbuf, count, datatype, op, root, comm, NULL, 0);
}

int loom__mpi_ireduce_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                        MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return reduce(fn, sendbuf, recvbuf, count, datatype, op, root, comm, request, 1);
}

int loom__mpi_allreduce_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return everyone(fn, LOOM_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op,
                    comm, NULL, 0);
}

int loom__mpi_iallreduce_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return everyone(fn, LOOM_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype,
                    op, comm, request, 1);
}

int loom__mpi_scan_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return everyone(fn, LOOM_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                    NULL, 0);
}

int loom__mpi_iscan_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return everyone(fn, LOOM_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                    request, 1);
}

int loom__mpi_exscan_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return everyone(fn, LOOM_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                    NULL, 0);
}

int loom__mpi_iexscan_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return everyone(fn, LOOM_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op,
                    comm, request, 1);
}

int loom__mpi_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Reduce_scatter");
    return reduce_scatter("MPI_Reduce_scatter", LOOM_COLL_REDUCE_SCATTER, sendbuf, recvbuf,
                          recvcounts, 0, datatype, op, comm, NULL, 0, 0);
}

int loom__mpi_reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Reduce_scatter_c");
    return reduce_scatter("MPI_Reduce_scatter_c", LOOM_COLL_REDUCE_SCATTER, sendbuf, recvbuf,
                          recvcounts, 0, datatype, op, comm, NULL, 0, 1);
}

int loom__mpi_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ireduce_scatter");
    return reduce_scatter("MPI_Ireduce_scatter", LOOM_COLL_REDUCE_SCATTER, sendbuf, recvbuf,
                          recvcounts, 0, datatype, op, comm, request, 1, 0);
}

int loom__mpi_ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Ireduce_scatter_c");
    return reduce_scatter("MPI_Ireduce_scatter_c", LOOM_COLL_REDUCE_SCATTER, sendbuf, recvbuf,
                          recvcounts, 0, datatype, op, comm, request, 1, 1);
}

int loom__mpi_reduce_scatter_block_c(const char *fn, const void *sendbuf, void *recvbuf,
                                     MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                     MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return reduce_scatter(fn, LOOM_COLL_REDUCE_SCATTER_BLOCK, sendbuf,
                          recvbuf, NULL, recvcount, datatype, op, comm, NULL, 0, 1);
}

int loom__mpi_ireduce_scatter_block_c(const char *fn, const void *sendbuf, void *recvbuf,
                                      MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                      MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return reduce_scatter(fn, LOOM_COLL_REDUCE_SCATTER_BLOCK, sendbuf,
                          recvbuf, NULL, recvcount, datatype, op, comm, request, 1, 1);
}

/* ---- persistent forms (MPI 4): built once, run by each MPI_Start ---- */

int loom__mpi_reduce_init_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                            MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    int rc = loom__coll_check_info(fn, comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return reduce(fn, sendbuf, recvbuf, count, datatype, op, root, comm, request,
                  LOOM_COLL_PERSISTENT);
}

int loom__mpi_allreduce_init_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    int rc = loom__coll_check_info(fn, comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return everyone(fn, LOOM_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype,
                    op, comm, request, LOOM_COLL_PERSISTENT);
}

int loom__mpi_scan_init_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    int rc = loom__coll_check_info(fn, comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return everyone(fn, LOOM_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                    request, LOOM_COLL_PERSISTENT);
}

int loom__mpi_exscan_init_c(const char *fn, const void *sendbuf, void *recvbuf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    int rc = loom__coll_check_info(fn, comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return everyone(fn, LOOM_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op,
                    comm, request, LOOM_COLL_PERSISTENT);
}

int loom__mpi_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Reduce_scatter_init");
    int rc = loom__coll_check_info("MPI_Reduce_scatter_init", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return reduce_scatter("MPI_Reduce_scatter_init", LOOM_COLL_REDUCE_SCATTER, sendbuf, recvbuf,
                          recvcounts, 0, datatype, op, comm, request, LOOM_COLL_PERSISTENT, 0);
}

int loom__mpi_reduce_scatter_init_c(const void *sendbuf, void *recvbuf,
                                    const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op,
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Reduce_scatter_init_c");
    int rc = loom__coll_check_info("MPI_Reduce_scatter_init_c", comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return reduce_scatter("MPI_Reduce_scatter_init_c", LOOM_COLL_REDUCE_SCATTER, sendbuf, recvbuf,
                          recvcounts, 0, datatype, op, comm, request, LOOM_COLL_PERSISTENT, 1);
}

int loom__mpi_reduce_scatter_block_init_c(const char *fn, const void *sendbuf, void *recvbuf,
                                          MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    int rc = loom__coll_check_info(fn, comm, info);
    if (rc != MPI_SUCCESS)
        return rc;
    return reduce_scatter(fn, LOOM_COLL_REDUCE_SCATTER_BLOCK, sendbuf,
                          recvbuf, NULL, recvcount, datatype, op, comm, request,
                          LOOM_COLL_PERSISTENT, 1);
}
