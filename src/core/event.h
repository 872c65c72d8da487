/* core/event.h — how a thread waits in loom: an event count with spin, yield, then sleep.
 *
 * Every blocking wait in loom goes through loom__wait_until(): it spins briefly (LOOM_SPIN
 * polls), then yields the core (LOOM_YIELD times), then sleeps on a futex until the event is
 * notified, re-checking its condition after each step. So more ranks than cores work: a rank
 * that waits gives its core away instead of spinning forever.
 *
 * Protocol (no lost wake-up): the waiter reads `seq`, announces itself in `sleepers`, issues a
 * seq-cst fence, checks its condition once more, then sleeps only while `seq` is unchanged:
 * first for at most a grace period (LOOM_WAIT_GRACE_NS), after which it checks again before
 * it sleeps for longer. Whoever makes a waiter's condition true first publishes that change,
 * then calls loom__event_notify(): a read of `sleepers` after the change in program order
 * (loom__notify_order, a compiler barrier, no fence) and, only if it is nonzero, a bump of
 * `seq` and a futex wake. Either the notifier sees the sleeper, or its read ran before the
 * waiter's announcement was visible; the hardware may have let that read pass the notifier's
 * own store, but only while the store sat in the notifier's store buffer, which empties
 * within microseconds while its core runs (and at once when it stops: an interrupt or a VM
 * exit drains it), so the store is visible by the end of the grace period, and the waiter's
 * second check sees it. A notify thus costs no fence, which on x86 waits for the store before
 * it to reach the other core: a line transfer on every message and every step of a shm
 * collective. As a last resort, should a store take longer than the grace, a longer sleep is
 * bounded (1 ms, doubling to 1 s within a wait), so a wake-up can be late but never lost;
 * such late wake-ups are counted (loom__wait_late_wakes). */
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
/* loom__event_notify for a notifier whose change of the waiters' condition was a seq_cst
 * read-modify-write (made before this call): it needs no grace (event.c says why). */
void loom__event_notify_after_rmw(struct loom_event *ev);
/* What a notifier that reads `sleepers` itself (a batch's sender, the task engine, the shm
 * collectives) puts between its change and that read: keeps them in program order; the
 * waiter's grace period does the rest (see the protocol above). */
static inline void loom__notify_order(void)
{
    atomic_signal_fence(memory_order_seq_cst);
}
/* The grace period: the first sleep of a waiter that has announced itself lasts at most this
 * long before it checks its condition again; the longest a store may wait in a running core's
 * store buffer. A buffer holds 56 - 114 stores on recent x86 cores and they leave it in
 * order; if each waited in turn for a line that another core holds (0.1 - 0.3 us a transfer
 * within a node), the last would wait 6 - 34 us, but the core asks for the lines of queued
 * stores ahead of time, and in practice a store waits a fraction of a microsecond. 20 us
 * covers all but that theoretical worst case, which the bounded sleep covers. A margin taken
 * from the hardware's structure, not a constant tuned on one machine. */
#define LOOM_WAIT_GRACE_NS 20000L
/* Sleeps that reached their bound and found the condition true: wake-ups that came late
 * (none expected; relaxed, for tests and statistics). */
extern _Atomic unsigned long loom__wait_late_wakes;

/* A hook run on each poll of a wait (the task engine runs tasks from it); NULL for none.
 * Returns nonzero if it did some work (the wait then starts its spin phase again). */
typedef int (*loom_wait_progress_fn)(void);
extern loom_wait_progress_fn loom__wait_progress;
/* Checked once more after a waiter has announced itself asleep: LOOM_WORK_RUNNABLE if work it
 * could do is visible (then it does not sleep), LOOM_WORK_ELSEWHERE if work it may not take
 * is under way on another thread (a kept queue: it will be done within microseconds, so the
 * waiter yields its core instead of paying a futex wake-up), LOOM_WORK_NONE otherwise. NULL
 * for none. Whoever makes runnable work visible must publish it and then, if
 * loom__event_sleepers_total is nonzero, notify the waiters' events. */
enum { LOOM_WORK_NONE = 0, LOOM_WORK_RUNNABLE = 1, LOOM_WORK_ELSEWHERE = 2 };
typedef int (*loom_wait_work_fn)(void);
extern loom_wait_work_fn loom__wait_has_work;
/* Called with 1 when a wait starts waiting (its condition was false) and with 0 when it
 * returns: the task engine lets a waiting rank keep its own queue. NULL for none. */
typedef void (*loom_wait_tend_fn)(int on);
extern loom_wait_tend_fn loom__wait_tend;
/* Threads asleep (or about to be) in loom__wait_until, over all events. */
extern _Atomic int loom__event_sleepers_total;
/* 1 when waits cut their yields once one proves dear (the job does not oversubscribe its
 * cores: event.c says why); set once at start. */
extern int loom__wait_yield_cut;

/* A test (MPI_Test and its forms, MPI_Iprobe, MPI_Improbe) found nothing. On a job whose threads
 * outnumber its cores, every loom__wait_spin-th miss in a row of the calling thread yields:
 * a rank that loops on MPI_Test would otherwise hold the core that the thread which moves
 * its request (a progress thread, a rank of its node process, a peer) needs, for a whole
 * time slice (measured: docs/progress.md). Nothing elsewhere. */
void loom__test_missed(void);
/* The yields it made, for tests; relaxed. */
extern _Atomic unsigned long loom__test_yields;
/* Yields of waits that kept their thread off its core longer than a futex wake-up takes
 * (another thread computed there): after one, the thread's waits sleep without yielding for
 * a while (event.c). Counted for tests and statistics; relaxed. */
extern _Atomic unsigned long loom__wait_long_yields;

/* Wait until cond(arg) returns nonzero. cond must be cheap; it is called from the calling
 * thread only, and never again once it has returned nonzero (so it may take what it found:
 * a matched probe unlinks its message). The caller's rank event is ev; whoever makes cond true must
 * notify ev. Returns when cond holds. */
void loom__wait_until(struct loom_event *ev, int (*cond)(void *arg), void *arg);

/* Spin/yield tuning (from LOOM_SPIN / LOOM_YIELD, set once at start). */
extern unsigned loom__wait_spin;
extern unsigned loom__wait_yield;
/* The longest a waiter sleeps before it polls again, in nanoseconds; 0: until notified. Set
 * once before ranks run: by net/ when other node processes exist (their messages arrive only
 * when some thread polls the network). */
extern long loom__wait_sleep_ns;
/* ...and the shorter bound of a waiter that goes to sleep when `loom__wait_sleep_quorum`
 * threads already sleep (the whole node process is waiting: if nobody polls soon, a message
 * from another node process waits in the endpoint). 0: no such rule. Set with the above. */
extern long loom__wait_sleep_last_ns;
extern int loom__wait_sleep_quorum;
/* How that last thread waits instead, where the network can block (net/: the endpoint's file
 * descriptor and an eventfd), or NULL: block at most ns (the short bound: the provider may
 * have work only a poll advances, which its descriptor does not announce); 0 when it blocked
 * (or found the network ready), -1 when it cannot (the thread then sleeps the short bound).
 * One thread at a time blocks in it: loom__event_notify of that thread's event calls
 * loom__wait_unblock, which makes it return. Both set with the above. */
typedef int (*loom_wait_block_fn)(long ns);
typedef void (*loom_wait_unblock_fn)(void);
extern loom_wait_block_fn loom__wait_block;
extern loom_wait_unblock_fn loom__wait_unblock;
#endif
