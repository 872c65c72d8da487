/* api/pcontrol.c — MPI_Pcontrol (MPI 4.1, section 15.2.4).
 * The call exists for profiling tools: a tool that defines MPI_Pcontrol sees the level (and
 * whatever the program passes after it) and reaches loom through PMPI_Pcontrol. loom itself
 * profiles nothing, so with any level the call does nothing and succeeds; the generated entry
 * points pass on only `level`, the arguments after it never reach here (docs/bindings.md). */
#include "api/api.h"

int loom__mpi_pcontrol(const int level, ...)
{
    LOOM_API_ENTER("MPI_Pcontrol");
    (void)level; /* 0 disables profiling, 1 is the default, 2 the fullest: none applies */
    return MPI_SUCCESS;
}
