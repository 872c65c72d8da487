/* p2p/request.c — allocation, completion and retirement of requests (protocol in
 * request.h). */
#include <stdlib.h>
#include <string.h>
#include "core/atomic.h"
#include "core/event.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "p2p/request.h"
#include "task/task.h"

static void request_init(struct loom_request *r, enum loom_req_kind kind, int heap)
{
    memset(r, 0, sizeof *r);
    r->obj.magic = LOOM_MAGIC_REQUEST;
    r->kind = (uint8_t)kind;
    r->heap = (uint8_t)heap;
    r->owner = loom__self;
    atomic_init(&r->flags, 0);
}

struct loom_request *loom__req_new(enum loom_req_kind kind)
{
    struct loom_request *r = malloc(sizeof *r);
    if (r)
        request_init(r, kind, 1);
    return r;
}

void loom__req_init_stack(struct loom_request *r, enum loom_req_kind kind)
{
    request_init(r, kind, 0);
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
        free(r);
    }
}

void loom__req_complete(struct loom_request *r)
{
    struct loom_rank *owner = r->owner;
    /* acq_rel: release publishes status and data to the owner's acquire in
     * loom__req_is_complete; acquire sees the owner's RELEASED and what preceded it. */
    uint32_t before = atomic_fetch_or_explicit(&r->flags, LOOM_REQ_COMPLETE,
                                               memory_order_acq_rel);
    if (before & LOOM_REQ_RELEASED) {
        /* The user let go of it: we are the last to touch it. */
        destroy(r);
        return;
    }
    /* From here r may already be gone (the owner saw COMPLETE): only the owner's event. */
    if (owner)
        loom__event_notify(&owner->event);
}

void loom__req_discard(struct loom_request *r)
{
    destroy(r);
}

void loom__req_release(struct loom_request *r)
{
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
