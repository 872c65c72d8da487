/* net/net_watch.c — the node process's network thread (LOOM_NET_THREAD, net.h).
 *
 * Under LOOM_PROGRESS=collaborative the endpoint is polled by whichever thread waits in MPI.
 * A node process whose ranks all compute between a nonblocking call and its wait polls
 * nobody, and a provider of manual progress (tcp) moves nothing it is not polled for: a
 * request-to-send waits unseen, a read is not served, a message stays in the backlog. So the
 * transfer happens in the wait, after the computation, and overlaps nothing. This thread polls
 * for such a node process, and only while one of these is pending:
 *  - a nonblocking receive that a rendezvous from another node process may match (room for
 *    more than an eager message), posted and not complete (its request carries `netwatch`,
 *    p2p/match.c), or a small one from when a poll matched a synchronous send's
 *    request-to-send to it (net_p2p.c);
 *  - a nonblocking rendezvous send, between its request-to-send and the FIN (net_p2p.c);
 *  - a read started for a nonblocking receive (net_p2p.c, the same flag);
 *  - a backlog of messages and reads the endpoint could not take yet (net_wire.c).
 * A blocking call is not counted: its caller waits, and polls, until it is done.
 *
 * The thread has work when something is pending (`pending`, or the endpoint has something
 * of this node process's in flight: a FIN the thread itself just sent leaves only when
 * polled) and no thread of its node process is in a wait (`waiting`, counted through the
 * wait's tend hook). A waiting thread polls at every turn of its wait, and when it sleeps
 * the node process's last sleeper still polls every 20 µs or blocks on the endpoint
 * (net_job.c); a second poller beside it only took its core on a machine whose cores all run
 * threads: polling whenever no waiter was awake, streaming bandwidth between two node
 * processes fell to 0.35 - 0.6 of what it was without the thread. Without work the thread
 * sleeps on a futex (`seq`), kicked when `pending` leaves 0 while nobody waits or the last
 * waiter leaves with something pending: an idle job, or one whose ranks sit in their waits,
 * costs no core and no wake-up. With work, it naps, then polls unless a rank polled during
 * the nap (a test or a probe: net/'s poll counter moved), and naps twice as long after each
 * poll that completed nothing, up to the bound of the node process's last sleeper
 * (loom__wait_sleep_last_ns). A poll that completed something is followed by another at
 * once.
 *
 * Windows over several node processes (rma/win_net.c) arm the thread while they live
 * (`armed`): an operation from another node process is carried out by whoever polls here,
 * and a node process whose ranks all compute outside MPI polls nobody. Armed alone, the
 * thread is not kicked when the last waiter leaves (a kick per MPI call that returned doubled
 * the latency of a put + flush between two node processes on 2 cores): it looks every
 * ARMED_LOOK_NS instead, and polls if no rank polled meanwhile and none waits; a look that
 * moved something is followed by polls on the nap schedule until they stop moving anything.
 *
 * Why naps and not a busy poll while a transfer moves (tried, on a 2-core machine where every
 * core runs a rank): over tcp a read completes nothing until its end, and polling without a
 * pause took the core from the very thread that had to feed the other end; overlap fell.
 *
 * It is placed where the first rank of the node process would have its progress thread
 * (LOOM_PROGRESS_PLACEMENT: a free core of the rank's NUMA node by default), and acts for no
 * rank (loom__self is NULL): what it completes notifies its owner like any poller does.
 *
 * Who touches what: `pending`, `armed`, `waiting`, `seq` and `asleep` are atomics (the
 * protocol below; `armed` only kicks when it leaves 0), changed by any thread; `hot` is the
 * thread's own; `stop` is written by the main thread, read by this one; the
 * rest is written by the main thread before the thread starts and after it is joined. */
#include <linux/futex.h>
#include <pthread.h>
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
/* With only windows armed, how long the thread sleeps between looks: the longest an
 * operation from another node process waits while every rank of this one computes outside
 * MPI (a thousand wake-ups a second, nothing next to a rank's work). */
#define ARMED_LOOK_NS 1000000L

static _Atomic uint32_t pending; /* what the thread polls for */
static _Atomic uint32_t armed;   /* windows over several node processes alive here */
static _Atomic int waiting;      /* threads of the node process inside loom__wait_until */
static _Atomic uint32_t seq;     /* the thread's futex word: bumped by every kick */
static _Atomic int asleep;       /* 1 while the thread is in (or about to enter) its futex */
static _Atomic int stop;
static loom_wait_tend_fn below_tend;
static pthread_t thread;
static int running;              /* main thread only */

