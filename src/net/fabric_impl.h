/* net/fabric_impl.h — the inside of a libfabric endpoint (net/fabric.h), shared by its files:
 *   fabric.c       open (fi_getinfo and the objects), close, name, address vector
 *   fabric_msg.c   send slots, sends, receive buffers
 *   fabric_rma.c   exposed memory and reads (cut into pieces, queued when the provider is busy)
 *   fabric_poll.c  the completion queue: the callbacks, errors, what waits to be posted
 *   fabric_preset.c  ofi_rxm's buffer sizes, set before libfabric starts (no state)
 *
 * Lock order (a lock is only taken after the ones above it; none is held across a callback):
 *   rma_lock  >  ep_lock  (fi_read is posted under rma_lock)
 *   slot_lock is a leaf, never held while taking another lock. */
#ifndef LOOM_NET_FABRIC_IMPL_H
#define LOOM_NET_FABRIC_IMPL_H
#include "core/atomic.h"
#include "net/fabric.h"

#include <pthread.h>
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

/* Every context handed to libfabric is one of these, at the start of what it stands for, so
 * that poll tells a receive, a send slot and a piece of a read apart from the completion's
 * op_context alone. Each operation in flight has its own (a read has one per piece): fi is the
 * provider's scratch space for providers that ask for it (FI_CONTEXT, FI_CONTEXT2 modes). */
enum fab_op_kind { FAB_OP_RECV = 1, FAB_OP_SEND, FAB_OP_READ };
struct fab_op {
    struct fi_context2 fi;
    enum fab_op_kind kind;
};

/* A receive buffer: posted at open, handed to on_recv when a message lands in it, posted again
 * by poll. Only the polling thread touches it after open. */
struct fab_recv {
    struct fab_op op;
    char *buf;
    struct fab_recv *next_repost; /* in fabric.repost */
};

/* A send slot. Free (on the free stack), the caller's (between loom__fabric_slot and the send),
 * or in flight (the endpoint's until poll sees its completion). peer and ctx are written by the
 * sending thread before fi_send and read by the polling thread after the completion;
 * libfabric's queue orders the two. */
struct fab_slot {
    struct fab_op op;
    int peer;
    void *ctx; /* loom__fabric_sendv's: on_send_done(ctx) at completion; NULL for a plain send */
};

/* One piece of a read: the context of its fi_read. */
struct fab_read;
struct fab_piece {
    struct fab_op op;
    struct fab_read *read;
};

/* One loom__fabric_read. Every field but the constants (peer, local, len, addr, key, ctx, mr,
 * desc, pieces) is under fabric.rma_lock. Freed by whoever sees the read finished (nothing in
 * flight and all posted, or failed): poll, or the posting thread. */
struct fab_read {
    int peer;
    char *local;
    size_t len;
    uint64_t addr, key;
    void *ctx;
    struct fid_mr *mr; /* the local buffer's registration (FI_MR_LOCAL only), else NULL */
    void *desc;
    size_t posted;     /* bytes posted so far: pieces [0, posted) */
    unsigned inflight; /* pieces posted whose completion poll has not seen */
    int failed;        /* an error was met: post no more, report why once the last piece is in */
    char why[160];
    struct fab_read *prev, *next;  /* fabric.reads: every live read, for close */
    struct fab_read *next_pending; /* fabric.pending: reads with pieces left to post */
    struct fab_piece pieces[];     /* one per piece_max bytes */
};

struct loom_fabric {
    struct loom_fabric_handlers h; /* constant after open */
    struct fi_info *info;          /* the provider's description; constant after open */
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_ep *ep;
    char provider[64];
    size_t msg_max;    /* bytes per slot and per receive buffer; constant after open */
    int blockable;     /* the queue was asked for a descriptor (loom__fabric_open) */
    size_t stride;     /* distance between two slots or two receive buffers (msg_max rounded) */
    size_t piece_max;  /* the most one fi_read moves */
    uint64_t mr_mode;  /* the FI_MR_* bits the provider asks for */
    int serialize;     /* the domain is not FI_THREAD_SAFE: every call on it under ep_lock */
    int wait_fd;       /* the queue's file descriptor to block on (fabric_wait.c), -1 for none;
                          constant after open */
    pthread_mutex_t ep_lock; /* with serialize: every fi_* call on ep, cq, av, mr (order: 2) */

