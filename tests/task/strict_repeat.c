/* Strictness and repeat tasks on the Fig. 1 node: a strict task queued on core 0 is run by a
 * worker homed on core 0 and never by a stealing worker homed on core 5; a stealable one is
 * stolen by that worker. A repeat task runs until it says DONE; a cancelled one stops. */
#include "task_test.h"

static int runs;
static int count_fn(struct loom_task *t)
{
    (void)t;
    runs++;
    return LOOM_TASK_DONE;
}

static int left;
static int repeat_fn(struct loom_task *t)
{
    (void)t;
    runs++;
    return --left > 0 ? LOOM_TASK_AGAIN : LOOM_TASK_DONE;
}

static int forever_fn(struct loom_task *t)
{
    (void)t;
    runs++;
    return LOOM_TASK_AGAIN;
}

int main(void)
{
    struct loom_topo *topo = test_engine(FIG1, 4);
    struct loom_event ev0 = LOOM_EVENT_INIT, ev5 = LOOM_EVENT_INIT;
    struct loom_task_worker w0, w5;
    /* Both "workers" live on this thread: switching loom__task_self plays each in turn. */
    loom__task_worker_register(&w5, loom__topo_core_set(topo, 5), 5, 1, &ev5);
    loom__task_worker_register(&w0, loom__topo_core_set(topo, 0), 0, 1, &ev0);

    struct loom_task t = {.fn = count_fn, .queue = core_queue(topo, 0), .strict = 1, .owner = 0};
    EXPECT_EQ(loom__task_submit(&t), 0);
    EXPECT_EQ(loom__task_submit(&t), -1); /* already queued: at most once per submission */
    loom__task_self = &w5;
    EXPECT_EQ(loom__task_work_visible(), 0);
    EXPECT_EQ(loom__task_keypoint(), 0);
    EXPECT_EQ(runs, 0);
    loom__task_self = &w0;
    EXPECT_EQ(loom__task_keypoint(), 1);
    EXPECT_EQ(runs, 1);
    EXPECT_EQ(w0.stats.ran_own, 1);

    t.strict = 0;
    t.owner = 0;
    EXPECT_EQ(loom__task_submit(&t), 0);
    loom__task_self = &w5;
    EXPECT_EQ(loom__task_work_visible(), 1);
    EXPECT_EQ(loom__task_keypoint(), 1);
    EXPECT_EQ(runs, 2);
    EXPECT_EQ(w5.stats.ran_other_numa, 1); /* core 0 is on NUMA node 0, core 5 on node 1 */

    /* repeat: runs 5 times over keypoints of the owner's worker */
    loom__task_self = &w0;
    struct loom_task r = {.fn = repeat_fn, .queue = core_queue(topo, 0), .repeat = 1, .owner = 0};
    runs = 0;
    left = 5;
    EXPECT_EQ(loom__task_submit(&r), 0);
    for (int i = 0; i < 10; i++)
        loom__task_keypoint();
    EXPECT_EQ(runs, 5);
    EXPECT_EQ(atomic_load(&r.state), LOOM_TASK_IDLE);

    /* cancel: a task that always asks again stops when cancelled */
    struct loom_task f = {.fn = forever_fn, .queue = core_queue(topo, 0), .repeat = 1, .owner = 0};
    runs = 0;
    EXPECT_EQ(loom__task_submit(&f), 0);
    loom__task_keypoint();
    loom__task_keypoint();
    EXPECT_EQ(runs, 2);
    loom__task_cancel(&f);
    EXPECT_EQ(atomic_load(&f.state), LOOM_TASK_IDLE);
    loom__task_keypoint();
    EXPECT_EQ(runs, 2);
    EXPECT_EQ(loom__task_submit(&f), 0); /* can be submitted again */
    loom__task_cancel(&f);

    loom__task_engine_fini();
    loom__topo_destroy(topo);
    return 0;
}
