/* p2p/request.c — allocation, completion and retirement of requests (protocol in
 * request.h). */
#include <stdlib.h>
#include <string.h>
#include "core/atomic.h"
#include "core/event.h"
#include "core/fhandle.h"
#include "core/lock.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "net/net.h"
#include "p2p/request.h"
#include "task/task.h"

/* A heap request (taken from the freed ones, mostly), of the calling rank: every field, one by
 * one, rather than a memset of the whole. Compilers turn a memset of a known size of this
 * order into `rep stos`, whose start-up cost was most of the time a window of nonblocking
 * sends spent making its requests (docs/p2p.md, "Message rate"). A field added to struct
 * loom_request is set here too (tests/p2p/request_init.c checks that every byte but padding
 * is written). */
static void request_init(struct loom_request *r, enum loom_req_kind kind)
{
    loom__object_init(&r->obj, LOOM_MAGIC_REQUEST);
    r->kind = (uint8_t)kind;
    r->heap = 1;
    r->persistent = 0;
    r->active = 0;
    r->mode = 0;
    r->cancelled = 0;
    r->netwatch = 0;
    r->unseen = 0;
    atomic_init(&r->flags, 0);
    r->owner = loom__self;
    r->comm = NULL;
    r->ctx = NULL;
    r->buf = NULL;
    r->count = 0;
    r->type = NULL;
    r->peer = 0;
    r->tag = 0;
    r->me = 0;
    r->status = (MPI_Status){0};
    r->error = 0;
    r->next = NULL;
    r->env = (struct loom_envelope){0};
    r->on_complete = NULL;
    r->on_complete_arg = NULL;
    r->drive = NULL;
}

struct loom_request loom__req_sent = {
    .obj = {.magic = LOOM_MAGIC_REQUEST},
    .kind = LOOM_REQ_DONE,
    .flags = LOOM_REQ_COMPLETE,
    .status = {.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG, .MPI_ERROR = MPI_SUCCESS},
    .error = MPI_SUCCESS,
};

/* Freed heap requests are kept here for reuse instead of going back to malloc while the job
 * runs. Why: a user may wait on a stale copy of a handle (a request an earlier wait already
 * completed and freed); its check must read loom memory whose magic says FREED, never memory
 * malloc took back (MPI_ERR_REQUEST, not a heap-use-after-free). A pooled request keeps magic
 * LOOM_MAGIC_FREED until it is handed out again (a stale handle may then name a live request,
 * as it may in MPICH, whose handles are reused too).
 * One pool per shard of owner ranks (the owner's world rank modulo POOL_SHARDS), each on a
 * line of its own. Under the pool's lock: head, count and the `next` links of the requests in
 * it. Pushed by whoever destroys a request (its owner's threads, or the rank whose thread
 * completed a released one); popped by the owner rank's threads. At most POOL_MAX requests a
 * pool; more go back to malloc (a stale handle to one of those is not caught, as the
 * quarantine of other objects forgets its oldest ones). */
enum { POOL_SHARDS = 64, POOL_MAX = 1024 };
static struct pool {
    struct loom_lock lock;       /* protects head, count, and the links of pooled requests */
    struct loom_request *head;
    unsigned count;
} __attribute__((aligned(64))) pools[POOL_SHARDS];

static struct pool *pool_of(const struct loom_rank *owner)
{
    return &pools[owner ? (unsigned)owner->world_rank % POOL_SHARDS : 0];
}

/* The first level: each rank thread keeps up to CACHE_MAX freed requests of its own on its
 * rank (core/rank.h) and takes them back without a lock; the pools above take the rest, and
 * serve every other thread. Why: a window of nonblocking messages allocates and frees a
 * request per message on each side, and the pool's lock was two atomic operations of each
 * (docs/p2p.md, "Message rate"). */
enum { CACHE_MAX = 256 };

static struct loom_request *cache_pop(void)
{
    struct loom_rank *me = loom__self;
    if (!loom__on_rank_thread || !me || !me->req_cache)
        return NULL;
    struct loom_request *r = me->req_cache;
    me->req_cache = r->next;
    me->req_cached--;
    return r;
}

/* Keep r (its magic already FREED) on the calling rank thread's own rank; 0 if not ours to
 * keep (another thread, another owner, or full). */
static int cache_push(struct loom_request *r, struct loom_rank *owner)
{
    struct loom_rank *me = loom__self;
    if (!loom__on_rank_thread || me != owner || !me || me->req_cached >= CACHE_MAX)
        return 0;
    r->next = me->req_cache;
    me->req_cache = r;
    me->req_cached++;
    return 1;
}

static struct loom_request *pool_pop(void)
{
    struct loom_request *r = cache_pop();
    if (r)
        return r;
    struct pool *p = pool_of(loom__self);
    loom__lock(&p->lock);
    r = p->head;
    if (r) {
        p->head = r->next;
        p->count--;
    }
    loom__unlock(&p->lock);
    return r;
}

