/* dt/copy.c — the copy engine: moving any byte range of a message's packed stream between two
 * layouts, in one pass.
 *
 * A cursor walks the runs of contiguous bytes of `count` elements of a type in stream order.
 * It hands them out in groups — `reps` runs of `len` bytes, `stride` bytes apart — so that a
 * vector of a million ints is one group, copied by a tight loop, not a million steps of the
 * walk. The walk keeps one frame per level of non-dense type (block index b and instance j
 * inside the block); it never descends into a dense type, which is a run.
 *
 * A cursor starts at any stream offset without walking from the start: at each level the
 * block holding the offset is found by division (vector) or binary search over the prefix
 * sums (blocks), then the instance by division. So chunks of one message copied by several
 * threads each cost O(depth + log blocks) to start.
 *
 * Cursors live on the caller's stack and only read the types, so any number of threads may
 * copy with the same types at once. */
#include <stdint.h>
#include <string.h>
#include "dt/dt.h"

/* base + off, computed on integers: base may be MPI_BOTTOM (NULL) with absolute
 * displacements. */
static inline char *at(const void *base, ptrdiff_t off)
{
    return (char *)((uintptr_t)base + (uintptr_t)off);
}

struct frame {
    const struct loom_datatype *t; /* the type of this level */
    char *base;                    /* address of its current instance (its origin) */
    size_t b, j;                   /* current block, current instance in the block */
};

struct cursor {
    /* the current group: reps runs of len bytes, the current one at p, the next ones every
     * stride bytes; pos bytes of the current run are done */
    char *p;
    size_t len;
    ptrdiff_t stride;
    size_t reps, pos;
    int top;                       /* frames[top] is the deepest level */
    struct loom_datatype root;     /* count elements of the type: one block of count */
    struct frame frames[LOOM_DT_MAX_DEPTH + 1];
};

/* Load the next group of runs into c (c->reps == 0 when the stream is exhausted). */
static void refill(struct cursor *c)
{
    for (;;) {
        struct frame *f = &c->frames[c->top];
        const struct loom_datatype *t = f->t, *m;
        ptrdiff_t d;
        size_t n;
        if (f->b >= t->nblocks) {
            if (c->top == 0) {
                c->reps = 0;
                c->len = 0;
                return;
            }
            /* this instance is done: on to the next instance of the level above */
            f = &c->frames[--c->top];
            loom__dt_block(f->t, f->b, &d, &n, &m);
            if (++f->j >= n) {
                f->b++;
                f->j = 0;
            }
            continue;
        }
        loom__dt_block(t, f->b, &d, &n, &m);
        if (m->contig) {
            /* the whole block is one run; a vector's remaining blocks are one group */
            c->p = at(f->base, d + m->true_lb);
            c->len = n * m->size;
            if (t->kind == LOOM_DT_VECTOR) {
                c->stride = t->stride;
                c->reps = t->nblocks - f->b;
                f->b = t->nblocks;
            } else {
                c->stride = 0;
                c->reps = 1;
                f->b++;
            }
            return;
        }
        if (m->dense) {
            /* each remaining instance of the block is a run */
            c->p = at(f->base, d + (ptrdiff_t)f->j * m->extent + m->true_lb);
            c->len = m->size;
            c->stride = m->extent;
            c->reps = n - f->j;
            f->b++;
            f->j = 0;
            return;
        }
        struct frame *g = &c->frames[++c->top];
        g->t = m;
        g->base = at(f->base, d + (ptrdiff_t)f->j * m->extent);
        g->b = 0;
        g->j = 0;
    }
}

/* Start c at stream byte off (< count * t->size) of count elements of t at buf. */
static void cursor_init(struct cursor *c, const void *buf, const struct loom_datatype *t,
                        size_t count, size_t off)
{
    memset(&c->root, 0, sizeof(c->root));
    c->root.kind = LOOM_DT_VECTOR;
    c->root.nblocks = 1;
    c->root.blen = count;
    c->root.child = (struct loom_datatype *)t;
    c->root.size = count * t->size;
    c->top = 0;
    struct frame *f = &c->frames[0];
    f->t = &c->root;
    f->base = (char *)buf;
    size_t skip;
    for (;;) {
        const struct loom_datatype *m;
        ptrdiff_t d;
        size_t n;
        f->b = loom__dt_find_block(f->t, off);
        loom__dt_block(f->t, f->b, &d, &n, &m);
        off -= f->t->kind == LOOM_DT_VECTOR ? f->b * n * m->size : f->t->prefix[f->b];
        if (m->contig) {
            f->j = 0;
            skip = off;
            break;
        }
        f->j = off / m->size;
        off %= m->size;
        if (m->dense) {
            skip = off;
            break;
        }
        struct frame *g = &c->frames[++c->top];
        g->t = m;
        g->base = at(f->base, d + (ptrdiff_t)f->j * m->extent);
        f = g;
    }
    refill(c);
    c->pos = skip;
}

/* Mark n bytes of the current run done (n <= len - pos). */
static inline void step(struct cursor *c, size_t n)
{
    c->pos += n;
    if (c->pos == c->len) {
        c->pos = 0;
        c->p += c->stride;
        c->reps--;
    }
}

/* Copy k runs of len bytes, d and s advancing by their strides. Small runs of common sizes
 * get fixed-size copies the compiler turns into plain moves. */
