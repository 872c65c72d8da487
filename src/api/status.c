/* api/status.c — what a status says about a completed operation: MPI_Get_count,
 * MPI_Get_elements(_x), their big-count forms (_c), MPI_Status_set_elements(_x),
 * MPI_Status_set_cancelled, MPI_Test_cancelled, and MPI 4.1's MPI_Status_set/get_source,
 * _tag and _error.
 *
 * A status records the bytes transferred (loom_bytes); counts are derived from it and the
 * datatype the caller names: Get_count is bytes / size (MPI_UNDEFINED when not a whole number
 * of elements), Get_elements counts basic elements, a partial last element included
 * (MPI_UNDEFINED when the bytes end inside a basic element). Status_set_elements stores the
 * bytes that `count` basic elements of the type fill, so Get_elements gives count back. */
#include <limits.h>
#include "api/api.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* Checks of a status (in or out) and a datatype; MPI_SUCCESS or the class reported. */
static int check_status_type(const char *fn, const MPI_Status *status, MPI_Datatype type)
{
    if (status == NULL || status == MPI_STATUS_IGNORE)
        return FAIL(fn, MPI_ERR_ARG, "status is %s",
                    status == NULL ? "NULL" : "MPI_STATUS_IGNORE");
    const char *why = loom__dt_bad_handle(type);
    return why ? FAIL(fn, MPI_ERR_TYPE, "datatype %s", why) : MPI_SUCCESS;
}

/* Bytes of a status, never negative. */
static size_t status_bytes(const MPI_Status *status)
{
    return status->loom_bytes > 0 ? (size_t)status->loom_bytes : 0;
}

/* The count of a status in elements of type (MPI_UNDEFINED when not a whole number of them),
 * for the int and big-count forms of MPI_Get_count; MPI_SUCCESS or the class reported. */
static int get_count(const char *fn, const MPI_Status *status, MPI_Datatype type,
                     MPI_Count *count)
{
    int rc = check_status_type(fn, status, type);
    if (rc)
        return rc;
    if (count == NULL)
        return FAIL(fn, MPI_ERR_ARG, "count is NULL");
    size_t bytes = status_bytes(status), size = type->size;
    if (size == 0)
        *count = 0; /* MPI 4.1 3.2.5: a type of size zero gives a count of zero */
    else
        *count = bytes % size ? MPI_UNDEFINED : (MPI_Count)(bytes / size);
    return MPI_SUCCESS;
}

/* The basic elements of a status (Get_elements, _x and _c). */
static int get_elements(const char *fn, const MPI_Status *status, MPI_Datatype type,
                        MPI_Count *count)
{
    int rc = check_status_type(fn, status, type);
    if (rc)
        return rc;
    if (count == NULL)
        return FAIL(fn, MPI_ERR_ARG, "count is NULL");
    long long e = loom__dt_elements(type, status_bytes(status));
    *count = e < 0 ? MPI_UNDEFINED : (MPI_Count)e;
    return MPI_SUCCESS;
}

/* The int forms answer MPI_UNDEFINED for a count that does not fit (MPI 4.1 3.2.5). */
static int narrow(int rc, const MPI_Count *wide, int *count)
{
    if (rc == MPI_SUCCESS)
        *count = *wide > INT_MAX ? MPI_UNDEFINED : (int)*wide;
    return rc;
}

int loom__mpi_get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    LOOM_API_ENTER("MPI_Get_count_c");
    return get_count("MPI_Get_count_c", status, datatype, count);
}

int loom__mpi_get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    LOOM_API_ENTER("MPI_Get_count");
    MPI_Count wide = 0;
    return narrow(get_count("MPI_Get_count", status, datatype, count ? &wide : NULL), &wide,
                  count);
}

int loom__mpi_get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    LOOM_API_ENTER("MPI_Get_elements_c");
    return get_elements("MPI_Get_elements_c", status, datatype, count);
}

int loom__mpi_get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    LOOM_API_ENTER("MPI_Get_elements_x");
    return get_elements("MPI_Get_elements_x", status, datatype, count);
}

int loom__mpi_get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    LOOM_API_ENTER("MPI_Get_elements");
    MPI_Count wide = 0;
    return narrow(get_elements("MPI_Get_elements", status, datatype, count ? &wide : NULL),
                  &wide, count);
}

int loom__mpi_status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    LOOM_API_ENTER("MPI_Status_set_elements");
    static const char fn[] = "MPI_Status_set_elements";
    int rc = check_status_type(fn, status, datatype);
    if (rc)
        return rc;
    if (count < 0)
        return FAIL(fn, MPI_ERR_COUNT, "count %d is negative", count);
    status->loom_bytes = (MPI_Count)loom__dt_elements_bytes(datatype, (size_t)count);
    return MPI_SUCCESS;
}

