/* comm/errhandler.c — the three predefined error handlers and user handlers' lifetime.
 * A user handler is freed when its handle has been freed (MPI_Errhandler_free) and no
 * communicator uses it any more; refs counts both (atomic, any thread). */
#include <stdlib.h>
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/quarantine.h"

struct loom_errhandler loom_mpi_errors_are_fatal = {{LOOM_MAGIC_ERRHANDLER, 0}, 1, 1, NULL, NULL, NULL};
struct loom_errhandler loom_mpi_errors_return = {{LOOM_MAGIC_ERRHANDLER, 0}, 1, 2, NULL, NULL, NULL};
struct loom_errhandler loom_mpi_errors_abort = {{LOOM_MAGIC_ERRHANDLER, 0}, 1, 3, NULL, NULL, NULL};

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
