/* coll/shm_root.c — the rooted shm collectives: bcast, reduce, gather(v), scatter(v).
 * The steps (begin, wait for a member's publication, done, wait for done) and why they are
 * safe are in shm_sync.c. Who touches whose buffers:
 *   bcast    every non-root reads the root's buffer (found through the root's view, shm.h);
 *            the root waits for every done. Up to LOOM_SHM_INLINE bytes, the root packs the
 *            data into its entry instead and returns at once; the readers unpack it from
 *            there (shm.h, `in`).
 *   gather   every member writes its block into the root's rbuf (its view, or for gatherv
 *            its arguments); the root waits for every done (and collects truncation
 *            reports). A non-root's block of up to LOOM_SHM_INLINE bytes goes through its
 *            entry instead: it returns at once and the root copies the block from there.
 *   scatter  every non-root reads its block of the root's sbuf; the root waits likewise. Up
 *            to LOOM_SHM_INLINE bytes in all, MPI_Scatter's root packs every block into its
 *            entry and returns at once; the non-roots copy their block from there.
 *   reduce   small vectors: the root reads everyone's input and folds them in rank order;
 *            a non-root's input of up to LOOM_SHM_INLINE bytes of a dense type goes through
 *            its entry (it then returns at once), a larger one is read from its buffer and
 *            it waits for the root's done. Large vectors: the vector is cut in n
 *            slices and member i folds slice i of every input straight into the root's rbuf
 *            (n members reduce at once); everyone waits for everyone's done.
 * Reductions fold in rank order, x0 op (x1 op (... op x(n-1))), whatever the operation, so
 * non-commutative operations are right and every algorithm gives the same bits. */
#include "coll/alg.h"
#include "coll/shm.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"
#include "dt/dt.h"

/* Reductions of at least this many bytes are cut in slices reduced by every member. */
#define REDUCE_SLICE_MIN (32u * 1024u)

void loom__shm_bcast_publish(struct loom_shm_call *k, struct loom_comm *c,
                             const struct loom_coll_args *a)
{
    loom__shm_init(k, c);
    if (k->me != a->root) {
        loom__shm_publish(k, a, NULL, 1); /* only the root is read */
        return;
    }
    if (!loom__shm_inline_put(k, a->rbuf, a->rcount, a->rtype, LOOM_SHM_INLINE))
        loom__shm_set_view(k, a->rbuf, a->rcount, a->rtype, 1);
    loom__shm_publish(k, a, NULL, 0); /* release: orders the inline buffer before pub */
}

void loom__shm_bcast(struct loom_shm_call *k, const struct loom_coll_args *a)
{
    int root = a->root;
    if (k->me != root) {
        if (!loom__shm_inline_get(k, root, a->rbuf, a->rcount, a->rtype)) {
            const struct loom_shm_view *v = loom__shm_view(k, root);
            loom__shm_copy(k, a->rbuf, a->rcount, a->rtype, v->buf, v->count, v->type, 0);
        }
        loom__shm_done(k);
        return;
    }
    loom__shm_done_quiet(k); /* nobody waits for the root */
    if (!loom__shm_inline_mine(k))
        loom__shm_wait_all_done(k); /* readers read our buffer: stay until they are done */
}

/* Fold elements [lo, hi) of the n inputs into out in rank order; tmp (room for hi - lo
 * elements) is used when out itself holds an input other than x(n-1) (in place). */
static void fold(struct loom_shm_call *k, const void *const *x, void *out, void *tmp,
                 size_t lo, size_t hi, struct loom_datatype *type, const struct loom_op *op)
{
    size_t c = hi - lo;
    if (c == 0)
        return;
    void *o = loom__elem(out, lo, type);
    void *acc = tmp ? tmp : o; /* tmp is the address of the slice's element 0 */
    const void *last = loom__elem(x[k->n - 1], lo, type);
    if (acc != last)
        loom__shm_copy(k, acc, c, type, last, c, type, 0);
    for (int r = k->n - 2; r >= 0; r--)
        loom__op_apply(op, loom__elem(x[r], lo, type), acc, c, type);
    if (tmp)
        loom__shm_copy(k, o, c, type, tmp, c, type, 0);
}

