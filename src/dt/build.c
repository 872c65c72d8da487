/* dt/build.c — building datatypes (the layout tree of dt.h), their reference counts and the
 * death.
 *
 * Every constructor reduces to one of two shapes: a vector (count blocks of blen instances at
 * a constant stride) or a list of blocks (its own displacement, length and, for a struct,
 * type per block). While building, the layout is normalized so that copies stay fast and
 * memory stays proportional to what the user passed, never to the count:
 *   - blocks without data (length 0, or a member of size 0) are dropped (they still count for
 *     lb/ub, and a member of size 0 with a marked lb/ub still sets them);
 *   - consecutive blocks of the same member that follow each other in memory are merged;
 *   - a vector whose stride tiles its blocks is one block;
 *   - one block holding one instance of a (non-dense) vector becomes that vector, shifted.
 * lb/ub follow MPI 3.1: the smallest lb and largest ub of the blocks, taken only from marked
 * members (resized, subarray) when there are any; a struct rounds its extent up to the
 * largest alignment of its members unless a member is marked (the "epsilon" of 4.1.6). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/atomic.h"
#include "core/error.h"
#include "core/quarantine.h"
#include "dt/dt.h"

/* ---- life ---------------------------------------------------------------------------- */
/* A dead type's arrays are freed at once; its struct goes to the core quarantine (a stale
 * handle may still be checked). */

static void destroy(struct loom_datatype *t);

void loom__dt_retain(struct loom_datatype *t)
{
    if (t->predefined)
        return;
    /* relaxed: the caller already holds a reference, so the count cannot reach 0 meanwhile */
    loom__fetch_add_relaxed(&t->refs, 1);
}

void loom__dt_release(struct loom_datatype *t)
{
    if (t->predefined)
        return;
    /* acq_rel: the last releaser's destroy() sees every write of the earlier releasers */
    if (loom__fetch_sub_acq_rel(&t->refs, 1) == 1)
        destroy(t);
}

void loom__dt_free(struct loom_datatype *t)
{
    /* The user's handle is gone: later checks of it fail even while operations in flight or
     * parent types still hold the type. */
    t->obj.magic = LOOM_MAGIC_FREED;
    loom__dt_release(t);
}

static void destroy(struct loom_datatype *t)
{
    /* attributes were deleted by MPI_Type_free (api/type_attr.c) before the user's reference
     * went; the record of the constructor goes with the type */
    loom__dt_contents_release(t->contents);
    t->contents = NULL;
    if (t->layout_owner) {
        loom__dt_release(t->layout_owner);
    } else if (t->kind == LOOM_DT_VECTOR) {
        if (t->child) /* NULL for a type without data */
            loom__dt_release(t->child);
    } else if (t->kind == LOOM_DT_BLOCKS) {
        if (t->children) {
            for (size_t b = 0; b < t->nblocks; b++)
                loom__dt_release(t->children[b]);
        } else {
            loom__dt_release(t->child);
        }
        free((void *)t->disps); /* the one allocation of make_blocks_layout */
    }
    t->disps = NULL;
    t->blens = NULL;
    t->prefix = NULL;
    t->children = NULL;
    t->child = NULL;
    t->layout_owner = NULL;
    loom__quarantine_put(t, NULL);
}

/* A blank derived type (freed with destroy(), or with free() before it is published). */
static struct loom_datatype *new_type(int combiner)
{
    struct loom_datatype *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    loom__object_init(&t->obj, LOOM_MAGIC_DATATYPE);
    atomic_init(&t->refs, 1);
    t->combiner = combiner;
    t->align = 1;
    return t;
}

size_t loom__dt_footprint(const struct loom_datatype *t)
{
    if (t->layout_owner || t->kind != LOOM_DT_BLOCKS || t->predefined)
        return 0;
    size_t per = sizeof(ptrdiff_t) + 2 * sizeof(size_t) + (t->children ? sizeof(void *) : 0);
    return t->nblocks * per + sizeof(size_t);
}

/* ---- bounds -------------------------------------------------------------------------- */

struct bounds {
    int any, any_marked, any_data;
    ptrdiff_t lo, hi;   /* over all non-empty blocks */
    ptrdiff_t mlo, mhi; /* over blocks of marked members */
    ptrdiff_t tlo, thi; /* over blocks holding data (true bounds) */
};

