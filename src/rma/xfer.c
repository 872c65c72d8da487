/* rma/xfer.c — puts and gets: data moved in one pass between the origin's buffer and the
 * target's memory (loom__dt_copy takes any pair of layouts), and how the origin waits for the
 * ones still moving.
 *
 * A transfer of at most LOOM_COPY_CHUNK bytes is copied by the origin inside the call: it
 * costs less than handing it to anyone. A larger one becomes CHUNKS stealable tasks, as a
 * large message does (p2p/transfer.c), alternately on the origin's and on the target's home
 * queue: the call returns at once, and the pieces are copied by whoever gets there first —
 * the origin at its next flush (or any wait) and the target if it waits in MPI (a fence, a
 * barrier: it runs its own queue), each side's progress threads under LOOM_PROGRESS=thread;
 * a side that computes leaves its pieces to the other, which steals them. So an idle target
 * copies half of what is put into its memory, into its own cache, and the transfer goes at
 * the speed of two cores. Under LOOM_PROGRESS=inline the origin copies everything itself.
 *
 * Who waits for what: w->pending counts the origin's transfers in flight. The task that lands
 * a transfer's last chunk completes its request (if any), then decrements pending with
 * release and wakes the origin; a flush waits for pending to reach 0 with acquire, so
 * everything the chunks wrote happens before whatever follows the flush (an unlock's release
 * of the lock word, a complete's counter, a fence's barrier). */
#include <stdlib.h>
#include <string.h>
#include "core/atomic.h"
#include "core/event.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "p2p/p2p.h"
#include "p2p/request.h"
#include "rma/rma.h"
#include "task/task.h"

/* The pieces of a large transfer: enough for the two sides to share it when one of them
 * starts late (the other takes what is left), few enough that the engine's cost per task (a
 * queue lock, maybe a wake-up) stays a small part of each piece's copy. Measured on a 2-core
 * VM (docs/rma.md): 1 MiB puts at 1.5x the one-task rate with the target waiting, and what
 * one task gives with the target computing. */
enum { CHUNKS = 8 };

/* A large transfer on its way, its chunk tasks embedded (no allocation per chunk). Everything
 * but `left` is read-only while it exists; the types are retained until the last chunk. */
struct xfer {
    struct loom_win *w;
    struct loom_rank *origin;
    struct loom_request *req;
    void *dst;
    const struct loom_datatype *dt;
    size_t dcount;
    const void *src;
    const struct loom_datatype *st;
    size_t scount;
    size_t n, chunk;
    _Atomic int left;
    struct loom_task tasks[];
};

static void land(struct xfer *x)
{
    struct loom_rank *origin = x->origin;
    _Atomic long *pending = &x->w->pending;
    loom__dt_release((struct loom_datatype *)x->dt);
    loom__dt_release((struct loom_datatype *)x->st);
    if (x->req)
        loom__req_complete(x->req);
    free(x);
    /* release: the chunks' copies happen before the flush that sees 0 (its acquire). The
     * window may be freed as soon as this lands: nothing of it is touched afterwards. */
    loom__fetch_sub_acq_rel(pending, 1);
    loom__event_notify(&origin->event);
}

static int copy_chunk(struct loom_task *t)
{
    struct xfer *x = t->arg;
    size_t i = (size_t)(t - x->tasks);
    size_t off = i * x->chunk;
    size_t len = x->n - off < x->chunk ? x->n - off : x->chunk;
    loom__dt_copy(x->dst, x->dt, x->dcount, x->src, x->st, x->scount, off, len);
    /* acq_rel: the last chunk's thread sees every other chunk's copy before it lands */
    if (loom__fetch_sub_acq_rel(&x->left, 1) == 1)
        land(x);
    return LOOM_TASK_DONE;
}

/* Move n bytes from (src, st, scount) to (dst, dt, dcount): here, or as tasks. */
static int move(struct loom_win *w, int r, void *dst, const struct loom_datatype *dt, size_t dcount,
                const void *src, const struct loom_datatype *st, size_t scount,
                struct loom_request *req)
{
    size_t n = loom__dt_stream_size(st, scount);
    if (n <= loom__p2p_copy_chunk || !loom__p2p_copy_tasks) {
        /* the small put's path: one copy (memmove: a rank may put from its own window into
         * itself, and glibc's memmove costs what memcpy does when nothing overlaps) */
        if (n && dt->contig && st->contig)
            memmove((char *)((uintptr_t)dst + (uintptr_t)dt->true_lb),
                   (const char *)((uintptr_t)src + (uintptr_t)st->true_lb), n);
        else if (n)
            loom__dt_copy(dst, dt, dcount, src, st, scount, 0, n);
        if (req)
            loom__req_complete(req);
        return 0;
    }
    size_t chunk = (n / CHUNKS + 63) / 64 * 64, nchunks = (n + chunk - 1) / chunk;
    /* freed by the task that lands the last chunk */
    struct xfer *x = malloc(sizeof *x + nchunks * sizeof x->tasks[0]);
    if (x == NULL)
        return LOOM_ERR_NOMEM;
    *x = (struct xfer){.w = w, .origin = loom__self, .req = req, .dst = dst, .dt = dt,
                       .dcount = dcount, .src = src, .st = st, .scount = scount, .n = n,
                       .chunk = chunk};
    atomic_init(&x->left, (int)nchunks);
    loom__dt_retain((struct loom_datatype *)dt);
    loom__dt_retain((struct loom_datatype *)st);
    int mine = loom__self->home_queue, owner = loom__self->world_rank;
    int theirs = loom__job.ranks[w->sh->world_of[r]].home_queue;
    for (size_t i = 0; i < nchunks; i++) {
        struct loom_task *t = &x->tasks[i];
        int queue = i & 1 ? theirs : mine;
        *t = (struct loom_task){.fn = copy_chunk, .arg = x, .queue = queue, .owner = owner};
        atomic_init(&t->state, LOOM_TASK_IDLE);
        atomic_init(&t->cancel, 0);
    }
    loom__fetch_add_relaxed(&w->pending, 1); /* before any chunk can land */
    /* x may be freed as soon as its last chunk is submitted: nothing of it is read after */
    for (size_t i = 0; i < nchunks; i++)
        loom__task_submit(&x->tasks[i]);
    return 0;
}

int loom__rma_put(struct loom_win *w, int r, const void *oaddr, size_t ocount,
                  struct loom_datatype *ot, char *taddr, size_t tcount,
                  struct loom_datatype *tt, struct loom_request *req)
{
    return move(w, r, taddr, tt, tcount, oaddr, ot, ocount, req);
}

int loom__rma_get(struct loom_win *w, int r, void *oaddr, size_t ocount,
                  struct loom_datatype *ot, const char *taddr, size_t tcount,
                  struct loom_datatype *tt, struct loom_request *req)
{
    return move(w, r, oaddr, ot, ocount, taddr, tt, tcount, req);
}

static int landed(void *arg)
{
    struct loom_win *w = arg;
    return loom__load_acquire(&w->pending) == 0; /* pairs with the release in land() */
}

void loom__rma_flush(struct loom_win *w)
{
    if (loom__load_acquire(&w->pending) == 0)
        return;
    loom__wait_until(&loom__self->event, landed, w);
}
