/* bench_mpi.h — helpers shared by the plain MPI benchmark programs of bench/ that need MPI
 * itself (bench_util.h has those that need only the C library). */
#ifndef LOOM_BENCH_MPI_H
#define LOOM_BENCH_MPI_H
#include <mpi.h>
#include <stdio.h>

/* "# library: <MPI_Get_library_version on one line>": the drivers put it in their reports. */
static inline void bench_print_library(void)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    for (int i = 0; lib[i]; i++)
        if (lib[i] == '\n')
            lib[i] = ' ';
    printf("# library: %s\n", lib);
}
#endif
