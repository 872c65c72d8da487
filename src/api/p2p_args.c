/* api/p2p_args.c — see p2p_args.h. */
#include "api/p2p_args.h"
#include "dt/dt.h"

int loom__p2p_check_all(const char *fn, MPI_Comm comm, const void *buf, MPI_Count count,
                        MPI_Datatype type, int peer, int tag, enum loom_p2p_dir dir,
                        struct loom_comm **out)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (__builtin_expect(c == NULL, 0))
        return loom__api_error(comm, fn, MPI_ERR_COMM, "invalid communicator");
    if (count < 0)
        return loom__api_error(comm, fn, MPI_ERR_COUNT, "count %lld is negative", (long long)count);
    int size = c->sh->peer_size; /* the remote group's on an intercommunicator */
    const char *what = c->sh->remote ? "remote group" : "communicator";
    if (peer == MPI_PROC_NULL && count == 0 && type == MPI_DATATYPE_NULL) {
        /* accepted, as MPICH does */
    } else {
        const char *why;
        if (__builtin_expect(loom__dt_check_usable(type, &why) != 0, 0))
            return loom__api_error(comm, fn, MPI_ERR_TYPE, "%s", why);
        if (buf == NULL && count > 0 && type->size > 0 && type->true_lb == 0)
            return loom__api_error(comm, fn, MPI_ERR_BUFFER,
                                   "buffer is NULL with count %lld", (long long)count);
    }
    if (dir == LOOM_P2P_SEND) {
        if (peer != MPI_PROC_NULL && (peer < 0 || peer >= size))
            return loom__api_error(comm, fn, MPI_ERR_RANK,
                                   "destination %d out of range (%s size %d)", peer,
                                   what, size);
        if (tag < 0 || tag > LOOM_TAG_UB)
            return loom__api_error(comm, fn, MPI_ERR_TAG, "tag %d out of range 0..%d", tag,
                                   LOOM_TAG_UB);
    } else {
        if (peer != MPI_PROC_NULL && peer != MPI_ANY_SOURCE && (peer < 0 || peer >= size))
            return loom__api_error(comm, fn, MPI_ERR_RANK,
                                   "source %d out of range (%s size %d)", peer, what, size);
        if (tag != MPI_ANY_TAG && (tag < 0 || tag > LOOM_TAG_UB))
            return loom__api_error(comm, fn, MPI_ERR_TAG, "tag %d out of range 0..%d", tag,
                                   LOOM_TAG_UB);
    }
    *out = c;
    return MPI_SUCCESS;
}

void loom__p2p_fill(struct loom_request *r, struct loom_comm *c, MPI_Comm comm, void *buf,
                    MPI_Count count, MPI_Datatype type, int peer, int tag)
{
    r->comm = comm;
    /* sends match in the destination's queues: on an intercommunicator, the remote group's */
    r->ctx = r->kind == LOOM_REQ_RECV ? c->sh->pt2pt : c->sh->peer_pt2pt;
    r->me = c->rank;
    r->buf = buf;
    r->count = (size_t)count;
    r->type = type;
    r->peer = peer;
    r->tag = tag;
}

int loom__p2p_request_error(const char *fn, struct loom_request *r)
{
    if (r->error == MPI_SUCCESS)
        return MPI_SUCCESS;
    return loom__api_error(r->comm, fn, r->error,
                           "message from rank %d (tag %d) truncated: %lld bytes fit of a "
                           "longer message",
                           r->status.MPI_SOURCE, r->status.MPI_TAG,
                           (long long)r->status.loom_bytes);
}

void loom__p2p_mark_received(struct loom_request *r, MPI_Comm comm)
{
    r->kind = LOOM_REQ_DONE;
    r->comm = comm;
    atomic_store_explicit(&r->flags, LOOM_REQ_COMPLETE, memory_order_relaxed); /* not yet
                                                                                 handed out */
}

void loom__p2p_mark_done(struct loom_request *r, MPI_Comm comm, int source)
{
    loom__p2p_status_empty(&r->status, source);
    loom__p2p_mark_received(r, comm);
}

struct loom_request *loom__p2p_done_request(MPI_Comm comm, int source)
{
    struct loom_request *r = loom__req_new(LOOM_REQ_DONE);
    if (r)
        loom__p2p_mark_done(r, comm, source);
    return r;
}