    /* Peers: fi_addr_t of node process i; written once by loom__fabric_insert, before any
     * send or read (the caller's order). */
    fi_addr_t *peers;
    int npeers;

    /* Send slots: nslots buffers of stride bytes at slot_mem, registered as slot_mr. */
    char *slot_mem;
    struct fid_mr *slot_mr;
    void *slot_desc;
    struct fab_slot *slots;
    int nslots;
    pthread_mutex_t slot_lock; /* protects free_slots and nfree (leaf) */
    int *free_slots;           /* a stack of slot indices */
    int nfree;

    /* Receive buffers: nrecv buffers of stride bytes at recv_mem, registered as recv_mr. */
    char *recv_mem;
    struct fid_mr *recv_mr;
    void *recv_desc;
    struct fab_recv *recvs;
    int nrecv;
    /* Buffers whose fi_recv was refused (busy); poll posts them again. Touched by open and
     * then only by the polling thread (one at a time, the caller's rule): no lock. */
    struct fab_recv *repost;

    /* Reads. rma_lock (order: 1) protects reads, pending and the fab_read fields it names. */
    pthread_mutex_t rma_lock;
    struct fab_read *reads;    /* every live read */
    struct fab_read *pending, *pending_tail; /* FIFO of reads with pieces not yet posted */
    /* How often the provider was busy: reads refused whole (loom__fabric_read returned 1) and
     * reads queued with pieces left for poll. Under rma_lock; read by tests. */
    unsigned long reads_busy, reads_queued;

    /* Keys for memory registrations when the provider does not choose them (no
     * FI_MR_PROV_KEY): unique per endpoint. Atomic: any thread exposes. */
    _Atomic uint64_t next_key;
};

/* The domain's serialization (FI_THREAD_DOMAIN providers): around every fi_* call on the
 * endpoint's objects. No-ops for an FI_THREAD_SAFE domain. */
static inline void fab_enter(struct loom_fabric *f)
{
    if (f->serialize)
        pthread_mutex_lock(&f->ep_lock);
}
static inline void fab_leave(struct loom_fabric *f)
{
    if (f->serialize)
        pthread_mutex_unlock(&f->ep_lock);
}

/* Register buf[len] with access flags: *mr, *desc (NULL where the provider has no
 * descriptors). 0 or a negative fi_errno. Any thread. */
int loom__fabric_reg(struct loom_fabric *f, void *buf, size_t len, uint64_t access,
                     struct fid_mr **mr, void **desc);

/* Post receive buffer r. 0, -FI_EAGAIN (busy: queue it on repost), or another fi_errno. */
int loom__fabric_post_recv(struct loom_fabric *f, struct fab_recv *r);
/* Repost the receive buffers that were refused. Polling thread. */
void loom__fabric_repost(struct loom_fabric *f);
/* Put slot i back on the free stack. Any thread. */
void loom__fabric_slot_free(struct loom_fabric *f, int i);

/* Post the pending reads' pieces; finished reads (a hard failure while nothing was in flight)
 * are moved to *done for the caller to report outside rma_lock. Polling thread, rma_lock held. */
void loom__fabric_post_pending(struct loom_fabric *f, struct fab_read **done);
/* One of read r's pieces completed (ok, or failed with why). Returns 1 if r is finished: the
 * caller reports it with loom__fabric_read_finish after dropping rma_lock. rma_lock held. */
int loom__fabric_read_piece_done(struct loom_fabric *f, struct fab_read *r, const char *why);
/* Report a finished read (on_read_done or on_error) and free it. No lock held. */
void loom__fabric_read_finish(struct loom_fabric *f, struct fab_read *r);
/* Free every live read without reporting it (close). */
void loom__fabric_reads_free(struct loom_fabric *f);

/* loom__fabric_open with a given domain threading level first (FI_THREAD_SAFE in
 * loom__fabric_open) and FI_MR_* bits to handle as if the provider had asked for them (0 in
 * loom__fabric_open). Tests use FI_THREAD_DOMAIN to run the serialized path, and FI_MR_LOCAL to
 * run the registration of local buffers, on providers that need neither. */
int loom__fabric_open_with(size_t msg_max, int nrecv, int nslots, int blockable,
                           const struct loom_fabric_handlers *h, int threading, uint64_t mr_extra,
                           struct loom_fabric **out, char *err, size_t errlen);
#endif
