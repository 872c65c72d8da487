/* coll/run.c — running schedules: in the calling thread (blocking collectives, the call's
 * part of a split tree) or as tasks of the engine (nonblocking collectives).
 *
 * Who advances a started schedule: whoever holds its `busy` try-lock, which is
 *  - its task (repeat, returns AGAIN until its part is over), queued by policy:
 *      thread:        the queue of the rank's progress-thread set, strict, so it runs on the
 *                     progress thread placed by LOOM_PROGRESS_PLACEMENT;
 *      collaborative: the rank's home queue, stealable: any waiting rank may advance it;
 *      inline:        the rank's home queue, strict: the rank itself, in its own MPI calls;
 *  - its leaf task (split tree, one-to-all: the last S levels), on the rank's home queue,
 *    strict, submitted when the task's part is over: the rank runs it at its keypoints;
 *  - the owner inside MPI_Wait (the request's drive hook): a wait advances its own collective
 *    rather than count on others.
 * Whoever runs it acts for the owner rank (loom__self), so the requests it starts are owned
 * and notified as the owner's.
 *
 * The end: the thread that completes the last round marks the schedule done, cancels the
 * tasks it is not running in, drops `busy`, and completes the user's request last (the owner
 * may free everything as soon as it sees it complete). The schedule's memory goes to the
 * quarantine when the request is retired or freed, and is released once both tasks are idle
 * (a repeat task's engine touches its struct right after its function returns). */
#include <sched.h>
#include <stdlib.h>
#include "coll/op.h"
#include "coll/sched.h"
#include "coll/shm.h"
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/error.h"
#include "core/privatize.h"
#include "core/quarantine.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "p2p/p2p.h"

/* Task runs without progress after which a schedule's task yields the core: a repeat task
 * that waits for a peer keeps its worker busy, and on an oversubscribed node the peer may
 * need that very core. */
#define IDLE_RUNS_BEFORE_YIELD 32

static int try_take(struct loom_sched *s)
{
    int expected = 0;
    if (loom__load_relaxed(&s->busy))
        return 0;
    /* acquire: sees everything the previous holder did before its release in drop() */
    return loom__cas_acq_rel(&s->busy, &expected, 1);
}

/* Drop busy; wake a waiter that saw it held. seq_cst store then load, against the waiter's
 * seq_cst increment of `waiting` then its check of `busy` (inside loom__wait_until, after it
 * announced itself asleep): either the waiter sees busy free, or we see it waiting and our
 * notify finds it asleep. */
static void drop(struct loom_sched *s)
{
    loom__store_seq_cst(&s->busy, 0);
    if (loom__load_seq_cst(&s->waiting))
        loom__event_notify(&s->owner->event);
}

/* Once the schedule is built (its ops array no longer moves) and before anyone may look at
 * it: every send and receive gets its request, owned by the building rank. Waiters read the
 * requests' `flags` while a round runs, so they are never re-initialized afterwards. */
static void init_requests(struct loom_sched *s)
{
    for (int i = 0; i < s->nops; i++) {
        struct loom_sop *o = &s->ops[i];
        if (o->kind == LOOM_SOP_SEND)
            loom__req_init_stack(&o->req, LOOM_REQ_SEND);
        else if (o->kind == LOOM_SOP_RECV)
            loom__req_init_stack(&o->req, LOOM_REQ_RECV);
    }
}

static void start_p2p(struct loom_sched *s, struct loom_sop *o)
{
    struct loom_request *r = &o->req;
    r->comm = s->comm;
    r->ctx = s->ctx;
    r->me = s->me;
    r->buf = o->buf;
    r->count = o->count;
    r->type = o->type;
    r->peer = o->peer;
    r->tag = s->tag;
    r->mode = LOOM_SEND_STANDARD;
    int rc = o->kind == LOOM_SOP_SEND ? loom__p2p_start_send(r) : loom__p2p_start_recv(r);
    if (rc != 0) {
        /* nothing was queued: record the failure and count the operation as over */
        if (!s->err)
            s->err = loom__error_class(rc);
        atomic_store_explicit(&r->flags, LOOM_REQ_COMPLETE, memory_order_release);
    }
}

