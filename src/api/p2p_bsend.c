/* api/p2p_bsend.c — buffered sends and their buffers (MPI 4.1 section 3.6): MPI_Bsend,
 * MPI_Ibsend; the rank's buffer (MPI_Buffer_attach, _detach, _flush, _iflush) and a
 * communicator's (MPI_Comm_attach_buffer, _detach_buffer, _flush_buffer, _iflush_buffer),
 * with their big-count forms. A session's buffer calls are in api/session.c. The work is in
 * p2p/bsend.c. */
#include <limits.h>
#include "api/p2p_args.h"
#include "dt/dt.h"
#include "p2p/bsend.h"

/* ---- shared by the rank's, the communicators' and the sessions' calls ----------------- */

/* The checks of every attach call but the session's (buffer, size), reported through comm. */
static int attach_check(MPI_Comm comm, const char *fn, const void *buffer, MPI_Count size)
{
    if (buffer == MPI_BUFFER_AUTOMATIC) /* size is ignored */
        return MPI_SUCCESS;
    if (size < 0)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "size %lld is negative", (long long)size);
    if (buffer == NULL && size > 0)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "buffer is NULL");
    return MPI_SUCCESS;
}

/* An iflush request on b reported through comm: MPI_SUCCESS or the class raised. */
static int iflush(MPI_Comm comm, const char *fn, struct loom_bsend *b, MPI_Request *request)
{
    if (request == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "request is NULL");
    struct loom_request *r = loom__req_new(LOOM_REQ_FLUSH);
    if (r == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    /* a request reports its errors on a communicator: the rank's own, which outlives any
     * communicator the flush is about */
    r->comm = comm == MPI_COMM_WORLD ? MPI_COMM_WORLD : MPI_COMM_SELF;
    loom__p2p_status_empty(&r->status, MPI_ANY_SOURCE);
    int rc = loom__api_buffer_iflush_start(b, r);
    if (rc < 0) {
        loom__req_discard(r);
        return loom__api_error_code(comm, fn, rc);
    }
    *request = r;
    return MPI_SUCCESS;
}

int loom__api_buffer_iflush_start(struct loom_bsend *b, struct loom_request *r)
{
    int rc = loom__bsend_iflush(b, r);
    if (rc == 1) /* nothing buffered from before: complete at once */
        atomic_store_explicit(&r->flags, LOOM_REQ_COMPLETE, memory_order_relaxed);
    return rc < 0 ? rc : 0;
}

/* ---- the rank's buffer ---------------------------------------------------------------- */

int loom__mpi_buffer_attach_c(const char *fn, void *buffer, MPI_Count size)
{
    LOOM_API_ENTER(fn);
    int rc = attach_check(MPI_COMM_WORLD, fn, buffer, size);
    if (rc != MPI_SUCCESS)
        return rc;
    struct loom_bsend *b = loom__bsend_rank(1);
    if (b == NULL)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    if (loom__bsend_attach(b, buffer, (size_t)size) != 0)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_BUFFER,
                               "a buffer is already attached to the rank");
    return MPI_SUCCESS;
}

/* Detach b's buffer for fn into *buffer_addr / *size, reported through comm (owner names it:
 * "rank", "communicator"); max: the largest size the call's result holds (a larger one:
 * MPI_ERR_VALUE_TOO_LARGE, the buffer stays attached). MPI_SUCCESS or the class raised. */
static int detach(MPI_Comm comm, const char *fn, const char *owner, struct loom_bsend *b,
                  void *buffer_addr, MPI_Count *size, MPI_Count max)
{
    void *buf;
    size_t len;
    int rc = loom__bsend_detach(b, &buf, &len, (size_t)max);
    if (rc == LOOM_ERR_BUFFER)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "no buffer is attached to the %s",
                               owner);
    if (rc == LOOM_ERR_ARG)
        return loom__api_error(comm, fn, MPI_ERR_VALUE_TOO_LARGE,
                               "the attached buffer's size is above %lld (use the _c form)",
                               (long long)max);
    *(void **)buffer_addr = buf;
    *size = (MPI_Count)len;
    return MPI_SUCCESS;
}

static int rank_detach(const char *fn, void *buffer_addr, void *size, int wide)
{
    if (buffer_addr == NULL || size == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "%s is NULL",
                               buffer_addr == NULL ? "buffer_addr" : "size");
    MPI_Count len;
    int rc = detach(MPI_COMM_WORLD, fn, "rank", loom__bsend_rank(0),
                                     buffer_addr, &len, wide ? LLONG_MAX : INT_MAX);
    if (rc == MPI_SUCCESS) {
        if (wide)
            *(MPI_Count *)size = len;
        else
            *(int *)size = (int)len;
    }
    return rc;
}

int loom__mpi_buffer_detach(void *buffer_addr, int *size)
{
    LOOM_API_ENTER("MPI_Buffer_detach");
    return rank_detach("MPI_Buffer_detach", buffer_addr, size, 0);
}

int loom__mpi_buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    LOOM_API_ENTER("MPI_Buffer_detach_c");
    return rank_detach("MPI_Buffer_detach_c", buffer_addr, size, 1);
}

int loom__mpi_buffer_flush(void)
{
    LOOM_API_ENTER("MPI_Buffer_flush");
    loom__bsend_flush(loom__bsend_rank(0));
    return MPI_SUCCESS;
}

int loom__mpi_buffer_iflush(MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Buffer_iflush");
    return iflush(MPI_COMM_WORLD, "MPI_Buffer_iflush", loom__bsend_rank(0), request);
}

