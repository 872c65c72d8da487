/* p2p/request.h — requests and how they complete.
 *
 * A request is owned by one rank (the one that started it; `owner`). Another rank's thread
 * may complete it: the thread that matches a message and moves its data. Completion is one
 * atomic word, `flags`:
 *   LOOM_REQ_COMPLETE  set by the completer after writing `status` (release);
 *   LOOM_REQ_RELEASED  set by the owner when the user lets go of a request still in flight
 *                      (MPI_Request_free).
 * Whoever sets the second of the two bits frees a heap request. A request that lives on the
 * stack of a blocking call is never RELEASED: the call waits for COMPLETE and returns, so the
 * completer must not touch the request after setting COMPLETE (it reads `owner` first).
 * After COMPLETE, status/error are read-only. One request has no owner and is never written:
 * loom__req_sent, complete from load, which every send complete at birth returns (below).
 *
 * Fields other than `flags`, `next` and the status are written by the owner before the
 * request is published (queued for matching) and read-only while it is in flight. `next`
 * belongs to the matching queue the request sits in (under that queue's lock). */
#ifndef LOOM_P2P_REQUEST_H
#define LOOM_P2P_REQUEST_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "mpi.h"
#include "core/object.h"

struct loom_rank;
struct loom_datatype;
struct loom_p2p_ctx;
struct loom_request;

enum loom_req_kind {
    LOOM_REQ_SEND = 1,
    LOOM_REQ_RECV,
    LOOM_REQ_DONE, /* complete at birth: PROC_NULL, buffered or eager sends, and an
                      MPI_Irecv that took its message from a cell as it started */
    LOOM_REQ_COLL, /* a nonblocking collective (coll/): completes when its schedule ends */
    LOOM_REQ_GREQ, /* a generalized request (p2p/grequest.h): completed by the user */
    LOOM_REQ_PSEND, /* a partitioned send (p2p/part.h): persistent; on_complete_arg is its */
    LOOM_REQ_PRECV, /* ... or receive's channel; completes when every partition has moved */
    LOOM_REQ_PAIR, /* MPI_Isendrecv(_replace): completed by the last of its send and its
                      receive (api/p2p_isendrecv.c) */
    LOOM_REQ_FLUSH, /* MPI_Buffer_iflush and the communicator's and session's: completed when
                       the older buffered sends have left the owner's buffer (p2p/bsend.c) */
    LOOM_REQ_NETSEND, /* a send from another node process waiting to be received: the
                         network's stand-in for its request (net/net_p2p.c), never a user's */
    LOOM_REQ_RMA,  /* MPI_Rput, MPI_Rget and the request-based accumulates: completed when
                      the operation's data has moved (rma/xfer.c), often at birth */
};

enum loom_send_mode { LOOM_SEND_STANDARD = 0, LOOM_SEND_SYNC, LOOM_SEND_READY,
                      LOOM_SEND_BUFFERED };

enum { LOOM_REQ_COMPLETE = 1u, LOOM_REQ_RELEASED = 2u };

/* An unexpected message waiting in a receiver's queue: eager data follows the struct
 * (sreq == NULL), or the sender's request describes the data (rendezvous, synchronous). */
struct loom_envelope {
    struct loom_envelope *next; /* under the receiving queue's lock */
    int source, tag;            /* comm rank of the sender, tag */
    size_t bytes;               /* size of the message */
    struct loom_request *sreq;  /* the sender's request, or NULL for eager */
    /* eager data follows, aligned for any type */
};
#define LOOM_ENVELOPE_DATA(e) ((void *)((char *)(e) + sizeof(struct loom_envelope)))

