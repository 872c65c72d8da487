/* api/p2p_bsend.c — MPI_Bsend, MPI_Ibsend, MPI_Buffer_attach, MPI_Buffer_detach, and
 * MPI 4.1's MPI_Buffer_flush and MPI_Buffer_iflush (the rank's buffer, p2p/bsend.h). */
#include "api/p2p_args.h"
#include "dt/dt.h"
#include "p2p/bsend.h"

int loom__mpi_buffer_attach(void *buffer, int size)
{
    LOOM_API_ENTER("MPI_Buffer_attach");
    if (size < 0)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Buffer_attach", MPI_ERR_ARG,
                               "size %d is negative", size);
    if (buffer == NULL && size > 0)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Buffer_attach", MPI_ERR_BUFFER,
                               "buffer is NULL");
    int rc = loom__bsend_attach(buffer, (size_t)size);
    if (rc == LOOM_ERR_BUFFER)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Buffer_attach", MPI_ERR_BUFFER,
                               "a buffer is already attached");
    return rc ? loom__api_error_code(MPI_COMM_WORLD, "MPI_Buffer_attach", rc) : MPI_SUCCESS;
}

int loom__mpi_buffer_detach(void *buffer_addr, int *size)
{
    LOOM_API_ENTER("MPI_Buffer_detach");
    if (buffer_addr == NULL || size == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Buffer_detach", MPI_ERR_ARG, "%s is NULL",
                               buffer_addr == NULL ? "buffer_addr" : "size");
    void *buf;
    size_t len;
    if (loom__bsend_detach(&buf, &len) != 0)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Buffer_detach", MPI_ERR_BUFFER,
                               "no buffer is attached");
    *(void **)buffer_addr = buf;
    *size = (int)len;
    return MPI_SUCCESS;
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
    rc = loom__bsend_start(&s);
    if (rc == LOOM_ERR_BUFFER)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER,
                               "no room in the attached buffer for %lld bytes (+%d overhead)",
                               (long long)type->size * count, MPI_BSEND_OVERHEAD);
    return rc ? loom__api_error_code(comm, fn, rc) : MPI_SUCCESS;
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

int loom__mpi_buffer_flush(void)
{
    LOOM_API_ENTER("MPI_Buffer_flush");
    loom__bsend_flush();
    return MPI_SUCCESS;
}

int loom__mpi_buffer_iflush(MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Buffer_iflush");
    static const char fn[] = "MPI_Buffer_iflush";
    if (request == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "request is NULL");
    struct loom_request *r = loom__req_new(LOOM_REQ_FLUSH);
    if (r == NULL)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    r->comm = MPI_COMM_WORLD;
    loom__p2p_status_empty(&r->status, MPI_ANY_SOURCE);
    int rc = loom__bsend_iflush(r);
    if (rc < 0) {
        loom__req_discard(r);
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    }
    if (rc == 1) /* nothing buffered from before: complete at once */
        atomic_store_explicit(&r->flags, LOOM_REQ_COMPLETE, memory_order_relaxed);
    *request = r;
    return MPI_SUCCESS;
}
