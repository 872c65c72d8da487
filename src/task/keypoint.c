/* task/keypoint.c — running tasks: PIOMan's Algorithm 1 (own queue, then each ancestor up
 * to the machine) and Algorithm 2 (look without the lock, lock only when not empty), then the
 * nearest-first stealing of collaborative polling. */
#include <sched.h>
#include "core/atomic.h"
#include "core/stats.h"
#include "core/trace.h"
#include "task/engine.h"

/* The queue's counts for t coming (+1) or going (-1). Updated under the queue's lock; the
 * relaxed readers outside only use them as hints and retake the lock before trusting them
 * (Algorithm 2). */
static void recount(struct loom_task_queue *q, const struct loom_task *t, int delta)
{
    loom__store_relaxed(&q->count, loom__load_relaxed(&q->count) + delta);
    if (!t->strict)
        loom__store_relaxed(&q->open, loom__load_relaxed(&q->open) + delta);
    if (t->share && !t->strict)
        loom__store_relaxed(&q->shared, loom__load_relaxed(&q->shared) + delta);
}

void loom__task_enqueue(struct loom_task_queue *q, struct loom_task *t)
{
    t->next = NULL;
    loom__lock(&q->lock);
    if (q->tail)
        q->tail->next = t;
    else
        q->head = t;
    q->tail = t;
    recount(q, t, 1);
    loom__unlock(&q->lock);
}

/* Who takes a task: the queue's own workers (any task), a stealer (stealable ones), a
 * stealer at a kept queue (shareable ones only). */
enum { TAKE_OWN, TAKE_STEAL, TAKE_SHARE };

static int takes(int who, const struct loom_task *t)
{
    return who == TAKE_OWN || (!t->strict && (who == TAKE_STEAL || t->share));
}

/* Algorithm 2: take the first task of q that `who` may take, or NULL. */
static struct loom_task *take(struct loom_task_queue *q, int who)
{
    const _Atomic int *hint = who == TAKE_OWN ? &q->count : who == TAKE_STEAL ? &q->open
                                                                                : &q->shared;
    if (loom__load_relaxed(hint) == 0)
        return NULL;
    loom__lock(&q->lock);
    struct loom_task **pp = &q->head, *t, *prev = NULL;
    for (; (t = *pp) != NULL; prev = t, pp = &t->next)
        if (takes(who, t))
            break;
    if (t) {
        *pp = t->next;
        if (q->tail == t)
            q->tail = prev;
        recount(q, t, -1);
        if (!t->repeat) /* RMW: a finishing task's decrement runs without the lock */
            loom__fetch_add_relaxed(&q->running, 1);
        /* A one-shot task is its owner's again as soon as it is taken (it may be submitted
         * anew from its own function); a repeat task is RUNNING until it returns. release:
         * pairs with the acquire loads in loom__task_cancel and loom__task_submit's CAS. */
        loom__store_release(&t->state, t->repeat ? LOOM_TASK_RUNNING : LOOM_TASK_IDLE);
    }
    loom__unlock(&q->lock);
    return t;
}

/* 1 if q's keeper is waiting inside loom, so runs q itself: leave q to it (task.h). */
static int kept(const struct loom_task_engine *e, struct loom_task_queue *q)
{
    int k = loom__load_relaxed(&q->keeper);
    return k >= 0 && loom__load_relaxed(&e->id_tending[k].on);
}

static void count(struct loom_task_worker *w, const struct loom_task *t)
{
    struct loom_task_engine *e = &loom__task_engine;
    if (t->owner == w->id || t->owner < 0 || t->owner >= e->max_workers) {
        w->stats.ran_own++;
        LOOM_STATS_TASK(w->id, LOOM_STATS_TASK_OWN); /* MPI_T */
    } else if (e->id_numa[t->owner] >= 0 && e->id_numa[t->owner] == w->numa) {
        w->stats.ran_same_numa++;
        LOOM_STATS_TASK(w->id, LOOM_STATS_TASK_SAME_NUMA);
    } else {
        w->stats.ran_other_numa++;
        LOOM_STATS_TASK(w->id, LOOM_STATS_TASK_OTHER_NUMA);
    }
}

static void run(struct loom_task_worker *w, struct loom_task_queue *q, struct loom_task *t)
{
    LOOM_TRACE_TASK_SCOPE(t->owner); /* trace: running a task for t->owner until return */
    count(w, t);
    int repeat = t->repeat;
    if (!repeat) {
        int outer = w->running_from;
        w->running_from = (int)(q - loom__task_engine.q);
        t->fn(t); /* the task may be gone when fn returns */
        w->running_from = outer;
        loom__fetch_sub_relaxed(&q->running, 1);
        return;
    }
    int rc = t->fn(t);
    if (rc == LOOM_TASK_GONE)
        return; /* the task freed itself */
    if (rc != LOOM_TASK_AGAIN) {
        loom__store_release(&t->state, LOOM_TASK_IDLE); /* its owner's again, untouched */
        return;
    }
    if (loom__load_acquire(&t->cancel)) {
        loom__store_release(&t->state, LOOM_TASK_IDLE); /* pairs with loom__task_cancel */
        return;
    }
    loom__store_relaxed(&t->state, LOOM_TASK_QUEUED);
    loom__task_publish(q, t); /* with a wake-up: a worker may have slept while t ran here */
}

