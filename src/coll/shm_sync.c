/* coll/shm_sync.c — the synchronisation protocol of the shm collectives, and which
 * collectives run that way (see shm.h for the slot and its entries).
 *
 * Protocol, for member `me` of communicator c running shm collective number k (every member
 * numbers its shm collectives on c alike, since MPI has them call collectives in the same
 * order; k = e[me].done + 2, so the numbers advance by 2 and k + 1 names a middle phase).
 * Only member me writes e[me]:
 *   1. publish: e[me].args = a, e[me].data = d (plain stores), then e[me].pub = k (release),
 *      then a notify of every member's event. The release orders the plain stores, and
 *      everything the member wrote to its buffers before the call, before any reader's
 *      acquire of pub.
 *   2. A member that needs member r's buffers waits (acquire) until e[r].pub >= k, or >= k + 1
 *      for what r makes in a middle phase (published with a release store of k + 1 once r's
 *      writes of that phase are done), then reads e[r].args / e[r].data and the buffers.
 *   3. done: after its last access to other members' buffers, e[me].done = k (release) and a
 *      notify. A member whose buffers others access waits (acquire) until e[r].done >= k for
 *      every such r before it returns; the release/acquire pair orders every access before
 *      the return, so no rank reads or writes a buffer after its owner returned.
 * Why nothing is read stale: member r publishes collective k + 2 only after it returned from
 * k; if r's buffers are accessed in k, that return waited for every accessor's done, which
 * the accessor stores after its last read of e[r]. So while anyone still reads e[r] for k,
 * e[r].pub is k or k + 1 and e[r].args / data are k's. Members whose buffers nobody accesses
 * in k (a bcast's non-roots) may run ahead; nobody reads their entries for k. A publication
 * or done that nobody waits for in this collective's roles is "quiet" (no notify).
 * Waits poll the flag a few times, then go through loom__wait_until on the member's own
 * event, so a waiting rank runs tasks (collaborative progress) and, past its spin and yield
 * budget, sleeps until notified: an oversubscribed node makes progress. Notifies: a look at
 * every member's sleepers, no fence (core/event.h: the sleeper's grace period covers the
 * store buffer), and a notify of each member's event that has one. Comparisons are modulo
 * 2^32 (a signed difference). */
#include <stdlib.h>
#include <string.h>
#include "coll/alg.h"
#include "coll/shm.h"
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/error.h"
#include "core/prefetch.h"
#include "core/rank.h"

/* Plain polls of a flag before the full wait (whose polls also run the task keypoint); no
 * more than the wait's own spin budget (small when ranks outnumber cores). */
#define PRE_SPIN 64

static int reached(uint32_t value, uint32_t want)
{
    return (int32_t)(value - want) >= 0;
}

struct flag_wait {
    _Atomic uint32_t *flag;
    uint32_t want;
};

static int flag_reached(void *arg)
{
    struct flag_wait *w = arg;
    /* acquire: pairs with the owner's release store in begin / middle / done */
    return reached(loom__load_acquire(w->flag), w->want);
}

static void wait_flag(struct loom_shm_call *k, _Atomic uint32_t *flag, uint32_t want)
{
    int spins = loom__wait_spin < PRE_SPIN ? (int)loom__wait_spin : PRE_SPIN;
    for (int i = 0; i < spins; i++) {
        if (reached(loom__load_acquire(flag), want)) /* pairs as in flag_reached */
            return;
        loom__cpu_relax();
    }
    struct flag_wait w = {flag, want};
    loom__wait_until(&k->self->event, flag_reached, &w);
}

/* Wake the members that sleep waiting for what the caller has just published. */
static void notify_all(struct loom_shm_call *k)
{
    /* Either a waiter that announced itself asleep sees our store when its grace period
     * ends, or we see it in `sleepers` (core/event.h): no fence. */
    loom__notify_order();
    for (int r = 0; r < k->n; r++)
        if (r != k->me && loom__load_relaxed(&k->events[r]->sleepers))
            loom__event_notify(k->events[r]);
}

