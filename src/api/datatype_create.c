/* api/datatype_create.c — the MPI datatype constructors: argument checks, then the dt layer
 * (dt/build.c, dt/subarray.c) builds the type.
 *
 * Error classes follow MPICH: a negative count is MPI_ERR_COUNT, a negative block length, a
 * NULL array or output, a bad order or bad subarray sizes MPI_ERR_ARG, ndims < 1
 * MPI_ERR_DIMS, a bad or freed type MPI_ERR_TYPE. Datatype calls have no communicator, so
 * errors go to MPI_COMM_WORLD's handler (MPI 3.1). Old types need not be committed. */
#include <limits.h>
#include <stdlib.h>
#include "api/api.h"
#include "api/shared_impl.h"
#include "api/type_attr.h"
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

/* A record for the constructor's arguments (dt/contents.c), to be filled by the caller; on
 * NULL, MPI_ERR_NO_MEM has been reported into *rc. */
static struct loom_dt_contents *record(const char *fn, int combiner, long long ni, int na,
                                       int nd, int *rc)
{
    /* the envelope gives the counts as ints (get_envelope_c is not provided) */
    if (ni > INT_MAX) {
        *rc = FAIL(fn, MPI_ERR_ARG,
                   "the constructor's %lld integer arguments exceed what "
                   "MPI_Type_get_envelope can count",
                   ni);
        return NULL;
    }
    struct loom_dt_contents *c = loom__dt_contents_new(combiner, (int)ni, na, nd);
    if (!c)
        *rc = loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    return c;
}

/* Hand out *t (read after rc is known: the constructor wrote it) with its record c attached,
 * or report rc (c is then dropped). */
static int finish(const char *fn, int rc, struct loom_datatype *const *t,
                  struct loom_dt_contents *c, MPI_Datatype *newtype)
{
    if (rc) {
        loom__dt_contents_discard(c);
        return build_error(fn, rc);
    }
    loom__dt_contents_attach(*t, c);
    *newtype = *t;
    return MPI_SUCCESS;
}

int loom__mpi_type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_contiguous");
    static const char fn[] = "MPI_Type_contiguous";
    int rc = check_common(fn, count, NULL, 0, "", 1, oldtype, newtype);
    if (rc)
        return rc;
    struct loom_dt_contents *c = record(fn, MPI_COMBINER_CONTIGUOUS, 1, 0, 1, &rc);
    if (!c)
        return rc;
    c->ints[0] = count;
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    return finish(fn, loom__dt_contiguous((size_t)count, oldtype, &t), &t, c, newtype);
}

int loom__mpi_type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                          MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_vector");
    static const char fn[] = "MPI_Type_vector";
    int rc = check_common(fn, count, NULL, blocklength, "", 1, oldtype, newtype);
    if (rc)
        return rc;
    struct loom_dt_contents *c = record(fn, MPI_COMBINER_VECTOR, 3, 0, 1, &rc);
    if (!c)
        return rc;
    c->ints[0] = count;
    c->ints[1] = blocklength;
    c->ints[2] = stride;
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    rc = loom__dt_hvector((size_t)count, (size_t)blocklength, (ptrdiff_t)stride * oldtype->extent,
                          oldtype, MPI_COMBINER_VECTOR, &t);
    return finish(fn, rc, &t, c, newtype);
}

int loom__mpi_type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
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
    struct loom_dt_contents *c = record(fn, MPI_COMBINER_HVECTOR, 2, 1, 1, &rc);
    if (!c)
        return rc;
    c->ints[0] = count;
    c->ints[1] = blocklength;
    c->addrs[0] = stride;
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    rc = loom__dt_hvector((size_t)count, (size_t)blocklength, (ptrdiff_t)stride, oldtype,
                          MPI_COMBINER_HVECTOR, &t);
    return finish(fn, rc, &t, c, newtype);
}

/* The record of an indexed-family constructor (arguments as in indexed() below): the
 * integers are count, then the block lengths (one for the _block kinds), then the
 * displacements in extents (indexed kinds); the addresses the displacements in bytes (h
 * kinds); the types oldtype, or the struct's types. NULL: reported into *rc. */
