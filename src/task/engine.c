/* task/engine.c — queues on the scheduling tree, workers, submission and wake-ups.
 * (Algorithms 1 and 2 are in keypoint.c.) */
#include <stdlib.h>
#include <string.h>
#include "core/atomic.h"
#include "task/engine.h"
#include "topo/topo.h"

struct loom_task_engine loom__task_engine;
LOOM_TLS_FAST struct loom_task_worker *loom__task_self;
struct loom_task_worker *(*loom__task_adopt)(void);

/* Depth of the lowest common ancestor of queues a and b. */
static int lca_depth(const struct loom_task_queue *q, int a, int b)
{
    while (q[a].depth > q[b].depth)
        a = q[a].parent;
    while (q[b].depth > q[a].depth)
        b = q[b].parent;
    while (a != b) {
        a = q[a].parent;
        b = q[b].parent;
    }
    return q[a].depth;
}

/* For home h: every queue outside h's chain, nearest first (deepest common ancestor), then
 * deeper queues first (where tasks usually sit: the cores). */
static struct loom_task_queue *sort_q;
static int sort_home;
static int nearest_first(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    int la = lca_depth(sort_q, sort_home, a), lb = lca_depth(sort_q, sort_home, b);
    if (la != lb)
        return lb - la;
    if (sort_q[a].depth != sort_q[b].depth)
        return sort_q[b].depth - sort_q[a].depth;
    return a - b;
}

int loom__task_engine_init(const struct loom_topo *t, int max_workers)
{
    struct loom_task_engine *e = &loom__task_engine;
    const struct loom_topo_node *nodes;
    memset(e, 0, sizeof *e);
    e->topo = t;
    e->nqueues = loom__topo_tree(t, &nodes);
    if (posix_memalign((void **)&e->q, 64, sizeof *e->q * (size_t)e->nqueues))
        return -1;
    memset(e->q, 0, sizeof *e->q * (size_t)e->nqueues);
    for (int i = 0; i < e->nqueues; i++) {
        e->q[i].parent = nodes[i].parent;
        e->q[i].depth = nodes[i].depth;
        e->q[i].numa = nodes[i].numa;
        atomic_init(&e->q[i].keeper, LOOM_KEEPER_NONE);
    }
    e->steal_order = calloc((size_t)e->nqueues, sizeof *e->steal_order);
    e->nsteal = calloc((size_t)e->nqueues, sizeof *e->nsteal);
    e->workers = calloc((size_t)max_workers, sizeof *e->workers);
    e->id_numa = malloc(sizeof *e->id_numa * (size_t)max_workers);
    e->id_home = malloc(sizeof *e->id_home * (size_t)max_workers);
    e->id_tending = calloc((size_t)max_workers, sizeof *e->id_tending);
    if (!e->steal_order || !e->nsteal || !e->workers || !e->id_numa || !e->id_home ||
        !e->id_tending)
        goto out_nomem;
    for (int i = 0; i < max_workers; i++)
        e->id_numa[i] = e->id_home[i] = -1;
    e->max_workers = max_workers;
    sort_q = e->q;
    for (int h = 0; h < e->nqueues; h++) {
        int *order = malloc(sizeof *order * (size_t)e->nqueues), n = 0;
        if (!order)
            goto out_nomem;
        for (int i = 0; i < e->nqueues; i++) {
            int in_chain = 0;
            for (int a = h; a >= 0; a = e->q[a].parent)
                in_chain |= a == i;
            if (!in_chain)
                order[n++] = i;
        }
        sort_home = h;
        qsort(order, (size_t)n, sizeof *order, nearest_first);
        e->steal_order[h] = order;
        e->nsteal[h] = n;
    }
    return 0;

out_nomem:
    loom__task_engine_fini();
    return -1;
}

void loom__task_engine_fini(void)
{
    struct loom_task_engine *e = &loom__task_engine;
    for (int h = 0; e->steal_order && h < e->nqueues; h++)
        free(e->steal_order[h]);
    free(e->steal_order);
    free(e->nsteal);
    free(e->workers);
    free(e->id_numa);
    free(e->id_home);
    free(e->id_tending);
    free(e->q);
    memset(e, 0, sizeof *e);
}

int loom__task_queue_of(const struct loom_cpuset *set)
{
    if (set == NULL || loom__task_engine.topo == NULL)
        return 0;
    return loom__topo_tree_find(loom__task_engine.topo, set);
}

int loom__task_home_of(int id)
{
    struct loom_task_engine *e = &loom__task_engine;
    return id >= 0 && id < e->max_workers ? e->id_home[id] : -1;
}

