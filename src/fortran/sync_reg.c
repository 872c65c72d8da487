/* fortran/sync_reg.c — MPI_F_SYNC_REG(buf) (MPI 4.1 section 19.1.17), for mpif.h and the
 * modules alike: a Fortran program calls it on a buffer that a nonblocking operation may have
 * changed, so that the compiler stores what it kept of buf in registers before the call and
 * loads it again after. A call into libloom, which the compiler cannot see into, with buf's
 * address, is all it takes; there is nothing to do here. */
#include "fortran/fortran.h"

static void f_sync_reg(void *buf)
{
    (void)buf;
}
/* (named f_sync_reg: the macro makes mpi_f_sync_reg_ and pmpi_f_sync_reg_ from it) */
LOOM_F_ENTRY(f_sync_reg, (void *buf), (buf))
