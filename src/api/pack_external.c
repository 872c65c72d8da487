/* api/pack_external.c — MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size and
 * their big-count _c forms (one implementation each, on MPI_Count) with the "external32"
 * representation (dt/external32.c).
 *
 * The data is packed natively by the copy engine into a scratch buffer, then converted to
 * external32 in one pass (or converted, then unpacked); the scratch is the size of the native
 * stream and freed before the call returns. Only "external32" is a data representation here:
 * any other string is MPI_ERR_ARG (the standard defines no other for these calls and names no
 * class). Overflowing the buffer is MPI_ERR_TRUNCATE, as for MPI_Pack; a value that does not
 * fit its external32 size (a long beyond 32 bits) MPI_ERR_CONVERSION. These calls have no
 * communicator: errors go to MPI_COMM_WORLD's handler. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* The caller's position: an MPI_Aint (the int forms) or an MPI_Count (the _c forms). */
struct pos {
    MPI_Aint *a;
    MPI_Count *c;
};

static MPI_Count pos_get(struct pos p)
{
    return p.c ? *p.c : (MPI_Count)*p.a;
}

/* v <= the buffer size, which for the int form is an MPI_Aint */
static void pos_set(struct pos p, MPI_Count v)
{
    if (p.c)
        *p.c = v;
    else
        *p.a = (MPI_Aint)v;
}

/* Checks of datarep, count and datatype (committed when `usable`); MPI_SUCCESS or the class
 * reported. */
static int check_common(const char *fn, const char *datarep, MPI_Count count, MPI_Datatype type,
                        int usable)
{
    if (datarep == NULL)
        return FAIL(fn, MPI_ERR_ARG, "datarep is NULL");
    if (strcmp(datarep, "external32") != 0)
        return FAIL(fn, MPI_ERR_ARG, "datarep \"%.64s\" is not \"external32\"", datarep);
    if (count < 0)
        return FAIL(fn, MPI_ERR_COUNT, "count %lld is negative", count);
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
static int ext_size(const char *fn, const struct loom_datatype *t, MPI_Count count, size_t *size)
{
    if (loom__dt_external32_size(t, (size_t)count, size) || *size > PTRDIFF_MAX)
        return FAIL(fn, MPI_ERR_ARG, "the external32 size of %lld elements of %s overflows",
                    count, t->name);
    return MPI_SUCCESS;
}

/* Both forms of Pack_external_size: the bytes into *n. */
static int pack_external_size(const char *fn, const char *datarep, MPI_Count incount,
                              MPI_Datatype datatype, const void *size, size_t *n)
{
    int rc = check_common(fn, datarep, incount, datatype, 0);
    if (rc)
        return rc;
    if (size == NULL)
        return FAIL(fn, MPI_ERR_ARG, "size is NULL");
    return ext_size(fn, datatype, incount, n);
}

int loom__mpi_pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                                 MPI_Aint *size)
{
    LOOM_API_ENTER("MPI_Pack_external_size");
    size_t n = 0;
    int rc = pack_external_size("MPI_Pack_external_size", datarep, incount, datatype, size, &n);
    if (rc)
        return rc;
    *size = (MPI_Aint)n;
    return MPI_SUCCESS;
}

int loom__mpi_pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                                   MPI_Count *size)
{
    LOOM_API_ENTER("MPI_Pack_external_size_c");
    size_t n = 0;
    int rc =
        pack_external_size("MPI_Pack_external_size_c", datarep, incount, datatype, size, &n);
    if (rc)
        return rc;
    *size = (MPI_Count)n;
    return MPI_SUCCESS;
}

