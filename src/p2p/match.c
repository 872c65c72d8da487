/* p2p/match.c — matching sends with receives, per receiving rank and context.
 * See p2p.h for the protocol and the locking rule: a match lock is held only while queues
 * are searched and relinked; copies and completions happen after it is dropped. */
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "p2p/ring.h"
#include "p2p/p2p.h"
#include "core/stats.h"
#include "net/net.h"

size_t loom__p2p_eager_max = 16384;

struct loom_p2p_ctx *loom__p2p_ctx_new(struct loom_comm_shared *sh)
{
    struct loom_p2p_ctx *ctx;
    if (posix_memalign((void **)&ctx, 64,
                       sizeof *ctx + sizeof(struct loom_match) * (size_t)sh->size))
        return NULL;
    ctx->size = sh->size;
    ctx->sender_world = sh->world_of;
    for (int i = 0; i < sh->size; i++) {
        struct loom_match *m = &ctx->match[i];
        memset(m, 0, sizeof *m);
        m->posted_tail = &m->posted;
        m->head.peer = LOOM_HEAD_STALE;
        m->unexpected_tail = &m->unexpected;
        m->rank = &loom__job.ranks[sh->world_of[i]];
    }
    loom__p2p_ctx_register(ctx); /* its queues are ready to be read */
    return ctx;
}

void loom__p2p_ctx_free(struct loom_p2p_ctx *ctx)
{
    if (!ctx)
        return;
    loom__p2p_ctx_unregister(ctx); /* MPI_T stops reading it before it goes */
    /* Cells in the members' rings may point at our queues: move them all into their queues
     * first (every member has freed the communicator, so no new ones can come for it). */
    for (int i = 0; loom__p2p_cells && i < ctx->size; i++) {
        int dest = ctx->match[i].rank->world_rank;
        loom__batch_pull(dest, 1); /* batches of the members' other threads (batch.h) */
        loom__inbox_drain(dest, -1, NULL);
    }
    /* Eager messages nobody received die with the communicator. The lock orders this after
     * the appends of whoever drained the cells (no other thread touches the queue now). */
    for (int i = 0; i < ctx->size; i++) {
        struct loom_match *m = &ctx->match[i];
        loom__lock(&m->lock);
        struct loom_envelope *e = m->unexpected, *next;
        m->unexpected = NULL;
        loom__unlock(&m->lock);
        for (; e; e = next) {
            next = e->next;
            if (e->sreq == NULL)
                free(e);
            else if (e->sreq->kind == LOOM_REQ_NETSEND)
                loom__net_standin_free(e->sreq);
        }
    }
    free(ctx);
}

/* Add d to a queue length (lock held: a plain read-modify-write; relaxed, see p2p.h). */
static inline void count_add(_Atomic int *n, int d)
{
    loom__store_relaxed(n, loom__load_relaxed(n) + d);
}

static inline int matches(int want_source, int want_tag, int source, int tag)
{
    return (want_source == source || want_source == MPI_ANY_SOURCE) &&
           (want_tag == tag || want_tag == MPI_ANY_TAG);
}

/* What posted receive r asks for, as the queue's line keeps it for its first receive. */
static inline struct loom_match_head head_of(const struct loom_request *r)
{
    return (struct loom_match_head){r->peer, r->tag, r->buf, r->count, r->type};
}

/* The first posted receive's fields, or STALE when none is posted. Lock held. */
static inline void head_set(struct loom_match *m, const struct loom_request *r)
{
    if (r)
        m->head = head_of(r);
    else
        m->head.peer = LOOM_HEAD_STALE;
}

/* Unlink posted receive q, linked from *pp and followed by `next` (q->next, which the caller
 * may know without reading q's line). q's own link is left as it is: it is set again when q is
 * posted again. Lock held. */
static void unlink_posted(struct loom_match *m, struct loom_request **pp, struct loom_request *q,
                          struct loom_request *next)
{
    *pp = next;
    if (m->posted_tail == &q->next)
        m->posted_tail = pp;
    if (pp == &m->posted)
        m->head.peer = LOOM_HEAD_STALE;
    count_add(&m->nposted, -1);
}

/* Unlink and return the first posted receive that a message (source, tag) matches, and with
 * `want`, what it asks for. Lock held. The first posted receive is matched and unlinked from
 * the queue's own line (`head`, p2p.h) without reading the request, when it is the only one
 * (its `next` is then known to be NULL) and its fields are known. */
