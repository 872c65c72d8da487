/* No lost wake-up when a repeat task goes back to its queue. A rank with two threads inside
 * MPI: one of them (the runner) takes a repeat task at a keypoint; while it runs, the other
 * (the sleeper) looks for work, finds its queue empty (a repeat task that runs is counted
 * nowhere: a poller says nothing about when it will end) and goes to sleep on the rank's
 * event. The task returns LOOM_TASK_AGAIN and is queued again: that must wake the sleeper as
 * a submission would, or nobody runs the task again once the runner leaves MPI (a persistent
 * neighbor collective hung so under MPI_THREAD_MULTIPLE, both threads waiting for it).
 *
 * Workers, all of rank 0 and homed on core 0's queue, sleeping on one event: the registered
 * rank worker (the main thread, which then only watches, as a rank thread in pthread_join
 * does) and two helpers (loom__task_worker_init, core/thread_worker.c): the runner and the
 * sleeper. Checked: the requeue bumped the event's sequence (a notify found the sleeper), and
 * the sleeper ran the task's second run. The runner lets the task return only once the
 * sleeper has looked for work twice and found none: the second look is the one at the end of
 * the wait's grace period (core/event.h), after which the sleeper sleeps for longer, so that
 * its only way out is a notify (after one look the sleeper could still find the task itself
 * at the end of its grace, and the requeue's notify then find no sleeper: not a lost
 * wake-up). That longer sleep is bounded too (1 ms): when the runner is kept off its core that
 * long (ThreadSanitizer on a loaded machine), the sleeper wakes by itself and may find the
 * task first; so the first check is counted, not asserted each round: at least half the
 * rounds must show the notify. Without the wake-up none does. */
#include <pthread.h>
#include "core/atomic.h"
#include "task_test.h"

#define ROUNDS 2000

static struct loom_topo *topo;
static struct loom_event ev = LOOM_EVENT_INIT;
static struct loom_task task;
static int home;
static _Atomic int runs;      /* runs of the task, over all rounds */
static _Atomic int sleeping;  /* the event's sequence when the sleeper was bound to sleep */
static _Atomic int looks;     /* the sleeper's looks that found no work, this round */

/* The wait's has-work look, watched: when it finds nothing the sleeper is bound to sleep
 * (it read the event's sequence before it looked). */
static int watched_has_work(void)
{
    int w = loom__task_work_visible();
    if (w == LOOM_WORK_NONE)
        loom__fetch_add_acq_rel(&looks, 1);
    return w;
}

/* First run of a round (by the runner): wait until the sleeper has looked for work and found
 * none, then ask to run again. Second run (by the sleeper, once woken): done. */
static int poll_twice(struct loom_task *t)
{
    (void)t;
    int n = loom__fetch_add_acq_rel(&runs, 1) + 1;
    if (n % 2 == 0)
        return LOOM_TASK_DONE;
    loom__store_release(&looks, 0); /* the sleeper waits for its turn: it does not look */
    pass(2); /* the sleeper may look now: the task is off its queue */
    while (loom__load_acquire(&looks) < 2) /* the second: past its grace period */
        ;
    loom__store_release(&sleeping, (int)loom__load_seq_cst(&ev.seq));
    return LOOM_TASK_AGAIN;
}

static int second_run_done(void *arg)
{
    return loom__load_acquire(&runs) >= 2 * (int)(long)arg;
}

static struct loom_task_worker helpers[2]; /* the runner's, the sleeper's */

static void helper(int i)
{
    loom__task_worker_init(&helpers[i], home, 0, 0, &ev);
    loom__task_self = &helpers[i];
}

static int notified; /* rounds whose requeue bumped the sequence (the runner's) */

static void *runner(void *arg)
{
    (void)arg;
    helper(0);
    for (int i = 1; i <= ROUNDS; i++) {
        turn(1);
        EXPECT_EQ(loom__task_keypoint(), 1); /* the first run, then the requeue */
        if (loom__load_seq_cst(&ev.seq) != (unsigned)loom__load_acquire(&sleeping))
            notified++;
        pass(3);
    }
    return NULL;
}

static void *sleeper(void *arg)
{
    (void)arg;
    helper(1);
    for (long i = 1; i <= ROUNDS; i++) {
        turn(2);
        loom__wait_until(&ev, second_run_done, (void *)i);
        turn(3);
        EXPECT_EQ(loom__load_acquire(&runs), 2 * i);
        EXPECT_EQ(loom__load_acquire(&task.state), LOOM_TASK_IDLE);
        pass(4);
    }
    return NULL;
}

int main(void)
{
    topo = test_engine(FIG1, 2);
    loom__wait_spin = 0; /* waits sleep at once (LOOM_SPIN=0 LOOM_YIELD=0) */
    loom__wait_yield = 0;
    loom__wait_progress = loom__task_keypoint;
    loom__wait_has_work = watched_has_work;
    static struct loom_task_worker rank;
    loom__task_worker_register(&rank, loom__topo_core_set(topo, 0), 0, 0, &ev);
    home = rank.home;
    task = (struct loom_task){.fn = poll_twice, .queue = home, .strict = 1, .repeat = 1};
    pthread_t r, s;
    pthread_create(&r, NULL, runner, NULL);
    pthread_create(&s, NULL, sleeper, NULL);
    for (int i = 1; i <= ROUNDS; i++) {
        EXPECT_EQ(loom__task_submit(&task), 0);
        pass(1);
        turn(4);
    }
    pthread_join(r, NULL);
    pthread_join(s, NULL);
    EXPECT_EQ(atomic_load(&runs), 2 * ROUNDS);
    printf("requeue_wakeup: %d of %d rounds woken by the requeue's notify\n", notified,
           ROUNDS);
    EXPECT_EQ(notified >= ROUNDS / 2, 1);
    loom__task_engine_fini();
    loom__topo_destroy(topo);
    return 0;
}
