/* rma/target.c — where an operation's target data lies, and whether all of it lies in the
 * target's window: the check that keeps a bad displacement from writing another rank's memory
 * (every rank's memory is in reach of every other in one process).
 *
 * count elements of type t at address a occupy [a + lo, a + hi), lo and hi from the type's
 * true bounds and extent (a negative extent lays the elements out downwards). The window's
 * part is [base, base + size) for the static flavors; for a dynamic window the displacement
 * is an address (MPI_Get_address of the target's memory) and the range must fall inside one
 * region the target attached. */
#include "dt/dt.h"
#include "rma/rma.h"

int loom__rma_span(const struct loom_datatype *t, size_t count, ptrdiff_t *lo, ptrdiff_t *hi)
{
    ptrdiff_t reach;
    if (__builtin_mul_overflow((ptrdiff_t)(count - 1), t->extent, &reach))
        return -1;
    ptrdiff_t first_lo = t->true_lb, first_hi = t->true_lb + t->true_extent;
    if (reach >= 0) {
        *lo = first_lo;
        return __builtin_add_overflow(first_hi, reach, hi) ? -1 : 0;
    }
    *hi = first_hi;
    return __builtin_add_overflow(first_lo, reach, lo) ? -1 : 0;
}

int loom__rma_target(struct loom_win *w, int r, MPI_Aint disp, size_t count,
                     const struct loom_datatype *t, char **addr)
{
    const struct loom_win_seg *s = &w->sh->seg[r];
    ptrdiff_t lo = 0, hi = 0;
    int empty = count == 0 || t->size == 0;
    if (!empty && loom__rma_span(t, count, &lo, &hi) != 0)
        return LOOM_ERR_RMA_RANGE;
    if (w->sh->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        *addr = (char *)(uintptr_t)disp;
        if (empty || s->remote) /* checked by the target's node process, which knows */
            return 0;
        uintptr_t a = (uintptr_t)disp;
        return loom__rma_in_region(&w->sh->seg[r], a + (uintptr_t)lo, a + (uintptr_t)hi)
                   ? 0
                   : LOOM_ERR_RMA_RANGE;
    }
    ptrdiff_t off;
    if (__builtin_mul_overflow((ptrdiff_t)disp, s->disp_unit, &off))
        return LOOM_ERR_RMA_RANGE;
    *addr = (char *)((uintptr_t)s->base + (uintptr_t)off); /* base may be NULL (size 0) */
    if (empty)
        return 0;
    ptrdiff_t from, to;
    if (__builtin_add_overflow(off, lo, &from) || __builtin_add_overflow(off, hi, &to))
        return LOOM_ERR_RMA_RANGE;
    return from >= 0 && to <= (ptrdiff_t)s->size ? 0 : LOOM_ERR_RMA_RANGE;
}