/* ---- a communicator's buffer ---------------------------------------------------------- */

static struct loom_comm *get_comm(MPI_Comm comm, const char *fn, int *rc)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        *rc = loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    return c;
}

/* c's buffer owner, made at the first call when create (NULL on ENOMEM, or when none yet). */
static struct loom_bsend *comm_owner(struct loom_comm *c, int create)
{
    struct loom_bsend *b = atomic_load_explicit(&c->bsend, memory_order_acquire);
    if (b != NULL || !create)
        return b;
    struct loom_bsend *nb = loom__bsend_new();
    if (nb == NULL)
        return NULL;
    /* release: a thread that loads the pointer (acquire) sees the owner initialized */
    if (!loom__cas_acq_rel(&c->bsend, &b, nb)) {
        loom__bsend_release(nb); /* another thread of the rank installed one first: b */
        return b;
    }
    return nb;
}

int loom__mpi_comm_attach_buffer_c(const char *fn, MPI_Comm comm, void *buffer, MPI_Count size)
{
    LOOM_API_ENTER(fn);
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, fn, &rc);
    if (c == NULL)
        return rc;
    if ((rc = attach_check(comm, fn, buffer, size)) != MPI_SUCCESS)
        return rc;
    struct loom_bsend *b = comm_owner(c, 1);
    if (b == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    if (loom__bsend_attach(b, buffer, (size_t)size) != 0)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER,
                               "a buffer is already attached to the communicator");
    return MPI_SUCCESS;
}

static int comm_detach(MPI_Comm comm, const char *fn, void *buffer_addr, void *size, int wide)
{
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, fn, &rc);
    if (c == NULL)
        return rc;
    if (buffer_addr == NULL || size == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "%s is NULL",
                               buffer_addr == NULL ? "buffer_addr" : "size");
    MPI_Count len;
    rc = detach(comm, fn, "communicator", comm_owner(c, 0), buffer_addr, &len,
                                 wide ? LLONG_MAX : INT_MAX);
    if (rc == MPI_SUCCESS) {
        if (wide)
            *(MPI_Count *)size = len;
        else
            *(int *)size = (int)len;
    }
    return rc;
}

int loom__mpi_comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    LOOM_API_ENTER("MPI_Comm_detach_buffer");
    return comm_detach(comm, "MPI_Comm_detach_buffer", buffer_addr, size, 0);
}

int loom__mpi_comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    LOOM_API_ENTER("MPI_Comm_detach_buffer_c");
    return comm_detach(comm, "MPI_Comm_detach_buffer_c", buffer_addr, size, 1);
}

int loom__mpi_comm_flush_buffer(MPI_Comm comm)
{
    static const char fn[] = "MPI_Comm_flush_buffer";
    LOOM_API_ENTER(fn);
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, fn, &rc);
    if (c == NULL)
        return rc;
    loom__bsend_flush(comm_owner(c, 0));
    return MPI_SUCCESS;
}

int loom__mpi_comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Comm_iflush_buffer";
    LOOM_API_ENTER(fn);
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, fn, &rc);
    if (c == NULL)
        return rc;
    return iflush(comm, fn, comm_owner(c, 0), request);
}

/* ---- buffered sends -------------------------------------------------------------------- */

int loom__api_bsend_start(const char *fn, const struct loom_request *s, struct loom_comm *c)
{
    struct loom_bsend *cb = c ? atomic_load_explicit(&c->bsend, memory_order_acquire) : NULL;
    struct loom_bsend *sb = c ? c->session_bsend : NULL;
    int rc = loom__bsend_start(s, cb, sb);
    if (rc == LOOM_ERR_BUFFER) {
        const char *owner = loom__bsend_attached(cb)   ? "communicator"
                            : loom__bsend_attached(sb) ? "session"
                                                       : "rank";
        return loom__api_error(s->comm, fn, MPI_ERR_BUFFER,
                               "no room in the buffer attached to the %s for %zu bytes (+%d "
                               "overhead), or none attached",
                               owner, loom__dt_stream_size(s->type, s->count),
                               MPI_BSEND_OVERHEAD);
    }
    return rc ? loom__api_error_code(s->comm, fn, rc) : MPI_SUCCESS;
}

/* Start a buffered send described by the arguments; MPI_SUCCESS or the reported class. */
int loom__api_bsend(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, int dest,
                    int tag, MPI_Comm comm)
{
    struct loom_comm *c;
    int rc = loom__p2p_check(fn, comm, buf, count, type, dest, tag, LOOM_P2P_SEND, &c);
    if (rc != MPI_SUCCESS || dest == MPI_PROC_NULL)
        return rc;
    struct loom_request s;
    loom__req_init_stack(&s, LOOM_REQ_SEND);
    loom__p2p_fill(&s, c, comm, (void *)buf, count, type, dest, tag);
    return loom__api_bsend_start(fn, &s, c);
}

int loom__mpi_bsend_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      int dest, int tag, MPI_Comm comm)
{
    LOOM_API_ENTER(fn);
    return loom__api_bsend(fn, buf, count, datatype, dest, tag, comm);
}

int loom__mpi_ibsend_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    if (request == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "request is NULL");
    int rc = loom__api_bsend(fn, buf, count, datatype, dest, tag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The data is in the attached buffer: the user's buffer is free again, so the request is
     * complete at once. */
    struct loom_request *r = loom__p2p_done_request(comm, MPI_ANY_SOURCE);
    if (r == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    *request = r;
    return MPI_SUCCESS;
}
