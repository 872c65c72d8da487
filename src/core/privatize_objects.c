/* core/privatize_objects.c — C++ objects of privatized globals: constructed and destroyed once
 * per rank, on the rank thread (core/privatize.h, docs/privatize.md).
 *
 * The plugin takes a C++ unit's static initialization functions (`_GLOBAL__sub_I_*`) off the
 * process's constructors when they construct per-rank objects and registers them here
 * (loom_privatize_register_ctor); loom runs them on each rank thread before the rank's main,
 * after the address initializers, by init_priority and then in the order they were registered
 * (link order), as the process would have run them. The main thread runs none.
 *
 * The destructors of per-rank objects, which C++ registers with __cxa_atexit when it has
 * constructed them (static initialization, or a function-local static at first use, on
 * whichever thread of the rank), come here instead (loom_privatize_atexit): each rank keeps a
 * list, run by loom__privatize_rank_end when the rank's main returns, on the rank thread, last
 * registered first, as exit would run them. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "core/atomic.h"
#include "core/privatize.h"
#include "core/rank.h"

/* ---- constructors: a list that only grows, oldest first ----------------------------------- */

struct ctor {
    void (*fn)(void);
    int priority; /* init_priority: lower first, 65535 by default */
    struct ctor *next;
};

/* Sorted by priority, then registration order. Written (inserted) and read under `lock`;
 * nodes live until the process ends. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ctor *ctors;

void loom_privatize_register_ctor(void (*fn)(void), int priority)
{
    struct ctor *c = malloc(sizeof *c);
    if (c == NULL) {
        loom__log("out of memory registering a C++ unit's static initialization");
        loom__job_abort(1);
    }
    c->fn = fn;
    c->priority = priority;
    pthread_mutex_lock(&lock);
    struct ctor **at = &ctors;
    while (*at && (*at)->priority <= priority)
        at = &(*at)->next;
    c->next = *at;
    *at = c;
    pthread_mutex_unlock(&lock);
    /* A library loaded (dlopen) by a thread of a running rank: its objects exist in that rank
     * only (docs/privatize.md, limits). At process start (the main thread) nothing runs. */
    if (loom__self != NULL && loom__self->view != NULL)
        fn();
}

void loom__privatize_run_ctors(void)
{
    /* A snapshot, run without the lock: a constructor may dlopen a library whose registration
     * runs its functions at once for this rank (and must not be met again by this walk). */
    pthread_mutex_lock(&lock);
    size_t n = 0;
    for (struct ctor *c = ctors; c; c = c->next)
        n++;
    void (**fns)(void) = n ? malloc(n * sizeof *fns) : NULL; /* freed below */
    if (n && fns == NULL) {
        pthread_mutex_unlock(&lock);
        loom__log("out of memory constructing a rank's C++ objects");
        loom__job_abort(1);
    }
    n = 0;
    for (struct ctor *c = ctors; c; c = c->next)
        fns[n++] = c->fn;
    pthread_mutex_unlock(&lock);
    for (size_t i = 0; i < n; i++)
        fns[i]();
    free(fns);
}

/* ---- destructors: one stack per rank -------------------------------------------------------- */

struct loom_priv_dtor {
    void (*fn)(void *);
    void *obj;
    struct loom_priv_dtor *next;
};

int __cxa_atexit(void (*fn)(void *), void *obj, void *dso);

int loom_privatize_atexit(void (*fn)(void *), void *obj, void *dso)
{
    struct loom_rank *r = loom__self;
    if (r == NULL)
        return __cxa_atexit(fn, obj, dso); /* outside ranks: the process's, as ever */
    struct loom_priv_dtor *d = malloc(sizeof *d); /* freed by loom__privatize_rank_end */
    if (d == NULL)
        return -1; /* what __cxa_atexit says when it cannot record one */
    d->fn = fn;
    d->obj = obj;
    /* Any thread of the rank may push (a function-local static first used by a thread the rank
     * started): a lock-free stack; the release pairs with the acquire exchange below. */
    d->next = loom__load_relaxed(&r->priv_dtors);
    while (!atomic_compare_exchange_weak_explicit(&r->priv_dtors, &d->next, d,
                                                  memory_order_release, memory_order_relaxed))
        ;
    return 0;
}

void loom__privatize_rank_end(struct loom_rank *r)
{
    /* A destructor may construct (and so register) more: repeat until none is left. */
    struct loom_priv_dtor *d;
    while ((d = atomic_exchange_explicit(&r->priv_dtors, NULL, memory_order_acquire))) {
        while (d) {
            struct loom_priv_dtor *next = d->next;
            d->fn(d->obj);
            free(d);
            d = next;
        }
    }
}
