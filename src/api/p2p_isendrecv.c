/* api/p2p_isendrecv.c — MPI_Isendrecv and MPI_Isendrecv_replace (MPI 4.1, section 3.10).
 *
 * The user's request (kind LOOM_REQ_PAIR) stands for two parts: a heap send and a heap
 * receive, started as MPI_Isend and MPI_Irecv start theirs and released at once, as after
 * MPI_Request_free, so that whoever completes a part also destroys it (p2p/request.h). A
 * part's destruction runs part_done (its on_complete hook), on the thread that completed it
 * or, when it completed before its release, on the owner's: the receive first copies its
 * status and error into the user's request, then each part counts itself off, and the last
 * one completes the user's request, which then waits, tests and frees like any other. A part
 * to MPI_PROC_NULL is not started: the pair counts only the parts it has.
 *
 * struct pair is shared by the two parts: `left` is their atomic count; `tmp` (the _replace
 * form's outgoing data, packed aside since the receive overwrites the buffer) belongs to the
 * send part alone, which frees it when the send is done; the user's request's status and error
 * are written by the receive part alone, before its count-off (acq_rel), so the last part's
 * completion (release) publishes them to the owner's acquire. The last part frees the pair.
 * MPI_Cancel on the user's request does nothing: loom cancels neither the send (as for any
 * send) nor the receive once its pair is started, and the request completes normally. */
#include <stdlib.h>
#include "api/p2p_args.h"
#include "core/atomic.h"
#include "dt/dt.h"

struct pair {
    struct loom_request *req; /* the user's request, completed by the last part */
    _Atomic int left;         /* parts not yet done */
    void *tmp;                /* _replace: the packed outgoing data, or NULL; the send's */
};

/* A part's end (on_complete): see the top of the file. */
static void part_done(struct loom_request *part)
{
    struct pair *p = part->on_complete_arg;
    struct loom_request *req = p->req;
    if (part->kind == LOOM_REQ_RECV) {
        req->status = part->status;
        req->error = part->error;
    } else {
        free(p->tmp); /* the send is done with the data */
        p->tmp = NULL;
    }
    /* acq_rel: the last part sees the other's writes (its status) and frees the pair */
    if (atomic_fetch_sub_explicit(&p->left, 1, memory_order_acq_rel) == 1) {
        free(p);
        loom__req_complete(req);
    }
}

/* A heap part for p (not started): its buffer, count and type as the call gives them. */
static struct loom_request *new_part(enum loom_req_kind kind, struct pair *p,
                                     struct loom_comm *c, MPI_Comm comm, void *buf, MPI_Count count,
                                     MPI_Datatype type, int peer, int tag)
{
    struct loom_request *r = loom__req_new(kind);
    if (r == NULL)
        return NULL;
    loom__p2p_fill(r, c, comm, buf, count, type, peer, tag);
    loom__dt_retain(type);
    r->on_complete = part_done;
    r->on_complete_arg = p;
    return r;
}

/* Start the pair of an Isendrecv whose arguments are checked: the send of (sbuf, scount,
 * stype) to dest, the receive into (rbuf, rcount, rtype) from source. tmp (freed here on
 * failure, else when the send is done) is the _replace form's packed data, or NULL: then the
 * send is of its tmp_bytes bytes instead. */
