/* api/datatype_create.c — the MPI datatype constructors and their big-count forms
 * (MPI_Type_xxx_c): argument checks, then the dt layer (dt/build.c, dt/subarray.c) builds the
 * type. Each int call and its _c twin run one implementation on the wide types: array
 * arguments are read through `struct warr` whatever their width, and converted once to the
 * dt layer's size_t / ptrdiff_t.
 *
 * Error classes follow MPICH: a negative count is MPI_ERR_COUNT, a negative block length, a
 * NULL array or output, a bad order or bad subarray sizes MPI_ERR_ARG, ndims < 1
 * MPI_ERR_DIMS, a bad or freed type MPI_ERR_TYPE. Datatype calls have no communicator, so
 * errors go to MPI_COMM_WORLD's handler (MPI 3.1). Old types need not be committed. */
#include <limits.h>
#include <stdint.h>
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

/* An array argument of a constructor in whichever width the caller has it: the int call's
 * int or MPI_Aint array, or the big-count call's MPI_Count array (one of the three, or none
 * when the argument is absent). The checks and the conversion to the dt layer's size_t /
 * ptrdiff_t read it through at(), so both forms of a call run one implementation. */
struct warr {
    const int *i;
    const MPI_Aint *a;
    const MPI_Count *c;
};
#define WARR_INT(p) ((struct warr){.i = (p)})
#define WARR_AINT(p) ((struct warr){.a = (p)})
#define WARR_COUNT(p) ((struct warr){.c = (p)})

static int present(struct warr w)
{
    return w.i || w.a || w.c;
}

static MPI_Count at(struct warr w, MPI_Count k)
{
    return w.c ? w.c[k] : w.a ? (MPI_Count)w.a[k] : (MPI_Count)w.i[k];
}

/* Checks of count, the block lengths (the array blens, or blen for all when blens is absent),
 * the displacements array (disps, present when count > 0), oldtype (when has_old; a struct
 * checks its types itself) and newtype, in the order of the arguments. */
