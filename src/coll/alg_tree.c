/* coll/alg_tree.c — binomial trees: bcast, reduce, gather, scatter (and the tree pieces that
 * allreduce and reduce_scatter reuse).
 *
 * The tree over relative ranks vr = (rank - root) mod n: vr > 0 hangs under vr - lowbit(vr),
 * the pair meeting on level ctz(vr) + 1 (level 1 is the leaves' level, where half the
 * transfers are: the paper's Fig. 8). All-to-one trees (reduce, gather) receive from their
 * children level 1 first, then send up; one-to-all trees (bcast, scatter) receive from the
 * parent, then send to their children, largest subtree first. One round per level, tagged
 * with its level and direction, so that split-tree can cut between levels; sends that end
 * up on the same side of the cut are merged into one round afterwards. */
#include "coll/alg.h"

void loom__tree_bcast(struct loom_sched *s, void *buf, size_t count, struct loom_datatype *type,
                      int root)
{
    int n = s->size, vr = (s->me - root + n) % n;
    unsigned mask = 1;
    while ((int)mask < n) {
        if (vr & (int)mask) {
            loom__sched_round(s, LOOM_ROUND_DOWN, loom__level(mask));
            loom__sched_recv(s, buf, count, type, (vr - (int)mask + root) % n);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vr + (int)mask < n) {
            loom__sched_round(s, LOOM_ROUND_DOWN, loom__level(mask));
            loom__sched_send(s, buf, count, type, (vr + (int)mask + root) % n);
        }
    }
}

void loom__alg_bcast_binomial(struct loom_sched *s, const struct loom_coll_args *a)
{
    loom__tree_bcast(s, a->rbuf, a->rcount, a->rtype, a->root);
}

void loom__tree_reduce(struct loom_sched *s, const void *input, void *result, size_t count,
                       struct loom_datatype *type, struct loom_op *op, int root,
                       int acc_in_result)
{
    int n = s->size, me = s->me;
    int commutative = op->commutative;
    int troot = commutative ? root : 0; /* rank order needs the tree rooted at 0 */
    int vr = (me - troot + n) % n;
    int h = loom__height(n);
    /* acc: what this rank has reduced so far (the data of relative ranks [vr, vr + mask));
     * it starts as the input, read-only until the first reduction needs a writable one. */
    const void *acc = input;
    int acc_writable = 0;
    void *tmp = NULL; /* where the next child's data lands */
    int pending = 0;  /* tmp holds a child's data not reduced yet */
    void *home = (me == root || acc_in_result) ? result : NULL; /* a writable accumulator */
    loom__sched_keep_op(s, op);

    /* emit the reduction of tmp into acc (at the start of the current round) */
#define REDUCE_PENDING()                                                                       \
    do {                                                                                       \
        if (pending) {                                                                         \
            if (commutative) {                                                                 \
                loom__sched_reduce(s, tmp, (void *)acc, count, type);                          \
            } else {                                                                           \
                /* acc holds the lower ranks: acc op tmp lands in tmp, which becomes acc */    \
                void *lower = (void *)acc;                                                     \
                loom__sched_reduce(s, acc, tmp, count, type);                                  \
                acc = tmp;                                                                     \
                acc_writable = 1;                                                              \
                tmp = lower == input ? NULL : lower;                                           \
            }                                                                                  \
            pending = 0;                                                                       \
        }                                                                                      \
    } while (0)

    int sent = 0;
    for (unsigned mask = 1; (int)mask < n; mask <<= 1) {
        if (vr & (int)mask) {
            loom__sched_round(s, LOOM_ROUND_UP, loom__level(mask));
            REDUCE_PENDING();
            loom__sched_send(s, acc, count, type, (vr - (int)mask + troot) % n);
            sent = 1;
            break;
        }
        if (vr + (int)mask >= n)
            continue;
        loom__sched_round(s, LOOM_ROUND_UP, loom__level(mask));
        REDUCE_PENDING();
        if (commutative && !acc_writable) {
            /* reductions land in acc: make it a writable copy of the input */
            void *w = home ? home : loom__sched_scratch(s, count, type);
            loom__sched_copy(s, input, count, type, w, count, type);
            acc = w;
            acc_writable = 1;
        }
        if (!tmp)
            tmp = (!commutative && home && acc != home) ? home
                                                        : loom__sched_scratch(s, count, type);
        loom__sched_recv(s, tmp, count, type, (vr + (int)mask + troot) % n);
        pending = 1;
    }
    if (!sent) { /* the tree's root */
        loom__sched_round(s, LOOM_ROUND_UP, h ? h : 1);
        REDUCE_PENDING();
        if (troot == root)
            loom__sched_copy(s, acc, count, type, result, count, type);
        else
            loom__sched_send(s, acc, count, type, root);
    }
#undef REDUCE_PENDING
    if (troot != root && me == root) {
        loom__sched_round(s, LOOM_ROUND_UP, h + 1);
        loom__sched_recv(s, result, count, type, troot);
    }
}

void loom__alg_reduce_binomial(struct loom_sched *s, const struct loom_coll_args *a)
{
    const void *input = a->in_place ? a->rbuf : a->sbuf;
    loom__tree_reduce(s, input, a->rbuf, a->scount, a->stype, a->op, a->root, 0);
}