static int start_pair(const char *fn, struct loom_comm *c, MPI_Comm comm, void *sbuf,
                      int scount, MPI_Datatype stype, int dest, int sendtag, void *rbuf,
                      int rcount, MPI_Datatype rtype, int source, int recvtag, void *tmp,
                      size_t tmp_bytes, MPI_Request *request)
{
    if (dest == MPI_PROC_NULL && source == MPI_PROC_NULL) {
        free(tmp);
        struct loom_request *r = loom__p2p_done_request(comm, MPI_PROC_NULL);
        if (r == NULL)
            return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
        *request = r;
        return MPI_SUCCESS;
    }
    struct pair *p = malloc(sizeof *p);
    struct loom_request *req = loom__req_new(LOOM_REQ_PAIR);
    struct loom_request *s = NULL, *r = NULL;
    if (p && req && dest != MPI_PROC_NULL)
        s = tmp ? new_part(LOOM_REQ_SEND, p, c, comm, tmp, 0, MPI_BYTE, dest, sendtag)
                : new_part(LOOM_REQ_SEND, p, c, comm, sbuf, scount, stype, dest, sendtag);
    if (p && req && source != MPI_PROC_NULL)
        r = new_part(LOOM_REQ_RECV, p, c, comm, rbuf, rcount, rtype, source, recvtag);
    if (!p || !req || (dest != MPI_PROC_NULL && !s) || (source != MPI_PROC_NULL && !r))
        goto out_nomem;
    req->comm = comm;
    loom__p2p_status_empty(&req->status, MPI_PROC_NULL); /* what a PROC_NULL receive says */
    p->req = req;
    p->tmp = tmp;
    atomic_init(&p->left, (s != NULL) + (r != NULL));
    if (s) {
        if (tmp)
            s->count = tmp_bytes; /* bytes of MPI_BYTE: the packed data */
        /* The send first: its only failure (no memory for an eager copy) leaves nothing
         * started. */
        int rc = loom__p2p_start_send(s);
        if (rc != 0) {
            s->on_complete = NULL;
            loom__req_discard(s);
            s = NULL;
            if (r) {
                r->on_complete = NULL;
                loom__req_discard(r);
            }
            loom__req_discard(req);
            free(p);
            free(tmp);
            return loom__api_error_code(comm, fn, rc);
        }
    }
    /* From here a part may complete the pair at any time: req is published to the user only
     * after both parts are started, and nobody else holds it. */
    *request = req;
    if (r)
        loom__p2p_start_recv(r);
    if (s)
        loom__req_release(s);
    if (r)
        loom__req_release(r);
    return MPI_SUCCESS;

out_nomem:
    if (s) {
        s->on_complete = NULL;
        loom__req_discard(s);
    }
    if (r) {
        r->on_complete = NULL;
        loom__req_discard(r);
    }
    if (req)
        loom__req_discard(req);
    free(p);
    free(tmp);
    return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
}

int loom__mpi_isendrecv_c(const char *fn, const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                          MPI_Comm comm, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    struct loom_comm *c;
    int rc = loom__p2p_check(fn, comm, sendbuf, sendcount, sendtype, dest, sendtag,
                             LOOM_P2P_SEND, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check(fn, comm, recvbuf, recvcount, recvtype, source, recvtag,
                             LOOM_P2P_RECV, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "request is NULL");
    return start_pair(fn, c, comm, (void *)sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                      recvcount, recvtype, source, recvtag, NULL, 0, request);
}

int loom__mpi_isendrecv_replace_c(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                                  int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
                                  MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    struct loom_comm *c;
    int rc = loom__p2p_check(fn, comm, buf, count, datatype, dest, sendtag, LOOM_P2P_SEND, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check(fn, comm, buf, count, datatype, source, recvtag, LOOM_P2P_RECV,
                             &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "request is NULL");
    /* The outgoing data is packed aside now: the receive may overwrite buf before the send
     * has read it. Freed when the send is done (part_done). */
    void *tmp = NULL;
    size_t bytes = 0;
    if (dest != MPI_PROC_NULL) {
        bytes = loom__dt_stream_size(datatype, (size_t)count);
        tmp = malloc(bytes ? bytes : 1);
        if (tmp == NULL)
            return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
        if (bytes)
            loom__dt_pack(tmp, buf, datatype, (size_t)count, 0, bytes);
    }
    return start_pair(fn, c, comm, buf, count, datatype, dest, sendtag, buf, count, datatype,
                      source, recvtag, tmp, bytes, request);
}
