/* core/lock.h — a small test-and-test-and-set lock for short critical sections (matching
 * queues). It spins briefly, then yields, so a preempted holder on an oversubscribed node
 * gets its core back. Not recursive, not fair. */
#ifndef LOOM_CORE_LOCK_H
#define LOOM_CORE_LOCK_H
#include <sched.h>
#include <stdatomic.h>
#include "core/atomic.h"

struct loom_lock {
    _Atomic int held; /* 1 while held; acquire on take, release on drop */
};

#define LOOM_LOCK_INIT {0}

/* The contended half of loom__lock (core/lock.c): out of line, so that an uncontended lock
 * costs one exchange and its caller keeps its registers (no spills around a call that never
 * happens). */
void loom__lock_wait(struct loom_lock *l);

static inline void loom__lock(struct loom_lock *l)
{
    if (__builtin_expect(atomic_exchange_explicit(&l->held, 1, memory_order_acquire) != 0, 0))
        loom__lock_wait(l);
}
/* Take l only if nobody holds it: 1 if taken. */
static inline int loom__trylock(struct loom_lock *l)
{
    return !loom__load_relaxed(&l->held) &&
           !atomic_exchange_explicit(&l->held, 1, memory_order_acquire);
}

static inline void loom__unlock(struct loom_lock *l)
{
    loom__store_release(&l->held, 0);
}

/* For assertions: 1 if someone holds l. */
static inline int loom__lock_held(struct loom_lock *l)
{
    return loom__load_relaxed(&l->held) != 0;
}
#endif
