/* task.c — the task engine's micro-benchmark (PIOMan, Trahay & Denis 2009, Section V.A).
 * Table I: the time to submit a task from core 0 to each queue on core 0's chain (its core,
 * each cache or NUMA level, the machine) and run it at a keypoint of the same thread.
 * Table II: the machine queue under contention: one thread per core, each submitting to the
 * machine queue and running keypoints at once.
 * Uses loom's internal API (not an MPI program). Topology: this machine, or LOOM_TOPOLOGY (a
 * synthetic machine shows more levels; threads are then not bound).
 * Output: CSV "task_submit_run_<level>,0,<ns>,ns" and "task_contention_<threads>t,0,<ns>,ns". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/atomic.h"
#include "task/task.h"
#include "topo/topo.h"

static struct loom_topo *topo;
static long iters = 2000000;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int noop(struct loom_task *t)
{
    (*(long *)t->arg)++;
    return LOOM_TASK_DONE;
}

struct contender {
    int core;
    double ns;
    pthread_barrier_t *start;
};

static void *contend(void *arg)
{
    struct contender *c = arg;
    char err[128];
    const struct loom_cpuset *set = loom__topo_core_set(topo, c->core);
    loom__topo_bind_thread(topo, set, err, sizeof err);
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    loom__task_worker_register(&w, set, c->core, 0, &ev);
    long count = 0;
    struct loom_task t = {.fn = noop, .arg = &count, .queue = 0, .owner = c->core};
    pthread_barrier_wait(c->start);
    double t0 = now();
    for (long i = 0; i < iters; i++) {
        loom__task_submit(&t);
        while (atomic_load_explicit(&t.state, memory_order_acquire) != LOOM_TASK_IDLE)
            loom__task_keypoint();
    }
    c->ns = (now() - t0) * 1e9 / (double)iters;
    return NULL;
}

int main(int argc, char **argv)
{
    char err[256];
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--quick"))
            iters = 200000;
    const char *spec = getenv("LOOM_TOPOLOGY");
    if (loom__topo_load(spec, &topo, err, sizeof err) != 0) {
        fprintf(stderr, "task: %s\n", err);
        return 1;
    }
    int ncores = loom__topo_ncores(topo);
    if (loom__task_engine_init(topo, ncores + 1) != 0)
        return 1;
    const struct loom_cpuset *core0 = loom__topo_core_set(topo, 0);
    loom__topo_bind_thread(topo, core0, err, sizeof err);
    struct loom_event ev = LOOM_EVENT_INIT;
    struct loom_task_worker w;
    loom__task_worker_register(&w, core0, 0, 0, &ev);

    /* Table I: each queue on core 0's chain, from its core up to the machine */
    const struct loom_topo_node *nodes;
    loom__topo_tree(topo, &nodes);
    for (int q = w.home; q >= 0; q = nodes[q].parent) {
        long count = 0;
        struct loom_task t = {.fn = noop, .arg = &count, .queue = q, .owner = 0};
        for (long i = 0; i < iters / 10; i++) { /* warm-up */
            loom__task_submit(&t);
            loom__task_keypoint();
        }
        double t0 = now();
        for (long i = 0; i < iters; i++) {
            loom__task_submit(&t);
            loom__task_keypoint();
        }
        double ns = (now() - t0) * 1e9 / (double)iters;
        if (count != iters + iters / 10) {
            fprintf(stderr, "task: ran %ld of %ld\n", count, iters + iters / 10);
            return 1;
        }
        printf("task_submit_run_%s_depth%d,0,%.1f,ns\n", nodes[q].type, nodes[q].depth, ns);
    }

    /* Table II: the machine queue shared by one thread per core */
    pthread_t th[256];
    struct contender c[256];
    pthread_barrier_t start;
    int n = ncores < 256 ? ncores : 256;
    pthread_barrier_init(&start, NULL, (unsigned)n);
    for (int i = 0; i < n; i++) {
        c[i] = (struct contender){i, 0, &start};
        pthread_create(&th[i], NULL, contend, &c[i]);
    }
    double sum = 0;
    for (int i = 0; i < n; i++) {
        pthread_join(th[i], NULL);
        sum += c[i].ns;
    }
    printf("task_contention_%dt,0,%.1f,ns\n", n, sum / n);
    loom__task_engine_fini();
    loom__topo_destroy(topo);
    return 0;
}
