/* A queue's keeper: while the rank worker homed alone on a queue waits (loom__task_tending)
 * and has found work on that queue, other workers neither steal from it nor count its tasks
 * as runnable work (only as work under way elsewhere); when its wait ends, they may again,
 * and a stealer asleep meanwhile is woken. A queue with two rank workers homed on it has no
 * keeper: stealing from it goes on.
 *
 * Workers: A (id 0, core 0), B (id 1, core 2: another L2 of the same package), later C (id 2,
 * core 0 again). A's keypoint runs `first`, which queues `second` on A's queue (after the
 * keypoint's budget was taken, so A leaves it there) and, in the blocking phases, holds A
 * inside the keypoint while B looks; `first` is strict, so only A runs it. Threads take turns
 * through test_step (task_test.h). */
#include <pthread.h>
#include "core/atomic.h"
#include "task_test.h"

#define ROUNDS 5000

static struct loom_topo *topo;
static _Atomic int hold;   /* `first` spins while this is 1 */
static _Atomic int ran_by; /* id of the worker that ran `second` last, -1 before */
static _Atomic int rounds_run;
static struct loom_task first, second;


static int note(struct loom_task *t)
{
    (void)t;
    loom__store_release(&ran_by, loom__task_self->id);
    loom__fetch_add_acq_rel(&rounds_run, 1);
    return LOOM_TASK_DONE;
}

/* Queues `second`; when `hold` is set, hands the turn to B (t->arg) and stays until A's
 * thread is given the turn back (1000 + the step passed). */
static int queue_second(struct loom_task *t)
{
    EXPECT_EQ(loom__task_submit(&second), 0);
    if (loom__load_acquire(&hold)) {
        int to_b = (int)(long)t->arg;
        pass(to_b);
        turn(1000 + to_b);
    }
    return LOOM_TASK_DONE;
}

static int reached(void *arg)
{
    return loom__load_acquire(&rounds_run) >= (int)(long)arg;
}

/* A waits, keeps its queue and runs `first` (which may hold it while B's turn runs). */
static void a_keypoint_with_first(int to_b)
{
    first.arg = (void *)(long)to_b;
    EXPECT_EQ(loom__task_submit(&first), 0);
    EXPECT_EQ(loom__task_keypoint(), 1); /* `first` only: `second` came after the budget */
}

static void *thread_a(void *arg)
{
    (void)arg;
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    loom__task_worker_register(&w, loom__topo_core_set(topo, 0), 0, 1, &ev);
    EXPECT_EQ(w.first, 1);
    turn(1);
    /* 1. Inside a wait, with work on its queue: kept while `first` holds A (B looks: 2). */
    loom__task_tending(1);
    loom__store_release(&hold, 1);
    a_keypoint_with_first(2);
    /* 3. Leaving the wait gives the queue back; `second` is still queued. */
    loom__task_tending(0);
    pass(4);
    /* 5. Rounds against a sleeping stealer: wait, queue `second` from a task, leave. */
    turn(5);
    loom__store_release(&hold, 0);
    for (long i = 1; i <= ROUNDS; i++) {
        loom__task_tending(1);
        a_keypoint_with_first(0);
        loom__task_tending(0);
        while (loom__load_acquire(&rounds_run) < 1 + (int)i)
            ;
    }
    pass(6);
    /* 7. With C homed on core 0 too, the queue has no keeper: B steals while A holds. */
    turn(7);
    loom__task_tending(1);
    loom__store_release(&hold, 1);
    a_keypoint_with_first(8);
    loom__task_tending(0);
    pass(9);
    return NULL;
}

static void *thread_b(void *arg)
{
    (void)arg;
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    loom__task_worker_register(&w, loom__topo_core_set(topo, 2), 1, 1, &ev);
    pass(1);
    /* 2. `second` sits on A's kept queue: left alone. */
    turn(2);
    EXPECT_EQ(loom__task_work_visible(), LOOM_WORK_ELSEWHERE); /* kept: A runs it */
    EXPECT_EQ(loom__task_keypoint(), 0);
    EXPECT_EQ(loom__load_acquire(&ran_by), -1);
    pass(1002);
    /* 4. No longer kept: B steals it. */
    turn(4);
    EXPECT_EQ(loom__task_work_visible(), LOOM_WORK_RUNNABLE);
    EXPECT_EQ(loom__task_keypoint(), 1);
    EXPECT_EQ(loom__load_acquire(&ran_by), 1);
    /* 5. B sleeps (no spin, no yield) until every round's `second` ran: it must be woken
     * when A leaves its wait, or this hangs (ctest's timeout fails it). */
    pass(5);
    loom__wait_until(&ev, reached, (void *)(long)(1 + ROUNDS));
    turn(6);
    pass(106); /* C's turn */
    /* 8. The queue is shared with C: B steals `second` while A is held. */
    turn(8);
    EXPECT_EQ(loom__task_keypoint(), 1);
    EXPECT_EQ(loom__load_acquire(&rounds_run), ROUNDS + 2);
    pass(1008);
    turn(9);
    return NULL;
}

static void *thread_c(void *arg)
{
    (void)arg;
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    /* 6. A second rank worker homed on core 0. */
    turn(106);
    loom__task_worker_register(&w, loom__topo_core_set(topo, 0), 2, 1, &ev);
    EXPECT_EQ(w.first, 1);
    pass(7);
    turn(9); /* the engine keeps a pointer to w: stay until the others are done */
    return NULL;
}

int main(void)
{
    topo = test_engine(FIG1, 4);
    loom__wait_spin = 0;
    loom__wait_yield = 0;
    loom__wait_progress = loom__task_keypoint;
    loom__wait_has_work = loom__task_work_visible;
    atomic_init(&ran_by, -1);
    first = (struct loom_task){.fn = queue_second, .queue = core_queue(topo, 0), .strict = 1};
    second = (struct loom_task){.fn = note, .queue = core_queue(topo, 0)};
    pthread_t a, b, c;
    pthread_create(&a, NULL, thread_a, NULL);
    pthread_create(&b, NULL, thread_b, NULL);
    pthread_create(&c, NULL, thread_c, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    EXPECT_EQ(atomic_load(&rounds_run), ROUNDS + 2);
    loom__task_engine_fini();
    loom__topo_destroy(topo);
    return 0;
}
