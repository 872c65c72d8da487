/* api/errhandler.c — MPI_Comm_{set,get,create,call}_errhandler and MPI_Errhandler_free. */
#include <stdio.h>
#include <stdlib.h>
#include "api/api.h"
#include "api/shared_impl.h"
#include "comm/comm.h"

int loom__mpi_comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    LOOM_API_ENTER("MPI_Comm_create_errhandler");
    return loom__api_create_errhandler("MPI_Comm_create_errhandler", fn, errhandler);
}

int loom__api_create_errhandler(const char *call, MPI_Comm_errhandler_function *fn,
                                MPI_Errhandler *errhandler)
{
    if (fn == NULL || errhandler == NULL)
        return loom__api_error(MPI_COMM_WORLD, call, MPI_ERR_ARG, "%s is NULL",
                               fn == NULL ? "function" : "errhandler");
    struct loom_errhandler *eh = calloc(1, sizeof *eh);
    if (eh == NULL)
        return loom__api_error_code(MPI_COMM_WORLD, call, LOOM_ERR_NOMEM);
    loom__object_init(&eh->obj, LOOM_MAGIC_ERRHANDLER);
    atomic_init(&eh->refs, 1);
    eh->fn = fn;
    *errhandler = eh;
    return MPI_SUCCESS;
}

int loom__mpi_comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    LOOM_API_ENTER("MPI_Comm_set_errhandler");
    return loom__api_set_errhandler("MPI_Comm_set_errhandler", comm, errhandler);
}

int loom__api_set_errhandler(const char *fn, MPI_Comm comm, MPI_Errhandler errhandler)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM,
                               "invalid communicator");
    if (!loom__object_is(errhandler, LOOM_MAGIC_ERRHANDLER))
        return loom__api_error(comm, fn, MPI_ERR_ARG,
                               "invalid error handler");
    if (errhandler->session_fn != NULL || errhandler->win_fn != NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "a %s's error handler cannot be a "
                               "communicator's", errhandler->win_fn ? "window" : "session");
    loom__errhandler_retain(errhandler);
    struct loom_errhandler *old = c->errh;
    c->errh = errhandler;
    loom__errhandler_release(old);
    return MPI_SUCCESS;
}

int loom__mpi_comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    LOOM_API_ENTER("MPI_Comm_get_errhandler");
    return loom__api_get_errhandler("MPI_Comm_get_errhandler", comm, errhandler);
}

int loom__api_get_errhandler(const char *fn, MPI_Comm comm, MPI_Errhandler *errhandler)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM,
                               "invalid communicator");
    if (errhandler == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG,
                               "errhandler is NULL");
    /* The returned handle is a new reference that the user frees with MPI_Errhandler_free. */
    loom__errhandler_retain(c->errh);
    *errhandler = c->errh;
    return MPI_SUCCESS;
}

int loom__mpi_comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    LOOM_API_ENTER("MPI_Comm_call_errhandler");
    if (loom__comm_resolve(comm) == NULL)
        return loom__api_error(comm, "MPI_Comm_call_errhandler", MPI_ERR_COMM,
                               "invalid communicator");
    char text[MPI_MAX_ERROR_STRING];
    if (loom__api_error_text(errorcode, text) < 0)
        snprintf(text, sizeof text, "not an MPI error code");
    loom__api_error(comm, "MPI_Comm_call_errhandler", errorcode, "error %d: %s", errorcode,
                    text);
    return MPI_SUCCESS;
}

int loom__mpi_errhandler_free(MPI_Errhandler *errhandler)
{
    LOOM_API_ENTER("MPI_Errhandler_free");
    if (errhandler == NULL || !loom__object_is(*errhandler, LOOM_MAGIC_ERRHANDLER))
        return loom__api_error(MPI_COMM_WORLD, "MPI_Errhandler_free", MPI_ERR_ARG,
                               "invalid error handler");
    loom__errhandler_release(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
