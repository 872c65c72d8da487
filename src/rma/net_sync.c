/* rma/net_sync.c — synchronization with a member of another node process, the origin's side:
 * passive-target locks asked of the target node process (whose poller takes the lock word
 * for the origin, or queues the request until a release can grant it: rma/net_target.c),
 * and the messages of post-start-complete-wait.
 *
 * A lock request's record (struct grants) lives on the waiting thread's stack: `left` counts
 * the grants still to come, decremented with release by the poller that receives each; the
 * waiter waits for 0 with acquire and returns only then, so the record outlives its use. */
#include "core/atomic.h"
#include "core/event.h"
#include "core/rank.h"
#include "net/net.h"
#include "rma/net_msg.h"
#include "rma/rma.h"

struct grants {
    _Atomic int left;
    struct loom_rank *owner;
};

void loom__rma_net_granted(uint64_t cookie)
{
    struct grants *g = (struct grants *)(uintptr_t)cookie;
    struct loom_rank *owner = g->owner;
    /* release: the lock's grant (and the previous holders' stores, which the target's
     * poller acquired with the word) happen before the waiter's return; after it, g may be
     * gone */
    loom__fetch_sub_acq_rel(&g->left, 1);
    loom__event_notify(&owner->event);
}

static int all_granted(void *arg)
{
    struct grants *g = arg;
    return loom__load_acquire(&g->left) == 0;
}

/* Post a request of `kind` about target r (origin: this window rank), flags and cookie. */
static void send_sync(struct loom_win *w, int kind, int target, int origin, int node,
                      uint32_t flags, void *cookie)
{
    struct loom_rma_msg m = {0};
    m.kind = (uint32_t)kind;
    m.flags = flags;
    m.target = target;
    m.origin = origin;
    m.win = w->sh->net_id;
    m.cookie = (uint64_t)(uintptr_t)cookie;
    if (loom__net_rma_send(node, 0, &m, sizeof m) != 0)
        loom__rma_net_nomem("sending a one-sided synchronization to another node process");
}

void loom__rma_net_lock(struct loom_win *w, int r, int exclusive)
{
    struct grants g = {1, loom__self};
    send_sync(w, LOOM_RMA_M_LOCK, r, w->rank, w->sh->seg[r].node, (uint32_t)exclusive, &g);
    loom__wait_until(&loom__self->event, all_granted, &g);
}

void loom__rma_net_lock_all(struct loom_win *w)
{
    struct grants g = {0, loom__self};
    for (int r = 0; r < w->size; r++)
        if (w->sh->seg[r].remote)
            g.left++;
    if (g.left == 0)
        return;
    for (int r = 0; r < w->size; r++)
        if (w->sh->seg[r].remote)
            send_sync(w, LOOM_RMA_M_LOCK, r, w->rank, w->sh->seg[r].node, 0, &g);
    loom__wait_until(&loom__self->event, all_granted, &g);
}

void loom__rma_net_unlock(struct loom_win *w, int r, int exclusive)
{
    /* the caller flushed: every operation of the epoch was carried out, and messages from
     * one node process to another are handled in the order they were sent */
    send_sync(w, LOOM_RMA_M_UNLOCK, r, w->rank, w->sh->seg[r].node, (uint32_t)exclusive, NULL);
}

void loom__rma_net_post(struct loom_win *w, int r)
{
    send_sync(w, LOOM_RMA_M_POST, w->rank, r, w->sh->seg[r].node, 0, NULL);
}

void loom__rma_net_complete(struct loom_win *w, int r)
{
    send_sync(w, LOOM_RMA_M_COMPLETE, r, w->rank, w->sh->seg[r].node, 0, NULL);
}
