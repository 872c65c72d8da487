/* Shareable tasks and work running elsewhere.
 *
 * A (id 0, core 0) waits and keeps its queue while its strict task `hold_a` runs; on that
 * queue sit `plain` (stealable) and `piece` (shareable). B (id 1, core 2) finds nothing
 * unkept, so it takes `piece` (and only it), then sees `plain` as work under way elsewhere.
 * Then A runs `busy`, a one-shot task that stays running until B has looked: with A's queue
 * empty, B must see it as running elsewhere (a waiter yields rather than sleeps), A itself,
 * inside it, must not count its own task, and once it has returned B sees nothing.
 * Threads take turns through test_step (task_test.h). */
#include <pthread.h>
#include "core/atomic.h"
#include "task_test.h"

static struct loom_topo *topo;
static _Atomic int ran_plain, ran_piece; /* id + 1 of the worker that ran it, 0 before */
static struct loom_task hold_a, plain, piece, busy;


/* Records who ran it in the counter its argument points to. */
static int note(struct loom_task *t)
{
    loom__store_release((_Atomic int *)t->arg, loom__task_self->id + 1);
    return LOOM_TASK_DONE;
}

/* A's strict task: queues the other two, lets B look (2), comes back at 3. */
static int queue_and_hold(struct loom_task *t)
{
    (void)t;
    EXPECT_EQ(loom__task_submit(&plain), 0);
    EXPECT_EQ(loom__task_submit(&piece), 0);
    pass(2);
    turn(3);
    return LOOM_TASK_DONE;
}

/* A one-shot task that runs while B looks (5) and checks that A does not see itself. */
static int stay_running(struct loom_task *t)
{
    (void)t;
    EXPECT_EQ(loom__task_work_visible(), LOOM_WORK_NONE);
    pass(5);
    turn(6);
    return LOOM_TASK_DONE;
}

static void *thread_a(void *arg)
{
    (void)arg;
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    loom__task_worker_register(&w, loom__topo_core_set(topo, 0), 0, 1, &ev);
    turn(1);
    loom__task_tending(1);
    EXPECT_EQ(loom__task_submit(&hold_a), 0);
    EXPECT_EQ(loom__task_keypoint(), 1); /* hold_a; the two it queued came after the budget */
    EXPECT_EQ(loom__task_keypoint(), 1); /* plain: B took piece */
    EXPECT_EQ(loom__load_acquire(&ran_plain), 1);
    loom__task_tending(0);
    EXPECT_EQ(loom__task_submit(&busy), 0);
    EXPECT_EQ(loom__task_keypoint(), 1); /* busy, until B has looked */
    pass(7);
    turn(8);
    return NULL;
}

static void *thread_b(void *arg)
{
    (void)arg;
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    loom__task_worker_register(&w, loom__topo_core_set(topo, 2), 1, 1, &ev);
    pass(1);
    turn(2);
    /* A's queue is kept and holds plain and piece: piece is for B, plain is not. */
    EXPECT_EQ(loom__task_work_visible(), LOOM_WORK_RUNNABLE);
    EXPECT_EQ(loom__task_keypoint(), 1);
    EXPECT_EQ(loom__load_acquire(&ran_piece), 2);
    EXPECT_EQ(loom__load_acquire(&ran_plain), 0);
    EXPECT_EQ(loom__task_work_visible(), LOOM_WORK_ELSEWHERE);
    EXPECT_EQ(loom__task_keypoint(), 0);
    pass(3);
    /* A runs busy: nothing queued, one task running on A's queue. */
    turn(5);
    EXPECT_EQ(loom__task_work_visible(), LOOM_WORK_ELSEWHERE);
    pass(6);
    turn(7);
    EXPECT_EQ(loom__task_work_visible(), LOOM_WORK_NONE);
    pass(8);
    return NULL;
}

int main(void)
{
    topo = test_engine(FIG1, 4);
    int q0 = core_queue(topo, 0);
    hold_a = (struct loom_task){.fn = queue_and_hold, .queue = q0, .strict = 1};
    plain = (struct loom_task){.fn = note, .arg = &ran_plain, .queue = q0};
    piece = (struct loom_task){.fn = note, .arg = &ran_piece, .queue = q0, .share = 1};
    busy = (struct loom_task){.fn = stay_running, .queue = q0};
    pthread_t a, b;
    pthread_create(&a, NULL, thread_a, NULL);
    pthread_create(&b, NULL, thread_b, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    loom__task_engine_fini();
    loom__topo_destroy(topo);
    return 0;
}
