/* api/error.c — turning errors into MPI error classes and running error handlers;
 * MPI_Error_string and MPI_Error_class. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "api/api.h"
#include "comm/comm.h"
#include "comm/errhandler.h"
#include "comm/error_class.h"

/* The fatal exit status of MPI_ERRORS_ARE_FATAL and MPI_ERRORS_ABORT. */
#define LOOM_FATAL_STATUS 1

static const char *class_text(int cls)
{
    switch (cls) {
    case MPI_SUCCESS: return "no error";
    case MPI_ERR_BUFFER: return "invalid buffer pointer";
    case MPI_ERR_COUNT: return "invalid count argument";
    case MPI_ERR_TYPE: return "invalid datatype";
    case MPI_ERR_TAG: return "invalid tag";
    case MPI_ERR_COMM: return "invalid communicator";
    case MPI_ERR_RANK: return "invalid rank";
    case MPI_ERR_REQUEST: return "invalid request";
    case MPI_ERR_ROOT: return "invalid root";
    case MPI_ERR_GROUP: return "invalid group";
    case MPI_ERR_OP: return "invalid operation";
    case MPI_ERR_TOPOLOGY: return "invalid topology";
    case MPI_ERR_DIMS: return "invalid dimension argument";
    case MPI_ERR_ARG: return "invalid argument";
    case MPI_ERR_UNKNOWN: return "unknown error";
    case MPI_ERR_TRUNCATE: return "message truncated";
    case MPI_ERR_OTHER: return "other error";
    case MPI_ERR_INTERN: return "internal error";
    case MPI_ERR_IN_STATUS: return "error code is in status";
    case MPI_ERR_PENDING: return "pending request";
    case MPI_ERR_KEYVAL: return "invalid keyval";
    case MPI_ERR_NO_MEM: return "out of memory";
    case MPI_ERR_BASE: return "invalid base";
    case MPI_ERR_INFO_KEY: return "info key too long";
    case MPI_ERR_INFO_VALUE: return "info value too long";
    case MPI_ERR_INFO_NOKEY: return "info key not defined";
    case MPI_ERR_INFO: return "invalid info object";
    case MPI_ERR_SIZE: return "invalid size";
    case MPI_ERR_NOT_SAME: return "arguments not the same on all ranks";
    case MPI_ERR_UNSUPPORTED_OPERATION: return "unsupported operation";
    case MPI_ERR_SESSION: return "invalid session";
    case MPI_ERR_VALUE_TOO_LARGE: return "value too large for the result";
    case MPI_T_ERR_MEMORY: return "MPI_T: out of memory";
    case MPI_T_ERR_NOT_INITIALIZED: return "MPI_T: not initialized";
    case MPI_T_ERR_CANNOT_INIT: return "MPI_T: cannot initialize";
    case MPI_T_ERR_INVALID_INDEX: return "MPI_T: invalid index";
    case MPI_T_ERR_INVALID_ITEM: return "MPI_T: invalid enumeration item";
    case MPI_T_ERR_INVALID_HANDLE: return "MPI_T: invalid handle";
    case MPI_T_ERR_OUT_OF_HANDLES: return "MPI_T: out of handles";
    case MPI_T_ERR_OUT_OF_SESSIONS: return "MPI_T: out of sessions";
    case MPI_T_ERR_INVALID_SESSION: return "MPI_T: invalid session";
    case MPI_T_ERR_CVAR_SET_NOT_NOW: return "MPI_T: control variable cannot be set now";
    case MPI_T_ERR_CVAR_SET_NEVER: return "MPI_T: control variable can never be set";
    case MPI_T_ERR_PVAR_NO_STARTSTOP: return "MPI_T: performance variable cannot be started";
    case MPI_T_ERR_PVAR_NO_WRITE: return "MPI_T: performance variable cannot be written";
    case MPI_T_ERR_PVAR_NO_ATOMIC: return "MPI_T: no atomic read and reset";
    case MPI_T_ERR_INVALID_NAME: return "MPI_T: invalid name";
    case MPI_T_ERR_INVALID: return "MPI_T: invalid argument";
    case MPI_T_ERR_NOT_SUPPORTED: return "MPI_T: not supported";
    }
    if (cls > 0 && cls <= MPI_ERR_LASTCODE)
        return "error";
    return NULL;
}