static struct loom_request *take_posted(struct loom_match *m, int source, int tag,
                                        struct loom_match_head *want)
{
    struct loom_request *r = m->posted;
    if (!r)
        return NULL;
    if (m->head.peer == LOOM_HEAD_STALE)
        head_set(m, r);
    if (matches(m->head.peer, m->head.tag, source, tag)) {
        if (want)
            *want = m->head;
        unlink_posted(m, &m->posted, r, loom__load_relaxed(&m->nposted) == 1 ? NULL : r->next);
        return r;
    }
    struct loom_request **pp = &r->next, *q;
    for (; (q = *pp) != NULL; pp = &q->next) {
        if (matches(q->peer, q->tag, source, tag)) {
            unlink_posted(m, pp, q, q->next);
            if (want)
                *want = head_of(q);
            return q;
        }
    }
    return NULL;
}

/* Find (and with take, unlink) the first unexpected message a receive (source, tag) matches.
 * Lock held. */
static struct loom_envelope *find_unexpected(struct loom_match *m, int source, int tag, int take)
{
    struct loom_envelope **pp = &m->unexpected, *e;
    for (; (e = *pp) != NULL; pp = &e->next) {
        if (matches(source, tag, e->source, e->tag)) {
            if (take) {
                *pp = e->next;
                if (m->unexpected_tail == &e->next)
                    m->unexpected_tail = pp;
                e->next = NULL;
                count_add(&m->nqueued, -1);
            }
            return e;
        }
    }
    return NULL;
}

static void append_unexpected(struct loom_match *m, struct loom_envelope *e)
{
    e->next = NULL;
    *m->unexpected_tail = e;
    m->unexpected_tail = &e->next;
    count_add(&m->nqueued, 1);
}

/* A receive of capacity `cap` got `n` of the `bytes` sent from (source, tag): finish it
 * (`claimed`: by the thread that is starting it, see loom__p2p_match_cell). */
static void delivered(struct loom_request *rr, int source, int tag, size_t bytes, size_t n,
                      size_t cap, int claimed)
{
    rr->error = bytes > cap ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    loom__p2p_status_set(&rr->status, source, tag, n);
    LOOM_STATS_RECEIVED(rr->owner, n); /* LOOM_STATS: before completion frees rr */
    if (claimed && rr->unseen)
        loom__req_complete_unseen(rr);
    else
        loom__req_complete(rr);
}

/* Deliver `bytes` of packed data from (source, tag) into a receive and complete it. */
static void deliver_packed(struct loom_request *rr, int source, int tag, const void *data,
                           size_t bytes)
{
    size_t cap = loom__dt_stream_size(rr->type, rr->count);
    size_t n = bytes < cap ? bytes : cap;
    if (n)
        loom__dt_unpack(rr->buf, rr->type, rr->count, data, 0, n);
    delivered(rr, source, tag, bytes, n, cap, 0);
}

/* Deliver the message whose first cell is at position t of ring g into a receive
 * (`claimed`: as for delivered). */
static void deliver_cell(struct loom_request *rr, struct loom_ring *g, uint32_t t, int claimed)
{
    const struct loom_cell *c = &g->cells[t & LOOM_RING_MASK];
    size_t cap = loom__dt_stream_size(rr->type, rr->count);
    size_t n = c->bytes < cap ? c->bytes : cap;
    if (n)
        loom__cell_unpack(g, t, c->bytes, n, rr->buf, rr->type, rr->count);
    delivered(rr, c->source, c->tag, c->bytes, n, cap, claimed);
}

/* Deliver an eager envelope into a receive, complete it, free the envelope. */
static void deliver_eager(struct loom_request *rr, struct loom_envelope *e)
{
    deliver_packed(rr, e->source, e->tag, LOOM_ENVELOPE_DATA(e), e->bytes);
    free(e);
}

/* An eager envelope holding a copy of `bytes` of packed data, or NULL. */
static struct loom_envelope *envelope_new(int source, int tag, size_t bytes)
{
    struct loom_envelope *e = malloc(sizeof *e + bytes + 16);
    if (e) {
        e->source = source;
        e->tag = tag;
        e->bytes = bytes;
        e->sreq = NULL;
    }
    return e;
}

/* An eager copy made outside the lock: to a receive posted meanwhile, else into the queue. */
static void queue_eager(struct loom_match *m, struct loom_envelope *e)
{
    loom__lock(&m->lock);
    struct loom_request *rr = take_posted(m, e->source, e->tag, NULL);
    if (!rr)
        append_unexpected(m, e);
    loom__unlock(&m->lock);
    if (rr)
        deliver_eager(rr, e);
    else
        loom__event_notify(&m->rank->event); /* a probe may be waiting */
}

