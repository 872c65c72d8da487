/* p2p/match.c — matching sends with receives, per receiving rank and context.
 * See p2p.h for the protocol and the locking rule: a match lock is held only while queues
 * are searched and relinked; copies and completions happen after it is dropped. */
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "p2p/p2p.h"
#include "core/stats.h"

size_t loom__p2p_eager_max = 16384;

struct loom_p2p_ctx *loom__p2p_ctx_new(struct loom_comm_shared *sh)
{
    struct loom_p2p_ctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->size = sh->size;
    if (posix_memalign((void **)&ctx->match, 64, sizeof(struct loom_match) * (size_t)sh->size)) {
        free(ctx);
        return NULL;
    }
    for (int i = 0; i < sh->size; i++) {
        struct loom_match *m = &ctx->match[i];
        memset(m, 0, sizeof *m);
        m->posted_tail = &m->posted;
        m->unexpected_tail = &m->unexpected;
        m->rank = &loom__job.ranks[sh->world_of[i]];
    }
    return ctx;
}

void loom__p2p_ctx_free(struct loom_p2p_ctx *ctx)
{
    if (!ctx)
        return;
    /* Eager cells nobody received die with the communicator. */
    for (int i = 0; i < ctx->size; i++) {
        struct loom_envelope *e = ctx->match[i].unexpected, *next;
        for (; e; e = next) {
            next = e->next;
            if (e->sreq == NULL)
                free(e);
        }
    }
    free(ctx->match);
    free(ctx);
}

static inline int matches(int want_source, int want_tag, int source, int tag)
{
    return (want_source == source || want_source == MPI_ANY_SOURCE) &&
           (want_tag == tag || want_tag == MPI_ANY_TAG);
}

/* Unlink and return the first posted receive that a message (source, tag) matches. Lock held. */
static struct loom_request *take_posted(struct loom_match *m, int source, int tag)
{
    struct loom_request **pp = &m->posted, *r;
    for (; (r = *pp) != NULL; pp = &r->next) {
        if (matches(r->peer, r->tag, source, tag)) {
            *pp = r->next;
            if (m->posted_tail == &r->next)
                m->posted_tail = pp;
            r->next = NULL;
            return r;
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
}

/* Deliver an eager cell into a receive and complete it. */
static void deliver_eager(struct loom_request *rr, struct loom_envelope *e)
{
    size_t cap = loom__dt_stream_size(rr->type, rr->count);
    size_t n = e->bytes < cap ? e->bytes : cap;
    if (n)
        loom__dt_unpack(rr->buf, rr->type, rr->count, LOOM_ENVELOPE_DATA(e), 0, n);
    rr->error = e->bytes > cap ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    rr->status.MPI_SOURCE = e->source;
    rr->status.MPI_TAG = e->tag;
    rr->status.MPI_ERROR = rr->error;
    rr->status.loom_bytes = (MPI_Count)n;
    rr->status.loom_cancelled = 0;
    free(e);
    LOOM_STATS_RECEIVED(rr->owner, n); /* LOOM_STATS: before completion frees rr */
    loom__req_complete(rr);
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

    loom__lock(&m->lock);
    struct loom_request *rr = take_posted(m, s->me, s->tag);
    if (rr) {
        loom__unlock(&m->lock);
        loom__p2p_transfer(s, rr);
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
    struct loom_envelope *e = malloc(sizeof *e + bytes + 16);
    if (!e)
        return LOOM_ERR_NOMEM;
    e->source = s->me;
    e->tag = s->tag;
    e->bytes = bytes;
    e->sreq = NULL;
    if (bytes)
        loom__dt_pack(LOOM_ENVELOPE_DATA(e), s->buf, s->type, s->count, 0, bytes);
    loom__lock(&m->lock);
    rr = take_posted(m, s->me, s->tag);
    if (!rr)
        append_unexpected(m, e);
    loom__unlock(&m->lock);
    if (rr)
        deliver_eager(rr, e);
    else
        loom__event_notify(&m->rank->event);
    loom__req_complete(s);
    return 0;
}

void loom__p2p_recv_envelope(struct loom_request *r, struct loom_envelope *e)
{
    if (e->sreq == NULL)
        deliver_eager(r, e);
    else
        loom__p2p_transfer(e->sreq, r);
}

int loom__p2p_start_recv(struct loom_request *r)
{
    struct loom_match *m = &r->ctx->match[r->me];
    loom__lock(&m->lock);
    struct loom_envelope *e = find_unexpected(m, r->peer, r->tag, 1);
    if (!e) {
        r->next = NULL;
        *m->posted_tail = r;
        m->posted_tail = &r->next;
        loom__unlock(&m->lock);
        return 0;
    }
    loom__unlock(&m->lock);
    loom__p2p_recv_envelope(r, e);
    return 0;
}

int loom__p2p_probe(struct loom_p2p_ctx *ctx, int me, int source, int tag, MPI_Status *st,
                    int take, struct loom_envelope **taken)
{
    struct loom_match *m = &ctx->match[me];
    loom__lock(&m->lock);
    struct loom_envelope *e = find_unexpected(m, source, tag, take);
    if (e && st != MPI_STATUS_IGNORE) {
        st->MPI_SOURCE = e->source;
        st->MPI_TAG = e->tag;
        st->MPI_ERROR = MPI_SUCCESS;
        st->loom_bytes = (MPI_Count)e->bytes;
        st->loom_cancelled = 0;
    }
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
            *pp = r->next;
            if (m->posted_tail == &r->next)
                m->posted_tail = pp;
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

void loom__p2p_status_empty(MPI_Status *st, int source)
{
    st->MPI_SOURCE = source;
    st->MPI_TAG = MPI_ANY_TAG;
    st->MPI_ERROR = MPI_SUCCESS;
    st->loom_bytes = 0;
    st->loom_cancelled = 0;
}