/* The calling rank's handle through which an error on user handle `comm` is reported. */
static struct loom_comm *error_comm(MPI_Comm comm)
{
    struct loom_comm *c = comm ? loom__comm_resolve(comm) : NULL;
    if (c == NULL && loom__self != NULL)
        c = loom__self->world;
    return c;
}

static int raise_error(MPI_Comm comm, const char *fn, int cls, const char *reason)
{
    struct loom_comm *c = error_comm(comm);
    struct loom_errhandler *eh = c ? c->errh : NULL;
    if (eh == NULL || eh->builtin == 1 || eh->builtin == 3) {
        loom__log("%s: %s", fn, reason);
        loom__job_abort(LOOM_FATAL_STATUS);
    }
    if (eh->builtin == 0 && eh->fn != NULL) {
        MPI_Comm h = (comm && loom__comm_resolve(comm)) ? comm : MPI_COMM_WORLD;
        int code = cls;
        if (eh->fortran_fn)
            loom__errhandler_call_fortran(eh, h, code);
        else
            eh->fn(&h, &code);
    }
    return cls;
}

int loom__api_error(MPI_Comm comm, const char *fn, int errclass, const char *fmt, ...)
{
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return raise_error(comm, fn, errclass, reason);
}

int loom__api_error_code(MPI_Comm comm, const char *fn, int loom_code)
{
    return raise_error(comm, fn, loom__error_class(loom_code), loom__error_reason(loom_code));
}

int loom__api_check_initialized(const char *fn)
{
    struct loom_rank *r = loom__self;
    const char *why;
    if (r == NULL && loom__job.ranks == NULL)
        why = "the program's main was not started by loom: compile the file that defines main "
              "with loomcc (or include mpi.h in it), or start the ranks with loom_run()";
    else if (r == NULL)
        why = "called from a thread that works for no rank (one started before the ranks, "
              "or by the main thread of loom_run)";
    else if (loom__load_acquire(&r->state) == LOOM_RANK_STARTED)
        why = "called before MPI_Init (or MPI_Session_init)";
    else if (loom__load_acquire(&r->state) >= LOOM_RANK_FINALIZING)
        why = "called after MPI_Finalize";
    else
        return MPI_SUCCESS;
    /* No communicator exists for this thread: the fatal path, as the standard asks. */
    loom__log("%s: %s", fn, why);
    loom__job_abort(LOOM_FATAL_STATUS);
}

int loom__api_error_text(int code, char *text)
{
    const char *t = class_text(code);
    if (t != NULL)
        return snprintf(text, MPI_MAX_ERROR_STRING, "%s", t);
    return loom__error_get_string(code, text, MPI_MAX_ERROR_STRING); /* added ones, or -1 */
}

int loom__api_error_class_of(int code)
{
    if (class_text(code) != NULL)
        return code; /* predefined codes are their classes */
    return loom__error_user_class(code);
}

int loom__mpi_error_class(int errorcode, int *errorclass)
{
    int cls = loom__api_error_class_of(errorcode);
    if (cls < 0)
        return loom__api_error(MPI_COMM_NULL, "MPI_Error_class", MPI_ERR_ARG,
                               "%d is not an MPI error code", errorcode);
    if (errorclass == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Error_class", MPI_ERR_ARG,
                               "errorclass is NULL");
    *errorclass = cls;
    return MPI_SUCCESS;
}

int loom__mpi_error_string(int errorcode, char *string, int *resultlen)
{
    if (string == NULL || resultlen == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Error_string", MPI_ERR_ARG,
                               "an output argument is NULL");
    int n = loom__api_error_text(errorcode, string);
    if (n < 0)
        return loom__api_error(MPI_COMM_NULL, "MPI_Error_string", MPI_ERR_ARG,
                               "%d is not an MPI error code", errorcode);
    *resultlen = n;
    return MPI_SUCCESS;
}
