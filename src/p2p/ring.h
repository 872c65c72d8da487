/* p2p/ring.h — one ring of cells (inbox.h) and the two operations a small message's critical
 * path runs, inline: putting a cell in a ring that has room, and copying a cell's data.
 *
 * Why inline: in a ping-pong of 8 bytes, everything the receiving rank runs between the
 * cell's arrival and the publication of its reply is latency, and calls with eight or nine
 * arguments cost as much as the work (docs/benchmarks.md). The slow halves (making a ring,
 * draining a full one, spinning for a cell) stay in inbox.c.
 *
 * Who may touch what is written in inbox.h; the fields below repeat the protocol. */
#ifndef LOOM_P2P_RING_H
#define LOOM_P2P_RING_H
#include <stdint.h>
#include <string.h>
#include "core/atomic.h"
#include "core/lock.h"
#include "core/prefetch.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "core/stats.h"
#include "p2p/batch.h"
#include "p2p/inbox.h"
#include "p2p/p2p.h"

#define LOOM_RING_MASK (loom__ring_cells - 1u)

_Static_assert(LOOM_CELL_DATA <= 64 && LOOM_CELL_MORE <= 64,
               "loom__cell_copy covers at most 64 bytes");

struct loom_ring {
    struct {
        struct loom_lock lock;
        _Atomic uint32_t head;      /* next position to fill; written under lock, read by
                                       flushes without it */
        _Atomic uint32_t tail_seen; /* a lower bound of cons.tail: any thread may refresh it
                                       (release) with a value it read (acquire) from there,
                                       so a producer that reads it (acquire) may refill the
                                       cells below it: their reads happen before */
        _Atomic uint32_t drained_at; /* cons.tail after the last drain a producer did itself
                                        on a full ring (relaxed: a hint, inbox.c) */
        _Atomic uint32_t published; /* the cells below it are published; those from it to
                                       head are a batch of messages written but not
                                       published (batch.h). Written under lock; read without
                                       it as a hint (relaxed) */
    } __attribute__((aligned(64))) prod;
    struct {
        struct loom_lock lock;
        _Atomic uint32_t tail; /* next position to drain; release after the cell was read */
    } __attribute__((aligned(64))) cons;
    struct loom_cell cells[]; /* [loom__ring_cells] */
};

/* One receiving rank's rings. `from` and `active` only ever gain entries: a ring is made by its
 * sender and installed by CAS into from[sender]; the winner then appends it to active (slot by
 * fetch_add on nactive, pointer by release store), which drainers walk without a lock,
 * skipping a slot whose pointer is not stored yet. */
struct loom_inbox {
    struct loom_ring *_Atomic *from;   /* [nranks], by sender's world rank */
    struct loom_ring *_Atomic *active; /* [nranks], in the order the rings were made */
    _Atomic int nactive;
} __attribute__((aligned(64)));

/* One per rank of this node process (rings join ranks of one address space only), indexed by
 * world rank minus loom__job.first, as is each table of rings in it; set before any rank
 * runs and read-only while they run (inbox.c). */
extern struct loom_inbox *loom__inboxes;

/* The ring from world rank `from` to world rank `dest`, both of this node process, or NULL if
 * none was made yet. */
static inline struct loom_ring *loom__ring_of(int from, int dest)
{
    int first = loom__job.first;
    /* acquire: pairs with the release of the CAS that installed it (its fields initialised) */
    return loom__load_acquire(&loom__inboxes[dest - first].from[from - first]);
}

/* 1 if the cell at the ring's tail is full. Any thread; a hint unless cons.lock is held. */
static inline int loom__ring_ready(struct loom_ring *g)
{
    /* acquire: pairs with the drainer's release of tail (what it matched is visible) */
    uint32_t t = loom__load_acquire(&g->cons.tail);
    /* acquire: pairs with the producer's release of seq (the cell's contents) */
    return loom__load_acquire(&g->cells[t & LOOM_RING_MASK].seq) == t + 1;
}

/* Copy n <= 64 bytes (a cell's payload) with fixed-size moves the compiler inlines (a libc
 * call would cost as much as the rest of the send). */
