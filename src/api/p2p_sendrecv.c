/* api/p2p_sendrecv.c — MPI_Sendrecv and MPI_Sendrecv_replace. */
#include <stdlib.h>
#include "api/p2p_args.h"
#include "dt/dt.h"

/* Post the receive, start the send, wait for both. Arguments already checked. */
static int exchange(const char *fn, struct loom_comm *c, MPI_Comm comm, struct loom_request *s,
                    struct loom_request *r, MPI_Status *status)
{
    if (r->peer != MPI_PROC_NULL)
        loom__p2p_start_recv(r);
    if (s->peer != MPI_PROC_NULL) {
        int rc = loom__p2p_start_send(s);
        if (rc != 0)
            return loom__api_error_code(comm, fn, rc);
        loom__req_wait(s);
    }
    (void)c;
    if (r->peer == MPI_PROC_NULL) {
        MPI_Status st;
        loom__p2p_status_empty(&st, MPI_PROC_NULL);
        loom__p2p_status_out(status, &st);
        return MPI_SUCCESS;
    }
    loom__req_wait(r);
    loom__p2p_status_out(status, &r->status);
    return loom__p2p_request_error(fn, r);
}

int loom__mpi_sendrecv_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                         MPI_Comm comm, MPI_Status *status)
{
    LOOM_API_ENTER(fn);
    struct loom_comm *c;
    int rc = loom__p2p_check(fn, comm, sendbuf, sendcount, sendtype, dest, sendtag,
                             LOOM_P2P_SEND, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check(fn, comm, recvbuf, recvcount, recvtype, source,
                             recvtag, LOOM_P2P_RECV, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check_status(fn, comm, status, "status");
    if (rc != MPI_SUCCESS)
        return rc;
    struct loom_request s, r;
    loom__req_init_stack(&s, LOOM_REQ_SEND);
    loom__req_init_stack(&r, LOOM_REQ_RECV);
    loom__p2p_fill(&s, c, comm, (void *)sendbuf, sendcount, sendtype, dest, sendtag);
    loom__p2p_fill(&r, c, comm, recvbuf, recvcount, recvtype, source, recvtag);
    return exchange(fn, c, comm, &s, &r, status);
}

int loom__mpi_sendrecv_replace_c(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                                 int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
                                 MPI_Status *status)
{
    LOOM_API_ENTER(fn);
    struct loom_comm *c;
    int rc = loom__p2p_check(fn, comm, buf, count, datatype, dest, sendtag,
                             LOOM_P2P_SEND, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check(fn, comm, buf, count, datatype, source,
                             recvtag, LOOM_P2P_RECV, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check_status(fn, comm, status, "status");
    if (rc != MPI_SUCCESS)
        return rc;
    /* The outgoing data is packed aside first, since the receive overwrites the buffer. */
    size_t bytes = datatype ? loom__dt_stream_size(datatype, (size_t)count) : 0;
    void *tmp = malloc(bytes ? bytes : 1);
    if (tmp == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    if (bytes)
        loom__dt_pack(tmp, buf, datatype, (size_t)count, 0, bytes);
    struct loom_request s, r;
    loom__req_init_stack(&s, LOOM_REQ_SEND);
    loom__req_init_stack(&r, LOOM_REQ_RECV);
    loom__p2p_fill(&s, c, comm, tmp, 0, MPI_BYTE, dest, sendtag);
    s.count = bytes;
    loom__p2p_fill(&r, c, comm, buf, count, datatype, source, recvtag);
    rc = exchange(fn, c, comm, &s, &r, status);
    free(tmp);
    return rc;
}
