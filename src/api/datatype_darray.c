/* api/datatype_darray.c — MPI_Type_create_darray and its _c form: argument checks, the
 * record of the arguments for get_contents, then dt/darray.c builds the type.
 *
 * Classes: ndims < 1 MPI_ERR_DIMS (as subarray), a bad size, rank, grid, size, distribution,
 * distribution argument or order MPI_ERR_ARG, a bad oldtype MPI_ERR_TYPE. A block
 * distribution whose blocks do not cover the dimension (darg * psize < gsize), and a
 * distribution NONE over more than one process, are MPI_ERR_ARG. Errors go to
 * MPI_COMM_WORLD's handler (datatype calls have no communicator). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include "api/api.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* MPI_SUCCESS, or the class reported for dimension i. */
static int check_dim(const char *fn, int i, MPI_Count gsize, int distrib, int darg, int psize)
{
    if (gsize < 1)
        return FAIL(fn, MPI_ERR_ARG, "array_of_gsizes[%d] = %lld is less than 1", i, gsize);
    if (psize < 1)
        return FAIL(fn, MPI_ERR_ARG, "array_of_psizes[%d] = %d is less than 1", i, psize);
    switch (distrib) {
    case MPI_DISTRIBUTE_BLOCK:
        if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg < 1)
            return FAIL(fn, MPI_ERR_ARG, "array_of_dargs[%d] = %d is not positive", i, darg);
        if (darg != MPI_DISTRIBUTE_DFLT_DARG && (long long)darg * psize < gsize)
            return FAIL(fn, MPI_ERR_ARG,
                        "blocks of %d over %d processes do not cover the %lld elements of "
                        "dimension %d",
                        darg, psize, gsize, i);
        return MPI_SUCCESS;
    case MPI_DISTRIBUTE_CYCLIC:
        if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg < 1)
            return FAIL(fn, MPI_ERR_ARG, "array_of_dargs[%d] = %d is not positive", i, darg);
        return MPI_SUCCESS;
    case MPI_DISTRIBUTE_NONE:
        if (psize != 1)
            return FAIL(fn, MPI_ERR_ARG,
                        "dimension %d is not distributed but array_of_psizes[%d] = %d", i, i,
                        psize);
        return MPI_SUCCESS;
    default:
        return FAIL(fn, MPI_ERR_ARG, "array_of_distribs[%d] = %d is not an MPI_DISTRIBUTE_*",
                    i, distrib);
    }
}

/* MPI_Type_create_darray and its _c form, whose global sizes are MPI_Count (gsizes_c; the
 * int form passes gsizes_i). large: the big-count form, which keeps the global sizes as large
 * counts in its record (MPI 4.1 5.1.13). */
