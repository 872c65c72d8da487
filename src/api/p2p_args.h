/* api/p2p_args.h — argument checks and request set-up shared by the point-to-point calls. */
#ifndef LOOM_API_P2P_ARGS_H
#define LOOM_API_P2P_ARGS_H
#include "api/api.h"
#include "comm/comm.h"
#include "p2p/p2p.h"
#include "dt/dt.h"

enum loom_p2p_dir { LOOM_P2P_SEND, LOOM_P2P_RECV };

/* Check the arguments of a send or receive in MPICH's order (communicator, count, datatype,
 * buffer, rank, tag) and resolve the communicator into *out. MPI_SUCCESS or the error class
 * already reported through the communicator's handler. A receive from MPI_PROC_NULL accepts
 * count 0 with MPI_DATATYPE_NULL, as MPICH does. */
int loom__p2p_check_all(const char *fn, MPI_Comm comm, const void *buf, MPI_Count count,
                        MPI_Datatype type, int peer, int tag, enum loom_p2p_dir dir,
                        struct loom_comm **out);

/* loom__p2p_check_all with its common case inline: a valid rank and tag, a committed type, a
 * buffer, MPI_COMM_WORLD or a live handle. Anything else (errors, MPI_PROC_NULL, a NULL
 * buffer) takes the full check, which accepts or reports it. Why: the full check costs as much
 * as the rest of a small send (a call with nine arguments and the error paths' frame), and
 * a ping-pong pays it on its critical path (docs/benchmarks.md). */
static inline int loom__p2p_check(const char *fn, MPI_Comm comm, const void *buf, MPI_Count count,
                                  MPI_Datatype type, int peer, int tag, enum loom_p2p_dir dir,
                                  struct loom_comm **out)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    int peer_ok = (unsigned)peer < (unsigned)(c ? c->sh->peer_size : 0) ||
                  (dir == LOOM_P2P_RECV && peer == MPI_ANY_SOURCE);
    int tag_ok = (unsigned)tag <= (unsigned)LOOM_TAG_UB ||
                 (dir == LOOM_P2P_RECV && tag == MPI_ANY_TAG);
    if (__builtin_expect(c != NULL && count >= 0 && loom__dt_valid(type) && type->committed &&
                             (buf != NULL || count == 0) && peer_ok && tag_ok,
                         1)) {
        *out = c;
        return MPI_SUCCESS;
    }
    return loom__p2p_check_all(fn, comm, buf, count, type, peer, tag, dir, out);
}
/* Fill r for an operation on communicator c (user handle comm). */
void loom__p2p_fill(struct loom_request *r, struct loom_comm *c, MPI_Comm comm, void *buf,
                    MPI_Count count, MPI_Datatype type, int peer, int tag);
/* Copy a request's status out, unless MPI_STATUS_IGNORE, leaving the caller's error field as
 * it was: calls that return one status never set it (MPI 4.1, section 3.2.5). */
static inline void loom__p2p_status_out(MPI_Status *out, const MPI_Status *st)
{
    if (out != MPI_STATUS_IGNORE && out != NULL) {
        int error = out->MPI_ERROR;
        *out = *st;
        out->MPI_ERROR = error;
    }
}
/* A status (or array of statuses) argument: NULL is MPI_ERR_ARG, reported through comm ("what
 * is NULL"); MPI_STATUS_IGNORE and real statuses pass. Why an error, not "ignore": MPICH
 * reports it, and an array call would otherwise write statuses through NULL + i. */
static inline int loom__p2p_check_status(const char *fn, MPI_Comm comm, const void *status,
                                         const char *what)
{
    if (__builtin_expect(status == NULL, 0))
        return loom__api_error(comm, fn, MPI_ERR_ARG,
                               "%s is NULL (MPI_STATUS%s_IGNORE ignores %s)", what,
                               what[0] == 'a' ? "ES" : "", what[0] == 'a' ? "them" : "it");
    return MPI_SUCCESS;
}
/* Report a request's error (truncation) through its communicator; MPI_SUCCESS if none. */
int loom__p2p_request_error(const char *fn, struct loom_request *r);
/* Make an unpublished request one that is complete at birth (kind DONE, empty status from
 * `source`): for sends done on the spot (a small message put in a cell). */
void loom__p2p_mark_done(struct loom_request *r, MPI_Comm comm, int source);
/* The same for a receive that took its message as it started (MPI_Irecv's cell fast path):
 * the status already in r->status stays. */
void loom__p2p_mark_received(struct loom_request *r, MPI_Comm comm);
/* A heap request complete at birth (sends to MPI_PROC_NULL, buffered sends). */
struct loom_request *loom__p2p_done_request(MPI_Comm comm, int source);
/* Buffered sends and their buffers (api/p2p_bsend.c). */
struct loom_bsend;
/* Start the buffered send s (filled) on c (NULL: only the rank's buffer) in the buffer it uses
 * (p2p/bsend.h); MPI_SUCCESS or the class reported for fn through s->comm. */
int loom__api_bsend_start(const char *fn, const struct loom_request *s, struct loom_comm *c);
/* Set r (a new LOOM_REQ_FLUSH request, not yet returned) to complete once every buffered send
 * started on b so far has left its buffer; at once when none. 0 or LOOM_ERR_NOMEM. */
int loom__api_buffer_iflush_start(struct loom_bsend *b, struct loom_request *r);
/* Start a buffered send (api/p2p_bsend.c): MPI_SUCCESS or the reported class. */
int loom__api_bsend(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, int dest,
                    int tag, MPI_Comm comm);
/* The state of one request, changing nothing (MPI_Request_get_status and its array forms):
 * *active 0 for MPI_REQUEST_NULL or an inactive persistent request (then *flag 1 and an empty
 * status), else 1 with *flag 1 and the status when it is complete (a generalized request's
 * from its query_fn), *flag 0 otherwise. An invalid handle is MPI_ERR_REQUEST. status may be
 * MPI_STATUS_IGNORE. */
int loom__api_request_peek(const char *fn, MPI_Request request, int *active, int *flag,
                           MPI_Status *status);
#endif
