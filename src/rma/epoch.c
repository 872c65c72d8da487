/* rma/epoch.c — fences and passive-target epochs of one origin (MPI 4.1 sections 12.5.1 and
 * 12.5.3). The API layer checks that a call fits the epochs open (api/rma_sync.c); these do
 * the work.
 *
 * MPI_Win_fence completes the origin's operations (their chunk tasks landed: acquire on the
 * pending counter), then meets every member in a barrier of the window's private
 * communicator; the barrier's release/acquire carries every member's stores to every member
 * after it. A rank waiting in it runs tasks like any waiter.
 *
 * MPI_Win_lock takes the target's lock word itself (rma/lock.c); MPI_Win_lock_all takes every
 * target's, shared, in rank order. MPI_MODE_NOCHECK takes none: the program guarantees that
 * no conflicting lock exists. The lock held on each target is recorded in the handle
 * (struct loom_win.held), one byte per target, made at the first MPI_Win_lock. */
#include <stdlib.h>
#include "coll/coll.h"
#include "comm/comm.h"
#include "core/atomic.h"
#include "rma/rma.h"

const char *loom__rma_leave_fence(struct loom_win *w)
{
    if (!(atomic_load_explicit(&w->access, memory_order_relaxed) & LOOM_RMA_FENCE))
        return NULL;
    if (atomic_load_explicit(&w->fence_ops, memory_order_relaxed))
        return "operations were issued since the last MPI_Win_fence, which must end their "
               "epoch";
    atomic_fetch_and_explicit(&w->access, ~LOOM_RMA_FENCE, memory_order_relaxed);
    return NULL;
}

int loom__rma_fence(struct loom_win *w, int assert)
{
    loom__rma_flush(w);
    struct loom_coll_args a = {0};
    int mpi_err = MPI_SUCCESS;
    int rc = loom__coll_run(LOOM_COLL_BARRIER, w->comm, w->comm, &a, NULL, &mpi_err);
    if (rc != 0)
        return rc;
    atomic_store_explicit(&w->fence_ops, 0, memory_order_relaxed);
    if (assert & MPI_MODE_NOSUCCEED)
        atomic_fetch_and_explicit(&w->access, ~LOOM_RMA_FENCE, memory_order_relaxed);
    else
        atomic_fetch_or_explicit(&w->access, LOOM_RMA_FENCE, memory_order_relaxed);
    return 0;
}

/* The handle's per-target record, made on first use. NULL on ENOMEM. */
static _Atomic uint8_t *held_of(struct loom_win *w)
{
    _Atomic uint8_t *h = atomic_load_explicit(&w->held, memory_order_acquire);
    if (h != NULL)
        return h;
    _Atomic uint8_t *mine = calloc((size_t)w->size, sizeof *mine); /* freed by loom__win_free */
    if (mine == NULL)
        return NULL;
    for (int i = 0; i < w->size; i++)
        atomic_init(&mine[i], 0);
    /* release: the zeroed entries are visible to whoever loads the pointer (acquire) */
    if (atomic_compare_exchange_strong_explicit(&w->held, &h, mine, memory_order_acq_rel,
                                                memory_order_acquire))
        return mine;
    free(mine); /* another thread of the rank installed one first */
    return h;
}

int loom__rma_held(struct loom_win *w, int r)
{
    _Atomic uint8_t *h = atomic_load_explicit(&w->held, memory_order_acquire);
    return h ? atomic_load_explicit(&h[r], memory_order_relaxed) : 0;
}

int loom__rma_any_held(struct loom_win *w)
{
    _Atomic uint8_t *h = atomic_load_explicit(&w->held, memory_order_acquire);
    for (int r = 0; h != NULL && r < w->size; r++)
        if (atomic_load_explicit(&h[r], memory_order_relaxed) != 0)
            return 1;
    return 0;
}

int loom__rma_lock(struct loom_win *w, int r, int exclusive, int nocheck)
{
    _Atomic uint8_t *h = held_of(w);
    if (h == NULL)
        return LOOM_ERR_NOMEM;
    if (!nocheck && w->sh->seg[r].remote)
        loom__rma_net_lock(w, r, exclusive); /* asked of its node process */
    else if (!nocheck)
        loom__rma_lock_acquire(&w->sh->seg[r].lock, exclusive);
    uint8_t how = (uint8_t)((exclusive ? LOOM_RMA_HELD_EXCLUSIVE : LOOM_RMA_HELD_SHARED) |
                            (nocheck ? LOOM_RMA_HELD_NOCHECK : 0));
    atomic_store_explicit(&h[r], how, memory_order_relaxed);
    return 0;
}

void loom__rma_unlock(struct loom_win *w, int r)
{
    _Atomic uint8_t *h = atomic_load_explicit(&w->held, memory_order_acquire);
    uint8_t how = atomic_load_explicit(&h[r], memory_order_relaxed);
    loom__rma_flush(w); /* the epoch's operations land before the lock is released */
    atomic_store_explicit(&h[r], 0, memory_order_relaxed);
    if (how & LOOM_RMA_HELD_NOCHECK)
        return;
    if (w->sh->seg[r].remote)
        loom__rma_net_unlock(w, r, (how & LOOM_RMA_HELD_EXCLUSIVE) != 0);
    else
        loom__rma_lock_release(&w->sh->seg[r].lock, (how & LOOM_RMA_HELD_EXCLUSIVE) != 0);
}

void loom__rma_lock_all(struct loom_win *w, int nocheck)
{
    w->lock_all_nocheck = nocheck;
    if (!nocheck) {
        for (int r = 0; r < w->size; r++)
            if (!w->sh->seg[r].remote)
                loom__rma_lock_acquire(&w->sh->seg[r].lock, 0);
        loom__rma_net_lock_all(w); /* the members of other node processes, if any */
    }
    atomic_fetch_or_explicit(&w->access, LOOM_RMA_LOCK_ALL, memory_order_relaxed);
}

void loom__rma_unlock_all(struct loom_win *w)
{
    loom__rma_flush(w);
    atomic_fetch_and_explicit(&w->access, ~LOOM_RMA_LOCK_ALL, memory_order_relaxed);
    for (int r = 0; r < w->size && !w->lock_all_nocheck; r++) {
        if (w->sh->seg[r].remote)
            loom__rma_net_unlock(w, r, 0);
        else
            loom__rma_lock_release(&w->sh->seg[r].lock, 0);
    }
}