void loom__shm_init(struct loom_shm_call *k, struct loom_comm *c)
{
    k->m = &c->sh->shm;
    k->events = c->sh->events;
    k->self = loom__self;
    k->me = c->rank;
    k->n = c->sh->size;
    k->err = 0;
    k->done_seen = &c->shm_done_seen;
    /* relaxed: only this member writes done[me] */
    k->seq = loom__load_relaxed(&k->m->e[k->me].done) + 2u;
}

void loom__shm_begin(struct loom_shm_call *k, struct loom_comm *c,
                     const struct loom_coll_args *a, const void *data, int quiet)
{
    loom__shm_init(k, c);
    loom__shm_publish(k, a, data, quiet);
}

void loom__shm_publish(struct loom_shm_call *k, const struct loom_coll_args *a,
                       const void *data, int quiet)
{
    struct loom_coll_shm_entry *e = &k->m->e[k->me];
    e->args = a;
    if (e->data != data) /* a second-line field: written only when it changes (shm.h) */
        e->data = data;
    loom__store_release(&e->pub, k->seq); /* read by wait_flag's acquire */
    if (!quiet)
        notify_all(k);
}

void loom__shm_wait_pub(struct loom_shm_call *k, int r, int phase)
{
    wait_flag(k, &k->m->e[r].pub, k->seq + (uint32_t)phase);
}

const struct loom_coll_args *loom__shm_args(struct loom_shm_call *k, int r)
{
    loom__shm_wait_pub(k, r, 0);
    return k->m->e[r].args;
}

void loom__shm_set_view(struct loom_shm_call *k, const void *buf, size_t count,
                        struct loom_datatype *type, int plain)
{
    /* a second-line field: each part written only when it changes (shm.h) */
    struct loom_shm_view *v = &k->m->e[k->me].view;
    if (v->plain != plain)
        v->plain = plain;
    if (!plain)
        return;
    if (v->buf != buf)
        v->buf = buf;
    if (v->count != count)
        v->count = count;
    if (v->type != type)
        v->type = type;
}

const struct loom_shm_view *loom__shm_view(struct loom_shm_call *k, int r)
{
    loom__shm_wait_pub(k, r, 0);
    const struct loom_shm_view *v = &k->m->e[r].view; /* after the acquire of pub */
    return v->plain ? v : NULL;
}

const void *loom__shm_data(struct loom_shm_call *k, int r)
{
    loom__shm_wait_pub(k, r, 0);
    return k->m->e[r].data;
}

void loom__shm_middle(struct loom_shm_call *k)
{
    loom__store_release(&k->m->e[k->me].pub, k->seq + 1u); /* read by wait_flag's acquire */
    notify_all(k);
}

void loom__shm_done(struct loom_shm_call *k)
{
    loom__store_release(&k->m->e[k->me].done, k->seq); /* read by wait_flag's acquire */
    notify_all(k);
}

void loom__shm_done_quiet(struct loom_shm_call *k)
{
    loom__store_release(&k->m->e[k->me].done, k->seq); /* as loom__shm_done; nobody waits */
}

void loom__shm_wait_done(struct loom_shm_call *k, int r)
{
    wait_flag(k, &k->m->e[r].done, k->seq);
}

void loom__shm_wait_all_done(struct loom_shm_call *k)
{
    loom__shm_wait_all_done_from(k, k->seq);
}

