/* rma/acc.c — the accumulate family (MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op and
 * their request forms): the origin walks the target's elements in the order of the target
 * type's stream, as runs of consecutive elements, and updates each run a page at a time
 * under the stripes it lies in (atomic.c) with the operation's own loop.
 *
 * The three buffers may each have any layout made of the one predefined type (the API layer
 * checked it). A contiguous origin or result buffer is used in place; any other is read or
 * written through a small packed buffer on the stack, a chunk at a time (loom__dt_pack /
 * loom__dt_unpack at stream offsets), so an accumulate of any size allocates nothing. A
 * padded pair (MPI_SHORT_INT: an int 4 bytes after a short) has its int right after its value
 * in the packed stream but where the C struct puts it in memory: such elements are updated one
 * at a time and moved between the two layouts on the way.
 *
 * Accumulates are never cut into tasks: the origin does them in program order, which is what
 * the default accumulate_ordering (rar,raw,war,waw) asks of accumulates from one origin. */
#include <stdint.h>
#include <string.h>
#include "coll/op.h"
#include "dt/dt.h"
#include "rma/rma.h"

enum { CHUNK = 4096, PAGE = LOOM_RMA_PAGE };

/* One accumulate in progress. */
struct acc {
    struct loom_rma_elem e;
    int holey;                  /* elements have holes (a padded pair): one at a time */
    struct loom_rma_held held;  /* the stripes held now */
    size_t pos;                 /* stream offset of the next element */
    /* origin: in place (`in_place`: its stream byte 0) or a packed chunk [in_off, in_end) */
    const void *oaddr;
    const struct loom_datatype *ot;
    size_t ocount, in_off, in_end;
    const char *in_place;
    /* result: in place, or a packed chunk from out_off with out_fill bytes */
    void *raddr;
    const struct loom_datatype *rt;
    size_t rcount, out_off, out_fill;
    char *out_place;
    size_t total;               /* bytes of the stream */
    _Alignas(max_align_t) unsigned char in[CHUNK];
    _Alignas(max_align_t) unsigned char out[CHUNK];
};

static inline char *at(const void *base, ptrdiff_t off)
{
    return (char *)((uintptr_t)base + (uintptr_t)off);
}

/* The origin's data for the elements from a->pos: a pointer to it and how many elements it
 * holds there (at most want). */
static const char *origin_run(struct acc *a, size_t want, size_t *got)
{
    if (a->ot == NULL) { /* MPI_NO_OP: nothing is read */
        *got = want;
        return NULL;
    }
    if (a->in_place) {
        *got = want;
        return a->in_place + a->pos;
    }
    if (a->pos >= a->in_end) {
        size_t step = CHUNK / a->e.size * a->e.size;
        a->in_off = a->pos;
        a->in_end = a->pos + (a->total - a->pos < step ? a->total - a->pos : step);
        loom__dt_pack(at(a->in, -(ptrdiff_t)a->in_off), a->oaddr, a->ot, a->ocount, a->in_off,
                      a->in_end - a->in_off);
    }
    size_t have = (a->in_end - a->pos) / a->e.size;
    *got = have < want ? have : want;
    return (const char *)a->in + (a->pos - a->in_off);
}

/* Write the filled part of the result chunk to the result buffer. */
static void flush_out(struct acc *a)
{
    if (a->out_fill)
        loom__dt_unpack(a->raddr, a->rt, a->rcount, at(a->out, -(ptrdiff_t)a->out_off),
                        a->out_off, a->out_fill);
    a->out_off += a->out_fill;
    a->out_fill = 0;
}

/* Where the old values of the elements from a->pos go, room for at most want. */
static char *result_run(struct acc *a, size_t want, size_t *got)
{
    *got = want;
    if (a->rt == NULL)
        return NULL;
    if (a->out_place)
        return a->out_place + a->pos;
    if (a->out_fill + a->e.size > CHUNK)
        flush_out(a);
    size_t room = (CHUNK - a->out_fill) / a->e.size;
    *got = room < want ? room : want;
    return (char *)a->out + a->out_fill;
}

