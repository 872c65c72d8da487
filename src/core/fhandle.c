/* core/fhandle.c — the table of Fortran handles (fhandle.h).
 * Two levels, like the keyval table: chunks of entries allocated on demand and never moved, so
 * a reader indexes without the lock. Entries are atomic pointers: written under `lock` (release),
 * read by loom__fhandle_object (acquire). Indices given back are reused, lowest first out of a
 * free list under the same lock.
 *
 * Predefined handles have fixed indices (core/fhandle_fixed.h). Their entries are in chunk 0,
 * a static array initialized by the compiler: the table names them from load, before any
 * constructor runs, with nothing to race on, so f2c of a fixed index needs no set-up. The
 * other direction reads the object's header, which for these static objects starts at 0:
 * the first conversion that misses (a header of 0 takes the locked path anyway) writes every
 * fixed object's header once, under the lock. A reader that sees a header of 0 takes the
 * lock and finds it seeded; one that sees the index finds the static entry naming the
 * object. Indices handed out at run time start above LOOM_FHANDLE_FIXED_LAST. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "core/fhandle.h"
#include "core/fhandle_fixed.h"
#include "core/object.h"

#define CHUNK 1024
#define CHUNKS 4096 /* at most 4M live Fortran handles */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* protects chunk creation, used,
                                                           the free list; leaf lock */
_Static_assert(LOOM_FHANDLE_FIXED_LAST < CHUNK, "the fixed handles lie in chunk 0");

/* Chunk 0: the fixed entries, constant from load; the rest of it filled at run time. */
#define FIXED_ENTRY(handle, index) [index] = (void *)(handle),
static _Atomic(void *) chunk0[CHUNK] = {LOOM_FOREACH_FIXED_FHANDLE(FIXED_ENTRY)};
#undef FIXED_ENTRY

static _Atomic(void *) *_Atomic chunks[CHUNKS] = {chunk0}; /* published with release, freed
                                                   never (the job's lifetime; a few KiB per
                                                   1024) */
static int32_t used = LOOM_FHANDLE_FIXED_LAST; /* indices handed out so far (1..used, fixed
                                                  included), under lock */
static int seeded;      /* the fixed objects' headers hold their index, under lock */
static int32_t *free_list; /* indices given back, under lock */
static int32_t nfree, cap_free;

static _Atomic(void *) *entry(int32_t f)
{
    _Atomic(void *) *c = atomic_load_explicit(&chunks[f / CHUNK], memory_order_acquire);
    return c ? &c[f % CHUNK] : NULL;
}

/* A new index with its entry present, under lock; 0 if there is no room. */
static int32_t take_index(void)
{
    if (nfree > 0)
        return free_list[--nfree];
    int32_t f = used + 1;
    if (f / CHUNK >= CHUNKS)
        return 0;
    if (!atomic_load_explicit(&chunks[f / CHUNK], memory_order_relaxed)) {
        _Atomic(void *) *c = calloc(CHUNK, sizeof *c);
        if (!c)
            return 0;
        atomic_store_explicit(&chunks[f / CHUNK], c, memory_order_release);
    }
    used = f;
    return f;
}

/* f is obj's entry: the header's index is trusted only when the table says so (an object
 * made without loom__object_init, or a quarantined object that is no MPI handle, has no
 * index, whatever its header holds). Under lock, or with f read with acquire. */
static int names(int32_t f, const void *obj)
{
    if (f <= 0 || f / CHUNK >= CHUNKS)
        return 0;
    _Atomic(void *) *e = entry(f);
    return e && atomic_load_explicit(e, memory_order_acquire) == obj;
}

/* Write each fixed object's index into its header, once, under lock. */
static void seed_fixed(void)
{
    if (seeded)
        return;
#define SEED(handle, index)                                                                    \
    atomic_store_explicit(&((struct loom_object *)(void *)(handle))->findex, (index),          \
                          memory_order_release);
    LOOM_FOREACH_FIXED_FHANDLE(SEED)
#undef SEED
    seeded = 1;
}

int32_t loom__fhandle_of(void *obj)
{
    if (obj == NULL)
        return 0;
    struct loom_object *o = obj;
    int32_t f = atomic_load_explicit(&o->findex, memory_order_acquire);
    if (names(f, obj))
        return f;
    pthread_mutex_lock(&lock);
    seed_fixed(); /* obj may be a predefined object whose header is still 0 */
    f = atomic_load_explicit(&o->findex, memory_order_relaxed); /* another thread's, maybe */
    if (!names(f, obj)) {
        f = take_index();
        if (f > 0) {
            atomic_store_explicit(entry(f), obj, memory_order_release);
            atomic_store_explicit(&o->findex, f, memory_order_release);
        }
    }
    pthread_mutex_unlock(&lock);
    return f > 0 ? f : -1;
}

void *loom__fhandle_object(int32_t f, void *invalid)
{
    if (f == 0)
        return NULL;
    if (f < 0 || f / CHUNK >= CHUNKS)
        return invalid;
    _Atomic(void *) *e = entry(f);
    void *obj = e ? atomic_load_explicit(e, memory_order_acquire) : NULL;
    return obj ? obj : invalid;
}

void loom__fhandle_forget(void *obj)
{
    struct loom_object *o = obj;
    if (atomic_load_explicit(&o->findex, memory_order_relaxed) == 0) /* the common case */
        return;
    pthread_mutex_lock(&lock);
    int32_t f = atomic_load_explicit(&o->findex, memory_order_relaxed);
    if (f > LOOM_FHANDLE_FIXED_LAST && names(f, obj)) { /* a fixed index is never given back */
        atomic_store_explicit(entry(f), NULL, memory_order_release);
        atomic_store_explicit(&o->findex, 0, memory_order_relaxed);
        if (nfree == cap_free) {
            int32_t cap = cap_free ? 2 * cap_free : 64;
            int32_t *fl = realloc(free_list, (size_t)cap * sizeof *fl);
            if (fl) {
                free_list = fl;
                cap_free = cap;
            }
        }
        if (nfree < cap_free) /* else the index is lost: a bounded leak on ENOMEM */
            free_list[nfree++] = f;
    }
    pthread_mutex_unlock(&lock);
}
