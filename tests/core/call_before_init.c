/* An MPI call before MPI_Init is reported on the fatal path: one line naming the call and
 * the reason, nonzero status. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    return 0;
}
