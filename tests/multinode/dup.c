/* MPI_Comm_dup of a world that spans node processes: not made yet, so the job ends with a
 * message that says so (tests/multinode/CMakeLists.txt checks it) instead of hanging. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    printf("dup: made\n");
    MPI_Comm_free(&c);
    MPI_Finalize();
    return 0;
}
