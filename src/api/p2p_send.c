/* api/p2p_send.c — MPI_Send, Ssend, Rsend and their nonblocking forms.
 * A ready send is a standard send (its receive is posted, so it matches at once). */
#include "api/p2p_args.h"
#include "dt/dt.h"
#include "p2p/ring.h"

/* A blocking send that did not go into a cell: a request on the stack, started and waited
 * for. Out of line so that its frame (the request) is not set up for the sends that go into
 * cells, whose cost is their latency (ring.h). */
static __attribute__((noinline)) int send_queued(const char *fn, struct loom_comm *c,
                                                 const void *buf, MPI_Count count,
                                                 MPI_Datatype type, int dest, int tag,
                                                 MPI_Comm comm,
                                                 enum loom_send_mode mode)
{
    struct loom_request r;
    loom__req_init_stack(&r, LOOM_REQ_SEND);
    loom__p2p_fill(&r, c, comm, (void *)buf, count, type, dest, tag);
    r.mode = (uint8_t)mode;
    int rc = loom__p2p_start_send(&r);
    if (rc != 0)
        return loom__api_error_code(comm, fn, rc);
    loom__req_wait(&r);
    return MPI_SUCCESS;
}

/* A standard or ready send of a small message goes into a cell (ring.h) when it can: 1 if it
 * did (the send is complete). With `batch` (a nonblocking send), the message may be published
 * later, with the ones after it (p2p/batch.h). */
static inline __attribute__((always_inline)) int
sent_in_cell(struct loom_comm *c, enum loom_send_mode mode, const void *buf, MPI_Count count,
             MPI_Datatype type, int dest, int tag, int batch)
{
    const struct loom_comm_shared *sh = c->sh;
    return mode != LOOM_SEND_SYNC &&
           loom__p2p_send_cell(sh->peer_pt2pt, sh->world_of[c->rank], sh->peer_world, c->rank,
                               buf, (size_t)count, type, dest, tag, batch);
}

static inline __attribute__((always_inline)) int
send_blocking(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm, enum loom_send_mode mode)
{
    LOOM_API_ENTER(fn);
    struct loom_comm *c;
    int rc = loom__p2p_check(fn, comm, buf, count, type, dest, tag, LOOM_P2P_SEND, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (sent_in_cell(c, mode, buf, count, type, dest, tag, 0))
        return MPI_SUCCESS;
    return send_queued(fn, c, buf, count, type, dest, tag, comm, mode);
}

static int send_nonblocking(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type,
                            int dest, int tag, MPI_Comm comm, enum loom_send_mode mode,
                            MPI_Request *request)
{
    LOOM_API_ENTER_KEEP_BATCH(fn); /* this send may join the calling thread's batch */
    struct loom_comm *c;
    int rc = loom__p2p_check(fn, comm, buf, count, type, dest, tag, LOOM_P2P_SEND, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "request is NULL");
    struct loom_request *r;
    if (dest == MPI_PROC_NULL) {
        r = loom__p2p_done_request(comm, MPI_PROC_NULL);
        if (r == NULL)
            return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    } else if (sent_in_cell(c, mode, buf, count, type, dest, tag, 1)) {
        r = &loom__req_sent; /* sent: the one request of such sends says so (request.h) */
    } else {
        r = loom__req_new(LOOM_REQ_SEND);
        if (r == NULL)
            return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
        loom__p2p_fill(r, c, comm, (void *)buf, count, type, dest, tag);
        r->mode = (uint8_t)mode;
        loom__dt_retain(type);
        rc = loom__p2p_start_send(r);
        if (rc != 0) {
            loom__req_discard(r); /* never published */
            return loom__api_error_code(comm, fn, rc);
        }
    }
    *request = r;
    return MPI_SUCCESS;
}

int loom__mpi_send_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                     int dest, int tag, MPI_Comm comm)
{
    return send_blocking(fn, buf, count, datatype, dest, tag, comm, LOOM_SEND_STANDARD);
}

int loom__mpi_ssend_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      int dest, int tag, MPI_Comm comm)
{
    return send_blocking(fn, buf, count, datatype, dest, tag, comm, LOOM_SEND_SYNC);
}

int loom__mpi_rsend_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      int dest, int tag, MPI_Comm comm)
{
    return send_blocking(fn, buf, count, datatype, dest, tag, comm, LOOM_SEND_READY);
}

int loom__mpi_isend_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    return send_nonblocking(fn, buf, count, datatype, dest, tag, comm,
                            LOOM_SEND_STANDARD, request);
}

int loom__mpi_issend_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    return send_nonblocking(fn, buf, count, datatype, dest, tag, comm,
                            LOOM_SEND_SYNC, request);
}

int loom__mpi_irsend_c(const char *fn, const void *buf, MPI_Count count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    return send_nonblocking(fn, buf, count, datatype, dest, tag, comm,
                            LOOM_SEND_READY, request);
}
