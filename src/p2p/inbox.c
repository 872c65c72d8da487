/* p2p/inbox.c — the rings of cells behind small messages (protocol and locking in inbox.h). */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "core/atomic.h"
#include "core/error.h"
#include "core/event.h"
#include "core/rank.h"
#include "core/stats.h"
#include "core/tls.h"
#include "dt/dt.h"
#include "p2p/ring.h"
#include "p2p/p2p.h"
#include "task/task.h"

int loom__p2p_cells = 1;
uint32_t loom__ring_cells = LOOM_RING_MIN;
size_t loom__cell_max = LOOM_CELL_BYTES(LOOM_RING_MIN / 4);
int loom__ring_limit = 1 << 30;

/* The memory of one ring of `cells` cells. */
static size_t ring_bytes(uint32_t cells)
{
    return sizeof(struct loom_ring) + cells * sizeof(struct loom_cell);
}

uint32_t loom__ring_cells_for(int nlocal)
{
    uint64_t ranks = nlocal > 0 ? (uint64_t)nlocal : 1;
    uint32_t cells = LOOM_RING_MIN;
    while (cells < LOOM_RING_MAX && ranks * ring_bytes(cells * 2) <= LOOM_RING_BUDGET)
        cells *= 2;
    return cells;
}

uint32_t loom__cell_span_for(uint32_t cells)
{
    return cells / 4 < LOOM_CELL_SPAN_MAX ? cells / 4 : LOOM_CELL_SPAN_MAX;
}

int loom__ring_limit_for(uint32_t cells)
{
    return (int)(LOOM_RING_BUDGET / ring_bytes(cells));
}

struct loom_inbox *loom__inboxes; /* [nranks]; the pointer is read-only while ranks run */
static int inbox_ranks;

/* Zeroed memory on lines of its own: every send reads its receiver's table of rings, which
 * must not share a line with anything written while ranks run. NULL on ENOMEM. */
