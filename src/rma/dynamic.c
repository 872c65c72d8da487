/* rma/dynamic.c — the regions attached to a dynamic window (MPI_Win_create_dynamic,
 * MPI_Win_attach, MPI_Win_detach).
 *
 * Each member keeps its regions in its part of the shared half, as an array sorted by base
 * under a read-write lock: every operation on a dynamic window reads it (is the target range
 * attached?), only the member itself writes it. Regions may not overlap (the standard makes
 * attaching overlapping memory erroneous; loom says so with MPI_ERR_RMA_ATTACH), so the
 * region that could hold an address is found by binary search. Over several node processes
 * a member's regions are known only in its own node process's shared half: the origin
 * sends the address, and the target's node process checks it here (rma/net_target.c). */
#include <stdlib.h>
#include "core/error.h"
#include "rma/rma.h"

/* Index of the first region whose base is above a (regions sorted by base). */
static int after(const struct loom_win_seg *s, uintptr_t a)
{
    int lo = 0, hi = s->nregions;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if ((uintptr_t)s->regions[mid].base <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int loom__rma_in_region(struct loom_win_seg *s, uintptr_t lo, uintptr_t hi)
{
    pthread_rwlock_rdlock(&s->regions_lock);
    int i = after(s, lo) - 1;
    int in = i >= 0 && hi >= lo &&
             hi - (uintptr_t)s->regions[i].base <= s->regions[i].size;
    pthread_rwlock_unlock(&s->regions_lock);
    return in;
}

int loom__rma_attach(struct loom_win *w, void *base, size_t size)
{
    struct loom_win_seg *s = &w->sh->seg[w->rank];
    uintptr_t a = (uintptr_t)base;
    int rc = 0;
    pthread_rwlock_wrlock(&s->regions_lock);
    int i = after(s, a);
    /* the region before must end at or before a; the one at i must start at or after a+size */
    if ((i > 0 && (uintptr_t)s->regions[i - 1].base + s->regions[i - 1].size > a) ||
        (i < s->nregions && size > 0 && (uintptr_t)s->regions[i].base < a + size) ||
        (i > 0 && (uintptr_t)s->regions[i - 1].base == a)) {
        rc = LOOM_ERR_RMA_ATTACH;
    } else {
        if (s->nregions == s->cap) {
            int cap = s->cap ? 2 * s->cap : 4;
            /* freed with the shared half */
            struct loom_rma_region *g = realloc(s->regions, (size_t)cap * sizeof *g);
            if (g == NULL) {
                pthread_rwlock_unlock(&s->regions_lock);
                return LOOM_ERR_NOMEM;
            }
            s->regions = g;
            s->cap = cap;
        }
        for (int k = s->nregions; k > i; k--)
            s->regions[k] = s->regions[k - 1];
        s->regions[i] = (struct loom_rma_region){base, size};
        s->nregions++;
    }
    pthread_rwlock_unlock(&s->regions_lock);
    return rc;
}

int loom__rma_detach(struct loom_win *w, const void *base)
{
    struct loom_win_seg *s = &w->sh->seg[w->rank];
    int rc = LOOM_ERR_RMA_ATTACH;
    pthread_rwlock_wrlock(&s->regions_lock);
    int i = after(s, (uintptr_t)base) - 1;
    if (i >= 0 && s->regions[i].base == base) {
        for (int k = i; k + 1 < s->nregions; k++)
            s->regions[k] = s->regions[k + 1];
        s->nregions--;
        rc = 0;
    }
    pthread_rwlock_unlock(&s->regions_lock);
    return rc;
}
