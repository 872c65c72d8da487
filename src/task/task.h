/* task/task.h — the task engine (PIOMan, Trahay & Denis 2009, Section III), with the stealing
 * of collaborative polling (Didelot et al. 2014, Sections 3-4). Knows nothing of MPI.
 *
 * A task is a function, an argument, a queue (chosen from a CPU set: its locality), a strict
 * bit and a repeat bit. Queues hang on the scheduling tree of topo.h (Machine, Packages, NUMA
 * nodes, caches, Cores; levels that split nothing are skipped). A submission goes to the
 * deepest node whose CPU set contains the task's CPU set.
 *
 * Workers are the threads that run tasks: rank threads at their keypoints (inside waits and
 * tests) and progress threads. Each worker has a home queue (the deepest node containing its
 * CPU set) and runs, at a keypoint:
 *   1. Algorithm 1: every task of its home queue, then of each ancestor up to the Machine;
 *   2. when that found nothing and stealing is on: the stealable (non-strict) tasks of the
 *      nearest other queue that has some and is not kept (same cache, same NUMA node, same
 *      package, then the rest: by decreasing depth of the common ancestor), as many as it
 *      held on arrival, while it stays unkept;
 *   3. when that found nothing either: one shareable task of the nearest kept queue that has
 *      one (a piece of a large copy whose receiver copies the rest).
 * Taking a task follows Algorithm 2: a queue is looked at without its lock (an atomic count)
 * and locked only when not empty.
 *
 * Lifetime (a task is embedded in its owner; no allocation per submission):
 *   IDLE --submit--> QUEUED --taken by a worker--> one-shot task: IDLE, then fn runs; the
 *     engine no longer touches the task (fn may free it or submit it anew);
 *   repeat task: RUNNING while fn runs; LOOM_TASK_AGAIN puts it back QUEUED in the same queue
 *     (IDLE instead when cancelled), LOOM_TASK_DONE makes it IDLE and untouched.
 * So a task runs at most once per submission, and by one thread at a time. */
#ifndef LOOM_TASK_TASK_H
#define LOOM_TASK_TASK_H
#include <stdatomic.h>
#include <stdint.h>
#include "core/event.h"
#include "core/tls.h"

struct loom_topo;
struct loom_cpuset;
struct loom_task;

/* What a task function returns. DONE: finished (a repeat task becomes IDLE, and the engine
 * writes that state after the function returns). AGAIN: run me again (repeat tasks). GONE:
 * finished and the function has freed or reused the task: the engine must not touch it at
 * all (one-shot tasks are never touched after their function starts, whatever it returns). */
enum { LOOM_TASK_DONE = 0, LOOM_TASK_AGAIN = 1, LOOM_TASK_GONE = 2 };
enum { LOOM_TASK_IDLE = 0, LOOM_TASK_QUEUED, LOOM_TASK_RUNNING };

typedef int (*loom_task_fn)(struct loom_task *t);

struct loom_task {
    loom_task_fn fn;          /* set by the owner while IDLE */
    void *arg;
    int queue;                /* queue index; set by the owner while IDLE (loom__task_queue_of) */
    uint8_t strict;           /* run only by workers whose CPU set lies in the queue's set */
    uint8_t repeat;           /* may return LOOM_TASK_AGAIN */
    uint8_t share;            /* stealable even from a kept queue, by a worker that found
                               * nothing else: a piece of a job that two cores finish sooner
                               * than its keeper alone (a large copy); ignored if strict */
    int owner;                /* whom it works for (a rank id) for statistics; -1 if nobody */
    _Atomic int state;        /* LOOM_TASK_IDLE / QUEUED / RUNNING */
    _Atomic int cancel;       /* set by loom__task_cancel */
    struct loom_task *next;   /* link in its queue, under that queue's lock */
};

/* What a worker did, for LOOM_STATS (Figs. 6-7 of the collaborative polling paper). Written by
 * the worker only; read after it has stopped. */
struct loom_task_stats {
    unsigned long long ran_own;        /* tasks whose owner is this worker's id */
    unsigned long long ran_same_numa;  /* for another id homed on the same NUMA node */
    unsigned long long ran_other_numa; /* for another id homed on another NUMA node */
};

/* A thread that runs tasks. Registered once, before it runs tasks; fields read-only after
 * registration except stats (owner thread only). */
