/* net/net_impl.h — what the files of net/ share (private): the wire format and the node
 * process's network state.
 *
 * Who touches what:
 *  - `fab` and the layout are written by the main thread at start and end, read-only while
 *    ranks run;
 *  - the endpoint's completion queue is read by one thread at a time: whoever holds
 *    `poll_lock` (taken with a trylock from any wait; a thread that finds it taken goes on
 *    waiting, the holder's dispatch does the work for every rank of the node);
 *  - every send and read is posted under `send_lock`, which also protects the backlog: work
 *    the endpoint could not take at once (no free slot, provider busy), kept in order and
 *    posted again after each poll. While the backlog is not empty new work joins its tail, so
 *    that messages from one node process to another leave in the order they were sent (the
 *    endpoint keeps send-after-send order, FI_ORDER_SAS);
 *  - `byes` counts the other node processes that reached MPI_Finalize (atomic).
 * Lock order: poll_lock, then net_ctx.c's lock, then send_lock, then a matching queue's lock. */
#ifndef LOOM_NET_NET_IMPL_H
#define LOOM_NET_NET_IMPL_H
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "net/fabric.h"

enum loom_net_type {
    LOOM_NET_EAGER = 1, /* envelope + data */
    LOOM_NET_RTS,       /* envelope + where to read the data (addr, key) + the send (cookie) */
    LOOM_NET_FIN,       /* the data of send `cookie` was read: `bytes` of it */
    LOOM_NET_BYE,       /* the sender's ranks are all in MPI_Finalize */
    LOOM_NET_RMA,       /* one-sided communication: a request (`bytes` of payload) */
    LOOM_NET_RMA_REPLY, /* ... and a reply */
};

/* Every network message starts with this. Node processes of one job run the same build, so
 * the layout is the compiler's. */
struct loom_net_hdr {
    uint32_t type;     /* enum loom_net_type */
    int32_t node;      /* the sending node process */
    uint64_t ctx_id;   /* the context (loom_p2p_ctx.net_id) */
    int32_t dest;      /* the receiver's rank in the context */
    int32_t source;    /* the sender's rank in the context */
    int32_t tag;
    uint32_t seq;      /* this message's number among the sender's messages to the
                          receiving node process: the receiver handles them in this order */
    uint64_t bytes;    /* EAGER, RTS: the message's size; FIN: how much was read */
    uint64_t addr, key; /* RTS */
    uint64_t cookie;   /* RTS, FIN: the sender's record of the send */
};

struct loom_net {
    struct loom_fabric *fab;
    size_t eager_max;            /* the largest message sent eagerly over the network */
    size_t inplace_min;          /* eager data of at least this many bytes is sent from the
                                    user's buffer, not copied (net_inplace.c; SIZE_MAX: never);
                                    constant after start */
    pthread_mutex_t poll_lock;
    pthread_mutex_t send_lock;
    struct loom_net_pending *backlog, **backlog_tail; /* under send_lock */
    _Atomic int backlogged;      /* 1 while the backlog is not empty: written under send_lock,
                                    read relaxed by polls, so that a poll with nothing to post
                                    takes no lock (a later poll sees a new backlog) */
    _Atomic unsigned long polls; /* polls made: written under poll_lock, read relaxed by the
                                    network thread (net_watch.c) to see that a waiter polls */
    _Atomic int bye_sent, byes;
    /* Order. A provider keeps send-after-send order only up to its own protocol switches (a
     * large message may be overtaken by a small one behind it), so each message carries a
     * number per (sender, receiver) pair of node processes and the receiver puts them back
     * in order. seq_out: under send_lock. seq_in and held: the polling thread's. */
    uint32_t *seq_out, *seq_in;      /* [nnodes] */
    struct loom_net_held **held;     /* [nnodes]: messages that came early, by number */
    _Atomic int pmi_up;          /* the PMI client is initialized (abort goes through it) */
    int wake_fd;                 /* eventfd that wakes the thread blocked on the endpoint
                                    (net_job.c), -1 for none; set before ranks run */
};
extern struct loom_net loom__net;

/* Post a message of hdr + data[len] to node `peer` (data packed by the caller), or keep it
 * in the backlog. 0 or LOOM_ERR_NOMEM. Takes send_lock. */
int loom__net_post(int peer, const struct loom_net_hdr *h, const void *data, size_t len);
/* The same with data[len] sent from where it lies (loom__fabric_sendv; only from
 * loom__net.inplace_min bytes): 0 with *copied 0 when posted so, loom__net_on_send_done(ctx) then
 * follows once the endpoint is done with data; 0 with *copied 1 when the endpoint was busy and
 * the message was copied into the backlog (data is free now, and no callback comes); or
 * LOOM_ERR_NOMEM. */
int loom__net_post_inplace(int peer, const struct loom_net_hdr *h, const void *data, size_t len,
                           void *ctx, int *copied);
/* Post a read (see fabric.h), or keep it in the backlog. Takes send_lock. */
int loom__net_post_read(int peer, void *local, size_t len, uint64_t addr, uint64_t key,
                        void *ctx);
/* Post what waits in the backlog, in order, until the endpoint is busy. poll_lock held. */
int loom__net_flush_backlog(void);

/* loom__net.inplace_min for endpoint f and eager messages up to eager_max bytes, from
 * LOOM_NET_INPLACE (net_inplace.c). Main thread, at start, before the peers are inserted. */
size_t loom__net_inplace_min(struct loom_fabric *f, size_t eager_max);
/* The network thread (net_watch.c, net.h), main thread only: start it from
 * loom__net_layers_init where the policy asks for it; stop it once no rank runs, before the
 * layers go (loom__net_layers_fini). */
void loom__net_watch_start(void);
void loom__net_watch_stop(void);
/* A message of the wire, once in order (net_p2p.c). */
void loom__net_dispatch(const void *msg, size_t len);
/* The endpoint's callbacks: a message (net_order.c), a landed read (net_p2p.c). */
void loom__net_on_recv(void *arg, const void *msg, size_t len);
void loom__net_on_read_done(void *arg, void *ctx);
/* An eager send posted in place left (net_p2p.c): ctx is its request. */
void loom__net_on_send_done(void *arg, void *ctx);
/* The context of an EAGER or RTS message (net_ctx.c), or NULL when no communicator of this
 * node process has its id yet: then the message (header, and data for EAGER) is kept and
 * delivered when the context is registered, before any later message for it. When found, a
 * reference on its shared half is taken (*held_sh), to drop with loom__comm_shared_release
 * once the message is delivered. */
struct loom_p2p_ctx *loom__net_ctx_find_or_hold(const struct loom_net_hdr *h, const void *data,
                                                struct loom_comm_shared **held_sh);
/* At the job's end (main thread): drop the messages kept for communicators that were never
 * made here or were freed with them unreceived (an erroneous program's), saying how many. */
void loom__net_ctx_fini(void);
/* Hand an EAGER or RTS message to its context's matching (net_p2p.c). */
void loom__net_deliver(struct loom_p2p_ctx *ctx, const struct loom_net_hdr *h, const void *data);
/* A peer failed: say which node process and ranks, and end the job. */
_Noreturn void loom__net_peer_failed(int peer, const char *why);
#endif
