/* rma/acc.c — the accumulate family (MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op and
 * their request forms): the origin walks the target's elements in the order of the target
 * type's stream and updates each with one atomic operation (atomic.c).
 *
 * The three buffers may each have any layout made of the one predefined type (the API layer
 * checked it). The origin's data is read, and the old values are written, through a small
 * packed buffer on the stack, a chunk at a time (loom__dt_pack / loom__dt_unpack at stream
 * offsets), so an accumulate of any size allocates nothing. In the packed stream a pair's int
 * follows its value directly; in memory it lies where the C struct puts it: each element is
 * moved between the two layouts on its way.
 *
 * Accumulates are never cut into tasks: the origin does them in program order, which is what
 * the default accumulate_ordering (rar,raw,war,waw) asks of accumulates from one origin. */
#include <stdint.h>
#include <string.h>
#include "coll/op.h"
#include "dt/dt.h"
#include "rma/rma.h"

enum { CHUNK = 4096, MAX_FOOT = 64 };

/* The walk of one accumulate. */
struct walk {
    struct loom_rma_elem e;
    /* origin: packed chunk [in_off, in_off + in_len) of its stream */
    const void *oaddr;
    const struct loom_datatype *ot;
    size_t ocount, in_off, in_len;
    /* result: packed chunk starting at out_off, out_fill bytes filled */
    void *raddr;
    const struct loom_datatype *rt;
    size_t rcount, out_off, out_fill;
    size_t total; /* bytes of the stream */
    size_t pos;   /* stream offset of the next element */
    _Alignas(max_align_t) unsigned char in[CHUNK];
    _Alignas(max_align_t) unsigned char out[CHUNK];
};

static inline char *at(const void *base, ptrdiff_t off)
{
    return (char *)((uintptr_t)base + (uintptr_t)off);
}

static size_t chunk_len(const struct walk *v, size_t off)
{
    size_t step = CHUNK / v->e.size * v->e.size;
    return v->total - off < step ? v->total - off : step;
}

/* Write the filled part of the result chunk to the result buffer. */
static void flush_out(struct walk *v)
{
    if (v->rt && v->out_fill)
        loom__dt_unpack(v->raddr, v->rt, v->rcount, at(v->out, -(ptrdiff_t)v->out_off),
                        v->out_off, v->out_fill);
    v->out_off += v->out_fill;
    v->out_fill = 0;
}

/* One target element at p. */
static void visit(struct walk *v, char *p)
{
    const struct loom_rma_elem *e = &v->e;
    _Alignas(max_align_t) unsigned char in[MAX_FOOT] = {0}, old[MAX_FOOT];
    if (v->ot) {
        if (v->pos >= v->in_off + v->in_len) {
            v->in_off = v->pos;
            v->in_len = chunk_len(v, v->pos);
            loom__dt_pack(at(v->in, -(ptrdiff_t)v->in_off), v->oaddr, v->ot, v->ocount,
                          v->in_off, v->in_len);
        }
        const unsigned char *s = v->in + (v->pos - v->in_off);
        if (e->pair) { /* packed: value then int; memory: the C struct */
            memcpy(in, s, e->size - sizeof(int));
            memcpy(in + e->boff, s + e->size - sizeof(int), sizeof(int));
        } else {
            memcpy(in, s, e->size);
        }
    }
    loom__rma_elem_update(e, p, in, old);
    if (v->rt) {
        if (v->out_fill + e->size > CHUNK)
            flush_out(v);
        unsigned char *d = v->out + v->out_fill;
        if (e->pair) {
            memcpy(d, old, e->size - sizeof(int));
            memcpy(d + e->size - sizeof(int), old + e->boff, sizeof(int));
        } else {
            memcpy(d, old, e->size);
        }
        v->out_fill += e->size;
    }
    v->pos += e->size;
}

