/* coll/shm_all.c — the shm collectives where everyone needs everyone: allreduce,
 * allgather(v), alltoall(v,w), reduce_scatter(_block), scan and exscan. The steps and why
 * they are safe are in shm_sync.c. Who touches whose buffers:
 *   allgather    every member reads every other member's block (its sbuf, or its block of
 *                its own rbuf in place) into its own rbuf; everyone waits for everyone.
 *   alltoall     every member reads its block of every other member's send data; in place,
 *                each member first packs its rbuf into a scratch stream (data[]), since it
 *                is about to overwrite it while others still read. Small (MPI_Alltoall, at
 *                most SYMMETRIC_INLINE_MAX bytes in all), a member's send data goes inline
 *                and it returns without waiting for the others.
 *   allreduce    small: every member folds all n inputs in rank order into its own rbuf
 *                (in place: into a scratch copy, as its rbuf is another member's input);
 *                an input of up to SYMMETRIC_INLINE_MAX bytes of a dense type goes through
 *                its owner's entry, and the owner then returns without waiting for the
 *                others.
 *                Large: member i folds slice i of every input; not in place it then writes
 *                that slice into every member's rbuf (nobody reads rbufs); in place it writes
 *                its own rbuf, publishes a middle phase, and every member then copies slice i
 *                from member i's rbuf. Every member computes the same bits.
 *   reduce_scatter  member i folds block i of every input into its rbuf (scratch in place).
 *   scan/exscan  member i folds inputs 0..i (0..i-1) in rank order; it waits for the done of
 *                the members above it, the only ones that read its input. */
#include "coll/alg.h"
#include "coll/shm.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"

/* Allreduces of at least this many bytes (and one element per member) are sliced. */
#define ALLREDUCE_SLICE_MIN (32u * 1024u)
/* Allreduce inputs and alltoall send data of at most this many bytes go inline (shm.h), a
 * quarter of what bcast and reduce send that way. Inline, a member copies its data into its
 * entry's buffer, whose lines the other members then fetch; in exchange it need not wait for
 * their done. In a reduce that wait is the root's whole fold, worth a copy of up to
 * LOOM_SHM_INLINE bytes; where every member reads every other at once (allreduce, alltoall)
 * the others' done comes soon after its own, so the copy must be smaller to pay: on the
 * 2-core AMD EPYC VM, 2 ranks, allreduce 8 - 512 B took 0.64 - 0.84 of the time without
 * inline inputs and 2 KiB 1.27 (bench/coll.c, 5 rounds alternated, two runs). 512 B is eight
 * 64-byte lines. */
#define SYMMETRIC_INLINE_MAX 512u

/* acc[0..c) <- x[0][lo..] op (x[1][lo..] op (... op x[last][lo..])). */
static void fold(struct loom_shm_call *k, const void *const *x, int last, void *acc, size_t lo,
                 size_t c, struct loom_datatype *type, const struct loom_op *op)
{
    if (c == 0 || last < 0)
        return;
    const void *top = loom__elem(x[last], lo, type);
    if (acc != top)
        loom__shm_copy(k, acc, c, type, top, c, type, 0);
    for (int r = last - 1; r >= 0; r--)
        loom__op_apply(op, loom__elem(x[r], lo, type), acc, c, type);
}

/* The input of member r for a reduction (its sbuf, or its rbuf in place). */
static const void *input(struct loom_shm_call *k, const struct loom_coll_args *a, int r)
{
    const struct loom_coll_args *ar = r == k->me ? a : loom__shm_args(k, r);
    return ar->in_place ? ar->rbuf : ar->sbuf;
}