int loom__shm_reduce(struct loom_shm_call *k, const struct loom_coll_args *a)
{
    size_t count = a->scount;
    struct loom_datatype *type = a->stype;
    int root = a->root, n = k->n, me = k->me;
    int sliced = n > 1 && loom__dt_stream_size(type, count) >= REDUCE_SLICE_MIN;
    size_t lo = 0, hi = count;
    if (sliced)
        loom__shm_slice(count, n, me, &lo, &hi);
    /* A temporary holds the accumulator when out would be an input still to be read: in
     * place at a root that is not the last rank (the fold starts from x(n-1)). Sliced, the
     * root's in-place choice is known only once published: take the slice's room anyway. */
    void *raw = NULL, *tmp = NULL;
    if (sliced || (me == root && a->in_place && root != n - 1)) {
        tmp = loom__shm_scratch(k->self, hi - lo, type, &raw);
        if (!tmp)
            return LOOM_ERR_NOMEM;
    }
    /* small: a non-root's input goes inline when it can (then it returns at once); only the
     * root reads, and only the non-roots whose input it reads in place wait for it */
    int mine_inline = !sliced && me != root &&
                      loom__shm_inline_put_input(k, a->sbuf, count, type, LOOM_SHM_INLINE);
    loom__shm_publish(k, a, NULL, !sliced && me == root);
    const void *x[LOOM_SHM_MAX_RANKS];
    if (!sliced) {
        if (me != root) {
            loom__shm_done_quiet(k);
            if (!mine_inline)
                loom__shm_wait_done(k, root); /* the root has read our input */
            return 0;
        }
        const void *own = a->in_place ? a->rbuf : a->sbuf;
        for (int r = 0; r < n; r++) {
            const void *in = r == me ? own : loom__shm_inline_input(k, r, own, count, type);
            x[r] = in ? in : loom__shm_args(k, r)->sbuf;
        }
        fold(k, x, a->rbuf, a->in_place && root != n - 1 ? tmp : NULL, 0, count, type, a->op);
        loom__shm_done(k);
    } else {
        const struct loom_coll_args *ra = loom__shm_args(k, root);
        for (int r = 0; r < n; r++) {
            const struct loom_coll_args *ar = r == me ? a : loom__shm_args(k, r);
            x[r] = r == root && ra->in_place ? ra->rbuf : ar->sbuf;
        }
        fold(k, x, ra->rbuf, ra->in_place && root != n - 1 ? tmp : NULL, lo, hi, type, a->op);
        loom__shm_done(k);
        loom__shm_wait_all_done(k);
    }
    loom__coll_scratch_put(k->self, raw);
    return 0;
}

void loom__shm_gather_publish(struct loom_shm_call *k, struct loom_comm *c,
                              const struct loom_coll_args *a)
{
    loom__shm_init(k, c);
    /* a non-root's small block goes inline: then the root reads it and waits for our pub */
    int in = k->me != a->root &&
             loom__shm_inline_put(k, a->sbuf, a->scount, a->stype, LOOM_SHM_INLINE);
    if (k->me == a->root)
        loom__shm_set_view(k, a->rbuf, a->rcount, a->rtype, a->rcounts == NULL);
    loom__shm_publish(k, a, NULL, k->me != a->root && !in);
}

