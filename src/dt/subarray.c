/* dt/subarray.c — MPI_Type_create_subarray as nested vectors.
 *
 * Dimensions are taken from the fastest varying one (the last in C order, the first in
 * Fortran order): a contiguous run of subsizes along it, then for each slower dimension a
 * vector of the previous type with the stride of that dimension. The result is moved to the
 * position of `starts` and resized to lb 0 and the extent of the whole array, as MPI 3.1
 * (4.1.3) defines it. The shift folds into the outer vector (build.c), so a subarray costs
 * no more levels than it has dimensions. */
#include <stdint.h>
#include "core/error.h"
#include "dt/dt.h"

int loom__dt_subarray(int ndims, const ptrdiff_t *sizes, const ptrdiff_t *subsizes,
                      const ptrdiff_t *starts, int order, struct loom_datatype *old,
                      struct loom_datatype **out)
{
    ptrdiff_t stride = old->extent; /* bytes between neighbours along the current dimension */
    ptrdiff_t disp = 0, move;
    struct loom_datatype *t = NULL, *next;
    int rc;
    for (int k = 0; k < ndims; k++) {
        int i = order == MPI_ORDER_C ? ndims - 1 - k : k;
        if (k == 0)
            rc = loom__dt_contiguous((size_t)subsizes[i], old, &next);
        else
            rc = loom__dt_hvector((size_t)subsizes[i], 1, stride, t, MPI_COMBINER_HVECTOR, &next);
        if (t)
            loom__dt_release(t);
        if (rc)
            return rc;
        t = next;
        if (__builtin_mul_overflow(starts[i], stride, &move) ||
            __builtin_add_overflow(disp, move, &disp) ||
            __builtin_mul_overflow(stride, sizes[i], &stride)) {
            loom__dt_release(t);
            return LOOM_ERR_ARG;
        }
    }
    size_t one = 1;
    rc = loom__dt_blocks(1, &one, &disp, NULL, t, MPI_COMBINER_HINDEXED, &next);
    loom__dt_release(t);
    if (rc)
        return rc;
    t = next;
    rc = loom__dt_resized(t, 0, stride, &next);
    loom__dt_release(t);
    if (rc)
        return rc;
    next->combiner = MPI_COMBINER_SUBARRAY;
    *out = next;
    return 0;
}
