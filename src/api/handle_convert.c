/* api/handle_convert.c — MPI_Xxx_c2f and MPI_Xxx_f2c: C handles (pointers to loom objects)
 * to Fortran handles (MPI_Fints) and back, through core/fhandle.c's table.
 * c2f of a handle that is neither a live nor a freed object of its kind is -1 (loom writes
 * nothing into memory that is no object); f2c of an integer that names no object is a handle
 * every call refuses (`invalid`), not the null handle, which is valid in places. The calls
 * need no rank: a Fortran binding or a library may convert handles at any time. */
#include "api/api.h"
#include "core/fhandle.h"
#include "core/object.h"

static struct loom_object invalid; /* magic 0: no kind */

static MPI_Fint c2f(void *handle, enum loom_magic kind)
{
    if (handle == NULL)
        return 0;
    if (!loom__object_is(handle, kind) && !loom__object_is(handle, LOOM_MAGIC_FREED))
        return -1;
    return loom__fhandle_of(handle);
}

static void *f2c(MPI_Fint f)
{
    return loom__fhandle_object(f, &invalid);
}

/* One kind: its c2f and f2c. */
#define LOOM_CONVERT(Type, lower, kind)                                                        \
    MPI_Fint loom__mpi_##lower##_c2f(Type h)                                                   \
    {                                                                                          \
        return c2f((void *)h, kind);                                                           \
    }                                                                                          \
    Type loom__mpi_##lower##_f2c(MPI_Fint f)                                                   \
    {                                                                                          \
        return (Type)f2c(f);                                                                   \
    }

LOOM_CONVERT(MPI_Comm, comm, LOOM_MAGIC_COMM)
LOOM_CONVERT(MPI_Datatype, type, LOOM_MAGIC_DATATYPE)
LOOM_CONVERT(MPI_Group, group, LOOM_MAGIC_GROUP)
LOOM_CONVERT(MPI_Request, request, LOOM_MAGIC_REQUEST)
LOOM_CONVERT(MPI_Op, op, LOOM_MAGIC_OP)
LOOM_CONVERT(MPI_Info, info, LOOM_MAGIC_INFO)
LOOM_CONVERT(MPI_Errhandler, errhandler, LOOM_MAGIC_ERRHANDLER)
LOOM_CONVERT(MPI_Message, message, LOOM_MAGIC_MESSAGE)
LOOM_CONVERT(MPI_Session, session, LOOM_MAGIC_SESSION)
LOOM_CONVERT(MPI_Win, win, LOOM_MAGIC_WIN)