static int check_common(const char *fn, MPI_Count count, struct warr blens, MPI_Count blen,
                        int has_disps, int has_old, MPI_Datatype old, MPI_Datatype *newtype)
{
    if (count < 0)
        return FAIL(fn, MPI_ERR_COUNT, "count %lld is negative", count);
    if (count > 0 && !has_disps)
        return FAIL(fn, MPI_ERR_ARG, "array of displacements is NULL");
    if (present(blens)) {
        for (MPI_Count i = 0; i < count; i++)
            if (at(blens, i) < 0)
                return FAIL(fn, MPI_ERR_ARG, "blocklengths[%lld] = %lld is negative", i,
                            at(blens, i));
    } else if (blen < 0) {
        return FAIL(fn, MPI_ERR_ARG, "blocklength %lld is negative", blen);
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
static struct loom_dt_contents *record(const char *fn, int combiner, MPI_Count ni, MPI_Count na,
                                       MPI_Count nl, MPI_Count nd, int *rc)
{
    struct loom_dt_contents *c = loom__dt_contents_new(combiner, ni, na, nl, nd);
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

/* d * extent in bytes into *bytes, 0; or 1 when it leaves ptrdiff_t. */
static int scaled(MPI_Count d, ptrdiff_t extent, ptrdiff_t *bytes)
{
    return __builtin_mul_overflow((ptrdiff_t)d, extent, bytes);
}

/* The error reported when a count, length or stride does not fit the address space. */
static int too_large(const char *fn)
{
    return FAIL(fn, MPI_ERR_ARG, "the new datatype would be larger than the address space");
}

/* MPI_Type_contiguous and MPI_Type_contiguous_c share this implementation (their arguments
 * only widen: the generated entry points of both call it, naming themselves in fn). The
 * record keeps the arguments as the call that was made took them: integers for the int form,
 * large counts for the _c form (MPI 4.1 5.1.13); the same for vector, hvector and resized
 * below. */
int loom__mpi_type_contiguous_c(const char *fn, MPI_Count count, MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    LOOM_API_ENTER(fn);
    int rc = check_common(fn, count, (struct warr){0}, 0, 1, 1, oldtype, newtype);
    if (rc)
        return rc;
    int large = loom__api_big_count(fn);
    struct loom_dt_contents *c =
        record(fn, MPI_COMBINER_CONTIGUOUS, large ? 0 : 1, 0, large ? 1 : 0, 1, &rc);
    if (!c)
        return rc;
    if (large)
        c->large[0] = count;
    else
        c->ints[0] = (int)count;
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    return finish(fn, loom__dt_contiguous((size_t)count, oldtype, &t), &t, c, newtype);
}

int loom__mpi_type_vector_c(const char *fn, MPI_Count count, MPI_Count blocklength,
                            MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER(fn);
    int rc = check_common(fn, count, (struct warr){0}, blocklength, 1, 1, oldtype, newtype);
    if (rc)
        return rc;
    ptrdiff_t bytes;
    if (scaled(stride, oldtype->extent, &bytes))
        return too_large(fn);
    int large = loom__api_big_count(fn);
    struct loom_dt_contents *c =
        record(fn, MPI_COMBINER_VECTOR, large ? 0 : 3, 0, large ? 3 : 0, 1, &rc);
    if (!c)
        return rc;
    const MPI_Count v[3] = {count, blocklength, stride};
    for (int k = 0; k < 3; k++) {
        if (large)
            c->large[k] = v[k];
        else
            c->ints[k] = (int)v[k];
    }
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    rc = loom__dt_hvector((size_t)count, (size_t)blocklength, bytes, oldtype,
                          MPI_COMBINER_VECTOR, &t);
    return finish(fn, rc, &t, c, newtype);
}

int loom__mpi_type_create_hvector_c(const char *fn, MPI_Count count, MPI_Count blocklength,
                                    MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER(fn);
    return loom__api_type_hvector(fn, count, blocklength, stride, oldtype, newtype);
}

int loom__api_type_hvector(const char *fn, MPI_Count count, MPI_Count blocklength,
                           MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int rc = check_common(fn, count, (struct warr){0}, blocklength, 1, 1, oldtype, newtype);
    if (rc)
        return rc;
    if (stride > PTRDIFF_MAX || stride < PTRDIFF_MIN)
        return too_large(fn);
    /* the int form records count and blocklength as integers and the stride as an address;
     * the big-count form all three as large counts */
    int large = loom__api_big_count(fn);
    struct loom_dt_contents *c =
        record(fn, MPI_COMBINER_HVECTOR, large ? 0 : 2, large ? 0 : 1, large ? 3 : 0, 1, &rc);
    if (!c)
        return rc;
    if (large) {
        c->large[0] = count;
        c->large[1] = blocklength;
        c->large[2] = stride;
    } else {
        c->ints[0] = (int)count;
        c->ints[1] = (int)blocklength;
        c->addrs[0] = (MPI_Aint)stride;
    }
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    rc = loom__dt_hvector((size_t)count, (size_t)blocklength, (ptrdiff_t)stride, oldtype,
                          MPI_COMBINER_HVECTOR, &t);
    return finish(fn, rc, &t, c, newtype);
}

/* The record of an indexed-family constructor (arguments as in indexed() below). The int
 * forms keep as integers count, then the block lengths (one for the _block kinds), then the
 * displacements in extents (indexed kinds), and as addresses the displacements in bytes (h
 * kinds); the big-count forms (large) keep all of them, in the same order, as large counts
 * (MPI 4.1 5.1.13). The types: oldtype, or the struct's types. NULL: reported into *rc. */
static struct loom_dt_contents *indexed_record(const char *fn, MPI_Count count,
                                               struct warr blens, MPI_Count blen,
                                               struct warr disps, int in_extents,
                                               const MPI_Datatype *types, MPI_Datatype old,
                                               int combiner, int large, int *rc)
{
    MPI_Count nbl = present(blens) ? count : 1;
    MPI_Count nint = 1 + nbl + (in_extents ? count : 0); /* integer-valued, int form */
    MPI_Count na = in_extents ? 0 : count, nd = types ? count : 1;
    struct loom_dt_contents *c = large ? record(fn, combiner, 0, 0, 1 + nbl + count, nd, rc)
                                       : record(fn, combiner, nint, na, 0, nd, rc);
    if (!c)
        return NULL;
    /* the arguments in order: count, block lengths, displacements */
    for (MPI_Count k = 0; k < 1 + nbl + count; k++) {
        MPI_Count v = k == 0       ? count
                      : k <= nbl   ? (present(blens) ? at(blens, k - 1) : blen)
                                   : at(disps, k - 1 - nbl);
        if (large)
            c->large[k] = v;
        else if (k < nint)
            c->ints[k] = (int)v;
        else
            c->addrs[k - nint] = (MPI_Aint)v;
    }
    for (MPI_Count i = 0; i < nd; i++)
        c->types[i] = types ? types[i] : old;
    return c;
}

/* The indexed family, each int form and its big-count form: block lengths from blens[]
 * (absent: blen for all), displacements from disps[] (in extents of old when in_extents,
 * else in bytes); for a struct, types[] (old unused). large: the big-count form (how the
 * record keeps the arguments). */
static int indexed(const char *fn, MPI_Count count, struct warr blens, MPI_Count blen,
                   struct warr disps, int in_extents, const MPI_Datatype *types,
                   MPI_Datatype old, int combiner, int large, MPI_Datatype *newtype)
{
    if (count > 0 && !present(blens) && combiner != MPI_COMBINER_INDEXED_BLOCK &&
        combiner != MPI_COMBINER_HINDEXED_BLOCK)
        return FAIL(fn, MPI_ERR_ARG, "array of blocklengths is NULL");
    int rc = check_common(fn, count, blens, blen, present(disps),
                          combiner != MPI_COMBINER_STRUCT, old, newtype);
    if (rc)
        return rc;
    if (combiner == MPI_COMBINER_STRUCT) {
        if (count > 0 && types == NULL)
            return FAIL(fn, MPI_ERR_ARG, "array of types is NULL");
        for (MPI_Count i = 0; i < count; i++) {
            const char *why = loom__dt_bad_handle(types[i]);
            if (why)
                return FAIL(fn, MPI_ERR_TYPE, "types[%lld] %s", i, why);
        }
    }
    size_t n = count > 0 ? (size_t)count : 1;
    size_t *bl = malloc(n * sizeof(*bl));     /* freed below */
    ptrdiff_t *d = malloc(n * sizeof(*d));    /* freed below */
    if (!bl || !d) {
        free(bl);
        free(d);
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    }
    for (MPI_Count i = 0; i < count; i++) {
        MPI_Count b = present(blens) ? at(blens, i) : blen, di = at(disps, i);
        bl[i] = (size_t)b;
        if (in_extents ? scaled(di, old->extent, &d[i])
                       : (di > PTRDIFF_MAX || di < PTRDIFF_MIN)) {
            free(bl);
            free(d);
            return too_large(fn);
        }
        if (!in_extents)
            d[i] = (ptrdiff_t)di;
    }
    struct loom_dt_contents *c = indexed_record(fn, count, blens, blen, disps, in_extents,
                                                types, old, combiner, large, &rc);
    if (!c) {
        free(bl);
        free(d);
        return rc;
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
    return indexed("MPI_Type_indexed", count, WARR_INT(blocklengths), 0,
                   WARR_INT(displacements), 1, NULL, oldtype, MPI_COMBINER_INDEXED, 0, newtype);
}

int loom__mpi_type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                             const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_indexed_c");
    return indexed("MPI_Type_indexed_c", count, WARR_COUNT(array_of_blocklengths), 0,
                   WARR_COUNT(array_of_displacements), 1, NULL, oldtype, MPI_COMBINER_INDEXED,
                   1, newtype);
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
    return indexed(fn, count, WARR_INT(blocklengths), 0, WARR_AINT(displacements), 0, NULL,
                   oldtype, MPI_COMBINER_HINDEXED, 0, newtype);
}

int loom__mpi_type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_hindexed_c");
    return indexed("MPI_Type_create_hindexed_c", count, WARR_COUNT(array_of_blocklengths), 0,
                   WARR_COUNT(array_of_displacements), 0, NULL, oldtype,
                   MPI_COMBINER_HINDEXED, 1, newtype);
}

int loom__mpi_type_create_indexed_block(int count, int blocklength, const int displacements[],
                                        MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_indexed_block");
    return indexed("MPI_Type_create_indexed_block", count, (struct warr){0}, blocklength,
                   WARR_INT(displacements), 1, NULL, oldtype, MPI_COMBINER_INDEXED_BLOCK, 0,
                   newtype);
}

int loom__mpi_type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                          const MPI_Count array_of_displacements[],
                                          MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_indexed_block_c");
    return indexed("MPI_Type_create_indexed_block_c", count, (struct warr){0}, blocklength,
                   WARR_COUNT(array_of_displacements), 1, NULL, oldtype,
                   MPI_COMBINER_INDEXED_BLOCK, 1, newtype);
}

int loom__mpi_type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[],
                                         MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_hindexed_block");
    return indexed("MPI_Type_create_hindexed_block", count, (struct warr){0}, blocklength,
                   WARR_AINT(displacements), 0, NULL, oldtype, MPI_COMBINER_HINDEXED_BLOCK, 0,
                   newtype);
}

