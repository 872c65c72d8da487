/* core/thread_worker.c — the threads a rank creates are workers of that rank while they are
 * inside MPI.
 *
 * The rule: no thread may wait on work that only another thread of its rank, itself blocked,
 * could do. A rank's pending work sits on its home queue (the steps of its nonblocking
 * collectives, the chunks of its large messages) and is run at keypoints, i.e. by whichever
 * worker of the rank is inside a wait or a test. If only the rank's own thread were a worker,
 * a rank whose main thread sits in pthread_join while its other threads wait in MPI would
 * never run that queue: an MPI_Test loop on an MPI_Iallreduce in one thread, the matching
 * MPI_Barrier in the peer's, and the job hangs for good (under the inline and collaborative
 * policies; progress threads hid it under `thread`). So every thread that calls MPI for a
 * rank is a worker of that rank: on its first keypoint the task engine asks adopt() below,
 * which gives the thread a worker of its own with its rank's id, home queue and stealing rule,
 * sleeping on its rank's event (which every submission for the rank's queue notifies). Such a
 * worker never keeps the queue for itself (only the rank thread does, task.h).
 *
 * Memory: a worker per thread, taken from the rank's `helpers` list and given back there when
 * the thread ends (a thread-specific key's destructor), so a program that starts threads
 * again and again reuses them; all are freed at job end (loom__thread_workers_free). Their
 * statistics stay on them and are added to their rank's at job end. */
#include <pthread.h>
#include <stdlib.h>
#include "core/atomic.h"
#include "core/rank.h"

/* Holds the calling thread's adopted worker, so that its end gives it back. Made by
 * loom__thread_workers_init before any rank runs. */
static pthread_key_t key;
static int key_made;

static void give_back(void *p)
{
    struct loom_thread_worker *h = p;
    struct loom_rank *r = h->rank;
    loom__task_self = NULL;
    pthread_mutex_lock(&r->helpers_lock);
    h->in_use = 0;
    pthread_mutex_unlock(&r->helpers_lock);
}

static struct loom_task_worker *adopt(void)
{
    struct loom_rank *r = loom__self;
    /* A thread that acts for no rank, or whose rank has not made its own worker yet (before
     * MPI_Init, which registers it), runs nothing. */
    if (r == NULL || !key_made || loom__load_acquire(&r->state) < LOOM_RANK_INITIALIZED)
        return NULL;
    /* The rank's own thread, when another thread of the rank brought the rank's layers up
     * (MPI_Session_init, api/init.c): its worker is the rank's, registered by that thread. */
    if (loom__on_rank_thread) {
        loom__task_self = &r->worker;
        return &r->worker;
    }
    pthread_mutex_lock(&r->helpers_lock);
    struct loom_thread_worker *h = r->helpers;
    while (h && h->in_use)
        h = h->next;
    if (h == NULL && (h = calloc(1, sizeof *h)) != NULL) { /* freed at job end */
        h->rank = r;
        h->next = r->helpers;
        r->helpers = h;
    }
    if (h) {
        struct loom_task_stats kept = h->worker.stats; /* a reused worker keeps its counts */
        loom__task_worker_init(&h->worker, r->home_queue, r->world_rank, r->worker.steal,
                               &r->event);
        h->worker.stats = kept;
        h->in_use = 1;
    }
    pthread_mutex_unlock(&r->helpers_lock);
    if (h == NULL || pthread_setspecific(key, h) != 0) {
        if (h) {
            pthread_mutex_lock(&r->helpers_lock);
            h->in_use = 0;
            pthread_mutex_unlock(&r->helpers_lock);
        }
        return NULL; /* out of memory: this thread runs no task, as before */
    }
    loom__task_self = &h->worker;
    return &h->worker;
}

int loom__thread_workers_init(void)
{
    if (!key_made) {
        if (pthread_key_create(&key, give_back) != 0)
            return -1;
        key_made = 1;
    }
    loom__task_adopt = adopt;
    return 0;
}

void loom__thread_workers_stats(const struct loom_rank *r, struct loom_task_stats *sum)
{
    for (const struct loom_thread_worker *h = r->helpers; h; h = h->next) {
        sum->ran_own += h->worker.stats.ran_own;
        sum->ran_same_numa += h->worker.stats.ran_same_numa;
        sum->ran_other_numa += h->worker.stats.ran_other_numa;
    }
}

void loom__thread_workers_free(struct loom_rank *r)
{
    while (r->helpers) {
        struct loom_thread_worker *h = r->helpers;
        r->helpers = h->next;
        free(h);
    }
}
