/* api/coll_check.c — the argument checks of the collective calls (coll/check.h) and the
 * call itself: run the schedule, turn a lower layer's failure into an MPI error. */
#include <limits.h>
#include "api/api.h"
#include "coll/check.h"
#include "coll/op.h"
#include "comm/comm.h"
#include "dt/dt.h"

int loom__coll_check_comm_any(const char *fn, MPI_Comm comm, struct loom_comm **out)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (__builtin_expect(c == NULL, 0))
        return loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    *out = c;
    return MPI_SUCCESS;
}

int loom__coll_check_comm(const char *fn, MPI_Comm comm, struct loom_comm **out)
{
    int rc = loom__coll_check_comm_any(fn, comm, out);
    if (rc == MPI_SUCCESS && __builtin_expect(loom__comm_is_inter(*out), 0))
        return loom__api_error(comm, fn, MPI_ERR_COMM,
                               "not defined on an intercommunicator");
    return rc;
}

static int check_type(const char *fn, MPI_Comm comm, const char *what, MPI_Datatype type)
{
    const char *why;
    if (__builtin_expect(loom__dt_check_usable(type, &why) != 0, 0))
        return loom__api_error(comm, fn, MPI_ERR_TYPE, "%s: %s", what, why);
    return MPI_SUCCESS;
}

int loom__coll_check_null(const char *fn, MPI_Comm comm, const char *what, const void *buf,
                          long long count, MPI_Datatype type)
{
    if (buf == MPI_IN_PLACE)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, not allowed here",
                               what);
    if (buf == NULL && count > 0 && type->size > 0 && type->true_lb == 0)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "%s is NULL with count %lld", what,
                               count);
    return MPI_SUCCESS;
}

int loom__coll_check_buf(const char *fn, MPI_Comm comm, const char *what, const void *buf,
                         MPI_Count count, MPI_Datatype type)
{
    if (count < 0)
        return loom__api_error(comm, fn, MPI_ERR_COUNT, "count %lld of %s is negative", count,
                               what);
    int rc = check_type(fn, comm, what, type);
    if (rc != MPI_SUCCESS)
        return rc;
    return loom__coll_check_null(fn, comm, what, buf, count, type);
}