int loom__mpi_type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                           const MPI_Count array_of_displacements[],
                                           MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_hindexed_block_c");
    return indexed("MPI_Type_create_hindexed_block_c", count, (struct warr){0}, blocklength,
                   WARR_COUNT(array_of_displacements), 0, NULL, oldtype,
                   MPI_COMBINER_HINDEXED_BLOCK, 1, newtype);
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
    return indexed(fn, count, WARR_INT(blocklengths), 0, WARR_AINT(displacements), 0, types,
                   NULL, MPI_COMBINER_STRUCT, 0, newtype);
}

int loom__mpi_type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                   const MPI_Count array_of_displacements[],
                                   const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_struct_c");
    return indexed("MPI_Type_create_struct_c", count, WARR_COUNT(array_of_blocklengths), 0,
                   WARR_COUNT(array_of_displacements), 0, array_of_types, NULL,
                   MPI_COMBINER_STRUCT, 1, newtype);
}

/* Shared by MPI_Type_create_resized and its _c form (see contiguous above): lb and extent
 * are kept as addresses by the int form, as large counts by the _c form. */
int loom__mpi_type_create_resized_c(const char *fn, MPI_Datatype oldtype, MPI_Count lb,
                                    MPI_Count extent, MPI_Datatype *newtype)
{
    LOOM_API_ENTER(fn);
    int rc = check_old(fn, oldtype, "oldtype");
    if (rc)
        return rc;
    if (newtype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "newtype is NULL");
    if (lb > PTRDIFF_MAX || lb < PTRDIFF_MIN || extent > PTRDIFF_MAX || extent < PTRDIFF_MIN)
        return too_large(fn);
    int large = loom__api_big_count(fn);
    struct loom_dt_contents *c =
        record(fn, MPI_COMBINER_RESIZED, 0, large ? 0 : 2, large ? 2 : 0, 1, &rc);
    if (!c)
        return rc;
    if (large) {
        c->large[0] = lb;
        c->large[1] = extent;
    } else {
        c->addrs[0] = (MPI_Aint)lb;
        c->addrs[1] = (MPI_Aint)extent;
    }
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    return finish(fn, loom__dt_resized(oldtype, (ptrdiff_t)lb, (ptrdiff_t)extent, &t), &t, c,
                  newtype);
}

