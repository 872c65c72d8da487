/* rma/xfer.c — puts and gets: data moved in one pass between the origin's buffer and the
 * target's memory (loom__dt_copy takes any pair of layouts), and how the origin waits for the
 * ones still moving.
 *
 * A transfer of at most LOOM_COPY_CHUNK bytes is copied by the origin inside the call: it
 * costs less than handing it to anyone. A larger one is cut into pieces of LOOM_COPY_CHUNK
 * bytes (fewer, larger ones above PIECES of them) that whoever works on it *claims* one at a time (an atomic counter), copies, and
 * counts as landed. Two helper tasks are queued, one on the origin's home queue and one on
 * the target's, each claiming pieces until none is left; and a blocking MPI_Put or MPI_Get
 * claims pieces itself before it returns. So:
 *   - a target waiting in MPI (a fence, a barrier: it runs its own queue), or its progress
 *     threads, copy pieces beside the origin: the transfer runs on two cores, and what is put
 *     lands in part in the target's own cache;
 *   - a target that computes (or sleeps, its wake-up still under way) costs the origin
 *     nothing: the origin claims what is left and never waits for the target to start;
 *   - MPI_Rput/MPI_Rget return at once: the pieces are copied by the helpers, that is by the
 *     origin's next wait or test, the target's, any rank that waits nearby and steals, or
 *     progress threads, while the origin computes.
 * Claiming costs one atomic increment a piece, not a queue lock and a wake-up per piece. The
 * thread that lands the last piece takes back the helpers still queued (loom__task_withdraw);
 * one already taken finds nothing left and drops its reference. Under LOOM_PROGRESS=inline the
 * origin copies everything itself, in the call.
 *
 * Who waits for what: w->pending counts the origin's transfers in flight. The thread that
 * lands a transfer's last piece completes its request (if any), then decrements pending with
 * release and wakes the origin; a flush waits for pending to reach 0 with acquire, so
 * everything the pieces wrote happens before whatever follows the flush (an unlock's release
 * of the lock word, a complete's counter, a fence's barrier). */
#include <stdint.h>
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

/* A large transfer on its way. Everything but the atomics is read-only while it exists; the
 * types are retained until the last piece lands. `refs`: the helper tasks not yet finished
 * and the issuing call while it claims; the last to drop one frees it (a helper may run long
 * after the transfer landed). */
/* The most pieces a transfer is cut into: enough for the two sides (and their progress
 * threads) to share it when one starts late, few enough that a piece of a large transfer is
 * far longer to copy than to claim. */
enum { PIECES = 8 };

struct xfer {
    struct loom_win *w;          /* read only until the last piece lands */
    struct loom_rank *origin;
    struct loom_request *req;
    void *dst;
    const struct loom_datatype *dt;
    size_t dcount;
    const void *src;
    const struct loom_datatype *st;
    size_t scount;
    size_t n, piece, npieces;
    _Atomic size_t next;         /* the next piece to claim (relaxed: a ticket) */
    _Atomic size_t left;         /* pieces not landed yet */
    _Atomic int refs;
    int nhelpers;
    struct loom_task helper[2];  /* on the origin's and on the target's home queue */
};

static void drop(struct xfer *x)
{
    /* acq_rel: the last holder sees the others' last use before it frees */
    if (loom__fetch_sub_acq_rel(&x->refs, 1) == 1)
        free(x);
}

/* Everything has moved: take back the helpers still queued (nothing is left for them, and
 * none stays in a queue once a flush has returned), complete the request, then tell the
 * origin's flushes. The caller holds a reference, so x outlives this. */
static void land(struct xfer *x)
{
    for (int i = 0; i < x->nhelpers; i++)
        if (loom__task_withdraw(&x->helper[i]))
            drop(x); /* the helper's reference: it will never run */
    struct loom_rank *origin = x->origin;
    _Atomic long *pending = &x->w->pending;
    loom__dt_release((struct loom_datatype *)x->dt);
    loom__dt_release((struct loom_datatype *)x->st);
    if (x->req)
        loom__req_complete(x->req);
    /* release: the pieces' copies happen before the flush that sees 0 (its acquire). The
     * window may be freed as soon as this is seen: nothing of it is touched afterwards. */
    loom__fetch_sub_acq_rel(pending, 1);
    loom__event_notify(&origin->event);
}