/* Account for n instances of c at displacement d. */
static void bounds_add(struct bounds *B, ptrdiff_t d, size_t n, const struct loom_datatype *c)
{
    if (n == 0)
        return;
    ptrdiff_t span = (ptrdiff_t)(n - 1) * c->extent;
    ptrdiff_t smin = span < 0 ? span : 0, smax = span > 0 ? span : 0;
    ptrdiff_t lo = d + c->lb + smin, hi = d + c->lb + c->extent + smax;
    if (!B->any || lo < B->lo)
        B->lo = lo;
    if (!B->any || hi > B->hi)
        B->hi = hi;
    B->any = 1;
    if (c->marked) {
        if (!B->any_marked || lo < B->mlo)
            B->mlo = lo;
        if (!B->any_marked || hi > B->mhi)
            B->mhi = hi;
        B->any_marked = 1;
    }
    if (c->size) {
        ptrdiff_t tlo = d + c->true_lb + smin, thi = d + c->true_lb + c->true_extent + smax;
        if (!B->any_data || tlo < B->tlo)
            B->tlo = tlo;
        if (!B->any_data || thi > B->thi)
            B->thi = thi;
        B->any_data = 1;
    }
}

static void bounds_apply(struct loom_datatype *t, const struct bounds *B)
{
    if (B->any_marked) {
        t->lb = B->mlo;
        t->extent = B->mhi - B->mlo;
        t->marked = 1;
    } else if (B->any) {
        t->lb = B->lo;
        t->extent = B->hi - B->lo;
    }
    if (B->any_data) {
        t->true_lb = B->tlo;
        t->true_extent = B->thi - B->tlo;
    }
}

/* ---- layout -------------------------------------------------------------------------- */

/* dense, contig and depth from the finished layout. */
static void set_flags(struct loom_datatype *t)
{
    int dense = 1, maxdepth = 0;
    if (t->kind == LOOM_DT_VECTOR && t->nblocks > 1) {
        /* a tiling vector was made one block, so blocks of a vector leave gaps */
        dense = 0;
        maxdepth = t->child->depth;
    } else {
        ptrdiff_t end = 0;
        for (size_t b = 0; b < t->nblocks; b++) {
            ptrdiff_t d;
            size_t n;
            const struct loom_datatype *c;
            loom__dt_block(t, b, &d, &n, &c);
            if (c->depth > maxdepth)
                maxdepth = c->depth;
            ptrdiff_t start = d + c->true_lb;
            if (!(c->contig || (c->dense && n == 1)) || (b > 0 && start != end))
                dense = 0;
            end = start + (ptrdiff_t)(n * c->size);
        }
    }
    t->dense = dense;
    t->contig = dense && (ptrdiff_t)t->size == t->extent;
    t->depth = dense ? 0 : 1 + maxdepth;
}

/* Finish t (flags) and hand it out; a type nested too deep for the copy cursor is refused. */
static int publish(struct loom_datatype *t, struct loom_datatype **out)
{
    set_flags(t);
    if (t->depth > LOOM_DT_MAX_DEPTH) {
        loom__dt_release(t);
        return LOOM_ERR_ARG;
    }
    *out = t;
    return 0;
}

/* Make t's layout one block of n instances of c at d (n >= 1, c->size > 0). */
static void set_single(struct loom_datatype *t, ptrdiff_t d, size_t n, struct loom_datatype *c)
{
    t->kind = LOOM_DT_VECTOR;
    t->nblocks = 1;
    if (n == 1 && c->kind == LOOM_DT_VECTOR && !c->dense) {
        /* one instance of a vector: that vector, shifted by d */
        t->nblocks = c->nblocks;
        t->blen = c->blen;
        t->disp0 = d + c->disp0;
        t->stride = c->stride;
        c = c->child;
    } else {
        t->blen = n;
        t->disp0 = d;
        t->stride = 0;
    }
    t->child = c;
    loom__dt_retain(c);
}

/* multiply and add without overflow of PTRDIFF_MAX; 0 or LOOM_ERR_ARG */
static int grow(size_t *acc, size_t a, size_t b)
{
    size_t p;
    if (__builtin_mul_overflow(a, b, &p) || __builtin_add_overflow(*acc, p, acc) ||
        *acc > (size_t)PTRDIFF_MAX)
        return LOOM_ERR_ARG;
    return 0;
}