/* Run round r's local operations, then start its sends and receives. */
static void start_round(struct loom_sched *s, int r)
{
    int from = r ? s->rend[r - 1] : 0, to = s->rend[r];
    for (int i = from; i < to; i++) {
        struct loom_sop *o = &s->ops[i];
        if (o->kind == LOOM_SOP_COPY) {
            size_t a = loom__dt_stream_size(o->stype, o->scount);
            size_t b = loom__dt_stream_size(o->type, o->count);
            loom__dt_copy(o->buf, o->type, o->count, o->src, o->stype, o->scount, 0,
                          a < b ? a : b);
        } else if (o->kind == LOOM_SOP_REDUCE) {
            /* A user-defined operation reads the globals of the rank whose schedule this is,
             * whichever thread runs the step (another rank's, a progress thread). */
            size_t saved = loom__privatize_enter(s->owner);
            loom__op_apply(s->op, o->src, o->buf, o->count, o->type);
            loom__privatize_leave(saved);
        } else if (o->kind == LOOM_SOP_CALL) {
            o->fn(o->buf);
        }
    }
    for (int i = from; i < to; i++)
        if (s->ops[i].kind == LOOM_SOP_SEND || s->ops[i].kind == LOOM_SOP_RECV)
            start_p2p(s, &s->ops[i]);
}

static int round_complete(const struct loom_sched *s, int r)
{
    int from = r ? s->rend[r - 1] : 0, to = s->rend[r];
    for (int i = from; i < to; i++) {
        const struct loom_sop *o = &s->ops[i];
        if ((o->kind == LOOM_SOP_SEND || o->kind == LOOM_SOP_RECV) &&
            !loom__req_is_complete((struct loom_request *)&o->req))
            return 0;
    }
    return 1;
}

/* Truncated receives of round r become the schedule's error. */
static void round_errors(struct loom_sched *s, int r)
{
    for (int i = r ? s->rend[r - 1] : 0; i < s->rend[r]; i++)
        if (s->ops[i].kind == LOOM_SOP_RECV && s->ops[i].req.error && !s->err)
            s->err = s->ops[i].req.error;
}

/* Advance rounds as far as they go without waiting, up to round `limit` (not started).
 * Caller holds busy (or owns a private schedule). Returns 1 if something moved. */
static int advance(struct loom_sched *s, int limit)
{
    int moved = 0;
    for (;;) {
        int cur = loom__load_relaxed(&s->cur);
        if (cur >= s->nrounds || cur >= limit)
            return moved;
        if (!loom__load_relaxed(&s->started)) {
            start_round(s, cur);
            loom__store_relaxed(&s->started, 1);
            moved = 1;
        }
        if (!round_complete(s, cur))
            return moved;
        round_errors(s, cur);
        loom__store_relaxed(&s->started, 0);
        loom__store_relaxed(&s->cur, cur + 1);
        moved = 1;
    }
}

static int finished(const struct loom_sched *s)
{
    return loom__load_relaxed(&s->cur) >= s->nrounds;
}

/* A wait condition: the schedule ended, or the thread waiting could advance it (nobody
 * holds it and its current round is not started or complete). Reads hints only: the
 * caller retries under the lock. */
static int changed(void *arg)
{
    struct loom_sched *s = arg;
    if (loom__load_acquire(&s->done))
        return 1;
    if (loom__load_relaxed(&s->busy))
        return 0;
    int cur = loom__load_relaxed(&s->cur);
    if (cur >= s->nrounds || !loom__load_relaxed(&s->started))
        return 1;
    return round_complete(s, cur);
}

void loom__sched_run_blocking(struct loom_sched *s, int limit)
{
    for (;;) {
        advance(s, limit);
        int cur = loom__load_relaxed(&s->cur);
        if (cur >= limit || cur >= s->nrounds)
            return;
        loom__wait_until(&s->owner->event, changed, s);
    }
}

/* The schedule has ended: nothing reads its temporaries any more. Give them back to the
 * owner's scratch cache (shm_scratch.c) now rather than when the schedule's memory leaves the
 * quarantine, which may be much later. Caller holds busy (or owns a private schedule). */