static void *zeroed_lines(size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

int loom__inbox_job_init(void)
{
    int nranks = loom__job.nlocal;
    loom__ring_cells = loom__ring_cells_for(nranks);
    loom__ring_limit = loom__ring_limit_for(loom__ring_cells);
    loom__cell_max = LOOM_CELL_BYTES(loom__cell_span_for(loom__ring_cells));
    loom__batch_cells = loom__cell_span_for(loom__ring_cells);
    loom__inboxes = aligned_alloc(64, sizeof *loom__inboxes * (size_t)nranks);
    if (!loom__inboxes)
        return LOOM_ERR_NOMEM;
    inbox_ranks = nranks;
    for (int i = 0; i < nranks; i++) {
        struct loom_inbox *b = &loom__inboxes[i];
        b->from = zeroed_lines((size_t)nranks * sizeof *b->from);
        b->active = zeroed_lines((size_t)nranks * sizeof *b->active);
        atomic_init(&b->nactive, 0);
        if (!b->from || !b->active) {
            inbox_ranks = i + 1;
            loom__inbox_job_fini();
            return LOOM_ERR_NOMEM;
        }
    }
    return 0;
}

void loom__inbox_job_fini(void)
{
    for (int i = 0; loom__inboxes && i < inbox_ranks; i++) {
        struct loom_inbox *b = &loom__inboxes[i];
        for (int k = 0; b->from && k < inbox_ranks; k++)
            free(loom__load_relaxed(&b->from[k]));
        free(b->from);
        free(b->active);
    }
    free(loom__inboxes);
    loom__inboxes = NULL;
    inbox_ranks = 0;
}

/* The ring from `from` to `dest`, made now (or by another thread of the sender meanwhile), or
 * NULL: no memory, or dest has its loom__ring_limit rings already (the pair then goes without:
 * its messages take the sender-matched path; two racing senders may pass the limit by one). */
static struct loom_ring *ring_make(int from, int dest)
{
    struct loom_inbox *b = &loom__inboxes[dest - loom__job.first];
    if (loom__load_relaxed(&b->nactive) >= loom__ring_limit)
        return loom__ring_of(from, dest); /* another thread of the sender may have made it */
    size_t bytes = ring_bytes(loom__ring_cells);
    struct loom_ring *g = aligned_alloc(64, bytes);
    if (!g)
        return NULL;
    memset(g, 0, bytes);
    atomic_init(&g->prod.head, 0);
    atomic_init(&g->prod.tail_seen, 0);
    atomic_init(&g->prod.published, 0);
    atomic_init(&g->cons.tail, 0);
    for (unsigned i = 0; i < loom__ring_cells; i++)
        atomic_init(&g->cells[i].seq, 0);
    struct loom_ring *expected = NULL;
    if (!loom__cas_acq_rel(&b->from[from - loom__job.first], &expected, g)) {
        free(g); /* another thread of the sender made it first */
        return expected;
    }
    int slot = loom__fetch_add_acq_rel(&b->nactive, 1);
    loom__store_release(&b->active[slot], g); /* pairs with the drainers' acquire */
    return g;
}

/* loom__cell_unpack's cases that are not inline (p2p/ring.h says why). */
void loom__cell_unpack_more(struct loom_ring *g, uint32_t t, size_t bytes, size_t n, void *buf,
                            struct loom_datatype *type, size_t count)
{
    if (n <= LOOM_CELL_DATA) {
        loom__inbox_unpack(buf, type, count, g->cells[t & LOOM_RING_MASK].data, 0, n);
    } else if (type->contig) {
        loom__cell_gather(g, t, bytes, n, (unsigned char *)buf + type->true_lb);
    } else {
        unsigned char flat[LOOM_CELL_MAX];
        loom__cell_gather(g, t, bytes, n, flat);
        loom__dt_unpack(buf, type, count, flat, 0, n);
    }
}

/* A batch is published at once (batch.h), and its oldest message, cell c at position t,
 * says how many cells came with it: ask for their lines together, rather than one after the
 * other as each is taken; and for none past them, which their sender may be writing (a line
 * taken from it then would only move once more). */
static inline void prefetch_batch(struct loom_ring *g, uint32_t t, const struct loom_cell *c)
{
    uint32_t next = t + loom__cell_count(c->bytes);
    for (uint32_t i = 0; i < c->ahead; i++)
        __builtin_prefetch(&g->cells[(next + i) & LOOM_RING_MASK], 0);
}

/* Take the ring's full cells in order and match them (cons.lock held). Stops after the cell
 * that completed `want` (returns 1), or when a cell could not be matched for lack of memory
 * (it stays; a later drain retries). */
static int drain_locked(struct loom_ring *g, struct loom_request *want)
{
    uint32_t t = loom__load_relaxed(&g->cons.tail); /* only drainers write it, under the lock */
    for (;;) {
        struct loom_cell *c = &g->cells[t & LOOM_RING_MASK];
        if (loom__load_acquire(&c->seq) != t + 1) /* pairs with the producer's release */
            return 0;
        uint32_t bytes = c->bytes;
        prefetch_batch(g, t, c);
        int rc = loom__p2p_match_cell(g, t, want);
        if (rc < 0)
            return 0;
        t += loom__cell_count(bytes);
        /* release: the cell has been read; its producer may fill it again */
        loom__store_release(&g->cons.tail, t);
        if (rc > 0)
            return 1;
    }
}

/* 1 if ring g's receiver (rank rk) seems to be draining its rings: its thread waits and no
 * thread of it sleeps, or the ring's tail moved since a producer last drained it itself (a
 * hint: either may be stale). */
static int receiver_drains(struct loom_ring *g, struct loom_rank *rk)
{
    return (loom__load_relaxed(&rk->ring_waiting) > 0 &&
            loom__load_relaxed(&rk->event.sleepers) == 0) ||
           loom__load_relaxed(&g->cons.tail) != loom__load_relaxed(&g->prod.drained_at);
}

/* A producer that found ring g full while its receiver drains: 1 once the receiver has
 * taken half the ring's cells, or some of them within the spin budget of a wait (LOOM_SPIN
 * pauses); 0 if it took none. Why half, and a look every TAIL_LOOK_EVERY pauses rather than
 * after each: a producer that went on as soon as one message's cells were free wrote right
 * behind its receiver, and its looks took the line of the tail, which the receiver writes
 * after every message, from under it; once a window of nonblocking sends no longer made a
 * request each, its sender met a full ring more often, and 256 - 512 byte messages lost 12 -
 * 14 % of their rate to these looks (docs/p2p.md, "One request for the sends complete at
 * birth"). */
enum { TAIL_LOOK_EVERY = 8 };

static int drained_by_receiver(struct loom_ring *g)
{
    /* acquire: pairs with the drainer's release of tail (the cells it passed were read) */
    uint32_t t = loom__load_acquire(&g->cons.tail);
    for (unsigned i = 1; i <= loom__wait_spin; i++) {
        loom__cpu_relax();
        if (i % TAIL_LOOK_EVERY == 0 &&
            loom__load_acquire(&g->cons.tail) - t >= loom__ring_cells / 2)
            return 1;
    }
    return loom__load_acquire(&g->cons.tail) != t;
}

void loom__inbox_sent(int from, int dest, size_t bytes)
{
    LOOM_STATS_SENT(&loom__job.ranks[from], bytes); /* LOOM_STATS */
    loom__event_notify(&loom__job.ranks[dest].event); /* it may sleep in a wait, or probe */
}

int loom__inbox_send_slow(int from, int dest, struct loom_match *to, int source, int tag,
                          const void *buf, size_t count, struct loom_datatype *type,
                          size_t bytes)
{
    struct loom_ring *g = loom__ring_of(from, dest);
    if (!g && !(g = ring_make(from, dest)))
        return LOOM_ERR_NOMEM;
    /* Full. A receiver that is draining its rings (it waits awake, or it has taken cells
     * since we last drained them ourselves: it posts receives, polls) gets a moment to go on,
     * since matching on its side keeps its queue and requests in its cache, and a drain of
     * ours would contend with its own. Otherwise (it computes, sleeps, or lets the moment
     * pass) move its cells to its queues ourselves. Only a lack of memory for them leaves the
     * ring full: then wake it and wait for some. */
    struct loom_rank *rk = &loom__job.ranks[dest];
    uint32_t k = loom__cell_count(bytes);
    for (int tries = 0; !loom__ring_try_put(g, to, source, tag, buf, count, type, bytes, k, 0);
         tries++) {
        if (tries > 0) {
            loom__event_notify(&rk->event);
            sched_yield();
        }
        if (receiver_drains(g, rk) && drained_by_receiver(g))
            continue;
        loom__lock(&g->cons.lock);
        drain_locked(g, NULL);
        loom__store_relaxed(&g->prod.drained_at, loom__load_relaxed(&g->cons.tail));
        loom__unlock(&g->cons.lock);
    }
    loom__inbox_sent(from, dest, bytes);
    return 0;
}

void loom__inbox_flush_pair(int from, int dest)
{
    if (!loom__rank_is_local(from) || !loom__rank_is_local(dest))
        return; /* a pair across node processes has no ring (net/) */
    struct loom_ring *g = loom__ring_of(from, dest);
    if (!g)
        return;
    loom__batch_publish(g, 1); /* a batch goes before the message that takes another way */
    uint32_t h = loom__load_relaxed(&g->prod.head);
    if (h == loom__load_acquire(&g->prod.tail_seen)) /* pairs with its release stores */
        return; /* every cell ever filled has been drained */
    /* acquire: pairs with the drainer's release of tail (its matching is visible) */
    uint32_t t = loom__load_acquire(&g->cons.tail);
    if (t != h) {
        loom__lock(&g->cons.lock);
        drain_locked(g, NULL);
        t = loom__load_relaxed(&g->cons.tail);
        loom__unlock(&g->cons.lock);
    }
    loom__store_release(&g->prod.tail_seen, t); /* read (acquire) from tail: a lower bound */
}

/* Polls of the fast receive between two runs of the task keypoint (a waiting rank still runs
 * other ranks' tasks), and between two pauses: a PAUSE costs about 25 ns on current x86
 * cores, so one after every poll would add half of that to each message's latency on
 * average; one every 8 polls still leaves most of the core to a hyperthread sibling
 * (measured: bench/results/pingpong.md, docs/benchmarks.md). */
#define RECV_KEYPOINT_EVERY 16
#define RECV_PAUSE_EVERY 8

/* The cell at the head of ring g, if it is the message that a receive from `source` with
 * `tag` into (buf, count, type) of queue m must take (loom__p2p_cell_claims): copy it out,
 * free its cells, fill *st (if st is not NULL); 1 if so, else -1 (a cell is there, or was:
 * another drainer took it) and nothing moved. */
static int take_head(struct loom_ring *g, struct loom_match *m, int source, int tag, void *buf,
                     size_t count, struct loom_datatype *type, struct MPI_Status *st)
{
    loom__lock(&g->cons.lock);
    uint32_t t = loom__load_relaxed(&g->cons.tail); /* only drainers write it, under the lock */
    struct loom_cell *c = &g->cells[t & LOOM_RING_MASK];
    if (loom__load_acquire(&c->seq) != t + 1) { /* pairs with the producer's release */
        loom__unlock(&g->cons.lock); /* another drainer took it */
        return -1;
    }
    uint32_t bytes = c->bytes;
    if (!loom__p2p_cell_claims(c, m, source, tag, loom__dt_stream_size(type, count))) {
        loom__unlock(&g->cons.lock);
        return -1;
    }
    prefetch_batch(g, t, c);
    loom__cell_unpack(g, t, bytes, bytes, buf, type, count);
    int source_rank = c->source, got_tag = c->tag;
    /* release: the cells were read; their producer may fill them again */
    loom__store_release(&g->cons.tail, t + loom__cell_count(bytes));
    loom__unlock(&g->cons.lock);
    if (st)
        loom__p2p_status_set(st, source_rank, got_tag, bytes);
    LOOM_STATS_RECEIVED(m->rank, bytes); /* LOOM_STATS */
    return 1;
}

int loom__inbox_recv(int from, int dest, struct loom_match *m, int source, int tag, void *buf,
                     size_t count, struct loom_datatype *type, struct MPI_Status *st, int wait)
{
    struct loom_ring *g = loom__ring_of(from, dest);
    if (!wait)
        return g && loom__ring_ready(g) ? take_head(g, m, source, tag, buf, count, type, st)
                                        : 0;
    /* A blocking receive makes the ring if the pair has none yet: otherwise a receive that
     * comes first would post a request, its sender would deliver to that, and the pair would
     * never use cells. */
    if (!g && !(g = ring_make(from, dest)))
        return 0;
    int queued = loom__load_relaxed(&m->nqueued);
    /* The spin takes no lock: another thread of this rank may drain the ring meanwhile (a
     * poll in its wait, its own receive), and must not find it held by a spinner that its
     * core's scheduler has put aside (measured: bench/latency_mt.c with 2 receiving threads
     * went from 5 us to 30-2000 us when the spin held the consumer lock). */
    for (unsigned i = 0; !loom__ring_ready(g); i++) {
        /* The message may come another way (larger, synchronous): the general path sees it.
         * (One queued while another thread takes one goes unseen until the spin ends.) */
        if (i >= loom__wait_spin || loom__load_relaxed(&m->nqueued) != queued)
            return 0;
        if (i % RECV_KEYPOINT_EVERY == RECV_KEYPOINT_EVERY - 1)
            loom__task_keypoint();
        if (i % RECV_PAUSE_EVERY == RECV_PAUSE_EVERY - 1)
            loom__cpu_relax();
    }
    return take_head(g, m, source, tag, buf, count, type, st);
}

/* The next of rank dest's rings, from position *at on, that has a cell ready: the ring from
 * world rank `from`, or, if from < 0, the rings in the order they were made. NULL when none
 * is left. *at starts at 0 and moves past the ring returned. */
static struct loom_ring *next_ready(int dest, int from, int *at)
{
    /* a rank of another node process has no rings here (net/) */
    if (!loom__rank_is_local(dest) || (from >= 0 && !loom__rank_is_local(from)))
        return NULL;
    if (from >= 0) {
        struct loom_ring *g = *at == 0 ? loom__ring_of(from, dest) : NULL;
        *at = 1;
        return g && loom__ring_ready(g) ? g : NULL;
    }
    struct loom_inbox *b = &loom__inboxes[dest - loom__job.first];
    int n = loom__load_acquire(&b->nactive);
    while (*at < n) {
        struct loom_ring *g = loom__load_acquire(&b->active[(*at)++]); /* pairs with ring_make */
        if (g && loom__ring_ready(g))
            return g;
    }
    return NULL;
}

int loom__inbox_has_cells(int dest, int from)
{
    int at = 0;
    return next_ready(dest, from, &at) != NULL;
}

/* The calling thread's looks into its rank's rings that found no cell, since the last that
 * found one or pulled the batches (drain_rings). The thread's own. */
static LOOM_TLS_FAST unsigned empty_looks;

/* Drain one ring that has cells; with `wait`, even if another thread is draining it (so that
 * a receive about to be posted sees what that thread has moved). */
static int drain_ring(struct loom_ring *g, struct loom_request *want, int wait)
{
    if (wait)
        loom__lock(&g->cons.lock);
    else if (!loom__trylock(&g->cons.lock))
        return 0; /* another thread is moving these cells */
    int got = drain_locked(g, want);
    loom__unlock(&g->cons.lock);
    return got;
}

/* Drain rank dest's rings (from world rank `from`, or all if from < 0) as drain_ring does,
 * until `want` is claimed (returns 1). *busy (if not NULL) is set when some ring had cells. */
static int drain_rings(int dest, int from, struct loom_request *want, int wait, int *busy)
{
    struct loom_ring *g;
    int any = 0;
    for (int at = 0; (g = next_ready(dest, from, &at)) != NULL;) {
        any = 1;
        if (busy)
            *busy = 1;
        if (drain_ring(g, want, wait))
            return 1;
    }
    /* A sender may have left MPI with a batch unpublished (batch.h): after LOOM_SPIN looks
     * that found nothing, publish the batches ourselves (the next look takes them). */
    if (any)
        empty_looks = 0;
    else if (++empty_looks >= loom__wait_spin) {
        empty_looks = 0;
        loom__batch_pull(dest, 0);
    }
    return 0;
}

int loom__inbox_drain(int dest, int from, struct loom_request *want)
{
    return drain_rings(dest, from, want, 1, NULL);
}

/* The rank whose rings the calling thread polls in its waits: its own rank, unless it is a
 * progress thread. A progress thread would take the cells a blocking receive of its rank is
 * spinning for (they would reach it through the queue, later). So a small message, posted
 * receive or not, waits in its ring until a thread of its rank enters MPI (docs/p2p.md). */
static struct loom_rank *poller(void)
{
    struct loom_task_worker *w = loom__task_self;
    if (!loom__inboxes || (w && w->dedicated))
        return NULL;
    return loom__self;
}

int loom__inbox_poll(void)
{
    struct loom_rank *me = poller();
    int busy = 0;
    if (me)
        drain_rings(me->world_rank, -1, NULL, 0, &busy);
    return busy;
}

int loom__inbox_pending(void)
{
    struct loom_rank *me = poller();
    /* Before a waiter sleeps (its count in sleepers and a fence come first): a batch its
     * sender left unpublished is work, published here (batch.h). */
    return me && (loom__inbox_has_cells(me->world_rank, -1) ||
                  loom__batch_pull(me->world_rank, 0));
}

void loom__inbox_tend(int on)
{
    /* Only the rank's own thread counts: it is the only writer, so a plain store does (an
     * atomic increment on every wait cost a blocking ping-pong 20 - 30 ns). */
    struct loom_rank *me = poller();
    if (me && loom__on_rank_thread) {
        int depth = loom__load_relaxed(&me->ring_waiting);
        loom__store_relaxed(&me->ring_waiting, depth + (on ? 1 : -1));
    }
}