/* k consecutive elements at p, laid out as in the stream. */
static void run(struct acc *a, char *p, size_t k)
{
    size_t es = a->e.size;
    while (k > 0) {
        /* the elements up to the end of p's page (one, if it straddles two) */
        size_t m = (PAGE - (uintptr_t)p % PAGE) / es;
        if (m == 0)
            m = 1;
        if (m > k)
            m = k;
        const char *in = origin_run(a, m, &m);
        char *out = result_run(a, m, &m);
        loom__rma_stripes_take(&a->held, p, m * es);
        if (out)
            memcpy(out, p, m * es);
        loom__rma_apply(&a->e, p, in, m);
        if (out && !a->out_place)
            a->out_fill += m * es;
        a->pos += m * es;
        p += m * es;
        k -= m;
    }
}

/* One padded pair at p: packed value + int in the stream, the C struct in memory. */
static void holey(struct acc *a, char *p)
{
    const struct loom_rma_elem *e = &a->e;
    size_t v = e->size - sizeof(int), one;
    _Alignas(max_align_t) unsigned char in[LOOM_RMA_MAX_ELEM] = {0}, old[LOOM_RMA_MAX_ELEM];
    const char *s = origin_run(a, 1, &one);
    if (s) {
        memcpy(in, s, v);
        memcpy(in + e->boff, s + v, sizeof(int));
    }
    char *d = result_run(a, 1, &one);
    loom__rma_stripes_give(&a->held); /* the element takes its own stripes */
    loom__rma_elem_update(e, p, in, old);
    if (d) {
        memcpy(d, old, v);
        memcpy(d + v, old + e->boff, sizeof(int));
        if (!a->out_place)
            a->out_fill += e->size;
    }
    a->pos += e->size;
}

/* Every element of count elements of t at base, in stream order, as runs. */
static void walk(struct acc *a, const struct loom_datatype *t, char *base, size_t count)
{
    size_t es = a->e.size;
    if (t->contig && !a->holey) { /* all of it is one run */
        run(a, at(base, t->true_lb), count * (t->size / es));
        return;
    }
    for (size_t i = 0; i < count; i++) {
        char *inst = at(base, (ptrdiff_t)i * t->extent);
        if (t->size == es && a->holey) {
            holey(a, at(inst, t->true_lb));
        } else if (t->size == es || (t->dense && !a->holey)) {
            run(a, at(inst, t->true_lb), t->size / es);
        } else {
            for (size_t b = 0; b < t->nblocks; b++) {
                ptrdiff_t d;
                size_t n;
                const struct loom_datatype *c;
                loom__dt_block(t, b, &d, &n, &c);
                walk(a, c, at(inst, d), n);
            }
        }
    }
}

/* The kernels of recently used element types, by address (a lookup scans a table of every
 * predefined type): a hint read and written relaxed, checked against the type it names. */
enum { CACHE = 64 };
static _Atomic(const struct loom_op_elem *) elem_cache[CACHE];

static const struct loom_op_elem *elem_of(const struct loom_datatype *et)
{
    _Atomic(const struct loom_op_elem *) *slot = &elem_cache[((uintptr_t)et / 64) % CACHE];
    const struct loom_op_elem *oe = atomic_load_explicit(slot, memory_order_relaxed);
    if (oe != NULL && oe->type == et)
        return oe;
    oe = loom__op_elem(et);
    if (oe != NULL)
        atomic_store_explicit(slot, oe, memory_order_relaxed);
    return oe;
}

static inline int elem_init(struct loom_rma_elem *e, const struct loom_datatype *et,
                            const struct loom_op *op)
{
    e->kind = op->kind;
    e->size = et->size;
    e->foot = (size_t)et->true_extent;
    e->align = et->align ? et->align : 1;
    e->pair = 0;
    e->boff = 0;
    e->kernel = NULL;
    if (e->foot > LOOM_RMA_MAX_ELEM || e->size == 0)
        return -1; /* no predefined type is this large */
    const struct loom_op_elem *oe = elem_of(et);
    if (oe != NULL && oe->pair) {
        e->pair = 1;
        e->boff = oe->boff;
    }
    if (op->kind == LOOM_OP_REPLACE || op->kind == LOOM_OP_NO_OP)
        return 0;
    if (oe == NULL || op->kind < 0 || op->kind > LOOM_OP_MAXLOC ||
        (e->kernel = oe->kernel[op->kind]) == NULL)
        return -1;
    return 0;
}

