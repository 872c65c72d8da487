/* p2p/p2p.h — point-to-point messaging between rank threads (private header).
 *
 * Ranks share one address space, so a message moves in one copy, from the sender's buffer to
 * the receiver's, by whichever of the two threads finds the match:
 *  - a send that finds its receive posted copies straight into the receive buffer;
 *  - an unmatched send of at most LOOM_EAGER_MAX bytes is copied into an eager cell and
 *    completes at once (the only case of two copies);
 *  - a larger (or synchronous) unmatched send leaves its own request in the receiver's queue
 *    as a descriptor of its buffer; the receive copies from it and completes both.
 * Matching state is per receiving rank and context (struct loom_match), each with its own
 * lock: no lock is shared by two receivers, and none is global. */
#ifndef LOOM_P2P_P2P_H
#define LOOM_P2P_P2P_H
#include <stddef.h>
#include <stdint.h>
#include "mpi.h"
#include "core/lock.h"
#include "p2p/request.h"

struct loom_comm_shared;
struct loom_comm;
struct loom_rank;
struct loom_datatype;

/* The largest tag loom accepts (the value of the MPI_TAG_UB attribute). */
#define LOOM_TAG_UB 0x7fffffff

/* What the first posted receive asks for, kept beside the queue's lock (below). */
struct loom_match_head {
    int peer, tag;              /* LOOM_HEAD_STALE in peer: not known, read the request */
    void *buf;
    size_t count;
    struct loom_datatype *type;
};
#define LOOM_HEAD_STALE INT32_MIN

/* The receive side of one rank on one context.
 * Lock: `lock` protects both queues, every `next` link in them and `head`. Any rank's thread
 * may take it (senders to append/match, the receiver to post/match/probe/cancel); it is held
 * only to search and relink, never while data is copied or a request completed.
 * Its first line holds everything a sender needs to match the first posted receive and copy
 * into it: the lock, the posted queue and a copy of that receive's source, tag and buffer
 * (`head`). A sender that takes it then reads nothing of the receiver's but this line before it
 * copies; matched through the request's own fields, it fetched the request's line after the
 * queue's, one line transfer after the other (docs/p2p.md, "The posted receive's match in the
 * queue's line"). */
struct loom_match {
    struct loom_lock lock;
    _Atomic int nposted, nqueued;       /* lengths of the two queues, written under lock; read
                                           without it by a receive taking a cell (it needs the
                                           lock only when either is nonzero), by a receive
                                           spinning on a ring (a change of nqueued: a message
                                           came another way) and by MPI_T (p2p/queues.c) */
    struct loom_request *posted;        /* posted receives, in the order they were posted */
    struct loom_request **posted_tail;
    struct loom_match_head head;        /* under lock: `posted`'s fields, or STALE. Filled by
                                           whoever posts the first receive or next needs it;
                                           made STALE whenever `posted` changes otherwise */
    /* second line */
    struct loom_envelope *unexpected;   /* unmatched sends, in the order they arrived */
    struct loom_envelope **unexpected_tail;
    struct loom_rank *rank;             /* the receiving rank (read-only) */
} __attribute__((aligned(64)));
_Static_assert(offsetof(struct loom_match, unexpected) == 64,
               "a sender matching the first posted receive reads one line of its queue");

/* Matching state for all members of a communicator on one context. */
struct loom_p2p_ctx {
    int size;
    uint64_t net_id;                    /* how other node processes name it: the context id
                                           times two, plus one for the collectives' context
                                           (read-only) */
    struct loom_p2p_ctx *prev, *next; /* every live context, for MPI_T (p2p/queues.c): under
                                         that file's lock */
    const int *sender_world;            /* world rank of each rank that sends into this
                                           context, by the rank its messages carry: the
                                           communicator's own ranks, or the remote group's on
                                           an intercommunicator's user context (read-only
                                           once the communicator is published) */
    struct loom_match match[];          /* [size], indexed by comm rank (in the same block: a
                                           sender finds its receiver's queue without loading
                                           a pointer first) */
};

/* Made by the member that creates the communicator's shared half, before the other members
 * can see it; freed with the shared half. NULL on ENOMEM. */
struct loom_p2p_ctx *loom__p2p_ctx_new(struct loom_comm_shared *sh);
void loom__p2p_ctx_free(struct loom_p2p_ctx *ctx);

/* The list of live contexts (p2p/queues.c), so MPI_T can show a rank's queue lengths: a
 * context is added when made and removed before it is freed. Any thread. */
void loom__p2p_ctx_register(struct loom_p2p_ctx *ctx);
void loom__p2p_ctx_unregister(struct loom_p2p_ctx *ctx);
/* The lengths of world rank `rank`'s posted-receive and unexpected-message queues, summed over
 * every context (collectives' hidden ones included; messages still in a ring of cells are not
 * in them): a snapshot, each queue read once without its lock. Any thread. */
void loom__p2p_queue_lengths(int rank, unsigned long long *posted,
                             unsigned long long *unexpected);

/* Eager threshold in bytes (LOOM_EAGER_MAX), set once at start. */
extern size_t loom__p2p_eager_max;
/* Chunk size of large copies (LOOM_COPY_CHUNK), whether they become tasks (not under
 * LOOM_PROGRESS=inline) and whether those are shareable (LOOM_COPY_SHARE); set once at
 * start. */