void loom__shm_wait_all_done_from(struct loom_shm_call *k, uint32_t seq)
{
    /* The others' done lines change at every collective, so each look at one costs a line
     * transfer. A number they had all reached when we last looked stays a lower bound (done
     * only grows), and a wait for an older collective's done (an inline buffer's reuse, four
     * numbers back) is often met by it: in a loop of small bcasts the root looks at every
     * second call instead of every call. */
    if (reached(*k->done_seen, seq))
        return;
    uint32_t least = 0;
    int first = 1;
    for (int r = 0; r < k->n; r++) {
        if (r == k->me)
            continue;
        wait_flag(k, &k->m->e[r].done, seq);
        /* acquire, as in wait_flag: this value may be newer than the one the wait saw, and a
         * later wait that the bound meets relies on having synchronized with it */
        uint32_t now = loom__load_acquire(&k->m->e[r].done);
        if (first || !reached(now, least))
            least = now;
        first = 0;
    }
    if (!first)
        *k->done_seen = least;
}

/* Member r's inline data for the current collective and its size if r put its data there
 * for it, else NULL. r's mark for this collective's buffer says which: seq when inline,
 * anything else (seq + 1, an older number, 0 before r's first small contribution) when not.
 * The marks and the tiny buffers sit in r's entry beside pub, so a reader learns "not inline",
 * or reads a tiny contribution, from the line it acquired pub from. Read after the acquire of
 * r's pub. */
static inline const void *inline_data(struct loom_shm_call *k, int r, size_t *bytes)
{
    const struct loom_coll_shm_entry *e = &k->m->e[r];
    unsigned i = (k->seq / 2u) & 1u;
    if (loom__load_relaxed(&e->inl[i]) != k->seq)
        return NULL;
    if (e->tiny_bytes[i] != LOOM_SHM_NOT_TINY) {
        *bytes = e->tiny_bytes[i];
        return e->tiny[i];
    }
    *bytes = (size_t)e->in[i].bytes;
    return e->in[i].data;
}

void loom__coll_shm_free(struct loom_coll_shm *m, int n)
{
    for (int r = 0; r < n && r < LOOM_SHM_MAX_RANKS; r++)
        free(m->e[r].in);
}

/* 1 when the packed stream of count elements of t is their layout from the buffer's start
 * (a dense type at offset 0): a reduction can fold straight out of an inline buffer. */
static int packed_is_layout(const struct loom_datatype *t)
{
    return t == NULL || (t->contig && t->true_lb == 0);
}

/* put, for data that goes inline only up to `max` bytes and only if `allowed`; otherwise
 * this collective's mark says "not inline". */
static int inline_put(struct loom_shm_call *k, const void *buf, size_t count,
                      const struct loom_datatype *type, size_t max, int allowed)
{
    struct loom_coll_shm_entry *e = &k->m->e[k->me];
    size_t bytes = type ? loom__dt_stream_size(type, count) : 0;
    int fits = allowed && bytes <= max && k->n > 1;
    int tiny = bytes <= LOOM_SHM_TINY;
    unsigned i = (k->seq / 2u) & 1u;
    uint32_t last = loom__load_relaxed(&e->inl[i]);
    if (!fits && last == 0)
        return 0; /* no mark was ever written: reads as "not inline" */
    if (fits && !tiny && e->in == NULL) {
        /* First small contribution above the tiny size: our two buffers (published by the
         * release of pub; a second-line field, written once). */
        e->in = malloc(2 * sizeof *e->in);
        if (e->in == NULL)
            return 0; /* the mark keeps an older number: "not inline" */
    }
    /* This buffer and its mark were last used for collective seq - 4 or earlier. Only if
     * that use went inline (an even mark: the collective's own number; 0 before the first
     * use) may its readers still be at it, since we returned without waiting for them: then
     * wait for every member's done of seq - 4 or later before writing either (a late reader
     * would take a new mark for its collective's). After a use that did not go inline (an
     * odd mark) we waited for the readers before returning, and the wait, which reads every
     * member's done line while they write theirs, is skipped: it cost a small alltoall
     * 10 - 20 %. */
    if ((last & 1u) == 0)
        loom__shm_wait_all_done_from(k, k->seq - 4u);
    if (!fits) {
        /* "not inline"; already so if it said that for seq - 4 (never equal to seq) */
        if (last != k->seq - 3u)
            loom__store_relaxed(&e->inl[i], k->seq + 1u); /* published by the release of pub */
        return 0;
    }
    unsigned char *to = tiny ? e->tiny[i] : e->in[i].data;
    if (!tiny) /* its readers hold these lines since collective seq - 4 (core/prefetch.h) */
        loom__prefetch_range_for_write(to, bytes);
    if (bytes)
        loom__dt_pack(to, buf, type, count, 0, bytes);
    if (tiny) {
        e->tiny_bytes[i] = (uint8_t)bytes;
    } else {
        e->in[i].bytes = bytes;
        e->tiny_bytes[i] = LOOM_SHM_NOT_TINY;
    }
    loom__store_relaxed(&e->inl[i], k->seq);
    return 1;
}