static inline void loom__cell_copy(unsigned char *d, const unsigned char *s, size_t n)
{
    /* Two moves cover any size from w to 2w bytes when they may overlap. */
    if (n > 16) {
        if (n > 32) {
            memcpy(d, s, 32);
            memcpy(d + n - 32, s + n - 32, 32);
        } else {
            memcpy(d, s, 16);
            memcpy(d + n - 16, s + n - 16, 16);
        }
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

/* Copy bytes [off, off + n) of a message (n <= 64) between a cell's payload and a user
 * buffer: word copies for contiguous types, the datatype engine otherwise. */
static inline void loom__inbox_pack(void *cell, const void *buf, struct loom_datatype *type,
                                    size_t count, size_t off, size_t n)
{
    if (type->contig)
        loom__cell_copy(cell, (const unsigned char *)buf + type->true_lb + off, n);
    else if (n) /* dt_pack writes byte `off` of the stream at its first argument + off */
        loom__dt_pack((unsigned char *)cell - off, buf, type, count, off, n);
}

static inline void loom__inbox_unpack(void *buf, struct loom_datatype *type, size_t count,
                                      const void *cell, size_t off, size_t n)
{
    if (type->contig)
        loom__cell_copy((unsigned char *)buf + type->true_lb + off, cell, n);
    else if (n) /* dt_unpack reads byte `off` of the stream at its fourth argument + off */
        loom__dt_unpack(buf, type, count, (const unsigned char *)cell - off, off, n);
}

/* Piece i of the message of `bytes` whose first cell is at position t of g: piece 0 is the
 * first cell's data (bytes [0, 40)), piece i > 0 continuation cell t + i's payload (bytes
 * [40 + 60 (i - 1), ...)). Returns where it lies; *off and *n say which bytes it holds. The
 * one description of the layout, for the sender, the drainers and the tests. */
static inline unsigned char *loom__cell_piece(struct loom_ring *g, uint32_t t, uint32_t i,
                                              size_t bytes, size_t *off, size_t *n)
{
    if (i == 0) {
        *off = 0;
        *n = bytes < LOOM_CELL_DATA ? bytes : LOOM_CELL_DATA;
        return g->cells[t & LOOM_RING_MASK].data;
    }
    *off = LOOM_CELL_DATA + (size_t)(i - 1) * LOOM_CELL_MORE;
    *n = bytes - *off < LOOM_CELL_MORE ? bytes - *off : LOOM_CELL_MORE;
    return loom__cell_more(&g->cells[(t + i) & LOOM_RING_MASK]);
}

/* Copy the first n bytes (n <= bytes) of the message of `bytes` whose first cell is at
 * position t of g (published: its sequence word was acquired) to dst, contiguous. The lines
 * of its continuation cells are all asked for before any is copied: they then cross from the
 * sender's core together rather than one after the other, and each cell past the first costs
 * a few nanoseconds instead of 10 - 20 (docs/p2p.md). */
static inline void loom__cell_gather(struct loom_ring *g, uint32_t t, size_t bytes, size_t n,
                                     unsigned char *dst)
{
    uint32_t k = loom__cell_count(n);
    for (uint32_t i = 1; i < k; i++)
        __builtin_prefetch(&g->cells[(t + i) & LOOM_RING_MASK], 0);
    for (uint32_t i = 0; i < k; i++) {
        size_t off, len;
        const unsigned char *at = loom__cell_piece(g, t, i, bytes, &off, &len);
        loom__cell_copy(dst + off, at, off + len <= n ? len : n - off);
    }
}

/* loom__cell_unpack for any case (p2p/inbox.c): messages of several cells, derived types. */
void loom__cell_unpack_more(struct loom_ring *g, uint32_t t, size_t bytes, size_t n, void *buf,
                            struct loom_datatype *type, size_t count);

/* Unpack the first n bytes (n <= bytes) of that message into a receive buffer: straight
 * from the cells into a contiguous one, through one piece for the datatype engine. The
 * one-cell message into a contiguous buffer, what a window of small messages receives, is a
 * few moves inline; the rest is out of line, since its stack buffer for the datatype engine
 * kept compilers from inlining any of it (a call and 40 instructions for 8 bytes). */
static inline void loom__cell_unpack(struct loom_ring *g, uint32_t t, size_t bytes, size_t n,
                                     void *buf, struct loom_datatype *type, size_t count)
{
    if (n <= LOOM_CELL_DATA && type->contig)
        loom__cell_copy((unsigned char *)buf + type->true_lb,
                        g->cells[t & LOOM_RING_MASK].data, n);
    else
        loom__cell_unpack_more(g, t, bytes, n, buf, type, count);
}

/* What loom__ring_try_put did. */
enum loom_put {
    LOOM_PUT_FULL = 0,    /* nothing: the ring looked full */
    LOOM_PUT_PUBLISHED,   /* the message is published (with any batch before it) */
    LOOM_PUT_BATCHED,     /* the message joined the ring's unpublished batch */
    LOOM_PUT_BATCH_OPENED /* the message opened a new batch: the caller must check that the
                             receiver is not asleep (loom__batch_opened, batch.h) */
};

/* The message just written at position h of ring g, k cells, (prod.lock held, released here)
 * joins the ring's batch, which starts at p (batch.h). */
static inline __attribute__((always_inline)) enum loom_put
loom__ring_batch_put(struct loom_ring *g, uint32_t h, uint32_t k, uint32_t p)
{
    loom__store_relaxed(&g->prod.head, h + k);
    int opened = p == h;
    if (h + k - p >= loom__batch_cells) {
        /* Full: published now. Its opener looked for sleepers, unless that is this message,
         * which must then wake the receiver as any published message does. */
        loom__batch_publish_locked(g);
        loom__unlock(&g->prod.lock);
        return opened ? LOOM_PUT_PUBLISHED : LOOM_PUT_BATCHED;
    }
    loom__unlock(&g->prod.lock);
    loom__batch_ring = g;
    return opened ? LOOM_PUT_BATCH_OPENED : LOOM_PUT_BATCHED;
}

/* Put a message of `bytes` in k cells (loom__cell_count) into ring g if it has room
 * (prod.lock taken here); with `batch`, the message joins the ring's batch instead of being
 * published (batch.h). */
static inline __attribute__((always_inline)) enum loom_put
loom__ring_try_put(struct loom_ring *g, struct loom_match *to, int source, int tag,
                   const void *buf, size_t count, struct loom_datatype *type, size_t bytes,
                   uint32_t k, int batch)
{
    loom__lock(&g->prod.lock);
    uint32_t h = loom__load_relaxed(&g->prod.head);
    uint32_t p = loom__load_relaxed(&g->prod.published); /* written under the lock we hold */
    /* A message that does not join the batch (not batched, or the batch has no room for its
     * cells) publishes it first: the ring keeps its order. */
    if (__builtin_expect(p != h, 0) && (!batch || h + k - p > loom__batch_cells)) {
        loom__batch_publish_locked(g);
        p = h;
    }
    /* acquire: pairs with the release stores of tail_seen (the cells below it were read) */
    if (h - loom__load_acquire(&g->prod.tail_seen) > loom__ring_cells - k) {
        /* acquire: pairs with the drainer's release of tail (the cell was read) */
        uint32_t t = loom__load_acquire(&g->cons.tail);
        if (h - t > loom__ring_cells - k) {
            loom__unlock(&g->prod.lock);
            return LOOM_PUT_FULL;
        }
        loom__store_release(&g->prod.tail_seen, t); /* read (acquire) from tail */
    }
    /* Continuation cells first: sequence word 0 (relaxed: published by the first cell's
     * release below, like their data). The first cell, which the receiver may be polling,
     * is written last, so that its line leaves the receiver's cache once, just before the
     * message is published. */
    size_t off, n;
    for (uint32_t i = 1; i < k; i++) {
        loom__store_relaxed(&g->cells[(h + i) & LOOM_RING_MASK].seq, 0);
        unsigned char *at = loom__cell_piece(g, h, i, bytes, &off, &n);
        loom__inbox_pack(at, buf, type, count, off, n);
    }
    struct loom_cell *c = &g->cells[h & LOOM_RING_MASK];
    c->bytes = (uint16_t)bytes;
    c->ahead = 0;
    c->source = source;
    c->tag = tag;
    c->to = to;
    unsigned char *first = loom__cell_piece(g, h, 0, bytes, &off, &n);
    loom__inbox_pack(first, buf, type, count, off, n);
    if (batch)
        return loom__ring_batch_put(g, h, k, p);
    loom__store_release(&c->seq, h + 1); /* publishes the cells: pairs with ring_ready/drain */
    loom__store_relaxed(&g->prod.head, h + k);
    loom__store_relaxed(&g->prod.published, h + k);
    /* No prefetch of the next cell: its receiver spins on that line before we write it, so
     * taking it early only makes the receiver fetch it once more (measured, docs/p2p.md). */
    loom__unlock(&g->prod.lock);
    return LOOM_PUT_PUBLISHED;
}

/* loom__inbox_send_slow's contract (inbox.h), inline for a pair whose ring exists and has
 * room; with `batch` (a nonblocking send), the message may be left unpublished in the ring's
 * batch (batch.h). */
static inline __attribute__((always_inline)) int
loom__inbox_send(int from, int dest, struct loom_match *to, int source, int tag, const void *buf,
                 size_t count, struct loom_datatype *type, size_t bytes, int batch)
{
    struct loom_ring *g = loom__ring_of(from, dest);
    if (__builtin_expect(g == NULL, 0))
        return loom__inbox_send_slow(from, dest, to, source, tag, buf, count, type, bytes);
    /* A message of more than half a batch is published at once: no second one would fit
     * beside it, so waiting would only delay it (docs/p2p.md, "Batches"). */
    uint32_t k = loom__cell_count(bytes);
    batch = batch && loom__batching && 2 * k <= loom__batch_cells;
    if (batch && loom__batch_ring != NULL && loom__batch_ring != g)
        loom__batch_publish_mine(); /* one ring batched per thread: the newest */
    switch (loom__ring_try_put(g, to, source, tag, buf, count, type, bytes, k, batch)) {
    case LOOM_PUT_FULL:
        return loom__inbox_send_slow(from, dest, to, source, tag, buf, count, type, bytes);
    case LOOM_PUT_PUBLISHED:
        loom__inbox_sent(from, dest, bytes);
        return 0;
    case LOOM_PUT_BATCH_OPENED:
        loom__batch_opened(g, from, dest, bytes);
        return 0;
    case LOOM_PUT_BATCHED:
        LOOM_STATS_SENT(&loom__job.ranks[from], bytes); /* LOOM_STATS */
        return 0;
    }
    return 0;
}

/* A standard-mode send of a small message (at most loom__cell_max bytes) from rank `me`
 * (world rank me_world) to rank `dest` of ctx, the destinations' context (peer_world: their
 * world ranks; on an intercommunicator, the remote group's): put it in the receiver's ring of
 * cells. 1 if sent (it is complete), 0 if it must take the path of loom__p2p_start_send (too
 * large, cells off, a receiver in another node process, a send to itself with a receive
 * posted, no memory). */
static inline __attribute__((always_inline)) int
loom__p2p_send_cell(struct loom_p2p_ctx *ctx, int me_world, const int *peer_world, int me,
                    const void *buf, size_t count, struct loom_datatype *type, int dest, int tag,
                    int batch)
{
    if (!loom__p2p_cells)
        return 0;
    size_t bytes = loom__dt_stream_size(type, count);
    if (bytes > loom__cell_max)
        return 0;
    /* A cell even when the receive is already posted: its receiver matches it when it drains
     * its rings (in its wait, its test, its next receive), touching only its own queue and
     * request. A sender that matched it would pull the receiver's queue lock, its request and
     * its status into its own cache and push them back, one message after the other: a window
     * of nonblocking sends ran at half the rate (docs/p2p.md, "Message rate"). */
    int dest_world = peer_world[dest];
    if (!loom__rank_is_local(dest_world)) /* no ring to another node process (net/) */
        return 0;
    struct loom_match *to = &ctx->match[dest];
    /* To itself, with a receive posted: the queue is the sender's own, so its sender-matched
     * path completes the receive at once, with no line to spare (as MPICH does). */
    if (dest_world == me_world && loom__load_relaxed(&to->nposted) != 0)
        return 0;
    return loom__inbox_send(me_world, dest_world, to, me, tag, buf, count, type, bytes,
                            batch) == 0;
}
#endif