int loom__shm_allreduce(struct loom_shm_call *k, const struct loom_coll_args *a)
{
    int n = k->n, me = k->me;
    size_t count = a->scount;
    struct loom_datatype *type = a->stype;
    int sliced = n > 1 && count >= (size_t)n &&
                 loom__dt_stream_size(type, count) >= ALLREDUCE_SLICE_MIN;
    size_t lo = 0, hi = count;
    if (sliced)
        loom__shm_slice(count, n, me, &lo, &hi);
    void *raw = NULL, *tmp = NULL;
    /* in place, the accumulator cannot be our rbuf: others read it (small), or it holds our
     * slice of x(me) needed before the end of the fold (sliced, unless we are last) */
    if (a->in_place && (!sliced || me != n - 1)) {
        tmp = loom__shm_scratch(k->self, hi - lo, type, &raw);
        if (!tmp)
            return LOOM_ERR_NOMEM;
    }
    /* small: our input goes inline when it can, and then nobody reads our buffers */
    const void *own = input(k, a, me);
    int mine_inline =
        !sliced && loom__shm_inline_put_input(k, own, count, type, SYMMETRIC_INLINE_MAX);
    loom__shm_publish(k, a, NULL, 0);
    const void *x[LOOM_SHM_MAX_RANKS];
    for (int r = 0; r < n; r++) {
        const void *in = r == me ? own
                         : sliced ? NULL
                                  : loom__shm_inline_input(k, r, own, count, type);
        x[r] = in ? in : input(k, a, r);
    }
    void *mine = loom__elem(a->rbuf, lo, type);
    fold(k, x, n - 1, tmp ? tmp : mine, lo, hi - lo, type, a->op);
    if (!sliced) {
        loom__shm_done(k);
        if (!mine_inline)
            loom__shm_wait_all_done(k); /* the others read our input in place */
        if (tmp)
            loom__shm_copy(k, a->rbuf, count, type, tmp, count, type, 0);
    } else if (!a->in_place) {
        for (int r = 0; r < n; r++) {
            if (r == me)
                continue;
            void *dst = loom__elem(loom__shm_args(k, r)->rbuf, lo, type);
            loom__shm_copy(k, dst, hi - lo, type, mine, hi - lo, type, 0);
        }
        loom__shm_done(k);
        loom__shm_wait_all_done(k);
    } else {
        if (tmp)
            loom__shm_copy(k, mine, hi - lo, type, tmp, hi - lo, type, 0);
        loom__shm_middle(k);
        for (int r = 0; r < n; r++) {
            if (r == me)
                continue;
            size_t rlo, rhi;
            loom__shm_slice(count, n, r, &rlo, &rhi);
            loom__shm_wait_pub(k, r, 1);
            const struct loom_coll_args *ar = loom__shm_args(k, r);
            loom__shm_copy(k, loom__elem(a->rbuf, rlo, type), rhi - rlo, type,
                           loom__elem(ar->rbuf, rlo, type), rhi - rlo, type, 0);
        }
        loom__shm_done(k);
        loom__shm_wait_all_done(k);
    }
    loom__coll_scratch_put(k->self, raw);
    return 0;
}

int loom__shm_reduce_scatter(struct loom_shm_call *k, const struct loom_coll_args *a)
{
    int n = k->n, me = k->me;
    struct loom_datatype *type = a->stype;
    size_t off[LOOM_SHM_MAX_RANKS + 1];
    off[0] = 0;
    for (int r = 0; r < n; r++)
        off[r + 1] = off[r] + loom__coll_count(a, LOOM_COLL_RECV, r);
    size_t mine = off[me + 1] - off[me];
    void *raw = NULL, *tmp = NULL;
    if (a->in_place) { /* our rbuf's first block is other members' input */
        tmp = loom__shm_scratch(k->self, mine, type, &raw);
        if (!tmp)
            return LOOM_ERR_NOMEM;
    }
    loom__shm_publish(k, a, NULL, 0);
    const void *x[LOOM_SHM_MAX_RANKS];
    for (int r = 0; r < n; r++)
        x[r] = input(k, a, r);
    fold(k, x, n - 1, tmp ? tmp : a->rbuf, off[me], mine, type, a->op);
    loom__shm_done(k);
    loom__shm_wait_all_done(k);
    if (tmp)
        loom__shm_copy(k, a->rbuf, mine, type, tmp, mine, type, 0);
    loom__coll_scratch_put(k->self, raw);
    return 0;
}

int loom__shm_scan(struct loom_shm_call *k, const struct loom_coll_args *a, int exclusive)
{
    int n = k->n, me = k->me;
    size_t count = a->scount;
    struct loom_datatype *type = a->stype;
    int last = exclusive ? me - 1 : me;
    void *raw = NULL, *tmp = NULL;
    /* in place our rbuf is our input, read by the members above us */
    if (a->in_place && last >= 0 && me < n - 1) {
        tmp = loom__shm_scratch(k->self, count, type, &raw);
        if (!tmp)
            return LOOM_ERR_NOMEM;
    }
    loom__shm_publish(k, a, NULL, 0);
    const void *x[LOOM_SHM_MAX_RANKS];
    for (int r = 0; r <= last; r++)
        x[r] = input(k, a, r);
    fold(k, x, last, tmp ? tmp : a->rbuf, 0, count, type, a->op);
    loom__shm_done(k);
    for (int r = me + 1; r < n; r++)
        loom__shm_wait_done(k, r);
    if (tmp)
        loom__shm_copy(k, a->rbuf, count, type, tmp, count, type, 0);
    loom__coll_scratch_put(k->self, raw);
    return 0;
}

/* ---- allgather(v), alltoall(v,w) ------------------------------------------------------- */

static size_t blk_bytes(struct loom_coll_blk b)
{
    return b.t ? loom__dt_stream_size(b.t, b.c) : 0;
}

void loom__shm_allgather(struct loom_shm_call *k, const struct loom_coll_args *a, int kind)
{
    int n = k->n, me = k->me;
    for (int j = 0; j < n; j++) {
        int r = (me + j) % n; /* our own block first, then the next members' */
        struct loom_coll_blk dst = loom__coll_rblock(kind, a, r);
        if (r == me) {
            if (!a->in_place)
                loom__shm_copy(k, dst.p, dst.c, dst.t, a->sbuf, a->scount, a->stype, 0);
            continue;
        }
        if (loom__shm_inline_get(k, r, dst.p, dst.c, dst.t))
            continue;
        const struct loom_coll_args *ar = loom__shm_args(k, r);
        if (ar->in_place) {
            struct loom_coll_blk src = loom__coll_rblock(kind, ar, r);
            loom__shm_copy(k, dst.p, dst.c, dst.t, src.p, src.c, src.t, 0);
        } else {
            loom__shm_copy(k, dst.p, dst.c, dst.t, ar->sbuf, ar->scount, ar->stype, 0);
        }
    }
    loom__shm_done(k);
    if (!loom__shm_inline_mine(k))
        loom__shm_wait_all_done(k); /* others read our buffers: stay until they are done */
}