int loom__task_keypoint(void)
{
    struct loom_task_worker *w = loom__task_worker_me();
    struct loom_task_engine *e = &loom__task_engine;
    if (w == NULL || e->q == NULL)
        return 0;
    int ran = 0;
    /* A rank that waits and has work on its own queue keeps it: stealers leave it alone from
     * now until the rank's wait ends (engine.h, id_tending). */
    if (w->waiting && w->first && !w->kept && loom__load_relaxed(&e->q[w->home].count)) {
        w->kept = 1;
        loom__store_relaxed(&e->id_tending[w->id].on, 1);
    }
    for (int qi = w->home; qi >= 0; qi = e->q[qi].parent) {
        struct loom_task_queue *q = &e->q[qi];
        /* Bounded by what was queued on arrival, so a repeat task that keeps asking to run
         * again cannot hold the worker here forever. */
        for (int budget = loom__load_relaxed(&q->count); budget > 0; budget--) {
            struct loom_task *t = take(q, TAKE_OWN);
            if (t == NULL)
                break;
            run(w, q, t);
            ran++;
        }
    }
    if (ran || !w->steal)
        return ran;
    const int *order = e->steal_order[w->home];
    for (int i = 0; i < e->nsteal[w->home]; i++) {
        struct loom_task_queue *q = &e->q[order[i]];
        if (kept(e, q))
            continue;
        /* What the queue held when we came, as for Algorithm 1: its owner is away (it would
         * keep the queue otherwise), so the stealer drains it while it stays unkept rather
         * than going back through its wait loop for every task. */
        int budget = loom__load_relaxed(&q->open);
        struct loom_task *t = take(q, TAKE_STEAL);
        if (t == NULL)
            continue;
        int ran_here = 0;
        do {
            run(w, q, t);
            ran_here++;
        } while (--budget > 0 && !kept(e, q) && (t = take(q, TAKE_STEAL)) != NULL);
        return ran_here;
    }
    /* Nothing anywhere but at kept queues: a shareable task there is a piece of one large
     * job (a chunk of a message of several chunks) that goes faster on two cores than on
     * its keeper's alone. One per keypoint, nearest first: the keeper takes the rest. */
    for (int i = 0; i < e->nsteal[w->home]; i++) {
        struct loom_task_queue *q = &e->q[order[i]];
        struct loom_task *t = take(q, TAKE_SHARE);
        if (t) {
            run(w, q, t);
            return 1;
        }
    }
    return 0;
}

/* 1 if a one-shot task taken from queue qi runs on another thread now. A worker waiting
 * inside a task of its own (a nested wait) does not count itself; a deeper nesting may
 * count one of its own outer tasks, which only makes that rare wait yield where it could
 * sleep. */
static int running_elsewhere(const struct loom_task_worker *w, const struct loom_task_engine *e,
                             int qi)
{
    return loom__load_relaxed(&e->q[qi].running) > (w->running_from == qi);
}

int loom__task_work_visible(void)
{
    struct loom_task_worker *w = loom__task_worker_me();
    struct loom_task_engine *e = &loom__task_engine;
    if (w == NULL || e->q == NULL)
        return 0;
    int elsewhere = 0;
    for (int qi = w->home; qi >= 0; qi = e->q[qi].parent) {
        if (loom__load_relaxed(&e->q[qi].count))
            return LOOM_WORK_RUNNABLE;
        elsewhere |= running_elsewhere(w, e, qi);
    }
    if (w->steal) {
        const int *order = e->steal_order[w->home];
        for (int i = 0; i < e->nsteal[w->home]; i++) {
            struct loom_task_queue *q = &e->q[order[i]];
            if (!loom__load_relaxed(&q->open)) {
                elsewhere |= running_elsewhere(w, e, order[i]);
                continue;
            }
            if (!kept(e, q) || loom__load_relaxed(&q->shared))
                return LOOM_WORK_RUNNABLE;
            elsewhere = 1;
        }
    }
    return elsewhere ? LOOM_WORK_ELSEWHERE : LOOM_WORK_NONE;
}

/* Unlink t from its queue if it is queued there: 1 if it was (it is IDLE now and will not run
 * for this submission), 0 if a worker took it or it is not queued. */
static int unlink_queued(struct loom_task *t)
{
    struct loom_task_queue *q = &loom__task_engine.q[t->queue];
    int unlinked = 0;
    loom__lock(&q->lock);
    struct loom_task **pp = &q->head, *prev = NULL;
    for (; *pp; prev = *pp, pp = &(*pp)->next) {
        if (*pp == t) {
            *pp = t->next;
            if (q->tail == t)
                q->tail = prev;
            recount(q, t, -1);
            loom__store_relaxed(&t->state, LOOM_TASK_IDLE);
            unlinked = 1;
            break;
        }
    }
    loom__unlock(&q->lock);
    return unlinked;
}

void loom__task_cancel(struct loom_task *t)
{
    loom__store_release(&t->cancel, 1);
    for (;;) {
        int s = loom__load_acquire(&t->state);
        if (s == LOOM_TASK_IDLE)
            return;
        /* Unlink it if it is still queued; else a worker took it meanwhile: retry. */
        if (s == LOOM_TASK_QUEUED && unlink_queued(t))
            return;
        sched_yield(); /* running on another worker: it will see `cancel` when it returns */
    }
}

int loom__task_withdraw(struct loom_task *t)
{
    if (loom__load_acquire(&t->state) != LOOM_TASK_QUEUED)
        return 0;
    return unlink_queued(t);
}