/* Keep r (its magic already FREED) for reuse; 0 if the pool is full (the caller frees it). */
static int pool_push(struct loom_request *r, struct loom_rank *owner)
{
    if (cache_push(r, owner))
        return 1;
    struct pool *p = pool_of(owner);
    int kept = 0;
    loom__lock(&p->lock);
    if (p->count < POOL_MAX) {
        r->next = p->head;
        p->head = r;
        p->count++;
        kept = 1;
    }
    loom__unlock(&p->lock);
    return kept;
}

void loom__req_pool_drain(void)
{
    for (int i = 0; i < loom__job.nranks; i++) {
        struct loom_rank *rk = &loom__job.ranks[i];
        while (rk->req_cache) {
            struct loom_request *r = rk->req_cache;
            rk->req_cache = r->next;
            free(r);
        }
        rk->req_cached = 0;
    }
    for (int i = 0; i < POOL_SHARDS; i++) {
        struct pool *p = &pools[i];
        loom__lock(&p->lock);
        struct loom_request *r = p->head;
        p->head = NULL;
        p->count = 0;
        loom__unlock(&p->lock);
        while (r) {
            struct loom_request *next = r->next;
            free(r);
            r = next;
        }
    }
}

struct loom_request *loom__req_new(enum loom_req_kind kind)
{
    struct loom_request *r = pool_pop();
    if (r == NULL)
        r = malloc(sizeof *r);
    if (r)
        request_init(r, kind);
    return r;
}

/* A blocking call's request, on its stack: there the memset stays. The request sits at the
 * same address call after call, and the peer that completed the last one wrote into it from
 * its core; with the field stores of request_init a 1 KiB blocking ping-pong took 20 - 30 ns
 * more (docs/p2p.md, "Message rate"). */
void loom__req_init_stack(struct loom_request *r, enum loom_req_kind kind)
{
    memset(r, 0, sizeof *r);
    loom__object_init(&r->obj, LOOM_MAGIC_REQUEST);
    r->kind = (uint8_t)kind;
    r->owner = loom__self;
}

/* The end of a request: what its completion owes (bsend space), its type reference, its
 * memory. */
static void destroy(struct loom_request *r)
{
    if (r->on_complete)
        r->on_complete(r);
    if (r->type)
        loom__dt_release(r->type);
    if (r->heap) {
        r->obj.magic = LOOM_MAGIC_FREED;
        loom__fhandle_forget(r); /* a pooled request becomes another: its Fortran handle goes */
        if (!pool_push(r, r->owner))
            free(r);
    }
}

void loom__req_complete(struct loom_request *r)
{
    struct loom_rank *owner = r->owner;
    int watched = r->netwatch;
    if (!r->heap) {
        /* On a blocking call's stack or inside one of loom's structures (a schedule's
         * operation): no user holds it, it is never RELEASED (request.h), nothing to read back.
         * A release store publishes status and data; unlike a read-modify-write it does not
         * hold this thread until the owner's line is here (the owner spins on it), and the
         * notify's protocol covers a store still in flight (event.h). */
        if (watched)
            loom__net_watch_end();
        atomic_store_explicit(&r->flags, LOOM_REQ_COMPLETE, memory_order_release);
        if (owner)
            loom__event_notify(&owner->event);
        return;
    }
    /* Release publishes status and data to the owner's acquire in loom__req_is_complete;
     * acquire sees the owner's RELEASED and what preceded it; seq_cst lets the notify below
     * go without a fence of its own (loom__event_notify_after_rmw). */
    uint32_t before = atomic_fetch_or_explicit(&r->flags, LOOM_REQ_COMPLETE,
                                               memory_order_seq_cst);
    if (watched)
        loom__net_watch_end();
    if (before & LOOM_REQ_RELEASED) {
        /* The user let go of it: we are the last to touch it. */
        destroy(r);
        return;
    }
    /* From here r may already be gone (the owner saw COMPLETE): only the owner's event. */
    if (owner)
        loom__event_notify_after_rmw(&owner->event);
}

void loom__req_complete_unseen(struct loom_request *r)
{
    if (r->netwatch)
        loom__net_watch_end();
    /* release: pairs with the acquire of a later test, as in loom__req_complete */
    atomic_store_explicit(&r->flags, LOOM_REQ_COMPLETE, memory_order_release);
}

void loom__req_discard(struct loom_request *r)
{
    destroy(r);
}

void loom__req_release(struct loom_request *r)
{
    if (r == &loom__req_sent) /* never freed; and never written, lest its line move to the */
        return;                /* core of every rank that frees one (request.h) */
    if (r->persistent && !r->active) {
        destroy(r);
        return;
    }
    uint32_t before = atomic_fetch_or_explicit(&r->flags, LOOM_REQ_RELEASED,
                                               memory_order_acq_rel);
    if (before & LOOM_REQ_COMPLETE)
        destroy(r);
}

void loom__req_retire(struct loom_request *r)
{
    if (r->persistent)
        r->active = 0;
    else
        destroy(r);
}

static int is_complete(void *arg)
{
    return loom__req_is_complete(arg);
}

void loom__req_wait(struct loom_request *r)
{
    if (loom__req_is_complete(r))
        return;
    if (r->drive) { /* the owner advances it itself while it waits (collectives) */
        r->drive(r, 1);
        return;
    }
    loom__wait_until(&loom__self->event, is_complete, r);
}
