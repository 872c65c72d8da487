/* rma/runs.c — the target layout of an operation on a member of another node process, as the
 * runs of memory it covers in stream order.
 *
 * The target node process has no copy of the origin's datatypes, so the origin sends where
 * each piece of the packed stream goes: runs of units at addresses of the target's memory.
 * For a put or a get a unit is a byte; for an accumulate it is one element of the operation's
 * predefined type, so that the target applies the operation to whole elements (a pair type
 * such as MPI_DOUBLE_INT has a hole, and its two members must stay one element). Adjacent runs
 * are merged: a contiguous target is one run, whatever its count. */
#include <stdlib.h>
#include "core/error.h"
#include "dt/dt.h"
#include "rma/rma.h"

/* Append n units at addr, merged into the last run when they follow it. */
static int emit(struct loom_rma_runs *R, uintptr_t addr, size_t n)
{
    if (n == 0)
        return 0;
    if (R->n > 0) {
        struct loom_rma_run *last = &R->v[R->n - 1];
        if (last->addr + last->n * R->step == addr) {
            last->n += n;
            return 0;
        }
    }
    if (R->n == R->cap) {
        size_t cap = R->cap ? 2 * R->cap : 16;
        struct loom_rma_run *v = realloc(R->v, cap * sizeof *v); /* freed by the caller */
        if (v == NULL)
            return LOOM_ERR_NOMEM;
        R->v = v;
        R->cap = cap;
    }
    R->v[R->n++] = (struct loom_rma_run){addr, n};
    return 0;
}

/* One instance of t at base. */
static int walk(struct loom_rma_runs *R, const struct loom_datatype *t, uintptr_t base,
                const struct loom_datatype *atom)
{
    if (t == atom)
        return emit(R, base, 1);
    if (t->dense) {
        if (t->size % R->unit != 0)
            return LOOM_ERR_TYPE; /* an element of the operation's type cut in two */
        return emit(R, base + (uintptr_t)t->true_lb, t->size / R->unit);
    }
    for (size_t b = 0; b < t->nblocks; b++) {
        ptrdiff_t d;
        size_t n;
        const struct loom_datatype *c;
        loom__dt_block(t, b, &d, &n, &c);
        for (size_t j = 0; j < n; j++) {
            int rc = walk(R, c, base + (uintptr_t)(d + (ptrdiff_t)j * c->extent), atom);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

int loom__rma_runs(struct loom_rma_runs *R, const struct loom_datatype *t, size_t count,
                   uintptr_t addr, const struct loom_datatype *atom)
{
    R->v = NULL;
    R->n = R->cap = 0;
    R->unit = atom ? atom->size : 1;
    R->step = atom ? (size_t)atom->extent : 1;
    /* an atom without holes is no different from its bytes in runs of whole elements */
    if (atom != NULL && atom->dense && atom->size == (size_t)atom->extent)
        atom = NULL;
    if (t->contig && atom == NULL) {
        if ((t->size * count) % R->unit != 0)
            return LOOM_ERR_TYPE;
        return emit(R, addr + (uintptr_t)t->true_lb, t->size * count / R->unit);
    }
    for (size_t i = 0; i < count; i++) {
        int rc = walk(R, t, addr + (uintptr_t)((ptrdiff_t)i * t->extent), atom);
        if (rc != 0)
            return rc;
    }
    return 0;
}
