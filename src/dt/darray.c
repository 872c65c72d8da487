/* dt/darray.c — MPI_Type_create_darray as the standard defines it: one cyclic(darg) type per
 * dimension, built on the type of the next faster dimension.
 *
 * Every distribution is a cyclic one: BLOCK with block size b (default ceil(gsize/psize)) is
 * cyclic(b) in which a process has at most one block, CYCLIC without argument is cyclic(1),
 * NONE is one block of the whole dimension on every process. cyclic(b) of a dimension of n
 * elements for grid coordinate c of p is the blocks of b elements starting at (c + k*p)*b
 * (the last one cut at n), resized to lb 0 and the extent of the whole dimension, n times the
 * extent of the type below; so the next slower dimension steps over whole rows. The process
 * grid is row major whatever the array order (MPI 4.1, 5.1.13). */
#include <stdlib.h>
#include "core/error.h"
#include "dt/dt.h"

/* cyclic(b) of n elements of old at grid coordinate c of p, resized to [0, n * extent). */
static int cyclic(ptrdiff_t b, ptrdiff_t n, ptrdiff_t c, ptrdiff_t p, struct loom_datatype *old,
                  struct loom_datatype **out)
{
    /* A block longer than the dimension is the whole dimension (on coordinate 0 only): the
     * same layout, and the products below stay within n * extent, which the caller bounded
     * (no overflow for any darg or grid). */
    if (b > n)
        b = n;
    ptrdiff_t ex = old->extent, first = c * b;
    ptrdiff_t full = 0, last = 0; /* whole blocks, elements of the cut last block */
    if (first >= n)
        first = 0; /* no data here: where the empty blocks sit does not matter */
    else {
        ptrdiff_t span = n - first; /* elements from my first block to the end */
        full = (span - 1) / (p * b) + 1;
        ptrdiff_t tail = span - (full - 1) * p * b; /* elements of my last block's range */
        if (tail < b) {
            last = tail;
            full--;
        }
    }
    /* with two blocks or more, p * b < n bounds the stride; with one it is not used */
    ptrdiff_t stride = full + (last > 0) > 1 ? p * b * ex : 0;
    struct loom_datatype *blocks = NULL, *t = NULL;
    int rc = loom__dt_hvector((size_t)full, (size_t)b, stride, old, MPI_COMBINER_HVECTOR,
                              &blocks);
    if (rc)
        return rc;
    struct loom_datatype *members[2] = {blocks, old};
    size_t blens[2] = {1, (size_t)last};
    ptrdiff_t disps[2] = {first * ex, first * ex + full * stride};
    rc = loom__dt_blocks(2, blens, disps, members, NULL, MPI_COMBINER_STRUCT, &t);
    loom__dt_release(blocks);
    if (rc)
        return rc;
    rc = loom__dt_resized(t, 0, n * ex, out);
    loom__dt_release(t);
    return rc;
}

int loom__dt_darray(int rank, int ndims, const ptrdiff_t *gsizes, const int *distribs,
                    const int *dargs, const int *psizes, int order, struct loom_datatype *old,
                    struct loom_datatype **out)
{
    /* coordinates of rank in the row-major grid */
    int *coords = malloc((size_t)ndims * sizeof(int)); /* freed below */
    if (!coords)
        return LOOM_ERR_NOMEM;
    for (int i = ndims - 1, r = rank; i >= 0; i--) {
        coords[i] = r % psizes[i];
        r /= psizes[i];
    }
    struct loom_datatype *t = old, *next;
    loom__dt_retain(t);
    for (int k = 0; k < ndims; k++) {
        int i = order == MPI_ORDER_C ? ndims - 1 - k : k;
        ptrdiff_t n = gsizes[i], p = psizes[i], c = coords[i], b;
        switch (distribs[i]) {
        case MPI_DISTRIBUTE_BLOCK:
            b = dargs[i] == MPI_DISTRIBUTE_DFLT_DARG ? (n + p - 1) / p : dargs[i];
            break;
        case MPI_DISTRIBUTE_CYCLIC:
            b = dargs[i] == MPI_DISTRIBUTE_DFLT_DARG ? 1 : dargs[i];
            break;
        default: /* MPI_DISTRIBUTE_NONE: the whole dimension everywhere */
            b = n;
            p = 1;
            c = 0;
            break;
        }
        int rc = cyclic(b, n, c, p, t, &next);
        loom__dt_release(t);
        if (rc) {
            free(coords);
            return rc;
        }
        t = next;
    }
    free(coords);
    t->combiner = MPI_COMBINER_DARRAY;
    *out = t;
    return 0;
}
