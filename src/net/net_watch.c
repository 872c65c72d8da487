/* net/net_watch.c — the node process's network thread (LOOM_NET_THREAD, net.h).
 *
 * Under LOOM_PROGRESS=collaborative the endpoint is polled by whichever thread waits in MPI.
 * A node process whose ranks all compute between a nonblocking call and its wait polls
 * nobody, and a provider of manual progress (tcp) moves nothing it is not polled for: a
 * request-to-send waits unseen, a read is not served, a message stays in the backlog. So the
 * transfer happens in the wait, after the computation, and overlaps nothing. This thread polls
 * for such a node process, and only while one of these is pending:
 *  - a nonblocking receive that may match a message from another node process, posted and
 *    not complete (its request carries `netwatch`, p2p/match.c);
 *  - a nonblocking rendezvous send, between its request-to-send and the FIN (net_p2p.c);
 *  - a read started for a nonblocking receive (net_p2p.c, the same flag);
 *  - a backlog of messages and reads the endpoint could not take yet (net_wire.c).
 * A blocking call is not counted: its caller waits, and polls, until it is done.
 *
 * `pending` counts them and is the futex the thread sleeps on while it is 0 and the endpoint
 * has nothing of this node process's in flight (a FIN the thread itself just sent leaves
 * only when polled), so an idle job costs no core. Otherwise the thread naps, then polls
 * unless a waiter polled during the nap (net/'s poll counter moved: that waiter does the
 * work), and naps twice as long after each poll that completed nothing, up to the bound of
 * the node process's last sleeper (loom__wait_sleep_last_ns). A poll that completed
 * something is followed by another at once.
 *
 * Why naps and not a busy poll while a transfer moves (tried, on a 2-core machine where every
 * core runs a rank): over tcp a read completes nothing until its end, and polling without a
 * pause took the core from the very thread that had to feed the other end; overlap fell.
 *
 * It is placed where the first rank of the node process would have its progress thread
 * (LOOM_PROGRESS_PLACEMENT: a free core of the rank's NUMA node by default), and acts for no
 * rank (loom__self is NULL): what it completes notifies its owner like any poller does.
 *
 * Who touches what: `pending` and `asleep` are atomic (the protocol below); `stop` is
 * written by the main thread, read by this one; the rest is written by the main thread
 * before the thread starts and after it is joined. */
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "core/atomic.h"
#include "core/config.h"
#include "core/error.h"
#include "core/event.h"
#include "core/rank.h"
#include "net/net.h"
#include "net/fabric.h"
#include "net/net_impl.h"
#include "topo/topo.h"

/* The first nap after a poll that moved nothing; each empty poll doubles it. */
#define NAP_FIRST_NS 1000L

static _Atomic uint32_t pending; /* what the thread polls for; its futex word */
static _Atomic int asleep;       /* 1 while the thread is in (or about to enter) its futex */
static _Atomic int stop;
static pthread_t thread;
static int running;              /* main thread only */

static void futex_wait_zero(void)
{
    syscall(SYS_futex, (uint32_t *)&pending, FUTEX_WAIT_PRIVATE, 0u, NULL, NULL, 0);
}

static void futex_wake_one(void)
{
    syscall(SYS_futex, (uint32_t *)&pending, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Protocol (no lost wake-up): the thread sets `asleep`, fences, reads `pending` once more
 * and sleeps only while it is 0 (the kernel checks the word again). A caller of
 * loom__net_watch_begin increments `pending` (seq_cst, so a fence too), then reads `asleep`:
 * either the thread sees the new count, or the caller sees it asleep and wakes it. */
void loom__net_watch_begin(void)
{
    if (loom__fetch_add_seq_cst(&pending, 1) == 0 && loom__load_relaxed(&asleep))
        futex_wake_one();
}

void loom__net_watch_end(void)
{
    loom__fetch_sub_relaxed(&pending, 1);
}

static void nap(long ns)
{
    struct timespec t = {0, ns};
    nanosleep(&t, NULL);
}

static void *watch_main(void *arg)
{
    const struct loom_cpuset *set = arg;
    char err[256];
    if (set && loom__topo_bind_thread(loom__job.topo, set, err, sizeof err) != 0)
        loom__log("warning: cannot place the network thread: %s", err);
    /* a nap of a microsecond would otherwise last the default timer slack, 50 µs */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    const long longest = loom__wait_sleep_last_ns > NAP_FIRST_NS ? loom__wait_sleep_last_ns
                                                                  : NAP_FIRST_NS;
    long ns = NAP_FIRST_NS;
    unsigned long seen = loom__load_relaxed(&loom__net.polls);
    while (!loom__load_acquire(&stop)) {
        if (loom__load_relaxed(&pending) == 0 && loom__fabric_inflight(loom__net.fab) == 0) {
            loom__store_relaxed(&asleep, 1);
            atomic_thread_fence(memory_order_seq_cst);
            if (loom__load_relaxed(&pending) == 0 && !loom__load_acquire(&stop))
                futex_wait_zero();
            loom__store_relaxed(&asleep, 0);
            ns = NAP_FIRST_NS;
            continue;
        }
        if (ns) {
            nap(ns);
            unsigned long now = loom__load_relaxed(&loom__net.polls);
            if (now != seen) { /* a waiter polls: it does the work */
                seen = now;
                continue;
            }
        }
        int moved = loom__net_poll();
        seen = loom__load_relaxed(&loom__net.polls);
        if (moved)
            ns = 0; /* what follows a completion may be there already */
        else
            ns = ns == 0 ? NAP_FIRST_NS : ns * 2 > longest ? longest : ns * 2;
    }
    return NULL;
}

void loom__net_watch_start(void)
{
    struct loom_job *j = &loom__job;
    if (j->nnodes <= 1 || j->progress_mode != LOOM_PROGRESS_COLLABORATIVE ||
        !loom__config_int(LOOM_CFG_NET_THREAD))
        return;
    loom__store_relaxed(&stop, 0);
    const struct loom_cpuset *set = j->progress_sets ? j->progress_sets[j->first] : NULL;
    if (pthread_create(&thread, NULL, watch_main, (void *)set) != 0) {
        loom__log("warning: cannot start the network thread: a node process whose ranks "
                  "compute moves no network data until they wait");
        return;
    }
    running = 1;
}

void loom__net_watch_stop(void)
{
    if (!running)
        return;
    loom__store_release(&stop, 1);
    loom__fetch_add_seq_cst(&pending, 1); /* out of its futex, whatever the count */
    futex_wake_one();
    pthread_join(thread, NULL);
    loom__fetch_sub_relaxed(&pending, 1);
    running = 0;
}