void loom__shm_allgather_publish(struct loom_shm_call *k, struct loom_comm *c,
                                 const struct loom_coll_args *a, int kind)
{
    loom__shm_init(k, c);
    if (a->in_place) {
        struct loom_coll_blk mine = loom__coll_rblock(kind, a, k->me);
        loom__shm_inline_put(k, mine.p, mine.c, mine.t, LOOM_SHM_INLINE);
    } else {
        loom__shm_inline_put(k, a->sbuf, a->scount, a->stype, LOOM_SHM_INLINE);
    }
    loom__shm_publish(k, a, NULL, 0); /* release: orders the inline buffer before pub */
}

/* Alltoall (blocks of one size) with our send data inline: copy our block from r's packed
 * stream, where it follows r's blocks for 0..me-1. MPI has every block the same size, ours
 * included; a stream of another size (an erroneous program) is reported, not read past. */
static void block_from_stream(struct loom_shm_call *k, struct loom_coll_blk dst,
                              const char *stream, size_t bytes)
{
    size_t len = blk_bytes(dst);
    if (bytes != (size_t)k->n * len) {
        k->err = MPI_ERR_TRUNCATE;
        return;
    }
    loom__shm_copy(k, dst.p, dst.c, dst.t, stream + (size_t)k->me * len, len, MPI_BYTE, 0);
}

int loom__shm_alltoall(struct loom_shm_call *k, const struct loom_coll_args *a, int kind)
{
    int n = k->n, me = k->me;
    char *packed = NULL;
    /* small alltoall: our whole send data (our rbuf in place) goes inline, the others take
     * their blocks from there and we need not wait for them (shm.h) */
    int mine_inline = 0;
    if (kind == LOOM_COLL_ALLTOALL) {
        const void *src = a->in_place ? a->rbuf : a->sbuf;
        size_t c = (size_t)n * (size_t)(a->in_place ? a->rcount : a->scount);
        mine_inline = loom__shm_inline_put(k, src, c, a->in_place ? a->rtype : a->stype,
                                           SYMMETRIC_INLINE_MAX);
    }
    if (a->in_place && !mine_inline) {
        /* every block of our rbuf, packed in rank order: what the others read */
        size_t total = 0;
        for (int r = 0; r < n; r++)
            total += blk_bytes(loom__coll_rblock(kind, a, r));
        if (total > 0) {
            packed = loom__coll_scratch_get(k->self, total);
            if (!packed)
                return LOOM_ERR_NOMEM; /* our mark says "not inline": nobody reads it now */
        }
        size_t off = 0;
        for (int r = 0; r < n; r++) {
            struct loom_coll_blk b = loom__coll_rblock(kind, a, r);
            size_t len = blk_bytes(b);
            if (len)
                loom__dt_pack(packed + off, b.p, b.t, b.c, 0, len);
            off += len;
        }
    }
    loom__shm_publish(k, a, packed, 0);
    for (int j = 1; j <= n; j++) {
        int r = (me + j) % n; /* the next members first, our own block last */
        struct loom_coll_blk dst = loom__coll_rblock(kind, a, r);
        if (r == me) {
            if (!a->in_place) {
                struct loom_coll_blk src = loom__coll_sblock(kind, a, me);
                loom__shm_copy(k, dst.p, dst.c, dst.t, src.p, src.c, src.t, 0);
            }
            continue;
        }
        size_t bytes;
        const char *stream =
            kind == LOOM_COLL_ALLTOALL ? loom__shm_inline_stream(k, r, &bytes) : NULL;
        if (stream) { /* r may have returned: its arguments are not to be read */
            block_from_stream(k, dst, stream, bytes);
            continue;
        }
        const struct loom_coll_args *ar = loom__shm_args(k, r);
        if (!ar->in_place) {
            struct loom_coll_blk src = loom__coll_sblock(kind, ar, me);
            loom__shm_copy(k, dst.p, dst.c, dst.t, src.p, src.c, src.t, 0);
            continue;
        }
        /* r's block for us lies in its packed stream after its blocks for 0..me-1 */
        size_t off = 0;
        for (int i = 0; i < me; i++)
            off += blk_bytes(loom__coll_rblock(kind, ar, i));
        size_t len = blk_bytes(loom__coll_rblock(kind, ar, me));
        const char *src = (const char *)loom__shm_data(k, r) + off;
        loom__shm_copy(k, dst.p, dst.c, dst.t, src, len, MPI_BYTE, 0);
    }
    loom__shm_done(k);
    if (!mine_inline)
        loom__shm_wait_all_done(k); /* the others read our buffers */
    loom__coll_scratch_put(k->self, packed);
    return 0;
}