struct loom_request {
    struct loom_object obj;      /* LOOM_MAGIC_REQUEST */
    uint8_t kind;                /* enum loom_req_kind */
    uint8_t heap;                /* 1 if malloc'ed (freed when done); 0 if never freed: on a
                                    caller's stack, inside one of loom's structures (a
                                    schedule's operation), or loom__req_sent */
    uint8_t persistent;          /* made by *_init; survives completion until freed */
    uint8_t active;              /* persistent: started and not yet completed by a wait/test */
    uint8_t mode;                /* enum loom_send_mode */
    uint8_t cancelled;           /* set by the owner's MPI_Cancel under the queue lock */
    uint8_t netwatch;            /* 1: counted by the network thread until complete (net.h,
                                    loom__net_watch_begin); set by the owner before the
                                    request is published, read by its completer */
    uint8_t unseen;              /* 1 while the MPI_Irecv that made it runs: nobody else
                                    knows it, so if that call completes it, it needs no
                                    read-modify-write and no wake-up
                                    (loom__req_complete_unseen). The owner's thread only */
    _Atomic uint32_t flags;      /* LOOM_REQ_COMPLETE | LOOM_REQ_RELEASED */
    struct loom_rank *owner;     /* notified on completion */
    MPI_Comm comm;               /* the user's handle, for error reporting */
    struct loom_p2p_ctx *ctx;    /* where it matches */
    /* the operation */
    void *buf;
    size_t count;
    struct loom_datatype *type;
    int peer;                    /* dest (send) or source (recv), comm rank or wildcard */
    int tag;
    int me;                      /* the owner's rank in the communicator */
    /* results, written by the completer before COMPLETE */
    MPI_Status status;
    int error;                   /* MPI_SUCCESS or MPI_ERR_TRUNCATE */
    /* links */
    struct loom_request *next;   /* posted-receive queue (under its lock) */
    struct loom_envelope env;    /* a send's envelope when it waits in the receiver's queue */
    void (*on_complete)(struct loom_request *r); /* run when the request is destroyed (bsend
                                                    space, ...): by the owner side when it is
                                                    retired, or, for a request released in
                                                    flight, by the thread that completes it;
                                                    may be NULL */
    void *on_complete_arg;
    /* NULL, or how the owner drives the operation itself from a wait or test (collectives
     * advance their schedule): returns 1 once the request is complete; with block, returns
     * only then. Set before the request is published; owner's threads only. */
    int (*drive)(struct loom_request *r, int block);
};

/* 1 once the request's operation is complete (acquire: its status and data are visible). */
static inline int loom__req_is_complete(struct loom_request *r)
{
    return (atomic_load_explicit(&r->flags, memory_order_acquire) & LOOM_REQ_COMPLETE) != 0;
}

/* The request of every send complete at birth (its message went into a cell, ring.h): one
 * object, predefined, returned by each such MPI_Isend and MPI_Irsend instead of a request of
 * its own, as MPICH returns one completed request for its eager sends. Why: making, filling,
 * retiring and freeing a request per message was a fifth of what a window of small
 * nonblocking sends cost its sender in instructions (docs/p2p.md, "One request for the sends
 * complete at birth"). Complete (kind LOOM_REQ_DONE, empty status) and never written after load: any
 * thread of any rank may read it; a wait or test on it retires nothing (`heap` 0, no type,
 * no on_complete), a free lets it be (loom__req_release), a cancel does nothing (it is a
 * complete send), and a stale copy of its handle names it still, a complete request (as a
 * stale handle to a reused request may in MPICH). It knows no communicator (`comm` NULL): an
 * error about it (MPI_Start given it) goes to MPI_COMM_WORLD's handler, as one about a handle
 * that names no request does. */
extern struct loom_request loom__req_sent;

/* A new heap request owned by the calling rank, or NULL. */
struct loom_request *loom__req_new(enum loom_req_kind kind);
/* Fill a stack request (blocking calls). */
void loom__req_init_stack(struct loom_request *r, enum loom_req_kind kind);
/* Called by the completer: publish status, set COMPLETE, wake the owner, and free the
 * request if the owner has already released it. r must not be touched afterwards. */
void loom__req_complete(struct loom_request *r);
/* loom__req_complete for a request that the call which made it completes before handing it
 * out (`unseen`): no other thread can have released it or wait for it. */
void loom__req_complete_unseen(struct loom_request *r);
/* The owner lets go of a request: frees it now if complete, else marks it RELEASED so its
 * completer frees it. Runs on_complete when the request is complete. */
void loom__req_release(struct loom_request *r);
/* The owner throws away a request it never published (its start failed): frees it now. */
void loom__req_discard(struct loom_request *r);
/* The owner is done with a complete request (after wait/test): retire it (on_complete, type
 * reference) and free it unless persistent. */
void loom__req_retire(struct loom_request *r);
/* Give the requests kept for reuse back to malloc (request.c); at the end of the job, once no
 * rank runs. */
void loom__req_pool_drain(void);
/* Wait until r completes (spin, yield, sleep on the owner's event). */
void loom__req_wait(struct loom_request *r);
#endif
