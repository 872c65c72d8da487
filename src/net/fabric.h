/* net/fabric.h — one libfabric endpoint of a node process: messages and RMA reads.
 *
 * A node process opens one reliable-datagram endpoint (FI_EP_RDM) with the provider that
 * FI_PROVIDER names (libfabric's own variable; unset, libfabric's first choice that has the
 * capabilities), with send/receive of messages and RMA reads (FI_MSG | FI_RMA | FI_READ |
 * FI_REMOTE_READ). Peers are node processes, numbered 0..P-1 as PMI numbers them: the address
 * vector holds them in that order, so a peer's fi_addr_t is its number.
 *
 * Messages are at most loom__fabric_msg_max() bytes and are sent from send slots the endpoint
 * owns (registered where the provider needs it): get a slot, write the message into it, send
 * it; the slot goes back to the endpoint when the send completes. Receives land in buffers the
 * endpoint keeps posted; each arriving message is handed to on_recv and its buffer reposted
 * when on_recv returns (on_recv copies what it keeps). RDM messages carry no sender: the
 * caller puts its own number in what it sends.
 *
 * Threads: any thread may take slots and post sends and reads at the same time (the domain is
 * FI_THREAD_SAFE, or the endpoint serializes with a lock of its own where the provider offers
 * less); loom__fabric_poll is called by one thread at a time (the caller's rule: net/ keeps a
 * poll lock) and runs the callbacks on that thread. */
#ifndef LOOM_NET_FABRIC_H
#define LOOM_NET_FABRIC_H
#include <stddef.h>
#include <stdint.h>

struct loom_fabric;

/* What loom__fabric_poll reports. Each is called on the polling thread; none may call
 * loom__fabric_poll. A callback may take slots and post sends and reads. */
struct loom_fabric_handlers {
    void *arg;
    /* A message arrived: its bytes, valid until the callback returns. */
    void (*on_recv)(void *arg, const void *msg, size_t len);
    /* A read posted with this ctx has landed in its local buffer. */
    void (*on_read_done)(void *arg, void *ctx);
    /* A send or read failed (peer gone, unreachable...): ctx is the read's or the
     * loom__fabric_sendv's ctx, NULL for a plain send; why is libfabric's text; peer is the
     * node process it was for, or -1. */
    void (*on_error)(void *arg, void *ctx, int peer, const char *why);
    /* The provider is done with the data of loom__fabric_sendv(..., ctx) (sent, or copied
     * where it copies): the caller may reuse it. Needed only by callers of sendv. */
    void (*on_send_done)(void *arg, void *ctx);
};

/* Before the first libfabric call, while the process has one thread (net/fabric_preset.c):
 * size ofi_rxm's bounce buffers to messages of msg_max bytes, unless the user sized them. */
void loom__fabric_preset(size_t msg_max);
/* ofi_rxm's bounce buffer in bytes, as it will read it (FI_OFI_RXM_BUFFER_SIZE or its
 * default): a message up to this size crosses rxm in one piece. */
size_t loom__fabric_rxm_buffer(void);

/* Open the endpoint: fabric, domain, address vector, completion queue, endpoint, and
 * `nrecv` receive buffers of msg_max bytes each posted; `nslots` send slots of msg_max bytes.
 * msg_max is lowered to what the provider allows (loom__fabric_msg_max tells the result).
 * blockable: give the queue a descriptor to block on (loom__fabric_wait) where the provider
 * has one; it costs a signal per completion (over tcp;ofi_rxm a socket write and read, about
 * 0.7 µs of a message's latency), so a caller that never blocks asks for none (0).
 * 0, or -1 with a one-line reason naming the provider (unknown FI_PROVIDER, no provider with
 * the capabilities, ...). */
int loom__fabric_open(size_t msg_max, int nrecv, int nslots, int blockable,
                      const struct loom_fabric_handlers *h, struct loom_fabric **out, char *err,
                      size_t errlen);
void loom__fabric_close(struct loom_fabric *f);

/* The provider's name ("tcp;ofi_rxm", ...) and the largest message. */
const char *loom__fabric_provider(const struct loom_fabric *f);
size_t loom__fabric_msg_max(const struct loom_fabric *f);

