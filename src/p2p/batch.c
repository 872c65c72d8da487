/* p2p/batch.c — publishing the batches of messages in a ring (batch.h has the protocol). */
#include "p2p/batch.h"
#include "core/atomic.h"
#include "core/event.h"
#include "core/rank.h"
#include "core/stats.h"
#include "p2p/ring.h"

int loom__batching = 1;
uint32_t loom__batch_cells = LOOM_RING_MIN / 4;
LOOM_TLS_FAST struct loom_ring *loom__batch_ring;

void loom__batch_publish_locked(struct loom_ring *g)
{
    uint32_t p = loom__load_relaxed(&g->prod.published);
    uint32_t h = loom__load_relaxed(&g->prod.head);
    /* The messages' first cells: each message's size says where the next begins (the cells
     * were written under the lock we hold, or by a thread that held it before us). */
    uint32_t first[LOOM_CELL_SPAN_MAX];
    int n = 0;
    for (uint32_t q = p; q != h; q += loom__cell_count(g->cells[q & LOOM_RING_MASK].bytes))
        first[n++] = q;
    /* Newest first: a receiver polls the oldest, and once it sees that one it finds the
     * others published too, so it can fetch their lines together: the oldest says how many
     * cells follow it (`ahead`, released with it). Each store releases its message's cells. */
    if (n > 1)
        g->cells[first[0] & LOOM_RING_MASK].ahead = (uint16_t)(h - first[1]);
    while (n-- > 0)
        loom__store_release(&g->cells[first[n] & LOOM_RING_MASK].seq, first[n] + 1);
    loom__store_relaxed(&g->prod.published, h);
}

int loom__batch_publish(struct loom_ring *g, int wait)
{
    /* relaxed: a hint; the lock orders the real check */
    if (loom__load_relaxed(&g->prod.published) == loom__load_relaxed(&g->prod.head))
        return 0;
    if (wait)
        loom__lock(&g->prod.lock);
    else if (!loom__trylock(&g->prod.lock))
        return 1;
    loom__batch_publish_locked(g);
    loom__unlock(&g->prod.lock);
    return 1;
}

void loom__batch_publish_mine(void)
{
    struct loom_ring *g = loom__batch_ring;
    loom__batch_ring = NULL;
    if (g)
        loom__batch_publish(g, 1);
}

void loom__batch_opened(struct loom_ring *g, int from, int dest, size_t bytes)
{
    LOOM_STATS_SENT(&loom__job.ranks[from], bytes); /* LOOM_STATS */
    struct loom_event *ev = &loom__job.ranks[dest].event;
    /* Either a waiter that counted itself in sleepers sees this batch in the pull it makes
     * after its grace period (loom__inbox_pending), or we see the sleeper (core/event.h): no
     * fence. */
    loom__notify_order();
    if (loom__load_relaxed(&ev->sleepers) != 0) {
        loom__batch_publish(g, 1);
        loom__event_notify(ev);
        return;
    }
    /* The batch stays open: ask for the lines of its next cells now, so that their stores do
     * not wait one after the other; only cells the receiver has left (below tail_seen +
     * cells). Read without the lock, the bounds are a hint: a prefetch writes nothing. */
    uint32_t p = loom__load_relaxed(&g->prod.published);
    uint32_t free_to = loom__load_relaxed(&g->prod.tail_seen) + loom__ring_cells;
    for (uint32_t i = loom__load_relaxed(&g->prod.head); i - p < loom__batch_cells && i != free_to;
         i++)
        loom__prefetch_for_write(&g->cells[i & LOOM_RING_MASK]);
}

int loom__batch_pull(int dest, int wait)
{
    if (!loom__rank_is_local(dest))
        return 0; /* rings join ranks of one node process */
    struct loom_inbox *b = &loom__inboxes[dest - loom__job.first];
    int n = loom__load_acquire(&b->nactive), found = 0;
    for (int i = 0; i < n; i++) {
        struct loom_ring *g = loom__load_acquire(&b->active[i]); /* pairs with ring_make */
        if (g)
            found |= loom__batch_publish(g, wait);
    }
    return found;
}
