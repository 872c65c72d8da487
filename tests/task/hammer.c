/* At most once per submission, under 8 threads that submit and run at once: every thread owns
 * 16 tasks that it resubmits as soon as they have run, while every thread also runs whatever
 * it can (keypoints with stealing). Each run increments its task's counter; after join, every
 * task ran exactly as many times as it was submitted, and the grand total matches. */
#include <pthread.h>
#include "core/atomic.h"
#include "task_test.h"

#define THREADS 8
#define TASKS 16
#define ROUNDS 2000

struct item {
    struct loom_task task;
    _Atomic int runs;     /* incremented by the task */
    int submitted;        /* owner thread only */
};

static struct loom_topo *topo;
static struct item items[THREADS][TASKS];
static _Atomic int ready;

static int bump(struct loom_task *t)
{
    struct item *it = t->arg;
    loom__fetch_add_relaxed(&it->runs, 1);
    return LOOM_TASK_DONE;
}

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    loom__task_worker_register(&w, loom__topo_core_set(topo, me % 8), me, 1, &ev);
    loom__fetch_add_acq_rel(&ready, 1);
    while (loom__load_acquire(&ready) < THREADS)
        ;
    int done = 0;
    while (!done) {
        done = 1;
        for (int i = 0; i < TASKS; i++) {
            struct item *it = &items[me][i];
            if (it->submitted < ROUNDS) {
                done = 0;
                if (loom__task_submit(&it->task) == 0)
                    it->submitted++;
            }
        }
        loom__task_keypoint();
    }
    /* drain: run until every own task has run as often as submitted */
    for (int i = 0; i < TASKS; i++)
        while (loom__load_acquire(&items[me][i].runs) < items[me][i].submitted)
            loom__task_keypoint();
    return NULL;
}

int main(void)
{
    topo = test_engine(FIG1, THREADS);
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < TASKS; i++)
            items[t][i].task = (struct loom_task){.fn = bump, .arg = &items[t][i],
                                                  .queue = core_queue(topo, (t + i) % 8),
                                                  .owner = t};
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    long total = 0;
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < TASKS; i++) {
            EXPECT_EQ(atomic_load(&items[t][i].runs), items[t][i].submitted);
            EXPECT_EQ(items[t][i].submitted, ROUNDS);
            total += atomic_load(&items[t][i].runs);
        }
    EXPECT_EQ(total, (long)THREADS * TASKS * ROUNDS);
    loom__task_engine_fini();
    loom__topo_destroy(topo);
    return 0;
}
