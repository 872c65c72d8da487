/* The fixed Fortran handles as a program that does not link libloom sees them (the Fortran
 * bindings generate their constants this way): mpi.h and core/fhandle_fixed.h only, every
 * entry printed as "NAME INDEX"; the test checks a few lines of the output. */
#define LOOM_NO_MAIN_RENAME
#include <stdio.h>
#include "core/fhandle_fixed.h"

int main(void)
{
    int n = 0;
#define X(handle, index) n += printf("%s %d\n", #handle, index) > 0;
    LOOM_FOREACH_FIXED_FHANDLE(X)
    LOOM_FOREACH_FIXED_FHANDLE_ALIAS(X)
#undef X
    printf("%d fixed handles, the last reserved index %d\n", n, LOOM_FHANDLE_FIXED_LAST);
    return 0;
}
