/* A dynamic window (MPI_Win_create_dynamic) over ranks of several node processes: windows of
 * memory given at creation work across node processes, but attaching memory to a window after
 * its creation is not made there yet, so the job ends with a message that says so
 * (tests/multinode/CMakeLists.txt checks it under each launcher) instead of hanging or
 * crashing. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Win w;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    printf("window: made\n");
    MPI_Win_free(&w);
    MPI_Finalize();
    return 0;
}
