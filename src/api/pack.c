/* api/pack.c — MPI_Pack, MPI_Unpack and MPI_Pack_size.
 *
 * The packed format is the plain byte stream of the data (loom runs on one node, one
 * representation), so Pack_size is count * size and packing is loom__dt_pack at the
 * caller's position. Overflowing the buffer is MPI_ERR_TRUNCATE, as in MPICH. */
#include <limits.h>
#include <stdint.h>
#include "api/api.h"
#include "comm/comm.h"
#include "dt/dt.h"

/* Checks common to Pack and Unpack: comm, count, datatype (committed), position; MPI_SUCCESS
 * or the class reported. */
static int check_args(const char *fn, MPI_Comm comm, int count, MPI_Datatype type,
                      const int *position, int bufsize, const char *bufsize_name)
{
    if (loom__comm_resolve(comm) == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "invalid communicator");
    if (count < 0)
        return loom__api_error(comm, fn, MPI_ERR_COUNT, "count %d is negative", count);
    const char *why;
    if (loom__dt_check_usable(type, &why))
        return loom__api_error(comm, fn, MPI_ERR_TYPE, "%s", why);
    if (bufsize < 0)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "%s %d is negative", bufsize_name,
                               bufsize);
    if (position == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "position is NULL");
    if (*position < 0)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "position %d is negative", *position);
    return MPI_SUCCESS;
}

int loom__mpi_pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
                   int *position, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Pack");
    static const char fn[] = "MPI_Pack";
    int rc = check_args(fn, comm, incount, datatype, position, outsize, "outsize");
    if (rc)
        return rc;
    size_t need = loom__dt_stream_size(datatype, (size_t)incount);
    if (inbuf == NULL && need > 0 && datatype->true_lb == 0)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "inbuf is NULL with count %d",
                               incount);
    if (outbuf == NULL && need > 0)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "outbuf is NULL");
    if (*position > outsize || need > (size_t)(outsize - *position))
        return loom__api_error(comm, fn, MPI_ERR_TRUNCATE,
                               "packing %zu bytes at position %d overflows outsize %d", need,
                               *position, outsize);
    loom__dt_pack((char *)outbuf + *position, inbuf, datatype, (size_t)incount, 0, need);
    *position += (int)need;
    return MPI_SUCCESS;
}

int loom__mpi_unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                     MPI_Datatype datatype, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Unpack");
    static const char fn[] = "MPI_Unpack";
    int rc = check_args(fn, comm, outcount, datatype, position, insize, "insize");
    if (rc)
        return rc;
    size_t need = loom__dt_stream_size(datatype, (size_t)outcount);
    if (inbuf == NULL && need > 0)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "inbuf is NULL");
    if (outbuf == NULL && need > 0 && datatype->true_lb == 0)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "outbuf is NULL with count %d",
                               outcount);
    if (*position > insize || need > (size_t)(insize - *position))
        return loom__api_error(comm, fn, MPI_ERR_TRUNCATE,
                               "unpacking %zu bytes at position %d overflows insize %d", need,
                               *position, insize);
    loom__dt_unpack(outbuf, datatype, (size_t)outcount, (const char *)inbuf + *position, 0,
                    need);
    *position += (int)need;
    return MPI_SUCCESS;
}

int loom__mpi_pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    LOOM_API_ENTER("MPI_Pack_size");
    static const char fn[] = "MPI_Pack_size";
    if (loom__comm_resolve(comm) == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "invalid communicator");
    if (incount < 0)
        return loom__api_error(comm, fn, MPI_ERR_COUNT, "count %d is negative", incount);
    const char *why = loom__dt_bad_handle(datatype);
    if (why)
        return loom__api_error(comm, fn, MPI_ERR_TYPE, "datatype %s", why);
    if (size == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "size is NULL");
    size_t need;
    if (__builtin_mul_overflow(datatype->size, (size_t)incount, &need) || need > INT_MAX)
        return loom__api_error(comm, fn, MPI_ERR_ARG,
                               "packed size of %d elements of %zu bytes exceeds INT_MAX",
                               incount, datatype->size);
    *size = (int)need;
    return MPI_SUCCESS;
}