/* 1 if a receive that acquired a cell for m may take it without m's lock: no posted receive
 * and no queued message, either of which would come before it. Queued messages from the
 * cell's sender were counted before the cell was published (its release, the caller's
 * acquire), so empty queues need no lock; a receive another thread posts meanwhile is
 * concurrent with ours. Once checked, the cell stays ours: its sender cannot queue anything
 * newer before the ring's consumer lock is free. */
static inline int queues_empty(struct loom_match *m)
{
    return loom__load_relaxed(&m->nposted) == 0 && loom__load_relaxed(&m->nqueued) == 0;
}

static inline int wants(struct loom_request *want, struct loom_match *m, int source, int tag)
{
    return want && &want->ctx->match[want->me] == m && matches(want->peer, want->tag, source, tag);
}

int loom__p2p_match_cell(struct loom_ring *g, uint32_t t, struct loom_request *want)
{
    const struct loom_cell *c = &g->cells[t & LOOM_RING_MASK];
    struct loom_match *m = c->to;
    /* The receive being posted takes its cell without the queue lock when it may */
    if (wants(want, m, c->source, c->tag) && queues_empty(m)) {
        deliver_cell(want, g, t, 1);
        return 1;
    }
    struct loom_envelope *e = NULL;
    loom__lock(&m->lock);
    for (;;) {
        struct loom_request *rr = take_posted(m, c->source, c->tag, NULL);
        /* `want` is not posted yet: it may take the cell only if no older message it matches
         * waits in the queue (from this sender, all are older than the cell) */
        int claim = !rr && wants(want, m, c->source, c->tag) &&
                    !find_unexpected(m, want->peer, want->tag, 0);
        if (rr || claim) {
            loom__unlock(&m->lock);
            free(e); /* made on a previous pass, before a receive was posted */
            deliver_cell(rr ? rr : want, g, t, claim);
            return claim;
        }
        if (e)
            break;
        /* unexpected: copy it out of the ring, outside the lock, then look again */
        loom__unlock(&m->lock);
        e = envelope_new(c->source, c->tag, c->bytes);
        if (!e)
            return -1;
        loom__cell_gather(g, t, c->bytes, c->bytes, LOOM_ENVELOPE_DATA(e));
        loom__lock(&m->lock);
    }
    append_unexpected(m, e);
    loom__unlock(&m->lock);
    if (m->rank != loom__self)
        loom__event_notify(&m->rank->event); /* a probe may be waiting */
    return 0;
}

int loom__p2p_start_send(struct loom_request *s)
{
    struct loom_match *m = &s->ctx->match[s->peer];
    size_t bytes = loom__dt_stream_size(s->type, s->count);
    LOOM_STATS_SENT(s->owner, bytes); /* LOOM_STATS */
    s->env.source = s->me;
    s->env.tag = s->tag;
    s->env.bytes = bytes;
    s->env.sreq = s;
    if (!loom__rank_is_local(m->rank->world_rank)) /* in another node process */
        return loom__net_send(s);
    if (loom__p2p_cells) /* nothing of ours may overtake our cells (inbox.h) */
        loom__inbox_flush_pair(s->owner->world_rank, m->rank->world_rank);

    loom__lock(&m->lock);
    struct loom_match_head want;
    struct loom_request *rr = take_posted(m, s->me, s->tag, &want);
    if (rr) {
        loom__unlock(&m->lock);
        /* The request's lines (its owner, its status) are needed once the data is copied:
         * ask for them now, so that they cross while it is. */
        __builtin_prefetch(rr, 0);
        __builtin_prefetch(&rr->status, 0);
        loom__p2p_transfer_to(s, rr, want.buf, want.count, want.type);
        return 0;
    }
    if (s->mode == LOOM_SEND_SYNC || bytes > loom__p2p_eager_max) {
        /* Rendezvous: the request itself waits in the queue; the receive will copy. */
        append_unexpected(m, &s->env);
        loom__unlock(&m->lock);
        loom__event_notify(&m->rank->event); /* a probe may be waiting */
        return 0;
    }
    loom__unlock(&m->lock);

    /* Eager: fill a cell outside the lock, then queue it, unless a receive was posted in
     * the meantime (then it takes the data from the cell). */
    struct loom_envelope *e = envelope_new(s->me, s->tag, bytes);
    if (!e)
        return LOOM_ERR_NOMEM;
    if (bytes)
        loom__dt_pack(LOOM_ENVELOPE_DATA(e), s->buf, s->type, s->count, 0, bytes);
    queue_eager(m, e);
    loom__req_complete(s);
    return 0;
}