/* This endpoint's address: its length, copied into buf when len is enough. */
size_t loom__fabric_name(struct loom_fabric *f, void *buf, size_t len);
/* Insert every node process's address, in node order (names: n addresses of namelen bytes
 * each, this process's own among them). 0 or -1. */
int loom__fabric_insert(struct loom_fabric *f, const void *names, int n, size_t namelen,
                        char *err, size_t errlen);

/* A send slot of msg_max bytes, or NULL when all are in flight (poll, then try again). */
void *loom__fabric_slot(struct loom_fabric *f);
/* Give back a slot that was not sent. */
void loom__fabric_unslot(struct loom_fabric *f, void *slot);
/* Send the first len bytes of a slot to node `peer`; the slot is the endpoint's again (on
 * completion, or now if the send fails). 0, 1 if the provider is busy (nothing was sent: the
 * slot is still the caller's; poll and send again), -1 on error (slot returned, reason in
 * err). */
int loom__fabric_send(struct loom_fabric *f, int peer, void *slot, size_t len, char *err,
                      size_t errlen);
/* 1 if loom__fabric_sendv may be used: the provider takes a message in two pieces and reads
 * memory that was never registered (no FI_MR_LOCAL). */
int loom__fabric_can_sendv(const struct loom_fabric *f);
/* Send the first hlen bytes of a slot followed by data[len], read where it lies rather than
 * copied into the slot (hlen + len at most msg_max): a message's copy saved, at the price of
 * data staying the provider's until on_send_done(ctx). Returns as loom__fabric_send; after a
 * 0, on_send_done or on_error (with ctx) comes exactly once. Only where can_sendv says so. */
int loom__fabric_sendv(struct loom_fabric *f, int peer, void *slot, size_t hlen, const void *data,
                       size_t len, void *ctx, char *err, size_t errlen);

/* Registered memory that peers may read. key and addr are what a peer passes to
 * loom__fabric_read (addr is the buffer's address, or 0 where the provider addresses by
 * offset). */
struct loom_fabric_mr {
    uint64_t key;
    uint64_t addr;
    void *handle; /* the endpoint's */
};
int loom__fabric_expose(struct loom_fabric *f, const void *buf, size_t len,
                        struct loom_fabric_mr *mr, char *err, size_t errlen);
void loom__fabric_unexpose(struct loom_fabric *f, struct loom_fabric_mr *mr);

/* Read len bytes at (addr, key) of node `peer` into local[len]; on_read_done(ctx) once all of
 * it has landed (the endpoint cuts it where the provider's limit asks and registers `local`
 * where the provider needs it). 0, 1 if busy (nothing posted: poll and try again), -1 on
 * error. */
int loom__fabric_read(struct loom_fabric *f, int peer, void *local, size_t len, uint64_t addr,
                      uint64_t key, void *ctx, char *err, size_t errlen);

/* Sends and reads posted and not yet completed (a node process that ends waits for 0: with
 * manual progress nothing leaves unless the queue is read). Any thread; a snapshot. */
int loom__fabric_inflight(const struct loom_fabric *f);

/* Block until the completion queue has something, other_fd (-1: none) is readable, or ns
 * nanoseconds pass (0: no bound); 1 when other_fd was found readable (the caller drains it),
 * else 0 when it blocked or found something to read at once (the caller polls either way),
 * -1 when the queue has no descriptor (the provider offers none, or it was opened not
 * blockable).
 * Any thread, outside loom__fabric_poll. */
int loom__fabric_wait(struct loom_fabric *f, int other_fd, long ns);
/* 1 if the queue has a descriptor loom__fabric_wait can block on. */
int loom__fabric_can_block(const struct loom_fabric *f);

/* Read the completion queue once: run the callbacks of what completed and repost receive
 * buffers. Returns the number of completions handled (0 if none), -1 if the queue itself
 * failed (reason in err). One thread at a time. */
int loom__fabric_poll(struct loom_fabric *f, char *err, size_t errlen);
#endif
