/* p2p/queues.c — the list of live matching contexts, walked by MPI_T's queue-length
 * variables (core/mpit_vars.c) to sum a rank's posted receives and unexpected messages over
 * every communicator.
 *
 * Why a list rather than counters of their own: the queues already keep their lengths
 * (struct loom_match, nposted / nqueued), so showing them adds nothing to the message path;
 * the list costs a lock when a communicator's context is made or freed, and a walk when a
 * tool reads. Lock: `lock` protects the list and every context's prev/next; it is taken
 * under the MPI_T lock by readers and alone by communicator creation and freeing, and never
 * with a queue's lock. */
#include <pthread.h>

#include "core/atomic.h"
#include "core/rank.h"
#include "p2p/p2p.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct loom_p2p_ctx *head; /* under lock */

void loom__p2p_ctx_register(struct loom_p2p_ctx *ctx)
{
    pthread_mutex_lock(&lock);
    ctx->prev = NULL;
    ctx->next = head;
    if (head)
        head->prev = ctx;
    head = ctx;
    pthread_mutex_unlock(&lock);
}

void loom__p2p_ctx_unregister(struct loom_p2p_ctx *ctx)
{
    pthread_mutex_lock(&lock);
    if (ctx->prev)
        ctx->prev->next = ctx->next;
    else
        head = ctx->next;
    if (ctx->next)
        ctx->next->prev = ctx->prev;
    pthread_mutex_unlock(&lock);
}

void loom__p2p_queue_lengths(int rank, unsigned long long *posted,
                             unsigned long long *unexpected)
{
    unsigned long long p = 0, u = 0;
    pthread_mutex_lock(&lock);
    for (struct loom_p2p_ctx *c = head; c; c = c->next) {
        for (int i = 0; i < c->size; i++) {
            const struct loom_match *m = &c->match[i];
            if (m->rank->world_rank != rank)
                continue;
            /* relaxed: a snapshot; the lengths are written under the queue's lock (p2p.h) */
            p += (unsigned)loom__load_relaxed(&m->nposted);
            u += (unsigned)loom__load_relaxed(&m->nqueued);
        }
    }
    pthread_mutex_unlock(&lock);
    *posted = p;
    *unexpected = u;
}