int loom__rma_acc_contig(const struct loom_datatype *t, const struct loom_op *op, char *p,
                         const void *in, void *out, size_t n)
{
    struct loom_rma_elem e;
    if (elem_init(&e, t, op) != 0 || e.foot != e.size)
        return -1;
    size_t bytes = n * e.size;
    if (bytes == 8 && e.align <= 8 && (uintptr_t)p % 8 == 0 &&
        loom__rma_stripe_of(p) == loom__rma_stripe_of(p + 7)) {
        /* a word (a counter, a ticket): its copies and its stripe inline */
        uint64_t v = 0, old;
        if (in && op->kind != LOOM_OP_NO_OP)
            memcpy(&v, in, 8);
        struct loom_lock *l = &loom__rma_stripes[loom__rma_stripe_of(p)].l;
        loom__lock(l);
        memcpy(&old, p, 8);
        if (e.kind == LOOM_OP_REPLACE)
            memcpy(p, &v, 8);
        else if (e.kind != LOOM_OP_NO_OP)
            e.kernel(&v, p, n, e.size, e.boff);
        loom__unlock(l);
        if (out)
            memcpy(out, &old, 8);
        return 0;
    }
    if (bytes <= LOOM_RMA_MAX_ELEM) { /* one element, or a few, with aligned copies */
        _Alignas(max_align_t) unsigned char a[LOOM_RMA_MAX_ELEM];
        if (in && op->kind != LOOM_OP_NO_OP)
            memcpy(a, in, bytes);
        struct loom_rma_held h = {0};
        loom__rma_stripes_take(&h, p, bytes);
        if (out)
            memcpy(out, p, bytes);
        loom__rma_apply(&e, p, a, n);
        loom__rma_stripes_give(&h);
        return 0;
    }
    struct loom_rma_held h = {0};
    while (n > 0) { /* a page at a time under its stripe */
        size_t m = (PAGE - (uintptr_t)p % PAGE) / e.size;
        if (m == 0)
            m = 1;
        if (m > n)
            m = n;
        loom__rma_stripes_take(&h, p, m * e.size);
        if (out) {
            memcpy(out, p, m * e.size);
            out = (char *)out + m * e.size;
        }
        loom__rma_apply(&e, p, in, m);
        if (in)
            in = (const char *)in + m * e.size;
        p += m * e.size;
        n -= m;
    }
    loom__rma_stripes_give(&h);
    return 0;
}

int loom__rma_accumulate(const void *oaddr, size_t ocount, const struct loom_datatype *ot,
                         void *raddr, size_t rcount, const struct loom_datatype *rt,
                         char *taddr, size_t tcount, const struct loom_datatype *tt,
                         const struct loom_op *op)
{
    const struct loom_datatype *et = loom__op_elem_type(tt);
    if (et == NULL || tcount == 0 || tt->size == 0)
        return 0;
    struct acc a;
    if (elem_init(&a.e, et, op) != 0)
        return LOOM_ERR_TYPE; /* the API layer checked the op against the type */
    a.holey = a.e.pair && a.e.foot != a.e.size;
    a.held = (struct loom_rma_held){0};
    a.pos = 0;
    a.total = loom__dt_stream_size(tt, tcount);
    a.oaddr = oaddr;
    a.ot = op->kind == LOOM_OP_NO_OP ? NULL : ot;
    a.ocount = ocount;
    a.in_off = a.in_end = 0;
    a.in_place = a.ot && a.ot->contig && !a.holey ? at(oaddr, a.ot->true_lb) : NULL;
    a.raddr = raddr;
    a.rt = rt;
    a.rcount = rcount;
    a.out_off = a.out_fill = 0;
    a.out_place = rt && rt->contig && !a.holey ? at(raddr, rt->true_lb) : NULL;
    walk(&a, tt, taddr, tcount);
    loom__rma_stripes_give(&a.held);
    if (a.rt && !a.out_place)
        flush_out(&a);
    return 0;
}
