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
    _Atomic int shared;          /* of which shareable: stealable even while kept (task.h) */
    /* One-shot tasks taken from here whose function has not returned yet: incremented under
     * the lock by the taker, decremented without it (an atomic RMW) when the function
     * returns. A waiter that sees it nonzero knows the work it may be waiting for is moving
     * on another thread (a chunk of its message being copied) and yields instead of going to
     * sleep: the completion comes within a task's length, sooner than a futex wake-up. Repeat
     * tasks (pollers) are left out: they run for ever and say nothing about a completion. */
    _Atomic int running;
    struct loom_task *head, *tail;
    /* The id of the rank worker homed here, when it is the only one (LOOM_KEEPER_SHARED when
     * several are, LOOM_KEEPER_NONE when none): while it is busy in a wait it drains this
     * queue itself, so stealers leave the queue to it (see `tending` below). Set at
     * registration (CAS), before any task of its id exists; read without lock by stealers. */
    _Atomic int keeper;
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
    /* [max_workers] 1 while id's rank worker is busy in a wait (loom__task_tending): it runs
     * its home queue at every keypoint, so stealers skip the queue it keeps. The work is then
     * done by the thread whose cache should receive it (a receiver copying its own message),
     * and the threads left free go to ranks that compute, which is what collaborative polling
     * is for. Written by that rank worker only (relaxed: a stale read delays or hastens one
     * steal; loom__task_tending wakes stealers when it stops); one cache line each. */
    struct loom_task_tending { _Atomic int on; char pad[60]; } *id_tending;
};

extern struct loom_task_engine loom__task_engine;

enum { LOOM_KEEPER_NONE = -1, LOOM_KEEPER_SHARED = -2 };

/* Append t to q and count it (takes q's lock). */
void loom__task_enqueue(struct loom_task_queue *q, struct loom_task *t);
/* Enqueue t on q and wake the sleeping workers that may run it: every time a task becomes
 * visible on a queue, its first submission or a repeat task's return to its queue. The
 * latter matters as much: while a repeat task runs it is on no queue and counted nowhere
 * (keypoint.c, running), so another worker of its rank may look, find nothing and sleep; a
 * return without a wake-up would then leave the task to nobody once its runner leaves MPI. */
void loom__task_publish(struct loom_task_queue *q, struct loom_task *t);
#endif
