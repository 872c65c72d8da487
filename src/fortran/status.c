/* fortran/status.c — MPI_STATUS_F2F08 and MPI_STATUS_F082F, the two status conversions that
 * Fortran has: between an INTEGER status(MPI_STATUS_SIZE) and a TYPE(MPI_Status), which hold
 * the same words (mpi.h's MPI_F08_status), so the C conversions serve as they are. */
#include "api/api.h"
#include "fortran/fortran.h"

static void status_f2f08(const MPI_Fint *f_status, MPI_Fint *f08_status, MPI_Fint *ierror)
{
    *ierror = loom__mpi_status_f2f08(f_status, (MPI_F08_status *)f08_status);
}
LOOM_F_ENTRY(status_f2f08, (const MPI_Fint *f_status, MPI_Fint *f08_status, MPI_Fint *ierror),
             (f_status, f08_status, ierror))

static void status_f082f(const MPI_Fint *f08_status, MPI_Fint *f_status, MPI_Fint *ierror)
{
    *ierror = loom__mpi_status_f082f((const MPI_F08_status *)f08_status, f_status);
}
LOOM_F_ENTRY(status_f082f, (const MPI_Fint *f08_status, MPI_Fint *f_status, MPI_Fint *ierror),
             (f08_status, f_status, ierror))
