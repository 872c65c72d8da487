/* comm/errhandler.c — the three predefined error handlers and user handlers' lifetime.
 * A user handler is freed when its handle has been freed (MPI_Errhandler_free) and no
 * communicator uses it any more; refs counts both (atomic, any thread). */
#include <stdlib.h>
#include "comm/comm.h"
#include "comm/errhandler.h"
#include "core/atomic.h"
#include "core/fhandle.h"
#include "core/quarantine.h"

struct loom_errhandler loom_mpi_errors_are_fatal = {.obj = {LOOM_MAGIC_ERRHANDLER, 0}, .refs = 1,
                                                    .builtin = 1};
struct loom_errhandler loom_mpi_errors_return = {.obj = {LOOM_MAGIC_ERRHANDLER, 0}, .refs = 1,
                                                 .builtin = 2};
struct loom_errhandler loom_mpi_errors_abort = {.obj = {LOOM_MAGIC_ERRHANDLER, 0}, .refs = 1,
                                                .builtin = 3};

void loom__errhandler_retain(struct loom_errhandler *eh)
{
    if (eh->builtin == 0)
        loom__fetch_add_relaxed(&eh->refs, 1); /* the caller already holds a reference */
}

void loom__errhandler_release(struct loom_errhandler *eh)
{
    if (eh->builtin != 0)
        return;
    /* acq_rel: the last release sees every earlier user's writes before freeing */
    if (loom__fetch_sub_acq_rel(&eh->refs, 1) == 1)
        loom__quarantine_put(eh, NULL);
}

void loom__errhandler_call_fortran(struct loom_errhandler *eh, void *handle, int code)
{
    /* copies: the procedure may write its arguments */
    MPI_Fint fh = loom__fhandle_of(handle), fc = code;
    eh->fortran_fn(&fh, &fc);
}
