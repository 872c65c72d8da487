/* rma/pscw.c — generalized active target synchronization: MPI_Win_post, MPI_Win_start,
 * MPI_Win_complete, MPI_Win_wait and MPI_Win_test (MPI 4.1 section 12.5.2).
 *
 * A target exposes its memory by writing the list of its origins into its part of the shared
 * half (under the part's small lock) and ringing each origin's doorbell. An origin's
 * MPI_Win_start takes, for each of its targets, that target's open exposure epoch, marking
 * itself started in it: an epoch can be taken once by each origin it lists, so an origin
 * that runs ahead into its next MPI_Win_start waits until the target has posted again. The
 * memory needed is the list of the current epoch, nothing per pair of ranks.
 *
 * MPI_Win_complete adds one to each target's count of completed origins (release: the
 * origin's puts, already landed, happen before) and rings the target; MPI_Win_wait waits for
 * the count to reach the number of origins (acquire) and closes the epoch. */
#include <stdlib.h>
#include "core/atomic.h"
#include "core/error.h"
#include "core/event.h"
#include "core/rank.h"
#include "rma/rma.h"

/* Index of r in a[0..n-1] (ascending), or -1. */
static int find(const int *a, int n, int r)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] == r)
            return mid;
        if (a[mid] < r)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int loom__rma_post(struct loom_win *w, int *ranks, int n)
{
    struct loom_win_seg *s = &w->sh->seg[w->rank];
    uint8_t *started = calloc((size_t)(n ? n : 1), 1); /* freed by the next post or free */
    if (started == NULL) {
        free(ranks);
        return LOOM_ERR_NOMEM;
    }
    loom__lock(&s->expo_lock);
    free(s->expo_ranks);
    free(s->expo_started);
    s->expo_ranks = ranks;
    s->expo_started = started;
    s->nexpo = n;
    /* relaxed: no origin of this epoch can complete before it has started, and starting
     * takes expo_lock after this section */
    atomic_store_explicit(&s->expo_done, 0, memory_order_relaxed);
    s->expo_open = 1;
    loom__unlock(&s->expo_lock);
    atomic_store_explicit(&w->exposing, 1, memory_order_relaxed);
    for (int i = 0; i < n; i++)
        if (w->sh->seg[ranks[i]].remote)
            loom__rma_net_post(w, ranks[i]); /* recorded in its node process's half */
        else
            loom__event_notify(loom__win_event(w, ranks[i]));
    return 0;
}

struct take {
    struct loom_win_seg *s;
    int me;
};

/* 1 once the target's open epoch lists this origin and it took it. A target of another node
 * process: once its post to this origin has come (rma/net_target.c), which is taken. */
static int take_epoch(void *arg)
{
    struct take *t = arg;
    struct loom_win_seg *s = t->s;
    int took = 0;
    loom__lock(&s->expo_lock);
    if (s->remote) {
        for (int i = 0; i < s->nrposts && !took; i++)
            if (s->rposts[i] == t->me) {
                s->rposts[i] = s->rposts[--s->nrposts];
                took = 1;
            }
    } else if (s->expo_open) {
        int i = find(s->expo_ranks, s->nexpo, t->me);
        if (i >= 0 && !s->expo_started[i]) {
            s->expo_started[i] = 1;
            took = 1;
        }
    }
    loom__unlock(&s->expo_lock);
    return took;
}

int loom__rma_start(struct loom_win *w, int *ranks, int n)
{
    uint8_t *set = calloc((size_t)w->size, 1); /* freed by loom__rma_complete */
    if (set == NULL) {
        free(ranks);
        return LOOM_ERR_NOMEM;
    }
    for (int i = 0; i < n; i++) {
        struct take t = {&w->sh->seg[ranks[i]], w->rank};
        if (!take_epoch(&t))
            loom__wait_until(&loom__self->event, take_epoch, &t);
        set[ranks[i]] = 1;
    }
    w->start_set = set;
    w->start_ranks = ranks;
    w->nstart = n;
    /* release: start_set is written before an operation that sees START reads it */
    atomic_fetch_or_explicit(&w->access, LOOM_RMA_START, memory_order_release);
    return 0;
}

void loom__rma_complete(struct loom_win *w)
{
    loom__rma_flush(w); /* every operation of the epoch has landed */
    atomic_fetch_and_explicit(&w->access, ~LOOM_RMA_START, memory_order_relaxed);
    for (int i = 0; i < w->nstart; i++) {
        int t = w->start_ranks[i];
        if (w->sh->seg[t].remote) { /* counted by t's node process (rma/net_target.c) */
            loom__rma_net_complete(w, t);
            continue;
        }
        /* release: this origin's stores to t's memory happen before t's wait returns */
        loom__fetch_add_acq_rel(&w->sh->seg[t].expo_done, 1);
        loom__event_notify(loom__win_event(w, t));
    }
    free(w->start_set);
    free(w->start_ranks);
    w->start_set = NULL;
    w->start_ranks = NULL;
    w->nstart = 0;
}

static int all_done(void *arg)
{
    struct loom_win_seg *s = arg;
    /* acquire: pairs with each origin's release in loom__rma_complete */
    return loom__load_acquire(&s->expo_done) == s->nexpo;
}

int loom__rma_wait(struct loom_win *w, int block)
{
    struct loom_win_seg *s = &w->sh->seg[w->rank];
    if (!all_done(s)) {
        if (!block)
            return 0;
        loom__wait_until(&loom__self->event, all_done, s);
    }
    loom__lock(&s->expo_lock);
    s->expo_open = 0;
    loom__unlock(&s->expo_lock);
    atomic_store_explicit(&w->exposing, 0, memory_order_relaxed);
    return 1;
}