static struct loom_dt_contents *indexed_record(const char *fn, int count, const int *blens,
                                               int blen, const int *idisp,
                                               const MPI_Aint *adisp, const MPI_Datatype *types,
                                               MPI_Datatype old, int combiner, int *rc)
{
    int nbl = blens ? count : 1;
    long long ni = 1LL + nbl + (idisp ? count : 0);
    int na = adisp ? count : 0, nd = types ? count : 1;
    struct loom_dt_contents *c = record(fn, combiner, ni, na, nd, rc);
    if (!c)
        return NULL;
    c->ints[0] = count;
    for (int i = 0; i < nbl; i++)
        c->ints[1 + i] = blens ? blens[i] : blen;
    for (int i = 0; idisp && i < count; i++)
        c->ints[1 + nbl + i] = idisp[i];
    for (int i = 0; i < na; i++)
        c->addrs[i] = adisp[i];
    for (int i = 0; i < nd; i++)
        c->types[i] = types ? types[i] : old;
    return c;
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
    struct loom_dt_contents *c = indexed_record(fn, count, blens, blen, idisp, adisp, types, old,
                                                combiner, &rc);
    if (!c)
        return rc;
    size_t n = count > 0 ? (size_t)count : 1;
    size_t *bl = malloc(n * sizeof(*bl));
    ptrdiff_t *d = malloc(n * sizeof(*d));
    if (!bl || !d) {
        free(bl);
        free(d);
        loom__dt_contents_discard(c);
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
    return finish(fn, rc, &t, c, newtype);
}

int loom__mpi_type_indexed(int count, const int blocklengths[], const int displacements[],
                           MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_indexed");
    return indexed("MPI_Type_indexed", count, blocklengths, 0, displacements, NULL, NULL,
                   oldtype, MPI_COMBINER_INDEXED, newtype);
}

int loom__mpi_type_create_hindexed(int count, const int blocklengths[],
                                   const MPI_Aint displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype *newtype)
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

int loom__mpi_type_create_indexed_block(int count, int blocklength, const int displacements[],
                                        MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_indexed_block");
    static const char fn[] = "MPI_Type_create_indexed_block";
    return indexed(fn, count, NULL, blocklength, displacements, NULL, NULL, oldtype,
                   MPI_COMBINER_INDEXED_BLOCK, newtype);
}

int loom__mpi_type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[],
                                         MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_hindexed_block");
    static const char fn[] = "MPI_Type_create_hindexed_block";
    return indexed(fn, count, NULL, blocklength, NULL, displacements, NULL, oldtype,
                   MPI_COMBINER_HINDEXED_BLOCK, newtype);
}

int loom__mpi_type_create_struct(int count, const int blocklengths[],
                                 const MPI_Aint displacements[], const MPI_Datatype types[],
                                 MPI_Datatype *newtype)
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

int loom__mpi_type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                  MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_resized");
    static const char fn[] = "MPI_Type_create_resized";
    int rc = check_old(fn, oldtype, "oldtype");
    if (rc)
        return rc;
    if (newtype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "newtype is NULL");
    struct loom_dt_contents *c = record(fn, MPI_COMBINER_RESIZED, 0, 2, 1, &rc);
    if (!c)
        return rc;
    c->addrs[0] = lb;
    c->addrs[1] = extent;
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    return finish(fn, loom__dt_resized(oldtype, (ptrdiff_t)lb, (ptrdiff_t)extent, &t), &t, c,
                  newtype);
}

int loom__mpi_type_create_subarray(int ndims, const int sizes[], const int subsizes[],
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
    struct loom_dt_contents *c = record(fn, MPI_COMBINER_SUBARRAY, 3LL * ndims + 2, 0, 1, &rc);
    if (!c)
        return rc;
    c->ints[0] = ndims;
    for (int i = 0; i < ndims; i++) {
        c->ints[1 + i] = sizes[i];
        c->ints[1 + ndims + i] = subsizes[i];
        c->ints[1 + 2 * ndims + i] = starts[i];
    }
    c->ints[1 + 3 * ndims] = order;
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    return finish(fn, loom__dt_subarray(ndims, sizes, subsizes, starts, order, oldtype, &t), &t,
                  c, newtype);
}

int loom__mpi_type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_dup");
    static const char fn[] = "MPI_Type_dup";
    int rc = check_old(fn, oldtype, "oldtype");
    if (rc)
        return rc;
    if (newtype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "newtype is NULL");
    struct loom_dt_contents *c = record(fn, MPI_COMBINER_DUP, 0, 0, 1, &rc);
    if (!c)
        return rc;
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    MPI_Datatype dup;
    rc = finish(fn, loom__dt_dup(oldtype, &t), &t, c, &dup);
    if (rc)
        return rc;
    /* the copy callbacks see the new type before the user does */
    rc = loom__type_attr_copy_all(oldtype, dup);
    if (rc) {
        loom__dt_free(dup);
        if (rc < 0)
            return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
        return FAIL(fn, rc <= MPI_ERR_LASTCODE ? rc : MPI_ERR_OTHER,
                    "a copy callback of an attribute returned error %d", rc);
    }
    *newtype = dup;
    return MPI_SUCCESS;
}
