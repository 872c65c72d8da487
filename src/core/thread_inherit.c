/* core/thread_inherit.c — threads a rank creates belong to that rank.
 *
 * A rank may start threads of its own (pthreads, OpenMP workers, C++ threads, threads inside
 * a library) that read and write the program's globals and, under MPI_THREAD_MULTIPLE, call
 * MPI. loom knows which rank a thread acts for through the thread-local loom__self, and the
 * code of the plugin finds the rank's privatized variables through loom_privatize_delta, so
 * loom defines pthread_create(): a thread created by a thread of a rank starts with the
 * creator's loom__self and the delta to that rank's variables (core/privatize.h), and so do
 * the threads it creates in turn. Threads created outside ranks are left alone.
 *
 * The trampoline runs on the new thread before any sanitizer runtime has set that thread up
 * (a sanitizer's own pthread_create wraps ours), so it is kept out of instrumentation and
 * touches nothing but its arguments on the creator's stack, its own TLS slots and, through
 * loom__privatize_thread_start (uninstrumented too), the rank's `view` (read-only once the rank
 * runs), the list of large variables (read-only nodes) and the madvise system call. The creator waits until the new thread has copied its arguments
 * (`taken`, release/acquire), so no allocation is needed. */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include "core/atomic.h"
#include "core/privatize.h"
#include "core/rank.h"

struct start {
    void *(*fn)(void *);
    void *arg;
    struct loom_rank *rank;
    _Atomic int taken; /* set (release) by the new thread once it has copied the fields */
};

__attribute__((no_sanitize("address", "thread", "undefined"))) static void *trampoline(void *p)
{
    struct start *s = p;
    void *(*fn)(void *) = s->fn;
    void *arg = s->arg;
    loom__self = s->rank;
    loom__privatize_thread_start(s->rank); /* its rank's globals, not its own copies */
    loom__store_release(&s->taken, 1); /* pairs with the creator's acquire load below */
    return fn(arg);
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

__attribute__((visibility("default"))) int pthread_create(pthread_t *thread,
                                                       const pthread_attr_t *attr,
                                                       void *(*fn)(void *), void *arg)
{
    static _Atomic(create_fn) next;
    create_fn real = loom__load_acquire(&next);
    if (real == NULL) {
        real = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
        loom__store_release(&next, real); /* idempotent: every thread finds the same symbol */
    }
    if (loom__self == NULL)
        return real(thread, attr, fn, arg);
    struct start s = {.fn = fn, .arg = arg, .rank = loom__self};
    atomic_init(&s.taken, 0);
    int rc = real(thread, attr, trampoline, &s);
    if (rc != 0)
        return rc;
    while (!loom__load_acquire(&s.taken))
        sched_yield();
    return 0;
}
