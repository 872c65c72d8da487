/* api/pack_external.c — MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size with
 * the "external32" representation (dt/external32.c).
 *
 * The data is packed natively by the copy engine into a scratch buffer, then converted to
 * external32 in one pass (or converted, then unpacked); the scratch is the size of the native
 * stream and freed before the call returns. Only "external32" is a data representation here:
 * any other string is MPI_ERR_ARG (the standard defines no other for these calls and names no
 * class). Overflowing the buffer is MPI_ERR_TRUNCATE, as for MPI_Pack; a value that does not
 * fit its external32 size (a long beyond 32 bits) MPI_ERR_CONVERSION. These calls have no
 * communicator: errors go to MPI_COMM_WORLD's handler. */
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* Checks of datarep, count and datatype (committed when `usable`); MPI_SUCCESS or the class
 * reported. */
static int check_common(const char *fn, const char *datarep, int count, MPI_Datatype type,
                        int usable)
{
    if (datarep == NULL)
        return FAIL(fn, MPI_ERR_ARG, "datarep is NULL");
    if (strcmp(datarep, "external32") != 0)
        return FAIL(fn, MPI_ERR_ARG, "datarep \"%.64s\" is not \"external32\"", datarep);
    if (count < 0)
        return FAIL(fn, MPI_ERR_COUNT, "count %d is negative", count);
    const char *why;
    if (usable) {
        if (loom__dt_check_usable(type, &why))
            return FAIL(fn, MPI_ERR_TYPE, "%s", why);
    } else if ((why = loom__dt_bad_handle(type)) != NULL) {
        return FAIL(fn, MPI_ERR_TYPE, "datatype %s", why);
    }
    return MPI_SUCCESS;
}

/* The external32 size of count elements of t into *size, or the class reported. */
static int ext_size(const char *fn, const struct loom_datatype *t, int count, size_t *size)
{
    if (loom__dt_external32_size(t, (size_t)count, size))
        return FAIL(fn, MPI_ERR_ARG, "the external32 size of %d elements of %s overflows",
                    count, t->name);
    return MPI_SUCCESS;
}

int loom__mpi_pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                                 MPI_Aint *size)
{
    LOOM_API_ENTER("MPI_Pack_external_size");
    static const char fn[] = "MPI_Pack_external_size";
    int rc = check_common(fn, datarep, incount, datatype, 0);
    if (rc)
        return rc;
    if (size == NULL)
        return FAIL(fn, MPI_ERR_ARG, "size is NULL");
    size_t n;
    rc = ext_size(fn, datatype, incount, &n);
    if (rc)
        return rc;
    *size = (MPI_Aint)n;
    return MPI_SUCCESS;
}

int loom__mpi_pack_external(const char datarep[], const void *inbuf, int incount,
                            MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                            MPI_Aint *position)
{
    LOOM_API_ENTER("MPI_Pack_external");
    static const char fn[] = "MPI_Pack_external";
    int rc = check_common(fn, datarep, incount, datatype, 1);
    if (rc)
        return rc;
    if (outsize < 0)
        return FAIL(fn, MPI_ERR_ARG, "outsize %ld is negative", (long)outsize);
    if (position == NULL)
        return FAIL(fn, MPI_ERR_ARG, "position is NULL");
    if (*position < 0)
        return FAIL(fn, MPI_ERR_ARG, "position %ld is negative", (long)*position);
    size_t need, native = loom__dt_stream_size(datatype, (size_t)incount);
    rc = ext_size(fn, datatype, incount, &need);
    if (rc)
        return rc;
    if (inbuf == NULL && native > 0 && datatype->true_lb == 0)
        return FAIL(fn, MPI_ERR_BUFFER, "inbuf is NULL with count %d", incount);
    if (outbuf == NULL && need > 0)
        return FAIL(fn, MPI_ERR_BUFFER, "outbuf is NULL");
    if (*position > outsize || need > (size_t)(outsize - *position))
        return FAIL(fn, MPI_ERR_TRUNCATE,
                    "packing %zu bytes at position %ld overflows outsize %ld", need,
                    (long)*position, (long)outsize);
    if (need == 0)
        return MPI_SUCCESS;
    void *tmp = malloc(native); /* the native stream; freed below */
    if (tmp == NULL)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    loom__dt_pack(tmp, inbuf, datatype, (size_t)incount, 0, native);
    rc = loom__dt_external32_encode((char *)outbuf + *position, tmp, datatype, (size_t)incount);
    free(tmp);
    *position += (MPI_Aint)need;
    if (rc)
        return FAIL(fn, MPI_ERR_CONVERSION, "a value of %s does not fit its external32 size",
                    datatype->name);
    return MPI_SUCCESS;
}

int loom__mpi_unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                              MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    LOOM_API_ENTER("MPI_Unpack_external");
    static const char fn[] = "MPI_Unpack_external";
    int rc = check_common(fn, datarep, outcount, datatype, 1);
    if (rc)
        return rc;
    if (insize < 0)
        return FAIL(fn, MPI_ERR_ARG, "insize %ld is negative", (long)insize);
    if (position == NULL)
        return FAIL(fn, MPI_ERR_ARG, "position is NULL");
    if (*position < 0)
        return FAIL(fn, MPI_ERR_ARG, "position %ld is negative", (long)*position);
    size_t need, native = loom__dt_stream_size(datatype, (size_t)outcount);
    rc = ext_size(fn, datatype, outcount, &need);
    if (rc)
        return rc;
    if (inbuf == NULL && need > 0)
        return FAIL(fn, MPI_ERR_BUFFER, "inbuf is NULL");
    if (outbuf == NULL && native > 0 && datatype->true_lb == 0)
        return FAIL(fn, MPI_ERR_BUFFER, "outbuf is NULL with count %d", outcount);
    if (*position > insize || need > (size_t)(insize - *position))
        return FAIL(fn, MPI_ERR_TRUNCATE,
                    "unpacking %zu bytes at position %ld overflows insize %ld", need,
                    (long)*position, (long)insize);
    if (need == 0)
        return MPI_SUCCESS;
    void *tmp = malloc(native); /* the native stream; freed below */
    if (tmp == NULL)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    rc = loom__dt_external32_decode(tmp, (const char *)inbuf + *position, datatype,
                                    (size_t)outcount);
    loom__dt_unpack(outbuf, datatype, (size_t)outcount, tmp, 0, native);
    free(tmp);
    *position += (MPI_Aint)need;
    if (rc)
        return FAIL(fn, MPI_ERR_CONVERSION, "a value of %s does not fit its native size",
                    datatype->name);
    return MPI_SUCCESS;
}