/* gather and scatter move packed bytes: a subtree's blocks, in relative rank order */

static int subtree(int vr, int n)
{
    if (vr == 0)
        return n;
    int low = vr & -vr;
    return low < n - vr ? low : n - vr;
}

void loom__alg_gather_binomial(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, me = s->me, root = a->root, vr = (me - root + n) % n;
    int is_root = me == root;
    size_t blk = is_root ? loom__dt_stream_size(a->rtype, a->rcount)
                         : loom__dt_stream_size(a->stype, a->scount);
    int sz = subtree(vr, n);
    struct loom_datatype *byte = MPI_BYTE;
    if (sz == 1 && !is_root) { /* a leaf sends its own data as it is */
        int low = vr & -vr;
        loom__sched_round(s, LOOM_ROUND_UP, loom__level((unsigned)low));
        loom__sched_send(s, a->sbuf, a->scount, a->stype, (vr - low + root) % n);
        return;
    }
    char *tmp = loom__sched_bytes(s, (size_t)sz * blk);
    int first = 1;
    int h = loom__height(n);
    for (unsigned mask = 1; (int)mask < n; mask <<= 1) {
        if (vr & (int)mask) {
            loom__sched_round(s, LOOM_ROUND_UP, loom__level(mask));
            loom__sched_send(s, tmp, (size_t)sz * blk, byte, (vr - (int)mask + root) % n);
            break;
        }
        int child = vr + (int)mask;
        if (child >= n)
            continue;
        loom__sched_round(s, LOOM_ROUND_UP, loom__level(mask));
        if (first && !is_root) /* own data first in the subtree's block */
            loom__sched_copy(s, a->sbuf, a->scount, a->stype, tmp, blk, byte);
        first = 0;
        int nb = subtree(child, n);
        loom__sched_recv(s, tmp + (size_t)mask * blk, (size_t)nb * blk, byte,
                         (child + root) % n);
    }
    if (!is_root)
        return;
    /* the root unpacks every block to its rank's place */
    loom__sched_round(s, LOOM_ROUND_UP, h ? h : 1);
    for (int k = 0; k < n; k++) {
        int r = (k + root) % n;
        void *dst = loom__elem(a->rbuf, (size_t)r * a->rcount, a->rtype);
        if (k == 0) {
            if (!a->in_place)
                loom__sched_copy(s, a->sbuf, a->scount, a->stype, dst, a->rcount, a->rtype);
            continue;
        }
        loom__sched_copy(s, tmp + (size_t)k * blk, blk, byte, dst, a->rcount, a->rtype);
    }
}

void loom__alg_scatter_binomial(struct loom_sched *s, const struct loom_coll_args *a)
{
    int n = s->size, me = s->me, root = a->root, vr = (me - root + n) % n;
    int is_root = me == root;
    size_t blk = is_root ? loom__dt_stream_size(a->stype, a->scount)
                         : loom__dt_stream_size(a->rtype, a->rcount);
    int sz = subtree(vr, n);
    struct loom_datatype *byte = MPI_BYTE;
    if (sz == 1 && !is_root) { /* a leaf receives its own data in place */
        int low = vr & -vr;
        loom__sched_round(s, LOOM_ROUND_DOWN, loom__level((unsigned)low));
        loom__sched_recv(s, a->rbuf, a->rcount, a->rtype, (vr - low + root) % n);
        return;
    }
    char *tmp = loom__sched_bytes(s, (size_t)sz * blk);
    unsigned mask = 1;
    if (is_root) {
        /* pack the blocks in relative order; the root's own goes straight to its place */
        loom__sched_round(s, LOOM_ROUND_DOWN, loom__height(n));
        for (int k = 1; k < n; k++) {
            int r = (k + root) % n;
            loom__sched_copy(s, loom__elem(a->sbuf, (size_t)r * a->scount, a->stype), a->scount,
                             a->stype, tmp + (size_t)k * blk, blk, byte);
        }
        if (!a->in_place)
            loom__sched_copy(s, loom__elem(a->sbuf, (size_t)root * a->scount, a->stype),
                             a->scount, a->stype, a->rbuf, a->rcount, a->rtype);
        while ((int)mask < n)
            mask <<= 1;
    } else {
        while (!(vr & (int)mask))
            mask <<= 1;
        loom__sched_round(s, LOOM_ROUND_DOWN, loom__level(mask));
        loom__sched_recv(s, tmp, (size_t)sz * blk, byte, (vr - (int)mask + root) % n);
    }
    int own = !is_root;
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int child = vr + (int)mask;
        if (child >= n)
            continue;
        loom__sched_round(s, LOOM_ROUND_DOWN, loom__level(mask));
        if (own) /* own block out of the received subtree, while the sends go */
            loom__sched_copy(s, tmp, blk, byte, a->rbuf, a->rcount, a->rtype);
        own = 0;
        loom__sched_send(s, tmp + (size_t)mask * blk, (size_t)subtree(child, n) * blk, byte,
                         (child + root) % n);
    }
}