int loom__dt_hvector(size_t count, size_t blen, ptrdiff_t stride, struct loom_datatype *old,
                     int combiner, struct loom_datatype **out)
{
    size_t n = 0, size = 0, nbasic = 0;
    ptrdiff_t last = 0;
    if (grow(&n, count, blen) || grow(&size, n, old->size) || grow(&nbasic, n, old->nbasic) ||
        (count && __builtin_mul_overflow((ptrdiff_t)(count - 1), stride, &last)))
        return LOOM_ERR_ARG;
    struct loom_datatype *t = new_type(combiner);
    if (!t)
        return LOOM_ERR_NOMEM;
    struct bounds B = {0};
    if (count) {
        bounds_add(&B, 0, blen, old);
        bounds_add(&B, last, blen, old);
    }
    bounds_apply(t, &B);
    t->size = size;
    t->nbasic = nbasic;
    t->basic = old->basic;
    t->align = old->align;
    t->kind = LOOM_DT_VECTOR;
    if (size == 0) {
        t->nblocks = 0;
    } else if (count == 1 || stride == (ptrdiff_t)blen * old->extent) {
        set_single(t, 0, count * blen, old);
    } else {
        t->nblocks = count;
        t->blen = blen;
        t->disp0 = 0;
        t->stride = stride;
        t->child = old;
        loom__dt_retain(old);
    }
    return publish(t, out);
}

int loom__dt_contiguous(size_t count, struct loom_datatype *old, struct loom_datatype **out)
{
    return loom__dt_hvector(count, 1, old->extent, old, MPI_COMBINER_CONTIGUOUS, out);
}

/* Give t the BLOCKS layout of the k data blocks (d[], n[], c[]); all members the same when
 * same. 0 or LOOM_ERR_NOMEM. The arrays are one allocation, starting at t->disps, freed by
 * destroy(). */
static int make_blocks_layout(struct loom_datatype *t, size_t k, const ptrdiff_t *d,
                              const size_t *n, struct loom_datatype **c, int same)
{
    size_t bytes = k * sizeof(ptrdiff_t) + (2 * k + 1) * sizeof(size_t) +
                   (same ? 0 : k * sizeof(struct loom_datatype *));
    char *mem = malloc(bytes);
    if (!mem)
        return LOOM_ERR_NOMEM;
    ptrdiff_t *disps = (ptrdiff_t *)mem;
    size_t *blens = (size_t *)(disps + k);
    size_t *prefix = blens + k;
    struct loom_datatype **children = (struct loom_datatype **)(prefix + k + 1);
    size_t at = 0;
    for (size_t b = 0; b < k; b++) {
        disps[b] = d[b];
        blens[b] = n[b];
        prefix[b] = at;
        at += n[b] * c[b]->size;
        if (!same) {
            children[b] = c[b];
            loom__dt_retain(c[b]);
        }
    }
    prefix[k] = at;
    t->kind = LOOM_DT_BLOCKS;
    t->nblocks = k;
    t->disps = disps;
    t->blens = blens;
    t->prefix = prefix;
    if (same) {
        t->child = c[0];
        loom__dt_retain(c[0]);
    } else {
        t->children = children;
    }
    return 0;
}

int loom__dt_blocks(size_t count, const size_t *blens, const ptrdiff_t *disps,
                    struct loom_datatype *const *types, struct loom_datatype *old, int combiner,
                    struct loom_datatype **out)
{
    struct bounds B = {0};
    size_t size = 0, nbasic = 0, align = 1, k = 0;
    const struct loom_datatype *basic = types ? NULL : old->basic;
    int basic_mixed = 0;
    for (size_t b = 0; b < count; b++) {
        struct loom_datatype *c = types ? types[b] : old;
        if (blens[b] == 0)
            continue;
        if (c->align > align)
            align = c->align;
        bounds_add(&B, disps[b], blens[b], c);
        if (grow(&size, blens[b], c->size) || grow(&nbasic, blens[b], c->nbasic))
            return LOOM_ERR_ARG;
        if (types && c->size) {
            if (!basic_mixed && (basic == NULL || basic == c->basic) && c->basic)
                basic = c->basic;
            else
                basic_mixed = 1;
        }
        k++;
    }
    if (!types && old->align > align)
        align = old->align;
    if (basic_mixed)
        basic = NULL;

