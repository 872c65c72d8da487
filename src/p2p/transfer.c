/* p2p/transfer.c — the one place where a matched message's data moves.
 *
 * Both buffers are in this process, so the data goes in one pass from the sender's layout to
 * the receiver's (loom__dt_copy handles any pair of datatypes). A message of more than one
 * LOOM_COPY_CHUNK moves as chunk tasks of the task engine, unless LOOM_PROGRESS=inline: the
 * tasks are queued on the receiver's home queue and are stealable, so the receiver waiting,
 * the sender waiting, another rank waiting nearby or a progress thread may each copy a part;
 * whoever lands the last chunk completes both requests. A rendezvous-sized message matched
 * inside a nonblocking call is a (one-chunk) task too, so its initiator can go on computing.
 * Otherwise the thread that found the match copies it, with no lock held. */
#include <stdlib.h>
#include "core/atomic.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "p2p/p2p.h"
#include "core/stats.h"
#include "task/task.h"

size_t loom__p2p_copy_chunk = 65536;
int loom__p2p_copy_tasks = 1;
int loom__p2p_copy_share = 1;

/* A large message on its way: its chunk tasks are embedded (no allocation per chunk). The
 * requests' fields are read-only while it exists; `left` counts chunks not yet copied. */
struct copy {
    struct loom_request *s, *r;
    size_t n, chunk;
    _Atomic int left;
    int nchunks;
    struct loom_task tasks[];
};

/* Statuses, then completion of both requests. Neither is touched afterwards. */
static void finish(struct loom_request *s, struct loom_request *r, size_t n)
{
    size_t bytes = loom__dt_stream_size(s->type, s->count);
    r->error = bytes > n ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    loom__p2p_status_set(&r->status, s->me, s->tag, n);
    loom__p2p_status_set(&s->status, s->peer, s->tag, n);
    LOOM_STATS_RECEIVED(r->owner, n); /* LOOM_STATS: before completion frees r */
    /* Receive first: its data is in place before the sender may return. */
    loom__req_complete(r);
    loom__req_complete(s);
}

static int copy_chunk(struct loom_task *t)
{
    struct copy *c = t->arg;
    size_t i = (size_t)(t - c->tasks);
    size_t off = i * c->chunk;
    size_t len = c->n - off < c->chunk ? c->n - off : c->chunk;
    loom__dt_copy(c->r->buf, c->r->type, c->r->count, c->s->buf, c->s->type, c->s->count, off,
                  len);
    /* acq_rel: the last chunk's thread sees every other chunk's copy before completing */
    if (loom__fetch_sub_acq_rel(&c->left, 1) == 1) {
        finish(c->s, c->r, c->n);
        free(c);
    }
    return LOOM_TASK_DONE;
}

void loom__p2p_transfer(struct loom_request *s, struct loom_request *r)
{
    loom__p2p_transfer_to(s, r, r->buf, r->count, r->type);
}

void loom__p2p_transfer_to(struct loom_request *s, struct loom_request *r, void *buf,
                           size_t count, struct loom_datatype *type)
{
    size_t bytes = loom__dt_stream_size(s->type, s->count);
    size_t cap = loom__dt_stream_size(type, count);
    size_t n = bytes < cap ? bytes : cap;
    /* Tasks when the message spans several chunks, or when it is rendezvous-sized and the
     * call that matched it does not block (a heap request: MPI_Isend/MPI_Irecv): its caller
     * is about to compute, so a rank that waits (or a progress thread) should copy it. A
     * blocking caller is going to wait anyway: it copies a one-chunk message itself. */
    struct loom_request *mine = s->owner == loom__self ? s : r;
    int delegate = n > loom__p2p_copy_chunk || (n > loom__p2p_eager_max && mine->heap);
    /* The chunks sit on the receiver's home queue: whichever thread of the receiving rank
     * waits runs them (every thread that calls MPI is a worker of its rank, core/rank.h). */
    if (loom__p2p_copy_tasks && delegate && r->owner) {
        size_t nchunks = (n + loom__p2p_copy_chunk - 1) / loom__p2p_copy_chunk;
        struct copy *c = malloc(sizeof *c + nchunks * sizeof c->tasks[0]);
        if (c) {
            c->s = s;
            c->r = r;
            c->n = n;
            c->chunk = loom__p2p_copy_chunk;
            c->nchunks = (int)nchunks;
            atomic_init(&c->left, (int)nchunks);
            int queue = r->owner->home_queue, owner = r->owner->world_rank;
            for (size_t i = 0; i < nchunks; i++) {
                struct loom_task *t = &c->tasks[i];
                /* share: a waiting sender (or any idle worker) helps even while the
                 * receiver keeps its queue, so two cores copy a message of several chunks
                 * at once. A one-chunk message is not shared: another core would copy the
                 * same bytes no sooner, into lines the receiver then fetches back (a
                 * window of 64 KiB messages into one buffer ran at 60 % of its speed). */
                *t = (struct loom_task){.fn = copy_chunk, .arg = c, .queue = queue,
                                        .share = (uint8_t)(loom__p2p_copy_share && nchunks > 1),
                                        .owner = owner};
                atomic_init(&t->state, LOOM_TASK_IDLE);
                atomic_init(&t->cancel, 0);
            }
            /* c may be freed by the last chunk as soon as it is submitted: read nothing of
             * it after the loop's last submission. */
            for (size_t i = 0; i < nchunks; i++)
                loom__task_submit(&c->tasks[i]);
            return;
        }
        /* no memory for the tasks: copy it here */
    }
    if (n)
        loom__dt_copy(buf, type, count, s->buf, s->type, s->count, 0, n);
    finish(s, r, n);
}
