/* core/progress.c — progress policies and progress threads.
 *
 * inline: no task runs at keypoints; every rank moves its own messages in its own calls.
 * collaborative: a rank inside any wait or test runs tasks at its keypoint (its own queue,
 *   then up to the machine), then steals stealable ones nearest first.
 * thread: collaborative, plus LOOM_PROGRESS_THREADS threads per rank, placed by
 *   LOOM_PROGRESS_PLACEMENT, that do nothing but run tasks and sleep when there are none.
 *
 * A progress thread acts for its rank (loom__self is the rank), has a worker of its own homed
 * where it is bound, and lives inside loom__wait_until with the keypoint as progress hook:
 * it runs tasks while there are some, spins, yields, then sleeps until a submission wakes it.
 * Its struct is written by the rank thread that starts it before it runs, then read-only but
 * for `stop` (atomic) and the worker's statistics (the thread itself). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/atomic.h"
#include "core/config.h"
#include "core/error.h"
#include "core/progress.h"
#include "topo/topo.h"

struct loom_progress {
    struct loom_progress *next;     /* the rank's list; its own threads only touch it */
    pthread_t thread;
    struct loom_rank *rank;
    const struct loom_cpuset *set;  /* where it runs (the job's progress_sets entry) */
    struct loom_event event;        /* where it sleeps */
    struct loom_task_worker worker;
    _Atomic int stop;               /* set by the rank to end it */
};

/* Progress threads that were stopped: their worker stays in the engine's registry (it is
 * append-only) until the job ends, so their memory does too. Under retired_lock. */
static pthread_mutex_t retired_lock = PTHREAD_MUTEX_INITIALIZER;
static struct loom_progress *retired;

int loom__progress_job_init(char *err, size_t errlen)
{
    struct loom_job *j = &loom__job;
    j->progress_mode = (int)loom__config_int(LOOM_CFG_PROGRESS);
    int threads = (int)loom__config_int(LOOM_CFG_PROGRESS_THREADS);
    /* every rank may start progress threads with MPIX_Start_progress_thread: room for 4
     * workers per rank beyond thread mode's own */
    int max_workers = j->nlocal * (1 + threads + 4);
    if (loom__task_engine_init(j->topo, max_workers) != 0) {
        snprintf(err, errlen, "out of memory building the task queues");
        return -1;
    }
    /* Every wait runs its keypoint; under inline a rank's worker does not steal, so it only
     * ever runs its own work (and no large copy becomes a task there). */
    loom__wait_progress = loom__task_keypoint;
    loom__wait_has_work = loom__task_work_visible;
    loom__wait_tend = loom__task_tending;
    /* ...and every thread of a rank that waits in MPI is a worker of that rank */
    if (loom__thread_workers_init() != 0) {
        snprintf(err, errlen, "cannot make a thread-specific key");
        return -1;
    }
    /* indexed by world rank; only this node process's ranks have sets */
    j->progress_sets = calloc((size_t)j->nranks, sizeof *j->progress_sets);
    struct loom_cpuset **rank_sets = calloc((size_t)j->nlocal, sizeof *rank_sets);
    if (!j->progress_sets || !rank_sets) {
        free(rank_sets);
        snprintf(err, errlen, "out of memory placing progress threads");
        return -1;
    }
    for (int i = 0; i < j->nlocal; i++)
        rank_sets[i] = j->ranks[j->first + i].cpuset;
    char why[256];
    int rc = loom__topo_place_progress(j->topo, loom__config_str(LOOM_CFG_PROGRESS_PLACEMENT),
                                       j->nlocal, rank_sets, j->progress_sets + j->first, why,
                                       sizeof why);
    free(rank_sets);
    if (rc != 0) {
        snprintf(err, errlen, "LOOM_PROGRESS_PLACEMENT=%s: %s",
                 loom__config_str(LOOM_CFG_PROGRESS_PLACEMENT), why);
        return -1;
    }
    return 0;
}

void loom__progress_job_fini(void)
{
    struct loom_job *j = &loom__job;
    for (int i = 0; j->progress_sets && i < j->nranks; i++)
        loom__cpuset_free(j->progress_sets[i]);
    free(j->progress_sets);
    j->progress_sets = NULL;
    pthread_mutex_lock(&retired_lock);
    while (retired) {
        struct loom_progress *p = retired;
        retired = p->next;
        free(p);
    }
    pthread_mutex_unlock(&retired_lock);
    loom__wait_progress = NULL;
    loom__wait_has_work = NULL;
    loom__wait_tend = NULL;
    loom__task_adopt = NULL;
    loom__task_engine_fini();
}

static int stop_requested(void *arg)
{
    struct loom_progress *p = arg;
    return loom__load_acquire(&p->stop);
}

static void *progress_main(void *arg)
{
    struct loom_progress *p = arg;
    char err[256];
    loom__self = p->rank; /* it acts for its rank (pthread_create gave it that already) */
    if (loom__topo_bind_thread(loom__job.topo, p->set, err, sizeof err) != 0)
        loom__log("warning: cannot bind a progress thread: %s", err);
    loom__task_worker_register(&p->worker, p->set, p->rank->world_rank, 1, &p->event);
    p->worker.dedicated = 1; /* read by this thread only */
    loom__wait_until(&p->event, stop_requested, p);
    return NULL;
}

int loom__progress_thread_start(void)
{
    struct loom_rank *r = loom__self;
    struct loom_progress *p = calloc(1, sizeof *p);
    if (!p)
        return LOOM_ERR_NOMEM;
    p->rank = r;
    p->set = loom__job.progress_sets ? loom__job.progress_sets[r->world_rank] : r->cpuset;
    loom__event_init(&p->event);
    atomic_init(&p->stop, 0);
    if (pthread_create(&p->thread, NULL, progress_main, p) != 0) {
        free(p);
        return LOOM_ERR_OTHER;
    }
    p->next = r->progress;
    r->progress = p;
    return 0;
}

int loom__progress_thread_stop(void)
{
    struct loom_rank *r = loom__self;
    struct loom_progress *p = r->progress;
    if (p == NULL)
        return LOOM_ERR_OTHER;
    r->progress = p->next;
    loom__store_release(&p->stop, 1);
    loom__event_notify(&p->event);
    pthread_join(p->thread, NULL);
    pthread_mutex_lock(&retired_lock);
    p->next = retired;
    retired = p;
    pthread_mutex_unlock(&retired_lock);
    return 0;
}

int loom__progress_rank_init(void)
{
    struct loom_rank *r = loom__self;
    struct loom_job *j = &loom__job;
    r->home_queue = loom__task_queue_of(r->cpuset);
    loom__task_worker_register(&r->worker, r->cpuset, r->world_rank,
                               j->progress_mode != LOOM_PROGRESS_INLINE, &r->event);
    if (j->progress_mode == LOOM_PROGRESS_THREAD) {
        int n = (int)loom__config_int(LOOM_CFG_PROGRESS_THREADS);
        for (int i = 0; i < n; i++) {
            int rc = loom__progress_thread_start();
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

void loom__progress_rank_fini(void)
{
    while (loom__self->progress)
        loom__progress_thread_stop();
}