int loom__mpi_status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    LOOM_API_ENTER("MPI_Status_set_elements_x");
    static const char fn[] = "MPI_Status_set_elements_x";
    int rc = check_status_type(fn, status, datatype);
    if (rc)
        return rc;
    if (count < 0)
        return FAIL(fn, MPI_ERR_COUNT, "count %lld is negative", count);
    /* the bytes must fit the status (an MPI_Count) */
    size_t per = datatype->nbasic ? datatype->size / datatype->nbasic + 1 : 0;
    if (per && (size_t)count > (size_t)LLONG_MAX / per)
        return FAIL(fn, MPI_ERR_COUNT, "count %lld of %s is too large for a status", count,
                    datatype->name);
    status->loom_bytes = (MPI_Count)loom__dt_elements_bytes(datatype, (size_t)count);
    return MPI_SUCCESS;
}

int loom__mpi_status_set_cancelled(MPI_Status *status, int flag)
{
    LOOM_API_ENTER("MPI_Status_set_cancelled");
    if (status == NULL || status == MPI_STATUS_IGNORE)
        return FAIL("MPI_Status_set_cancelled", MPI_ERR_ARG, "status is %s",
                    status == NULL ? "NULL" : "MPI_STATUS_IGNORE");
    status->loom_cancelled = flag != 0;
    return MPI_SUCCESS;
}

int loom__mpi_test_cancelled(const MPI_Status *status, int *flag)
{
    LOOM_API_ENTER("MPI_Test_cancelled");
    static const char fn[] = "MPI_Test_cancelled";
    if (status == NULL || status == MPI_STATUS_IGNORE)
        return FAIL(fn, MPI_ERR_ARG, "status is %s",
                    status == NULL ? "NULL" : "MPI_STATUS_IGNORE");
    if (flag == NULL)
        return FAIL(fn, MPI_ERR_ARG, "flag is NULL");
    *flag = status->loom_cancelled != 0;
    return MPI_SUCCESS;
}

/* ---- MPI 4.1's accessors of the public fields (section 3.2.5), for bindings that cannot
 * reach a C struct's members: a plain read or write of MPI_SOURCE, MPI_TAG or MPI_ERROR. Any
 * value may be stored, as the members may be written directly; the status must be a real one
 * (not NULL, not MPI_STATUS_IGNORE). */
static int check_status(const char *fn, const MPI_Status *status)
{
    if (status == NULL || status == MPI_STATUS_IGNORE)
        return FAIL(fn, MPI_ERR_ARG, "status is %s",
                    status == NULL ? "NULL" : "MPI_STATUS_IGNORE");
    return MPI_SUCCESS;
}

#define STATUS_SET(lname, field, value)                                                        \
    do {                                                                                       \
        LOOM_API_ENTER(lname);                                                                 \
        int rc_ = check_status(lname, status);                                                 \
        if (rc_)                                                                               \
            return rc_;                                                                        \
        status->field = (value);                                                               \
        return MPI_SUCCESS;                                                                    \
    } while (0)

#define STATUS_GET(lname, field, out, outname)                                                 \
    do {                                                                                       \
        LOOM_API_ENTER(lname);                                                                 \
        int rc_ = check_status(lname, status);                                                 \
        if (rc_)                                                                               \
            return rc_;                                                                        \
        if ((out) == NULL)                                                                     \
            return FAIL(lname, MPI_ERR_ARG, outname " is NULL");                               \
        *(out) = status->field;                                                                \
        return MPI_SUCCESS;                                                                    \
    } while (0)

int loom__mpi_status_set_source(MPI_Status *status, int source)
{
    STATUS_SET("MPI_Status_set_source", MPI_SOURCE, source);
}

int loom__mpi_status_set_tag(MPI_Status *status, int tag)
{
    STATUS_SET("MPI_Status_set_tag", MPI_TAG, tag);
}

int loom__mpi_status_set_error(MPI_Status *status, int err)
{
    STATUS_SET("MPI_Status_set_error", MPI_ERROR, err);
}

int loom__mpi_status_get_source(MPI_Status *status, int *source)
{
    STATUS_GET("MPI_Status_get_source", MPI_SOURCE, source, "source");
}

int loom__mpi_status_get_tag(MPI_Status *status, int *tag)
{
    STATUS_GET("MPI_Status_get_tag", MPI_TAG, tag, "tag");
}

int loom__mpi_status_get_error(MPI_Status *status, int *err)
{
    STATUS_GET("MPI_Status_get_error", MPI_ERROR, err, "err");
}
