/* The environment calls: MPI_Init/Finalize, Initialized/Finalized, rank and size on
 * MPI_COMM_WORLD and MPI_COMM_SELF, versions, processor name, Wtime/Wtick, thread level. */
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "check.h"

int main(int argc, char **argv)
{
    int flag = -1, rank, size, provided, v, sv, len;
    MPI_Initialized(&flag);
    CHECK_INT(flag, 0);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    MPI_Initialized(&flag);
    CHECK_INT(flag, 1);
    MPI_Finalized(&flag);
    CHECK_INT(flag, 0);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_INT(size, atoi(getenv("LOOM_NP") ? getenv("LOOM_NP") : "1"));
    CHECK(rank >= 0 && rank < size);
    MPI_Comm_rank(MPI_COMM_SELF, &v);
    CHECK_INT(v, 0);
    MPI_Comm_size(MPI_COMM_SELF, &v);
    CHECK_INT(v, 1);
    MPI_Query_thread(&v);
    CHECK_INT(v, MPI_THREAD_MULTIPLE);
    MPI_Is_thread_main(&flag);
    CHECK_INT(flag, 1);
    MPI_Get_version(&v, &sv);
    CHECK_INT(v, MPI_VERSION);
    CHECK_INT(sv, MPI_SUBVERSION);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_library_version(lib, &len);
    CHECK(strncmp(lib, "loom ", 5) == 0);
    CHECK_INT(len, strlen(lib));
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(host, &len);
    CHECK(len > 0 && len == (int)strlen(host));
    double t0 = MPI_Wtime(), t1 = MPI_Wtime();
    CHECK(t1 >= t0);
    CHECK(MPI_Wtick() > 0 && MPI_Wtick() < 1);
    /* each rank has its own copy of argv */
    CHECK(argv[0] != NULL);
    MPI_Finalize();
    MPI_Finalized(&flag);
    CHECK_INT(flag, 1);
    return 0;
}
