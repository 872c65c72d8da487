/* core/event.c — the event count behind every blocking wait (see event.h for the protocol).
 * Spinning is bounded by LOOM_SPIN and LOOM_YIELD so that oversubscribed ranks (more ranks
 * than cores) hand their core over instead of burning it. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "core/atomic.h"
#include "core/event.h"
#include "core/tls.h"
#include "core/trace.h"

unsigned loom__wait_spin = 200;
unsigned loom__wait_yield = 20;
loom_wait_progress_fn loom__wait_progress;
loom_wait_work_fn loom__wait_has_work;
loom_wait_tend_fn loom__wait_tend;
_Atomic int loom__event_sleepers_total;

long loom__wait_sleep_ns;
long loom__wait_sleep_last_ns;
int loom__wait_sleep_quorum;
loom_wait_block_fn loom__wait_block;
loom_wait_unblock_fn loom__wait_unblock;
/* The event of the thread blocked in loom__wait_block, NULL for none: claimed with a
 * compare-and-swap by a last sleeper before its fence (so a notifier that finds it asleep
 * also finds this), cleared by it after the wait. */
static struct loom_event *_Atomic blocker;

/* The first bound of a sleep within a wait, and the last (event.h: late wake-ups). */
#define SLEEP_BOUND_FIRST_NS 1000000L
#define SLEEP_BOUND_LAST_NS 1000000000L

_Atomic unsigned long loom__wait_late_wakes;

/* sleepers: the threads asleep now, this one included; bound: this sleep's own bound. 1 if
 * it ended by a bound (this one, or the network's when shorter). */
static int futex_wait(_Atomic uint32_t *word, uint32_t expected, int sleepers, long bound)
{
    /* Returns at once if *word != expected (a notify came in between), on wake-up, on a
     * signal or after the bound; the caller re-checks its condition in every case. The last
     * thread of a node process to fall asleep keeps the short bound: it is the one that polls
     * the network while everybody waits (the others keep the long one, so that a network
     * message still moves within it when that one has left its wait). */
    long ns = loom__wait_sleep_last_ns && sleepers >= loom__wait_sleep_quorum
                  ? loom__wait_sleep_last_ns
                  : loom__wait_sleep_ns;
    if (!ns || ns > bound)
        ns = bound;
    struct timespec limit = {ns / 1000000000L, ns % 1000000000L};
    return syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, &limit, NULL,
                   0) != 0 &&
           errno == ETIMEDOUT;
}

static void futex_wake_all(_Atomic uint32_t *word)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void loom__event_init(struct loom_event *ev)
{
    atomic_init(&ev->seq, 0);
    atomic_init(&ev->sleepers, 0);
}

/* The end of a notify that found a sleeper: bump seq, wake the futex, and the blocked
 * thread if it sleeps on ev. */
static void wake_sleepers(struct loom_event *ev)
{
    loom__fetch_add_seq_cst(&ev->seq, 1);
    futex_wake_all(&ev->seq);
    if (atomic_load_explicit(&blocker, memory_order_relaxed) == ev)
        loom__wait_unblock();
}

void loom__event_notify(struct loom_event *ev)
{
    /* Either this read sees the sleeper, or the waiter, which checks its condition again at
     * the end of the grace period that follows its announcement, sees what the caller
     * published (event.h). Without a sleeper there is nothing to do: a spinning waiter sees
     * the condition by itself, so the common case costs a read of a line that waiters rarely
     * write. */
    loom__notify_order();
    if (loom__load_relaxed(&ev->sleepers) != 0)
        wake_sleepers(ev);
}

void loom__event_notify_after_rmw(struct loom_event *ev)
{
    /* The caller's seq_cst read-modify-write and this seq_cst load take the place of the
     * fence: if this load missed the waiter's increment, it comes before that increment in
     * the single order of seq_cst operations, which puts the waiter's fence after the
     * caller's write, and the waiter's check after its fence sees it (C11 7.17.3, as revised
     * in C++20 [atomics.order]). On x86 the write was a locked instruction, which empties
     * the store buffer: no grace is relied on. */
    if (loom__load_seq_cst(&ev->sleepers) != 0)
        wake_sleepers(ev);
}

/* Yields that are too dear. A yield hands the core to whatever else may run there. When
 * the ranks outnumber the cores, that is another rank of the job, which gives it back within
 * microseconds as it enters a wait of its own: yields are the fast way to wait then. When
 * every rank has a core, what takes it is a thread that computes (another program, a rank's
 * own OpenMP workers), and it keeps it for a whole scheduler slice: each of the LOOM_YIELD
 * yields of a wait then costs one. A window of messages between two ranks whose cores two
 * CPU-bound processes shared ran at 0.01 - 0.03 Mmsg/s, and at 0.1 - 0.4 when its waits went
 * to sleep instead (a futex sleep is woken by the notify, and the kernel runs a thread it
 * wakes ahead of one that has used its share). So, when the job does not oversubscribe its
 * cores (loom__wait_yield_cut, set at start), a yield that kept the thread away longer than
 * LOOM_YIELD_LONG_NS ends the yields of its wait, and the thread's next LOOM_YIELD_SKIPS
 * waits sleep without yielding; then it tries a yield again, in case the core is free.
 * The bound sits between the two cases on any Linux machine: above a futex wake-up
 * (microseconds, tens on a virtual machine) and below the shortest slice the scheduler gives
 * (0.75 ms by default); with 64 waits between two tries, a dear yield costs a wait at most a
 * 64th of a slice. */