static void release_scratch(struct loom_sched *s)
{
    for (int i = 0; i < s->ntmps; i++)
        loom__coll_scratch_put(s->owner, s->tmps[i]);
    s->ntmps = 0;
}

int loom__sched_run(struct loom_sched *s, int *mpi_err)
{
    if (s->nomem) {
        loom__sched_free(s);
        return LOOM_ERR_NOMEM;
    }
    init_requests(s);
    loom__sched_run_blocking(s, s->nrounds);
    *mpi_err = s->err;
    release_scratch(s);
    loom__sched_free(s);
    return 0;
}

/* ---- nonblocking ---------------------------------------------------------------------- */

/* Started and not yet ended nonblocking schedules of each rank (world rank index): a request
 * freed by MPI_Request_free leaves its schedule running with nobody to wait for it, and
 * MPI_Finalize must not stop the progress threads under it (loom__coll_rank_fini). The array
 * is made at job start and freed at job end (no rank runs then). Counts: fetch_add at start
 * (the owner), fetch_sub at the end (any thread), then a notify of the owner's event; acq_rel
 * pairs the end with the drain's load. Without a job (unit tests) nothing is counted. */
static _Atomic int *live;
static int nlive;

int loom__coll_job_init(int nranks)
{
    live = calloc((size_t)nranks, sizeof *live);
    nlive = live ? nranks : 0;
    if (!live || loom__coll_scratch_job_init(nranks) != 0) {
        loom__coll_job_fini();
        return -1;
    }
    return 0;
}

void loom__coll_job_fini(void)
{
    loom__coll_scratch_job_fini();
    free(live);
    live = NULL;
    nlive = 0;
}

static _Atomic int *live_of(int world_rank)
{
    return world_rank >= 0 && world_rank < nlive ? &live[world_rank] : NULL;
}

static int none_live(void *arg)
{
    return loom__load_acquire((_Atomic int *)arg) == 0;
}

void loom__coll_rank_fini(void)
{
    struct loom_rank *me = loom__self;
    _Atomic int *mine = me ? live_of(me->world_rank) : NULL;
    if (mine)
        loom__wait_until(&me->event, none_live, mine);
    /* every schedule of ours has ended and given its scratch back: empty the cache */
    loom__coll_scratch_rank_fini();
}

static void release_sched(void *p)
{
    struct loom_sched *s = p;
    /* acquire: pairs with the engine's release store of IDLE after the task's last run */
    while (loom__load_acquire(&s->task.state) != LOOM_TASK_IDLE ||
           loom__load_acquire(&s->leaf.state) != LOOM_TASK_IDLE)
        sched_yield();
    loom__sched_free(s);
}

/* The user's request is gone (retired after completion, or freed and then completed). */
static void request_gone(struct loom_request *r)
{
    struct loom_sched *s = r->on_complete_arg;
    /* The schedule will never touch its contexts again (completing r was its last touch; a
     * persistent request is freed inactive), so the reference it kept on them goes now. The
     * last one frees them; whoever runs this may (the owner's wait or free, or the thread
     * that completed a request the program had freed), as any member's MPI_Comm_free may. */
    loom__comm_shared_release(s->shared);
    loom__quarantine_put(s, release_sched);
}

/* The last round is complete; caller holds busy and runs inside `running` (or NULL). */
static void finish(struct loom_sched *s, struct loom_task *running)
{
    struct loom_request *r = s->req;
    /* before the live count drops: the owner's finalize drains its cache. A persistent
     * schedule keeps its scratch for the next start (freed with the schedule). */
    if (!s->persistent)
        release_scratch(s);
    loom__store_release(&s->done, 1);
    if (running != &s->task)
        loom__task_cancel(&s->task); /* returns at once if idle; a running one sees busy */
    if (running != &s->leaf)
        loom__task_cancel(&s->leaf);
    r->error = s->err;
    loom__p2p_status_empty(&r->status, MPI_ANY_SOURCE);
    struct loom_rank *owner = s->owner;
    drop(s);
    /* A persistent schedule may be restarted as soon as r completes: the task running this
     * gives itself back now (release: pairs with the acquire in loom__sched_restart, and
     * with the submit's CAS) and tells the engine GONE, so that MPI_Start need not wait for
     * the engine to write IDLE after the function returns (task_body). */
    if (s->persistent && running)
        loom__store_release(&running->state, LOOM_TASK_IDLE);
    loom__req_complete(r); /* the last touch: the owner may free or restart s from here on */
    _Atomic int *count = live_of(owner->world_rank);
    if (count) {
        loom__fetch_sub_acq_rel(count, 1);
        loom__event_notify(&owner->event); /* a freed request notifies nobody */
    }
}