int loom__shm_inline_put(struct loom_shm_call *k, const void *buf, size_t count,
                         const struct loom_datatype *type, size_t max)
{
    return inline_put(k, buf, count, type, max, 1);
}

const void *loom__shm_inline_stream(struct loom_shm_call *k, int r, size_t *bytes)
{
    loom__shm_wait_pub(k, r, 0);
    return inline_data(k, r, bytes); /* after the acquire of pub */
}

int loom__shm_inline_put_input(struct loom_shm_call *k, const void *buf, size_t count,
                               const struct loom_datatype *type, size_t max)
{
    return inline_put(k, buf, count, type, max, packed_is_layout(type));
}

const void *loom__shm_inline_input(struct loom_shm_call *k, int r, const void *fallback,
                                   size_t count, const struct loom_datatype *type)
{
    size_t bytes;
    const void *data = loom__shm_inline_stream(k, r, &bytes);
    if (data == NULL)
        return NULL;
    if (bytes != (type ? loom__dt_stream_size(type, count) : 0) || !packed_is_layout(type)) {
        /* The members disagree on count or type, which MPI forbids; r may have returned, so
         * its own buffer is not to be read: report, and fold the fallback in its place. */
        k->err = MPI_ERR_TRUNCATE;
        return fallback;
    }
    return data;
}

int loom__shm_inline_mine(struct loom_shm_call *k)
{
    size_t bytes;
    return inline_data(k, k->me, &bytes) != NULL;
}

int loom__shm_inline_get(struct loom_shm_call *k, int r, void *buf, size_t count,
                         const struct loom_datatype *type)
{
    size_t bytes;
    const void *data = loom__shm_inline_stream(k, r, &bytes);
    if (data == NULL)
        return 0;
    loom__shm_copy(k, buf, count, type, data, bytes, MPI_BYTE, 0); /* truncation: k->err */
    return 1;
}

void loom__shm_copy(struct loom_shm_call *k, void *dst, size_t dcount,
                    const struct loom_datatype *dtype, const void *src, size_t scount,
                    const struct loom_datatype *stype, int push)
{
    size_t a = stype ? loom__dt_stream_size(stype, scount) : 0;
    size_t b = dtype ? loom__dt_stream_size(dtype, dcount) : 0;
    if (a > b) {
        if (!push)
            k->err = MPI_ERR_TRUNCATE;
        else /* relaxed: published by the release in loom__shm_done */
            loom__store_relaxed(&k->m->e[k->me].trunc, k->seq);
        a = b;
    }
    if (a == 0 || (src == dst && stype == dtype && scount == dcount))
        return;
    if (stype->contig && dtype->contig)
        memcpy((char *)dst + dtype->true_lb, (const char *)src + stype->true_lb, a);
    else
        loom__dt_copy(dst, dtype, dcount, src, stype, scount, 0, a);
}

void loom__shm_check_trunc(struct loom_shm_call *k, int r)
{
    /* relaxed: the caller acquired done[r], which r released after storing trunc[r] */
    if (loom__load_relaxed(&k->m->e[r].trunc) == k->seq)
        k->err = MPI_ERR_TRUNCATE;
}

