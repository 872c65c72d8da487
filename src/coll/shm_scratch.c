/* coll/shm_scratch.c — the per-rank cache of collective scratch buffers (see shm.h).
 *
 * Why: a nonblocking allreduce of 2 MB used to malloc 2 MB of scratch per call; glibc maps
 * such a block fresh each time and the first touch of each page faults, which costs more
 * than the reduction. Keeping a few released buffers per rank turns that into a reuse.
 *
 * Layout: every buffer is preceded by a 64-byte header holding its capacity, so a buffer
 * can be freed or cached wherever it is released. Each rank (world rank index) has SLOTS
 * cached buffers under a tiny spin lock (held for a few loads and stores, never across a
 * call): get takes the smallest cached buffer that is big enough; put stores into an empty
 * slot, else replaces the smallest cached buffer when the new one is larger, and frees what
 * it does not keep. The lock's acquire/release orders a buffer's header and contents between
 * the thread that put it and the one that takes it.
 *
 * The per-rank caches are one array made at job start (loom__coll_scratch_job_init) and freed
 * at job end, after every rank and progress thread has stopped; without it (unit tests that
 * run no job) buffers are simply malloc'ed and freed. Buffers are freed by
 * loom__coll_scratch_rank_fini (MPI_Finalize, after the rank's nonblocking collectives have
 * ended) or when they do not fit in the cache. */
#include <stdlib.h>
#include "coll/shm.h"
#include "core/atomic.h"
#include "core/rank.h"
#include "dt/dt.h"

#define SLOTS 4
#define HEADER 64 /* keeps the buffer 64-byte aligned */
#define CACHE_MIN (16u * 1024u) /* smaller buffers are cheap to malloc: freed, not cached */

struct cache {
    _Atomic int lock;  /* 0 free, 1 held: protects buf[] and cap[] */
    void *buf[SLOTS];  /* cached buffers, NULL for an empty slot */
    size_t cap[SLOTS]; /* their capacities */
};

static void lock(struct cache *c)
{
    int expected = 0;
    /* acquire: sees the slots as the previous holder left them before its release */
    while (!loom__cas_acq_rel(&c->lock, &expected, 1)) {
        expected = 0;
        loom__cpu_relax();
    }
}

static void unlock(struct cache *c)
{
    loom__store_release(&c->lock, 0); /* pairs with the CAS in lock() */
}

/* [ncaches] one per world rank; written at job start and end only (no rank runs then). */
static struct cache *caches;
static int ncaches;

int loom__coll_scratch_job_init(int nranks)
{
    caches = calloc((size_t)nranks, sizeof *caches);
    ncaches = caches ? nranks : 0;
    return caches ? 0 : -1;
}

void loom__coll_scratch_job_fini(void)
{
    for (int r = 0; r < ncaches; r++)
        for (int i = 0; i < SLOTS; i++)
            loom__coll_scratch_free(caches[r].buf[i]);
    free(caches);
    caches = NULL;
    ncaches = 0;
}

static struct cache *cache_of(const struct loom_rank *owner)
{
    return owner && owner->world_rank >= 0 && owner->world_rank < ncaches
               ? &caches[owner->world_rank]
               : NULL;
}

static size_t cap_of(void *p)
{
    return *(size_t *)((char *)p - HEADER);
}

void loom__coll_scratch_free(void *p)
{
    if (p)
        free((char *)p - HEADER);
}

void *loom__coll_scratch_get(struct loom_rank *owner, size_t n)
{
    struct cache *c = cache_of(owner);
    if (c) {
        int best = -1;
        lock(c);
        for (int i = 0; i < SLOTS; i++)
            if (c->buf[i] && c->cap[i] >= n && (best < 0 || c->cap[i] < c->cap[best]))
                best = i;
        void *p = best >= 0 ? c->buf[best] : NULL;
        if (p)
            c->buf[best] = NULL;
        unlock(c);
        if (p)
            return p;
    }
    /* round up to whole pages past 16 KB so that a slightly larger call can reuse it */
    size_t cap = n > 16384 ? (n + 4095) & ~(size_t)4095 : n;
    char *raw = aligned_alloc(64, (HEADER + cap + 63) & ~(size_t)63);
    if (!raw)
        return NULL;
    *(size_t *)raw = cap;
    return raw + HEADER;
}

void loom__coll_scratch_put(struct loom_rank *owner, void *p)
{
    if (!p)
        return;
    struct cache *c = cap_of(p) >= CACHE_MIN ? cache_of(owner) : NULL;
    if (c) {
        size_t cap = cap_of(p);
        int small = 0;
        lock(c);
        for (int i = 0; i < SLOTS; i++) {
            if (!c->buf[i]) {
                small = i;
                break;
            }
            if (c->cap[i] < c->cap[small])
                small = i;
        }
        void *out = p;
        if (!c->buf[small] || c->cap[small] < cap) {
            out = c->buf[small];
            c->buf[small] = p;
            c->cap[small] = cap;
        }
        unlock(c);
        p = out;
    }
    loom__coll_scratch_free(p);
}

void loom__coll_scratch_rank_fini(void)
{
    struct cache *c = cache_of(loom__self);
    if (!c)
        return;
    lock(c);
    for (int i = 0; i < SLOTS; i++) {
        loom__coll_scratch_free(c->buf[i]);
        c->buf[i] = NULL;
    }
    unlock(c);
}

/* Scratch room for count elements of type from the rank's cache: *raw is what to give back
 * (NULL when nothing was needed), the result the buffer address. NULL on ENOMEM. */
void *loom__shm_scratch(struct loom_rank *self, size_t count, const struct loom_datatype *type,
                        void **raw)
{
    *raw = NULL;
    if (count == 0 || type->size == 0)
        return (void *)type; /* never touched: nothing to copy */
    size_t span = (size_t)type->true_extent + (count - 1) * (size_t)type->extent;
    char *p = loom__coll_scratch_get(self, span);
    if (!p)
        return NULL;
    *raw = p;
    return p - type->true_lb;
}