/* The body of both tasks: advance up to `limit`; what to do when that is reached. */
static int task_body(struct loom_task *t, int limit)
{
    struct loom_sched *s = t->arg;
    if (loom__load_acquire(&s->done))
        return LOOM_TASK_DONE;
    if (!try_take(s))
        return LOOM_TASK_AGAIN;
    struct loom_rank *saved = loom__self;
    loom__self = s->owner; /* act for the owner: its requests, its event */
    int moved = advance(s, limit);
    if (finished(s)) {
        int persistent = s->persistent; /* s may be restarted once finish() returns */
        finish(s, t);
        loom__self = saved;
        return persistent ? LOOM_TASK_GONE : LOOM_TASK_DONE; /* GONE: finish() set it IDLE */
    }
    if (loom__load_relaxed(&s->cur) >= limit) {
        /* the task's part is over: the rank does the rest (split tree, one-to-all); queued
         * while we hold busy, so that a finish elsewhere finds it and cancels it */
        if (t == &s->task)
            loom__task_submit(&s->leaf);
        drop(s);
        loom__self = saved;
        return LOOM_TASK_DONE;
    }
    s->idle_runs = moved ? 0 : s->idle_runs + 1;
    int yield = s->idle_runs >= IDLE_RUNS_BEFORE_YIELD;
    if (yield)
        s->idle_runs = 0;
    drop(s);
    loom__self = saved;
    if (yield)
        sched_yield();
    return LOOM_TASK_AGAIN;
}

static int leaf_fn(struct loom_task *t)
{
    struct loom_sched *s = t->arg;
    return task_body(t, s->nrounds);
}

static int task_fn(struct loom_task *t)
{
    struct loom_sched *s = t->arg;
    return task_body(t, s->task_end);
}

/* The request's drive hook: MPI_Wait (block) advances its collective itself. */
static int drive(struct loom_request *r, int block)
{
    struct loom_sched *s = r->on_complete_arg;
    for (;;) {
        if (loom__req_is_complete(r))
            return 1;
        if (try_take(s)) {
            if (loom__load_acquire(&s->done)) {
                drop(s);
            } else {
                advance(s, s->nrounds);
                if (finished(s))
                    finish(s, NULL);
                else
                    drop(s);
            }
        }
        if (loom__req_is_complete(r))
            return 1;
        if (!block)
            return 0;
        loom__fetch_add_seq_cst(&s->waiting, 1);
        loom__wait_until(&s->owner->event, changed, s);
        loom__fetch_sub_seq_cst(&s->waiting, 1);
    }
}

/* The queue and strictness of a schedule's task under the job's policy. */
static void placement(struct loom_task *t, struct loom_rank *me)
{
    struct loom_job *j = &loom__job;
    t->queue = me->home_queue;
    t->strict = 0;
    if (j->progress_mode == LOOM_PROGRESS_INLINE) {
        t->strict = 1;
    } else if (j->progress_mode == LOOM_PROGRESS_THREAD && me->progress && j->progress_sets) {
        t->queue = loom__task_queue_of(j->progress_sets[me->world_rank]);
        t->strict = 1;
    }
}