/* MPI_Type_create_subarray and its _c form (large: the sizes are kept as large counts). */
static int subarray(const char *fn, int ndims, struct warr sizes, struct warr subsizes,
                    struct warr starts, int order, MPI_Datatype oldtype, int large,
                    MPI_Datatype *newtype)
{
    if (ndims < 1)
        return FAIL(fn, MPI_ERR_DIMS, "ndims %d is less than 1", ndims);
    if (!present(sizes) || !present(subsizes) || !present(starts))
        return FAIL(fn, MPI_ERR_ARG, "array of %s is NULL",
                    !present(sizes) ? "sizes" : !present(subsizes) ? "subsizes" : "starts");
    for (int i = 0; i < ndims; i++) {
        MPI_Count sz = at(sizes, i), sub = at(subsizes, i), st = at(starts, i);
        if (sz < 1)
            return FAIL(fn, MPI_ERR_ARG, "sizes[%d] = %lld is less than 1", i, sz);
        if (sub < 0 || sub > sz)
            return FAIL(fn, MPI_ERR_ARG, "subsizes[%d] = %lld is not in 0..sizes[%d] = %lld", i,
                        sub, i, sz);
        if (st < 0 || st > sz - sub)
            return FAIL(fn, MPI_ERR_ARG,
                        "starts[%d] = %lld is not in 0..sizes[%d] - subsizes[%d] = %lld", i, st,
                        i, i, sz - sub);
        if (sz > PTRDIFF_MAX)
            return too_large(fn);
    }
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return FAIL(fn, MPI_ERR_ARG, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN",
                    order);
    int rc = check_old(fn, oldtype, "oldtype");
    if (rc)
        return rc;
    if (newtype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "newtype is NULL");
    /* the dt layer's arrays: sizes, subsizes, starts; freed below */
    ptrdiff_t *dims = malloc(3 * (size_t)ndims * sizeof(*dims));
    if (!dims)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    /* int form: ndims, sizes, subsizes, starts, order as integers; big-count form: ndims and
     * order as integers, the three arrays as large counts (MPI 4.1 5.1.13) */
    MPI_Count n3 = 3LL * ndims;
    struct loom_dt_contents *c = large ? record(fn, MPI_COMBINER_SUBARRAY, 2, 0, n3, 1, &rc)
                                       : record(fn, MPI_COMBINER_SUBARRAY, n3 + 2, 0, 0, 1, &rc);
    if (!c) {
        free(dims);
        return rc;
    }
    c->ints[0] = ndims;
    const struct warr arr[3] = {sizes, subsizes, starts};
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < ndims; i++) {
            MPI_Count v = at(arr[a], i);
            dims[a * ndims + i] = (ptrdiff_t)v;
            if (large)
                c->large[a * ndims + i] = v;
            else
                c->ints[1 + a * ndims + i] = (int)v;
        }
    c->ints[large ? 1 : 1 + n3] = order;
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    rc = loom__dt_subarray(ndims, dims, dims + ndims, dims + 2 * ndims, order, oldtype, &t);
    free(dims);
    return finish(fn, rc, &t, c, newtype);
}

int loom__mpi_type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                                   const int starts[], int order, MPI_Datatype oldtype,
                                   MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_subarray");
    return subarray("MPI_Type_create_subarray", ndims, WARR_INT(sizes), WARR_INT(subsizes),
                    WARR_INT(starts), order, oldtype, 0, newtype);
}

int loom__mpi_type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                     const MPI_Count array_of_subsizes[],
                                     const MPI_Count array_of_starts[], int order,
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_subarray_c");
    return subarray("MPI_Type_create_subarray_c", ndims, WARR_COUNT(array_of_sizes),
                    WARR_COUNT(array_of_subsizes), WARR_COUNT(array_of_starts), order, oldtype,
                    1, newtype);
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
    struct loom_dt_contents *c = record(fn, MPI_COMBINER_DUP, 0, 0, 0, 1, &rc);
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
