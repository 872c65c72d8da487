/* core/lock.c — the contended half of loom__lock (see lock.h). */
#include "core/lock.h"

void loom__lock_wait(struct loom_lock *l)
{
    for (;;) {
        /* Wait until it looks free (reads only: the line stays shared while the holder
         * works), then try again. Spin briefly, then yield: the holder may have been
         * preempted on an oversubscribed node. */
        for (unsigned i = 0; loom__load_relaxed(&l->held); i++) {
            if (i < 64)
                loom__cpu_relax();
            else
                sched_yield();
        }
        if (!atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
            return;
    }
}