    /* the data blocks, merged where one continues the previous one */
    ptrdiff_t *d = malloc((k ? k : 1) * sizeof(*d));
    size_t *n = malloc((k ? k : 1) * sizeof(*n));
    struct loom_datatype **c = malloc((k ? k : 1) * sizeof(*c));
    struct loom_datatype *t = new_type(combiner);
    int rc = LOOM_ERR_NOMEM;
    if (!d || !n || !c || !t)
        goto out_free;
    size_t m = 0;
    int same = 1;
    for (size_t b = 0; b < count; b++) {
        struct loom_datatype *cb = types ? types[b] : old;
        if (blens[b] == 0 || cb->size == 0)
            continue;
        if (m > 0 && c[m - 1] == cb && disps[b] == d[m - 1] + (ptrdiff_t)n[m - 1] * cb->extent) {
            n[m - 1] += blens[b];
            continue;
        }
        d[m] = disps[b];
        n[m] = blens[b];
        c[m] = cb;
        if (c[m] != c[0])
            same = 0;
        m++;
    }

    bounds_apply(t, &B);
    if (types && !t->marked && align > 1 && t->extent % (ptrdiff_t)align)
        t->extent += (ptrdiff_t)align - t->extent % (ptrdiff_t)align;
    t->size = size;
    t->nbasic = nbasic;
    t->basic = basic;
    t->align = align;
    rc = 0;
    if (m == 0) {
        t->kind = LOOM_DT_VECTOR;
        t->nblocks = 0;
    } else if (m == 1) {
        set_single(t, d[0], n[0], c[0]);
    } else {
        rc = make_blocks_layout(t, m, d, n, c, same);
    }
    if (rc == 0) {
        rc = publish(t, out);
        t = NULL;
    }
out_free:
    free(t);
    free(d);
    free(n);
    free(c);
    return rc;
}

/* A new type sharing old's layout (its arrays and members), holding one reference on the
 * type that owns them. */
static struct loom_datatype *share_layout(struct loom_datatype *old, int combiner)
{
    struct loom_datatype *t = new_type(combiner);
    if (!t)
        return NULL;
    t->size = old->size;
    t->lb = old->lb;
    t->extent = old->extent;
    t->true_lb = old->true_lb;
    t->true_extent = old->true_extent;
    t->dense = old->dense;
    t->marked = old->marked;
    t->align = old->align;
    t->basic = old->basic;
    t->nbasic = old->nbasic;
    t->depth = old->depth;
    t->kind = old->kind;
    t->nblocks = old->nblocks;
    t->blen = old->blen;
    t->disp0 = old->disp0;
    t->stride = old->stride;
    t->blens = old->blens;
    t->disps = old->disps;
    t->prefix = old->prefix;
    t->child = old->child;
    t->children = old->children;
    t->layout_owner = old->layout_owner ? old->layout_owner : old;
    loom__dt_retain(t->layout_owner);
    t->contig = old->contig;
    return t;
}

int loom__dt_resized(struct loom_datatype *old, ptrdiff_t lb, ptrdiff_t extent,
                     struct loom_datatype **out)
{
    struct loom_datatype *t = share_layout(old, MPI_COMBINER_RESIZED);
    if (!t)
        return LOOM_ERR_NOMEM;
    t->lb = lb;
    t->extent = extent;
    t->marked = 1;
    t->contig = t->dense && (ptrdiff_t)t->size == extent;
    *out = t;
    return 0;
}

int loom__dt_dup(struct loom_datatype *old, struct loom_datatype **out)
{
    struct loom_datatype *t = share_layout(old, MPI_COMBINER_DUP);
    if (!t)
        return LOOM_ERR_NOMEM;
    t->committed = old->committed;
    *out = t;
    return 0;
}

int loom__dt_clone(struct loom_datatype *old, struct loom_datatype **out)
{
    struct loom_datatype *t = share_layout(old, old->combiner);
    if (!t)
        return LOOM_ERR_NOMEM;
    t->committed = old->committed;
    t->contents = old->contents;
    if (t->contents) /* relaxed: old's reference keeps the record alive meanwhile */
        loom__fetch_add_relaxed(&t->contents->refs, 1);
    *out = t;
    return 0;
}