int loom__p2p_cell_claims(const struct loom_cell *c, struct loom_match *m, int source, int tag,
                          size_t capacity)
{
    if (c->to != m || !matches(source, tag, c->source, c->tag) || c->bytes > capacity)
        return 0;
    /* Older posted receives and queued messages come first: with any, look under the lock
     * whether one of them matches. */
    if (!queues_empty(m)) {
        loom__lock(&m->lock);
        int first = m->posted == NULL && !find_unexpected(m, source, tag, 0);
        loom__unlock(&m->lock);
        if (!first)
            return 0;
    }
    return 1;
}

/* 1 if a receive into (count, type) from `source` of ctx (not a wildcard) may take its
 * message out of a cell: cells are on, the buffer holds at most a few cells' worth, and the
 * sender runs in this node process. Why the size: a larger message to a receiver that has
 * not posted would become an eager copy (two copies and a malloc) instead of the one copy its
 * sender makes into a posted receive. */
static inline int cell_receivable(struct loom_p2p_ctx *ctx, size_t count,
                                  struct loom_datatype *type, int source)
{
    return loom__p2p_cells && loom__dt_stream_size(type, count) <= loom__cell_max &&
           loom__rank_is_local(ctx->sender_world[source]);
}

int loom__p2p_recv_cell(struct loom_p2p_ctx *ctx, int me_world, int me, void *buf,
                        size_t count, struct loom_datatype *type, int source, int tag,
                        MPI_Status *st, int wait)
{
    if (!cell_receivable(ctx, count, type, source))
        return -1;
    return loom__inbox_recv(ctx->sender_world[source], me_world, &ctx->match[me], source, tag, buf,
                            count, type, st, wait);
}

void loom__p2p_recv_envelope(struct loom_request *r, struct loom_envelope *e)
{
    if (e->sreq == NULL)
        deliver_eager(r, e);
    else if (e->sreq->kind == LOOM_REQ_NETSEND)
        loom__net_pull(e->sreq, r);
    else
        loom__p2p_transfer(e->sreq, r);
}

int loom__p2p_net_eager(struct loom_match *m, int source, int tag, const void *data,
                        size_t bytes)
{
    loom__lock(&m->lock);
    struct loom_request *rr = take_posted(m, source, tag, NULL);
    loom__unlock(&m->lock);
    if (rr) {
        deliver_packed(rr, source, tag, data, bytes);
        return 0;
    }
    /* unexpected: copy it outside the lock, then look once more (as an eager local send) */
    struct loom_envelope *e = envelope_new(source, tag, bytes);
    if (!e)
        return LOOM_ERR_NOMEM;
    if (bytes)
        memcpy(LOOM_ENVELOPE_DATA(e), data, bytes);
    queue_eager(m, e);
    return 0;
}

struct loom_request *loom__p2p_net_rts(struct loom_match *m, struct loom_request *standin)
{
    struct loom_envelope *e = &standin->env;
    loom__lock(&m->lock);
    struct loom_request *rr = take_posted(m, e->source, e->tag, NULL);
    if (!rr)
        append_unexpected(m, e);
    loom__unlock(&m->lock);
    if (!rr)
        loom__event_notify(&m->rank->event); /* a probe may be waiting */
    return rr;
}

/* The world rank a receive from `source` (or MPI_ANY_SOURCE: -1) drains cells from. */
static inline int cell_source(struct loom_p2p_ctx *ctx, int source)
{
    return source == MPI_ANY_SOURCE ? -1 : ctx->sender_world[source];
}

/* Other node processes: a nonblocking receive that a rendezvous from one of them may complete
 * is counted for the network thread until it completes (net.h); a blocking one's caller
 * polls by itself. One with room for no more than an eager message is not: such a message
 * arrives whole and its wait takes it with one poll, so nothing moves in the background and
 * kicking the thread only cost the step of a halo exchange its wake-up (a synchronous send's
 * request-to-send, the one rendezvous such a receive can match, is counted when a poll
 * matches it: net_p2p.c). Set on every start, so that a persistent request is counted
 * afresh. */
