/* A window over ranks of several node processes: not made yet, so the job ends with a message
 * that says so (tests/multinode/CMakeLists.txt checks it) instead of hanging or crashing. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int buf[4];
    MPI_Win w;
    MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    printf("window: made\n");
    MPI_Win_free(&w);
    MPI_Finalize();
    return 0;
}
