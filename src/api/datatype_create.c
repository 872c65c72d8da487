/* api/datatype_create.c — the MPI datatype constructors: argument checks, then the dt layer
 * (dt/build.c, dt/subarray.c) builds the type.
 *
 * Error classes follow MPICH: a negative count is MPI_ERR_COUNT, a negative block length, a
 * NULL array or output, a bad order or bad subarray sizes MPI_ERR_ARG, ndims < 1
 * MPI_ERR_DIMS, a bad or freed type MPI_ERR_TYPE. Datatype calls have no communicator, so
 * errors go to MPI_COMM_WORLD's handler (MPI 3.1). Old types need not be committed. */
#include <stdlib.h>
#include "api/api.h"
#include "api/shared_impl.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* MPI_SUCCESS or the class of the error reported for old (named `what`). */
static int check_old(const char *fn, MPI_Datatype old, const char *what)
{
    const char *why = loom__dt_bad_handle(old);
    return why ? FAIL(fn, MPI_ERR_TYPE, "%s %s", what, why) : MPI_SUCCESS;
}

/* Report a failure of the dt layer. */
static int build_error(const char *fn, int rc)
{
    if (rc == LOOM_ERR_ARG)
        return FAIL(fn, MPI_ERR_ARG,
                    "the new datatype would be larger than the address space or nested "
                    "deeper than %d levels",
                    LOOM_DT_MAX_DEPTH);
    return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
}

/* Checks of count, the block lengths (the array blens, or blen for all when blens is NULL),
 * the displacements array (disps, non-NULL when count > 0), oldtype (when has_old; a struct
 * checks its types itself) and newtype, in the order of the arguments. */
static int check_common(const char *fn, int count, const int *blens, int blen,
                        const void *disps, int has_old, MPI_Datatype old,
                        MPI_Datatype *newtype)
{
    if (count < 0)
        return FAIL(fn, MPI_ERR_COUNT, "count %d is negative", count);
    if (count > 0 && disps == NULL)
        return FAIL(fn, MPI_ERR_ARG, "array of displacements is NULL");
    if (blens) {
        for (int i = 0; i < count; i++)
            if (blens[i] < 0)
                return FAIL(fn, MPI_ERR_ARG, "blocklengths[%d] = %d is negative", i, blens[i]);
    } else if (blen < 0) {
        return FAIL(fn, MPI_ERR_ARG, "blocklength %d is negative", blen);
    }
    if (has_old) {
        int rc = check_old(fn, old, "oldtype");
        if (rc)
            return rc;
    }
    if (newtype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "newtype is NULL");
    return MPI_SUCCESS;
}

/* Hand out *t (read after rc is known: the constructor wrote it) or report rc. */
static int finish(const char *fn, int rc, struct loom_datatype *const *t, MPI_Datatype *newtype)
{
    if (rc)
        return build_error(fn, rc);
    *newtype = *t;
    return MPI_SUCCESS;
}

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_contiguous");
    static const char fn[] = "MPI_Type_contiguous";
    int rc = check_common(fn, count, NULL, 0, "", 1, oldtype, newtype);
    if (rc)
        return rc;
    struct loom_datatype *t = NULL;
    return finish(fn, loom__dt_contiguous((size_t)count, oldtype, &t), &t, newtype);
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                    MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_vector");
    static const char fn[] = "MPI_Type_vector";
    int rc = check_common(fn, count, NULL, blocklength, "", 1, oldtype, newtype);
    if (rc)
        return rc;
    struct loom_datatype *t = NULL;
    rc = loom__dt_hvector((size_t)count, (size_t)blocklength, (ptrdiff_t)stride * oldtype->extent,
                          oldtype, MPI_COMBINER_VECTOR, &t);
    return finish(fn, rc, &t, newtype);
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_hvector");
    return loom__api_type_hvector("MPI_Type_create_hvector", count, blocklength, stride,
                                  oldtype, newtype);
}

int loom__api_type_hvector(const char *fn, int count, int blocklength, MPI_Aint stride,
                           MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int rc = check_common(fn, count, NULL, blocklength, "", 1, oldtype, newtype);
    if (rc)
        return rc;
    struct loom_datatype *t = NULL;
    rc = loom__dt_hvector((size_t)count, (size_t)blocklength, (ptrdiff_t)stride, oldtype,
                          MPI_COMBINER_HVECTOR, &t);
    return finish(fn, rc, &t, newtype);
}

/* The indexed family: block lengths from blens[] (NULL: blen for all), displacements from
 * idisp[] (in extents of old) or adisp[] (in bytes); for a struct, types[] (old unused). */
