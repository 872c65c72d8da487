/* task/engine.h — the engine's private state, shared by engine.c and keypoint.c. */
#ifndef LOOM_TASK_ENGINE_H
#define LOOM_TASK_ENGINE_H
#include "core/lock.h"
#include "task/task.h"

/* One queue per node of the scheduling tree. `lock` protects head, tail and the `next` links
 * of queued tasks; `count` and `open` are written under it and read without it (Algorithm 2's
 * look before locking). Any worker may touch any queue. */
struct loom_task_queue {
    struct loom_lock lock;
    _Atomic int count;           /* tasks queued */
    _Atomic int open;            /* of which stealable (not strict) */
    struct loom_task *head, *tail;
    int parent;                  /* read-only after init */
    int depth;
    int numa;
} __attribute__((aligned(64)));

/* Built by loom__task_engine_init before any worker exists; read-only afterwards except the
 * queues (above) and the worker registry (nworkers, workers[], id_home[], id_numa[]: written
 * once per slot at registration, published by the release store of workers[slot]). */
struct loom_task_engine {
    const struct loom_topo *topo;
    int nqueues;
    struct loom_task_queue *q;
    int **steal_order;           /* [nqueues]: for each home, the other queues nearest first */
    int *nsteal;
    int max_workers;
    _Atomic int nworkers;
    struct loom_task_worker *_Atomic *workers;
    int *id_home, *id_numa;      /* [max_workers] home queue and NUMA node of each id */
};

extern struct loom_task_engine loom__task_engine;

/* Append t to q and count it (takes q's lock). */
void loom__task_enqueue(struct loom_task_queue *q, struct loom_task *t);
#endif