void loom__shm_gather(struct loom_shm_call *k, const struct loom_coll_args *a)
{
    int root = a->root, me = k->me;
    if (me != root) {
        if (loom__shm_inline_mine(k)) { /* the root copies it from our entry */
            loom__shm_done_quiet(k);
            return;
        }
        /* the root says which form: one count (its view), or counts and displacements */
        const struct loom_shm_view *v = loom__shm_view(k, root);
        if (v) {
            void *dst = loom__elem(v->buf, (size_t)me * v->count, v->type);
            loom__shm_copy(k, dst, v->count, v->type, a->sbuf, a->scount, a->stype, 1);
        } else {
            const struct loom_coll_args *ra = loom__shm_args(k, root);
            size_t dcount = loom__coll_count(ra, LOOM_COLL_RECV, me);
            size_t displ = (size_t)loom__coll_displ(ra, LOOM_COLL_RECV, me);
            void *dst = loom__elem(ra->rbuf, displ, ra->rtype);
            loom__shm_copy(k, dst, dcount, ra->rtype, a->sbuf, a->scount, a->stype, 1);
        }
        loom__shm_done(k);
        return;
    }
    int read_inline = 0;
    for (int j = 0; j < k->n; j++) {
        int r = (me + j) % k->n; /* our own block first */
        size_t dcount = loom__coll_count(a, LOOM_COLL_RECV, r);
        void *dst = loom__elem(a->rbuf, (size_t)loom__coll_displ(a, LOOM_COLL_RECV, r), a->rtype);
        if (r == me) {
            if (!a->in_place)
                loom__shm_copy(k, dst, dcount, a->rtype, a->sbuf, a->scount, a->stype, 0);
            continue;
        }
        size_t bytes;
        const void *stream = loom__shm_inline_stream(k, r, &bytes);
        if (stream) {
            loom__shm_copy(k, dst, dcount, a->rtype, stream, bytes, MPI_BYTE, 0);
            read_inline = 1;
            continue;
        }
        loom__shm_wait_done(k, r); /* r wrote its block into our rbuf */
        loom__shm_check_trunc(k, r);
    }
    /* After our reads of inline blocks: their owners wait for it before they write them
     * again, so it wakes them. With none, nobody waits for it. */
    if (read_inline)
        loom__shm_done(k);
    else
        loom__shm_done_quiet(k);
}

void loom__shm_scatter_publish(struct loom_shm_call *k, struct loom_comm *c,
                               const struct loom_coll_args *a, int kind)
{
    loom__shm_init(k, c);
    if (k->me != a->root) {
        loom__shm_publish(k, a, NULL, 1); /* only the root is read */
        return;
    }
    /* MPI_Scatter's blocks are of one size: small, they all go inline, in rank order */
    if (kind != LOOM_COLL_SCATTER ||
        !loom__shm_inline_put(k, a->sbuf, (size_t)k->n * (size_t)a->scount, a->stype,
                              LOOM_SHM_INLINE))
        loom__shm_set_view(k, a->sbuf, a->scount, a->stype, kind == LOOM_COLL_SCATTER);
    loom__shm_publish(k, a, NULL, 0);
}

void loom__shm_scatter(struct loom_shm_call *k, const struct loom_coll_args *a)
{
    int root = a->root, me = k->me;
    if (me != root) {
        size_t bytes;
        const struct loom_shm_view *v;
        const char *stream = loom__shm_inline_stream(k, root, &bytes);
        if (stream) { /* our block follows those of 0..me-1; the root may have returned */
            size_t blk = bytes / (size_t)k->n;
            loom__shm_copy(k, a->rbuf, a->rcount, a->rtype, stream + (size_t)me * blk, blk,
                           MPI_BYTE, 0);
        } else if ((v = loom__shm_view(k, root)) != NULL) {
            const void *src = loom__elem(v->buf, (size_t)me * v->count, v->type);
            loom__shm_copy(k, a->rbuf, a->rcount, a->rtype, src, v->count, v->type, 0);
        } else {
            const struct loom_coll_args *ra = loom__shm_args(k, root);
            size_t scount = loom__coll_count(ra, LOOM_COLL_SEND, me);
            size_t displ = (size_t)loom__coll_displ(ra, LOOM_COLL_SEND, me);
            const void *src = loom__elem(ra->sbuf, displ, ra->stype);
            loom__shm_copy(k, a->rbuf, a->rcount, a->rtype, src, scount, ra->stype, 0);
        }
        loom__shm_done(k);
        return;
    }
    if (!a->in_place) {
        size_t scount = loom__coll_count(a, LOOM_COLL_SEND, me);
        const void *src = loom__elem(a->sbuf, (size_t)loom__coll_displ(a, LOOM_COLL_SEND, me),
                                     a->stype);
        loom__shm_copy(k, a->rbuf, a->rcount, a->rtype, src, scount, a->stype, 0);
    }
    loom__shm_done_quiet(k); /* nobody waits for the root */
    if (!loom__shm_inline_mine(k))
        loom__shm_wait_all_done(k); /* readers read our sbuf: stay until they are done */
}
