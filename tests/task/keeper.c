/* A queue's keeper: while the rank worker homed alone on a queue is busy in a wait
 * (loom__task_tending(1)), other workers do not steal from that queue, nor see its tasks as
 * work; when it stops, they may again, and a stealer asleep meanwhile is woken. A queue with
 * two rank workers homed on it has no keeper: stealing from it is never held back.
 *
 * Workers: A (id 0, core 0), B (id 1, core 2: another L2 of the same package), then C (id 2,
 * core 0 again). Threads take turns through `step`. */
#include <pthread.h>
#include "core/atomic.h"
#include "task_test.h"

#define ROUNDS 5000

static struct loom_topo *topo;
static _Atomic int step;
static _Atomic int ran_by; /* id of the worker that ran `task` last, -1 before */
static _Atomic int rounds_run;
static struct loom_task task;

static int note(struct loom_task *t)
{
    (void)t;
    loom__store_release(&ran_by, loom__task_self->id);
    loom__fetch_add_acq_rel(&rounds_run, 1);
    return LOOM_TASK_DONE;
}

static void turn(int mine)
{
    while (loom__load_acquire(&step) != mine)
        ;
}

static void pass(int next)
{
    loom__store_release(&step, next);
}

static int reached(void *arg)
{
    return loom__load_acquire(&rounds_run) >= (int)(long)arg;
}

static void *thread_a(void *arg)
{
    (void)arg;
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    loom__task_worker_register(&w, loom__topo_core_set(topo, 0), 0, 1, &ev);
    EXPECT_EQ(w.first, 1);
    /* 1. A keeps its queue and a stealable task is queued there. */
    turn(1);
    EXPECT_EQ(loom__task_tending(1), 0);
    EXPECT_EQ(loom__task_submit(&task), 0);
    pass(2);
    /* 3. A stops keeping it. */
    turn(3);
    EXPECT_EQ(loom__task_tending(0), 1);
    pass(4);
    /* 5. Rounds against a sleeping stealer: keep, submit, stop keeping. */
    for (long i = 1; i <= ROUNDS; i++) {
        turn((int)(100 + i));
        loom__task_tending(1);
        EXPECT_EQ(loom__task_submit(&task), 0);
        loom__task_tending(0);
        while (loom__load_acquire(&rounds_run) < 1 + (int)i)
            ;
        pass((int)(100 + i + 1));
    }
    /* 7. With C homed on core 0 too, the queue has no keeper. */
    turn(7);
    loom__task_tending(1);
    EXPECT_EQ(loom__task_submit(&task), 0);
    pass(8);
    turn(9);
    loom__task_tending(0);
    return NULL;
}

static void *thread_b(void *arg)
{
    (void)arg;
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    loom__task_worker_register(&w, loom__topo_core_set(topo, 2), 1, 1, &ev);
    pass(1);
    /* 2. The kept queue is left alone. */
    turn(2);
    EXPECT_EQ(loom__task_work_visible(), 0);
    EXPECT_EQ(loom__task_keypoint(), 0);
    EXPECT_EQ(loom__load_acquire(&ran_by), -1);
    pass(3);
    /* 4. No longer kept: B steals the task. */
    turn(4);
    EXPECT_EQ(loom__task_work_visible(), 1);
    EXPECT_EQ(loom__task_keypoint(), 1);
    EXPECT_EQ(loom__load_acquire(&ran_by), 1);
    /* 5. B sleeps (no spin, no yield) until each round's task ran: it must be woken when A
     * stops keeping its queue, or this hangs (ctest's timeout fails it). */
    pass(101);
    loom__wait_until(&ev, reached, (void *)(long)(1 + ROUNDS));
    turn(100 + ROUNDS + 1);
    pass(6);
    /* 8. The queue is shared with C: stealing goes on while A waits. */
    turn(8);
    EXPECT_EQ(loom__task_keypoint(), 1);
    EXPECT_EQ(loom__load_acquire(&ran_by), 1);
    pass(9);
    return NULL;
}

static void *thread_c(void *arg)
{
    (void)arg;
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    /* 6. A second rank worker homed on core 0. */
    turn(6);
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
    task = (struct loom_task){.fn = note, .queue = core_queue(topo, 0)};
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
