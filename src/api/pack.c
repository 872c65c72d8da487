/* api/pack.c — MPI_Pack, MPI_Unpack and MPI_Pack_size, and their big-count _c forms.
 *
 * The packed format is the plain byte stream of the data (loom runs on one node, one
 * representation), so Pack_size is count * size and packing is loom__dt_pack at the
 * caller's position. Overflowing the buffer is MPI_ERR_TRUNCATE, as in MPICH. Each int call
 * and its _c twin run one implementation on MPI_Count; the int position is read and written
 * through `struct pos` (a new position never exceeds the int buffer size, so it fits). */
#include <limits.h>
#include <stdint.h>
#include "api/api.h"
#include "comm/comm.h"
#include "dt/dt.h"

/* The caller's position: an int (MPI_Pack, MPI_Unpack) or an MPI_Count (the _c forms). */
struct pos {
    int *i;
    MPI_Count *c;
};

static int pos_null(struct pos p)
{
    return p.i == NULL && p.c == NULL;
}

static MPI_Count pos_get(struct pos p)
{
    return p.c ? *p.c : *p.i;
}

/* v <= the buffer size, which for the int form is an int */
static void pos_set(struct pos p, MPI_Count v)
{
    if (p.c)
        *p.c = v;
    else
        *p.i = (int)v;
}

/* Checks common to Pack and Unpack: comm, count, datatype (committed), position; MPI_SUCCESS
 * or the class reported. */
static int check_args(const char *fn, MPI_Comm comm, MPI_Count count, MPI_Datatype type,
                      struct pos position, MPI_Count bufsize, const char *bufsize_name)
{
    if (loom__comm_resolve(comm) == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "invalid communicator");
    if (count < 0)
        return loom__api_error(comm, fn, MPI_ERR_COUNT, "count %lld is negative", count);
    const char *why;
    if (loom__dt_check_usable(type, &why))
        return loom__api_error(comm, fn, MPI_ERR_TYPE, "%s", why);
    if (bufsize < 0)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "%s %lld is negative", bufsize_name,
                               bufsize);
    if (pos_null(position))
        return loom__api_error(comm, fn, MPI_ERR_ARG, "position is NULL");
    if (pos_get(position) < 0)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "position %lld is negative",
                               pos_get(position));
    return MPI_SUCCESS;
}

/* count elements of type in bytes into *need, 0; 1 when that overflows. */
static int stream_bytes(MPI_Datatype type, MPI_Count count, size_t *need)
{
    return __builtin_mul_overflow(type->size, (size_t)count, need) || *need > PTRDIFF_MAX;
}

static int pack(const char *fn, const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                void *outbuf, MPI_Count outsize, struct pos position, MPI_Comm comm)
{
    int rc = check_args(fn, comm, incount, datatype, position, outsize, "outsize");
    if (rc)
        return rc;
    MPI_Count at = pos_get(position);
    size_t need = 0;
    int over = stream_bytes(datatype, incount, &need); /* then it cannot fit either */
    if (inbuf == NULL && (over || need > 0) && datatype->true_lb == 0)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "inbuf is NULL with count %lld",
                               incount);
    if (outbuf == NULL && (over || need > 0))
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "outbuf is NULL");
    if (over || at > outsize || need > (size_t)(outsize - at))
        return loom__api_error(comm, fn, MPI_ERR_TRUNCATE,
                               "packing %lld elements of %zu bytes at position %lld overflows "
                               "outsize %lld",
                               incount, datatype->size, at, outsize);
    loom__dt_pack((char *)outbuf + at, inbuf, datatype, (size_t)incount, 0, need);
    pos_set(position, at + (MPI_Count)need);
    return MPI_SUCCESS;
}

int loom__mpi_pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
                   int *position, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Pack");
    return pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize,
                (struct pos){.i = position}, comm);
}

int loom__mpi_pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                     MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Pack_c");
    return pack("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize,
                (struct pos){.c = position}, comm);
}

static int unpack(const char *fn, const void *inbuf, MPI_Count insize, struct pos position,
                  void *outbuf, MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    int rc = check_args(fn, comm, outcount, datatype, position, insize, "insize");
    if (rc)
        return rc;
    MPI_Count at = pos_get(position);
    size_t need = 0;
    int over = stream_bytes(datatype, outcount, &need); /* then it cannot fit either */
    if (inbuf == NULL && (over || need > 0))
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "inbuf is NULL");
    if (outbuf == NULL && (over || need > 0) && datatype->true_lb == 0)
        return loom__api_error(comm, fn, MPI_ERR_BUFFER, "outbuf is NULL with count %lld",
                               outcount);
    if (over || at > insize || need > (size_t)(insize - at))
        return loom__api_error(comm, fn, MPI_ERR_TRUNCATE,
                               "unpacking %lld elements of %zu bytes at position %lld overflows "
                               "insize %lld",
                               outcount, datatype->size, at, insize);
    loom__dt_unpack(outbuf, datatype, (size_t)outcount, (const char *)inbuf + at, 0, need);
    pos_set(position, at + (MPI_Count)need);
    return MPI_SUCCESS;
}

int loom__mpi_unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                     MPI_Datatype datatype, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Unpack");
    return unpack("MPI_Unpack", inbuf, insize, (struct pos){.i = position}, outbuf, outcount,
                  datatype, comm);
}

int loom__mpi_unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                       MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    LOOM_API_ENTER("MPI_Unpack_c");
    return unpack("MPI_Unpack_c", inbuf, insize, (struct pos){.c = position}, outbuf, outcount,
                  datatype, comm);
}

/* Both forms of Pack_size: the packed bytes of incount elements into *need. */
static int pack_size(const char *fn, MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
                     const void *size, size_t *need)
{
    if (loom__comm_resolve(comm) == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "invalid communicator");
    if (incount < 0)
        return loom__api_error(comm, fn, MPI_ERR_COUNT, "count %lld is negative", incount);
    const char *why = loom__dt_bad_handle(datatype);
    if (why)
        return loom__api_error(comm, fn, MPI_ERR_TYPE, "datatype %s", why);
    if (size == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "size is NULL");
    if (stream_bytes(datatype, incount, need))
        return loom__api_error(comm, fn, MPI_ERR_ARG,
                               "packed size of %lld elements of %zu bytes exceeds the address "
                               "space",
                               incount, datatype->size);
    return MPI_SUCCESS;
}

int loom__mpi_pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    LOOM_API_ENTER("MPI_Pack_size");
    static const char fn[] = "MPI_Pack_size";
    size_t need = 0;
    int rc = pack_size(fn, incount, datatype, comm, size, &need);
    if (rc)
        return rc;
    /* an int result that cannot hold the value: MPI-4's class for it (MPI_Pack_size_c can) */
    if (need > INT_MAX)
        return loom__api_error(comm, fn, MPI_ERR_VALUE_TOO_LARGE,
                               "packed size %zu of %d elements exceeds INT_MAX: use "
                               "MPI_Pack_size_c",
                               need, incount);
    *size = (int)need;
    return MPI_SUCCESS;
}

int loom__mpi_pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    LOOM_API_ENTER("MPI_Pack_size_c");
    size_t need = 0;
    int rc = pack_size("MPI_Pack_size_c", incount, datatype, comm, size, &need);
    if (rc)
        return rc;
    *size = (MPI_Count)need;
    return MPI_SUCCESS;
}
