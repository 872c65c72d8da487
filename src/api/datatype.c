/* api/datatype.c — MPI calls on an existing datatype: commit, free, extents and sizes (their
 * _x and big-count _c forms too), names,
 * and the address helpers (MPI_Get_address, MPI_Aint_add / _diff).
 *
 * Datatype calls have no communicator: errors go to MPI_COMM_WORLD's handler (MPI 3.1).
 * Queries accept uncommitted types; a predefined type cannot be freed. */
#include <limits.h>
#include "api/api.h"
#include "api/shared_impl.h"
#include "api/type_attr.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* MPI_SUCCESS, or the class of the error reported for the handle t. */
static int check_type(const char *fn, MPI_Datatype t)
{
    const char *why = loom__dt_bad_handle(t);
    return why ? FAIL(fn, MPI_ERR_TYPE, "datatype %s", why) : MPI_SUCCESS;
}

int loom__mpi_type_commit(MPI_Datatype *datatype)
{
    LOOM_API_ENTER("MPI_Type_commit");
    static const char fn[] = "MPI_Type_commit";
    if (datatype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "datatype pointer is NULL");
    int rc = check_type(fn, *datatype);
    if (rc)
        return rc;
    /* The layout is final once built; committing only allows communication. Predefined
     * types are shared by all ranks and always committed: never written. */
    if (!(*datatype)->committed)
        (*datatype)->committed = 1;
    return MPI_SUCCESS;
}

int loom__mpi_type_free(MPI_Datatype *datatype)
{
    LOOM_API_ENTER("MPI_Type_free");
    static const char fn[] = "MPI_Type_free";
    if (datatype == NULL)
        return FAIL(fn, MPI_ERR_ARG, "datatype pointer is NULL");
    int rc = check_type(fn, *datatype);
    if (rc)
        return rc;
    if ((*datatype)->predefined)
        return FAIL(fn, MPI_ERR_TYPE, "cannot free the predefined datatype %s",
                    (*datatype)->name);
    /* attributes go first, their delete callbacks seeing the handle still valid; a callback
     * that fails leaves the type (and its remaining attributes) alive */
    rc = loom__type_attr_delete_all(*datatype);
    if (rc)
        return FAIL(fn, rc > 0 && rc <= MPI_ERR_LASTCODE ? rc : MPI_ERR_OTHER,
                    "a delete callback of an attribute returned error %d", rc);
    loom__dt_free(*datatype);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

/* The extent queries, each int form (MPI_Aint), _x and _c form (MPI_Count) on one check:
 * a usable datatype and two places for the results; then *lo and *ext are the type's lb and
 * extent (its true ones when `true_`). MPI_SUCCESS or the class reported. */
static int bounds(const char *fn, MPI_Datatype datatype, const void *lb, const void *extent,
                  int true_, ptrdiff_t *lo, ptrdiff_t *ext)
{
    int rc = check_type(fn, datatype);
    if (rc)
        return rc;
    if (lb == NULL || extent == NULL)
        return FAIL(fn, MPI_ERR_ARG, "%s is NULL",
                    lb == NULL ? (true_ ? "true_lb" : "lb") : (true_ ? "true_extent" : "extent"));
    *lo = true_ ? datatype->true_lb : datatype->lb;
    *ext = true_ ? datatype->true_extent : datatype->extent;
    return MPI_SUCCESS;
}

/* The wide forms (_x and _c) of the extent queries. */
static int bounds_count(const char *fn, MPI_Datatype datatype, MPI_Count *lb,
                        MPI_Count *extent, int true_)
{
    ptrdiff_t lo = 0, ext = 0;
    int rc = bounds(fn, datatype, lb, extent, true_, &lo, &ext);
    if (rc)
        return rc;
    *lb = (MPI_Count)lo;
    *extent = (MPI_Count)ext;
    return MPI_SUCCESS;
}

int loom__mpi_type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    LOOM_API_ENTER("MPI_Type_get_extent");
    return loom__api_type_extent("MPI_Type_get_extent", datatype, lb, extent);
}

int loom__api_type_extent(const char *fn, MPI_Datatype datatype, MPI_Aint *lb,
                          MPI_Aint *extent)
{
    ptrdiff_t lo = 0, ext = 0;
    int rc = bounds(fn, datatype, lb, extent, 0, &lo, &ext);
    if (rc)
        return rc;
    *lb = (MPI_Aint)lo;
    *extent = (MPI_Aint)ext;
    return MPI_SUCCESS;
}