#define LOOM_YIELD_LONG_NS 100000L
#define LOOM_YIELD_SKIPS 64

int loom__wait_yield_cut;
_Atomic unsigned long loom__wait_long_yields;
static LOOM_TLS_FAST unsigned yield_skips; /* the calling thread's waits left without yields */

/* Yield the core; 1 if that kept the thread away longer than LOOM_YIELD_LONG_NS and yields
 * are to be cut (the thread's next waits skip them). */
static int yield_was_long(void)
{
    if (!loom__wait_yield_cut) {
        sched_yield();
        return 0;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sched_yield();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long ns = (t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec);
    if (ns <= LOOM_YIELD_LONG_NS)
        return 0;
    atomic_fetch_add_explicit(&loom__wait_long_yields, 1, memory_order_relaxed);
    yield_skips = LOOM_YIELD_SKIPS;
    return 1;
}

static LOOM_TLS_FAST unsigned test_misses; /* the calling thread's tests that missed */
_Atomic unsigned long loom__test_yields;

void loom__test_missed(void)
{
    /* loom__wait_yield_cut is 0 exactly when the job oversubscribes its cores */
    if (!loom__wait_yield_cut && ++test_misses >= loom__wait_spin) {
        test_misses = 0;
        atomic_fetch_add_explicit(&loom__test_yields, 1, memory_order_relaxed);
        sched_yield();
    }
}

/* The work hook's answer for a waiter whose condition did not hold (met = 0). */
static int work_for(int met)
{
    return met || !loom__wait_has_work ? LOOM_WORK_NONE : loom__wait_has_work();
}

void loom__wait_until(struct loom_event *ev, int (*cond)(void *arg), void *arg)
{
    LOOM_TRACE_WAIT_SCOPE(); /* trace/stats: waiting (progress thread: idle) until return */
    unsigned spins = 0, yields = 0;
    long bound = SLEEP_BOUND_FIRST_NS; /* this wait's next sleep's bound (event.h) */
    if (cond(arg))
        return;
    if (loom__wait_tend)
        loom__wait_tend(1);
    for (;;) {
        if (cond(arg))
            break;
        if (loom__wait_progress && loom__wait_progress()) {
            spins = 0;
            continue;
        }
        if (spins < loom__wait_spin) {
            spins++;
            loom__cpu_relax();
            continue;
        }
        if (yields < loom__wait_yield) {
            if (yields == 0 && yield_skips > 0) { /* yields are dear here: see above */
                yield_skips--;
                yields = loom__wait_yield;
                continue;
            }
            yields++;
            if (yield_was_long())
                yields = loom__wait_yield; /* sleep next */
            continue;
        }
        /* seq is read before announcing ourselves: a notifier that sees us bumps it, so the
         * futex wait below returns at once if that happened after this read. */
        uint32_t seen = loom__load_seq_cst(&ev->seq);
        loom__fetch_add_seq_cst(&ev->sleepers, 1);
        int asleep = loom__fetch_add_seq_cst(&loom__event_sleepers_total, 1) + 1;
        /* the last of the node process to sleep blocks on the network, if it can */
        struct loom_event *none = NULL;
        int blocks = loom__wait_block && loom__wait_sleep_quorum &&
                     asleep >= loom__wait_sleep_quorum &&
                     atomic_compare_exchange_strong(&blocker, &none, ev);
        /* For notifiers whose change was a seq_cst read-modify-write (notify_after_rmw), and
         * for the task engine's and the blocker's readers. */
        atomic_thread_fence(memory_order_seq_cst);
        /* A condition that holds here ends the wait: cond may consume what it found (a
         * matched probe takes its message), so it must not be asked again. */
        int met = cond(arg);
        int work = work_for(met);
        /* The grace period (event.h): a first sleep of at most LOOM_WAIT_GRACE_NS, which a
         * notifier that saw us ends earlier; then the condition and the work once more, which
         * see the change of a notifier that missed us. */
        if (!met && work == LOOM_WORK_NONE && futex_wait(&ev->seq, seen, asleep,
                                                        LOOM_WAIT_GRACE_NS)) {
            met = cond(arg);
            work = work_for(met);
            if (!met && work == LOOM_WORK_NONE &&
                (!blocks || loom__wait_block(loom__wait_sleep_last_ns) != 0)) {
                /* Ended by our bound (not the network's shorter one) with the condition
                 * true: a notify should have ended it, a late wake-up (event.h). The cond
                 * call consumed what it found: leave. */
                if (futex_wait(&ev->seq, seen, asleep, bound) && !blocks &&
                    !loom__wait_sleep_ns && cond(arg)) {
                    atomic_fetch_add_explicit(&loom__wait_late_wakes, 1, memory_order_relaxed);
                    met = 1;
                }
                if (bound < SLEEP_BOUND_LAST_NS)
                    bound *= 2;
            }
        }
        if (!met && work == LOOM_WORK_ELSEWHERE)
            sched_yield();
        if (blocks)
            atomic_store(&blocker, NULL);
        loom__fetch_sub_seq_cst(&loom__event_sleepers_total, 1);
        loom__fetch_sub_seq_cst(&ev->sleepers, 1);
        if (met)
            break;
        spins = loom__wait_spin / 2; /* woken: poll a little before sleeping again */
    }
    if (loom__wait_tend)
        loom__wait_tend(0);
}
