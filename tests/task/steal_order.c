/* Stealing order on the Fig. 1 node: a worker on core 0 with nothing of its own steals from the
 * nearest queue first: core 1 (same L2), then cores 2-3 (same package), then cores 4-7 (the
 * other package / NUMA node). Tasks are queued farthest first so FIFO order cannot explain the
 * result. */
#include "task_test.h"

static int order[8], norder;
static int record(struct loom_task *t)
{
    order[norder++] = (int)(long)t->arg;
    return LOOM_TASK_DONE;
}

int main(void)
{
    struct loom_topo *topo = test_engine(FIG1, 8);
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w, others[3];
    /* the owners' ids are homed on their cores, so statistics know their NUMA nodes */
    loom__task_worker_register(&others[0], loom__topo_core_set(topo, 1), 1, 1, &ev);
    loom__task_worker_register(&others[1], loom__topo_core_set(topo, 3), 3, 1, &ev);
    loom__task_worker_register(&others[2], loom__topo_core_set(topo, 6), 6, 1, &ev);
    loom__task_worker_register(&w, loom__topo_core_set(topo, 0), 0, 1, &ev);
    static const int cores[] = {6, 3, 1};
    struct loom_task t[3];
    for (int i = 0; i < 3; i++) {
        t[i] = (struct loom_task){.fn = record, .arg = (void *)(long)cores[i],
                                  .queue = core_queue(topo, cores[i]), .owner = cores[i]};
        EXPECT_EQ(loom__task_submit(&t[i]), 0);
    }
    for (int i = 0; i < 3; i++)
        EXPECT_EQ(loom__task_keypoint(), 1); /* one steal per keypoint */
    EXPECT_EQ(norder, 3);
    EXPECT_EQ(order[0], 1);
    EXPECT_EQ(order[1], 3);
    EXPECT_EQ(order[2], 6);
    EXPECT_EQ(w.stats.ran_own, 0);
    EXPECT_EQ(w.stats.ran_same_numa, 2);  /* cores 1 and 3: NUMA node 0, as core 0 */
    EXPECT_EQ(w.stats.ran_other_numa, 1); /* core 6: NUMA node 1 */
    loom__task_engine_fini();
    loom__topo_destroy(topo);
    return 0;
}
