/* fortran/sentinels.c — the storage of the Fortran sentinels (fortran.h says why here). */
#include "fortran/fortran.h"

/* aligned like gfortran's COMMON blocks of INTEGERs (and more: a status is read as words) */
#define LOOM_F_DEFINE(name, type, n) LOOM_API type name[n] __attribute__((aligned(8)));
LOOM_FOREACH_F_SENTINEL(LOOM_F_DEFINE)
