/* fortran/sentinels.c — the storage of the Fortran sentinels (fortran.h says why here). */
#include "fortran/fortran.h"

#define LOOM_F_DEFINE(name, words) LOOM_API MPI_Fint name[words] __attribute__((aligned(16)));
LOOM_FOREACH_F_SENTINEL(LOOM_F_DEFINE)