static int darray(const char *fn, int size, int rank, int ndims, const int *gsizes_i,
                  const MPI_Count *gsizes_c, const int array_of_distribs[],
                  const int array_of_dargs[], const int array_of_psizes[], int order,
                  MPI_Datatype oldtype, int large, MPI_Datatype *newtype)
{
    if (size < 1)
        return FAIL(fn, MPI_ERR_ARG, "size %d is less than 1", size);
    if (rank < 0 || rank >= size)
        return FAIL(fn, MPI_ERR_ARG, "rank %d is not in 0..%d", rank, size - 1);
    if (ndims < 1)
        return FAIL(fn, MPI_ERR_DIMS, "ndims %d is less than 1", ndims);
    if (ndims > (INT_MAX - 4) / 4) /* the envelope counts its integers in an int */
        return FAIL(fn, MPI_ERR_DIMS, "ndims %d is too large", ndims);
    int have_gsizes = gsizes_i != NULL || gsizes_c != NULL;
    if (!have_gsizes || !array_of_distribs || !array_of_dargs || !array_of_psizes)
        return FAIL(fn, MPI_ERR_ARG, "array_of_%s is NULL",
                    !have_gsizes         ? "gsizes"
                    : !array_of_distribs ? "distribs"
                    : !array_of_dargs    ? "dargs"
                                         : "psizes");
    long long procs = 1, elems = 1;
    for (int i = 0; i < ndims; i++) {
        MPI_Count g = gsizes_c ? gsizes_c[i] : gsizes_i[i];
        int rc = check_dim(fn, i, g, array_of_distribs[i], array_of_dargs[i],
                           array_of_psizes[i]);
        if (rc)
            return rc;
        procs *= array_of_psizes[i];
        if (procs > size)
            break;
        if (__builtin_mul_overflow(elems, g, &elems))
            return FAIL(fn, MPI_ERR_ARG, "the global array is larger than the address space");
    }
    if (procs != size)
        return FAIL(fn, MPI_ERR_ARG, "the process grid does not have size %d processes", size);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return FAIL(fn, MPI_ERR_ARG, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN",
                    order);
    const char *why = loom__dt_bad_handle(oldtype);
    if (why)
        return FAIL(fn, MPI_ERR_TYPE, "oldtype %s", why);
    if (newtype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "newtype is NULL");
    long long bytes;
    if (__builtin_mul_overflow(elems, (long long)oldtype->extent, &bytes) ||
        bytes > (long long)(PTRDIFF_MAX / 2))
        return FAIL(fn, MPI_ERR_ARG, "the global array is larger than the address space");

    /* the record: size, rank, ndims, gsizes, distribs, dargs, psizes, order as integers; the
     * big-count form keeps gsizes as large counts instead */
    int gi = large ? 0 : ndims; /* gsizes among the integers */
    struct loom_dt_contents *c = loom__dt_contents_new(MPI_COMBINER_DARRAY, 3 * ndims + gi + 4,
                                                       0, large ? ndims : 0, 1);
    ptrdiff_t *g = malloc((size_t)ndims * sizeof(*g)); /* the dt layer's gsizes; freed below */
    if (!c || !g) {
        free(g);
        if (c)
            loom__dt_contents_discard(c);
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    }
    c->ints[0] = size;
    c->ints[1] = rank;
    c->ints[2] = ndims;
    for (int i = 0; i < ndims; i++) {
        g[i] = (ptrdiff_t)(gsizes_c ? gsizes_c[i] : gsizes_i[i]);
        if (large)
            c->large[i] = g[i];
        else
            c->ints[3 + i] = (int)g[i];
        c->ints[3 + gi + i] = array_of_distribs[i];
        c->ints[3 + gi + ndims + i] = array_of_dargs[i];
        c->ints[3 + gi + 2 * ndims + i] = array_of_psizes[i];
    }
    c->ints[3 + gi + 3 * ndims] = order;
    c->types[0] = oldtype;
    struct loom_datatype *t = NULL;
    int rc = loom__dt_darray(rank, ndims, g, array_of_distribs, array_of_dargs,
                             array_of_psizes, order, oldtype, &t);
    free(g);
    if (rc) {
        loom__dt_contents_discard(c);
        if (rc == LOOM_ERR_ARG)
            return FAIL(fn, MPI_ERR_ARG, "the new datatype would be nested deeper than %d levels",
                        LOOM_DT_MAX_DEPTH);
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    }
    loom__dt_contents_attach(t, c);
    *newtype = t;
    return MPI_SUCCESS;
}

int loom__mpi_type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                                 const int array_of_distribs[], const int array_of_dargs[],
                                 const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_darray");
    return darray("MPI_Type_create_darray", size, rank, ndims, array_of_gsizes, NULL,
                  array_of_distribs, array_of_dargs, array_of_psizes, order, oldtype, 0,
                  newtype);
}

int loom__mpi_type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                                   const int array_of_distribs[], const int array_of_dargs[],
                                   const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                   MPI_Datatype *newtype)
{
    LOOM_API_ENTER("MPI_Type_create_darray_c");
    return darray("MPI_Type_create_darray_c", size, rank, ndims, NULL, array_of_gsizes,
                  array_of_distribs, array_of_dargs, array_of_psizes, order, oldtype, 1,
                  newtype);
}