/* Protocol (no lost wake-up): the thread reads `seq`, sets `asleep`, fences, checks for
 * work once more and sleeps only while `seq` is unchanged (the kernel checks the word). A
 * kick follows a seq_cst change of `pending` or `waiting` (and a seq_cst read of the other):
 * it bumps `seq` and reads `asleep`, both seq_cst, and wakes the thread if it is set.
 * Either the thread sees the change, or the kick sees it asleep (C11 fence-fence rule, as in
 * core/event.c). */
static void kick(void)
{
    loom__fetch_add_seq_cst(&seq, 1);
    if (loom__load_seq_cst(&asleep))
        syscall(SYS_futex, (uint32_t *)&seq, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void loom__net_watch_begin(void)
{
    if (loom__fetch_add_seq_cst(&pending, 1) == 0 && loom__load_seq_cst(&waiting) == 0)
        kick();
}

void loom__net_watch_end(void)
{
    loom__fetch_sub_relaxed(&pending, 1);
}

unsigned loom__net_watch_pending(void)
{
    return loom__load_relaxed(&pending);
}

void loom__net_watch_arm(void)
{
    if (loom__fetch_add_seq_cst(&armed, 1) == 0)
        kick();
}

void loom__net_watch_disarm(void)
{
    loom__fetch_sub_relaxed(&armed, 1);
}

/* The wait's tend hook, in front of the layers' (installed by the main thread before ranks
 * run): the last thread to leave a wait hands the polling back to the network thread. */
static void tend(int on)
{
    if (on)
        loom__fetch_add_seq_cst(&waiting, 1);
    else if (loom__fetch_sub_seq_cst(&waiting, 1) == 1 && loom__load_seq_cst(&pending))
        kick();
    if (below_tend)
        below_tend(on);
}

/* Work for the thread: something pending (or in flight on the endpoint) and no waiter, which
 * would poll for it. */
static int has_work(void)
{
    if (loom__load_relaxed(&waiting) > 0)
        return 0;
    return loom__load_relaxed(&pending) > 0 || loom__fabric_inflight(loom__net.fab) > 0;
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
    int hot = 0; /* armed only: a look moved something, so more may follow at once */
    while (!loom__load_acquire(&stop)) {
        if (!has_work() && !(hot && loom__load_relaxed(&waiting) == 0)) {
            uint32_t s = loom__load_seq_cst(&seq);
            loom__store_relaxed(&asleep, 1);
            atomic_thread_fence(memory_order_seq_cst);
            int look = loom__load_relaxed(&armed) > 0;
            struct timespec limit = {0, ARMED_LOOK_NS};
            if (!has_work() && !loom__load_acquire(&stop))
                syscall(SYS_futex, (uint32_t *)&seq, FUTEX_WAIT_PRIVATE, s,
                        look ? &limit : NULL, NULL, 0);
            loom__store_relaxed(&asleep, 0);
            ns = NAP_FIRST_NS;
            unsigned long now = loom__load_relaxed(&loom__net.polls);
            /* a look: poll once if nobody waits and nobody polled meanwhile */
            if (look && now == seen && loom__load_relaxed(&waiting) == 0 && !has_work()) {
                hot = loom__net_poll();
                now = loom__load_relaxed(&loom__net.polls);
                ns = 0;
            }
            seen = now;
            continue;
        }
        if (ns)
            nap(ns);
        unsigned long now = loom__load_relaxed(&loom__net.polls);
        if (now != seen) { /* a rank polled meanwhile (a test, a probe): it did the work */
            seen = now;
            ns = ns ? ns : NAP_FIRST_NS;
            continue;
        }
        int moved = loom__net_poll();
        seen = loom__load_relaxed(&loom__net.polls);
        if (moved)
            ns = 0; /* what follows a completion may be there already */
        else if (hot && ns >= longest)
            hot = 0; /* the exchange that woke the look is over: back to looks */
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
    below_tend = loom__wait_tend;
    loom__wait_tend = tend;
}

void loom__net_watch_stop(void)
{
    if (!running)
        return;
    loom__store_release(&stop, 1);
    kick();
    pthread_join(thread, NULL);
    loom__wait_tend = below_tend; /* no rank waits any more */
    running = 0;
}