static void watch_recv(struct loom_request *r)
{
    int w = r->peer == MPI_ANY_SOURCE ? -1 : r->ctx->sender_world[r->peer];
    r->netwatch = r->heap && (w < loom__job.first || w >= loom__job.first + loom__job.nlocal) &&
                  loom__dt_stream_size(r->type, r->count) > loom__net_eager_max();
    if (r->netwatch)
        loom__net_watch_begin();
}

int loom__p2p_start_recv(struct loom_request *r)
{
    return loom__p2p_start_recv_looked(r, -1);
}

int loom__p2p_start_recv_looked(struct loom_request *r, int cells)
{
    struct loom_match *m = &r->ctx->match[r->me];
    int dest = m->rank->world_rank, from = cell_source(r->ctx, r->peer);
    if (__builtin_expect(loom__job.nnodes > 1, 0))
        watch_recv(r);
    /* Messages in the queue are older than cells from the same sender: look there first,
     * then in the rings, then post. With cells waiting and the queue empty (a hint), the
     * rings come first, without the lock: a cell is taken only once the queues are checked
     * again after it was acquired (loom__p2p_match_cell), and then the locked pass needs no
     * second drain. The rings are looked at once: a cell that comes after that look is
     * matched against the posted receive, and one of its sender's messages that goes another
     * way drains it first (loom__inbox_flush_pair). Looking again under the lock cost a
     * 1 KiB message rate 7 % (nine alternations). The queue's count is read after the look,
     * so that without cells its line is read only by the lock that takes it. */
    int pass = 0;
    if (cells < 0)
        cells = loom__p2p_cells && loom__inbox_has_cells(dest, from);
    if (cells && loom__load_relaxed(&m->nqueued) == 0) {
        if (loom__inbox_drain(dest, from, r))
            return 0;
        pass = 1;
    }
    for (;; pass++) {
        loom__lock(&m->lock);
        struct loom_envelope *e = find_unexpected(m, r->peer, r->tag, 1);
        if (e) {
            loom__unlock(&m->lock);
            loom__p2p_recv_envelope(r, e);
            return 0;
        }
        if (pass > 0 || !cells) {
            /* a cell that comes later is matched against this posted receive */
            r->next = NULL;
            *m->posted_tail = r;
            m->posted_tail = &r->next;
            if (m->posted == r) /* the first: its sender reads it from here */
                head_set(m, r);
            count_add(&m->nposted, 1);
            loom__unlock(&m->lock);
            return 0;
        }
        loom__unlock(&m->lock);
        if (loom__inbox_drain(dest, from, r))
            return 0;
    }
}

int loom__p2p_probe(struct loom_p2p_ctx *ctx, int me, int source, int tag, MPI_Status *st,
                    int take, struct loom_envelope **taken)
{
    struct loom_match *m = &ctx->match[me];
    if (loom__job.nnodes > 1) /* messages from other node processes come in by polling */
        loom__net_poll();
    if (loom__p2p_cells) /* cells become queued messages: the probe sees them there */
        loom__inbox_drain(m->rank->world_rank, cell_source(ctx, source), NULL);
    loom__lock(&m->lock);
    struct loom_envelope *e = find_unexpected(m, source, tag, take);
    if (e && st != MPI_STATUS_IGNORE)
        loom__p2p_status_set(st, e->source, e->tag, e->bytes);
    loom__unlock(&m->lock);
    if (e && take)
        *taken = e;
    return e != NULL;
}

int loom__p2p_cancel_recv(struct loom_request *r)
{
    struct loom_match *m = &r->ctx->match[r->me];
    int found = 0;
    loom__lock(&m->lock);
    struct loom_request **pp = &m->posted, *q;
    for (; (q = *pp) != NULL; pp = &q->next) {
        if (q == r) {
            unlink_posted(m, pp, r, r->next);
            found = 1;
            break;
        }
    }
    loom__unlock(&m->lock);
    if (!found)
        return 0;
    r->cancelled = 1;
    loom__p2p_status_empty(&r->status, r->peer);
    r->status.loom_cancelled = 1;
    loom__req_complete(r);
    return 1;
}

void loom__p2p_status_set(MPI_Status *st, int source, int tag, size_t bytes)
{
    st->MPI_SOURCE = source;
    st->MPI_TAG = tag;
    st->loom_bytes = (MPI_Count)bytes;
    st->loom_cancelled = 0;
}

void loom__p2p_status_empty(MPI_Status *st, int source)
{
    loom__p2p_status_set(st, source, MPI_ANY_TAG, 0);
}
