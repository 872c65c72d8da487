/* core/event.h — how a thread waits in loom: an event count with spin, yield, then sleep.
 *
 * Every blocking wait in loom goes through loom__wait_until(): it spins briefly (LOOM_SPIN
 * polls), then yields the core (LOOM_YIELD times), then sleeps on a futex until the event is
 * notified, re-checking its condition after each step. So more ranks than cores work: a rank
 * that waits gives its core away instead of spinning forever.
 *
 * Protocol (no lost wake-up): the waiter reads `seq`, announces itself in `sleepers`, issues a
 * seq-cst fence, checks its condition once more, then sleeps only while `seq` is unchanged.
 * Whoever makes a waiter's condition true first publishes that change, then calls
 * loom__event_notify(): a seq-cst fence, then, only if `sleepers` is nonzero, a bump of `seq`
 * and a futex wake. The two fences guarantee that either the waiter sees the condition or the
 * notifier sees the sleeper. */
#ifndef LOOM_CORE_EVENT_H
#define LOOM_CORE_EVENT_H
#include <stdatomic.h>
#include <stdint.h>

struct loom_event {
    _Atomic uint32_t seq;      /* bumped by every notify; the futex word */
    _Atomic uint32_t sleepers; /* threads inside futex_wait on seq (or about to be) */
};

#define LOOM_EVENT_INIT {0, 0}

void loom__event_init(struct loom_event *ev);
/* Wake every thread waiting on ev. Any thread may call it, at any time. */
void loom__event_notify(struct loom_event *ev);

/* A hook run on each poll of a wait (the task engine runs tasks from it); NULL for none.
 * Returns nonzero if it did some work (the wait then starts its spin phase again). */
typedef int (*loom_wait_progress_fn)(void);
extern loom_wait_progress_fn loom__wait_progress;
/* Checked once more after a waiter has announced itself asleep: nonzero if work it could do
 * is visible (then it does not sleep). NULL for none. Whoever makes such work visible must
 * publish it and then, if loom__event_sleepers_total is nonzero, notify the waiters' events. */
typedef int (*loom_wait_work_fn)(void);
extern loom_wait_work_fn loom__wait_has_work;
/* Called with 1 once a wait's progress hook has done some work (the waiter is now busy with
 * tasks: the engine's other workers leave its queue to it), and with 0 when that wait
 * returns; returns the previous state so that nested waits restore it. NULL for none. */
typedef int (*loom_wait_tend_fn)(int on);
extern loom_wait_tend_fn loom__wait_tend;
/* Threads asleep (or about to be) in loom__wait_until, over all events. */
extern _Atomic int loom__event_sleepers_total;

/* Wait until cond(arg) returns nonzero. cond must be cheap and side-effect free; it is called
 * from the calling thread only. The caller's rank event is ev; whoever makes cond true must
 * notify ev. Returns when cond holds. */
void loom__wait_until(struct loom_event *ev, int (*cond)(void *arg), void *arg);

/* Spin/yield tuning (from LOOM_SPIN / LOOM_YIELD, set once at start). */
extern unsigned loom__wait_spin;
extern unsigned loom__wait_yield;
#endif
