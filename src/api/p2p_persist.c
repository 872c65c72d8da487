/* api/p2p_persist.c — persistent requests: *_init, MPI_Start, MPI_Startall.
 * A persistent request keeps its arguments; each start runs the operation again in the same
 * request object, which is inactive between a completion and the next start. Persistent
 * collectives (api/coll_*.c, *_init) start here too: their schedule is rerun (coll/run.c). */
#include "api/p2p_args.h"
#include "coll/sched.h"
#include "dt/dt.h"
#include "p2p/bsend.h"
#include "p2p/part.h"

static int make(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, int peer,
                int tag, MPI_Comm comm, enum loom_req_kind kind, enum loom_send_mode mode,
                MPI_Request *request)
{
    struct loom_comm *c;
    int rc = loom__p2p_check(fn, comm, buf, count, type, peer, tag,
                             kind == LOOM_REQ_SEND ? LOOM_P2P_SEND : LOOM_P2P_RECV, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "request is NULL");
    struct loom_request *r = loom__req_new(kind);
    if (r == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    loom__p2p_fill(r, c, comm, (void *)buf, count, type, peer, tag);
    if (type != MPI_DATATYPE_NULL)
        loom__dt_retain(type);
    else
        r->type = NULL;
    r->mode = (uint8_t)mode;
    r->persistent = 1;
    *request = r;
    return MPI_SUCCESS;
}

int loom__mpi_send_init_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return make(fn, buf, count, datatype, dest, tag, comm, LOOM_REQ_SEND,
                LOOM_SEND_STANDARD, request);
}

int loom__mpi_ssend_init_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return make(fn, buf, count, datatype, dest, tag, comm, LOOM_REQ_SEND,
                LOOM_SEND_SYNC, request);
}

int loom__mpi_rsend_init_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return make(fn, buf, count, datatype, dest, tag, comm, LOOM_REQ_SEND,
                LOOM_SEND_READY, request);
}

int loom__mpi_bsend_init_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return make(fn, buf, count, datatype, dest, tag, comm, LOOM_REQ_SEND,
                LOOM_SEND_BUFFERED, request);
}

int loom__mpi_recv_init_c(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                          int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    return make(fn, buf, count, datatype, source, tag, comm, LOOM_REQ_RECV,
                LOOM_SEND_STANDARD, request);
}

static void complete_now(struct loom_request *r, int source)
{
    loom__p2p_status_empty(&r->status, source);
    atomic_store_explicit(&r->flags, LOOM_REQ_COMPLETE, memory_order_release);
}

static int start(const char *fn, MPI_Request *request)
{
    if (request == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "request is NULL");
    if (!loom__object_is(*request, LOOM_MAGIC_REQUEST))
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST,
                               "not a valid request (freed or MPI_REQUEST_NULL?)");
    struct loom_request *r = *request;
    if (!r->persistent)
        return loom__api_error(r->comm, fn, MPI_ERR_REQUEST, "request is not persistent");
    if (r->active)
        return loom__api_error(r->comm, fn, MPI_ERR_REQUEST, "request is already active");
    if (r->kind == LOOM_REQ_COLL) { /* a persistent collective: rerun its schedule */
        loom__sched_restart(r);
        return MPI_SUCCESS;
    }
    /* Inactive: nobody else references it, so the owner may reset it with plain stores. */
    atomic_store_explicit(&r->flags, 0, memory_order_relaxed);
    r->error = MPI_SUCCESS;
    r->cancelled = 0;
    r->active = 1;
    if (r->kind == LOOM_REQ_PSEND || r->kind == LOOM_REQ_PRECV) { /* api/partitioned.c */
        loom__part_start(r);
        return MPI_SUCCESS;
    }
    if (r->peer == MPI_PROC_NULL) {
        complete_now(r, MPI_PROC_NULL);
        return MPI_SUCCESS;
    }
    int rc;
    if (r->kind == LOOM_REQ_RECV) {
        rc = loom__p2p_start_recv(r);
    } else if (r->mode == LOOM_SEND_BUFFERED) {
        /* the buffer of the communicator as it is now (resolved at each start: one may be
         * attached or detached between starts) */
        int cls = loom__api_bsend_start(fn, r, loom__comm_resolve(r->comm));
        if (cls != MPI_SUCCESS) { /* reported */
            r->active = 0;
            return cls;
        }
        complete_now(r, MPI_ANY_SOURCE);
        return MPI_SUCCESS;
    } else {
        rc = loom__p2p_start_send(r);
    }
    if (rc != 0) {
        r->active = 0;
        return loom__api_error_code(r->comm, fn, rc);
    }
    return MPI_SUCCESS;
}

int loom__mpi_start(MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Start");
    return start("MPI_Start", request);
}

int loom__mpi_startall(int count, MPI_Request requests[])
{
    LOOM_API_ENTER("MPI_Startall");
    if (count < 0)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Startall", MPI_ERR_COUNT,
                               "count %d is negative", count);
    if (count > 0 && requests == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Startall", MPI_ERR_ARG,
                               "request array is NULL");
    for (int i = 0; i < count; i++) {
        int rc = start("MPI_Startall", &requests[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