int loom__mpi_type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    LOOM_API_ENTER("MPI_Type_get_true_extent");
    ptrdiff_t lo = 0, ext = 0;
    int rc = bounds("MPI_Type_get_true_extent", datatype, true_lb, true_extent, 1, &lo, &ext);
    if (rc)
        return rc;
    *true_lb = (MPI_Aint)lo;
    *true_extent = (MPI_Aint)ext;
    return MPI_SUCCESS;
}

int loom__mpi_type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    LOOM_API_ENTER("MPI_Type_get_extent_x");
    return bounds_count("MPI_Type_get_extent_x", datatype, lb, extent, 0);
}

int loom__mpi_type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    LOOM_API_ENTER("MPI_Type_get_extent_c");
    return bounds_count("MPI_Type_get_extent_c", datatype, lb, extent, 0);
}

int loom__mpi_type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                                     MPI_Count *true_extent)
{
    LOOM_API_ENTER("MPI_Type_get_true_extent_x");
    return bounds_count("MPI_Type_get_true_extent_x", datatype, true_lb, true_extent, 1);
}

int loom__mpi_type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb,
                                     MPI_Count *true_extent)
{
    LOOM_API_ENTER("MPI_Type_get_true_extent_c");
    return bounds_count("MPI_Type_get_true_extent_c", datatype, true_lb, true_extent, 1);
}

/* The size queries: MPI_Type_size answers MPI_UNDEFINED for a size beyond an int (MPI 4.1
 * 5.1.5), the _x and _c forms the size. MPI_SUCCESS or the class reported. */
static int size_of(const char *fn, MPI_Datatype datatype, const void *size, size_t *out)
{
    int rc = check_type(fn, datatype);
    if (rc)
        return rc;
    if (size == NULL)
        return FAIL(fn, MPI_ERR_ARG, "size is NULL");
    *out = datatype->size;
    return MPI_SUCCESS;
}

int loom__mpi_type_size(MPI_Datatype datatype, int *size)
{
    LOOM_API_ENTER("MPI_Type_size");
    size_t n = 0;
    int rc = size_of("MPI_Type_size", datatype, size, &n);
    if (rc)
        return rc;
    *size = n > INT_MAX ? MPI_UNDEFINED : (int)n;
    return MPI_SUCCESS;
}

int loom__mpi_type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    LOOM_API_ENTER("MPI_Type_size_x");
    size_t n = 0;
    int rc = size_of("MPI_Type_size_x", datatype, size, &n);
    if (rc)
        return rc;
    *size = (MPI_Count)n;
    return MPI_SUCCESS;
}

int loom__mpi_type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    LOOM_API_ENTER("MPI_Type_size_c");
    size_t n = 0;
    int rc = size_of("MPI_Type_size_c", datatype, size, &n);
    if (rc)
        return rc;
    *size = (MPI_Count)n;
    return MPI_SUCCESS;
}

int loom__mpi_type_set_name(MPI_Datatype datatype, const char *name)
{
    LOOM_API_ENTER("MPI_Type_set_name");
    static const char fn[] = "MPI_Type_set_name";
    int rc = check_type(fn, datatype);
    if (rc)
        return rc;
    if (name == NULL)
        return FAIL(fn, MPI_ERR_ARG, "name is NULL");
    loom__dt_set_name(datatype, name); /* longer names are truncated, as the standard allows */
    return MPI_SUCCESS;
}

int loom__mpi_type_get_name(MPI_Datatype datatype, char *name, int *resultlen)
{
    LOOM_API_ENTER("MPI_Type_get_name");
    static const char fn[] = "MPI_Type_get_name";
    int rc = check_type(fn, datatype);
    if (rc)
        return rc;
    if (name == NULL || resultlen == NULL)
        return FAIL(fn, MPI_ERR_ARG, "%s is NULL", name == NULL ? "name" : "resultlen");
    *resultlen = loom__dt_get_name(datatype, name);
    return MPI_SUCCESS;
}

int loom__mpi_get_address(const void *location, MPI_Aint *address)
{
    LOOM_API_ENTER("MPI_Get_address");
    return loom__api_get_address("MPI_Get_address", location, address);
}

int loom__api_get_address(const char *fn, const void *location, MPI_Aint *address)
{
    if (address == NULL)
        return FAIL(fn, MPI_ERR_ARG, "address is NULL");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}

/* MPI_Aint_add and MPI_Aint_diff return an address, not an error code: no checks. Addresses
 * are plain integers here, so this is integer arithmetic (done unsigned: no overflow UB). */
MPI_Aint loom__mpi_aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

MPI_Aint loom__mpi_aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