struct loom_task_worker {
    int id;                    /* rank id it belongs to (progress threads: their rank) */
    int home;                  /* its home queue */
    int numa;                  /* NUMA node of its home, -1 if it spans several */
    int steal;                 /* 1 if it may take stealable tasks from other queues */
    struct loom_event *event;  /* where it sleeps; notified when work may have come */
    int first;                 /* 1 if it is its id's first worker: the rank thread */
    int dedicated;             /* 1 if it does nothing but run tasks (a progress thread) */
    int waiting;               /* depth of the waits it is in (loom__task_tending); own only */
    int kept;                  /* 1 while it has marked its home queue kept; own only */
    int running_from;          /* queue of the one-shot task it runs now, -1; own only */
    struct loom_task_stats stats;
};

/* The engine's worker for the calling thread, or NULL. */
extern LOOM_TLS_FAST struct loom_task_worker *loom__task_self;

/* How a thread that has no worker yet gets one when it reaches a keypoint: NULL for none, or a
 * function returning the calling thread's new worker (made with loom__task_worker_init and
 * made loom__task_self), or NULL if the thread works for no id. The layer above sets it once,
 * before any worker runs (the threads a rank creates work for that rank: core/thread_worker.c). */
extern struct loom_task_worker *(*loom__task_adopt)(void);

/* The calling thread's worker, made by loom__task_adopt on its first call if it has none;
 * NULL for a thread that works for nobody. */
static inline struct loom_task_worker *loom__task_worker_me(void)
{
    struct loom_task_worker *w = loom__task_self;
    if (__builtin_expect(w == NULL, 0) && loom__task_adopt)
        w = loom__task_adopt();
    return w;
}

/* Build the queues for topology t with room for max_workers workers (ranks + progress
 * threads), and record each id's home NUMA node as it registers. 0 or -1 (ENOMEM). Called
 * once by the main thread before any worker runs; loom__task_engine_fini after all stopped. */
int loom__task_engine_init(const struct loom_topo *t, int max_workers);
void loom__task_engine_fini(void);

/* Register the calling thread as worker w, homed at the deepest queue containing `set`.
 * Makes it loom__task_self. Any thread, once. */
void loom__task_worker_register(struct loom_task_worker *w, const struct loom_cpuset *set,
                                int id, int steal, struct loom_event *event);

/* Fill w as a helper of id's workers without registering it: homed at queue `home`, never
 * its queue's keeper, not counted by the engine's wake-ups (it must sleep on an event that
 * id's registered worker gets, e.g. the same one). Stats zeroed. */
void loom__task_worker_init(struct loom_task_worker *w, int home, int id, int steal,
                            struct loom_event *event);

/* The queue for a locality: the deepest node containing set (the machine queue for NULL).
 * Cost: a walk over the tree; callers keep the result (e.g. once per rank). */
int loom__task_queue_of(const struct loom_cpuset *set);
/* The home queue of a registered worker id's first worker, -1 if unknown. */
int loom__task_home_of(int id);

/* Submit an IDLE task to its queue (t->queue) and wake workers that may run it.
 * Returns 0, or -1 if the task was not IDLE (already submitted). Any thread. */
int loom__task_submit(struct loom_task *t);

/* A keypoint of the calling worker (Algorithm 1, then stealing if allowed). Returns the number
 * of tasks run. A thread that is not a worker runs nothing. */
int loom__task_keypoint(void);
/* The calling worker starts (on=1) or stops (on=0) waiting inside loom (nested waits
 * count). While it waits, a rank worker that finds tasks on its home queue keeps that queue
 * (engine.h, id_tending); leaving its last wait, it gives the queue back and wakes stealers
 * if tasks remain. No-op for a thread that is not a worker. */
void loom__task_tending(int on);
/* LOOM_WORK_RUNNABLE if a task the calling worker could run is queued, LOOM_WORK_ELSEWHERE if
 * only tasks of kept queues are (their keeper is running them) or a one-shot task taken from
 * a queue in its reach runs on another thread, else LOOM_WORK_NONE (a look without locks;
 * core/event.h). */
int loom__task_work_visible(void);

/* Stop a repeat task: when it returns, it is IDLE and will not run again until resubmitted.
 * Waits while it is running (on another thread). Owner only. */
void loom__task_cancel(struct loom_task *t);

/* Take back a one-shot task that is no longer needed: 1 if it was still queued (it is IDLE now
 * and will not run: its submitter gets it back), 0 if a worker has taken it (it runs, or
 * ran, as submitted). Any thread. */
int loom__task_withdraw(struct loom_task *t);

/* Number of queues and each queue's tree node (for tests and loom-info). */
int loom__task_nqueues(void);
#endif