int loom__task_nqueues(void)
{
    return loom__task_engine.nqueues;
}

void loom__task_worker_init(struct loom_task_worker *w, int home, int id, int steal,
                            struct loom_event *event)
{
    struct loom_task_engine *e = &loom__task_engine;
    memset(w, 0, sizeof *w);
    w->id = id;
    w->home = home;
    w->numa = e->q ? e->q[home].numa : -1;
    w->steal = steal;
    w->event = event;
    w->running_from = -1;
}

void loom__task_worker_register(struct loom_task_worker *w, const struct loom_cpuset *set, int id,
                                int steal, struct loom_event *event)
{
    struct loom_task_engine *e = &loom__task_engine;
    loom__task_worker_init(w, loom__task_queue_of(set), id, steal, event);
    if (id >= 0 && id < e->max_workers && e->id_home[id] < 0) {
        /* Written before the worker publishes itself below (release), read by the statistics
         * of other workers after an acquire load of nworkers; an id's first worker is its
         * rank thread, registered before any task exists for it. */
        e->id_home[id] = w->home;
        e->id_numa[id] = w->numa;
        /* An id's first worker is its rank thread: the keeper of its home queue, unless
         * another rank is homed there too (oversubscription, shared bindings). */
        w->first = 1;
        if (e->q) {
            int none = LOOM_KEEPER_NONE;
            if (!atomic_compare_exchange_strong_explicit(&e->q[w->home].keeper, &none, id,
                                                         memory_order_acq_rel,
                                                         memory_order_acquire))
                loom__store_release(&e->q[w->home].keeper, LOOM_KEEPER_SHARED);
        }
    }
    int slot = loom__fetch_add_acq_rel(&e->nworkers, 1);
    if (slot < e->max_workers)
        loom__store_release(&e->workers[slot], w);
    loom__task_self = w;
}

/* 1 if queue q lies on the chain from home up to the root. */
static int on_chain(const struct loom_task_queue *q, int home, int target)
{
    for (int a = home; a >= 0; a = q[a].parent)
        if (a == target)
            return 1;
    return 0;
}

/* Wake the sleeping workers that may run a task of queue qi: those whose chain holds it, and
 * for a stealable task every stealing worker. The caller has made the task visible and then
 * kept that store before its read of the sleepers in program order; a sleeper in
 * loom__wait_until re-checks loom__task_work_visible() after its grace period
 * (core/event.h). */
static void wake(int qi, int strict)
{
    struct loom_task_engine *e = &loom__task_engine;
    if (loom__load_relaxed(&loom__event_sleepers_total) == 0)
        return;
    int n = loom__load_acquire(&e->nworkers);
    for (int i = 0; i < n && i < e->max_workers; i++) {
        struct loom_task_worker *w = loom__load_acquire(&e->workers[i]);
        if (w == NULL)
            continue;
        if ((!strict && w->steal) || on_chain(e->q, w->home, qi))
            loom__event_notify(w->event);
    }
}

void loom__task_tending(int on)
{
    struct loom_task_worker *w = loom__task_worker_me();
    struct loom_task_engine *e = &loom__task_engine;
    if (w == NULL)
        return;
    if (on) {
        w->waiting++;
        return;
    }
    if (--w->waiting > 0 || !w->kept)
        return;
    w->kept = 0;
    loom__store_relaxed(&e->id_tending[w->id].on, 0);
    /* Stealers may have gone to sleep leaving our queue to us: now that we leave, wake them
     * if tasks remain. Our store comes before the reads below; a sleeper looks for work
     * again after the grace period that follows its announcement, so one of us sees the
     * other (core/event.h). */
    loom__notify_order();
    if (loom__load_relaxed(&e->q[w->home].open))
        wake(w->home, 0);
}

int loom__task_submit(struct loom_task *t)
{
    struct loom_task_engine *e = &loom__task_engine;
    int idle = LOOM_TASK_IDLE;
    if (!atomic_compare_exchange_strong_explicit(&t->state, &idle, LOOM_TASK_QUEUED,
                                                 memory_order_acq_rel, memory_order_relaxed))
        return -1;
    atomic_store_explicit(&t->cancel, 0, memory_order_relaxed);
    loom__task_publish(&e->q[t->queue], t);
    return 0;
}

void loom__task_publish(struct loom_task_queue *q, struct loom_task *t)
{
    /* Once enqueued, the task may be taken, run and freed by another worker at once: read
     * what the wake-up needs first, and never touch t afterwards. */
    int qi = (int)(q - loom__task_engine.q), strict = t->strict;
    loom__task_enqueue(q, t);
    loom__notify_order(); /* see wake() */
    wake(qi, strict);
}