int loom__coll_check_bufv(const char *fn, MPI_Comm comm, const char *what, const void *buf,
                          const void *counts, const void *displs, int wide, MPI_Datatype type,
                          const MPI_Datatype types[], int size)
{
    if (counts == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "the counts of %s are NULL", what);
    if (displs == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "the displacements of %s are NULL",
                               what);
    long long total = 0; /* saturates: it only says whether the buffer holds data */
    for (int r = 0; r < size; r++) {
        long long n = (long long)loom__coll_count_at(counts, wide, (size_t)r);
        if (n < 0)
            return loom__api_error(comm, fn, MPI_ERR_COUNT, "count %lld for rank %d of %s is "
                                   "negative", n, r, what);
        total = n > LLONG_MAX - total ? LLONG_MAX : total + n;
    }
    if (types) {
        for (int r = 0; r < size; r++) {
            const char *why;
            if (loom__dt_check_usable(types[r], &why) != 0)
                return loom__api_error(comm, fn, MPI_ERR_TYPE, "%s: type for rank %d: %s",
                                       what, r, why);
        }
        /* each rank's block has its own type: a NULL buffer is no buffer for any block whose
         * type starts at its address */
        for (int r = 0; r < size; r++) {
            int rc = loom__coll_check_null(fn, comm, what, buf,
                                           (long long)loom__coll_count_at(counts, wide,
                                                                          (size_t)r),
                                           types[r]);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        return MPI_SUCCESS;
    }
    int rc = check_type(fn, comm, what, type);
    if (rc != MPI_SUCCESS)
        return rc;
    return loom__coll_check_null(fn, comm, what, buf, total, type);
}

int loom__coll_check_root(const char *fn, MPI_Comm comm, int root, int size)
{
    if (root < 0 || root >= size)
        return loom__api_error(comm, fn, MPI_ERR_ROOT, "root %d out of range (communicator "
                               "size %d)", root, size);
    return MPI_SUCCESS;
}

int loom__coll_check_root_of(const char *fn, MPI_Comm comm, struct loom_comm *c, int root,
                             int *is_root, int *idle)
{
    *idle = 0;
    if (!loom__comm_is_inter(c)) {
        *is_root = c->rank == root;
        return loom__coll_check_root(fn, comm, root, c->sh->size);
    }
    *is_root = root == MPI_ROOT;
    *idle = root == MPI_PROC_NULL;
    if (*is_root || *idle || (root >= 0 && root < c->sh->peer_size))
        return MPI_SUCCESS;
    return loom__api_error(comm, fn, MPI_ERR_ROOT, "root %d is neither MPI_ROOT, MPI_PROC_NULL "
                           "nor a rank of the remote group (size %d)", root, c->sh->peer_size);
}

int loom__coll_check_in_place(const char *fn, MPI_Comm comm, struct loom_comm *c,
                              const char *what, const void *buf)
{
    if (buf == MPI_IN_PLACE && loom__comm_is_inter(c))
        return loom__api_error(comm, fn, MPI_ERR_BUFFER,
                               "%s is MPI_IN_PLACE, not allowed on an intercommunicator", what);
    return MPI_SUCCESS;
}

int loom__coll_check_op(const char *fn, MPI_Comm comm, MPI_Op op, MPI_Datatype type)
{
    if (op == MPI_OP_NULL)
        return loom__api_error(comm, fn, MPI_ERR_OP, "op is MPI_OP_NULL");
    if (!loom__op_valid(op))
        return loom__api_error(comm, fn, MPI_ERR_OP, "op is not a valid operation (freed?)");
    if (loom__op_accumulate_only(op))
        return loom__api_error(comm, fn, MPI_ERR_OP, "%s is only for one-sided accumulate "
                               "operations, not for reductions", op->name);
    const char *why;
    if (loom__op_check(op, type, &why) != 0)
        return loom__api_error(comm, fn, MPI_ERR_OP, "%s", why);
    return MPI_SUCCESS;
}

int loom__coll_check_alias(const char *fn, MPI_Comm comm, const void *sendbuf,
                           const void *recvbuf, int holds_data)
{
    if (holds_data && sendbuf == recvbuf && sendbuf != NULL)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "sendbuf and recvbuf are the same "
                               "buffer (use MPI_IN_PLACE)");
    return MPI_SUCCESS;
}

int loom__coll_check_request(const char *fn, MPI_Comm comm, MPI_Request *request)
{
    if (request == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "request is NULL");
    return MPI_SUCCESS;
}

int loom__coll_call(const char *fn, MPI_Comm comm, enum loom_coll_kind kind,
                    struct loom_comm *c, const struct loom_coll_args *a, MPI_Request *request)
{
    int mpi_err = MPI_SUCCESS;
    int rc = loom__coll_run(kind, c, comm, a, request, &mpi_err);
    if (rc != 0)
        return loom__api_error_code(comm, fn, rc);
    if (mpi_err != MPI_SUCCESS)
        return loom__api_error(comm, fn, mpi_err, "a message of the collective was truncated: "
                               "the ranks disagree on counts or types");
    return MPI_SUCCESS;
}

int loom__coll_check_info(const char *fn, MPI_Comm comm, MPI_Info info)
{
    if (info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return loom__api_error(comm, fn, MPI_ERR_INFO, "%s", loom__info_invalid_reason(info));
    return MPI_SUCCESS;
}

int loom__coll_call_mode(const char *fn, MPI_Comm comm, enum loom_coll_kind kind,
                         struct loom_comm *c, const struct loom_coll_args *a,
                         MPI_Request *request, int mode)
{
    if (mode != LOOM_COLL_PERSISTENT)
        return loom__coll_call(fn, comm, kind, c, a, mode ? request : NULL);
    int rc = loom__coll_persist_init(kind, c, comm, a, request);
    return rc == 0 ? MPI_SUCCESS : loom__api_error_code(comm, fn, rc);
}