extern size_t loom__p2p_copy_chunk;
extern int loom__p2p_copy_tasks;
extern int loom__p2p_copy_share;

/* Start the send or receive that r describes (fields of request.h filled, peer not PROC_NULL).
 * The request may be complete on return. 0 or a negative loom code (LOOM_ERR_NOMEM). */
int loom__p2p_start_send(struct loom_request *r);
int loom__p2p_start_recv(struct loom_request *r);
/* loom__p2p_start_recv for a receive from a given source whose ring its caller has just found
 * without a cell ready (`cells` 0: the rings are not looked at again; a cell that lands later
 * is matched against the posted receive, as after any look) or with one (1). */
int loom__p2p_start_recv_looked(struct loom_request *r, int cells);
/* Receive the message of an envelope already taken from its queue (matched probe). */
void loom__p2p_recv_envelope(struct loom_request *r, struct loom_envelope *e);

/* Look for a message from source/tag (wildcards allowed) in the calling rank's queue on ctx.
 * When found: fills st (unless MPI_STATUS_IGNORE) and returns 1; with `take`, also unlinks it
 * into *taken (a matched probe). 0 if none. */
int loom__p2p_probe(struct loom_p2p_ctx *ctx, int me, int source, int tag, MPI_Status *st,
                    int take, struct loom_envelope **taken);
/* Match a message drained from a ring (its ring's consumer lock held; inbox.h) as its sender
 * would have: to the first posted receive it matches, else to `want` (a receive being started,
 * not yet posted; NULL for none) if no older queued message matches that one, else into the
 * unexpected queue as an eager message. Its first cell (the envelope) is at position t of
 * ring g; its data is copied straight from the cells into the receive or the queued copy.
 * 1 if it completed `want`, 0 if it was taken otherwise, -1 if there was no memory to queue
 * it (it stays in the ring). */
struct loom_cell;
struct loom_ring;
int loom__p2p_match_cell(struct loom_ring *g, uint32_t t, struct loom_request *want);

/* A blocking receive from `source` (not a wildcard) of rank `m`, into a buffer of `capacity`
 * bytes, that found cell c at the head of the ring from that source (consumer lock held): 1
 * if the cell is the message it must receive (matches, fits, and no posted receive or queued
 * message comes first; the caller then copies it out and releases its cells), else 0 (the
 * caller takes the general path). */
int loom__p2p_cell_claims(const struct loom_cell *c, struct loom_match *m, int source, int tag,
                          size_t capacity);
/* The receives' fast path, for a buffer of at most loom__cell_max bytes: receive from
 * `source` (not a wildcard) straight out of the ring of cells from it. With `wait` (MPI_Recv)
 * it spins a little for the cell; without (MPI_Irecv) it takes only a cell already there, and
 * the receive is then complete at birth. ctx is the receiving communicator's context, me the
 * receiver's rank in it and me_world its world rank. 1 if received (status in *st unless st
 * is NULL); else the caller starts a request: after 0 (no cell was ready in that ring) with
 * loom__p2p_start_recv_looked(r, 0), which need not look again; after -1 (a cell for another
 * receive, or the ring was not looked at) with loom__p2p_start_recv. */
int loom__p2p_recv_cell(struct loom_p2p_ctx *ctx, int me_world, int me, void *buf,
                        size_t count, struct loom_datatype *type, int source, int tag,
                        MPI_Status *st, int wait);

/* A message from another node process for queue m (net/): an eager one is delivered to the
 * first posted receive it matches, else queued with a copy of its data (0, or LOOM_ERR_NOMEM);
 * a request-to-send's stand-in (its env filled) takes the first posted receive it matches,
 * which is returned for the caller to pull into, else is queued (NULL). */
int loom__p2p_net_eager(struct loom_match *m, int source, int tag, const void *data,
                        size_t bytes);
struct loom_request *loom__p2p_net_rts(struct loom_match *m, struct loom_request *standin);

/* Cancel a posted receive still unmatched: 1 if cancelled (then complete), 0 if too late. */
int loom__p2p_cancel_recv(struct loom_request *r);

/* Move the data of a matched message from the send side to the receive side, fill the
 * receive's status, and complete both requests. The one function through which every large
 * message moves (the task engine will cut it into chunks run by other threads). */
void loom__p2p_transfer(struct loom_request *sreq, struct loom_request *rreq);
/* The same, with the receive's buffer given (read by the caller from the queue's line, so
 * that the copy need not wait for the request's line). */
void loom__p2p_transfer_to(struct loom_request *sreq, struct loom_request *rreq, void *buf,
                           size_t count, struct loom_datatype *type);

/* Fill a status: its envelope and byte count (not cancelled). The error field is left alone:
 * calls that return one status never set it (MPI 4.1, section 3.2.5); the request keeps its
 * error in `error`, and the calls that return an array of statuses set it there. */
void loom__p2p_status_set(MPI_Status *st, int source, int tag, size_t bytes);
/* Fill a status for a receive from PROC_NULL / an empty request. */
void loom__p2p_status_empty(MPI_Status *st, int source);
#endif