static int pack_external(const char *fn, const char *datarep, const void *inbuf,
                         MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                         MPI_Count outsize, struct pos position)
{
    int rc = check_common(fn, datarep, incount, datatype, 1);
    if (rc)
        return rc;
    if (outsize < 0)
        return FAIL(fn, MPI_ERR_ARG, "outsize %lld is negative", outsize);
    if (!position.a && !position.c)
        return FAIL(fn, MPI_ERR_ARG, "position is NULL");
    MPI_Count at = pos_get(position);
    if (at < 0)
        return FAIL(fn, MPI_ERR_ARG, "position %lld is negative", at);
    size_t need, native = loom__dt_stream_size(datatype, (size_t)incount);
    rc = ext_size(fn, datatype, incount, &need);
    if (rc)
        return rc;
    if (inbuf == NULL && native > 0 && datatype->true_lb == 0)
        return FAIL(fn, MPI_ERR_BUFFER, "inbuf is NULL with count %lld", incount);
    if (outbuf == NULL && need > 0)
        return FAIL(fn, MPI_ERR_BUFFER, "outbuf is NULL");
    if (at > outsize || need > (size_t)(outsize - at))
        return FAIL(fn, MPI_ERR_TRUNCATE,
                    "packing %zu bytes at position %lld overflows outsize %lld", need, at,
                    outsize);
    if (need == 0)
        return MPI_SUCCESS;
    void *tmp = malloc(native); /* the native stream; freed below */
    if (tmp == NULL)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    loom__dt_pack(tmp, inbuf, datatype, (size_t)incount, 0, native);
    rc = loom__dt_external32_encode((char *)outbuf + at, tmp, datatype, (size_t)incount);
    free(tmp);
    pos_set(position, at + (MPI_Count)need);
    if (rc)
        return FAIL(fn, MPI_ERR_CONVERSION, "a value of %s does not fit its external32 size",
                    datatype->name);
    return MPI_SUCCESS;
}

int loom__mpi_pack_external(const char datarep[], const void *inbuf, int incount,
                            MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                            MPI_Aint *position)
{
    LOOM_API_ENTER("MPI_Pack_external");
    return pack_external("MPI_Pack_external", datarep, inbuf, incount, datatype, outbuf, outsize,
                         (struct pos){.a = position});
}

int loom__mpi_pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                              MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                              MPI_Count *position)
{
    LOOM_API_ENTER("MPI_Pack_external_c");
    return pack_external("MPI_Pack_external_c", datarep, inbuf, incount, datatype, outbuf,
                         outsize, (struct pos){.c = position});
}

static int unpack_external(const char *fn, const char *datarep, const void *inbuf,
                           MPI_Count insize, struct pos position, void *outbuf,
                           MPI_Count outcount, MPI_Datatype datatype)
{
    int rc = check_common(fn, datarep, outcount, datatype, 1);
    if (rc)
        return rc;
    if (insize < 0)
        return FAIL(fn, MPI_ERR_ARG, "insize %lld is negative", insize);
    if (!position.a && !position.c)
        return FAIL(fn, MPI_ERR_ARG, "position is NULL");
    MPI_Count at = pos_get(position);
    if (at < 0)
        return FAIL(fn, MPI_ERR_ARG, "position %lld is negative", at);
    size_t need, native = loom__dt_stream_size(datatype, (size_t)outcount);
    rc = ext_size(fn, datatype, outcount, &need);
    if (rc)
        return rc;
    if (inbuf == NULL && need > 0)
        return FAIL(fn, MPI_ERR_BUFFER, "inbuf is NULL");
    if (outbuf == NULL && native > 0 && datatype->true_lb == 0)
        return FAIL(fn, MPI_ERR_BUFFER, "outbuf is NULL with count %lld", outcount);
    if (at > insize || need > (size_t)(insize - at))
        return FAIL(fn, MPI_ERR_TRUNCATE,
                    "unpacking %zu bytes at position %lld overflows insize %lld", need, at,
                    insize);
    if (need == 0)
        return MPI_SUCCESS;
    void *tmp = malloc(native); /* the native stream; freed below */
    if (tmp == NULL)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    rc = loom__dt_external32_decode(tmp, (const char *)inbuf + at, datatype, (size_t)outcount);
    loom__dt_unpack(outbuf, datatype, (size_t)outcount, tmp, 0, native);
    free(tmp);
    pos_set(position, at + (MPI_Count)need);
    if (rc)
        return FAIL(fn, MPI_ERR_CONVERSION, "a value of %s does not fit its native size",
                    datatype->name);
    return MPI_SUCCESS;
}

int loom__mpi_unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                              MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    LOOM_API_ENTER("MPI_Unpack_external");
    return unpack_external("MPI_Unpack_external", datarep, inbuf, insize,
                           (struct pos){.a = position}, outbuf, outcount, datatype);
}

int loom__mpi_unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                                MPI_Count *position, void *outbuf, MPI_Count outcount,
                                MPI_Datatype datatype)
{
    LOOM_API_ENTER("MPI_Unpack_external_c");
    return unpack_external("MPI_Unpack_external_c", datarep, inbuf, insize,
                           (struct pos){.c = position}, outbuf, outcount, datatype);
}