static void copy_runs(char *d, ptrdiff_t ds, const char *s, ptrdiff_t ss, size_t len, size_t k)
{
#define RUNS(L)                                                                                \
    for (size_t i = 0; i < k; i++, d += ds, s += ss)                                           \
        memcpy(d, s, L);                                                                       \
    break;
    switch (len) {
    case 1:
        RUNS(1)
    case 2:
        RUNS(2)
    case 4:
        RUNS(4)
    case 8:
        RUNS(8)
    case 12:
        RUNS(12)
    case 16:
        RUNS(16)
    case 32:
        RUNS(32)
    default:
        RUNS(len)
    }
#undef RUNS
}

/* memcpy for the short pieces of the partial paths: the common int and double sizes become
 * plain moves instead of a call. */
static inline void copy_bytes(char *d, const char *s, size_t n)
{
    if (n == 4)
        memcpy(d, s, 4);
    else if (n == 8)
        memcpy(d, s, 8);
    else
        memcpy(d, s, n);
}

/* Copy len bytes from the contiguous src into the runs of c. */
static void scatter(struct cursor *c, const char *src, size_t len)
{
    while (len) {
        if (c->reps == 0)
            refill(c);
        if (c->pos || len < c->len) {
            size_t n = c->len - c->pos < len ? c->len - c->pos : len;
            copy_bytes(c->p + c->pos, src, n);
            src += n;
            len -= n;
            step(c, n);
            continue;
        }
        size_t k = len / c->len < c->reps ? len / c->len : c->reps;
        copy_runs(c->p, c->stride, src, (ptrdiff_t)c->len, c->len, k);
        c->p += (ptrdiff_t)k * c->stride;
        c->reps -= k;
        src += k * c->len;
        len -= k * c->len;
    }
}

/* Copy len bytes from the runs of c into the contiguous dst. */
static void gather(char *dst, struct cursor *c, size_t len)
{
    while (len) {
        if (c->reps == 0)
            refill(c);
        if (c->pos || len < c->len) {
            size_t n = c->len - c->pos < len ? c->len - c->pos : len;
            copy_bytes(dst, c->p + c->pos, n);
            dst += n;
            len -= n;
            step(c, n);
            continue;
        }
        size_t k = len / c->len < c->reps ? len / c->len : c->reps;
        copy_runs(dst, (ptrdiff_t)c->len, c->p, c->stride, c->len, k);
        c->p += (ptrdiff_t)k * c->stride;
        c->reps -= k;
        dst += k * c->len;
        len -= k * c->len;
    }
}

/* Copy len bytes from the runs of s into the runs of d. */
static void merge(struct cursor *d, struct cursor *s, size_t len)
{
    while (len) {
        if (d->reps == 0)
            refill(d);
        if (s->reps == 0)
            refill(s);
        if (d->pos == 0 && s->pos == 0 && d->len == s->len && len >= d->len) {
            /* runs of the same length on both sides: copy as many as both groups hold */
            size_t k = len / d->len;
            if (k > d->reps)
                k = d->reps;
            if (k > s->reps)
                k = s->reps;
            copy_runs(d->p, d->stride, s->p, s->stride, d->len, k);
            d->p += (ptrdiff_t)k * d->stride;
            s->p += (ptrdiff_t)k * s->stride;
            d->reps -= k;
            s->reps -= k;
            len -= k * d->len;
            continue;
        }
        size_t n = d->len - d->pos;
        if (s->len - s->pos < n)
            n = s->len - s->pos;
        if (len < n)
            n = len;
        copy_bytes(d->p + d->pos, s->p + s->pos, n);
        step(d, n);
        step(s, n);
        len -= n;
    }
}

/* 1 when count elements of t are one run starting at true_lb. */
static inline int flat(const struct loom_datatype *t, size_t count)
{
    return t->contig || (t->dense && count <= 1);
}

void loom__dt_copy(void *dst, const struct loom_datatype *dt, size_t dcount, const void *src,
                   const struct loom_datatype *st, size_t scount, size_t offset, size_t len)
{
    if (len == 0)
        return;
    int sflat = flat(st, scount), dflat = flat(dt, dcount);
    if (sflat && dflat) {
        memcpy(at(dst, dt->true_lb) + offset, at(src, st->true_lb) + offset, len);
    } else if (sflat) {
        struct cursor c;
        cursor_init(&c, dst, dt, dcount, offset);
        scatter(&c, at(src, st->true_lb) + offset, len);
    } else if (dflat) {
        struct cursor c;
        cursor_init(&c, src, st, scount, offset);
        gather(at(dst, dt->true_lb) + offset, &c, len);
    } else {
        struct cursor cd, cs;
        cursor_init(&cd, dst, dt, dcount, offset);
        cursor_init(&cs, src, st, scount, offset);
        merge(&cd, &cs, len);
    }
}

void loom__dt_pack(void *packed, const void *src, const struct loom_datatype *st, size_t scount,
                   size_t offset, size_t len)
{
    if (len == 0)
        return;
    if (flat(st, scount)) {
        memcpy((char *)packed + offset, at(src, st->true_lb) + offset, len);
        return;
    }
    struct cursor c;
    cursor_init(&c, src, st, scount, offset);
    gather((char *)packed + offset, &c, len);
}

void loom__dt_unpack(void *dst, const struct loom_datatype *dt, size_t dcount,
                     const void *packed, size_t offset, size_t len)
{
    if (len == 0)
        return;
    if (flat(dt, dcount)) {
        memcpy(at(dst, dt->true_lb) + offset, (const char *)packed + offset, len);
        return;
    }
    struct cursor c;
    cursor_init(&c, dst, dt, dcount, offset);
    scatter(&c, (const char *)packed + offset, len);
}