static int indexed(const char *fn, int count, const int *blens, int blen, const int *idisp,
                   const MPI_Aint *adisp, const MPI_Datatype *types, MPI_Datatype old,
                   int combiner, MPI_Datatype *newtype)
{
    const void *disps = idisp ? (const void *)idisp : (const void *)adisp;
    if (count > 0 && blens == NULL && combiner != MPI_COMBINER_INDEXED_BLOCK &&
        combiner != MPI_COMBINER_HINDEXED_BLOCK)
        return FAIL(fn, MPI_ERR_ARG, "array of blocklengths is NULL");
    int rc = check_common(fn, count, blens, blen, disps, combiner != MPI_COMBINER_STRUCT, old,
                          newtype);
    if (rc)
        return rc;
    if (combiner == MPI_COMBINER_STRUCT) {
        if (count > 0 && types == NULL)
            return FAIL(fn, MPI_ERR_ARG, "array of types is NULL");
        for (int i = 0; i < count; i++) {
            const char *why = loom__dt_bad_handle(types[i]);
            if (why)
                return FAIL(fn, MPI_ERR_TYPE, "types[%d] %s", i, why);
        }
    }
    size_t n = count > 0 ? (size_t)count : 1;
    size_t *bl = malloc(n * sizeof(*bl));
    ptrdiff_t *d = malloc(n * sizeof(*d));
    if (!bl || !d) {
        free(bl);
        free(d);
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    }
    for (int i = 0; i < count; i++) {
        bl[i] = (size_t)(blens ? blens[i] : blen);
        d[i] = idisp ? (ptrdiff_t)idisp[i] * old->extent : (ptrdiff_t)adisp[i];
    }
    /* a struct without members still is a struct: give the builder a non-NULL array */
    static struct loom_datatype *const no_types[1];
    struct loom_datatype *const *tp = NULL;
    if (combiner == MPI_COMBINER_STRUCT)
        tp = count > 0 ? (struct loom_datatype *const *)types : no_types;
    struct loom_datatype *t = NULL;
    rc = loom__dt_blocks((size_t)count, bl, d, tp, old, combiner, &t);
    free(bl);
    free(d);
    return finish(fn, rc, &t, newtype);
}

int MPI_Type_indexed(int count, const int blocklengths[], const int displacements[],
                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_indexed");
    return indexed("MPI_Type_indexed", count, blocklengths, 0, displacements, NULL, NULL,
                   oldtype, MPI_COMBINER_INDEXED, newtype);
}

int MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_hindexed");
    return loom__api_type_hindexed("MPI_Type_create_hindexed", count, blocklengths,
                                   displacements, oldtype, newtype);
}

int loom__api_type_hindexed(const char *fn, int count, const int blocklengths[],
                            const MPI_Aint displacements[], MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    return indexed(fn, count, blocklengths, 0, NULL, displacements, NULL, oldtype,
                   MPI_COMBINER_HINDEXED, newtype);
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int displacements[],
                                  MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_indexed_block");
    static const char fn[] = "MPI_Type_create_indexed_block";
    return indexed(fn, count, NULL, blocklength, displacements, NULL, NULL, oldtype,
                   MPI_COMBINER_INDEXED_BLOCK, newtype);
}

int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_hindexed_block");
    static const char fn[] = "MPI_Type_create_hindexed_block";
    return indexed(fn, count, NULL, blocklength, NULL, displacements, NULL, oldtype,
                   MPI_COMBINER_HINDEXED_BLOCK, newtype);
}

int MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                           const MPI_Datatype types[], MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_struct");
    return loom__api_type_struct("MPI_Type_create_struct", count, blocklengths, displacements,
                                 types, newtype);
}

int loom__api_type_struct(const char *fn, int count, const int blocklengths[],
                          const MPI_Aint displacements[], const MPI_Datatype types[],
                          MPI_Datatype *newtype)
{
    return indexed(fn, count, blocklengths, 0, NULL, displacements, types, NULL,
                   MPI_COMBINER_STRUCT, newtype);
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_resized");
    static const char fn[] = "MPI_Type_create_resized";
    int rc = check_old(fn, oldtype, "oldtype");
    if (rc)
        return rc;
    if (newtype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "newtype is NULL");
    struct loom_datatype *t = NULL;
    return finish(fn, loom__dt_resized(oldtype, (ptrdiff_t)lb, (ptrdiff_t)extent, &t), &t,
                  newtype);
}

int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                             const int starts[], int order, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_subarray");
    static const char fn[] = "MPI_Type_create_subarray";
    if (ndims < 1)
        return FAIL(fn, MPI_ERR_DIMS, "ndims %d is less than 1", ndims);
    if (sizes == NULL || subsizes == NULL || starts == NULL)
        return FAIL(fn, MPI_ERR_ARG, "array of %s is NULL",
                    sizes == NULL ? "sizes" : subsizes == NULL ? "subsizes" : "starts");
    for (int i = 0; i < ndims; i++) {
        if (sizes[i] < 1)
            return FAIL(fn, MPI_ERR_ARG, "sizes[%d] = %d is less than 1", i, sizes[i]);
        if (subsizes[i] < 0 || subsizes[i] > sizes[i])
            return FAIL(fn, MPI_ERR_ARG, "subsizes[%d] = %d is not in 0..sizes[%d] = %d", i,
                        subsizes[i], i, sizes[i]);
        if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
            return FAIL(fn, MPI_ERR_ARG,
                        "starts[%d] = %d is not in 0..sizes[%d] - subsizes[%d] = %d", i,
                        starts[i], i, i, sizes[i] - subsizes[i]);
    }
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return FAIL(fn, MPI_ERR_ARG, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN",
                    order);
    int rc = check_old(fn, oldtype, "oldtype");
    if (rc)
        return rc;
    if (newtype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "newtype is NULL");
    struct loom_datatype *t = NULL;
    return finish(fn, loom__dt_subarray(ndims, sizes, subsizes, starts, order, oldtype, &t), &t,
                  newtype);
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_dup");
    static const char fn[] = "MPI_Type_dup";
    int rc = check_old(fn, oldtype, "oldtype");
    if (rc)
        return rc;
    if (newtype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "newtype is NULL");
    struct loom_datatype *t = NULL;
    return finish(fn, loom__dt_dup(oldtype, &t), &t, newtype);
}