/* Wire a built schedule to its request r and its tasks (once, before the first run). */
static void attach(struct loom_sched *s, struct loom_request *r)
{
    /* MPI_Comm_free only marks the communicator for deallocation: a pending collective
     * completes normally and a persistent one may still be started, on contexts that the
     * other members' frees must not take away. The request keeps the shared half alive
     * until it is gone (request_gone). */
    loom__comm_shared_retain(s->shared);
    r->comm = s->comm;
    r->on_complete = request_gone;
    r->on_complete_arg = s;
    r->drive = drive;
    s->req = r;
    init_requests(s);
    struct loom_rank *me = loom__self;
    s->task.fn = task_fn;
    s->task.arg = s;
    s->task.repeat = 1;
    s->task.owner = me->world_rank;
    placement(&s->task, me);
    s->leaf.fn = leaf_fn;
    s->leaf.arg = s;
    s->leaf.repeat = 1;
    s->leaf.owner = me->world_rank;
    s->leaf.queue = me->home_queue;
    s->leaf.strict = 1;
}

/* Run the call's part of an attached schedule and hand the rest to its tasks. */
static void launch(struct loom_sched *s)
{
    struct loom_rank *me = loom__self;
    _Atomic int *count = live_of(s->owner->world_rank);
    if (count)
        loom__fetch_add_acq_rel(count, 1);
    /* split tree, all-to-one: the leaf levels run here, before the schedule is handed over */
    if (s->call_end > 0)
        loom__sched_run_blocking(s, s->call_end);
    /* Start what can start now, unless the rounds belong to the progress threads. */
    if (loom__job.progress_mode != LOOM_PROGRESS_THREAD || !me->progress)
        advance(s, s->task_end);
    if (finished(s)) {
        loom__store_release(&s->busy, 1);
        finish(s, NULL);
    } else if (loom__load_relaxed(&s->cur) >= s->task_end) {
        loom__task_submit(&s->leaf);
    } else {
        loom__task_submit(&s->task);
    }
}

int loom__sched_start(struct loom_sched *s, MPI_Request *out)
{
    if (s->nomem) {
        loom__sched_free(s);
        return LOOM_ERR_NOMEM;
    }
    loom__coll_note_alloc();
    struct loom_request *r = loom__req_new(LOOM_REQ_COLL);
    if (!r) {
        loom__sched_free(s);
        return LOOM_ERR_NOMEM;
    }
    attach(s, r);
    *out = r; /* before launch: the schedule may complete r at once, never free it */
    launch(s);
    return 0;
}

/* ---- persistent ----------------------------------------------------------------------- */

int loom__sched_persist(struct loom_sched *s, MPI_Request *out)
{
    if (s->nomem) {
        loom__sched_free(s);
        return LOOM_ERR_NOMEM;
    }
    loom__coll_note_alloc();
    struct loom_request *r = loom__req_new(LOOM_REQ_COLL);
    if (!r) {
        loom__sched_free(s);
        return LOOM_ERR_NOMEM;
    }
    r->persistent = 1; /* inactive until MPI_Start; freed (with s) by MPI_Request_free */
    s->persistent = 1;
    attach(s, r);
    *out = r;
    return 0;
}

void loom__sched_restart(struct loom_request *r)
{
    struct loom_sched *s = r->on_complete_arg;
    /* The last run ended (r completed and was retired). The task that finished it set
     * itself IDLE before completing r (finish), and the other one was cancelled there
     * (unlinked if queued, waited for if running): both are IDLE, which this acquire
     * checks; the loop only guards the rule. */
    while (loom__load_acquire(&s->task.state) != LOOM_TASK_IDLE ||
           loom__load_acquire(&s->leaf.state) != LOOM_TASK_IDLE)
        sched_yield();
    /* Nobody else touches s now (busy was dropped before r completed; the acquire on r's
     * COMPLETE in the retiring wait or test saw every write of the last holder): plain and
     * relaxed stores, published to the tasks by their submission. */
    loom__store_relaxed(&s->cur, 0);
    loom__store_relaxed(&s->started, 0);
    loom__store_relaxed(&s->done, 0);
    loom__store_relaxed(&s->busy, 0);
    s->err = MPI_SUCCESS;
    s->idle_runs = 0;
    init_requests(s); /* the sends and receives are complete: nobody reads their flags */
    atomic_store_explicit(&r->flags, 0, memory_order_relaxed);
    r->error = MPI_SUCCESS;
    r->cancelled = 0;
    r->active = 1;
    launch(s);
}