/* Visit every element of count elements of t at base, in stream order. */
static void walk(struct walk *v, const struct loom_datatype *t, char *base, size_t count)
{
    size_t esize = v->e.size;
    /* elements of a dense type lie back to back when they have no holes of their own */
    int packed_like = !v->e.pair || v->e.foot == esize;
    for (size_t i = 0; i < count; i++) {
        char *inst = at(base, (ptrdiff_t)i * t->extent);
        if (t->size == esize) {
            visit(v, at(inst, t->true_lb));
        } else if (t->dense && packed_like) {
            char *p = at(inst, t->true_lb);
            for (size_t k = 0; k < t->size / esize; k++)
                visit(v, p + k * esize);
        } else {
            for (size_t b = 0; b < t->nblocks; b++) {
                ptrdiff_t d;
                size_t n;
                const struct loom_datatype *c;
                loom__dt_block(t, b, &d, &n, &c);
                walk(v, c, at(inst, d), n);
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

int loom__rma_elem_init(struct loom_rma_elem *e, const struct loom_datatype *et,
                        const struct loom_op *op)
{
    memset(e, 0, sizeof *e);
    e->kind = op->kind;
    e->size = et->size;
    e->foot = (size_t)et->true_extent;
    if (e->foot > MAX_FOOT)
        return -1; /* no predefined type is this large */
    const struct loom_op_elem *oe = elem_of(et);
    if (oe != NULL && oe->pair) {
        e->pair = 1;
        e->boff = oe->boff;
    }
    if (oe != NULL && !oe->pair) {
        e->integer = oe->kernel[LOOM_OP_BAND] != NULL && et != &loom_mpi_byte;
        e->real = et == &loom_mpi_double ? 8 : et == &loom_mpi_float ? 4 : 0;
    }
    if (op->kind == LOOM_OP_REPLACE || op->kind == LOOM_OP_NO_OP)
        return 0;
    if (oe == NULL || op->kind < 0 || op->kind > LOOM_OP_MAXLOC ||
        (e->kernel = oe->kernel[op->kind]) == NULL)
        return -1;
    return 0;
}

int loom__rma_accumulate(const void *oaddr, size_t ocount, const struct loom_datatype *ot,
                         void *raddr, size_t rcount, const struct loom_datatype *rt,
                         char *taddr, size_t tcount, const struct loom_datatype *tt,
                         const struct loom_op *op)
{
    const struct loom_datatype *et = loom__op_elem_type(tt);
    if (et == NULL || et->size == 0 || tcount == 0 || tt->size == 0)
        return 0;
    struct walk v;
    if (loom__rma_elem_init(&v.e, et, op) != 0)
        return LOOM_ERR_TYPE; /* the API layer checked the op against the type */
    if (op->kind == LOOM_OP_NO_OP)
        ot = NULL;
    if (tt->contig && (ot == NULL || ot->contig) && (rt == NULL || rt->contig) &&
        v.e.foot == v.e.size) {
        /* Every buffer one run of elements laid out as in the stream (the fetch-and-op and
         * small accumulate case): no packing, one update per element in place. */
        size_t n = loom__dt_stream_size(tt, tcount) / v.e.size;
        const char *in = ot ? at(oaddr, ot->true_lb) : NULL;
        char *out = rt ? at(raddr, rt->true_lb) : NULL;
        char *p = at(taddr, tt->true_lb);
        _Alignas(max_align_t) unsigned char elem[MAX_FOOT] = {0}, scratch[MAX_FOOT];
        for (size_t i = 0; i < n; i++, p += v.e.size) {
            if (in) /* the kernels read a typed, aligned element */
                memcpy(elem, in + i * v.e.size, v.e.size);
            loom__rma_elem_update(&v.e, p, elem, out ? (void *)(out + i * v.e.size) : scratch);
        }
        return 0;
    }
    v.oaddr = oaddr;
    v.ot = ot;
    v.ocount = ocount;
    v.in_off = v.in_len = 0;
    v.raddr = raddr;
    v.rt = rt;
    v.rcount = rcount;
    v.out_off = v.out_fill = 0;
    v.total = loom__dt_stream_size(tt, tcount);
    v.pos = 0;
    walk(&v, tt, taddr, tcount);
    flush_out(&v);
    return 0;
}
