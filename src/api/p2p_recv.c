/* api/p2p_recv.c — MPI_Recv and MPI_Irecv. */
#include "api/p2p_args.h"
#include "dt/dt.h"

/* A blocking receive that did not take its message from a cell: a request on the stack,
 * started and waited for. Out of line so that its frame (the request) is not set up for the
 * receives that take a cell, whose cost is their latency (ring.h). */
static __attribute__((noinline)) int recv_queued(struct loom_comm *c, void *buf, MPI_Count count,
                                                 MPI_Datatype datatype, int source, int tag,
                                                 MPI_Comm comm, MPI_Status *status)
{
    struct loom_request r;
    loom__req_init_stack(&r, LOOM_REQ_RECV);
    loom__p2p_fill(&r, c, comm, buf, count, datatype, source, tag);
    loom__p2p_start_recv(&r);
    loom__req_wait(&r);
    loom__p2p_status_out(status, &r.status);
    return loom__p2p_request_error("MPI_Recv", &r);
}

int loom__mpi_recv_c(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                     int tag, MPI_Comm comm, MPI_Status *status)
{
    LOOM_API_ENTER(fn);
    struct loom_comm *c;
    int rc = loom__p2p_check(fn, comm, buf, count, datatype, source, tag,
                             LOOM_P2P_RECV, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check_status(fn, comm, status, "status");
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        MPI_Status st;
        loom__p2p_status_empty(&st, MPI_PROC_NULL);
        loom__p2p_status_out(status, &st);
        return MPI_SUCCESS;
    }
    if (source != MPI_ANY_SOURCE &&
        loom__p2p_recv_cell(c->sh->pt2pt, c->sh->world_of[c->rank], c->rank, buf, (size_t)count,
                            datatype, source, tag,
                            status == MPI_STATUS_IGNORE ? NULL : status, 1) > 0)
        return MPI_SUCCESS;
    return recv_queued(c, buf, count, datatype, source, tag, comm, status);
}

int loom__mpi_irecv_c(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                      int tag, MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    struct loom_comm *c;
    int rc = loom__p2p_check(fn, comm, buf, count, datatype, source, tag,
                             LOOM_P2P_RECV, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "request is NULL");
    struct loom_request *r = source == MPI_PROC_NULL
                                 ? loom__p2p_done_request(comm, MPI_PROC_NULL)
                                 : loom__req_new(LOOM_REQ_RECV);
    if (r == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    int took = source == MPI_PROC_NULL || source == MPI_ANY_SOURCE
                   ? -1
                   : loom__p2p_recv_cell(c->sh->pt2pt, c->sh->world_of[c->rank], c->rank, buf,
                                         (size_t)count, datatype, source, tag, &r->status, 0);
    if (took > 0) {
        /* Its message was waiting at the head of its sender's ring: received now, complete
         * at birth, and a wait only hands back its status (docs/p2p.md, "Receives complete
         * at birth"). */
        loom__p2p_mark_received(r, comm);
    } else if (source != MPI_PROC_NULL) {
        loom__p2p_fill(r, c, comm, buf, count, datatype, source, tag);
        loom__dt_retain(datatype);
        r->unseen = 1; /* a cell it takes now completes it cheaply (request.h) */
        loom__p2p_start_recv_looked(r, took); /* after 0, the ring is not looked at again */
        r->unseen = 0;
    }
    *request = r;
    return MPI_SUCCESS;
}