void loom__shm_barrier(struct loom_shm_call *k)
{
    for (int r = 0; r < k->n; r++)
        if (r != k->me)
            loom__shm_wait_pub(k, r, 0);
    /* no buffers: done only moves this member's numbering on */
    loom__shm_done_quiet(k);
}

/* ---- which collectives, and the dispatch ---------------------------------------------- */

int loom__coll_shm_usable(int kind, int n, const struct loom_coll_args *a)
{
    if (n > LOOM_SHM_MAX_RANKS)
        return 0;
    switch (kind) {
    case LOOM_COLL_BARRIER:
    case LOOM_COLL_BCAST:
    case LOOM_COLL_REDUCE:
    case LOOM_COLL_ALLREDUCE:
    case LOOM_COLL_GATHER:
    case LOOM_COLL_GATHERV:
    case LOOM_COLL_SCATTER:
    case LOOM_COLL_SCATTERV:
    case LOOM_COLL_ALLGATHER:
    case LOOM_COLL_ALLGATHERV:
    case LOOM_COLL_ALLTOALL:
    case LOOM_COLL_ALLTOALLV:
    case LOOM_COLL_ALLTOALLW:
    case LOOM_COLL_REDUCE_SCATTER:
    case LOOM_COLL_REDUCE_SCATTER_BLOCK:
    case LOOM_COLL_SCAN:
    case LOOM_COLL_EXSCAN:
        (void)a;
        return 1;
    default:
        return 0;
    }
}

int loom__coll_shm_run(int kind, struct loom_comm *c, const struct loom_coll_args *a,
                       int *mpi_err)
{
    struct loom_shm_call k;
    int rc = 0;
    switch (kind) {
    case LOOM_COLL_BARRIER:
        if (c->sh->size > 1) {
            loom__shm_begin(&k, c, a, NULL, 0);
            loom__shm_barrier(&k);
        }
        return 0;
    case LOOM_COLL_BCAST:
        loom__shm_bcast_publish(&k, c, a);
        loom__shm_bcast(&k, a);
        break;
    case LOOM_COLL_REDUCE:
        loom__shm_init(&k, c);
        rc = loom__shm_reduce(&k, a);
        break;
    case LOOM_COLL_ALLREDUCE:
        loom__shm_init(&k, c);
        rc = loom__shm_allreduce(&k, a);
        break;
    case LOOM_COLL_GATHER:
    case LOOM_COLL_GATHERV:
        loom__shm_gather_publish(&k, c, a);
        loom__shm_gather(&k, a);
        break;
    case LOOM_COLL_SCATTER:
    case LOOM_COLL_SCATTERV:
        loom__shm_scatter_publish(&k, c, a, kind);
        loom__shm_scatter(&k, a);
        break;
    case LOOM_COLL_ALLGATHER:
    case LOOM_COLL_ALLGATHERV:
        loom__shm_allgather_publish(&k, c, a, kind);
        loom__shm_allgather(&k, a, kind);
        break;
    case LOOM_COLL_ALLTOALL:
    case LOOM_COLL_ALLTOALLV:
    case LOOM_COLL_ALLTOALLW:
        loom__shm_init(&k, c);
        rc = loom__shm_alltoall(&k, a, kind);
        break;
    case LOOM_COLL_REDUCE_SCATTER:
    case LOOM_COLL_REDUCE_SCATTER_BLOCK:
        loom__shm_init(&k, c);
        rc = loom__shm_reduce_scatter(&k, a);
        break;
    case LOOM_COLL_SCAN:
    case LOOM_COLL_EXSCAN:
        loom__shm_init(&k, c);
        rc = loom__shm_scan(&k, a, kind == LOOM_COLL_EXSCAN);
        break;
    default:
        return LOOM_ERR_INTERN;
    }
    if (rc == 0)
        *mpi_err = k.err;
    return rc;
}
