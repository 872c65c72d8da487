/* No lost wake-up: a worker waits (loom__wait_until with the keypoint as progress hook) with
 * no spinning and no yielding, so it really sleeps on its futex; another thread submits a
 * strict task to the worker's own core queue, which only that worker can run, and the task
 * publishes the round number the worker waits for. Repeated many times: a lost wake-up hangs
 * the test (ctest's timeout fails it). */
#include <pthread.h>
#include "core/atomic.h"
#include "task_test.h"

#define ROUNDS 20000

static struct loom_topo *topo;
static _Atomic int flag; /* the last round whose task ran */
static _Atomic int seen; /* the last round the waiter saw */
static struct loom_task task;

static int publish(struct loom_task *t)
{
    loom__store_release(&flag, (int)(long)t->arg);
    return LOOM_TASK_DONE;
}

static int reached(void *arg)
{
    return loom__load_acquire(&flag) >= (int)(long)arg;
}

static void *waiter(void *arg)
{
    (void)arg;
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    loom__task_worker_register(&w, loom__topo_core_set(topo, 0), 0, 1, &ev);
    for (long i = 1; i <= ROUNDS; i++) {
        loom__wait_until(&ev, reached, (void *)i);
        loom__store_release(&seen, (int)i);
    }
    return NULL;
}

int main(void)
{
    topo = test_engine(FIG1, 2);
    loom__wait_spin = 0;
    loom__wait_yield = 0;
    loom__wait_progress = loom__task_keypoint;
    loom__wait_has_work = loom__task_work_visible;
    task = (struct loom_task){.fn = publish, .queue = core_queue(topo, 0), .strict = 1};
    pthread_t th;
    pthread_create(&th, NULL, waiter, NULL);
    for (long i = 1; i <= ROUNDS; i++) {
        while (loom__load_acquire(&seen) < i - 1) /* the previous round is over */
            ;
        task.arg = (void *)i;
        EXPECT_EQ(loom__task_submit(&task), 0);
    }
    pthread_join(th, NULL);
    EXPECT_EQ(atomic_load(&seen), ROUNDS);
    loom__task_engine_fini();
    loom__topo_destroy(topo);
    return 0;
}
