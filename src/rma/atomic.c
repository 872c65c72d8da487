/* rma/atomic.c — what makes the accumulate family atomic: locks striped by address.
 *
 * The standard (MPI 4.1 section 12.7.1) makes concurrent accumulates on one location with the
 * same predefined type element-wise atomic, and a fetching read (MPI_Get_accumulate or
 * MPI_Fetch_and_op with MPI_NO_OP) and MPI_Compare_and_swap atomic with them. Every rank's
 * memory is in this process, so the origin updates the target's elements itself, holding the
 * lock of the stripe each element lies in: one of LOOM_RMA_STRIPES spin locks, chosen by the
 * 4 KiB page of the address (an element that straddles two pages takes both, in stripe order).
 *
 * Why locks and not an atomic instruction per element: an accumulate of many elements then
 * runs the operation's own loop (coll/op_kernels.c, vectorized by the compiler) over every
 * element of a page under one lock, at the speed of memory; one lock-prefixed instruction per
 * element costs about 20 cycles each, serialized, which measured 1.1 GB/s for a 1 MiB
 * MPI_SUM of doubles against about 30 GB/s with the locks on the same machine
 * (docs/rma.md). A single element (MPI_Fetch_and_op, MPI_Compare_and_swap) costs one lock
 * exchange and one release store, what an atomic instruction costs. Every accumulate takes
 * the locks, whatever its size, type or operation, so all atomic accesses to one element
 * agree; an element of any size (a long double complex, a padded pair) is as atomic as an int.
 *
 * A thread holds at most two stripes, taken in stripe order, and never waits for anything
 * else while it holds them, so the stripes cannot deadlock. Holding one orders the element
 * accesses it covers (acquire on taking, release on giving back), which is also what makes
 * a fetch-and-op ticket order what a program builds on it. */
#include <stdint.h>
#include <string.h>
#include "coll/op.h"
#include "core/lock.h"
#include "dt/dt.h"
#include "rma/rma.h"

struct loom_rma_stripe loom__rma_stripes[LOOM_RMA_STRIPES];
#define stripes loom__rma_stripes

static unsigned stripe_of(uintptr_t a)
{
    return loom__rma_stripe_of((const void *)a);
}

void loom__rma_stripes_take(struct loom_rma_held *h, const char *p, size_t n)
{
    unsigned a = stripe_of((uintptr_t)p), b = stripe_of((uintptr_t)p + (n ? n : 1) - 1);
    if (a > b) {
        unsigned t = a;
        a = b;
        b = t;
    }
    if (h->n && h->a == a && h->b == b)
        return; /* the run continues in the stripes already held */
    loom__rma_stripes_give(h);
    loom__lock(&stripes[a].l);
    if (b != a)
        loom__lock(&stripes[b].l);
    h->a = a;
    h->b = b;
    h->n = 1;
}

void loom__rma_stripes_give(struct loom_rma_held *h)
{
    if (!h->n)
        return;
    if (h->b != h->a)
        loom__unlock(&stripes[h->b].l);
    loom__unlock(&stripes[h->a].l);
    h->n = 0;
}

/* A typed operation wants its operands aligned; the window's memory and the program's buffers
 * need not be (a double at byte 3 of an MPI_BYTE window): such elements go through aligned
 * copies. */
static int aligned(const void *p, size_t align)
{
    return align <= 1 || (uintptr_t)p % align == 0;
}

void loom__rma_apply(const struct loom_rma_elem *e, char *p, const void *in, size_t n)
{
    switch (e->kind) {
    case LOOM_OP_NO_OP:
        return;
    case LOOM_OP_REPLACE:
        memmove(p, in, n * e->size);
        return;
    }
    if (aligned(p, e->align) && aligned(in, e->align)) {
        e->kernel(in, p, n, e->size, e->boff);
        return;
    }
    _Alignas(max_align_t) unsigned char a[LOOM_RMA_MAX_ELEM], b[LOOM_RMA_MAX_ELEM];
    for (size_t i = 0; i < n; i++) {
        memcpy(a, (const char *)in + i * e->size, e->size);
        memcpy(b, p + i * e->size, e->size);
        e->kernel(a, b, 1, e->size, e->boff);
        memcpy(p + i * e->size, b, e->size);
    }
}

void loom__rma_elem_update(const struct loom_rma_elem *e, char *p, const void *in, void *old)
{
    struct loom_rma_held h = {0};
    loom__rma_stripes_take(&h, p, e->foot);
    memcpy(old, p, e->foot);
    if (e->kind == LOOM_OP_REPLACE)
        memcpy(p, in, e->foot);
    else if (e->kind != LOOM_OP_NO_OP && aligned(p, e->align))
        e->kernel(in, p, 1, e->foot, e->boff);
    else if (e->kind != LOOM_OP_NO_OP) {
        _Alignas(max_align_t) unsigned char b[LOOM_RMA_MAX_ELEM];
        memcpy(b, p, e->foot);
        e->kernel(in, b, 1, e->foot, e->boff);
        memcpy(p, b, e->foot);
    }
    loom__rma_stripes_give(&h);
}

void loom__rma_compare_swap(char *p, const struct loom_datatype *t, const void *origin,
                            const void *compare, void *result)
{
    size_t n = t->size;
    struct loom_rma_held h = {0};
    loom__rma_stripes_take(&h, p, n);
    memcpy(result, p, n); /* the old value, whether it matched or not */
    if (memcmp(result, compare, n) == 0)
        memcpy(p, origin, n);
    loom__rma_stripes_give(&h);
}
