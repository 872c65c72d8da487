/* rma/lock.c — the passive-target lock of one target's window memory (protocol in rma.h).
 *
 * An origin takes the word itself with a compare-and-swap: the target is never asked, so a
 * lock is granted while the target computes outside MPI. An origin that finds it taken waits
 * like every wait in loom (spin, yield, sleep on its rank's event, running tasks meanwhile),
 * listed on the lock so that the releaser knows whom to wake. Shared holders only count; an
 * exclusive holder excludes every other holder. No preference between the two kinds: a
 * waiting exclusive origin gets the lock the first time the shared holders have all left. */
#include "core/atomic.h"
#include "core/event.h"
#include "core/rank.h"
#include "rma/rma.h"

/* One try: 1 if the lock was taken. seq_cst: see the wake-up argument in rma.h. */
static int try_take(struct loom_rma_lock *l, int exclusive)
{
    uint32_t w = atomic_load_explicit(&l->word, memory_order_relaxed);
    for (;;) {
        if (exclusive ? w != 0 : (w & LOOM_RMA_EXCLUSIVE) != 0)
            return 0;
        uint32_t want = exclusive ? LOOM_RMA_EXCLUSIVE : w + 1;
        /* acquire (in seq_cst): the previous holders' stores to the memory are visible */
        if (atomic_compare_exchange_weak_explicit(&l->word, &w, want, memory_order_seq_cst,
                                                  memory_order_relaxed))
            return 1;
    }
}

int loom__rma_lock_try(struct loom_rma_lock *l, int exclusive)
{
    return try_take(l, exclusive);
}

struct take {
    struct loom_rma_lock *l;
    int exclusive;
};

static int taken(void *arg)
{
    struct take *t = arg;
    return try_take(t->l, t->exclusive);
}

void loom__rma_lock_acquire(struct loom_rma_lock *l, int exclusive)
{
    if (try_take(l, exclusive))
        return;
    /* Listed before the next try, so that a release after this point sees us (rma.h). */
    struct loom_rma_waiter me = {&loom__self->event, NULL};
    loom__lock(&l->wl);
    me.next = l->waiters;
    l->waiters = &me;
    loom__unlock(&l->wl);
    atomic_fetch_add_explicit(&l->nwaiters, 1, memory_order_seq_cst);
    struct take t = {l, exclusive};
    loom__wait_until(&loom__self->event, taken, &t);
    atomic_fetch_sub_explicit(&l->nwaiters, 1, memory_order_relaxed);
    loom__lock(&l->wl);
    for (struct loom_rma_waiter **p = &l->waiters; *p != NULL; p = &(*p)->next)
        if (*p == &me) {
            *p = me.next;
            break;
        }
    loom__unlock(&l->wl);
}

void loom__rma_lock_release(struct loom_rma_lock *l, int exclusive)
{
    /* release (in seq_cst): this holder's stores to the memory reach the next holder */
    if (exclusive)
        atomic_store_explicit(&l->word, 0, memory_order_seq_cst);
    else
        atomic_fetch_sub_explicit(&l->word, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&l->nwaiters, memory_order_seq_cst) == 0)
        return;
    loom__lock(&l->wl);
    for (struct loom_rma_waiter *w = l->waiters; w != NULL; w = w->next)
        loom__event_notify(w->event);
    int remote = l->rwaiters != NULL;
    loom__unlock(&l->wl);
    if (remote) /* origins of other node processes: granted here (rma/net_target.c) */
        loom__rma_net_grant(l);
}