/* Claim and copy pieces until none is left to claim. */
static void claim_all(struct xfer *x)
{
    for (;;) {
        size_t i = atomic_fetch_add_explicit(&x->next, 1, memory_order_relaxed);
        if (i >= x->npieces)
            return;
        size_t off = i * x->piece;
        size_t len = x->n - off < x->piece ? x->n - off : x->piece;
        loom__dt_copy(x->dst, x->dt, x->dcount, x->src, x->st, x->scount, off, len);
        /* acq_rel: the thread of the last piece sees every other piece's copy before it
         * lands */
        if (atomic_fetch_sub_explicit(&x->left, 1, memory_order_acq_rel) == 1)
            land(x);
    }
}

static int helper(struct loom_task *t)
{
    struct xfer *x = t->arg;
    claim_all(x);
    drop(x);
    return LOOM_TASK_GONE; /* the task may have been freed with x */
}

static void task_init(struct loom_task *t, struct xfer *x, int queue, int owner)
{
    *t = (struct loom_task){.fn = helper, .arg = x, .queue = queue, .owner = owner};
    atomic_init(&t->state, LOOM_TASK_IDLE);
    atomic_init(&t->cancel, 0);
}

/* Move n bytes from (src, st, scount) to (dst, dt, dcount), with target r: here, or shared
 * with the helpers; `mine`: the call claims pieces itself before returning. */
static int move(struct loom_win *w, int r, void *dst, const struct loom_datatype *dt,
                size_t dcount, const void *src, const struct loom_datatype *st, size_t scount,
                struct loom_request *req, int mine)
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
    struct xfer *x = malloc(sizeof *x); /* freed by the last of drop() */
    if (x == NULL)
        return LOOM_ERR_NOMEM;
    size_t piece = loom__p2p_copy_chunk;
    if (n / PIECES > piece) /* at most PIECES pieces, whole cache lines */
        piece = (n / PIECES + 63) / 64 * 64;
    size_t npieces = (n + piece - 1) / piece;
    *x = (struct xfer){.w = w, .origin = loom__self, .req = req, .dst = dst, .dt = dt,
                       .dcount = dcount, .src = src, .st = st, .scount = scount, .n = n,
                       .piece = piece, .npieces = npieces};
    atomic_init(&x->next, 0);
    atomic_init(&x->left, npieces);
    loom__dt_retain((struct loom_datatype *)dt);
    loom__dt_retain((struct loom_datatype *)st);
    int here = loom__self->home_queue, owner = loom__self->world_rank;
    int there = loom__job.ranks[w->sh->world_of[r]].home_queue;
    int nhelpers = there == here ? 1 : 2;
    x->nhelpers = nhelpers;
    atomic_init(&x->refs, nhelpers + 1);
    task_init(&x->helper[0], x, here, owner);
    if (nhelpers == 2)
        task_init(&x->helper[1], x, there, owner);
    loom__fetch_add_relaxed(&w->pending, 1); /* before any piece can land */
    for (int i = 0; i < nhelpers; i++)
        loom__task_submit(&x->helper[i]);
    if (mine)
        claim_all(x);
    drop(x);
    return 0;
}

int loom__rma_put(struct loom_win *w, int r, const void *oaddr, size_t ocount,
                  struct loom_datatype *ot, char *taddr, size_t tcount,
                  struct loom_datatype *tt, struct loom_request *req)
{
    if (w->sh->seg[r].remote) /* a member of another node process: messages */
        return loom__rma_net_xfer(w, r, 0, (void *)oaddr, ocount, ot, taddr, tcount, tt, req);
    return move(w, r, taddr, tt, tcount, oaddr, ot, ocount, req, req == NULL);
}

int loom__rma_get(struct loom_win *w, int r, void *oaddr, size_t ocount,
                  struct loom_datatype *ot, const char *taddr, size_t tcount,
                  struct loom_datatype *tt, struct loom_request *req)
{
    if (w->sh->seg[r].remote)
        return loom__rma_net_xfer(w, r, 1, oaddr, ocount, ot, (char *)taddr, tcount, tt, req);
    return move(w, r, oaddr, ot, ocount, taddr, tt, tcount, req, req == NULL);
}

static int landed(void *arg)
{
    struct loom_win *w = arg;
    return loom__load_acquire(&w->pending) == 0; /* pairs with the release in land() */
}

void loom__rma_flush(struct loom_win *w)
{
    if (loom__load_acquire(&w->pending) == 0) {
        /* a keypoint over several node processes: a rank that spins on flushes with nothing
         * in flight (a spin lock of compare-and-swap on its own memory) must still carry out
         * the others' operations on it when nothing else polls (LOOM_PROGRESS=inline); a
         * flush that waits polls anyway */
        if (w->net && loom__wait_progress)
            loom__wait_progress();
        return;
    }
    loom__wait_until(&loom__self->event, landed, w);
}
